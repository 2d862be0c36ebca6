/**
 * `skctl up` (what `npm start` runs), driven as a user would: a child process, Ctrl-C, restart.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createDynamoClient } from '../../lib/adapters/dynamodb/client.ts';
import { DynamoRowStore } from '../../lib/adapters/dynamodb/row-store.ts';
import { createSqsClient, SqsTransport } from '../../lib/adapters/sqs/transport.ts';
import { systemClock } from '../../lib/clock/clock.ts';
import { LOCAL_QUEUE_PREFIX, LOCAL_TABLE } from '../../lib/local/runtime.ts';
import { encodeMessage } from '../../lib/queue/messages.ts';
import { queueName } from '../../lib/queue/naming.ts';
import { RowObjectStore } from '../../lib/store/row-object-store.ts';
import { configMap } from '../support/factories.ts';

const SKCTL = new URL('../../bin/skctl.mjs', import.meta.url).pathname;
const REPO_ROOT = new URL('../../', import.meta.url).pathname;
const dirs: string[] = [];
const children: ChildProcess[] = [];
after(() => {
  // A failed assertion must not leave a control plane running (it would keep the test file alive).
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'skctl-e2e-'));
  dirs.push(d);
  return d;
}

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function skctl(args: string[], cwd: string): Running {
  const child = spawn(process.execPath, [SKCTL, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitFor(what: string, run: Running, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(run.stdout())) {
    if (Date.now() > deadline) {
      run.child.kill('SIGKILL');
      throw new Error(`timed out waiting for ${what}\nstdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`);
    }
    if (run.child.exitCode !== null)
      throw new Error(
        `skctl exited early (${run.child.exitCode}) waiting for ${what}\n${run.stdout()}\n${run.stderr()}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

function endpoints(dataDir: string): { dynamodb: string; sqs: string } {
  return JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'));
}

describe('skctl up', () => {
  it('runs, keeps objects and queued messages across a Ctrl-C restart, and logs structured JSON', async () => {
    const cwd = tempDir();
    const dataDir = join(cwd, '.skctl');
    const first = skctl(['up', '--log-format', 'json', '--log-level', 'DEBUG', '--port', '0'], cwd);
    await waitFor('Ready', first, /Ready\. Press Ctrl-C to stop\./);
    assert.match(
      first.stdout(),
      /API {10}https:\/\/127\.0\.0\.1:\d+ {2}\(Kubernetes-compatible; kubeconfig \.skctl\/kubeconfig, context karmada-local\)/,
    );
    assert.match(
      first.stdout(),
      /export KUBECONFIG=.*\.skctl\/kubeconfig\n {2}kubectl apply -f examples\/nginx\/ && kubectl get deployments,propagationpolicies/,
    );
    assert.match(
      first.stdout(),
      /members {6}member1 {2}https:\/\/127\.0\.0\.1:\d+ {2}aws\/us-east-1 \(us-east-1a, us-east-1b\) {2}kubeconfig \.skctl\/members\/member1\.kubeconfig/,
    );
    assert.match(first.stdout(), /^ {15}member3 /m, 'three simulated members by default');

    // The "try this" lines work as printed, from the repository root where npm start runs.
    const tryThis = first.stdout().split('Try, in another terminal:\n')[1]!.split('\n').slice(0, 2);
    const tried = spawnSync('sh', ['-c', tryThis.map((l) => l.trim()).join('\n')], {
      cwd: REPO_ROOT,
      env: { ...process.env, KUBECACHEDIR: join(cwd, 'kube-cache') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(tried.status, 0, `${tryThis.join('\n')}\n${tried.stdout}${tried.stderr}`);
    assert.match(tried.stdout, /deployment\.apps\/nginx created/);
    assert.match(tried.stdout, /propagationpolicy\.policy\.karmada\.io\/nginx-propagation created/);
    assert.match(tried.stdout, /^deployment\.apps\/nginx\s+0\/3\s/m);
    assert.match(tried.stdout, /^propagationpolicy\.policy\.karmada\.io\/nginx-propagation\s+Abort\s+0\s/m);
    await waitFor('the start-up resync to be logged', { ...first, stdout: first.stderr }, /"message":"resync started"/);

    const logLine = first
      .stderr()
      .split('\n')
      .find((l) => l.includes('"message":"resync started"'))!;
    const log = JSON.parse(logLine) as Record<string, unknown>;
    assert.equal(log.level, 'INFO');
    assert.equal(log.controller, 'resync');
    assert.equal(log.key, '*');
    assert.match(String(log.reconcileID), /^[0-9a-f-]{36}$/);
    assert.equal(log.queue, 'standard');
    assert.equal(log.function_name, `${LOCAL_QUEUE_PREFIX}-resync`);

    // Write an object, as the API will, and leave a timer queued for 10 minutes.
    const ep = endpoints(dataDir);
    const dynamo = createDynamoClient({ region: 'us-east-1', endpoint: ep.dynamodb });
    const store = new RowObjectStore(new DynamoRowStore({ client: dynamo, tableName: LOCAL_TABLE }), {
      clock: systemClock,
    });
    await store.create(configMap('kept', { a: '1' }));
    dynamo.destroy();
    const sqs = createSqsClient({ region: 'us-east-1', endpoint: ep.sqs });
    const url = `${ep.sqs.replace('127.0.0.1', 'sqs.us-east-1.localhost')}/000000000000/${queueName(LOCAL_QUEUE_PREFIX, 'resync', 'standard')}`;
    const timer = encodeMessage({ key: '*', lane: 'standard', delayMs: 600_000, reason: 'timer' }, Date.now());
    await new SqsTransport(sqs).send(url, [timer]);
    sqs.destroy();

    first.child.kill('SIGINT');
    assert.equal(await first.exited, 0);
    // Saved: the 10-minute timer, and the cluster probes the sweep had scheduled for the minute.
    assert.match(first.stdout(), /Stopped cleanly\..* \d+ queued message\(s\) saved for the next start/);
    assert.ok(existsSync(join(dataDir, 'queues.json')));
    assert.match(readFileSync(join(dataDir, 'queues.json'), 'utf8'), /\\"reason\\":\\"timer\\"/);
    assert.ok(!existsSync(join(dataDir, 'skctl.pid')), 'lock released');

    const second = skctl(['up', '--log-level', 'WARN', '--port', '0'], cwd);
    await waitFor('Ready', second, /Ready\./);
    assert.match(second.stdout(), /restored {5}\d+ queued message\(s\) from the last shutdown/);
    const ep2 = endpoints(dataDir);
    const dynamo2 = createDynamoClient({ region: 'us-east-1', endpoint: ep2.dynamodb });
    const store2 = new RowObjectStore(new DynamoRowStore({ client: dynamo2, tableName: LOCAL_TABLE }), {
      clock: systemClock,
    });
    const kept = await store2.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'kept' });
    dynamo2.destroy();
    assert.deepEqual(kept?.data, { a: '1' });

    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
    assert.match(second.stdout(), /\d+ queued message\(s\) saved/);
    assert.match(
      readFileSync(join(dataDir, 'queues.json'), 'utf8'),
      /\\"reason\\":\\"timer\\"/,
      'the 10-minute timer is still pending, still kept',
    );
  });

  it('refuses a second instance on the same data directory with a clear message', async () => {
    const cwd = tempDir();
    const first = skctl(['up', '--log-level', 'SILENT', '--port', '0'], cwd);
    await waitFor('Ready', first, /Ready\./);
    const second = skctl(['up', '--port', '0'], cwd);
    assert.equal(await second.exited, 2);
    assert.match(second.stderr(), /another skctl \(pid \d+\) is using .*\.skctl; stop it first/);
    first.child.kill('SIGINT');
    assert.equal(await first.exited, 0);
  });

  it('--in-memory writes nothing to disk', async () => {
    const cwd = tempDir();
    const run = skctl(['up', '--in-memory', '--log-level', 'SILENT', '--port', '0'], cwd);
    await waitFor('Ready', run, /Ready\./);
    assert.match(run.stdout(), /data {9}in memory/);
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 0);
    assert.ok(!existsSync(join(cwd, '.skctl')));
  });

  it('rejects an unknown flag and a bad schedule with messages that say what to fix', async () => {
    const cwd = tempDir();
    const typo = skctl(['up', '--data-dri', 'x'], cwd);
    assert.equal(await typo.exited, 2);
    assert.match(typo.stderr(), /Unknown option '--data-dri'[\s\S]*known flags: --data-dir/);
    const bad = skctl(['up', '--in-memory', '--resync-schedule', 'rate(5 minute)'], cwd);
    assert.equal(await bad.exited, 2);
    assert.match(bad.stderr(), /invalid --resync-schedule:[\s\S]*use the plural unit for 5/);
  });
});
