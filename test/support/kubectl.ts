/**
 * Runs the real `kubectl` binary against a kubeconfig, with its own discovery cache, and returns
 * what it printed. Tests assert on what a user would see.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectlRunner(kubeconfig: string) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'kubectl-cache-'));
  const run = (args: string[], stdin?: string): Promise<KubectlResult> =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'kubectl',
        ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args],
        { timeout: 60_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, KUBECONFIG: kubeconfig } },
        (err, stdout, stderr) => {
          if (err && typeof (err as { code?: unknown }).code !== 'number') {
            reject(new Error(`kubectl could not run (is it installed?): ${err.message}`));
            return;
          }
          resolve({ code: err ? Number((err as { code: number }).code) : 0, stdout, stderr });
        },
      );
      if (stdin !== undefined) child.stdin?.end(stdin);
    });
  /** Runs and fails the test with kubectl's output unless it exits 0. */
  const ok = async (args: string[], stdin?: string): Promise<string> => {
    const r = await run(args, stdin);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}:\n${r.stderr}${r.stdout}`);
    return r.stdout;
  };
  return { run, ok, cleanup: () => rmSync(cacheDir, { recursive: true, force: true }) };
}
