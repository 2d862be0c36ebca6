/**
 * `skctl sim`: drives the simulated member clusters of a running `skctl up` through its control
 * socket — make one unreachable, not ready, slow or failing, then recover it; make one workload on
 * one member unhealthy, then healthy again.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { controlRequest, type MemberView, type WorkloadMarkView } from '../sim/control.ts';
import { FAULT_MODES, type Fault } from '../sim/member.ts';
import { describeWorkload, parseWorkloadTarget } from '../sim/workload-target.ts';
import { durationFlag, enumFlag, parseFlags, UsageError } from './args.ts';

export const SIM_HELP = `Drive the simulated member clusters of a running skctl up.

Usage:
  skctl sim list
  skctl sim fail <member> [--mode unreachable|not-ready|slow|errors] [--delay 5s]
  skctl sim recover <member>
  skctl sim unhealthy <member> <kind>/<name> [-n <namespace>]
  skctl sim healthy <member> <kind>/<name> [-n <namespace>]

Modes:
  unreachable   connections are refused (default)
  not-ready     /readyz and /healthz answer 500; the API still serves
  slow          every response is held back by --delay (default 5s)
  errors        every request answers 500

Unhealthy workloads:
  <kind> is what kubectl takes: deployment, deploy, statefulset, sts, daemonset, ds, replicaset, rs,
  pod, po, job, or a custom kind the member serves (flinkdeployment, flinkdeployments.flink.apache.org).
  The workload's pods crash-loop (never Ready); a custom resource reports its kind's failed state.
  The object need not exist yet; the mark holds through updates and re-creation until healthy.

Flags:
  -n, --namespace <ns>   the workload's namespace (default default)
  --data-dir <dir>       the data directory of the running skctl up (default .skctl)
  --control <path>       its control socket instead (printed by skctl up; needed with --in-memory)

Examples:
  skctl sim unhealthy member1 deploy/nginx
  skctl sim unhealthy member2 flinkdeployment/wordcount -n streaming
  skctl sim healthy member2 flinkdeployment/wordcount -n streaming
`;

/** A `skctl sim` command line, parsed. */
export type SimCommand =
  | { verb: 'help'; exitCode: number }
  | { verb: 'list' }
  | { verb: 'fail'; member: string; fault: Fault }
  | { verb: 'recover'; member: string }
  | { verb: 'unhealthy' | 'healthy'; member: string; workload: string; namespace: string };

const VERBS = ['list', 'fail', 'recover', 'unhealthy', 'healthy'] as const;

/** Flags only some verbs take: a flag given to another verb is a mistake worth saying. */
const VERB_FLAGS: Record<string, readonly string[]> = {
  mode: ['fail'],
  delay: ['fail'],
  namespace: ['unhealthy', 'healthy'],
};

/** Parses `skctl sim` arguments (after `sim`) without touching the socket. */
export function parseSimArgs(args: string[]): { command: SimCommand; values: Record<string, unknown> } {
  const { values, positionals } = parseFlags('sim', args, {
    'data-dir': { type: 'string' },
    control: { type: 'string' },
    mode: { type: 'string' },
    delay: { type: 'string' },
    namespace: { type: 'string', short: 'n' },
    help: { type: 'boolean', short: 'h' },
  });
  const [verb, member, workload, ...extra] = positionals;
  if (values.help || verb === undefined) return { command: { verb: 'help', exitCode: values.help ? 0 : 2 }, values };
  if (!(VERBS as readonly string[]).includes(verb))
    throw new UsageError(`skctl sim: unknown subcommand ${JSON.stringify(verb)}; use ${VERBS.join(', ')}`);
  for (const [flag, verbs] of Object.entries(VERB_FLAGS))
    if (values[flag] !== undefined && !verbs.includes(verb))
      throw new UsageError(`skctl sim ${verb}: --${flag} applies only to skctl sim ${verbs.join(' and ')}`);
  if (verb === 'list') {
    if (member !== undefined) throw new UsageError(`skctl sim list: takes no arguments, got ${JSON.stringify(member)}`);
    return { command: { verb }, values };
  }
  if (!member) throw new UsageError(`skctl sim ${verb}: name the member, e.g. skctl sim ${verb} member2`);
  if (verb === 'fail' || verb === 'recover') {
    if (workload !== undefined)
      throw new UsageError(`skctl sim ${verb}: takes one member, got ${JSON.stringify(workload)} too`);
    if (verb === 'recover') return { command: { verb, member }, values };
    const fault: Fault = {
      mode: enumFlag('sim', 'mode', values.mode, FAULT_MODES, 'unreachable'),
      ...(values.delay !== undefined ? { delayMs: durationFlag('sim', 'delay', values.delay)! } : {}),
    };
    return { command: { verb, member, fault }, values };
  }
  const v = verb as 'unhealthy' | 'healthy';
  if (workload === undefined)
    throw new UsageError(`skctl sim ${v}: name the workload, e.g. skctl sim ${v} ${member} deployment/web`);
  if (extra.length) throw new UsageError(`skctl sim ${v}: takes one workload, got ${JSON.stringify(extra[0])} too`);
  const parsed = parseWorkloadTarget(workload);
  if (!parsed.ok) throw new UsageError(`skctl sim ${v}: ${parsed.reason}`);
  const namespace = values.namespace === undefined ? 'default' : String(values.namespace);
  if (!namespace) throw new UsageError(`skctl sim ${v}: -n needs a namespace`);
  return { command: { verb: v, member, workload, namespace }, values };
}

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

function describe(m: MemberView): string[] {
  const fault = m.fault
    ? `${m.fault.mode}${m.fault.delayMs !== undefined ? ` (${m.fault.delayMs} ms)` : ''}`
    : 'healthy';
  return [
    `${m.name.padEnd(12)} ${fault.padEnd(18)} ${m.url}`,
    ...(m.unhealthy ?? []).map((w) => `${''.padEnd(12)} unhealthy ${describeWorkload(w)}`),
  ];
}

export async function runSim(args: string[], out: (line: string) => void): Promise<number> {
  const { command, values } = parseSimArgs(args);
  if (command.verb === 'help') {
    out(SIM_HELP);
    return command.exitCode;
  }
  const socket = socketPath(values);
  const call = async (method: string, path: string, body?: unknown) => {
    try {
      return await controlRequest(socket, method, path, body);
    } catch (err) {
      throw new UsageError(`skctl sim: cannot reach skctl up at ${socket}: ${(err as Error).message}`);
    }
  };
  if (command.verb === 'list') {
    const res = await call('GET', '/members');
    out(`${'NAME'.padEnd(12)} ${'STATE'.padEnd(18)} URL`);
    for (const m of res.body as MemberView[]) for (const line of describe(m)) out(line);
    return 0;
  }
  const body =
    command.verb === 'fail'
      ? command.fault
      : command.verb === 'recover'
        ? undefined
        : { workload: command.workload, namespace: command.namespace };
  const res = await call('POST', `/members/${encodeURIComponent(command.member)}/${command.verb}`, body);
  if (res.status !== 200) throw new UsageError(`skctl sim ${command.verb}: ${(res.body as { error: string }).error}`);
  if (command.verb === 'fail' || command.verb === 'recover') {
    for (const line of describe(res.body as MemberView)) out(line);
    return 0;
  }
  const mark = res.body as WorkloadMarkView;
  const what = `${describeWorkload(mark.workload)} on ${mark.member}`;
  if (mark.unhealthy) out(mark.changed ? `${what} marked unhealthy` : `${what} was already marked unhealthy`);
  else out(mark.changed ? `${what} healthy again` : `${what} was not marked unhealthy`);
  return 0;
}
