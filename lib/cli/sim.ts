/**
 * `skctl sim`: drives the simulated member clusters of a running `skctl up` through its control
 * socket — make one unreachable, not ready, slow or failing, then recover it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { controlRequest, type MemberView } from '../sim/control.ts';
import { FAULT_MODES } from '../sim/member.ts';
import { durationFlag, enumFlag, parseFlags, UsageError } from './args.ts';

export const SIM_HELP = `Drive the simulated member clusters of a running skctl up.

Usage:
  skctl sim list
  skctl sim fail <member> [--mode unreachable|not-ready|slow|errors] [--delay 5s]
  skctl sim recover <member>

Modes:
  unreachable   connections are refused (default)
  not-ready     /readyz and /healthz answer 500; the API still serves
  slow          every response is held back by --delay (default 5s)
  errors        every request answers 500

Flags:
  --data-dir <dir>   the data directory of the running skctl up (default .skctl)
  --control <path>   its control socket instead (printed by skctl up; needed with --in-memory)
`;

function socketPath(values: Record<string, unknown>): string {
  if (values.control) return String(values.control);
  const dataDir = resolve(String(values['data-dir'] ?? '.skctl'));
  const runtimeFile = join(dataDir, 'runtime.json');
  if (!existsSync(runtimeFile)) {
    throw new UsageError(
      `skctl sim: no running skctl up found in ${dataDir} (no runtime.json): start one with "npm start", or pass --control <socket>`,
    );
  }
  return (JSON.parse(readFileSync(runtimeFile, 'utf8')) as { control: string }).control;
}

function describe(m: MemberView): string {
  const fault = m.fault
    ? `${m.fault.mode}${m.fault.delayMs !== undefined ? ` (${m.fault.delayMs} ms)` : ''}`
    : 'healthy';
  return `${m.name.padEnd(12)} ${fault.padEnd(18)} ${m.url}`;
}

export async function runSim(args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseFlags('sim', args, {
    'data-dir': { type: 'string' },
    control: { type: 'string' },
    mode: { type: 'string' },
    delay: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const [verb, member] = positionals;
  if (values.help || verb === undefined) {
    out(SIM_HELP);
    return values.help ? 0 : 2;
  }
  const socket = socketPath(values);
  const call = async (method: string, path: string, body?: unknown) => {
    try {
      return await controlRequest(socket, method, path, body);
    } catch (err) {
      throw new UsageError(`skctl sim: cannot reach skctl up at ${socket}: ${(err as Error).message}`);
    }
  };
  if (verb === 'list') {
    const res = await call('GET', '/members');
    out(`${'NAME'.padEnd(12)} ${'STATE'.padEnd(18)} URL`);
    for (const m of res.body as MemberView[]) out(describe(m));
    return 0;
  }
  if (verb !== 'fail' && verb !== 'recover')
    throw new UsageError(`skctl sim: unknown subcommand ${JSON.stringify(verb)}; use list, fail or recover`);
  if (!member) throw new UsageError(`skctl sim ${verb}: name the member, e.g. skctl sim ${verb} member2`);
  const body =
    verb === 'fail'
      ? {
          mode: enumFlag('sim', 'mode', values.mode, FAULT_MODES, 'unreachable'),
          ...(values.delay !== undefined ? { delayMs: durationFlag('sim', 'delay', values.delay)! } : {}),
        }
      : undefined;
  const res = await call('POST', `/members/${encodeURIComponent(member)}/${verb}`, body);
  if (res.status !== 200) throw new UsageError(`skctl sim ${verb}: ${(res.body as { error: string }).error}`);
  out(describe(res.body as MemberView));
  return 0;
}
