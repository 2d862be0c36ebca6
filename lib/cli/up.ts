/**
 * `skctl up`: runs the local control plane until Ctrl-C (what `npm start` runs).
 */
import { periodExpression, SCHEDULE_PERIOD_FLAGS, SchedulePeriodError } from '../config/schedule-periods.ts';
import { relative } from 'node:path';
import { CLUSTER_TIMING_FLAGS, type ClusterTimings } from '../config/runtime.ts';
import {
  FAILOVER_FLAGS,
  FailoverFlagError,
  type FailoverSettings,
  failoverSettingsFromFlags,
} from '../config/failover.ts';
import { CONTROLLER_SPECS, type ControllerSpec } from '../controllers/specs.ts';
import { DEFAULT_RESYNC_SCHEDULE, type LocalRuntime, startLocalRuntime } from '../local/runtime.ts';
import type { LogLevelName } from '../observability/logger.ts';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { defaultSimulation, parseSimulation, type SimulationConfig } from '../sim/config.ts';
import { durationFlag, enumFlag, intFlag, parseFlags, UsageError } from './args.ts';

export const UP_HELP = `Run the local control plane (DynamoDB- and SQS-compatible servers, every controller, the schedules).

Usage: skctl up [flags]

Flags:
  --data-dir <dir>          where data is kept across restarts (default .skctl)
  --in-memory               keep nothing on disk
  --log-format text|json    log format, as Karmada's --logging-format (default text; env LOG_FORMAT)
  --log-level <level>       TRACE, DEBUG, INFO, WARN, ERROR or SILENT (default INFO; env LOG_LEVEL)
  --resync-schedule <expr>  EventBridge expression of the periodic resync (default ${DEFAULT_RESYNC_SCHEDULE})
  --port <port>             port of the Kubernetes-compatible API on 127.0.0.1 (default 7070; members use the next ports)
  --members <n>             simulated member clusters member1..n, in distinct regions (default 3; 0 for none)
  --members-config <file>   YAML describing the simulated members (names, regions, zones, nodes, capacity)
  --event-ttl <duration>    how long Events are kept after their last update, as kube-apiserver's (default 1h0m0s)

Karmada's cluster health flags (same names and defaults):
  --cluster-status-update-frequency <duration>   how often each cluster is probed (10s)
  --cluster-success-threshold <duration>         healthy this long before Ready=True again (30s)
  --cluster-failure-threshold <duration>         unhealthy this long before Ready≠True (30s)
  --cluster-monitor-grace-period <duration>      a silent Pull cluster goes Unknown after this (40s)
  --cluster-startup-grace-period <duration>      the same for a Pull cluster never heard from (60s)
  --cluster-lease-duration <duration>            the Pull agent's lease duration (40s)

  --federated-resource-quota-sync-period <duration>   how often every quota is recomputed (5m; whole minutes)

Failover flags (Karmada's names; docs/failover.md):
${Object.entries(FAILOVER_FLAGS)
  .map(([flag, spec]) => `  --${flag} <value>`.padEnd(50) + spec.help)
  .join('\n')}

  --dynamodb-port <port>    port of the local DynamoDB endpoint (default: any free port)
  --sqs-port <port>         port of the local SQS endpoint (default: any free port)
  -h, --help                show this help
`;

const LOG_LEVELS: readonly LogLevelName[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];

export interface UpIo {
  out: (line: string) => void;
  /** Resolves when the user asks to stop (Ctrl-C / SIGTERM). */
  stopRequested: Promise<void>;
}

export function describeRuntime(rt: LocalRuntime): string[] {
  const where = rt.dataDir ? relative(process.cwd(), rt.dataDir) || '.' : undefined;
  const pollers = (spec: ControllerSpec) =>
    `priority ×${spec.lanes.priority.maxConcurrency}, standard ×${spec.lanes.standard.maxConcurrency}`;
  return [
    'Serverless Karmada — local control plane',
    `  data         ${where ? `${where}/ (kept across restarts; --in-memory to discard)` : 'in memory (discarded on exit)'}`,
    `  DynamoDB     ${rt.endpoints.dynamodb}  table ${rt.config.tableName} (dynalite)`,
    `  SQS          ${rt.endpoints.sqs}  ${rt.queues.length} queues + ${rt.queues.length} dead-letter queues (fauxqs)`,
    ...CONTROLLER_SPECS.map(
      (s, i) => `  ${i === 0 ? 'controllers ' : '            '} ${s.name} (${pollers(s)} pollers)`,
    ),
    ...rt.schedules.map(
      (s, i) => `  ${i === 0 ? 'schedules   ' : '            '} ${s.name}: ${s.expression} → ${s.target}`,
    ),
    ...(rt.restoredMessages > 0
      ? [`  restored     ${rt.restoredMessages} queued message(s) from the last shutdown`]
      : []),
    `  API          ${rt.endpoints.api}  (Kubernetes-compatible; kubeconfig ${relativePath(rt.kubeconfig)}, context karmada-local)`,
    ...(rt.members.size === 0
      ? ['  members      none (--members 0); join real clusters with skctl join (docs/clusters.md)']
      : [...rt.members.values()].map(
          (m, i) =>
            `  ${i === 0 ? 'members     ' : '            '} ${m.name}  ${m.url}  ${m.config.provider}/${m.config.region} (${m.config.zones.join(', ')})  kubeconfig ${relativePath(m.kubeconfig)}`,
        )),
    `  control      ${relativePath(rt.controlSocket)}  (skctl sim fail|recover <member>, skctl sim unhealthy|healthy <member> <kind>/<name>)`,
    'Ready. Press Ctrl-C to stop. Try, in another terminal:',
    `  export KUBECONFIG=${rt.kubeconfig}`,
    '  kubectl apply -f examples/nginx/ && kubectl get deployments,propagationpolicies',
  ];
}

function relativePath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

export async function runUp(args: string[], io: UpIo): Promise<number> {
  const { values } = parseFlags('up', args, {
    'data-dir': { type: 'string' },
    'in-memory': { type: 'boolean' },
    'log-format': { type: 'string' },
    'log-level': { type: 'string' },
    'resync-schedule': { type: 'string' },
    'dynamodb-port': { type: 'string' },
    'sqs-port': { type: 'string' },
    port: { type: 'string' },
    members: { type: 'string' },
    'members-config': { type: 'string' },
    'event-ttl': { type: 'string' },
    ...Object.fromEntries(Object.keys(CLUSTER_TIMING_FLAGS).map((f) => [f, { type: 'string' as const }])),
    ...Object.fromEntries(Object.keys(FAILOVER_FLAGS).map((f) => [f, { type: 'string' as const }])),
    ...Object.fromEntries(Object.keys(SCHEDULE_PERIOD_FLAGS).map((f) => [f, { type: 'string' as const }])),
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(UP_HELP);
    return 0;
  }
  const dynamodbPort = intFlag('up', 'dynamodb-port', values['dynamodb-port'], undefined);
  const sqsPort = intFlag('up', 'sqs-port', values['sqs-port'], undefined);
  const apiPort = intFlag('up', 'port', values.port, undefined);
  const simulation = loadSimulation(values.members, values['members-config']);
  const eventTtlMs = durationFlag('up', 'event-ttl', values['event-ttl']);
  if (eventTtlMs !== undefined && (eventTtlMs < 60_000 || eventTtlMs > 30 * 86_400_000)) {
    throw new UsageError('skctl up: --event-ttl must be between 1m and 720h');
  }
  const clusterTimings: Partial<ClusterTimings> = {};
  for (const [flag, field] of Object.entries(CLUSTER_TIMING_FLAGS)) {
    const ms = durationFlag('up', flag, values[flag]);
    if (ms !== undefined) clusterTimings[field] = ms;
  }
  let failover: Partial<FailoverSettings>;
  try {
    failover = failoverSettingsFromFlags(values as Record<string, string | undefined>);
  } catch (err) {
    if (err instanceof FailoverFlagError) throw new UsageError(`skctl up: ${err.message}`);
    throw err;
  }
  const schedulePeriods: Record<string, string> = {};
  for (const flag of Object.keys(SCHEDULE_PERIOD_FLAGS)) {
    const value = values[flag] as string | undefined;
    if (value === undefined) continue;
    try {
      periodExpression(flag, value);
    } catch (err) {
      if (err instanceof SchedulePeriodError) throw new UsageError(`skctl up: ${err.message}`);
      throw err;
    }
    schedulePeriods[flag] = value;
  }
  const rt = await startLocalRuntime({
    inMemory: Boolean(values['in-memory']),
    ...(values['data-dir'] ? { dataDir: String(values['data-dir']) } : {}),
    logFormat: enumFlag(
      'up',
      'log-format',
      values['log-format'] ?? process.env.LOG_FORMAT,
      ['text', 'json'] as const,
      'text',
    ),
    logLevel: enumFlag(
      'up',
      'log-level',
      (values['log-level'] ?? process.env.LOG_LEVEL)?.toString().toUpperCase(),
      LOG_LEVELS,
      'INFO',
    ),
    ...(values['resync-schedule'] ? { resyncSchedule: String(values['resync-schedule']) } : {}),
    ...(dynamodbPort !== undefined ? { dynamodbPort } : {}),
    ...(sqsPort !== undefined ? { sqsPort } : {}),
    ...(apiPort !== undefined ? { apiPort } : {}),
    simulation,
    ...(eventTtlMs !== undefined ? { eventTtlSeconds: Math.round(eventTtlMs / 1000) } : {}),
    ...(Object.keys(clusterTimings).length ? { clusterTimings } : {}),
    ...(Object.keys(failover).length ? { failover } : {}),
    ...(Object.keys(schedulePeriods).length ? { schedulePeriods } : {}),
  });
  for (const line of describeRuntime(rt)) io.out(line);
  const failure = await Promise.race([io.stopRequested.then(() => undefined), rt.failed]);
  if (failure) {
    // Running on without the members would look alive and answer nothing: stop, and say why.
    io.out('Stopping: part of the control plane failed (logged above)…');
    await rt.stop();
    throw failure;
  }
  io.out('Stopping: finishing in-flight batches, saving queued messages…');
  const { savedMessages } = await rt.stop();
  const stats = rt.stats();
  io.out(
    `Stopped cleanly. ${stats.invocations} invocation(s), ${stats.messages} message(s) handled` +
      (rt.dataDir
        ? `; ${savedMessages} queued message(s) saved for the next start; data kept in ${relative(process.cwd(), rt.dataDir) || '.'}/.`
        : '; nothing kept (in memory).'),
  );
  return 0;
}

function loadSimulation(count: unknown, file: unknown): SimulationConfig {
  if (file !== undefined) {
    if (count !== undefined) throw new UsageError('skctl up: pass either --members or --members-config, not both');
    let text: string;
    try {
      text = readFileSync(String(file), 'utf8');
    } catch (err) {
      throw new UsageError(`skctl up: cannot read --members-config ${String(file)}: ${(err as Error).message}`);
    }
    return parseSimulation(parseYaml(text));
  }
  const n = count === undefined ? 3 : Number(count);
  if (!Number.isInteger(n) || n < 0 || n > 50)
    throw new UsageError(`skctl up: --members must be a whole number from 0 to 50, got ${JSON.stringify(count)}`);
  return defaultSimulation(n);
}
