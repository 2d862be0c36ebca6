/**
 * Per-environment configuration, typed and validated before anything is synthesised: a wrong value
 * fails `cdk synth` with a message naming the setting, never a half-built stack.
 *
 * Select with `-c env=dev|prod`. `-c account=123456789012 -c region=eu-west-1` pin the stacks to an
 * account/region (otherwise they are environment-agnostic, resolved at deploy time); `-c alarmEmail=`
 * subscribes an address to the alarm topic.
 */
import { periodExpression, SCHEDULE_PERIOD_FLAGS, type SchedulePeriodFlag } from '../../lib/config/schedule-periods.ts';
import * as z from 'zod/mini';
import { ConfigError, parseConfig } from '../../lib/config/validate.ts';
import { parseSchedule, ScheduleExpressionError } from '../../lib/timer/expression.ts';
import { CLUSTER_TIMING_FLAGS } from '../../lib/config/runtime.ts';
import { FAILOVER_FLAGS, failoverSettingsFromFlags } from '../../lib/config/failover.ts';
import { parseDuration } from '../../lib/util/duration.ts';

/** CloudWatch Logs accepts only these retention periods. */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

const schema = z.strictObject({
  name: z.string().check(z.regex(/^[a-z][a-z0-9]{1,15}$/)),
  prefix: z.string().check(z.regex(/^[a-z][a-z0-9-]{1,20}$/)),
  account: z.optional(z.string().check(z.regex(/^\d{12}$/, 'must be a 12-digit AWS account id'))),
  region: z.optional(
    z.string().check(z.regex(/^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$/, 'must be an AWS region such as eu-west-1')),
  ),
  /** Keep the table, its key and the queues when the stack is deleted; turn on deletion protection. */
  retainData: z.boolean(),
  logRetentionDays: z
    .number()
    .check(z.refine((n) => RETENTION_DAYS.includes(n), `must be one of ${RETENTION_DAYS.join(', ')}`)),
  logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
  /** EventBridge Scheduler expression of the periodic resync. */
  resyncSchedule: z.string(),
  /** Reserved concurrency per controller function; unset leaves the account's unreserved pool. */
  reservedConcurrency: z.optional(z.number().check(z.int(), z.minimum(4), z.maximum(1000))),
  /** Alarm when the oldest message of a lane is older than this (seconds). */
  oldestMessageAlarmSeconds: z.strictObject({
    priority: z.number().check(z.int(), z.minimum(60)),
    standard: z.number().check(z.int(), z.minimum(60)),
  }),
  alarmEmail: z.optional(z.email()),
  /** Any new value re-runs the bootstrap at the next deploy (e.g. after revoking the admin token). */
  bootstrapNonce: z.optional(z.string().check(z.maxLength(64))),
  /** Seconds an Event lives after its last update (kube-apiserver's --event-ttl). */
  eventTtlSeconds: z.number().check(z.int(), z.minimum(60), z.maximum(30 * 86400)),
  /**
   * Karmada's cluster health flags for the deployed functions, as Go durations (e.g. `30s`):
   * cluster-status-update-frequency, cluster-success-threshold, cluster-failure-threshold,
   * cluster-monitor-grace-period, cluster-startup-grace-period, cluster-lease-duration. Unset: defaults.
   */
  clusterFlags: z.optional(
    z.partialRecord(
      z.enum(Object.keys(CLUSTER_TIMING_FLAGS) as [keyof typeof CLUSTER_TIMING_FLAGS]),
      z.string().check(z.refine((v) => parseDuration(v) !== undefined, 'must be a duration such as 30s or 1m')),
    ),
  ),
  /**
   * Failover flags for the deployed functions, by Karmada's names (e.g. `failover-eviction-timeout:
   * 5m`, `feature-gates: Failover=false`, `resource-eviction-rate: '2'`); see lib/config/failover.ts.
   * Unset: defaults. Checked here, so a typo fails the synth instead of the first invocation.
   */
  failoverFlags: z.optional(
    z.partialRecord(z.enum(Object.keys(FAILOVER_FLAGS) as [string, ...string[]]), z.string()).check(
      z.refine((flags) => {
        try {
          failoverSettingsFromFlags(flags as Record<string, string>);
          return true;
        } catch {
          return false;
        }
      }, 'invalid failover flag value (see lib/config/failover.ts for each flag)'),
    ),
  ),
  /**
   * Karmada's sweep-period flags, by name (`federated-resource-quota-sync-period: 5m`); each becomes its
   * schedule's `rate()` (whole minutes). Unset: defaults.
   */
  schedulePeriods: z.optional(
    z.partialRecord(
      z.enum(Object.keys(SCHEDULE_PERIOD_FLAGS) as [SchedulePeriodFlag, ...SchedulePeriodFlag[]]),
      z.string().check(
        z.refine((v) => {
          try {
            periodExpression('period', v);
            return true;
          } catch {
            return false;
          }
        }, 'must be a whole number of minutes such as 5m'),
      ),
    ),
  ),
  /** API Gateway stage throttling of the Kubernetes API (requests per second, burst). */
  apiThrottle: z.strictObject({
    rate: z.number().check(z.int(), z.minimum(1)),
    burst: z.number().check(z.int(), z.minimum(1)),
  }),
});

export type EnvironmentConfig = z.infer<typeof schema>;

/** The environments this project deploys. Values here are the defaults context can override. */
export const ENVIRONMENTS: Record<string, EnvironmentConfig> = {
  dev: {
    name: 'dev',
    prefix: 'sk-dev',
    retainData: false,
    logRetentionDays: 14,
    logLevel: 'DEBUG',
    resyncSchedule: 'rate(10 minutes)',
    oldestMessageAlarmSeconds: { priority: 60, standard: 1800 },
    eventTtlSeconds: 3600,
    apiThrottle: { rate: 200, burst: 400 },
  },
  prod: {
    name: 'prod',
    prefix: 'sk-prod',
    retainData: true,
    logRetentionDays: 90,
    logLevel: 'INFO',
    resyncSchedule: 'rate(10 minutes)',
    reservedConcurrency: 50,
    oldestMessageAlarmSeconds: { priority: 60, standard: 900 },
    eventTtlSeconds: 3600,
    apiThrottle: { rate: 1000, burst: 2000 },
  },
};

const HINTS: Record<string, string> = {
  prefix: 'prefix of every resource name',
  resyncSchedule: 'an EventBridge rate() or cron() expression',
};

/**
 * The configuration of the environment named by `-c env=...`, with `account`, `region` and
 * `alarmEmail` taken from context when given.
 */
export function loadEnvironment(context: (key: string) => unknown): EnvironmentConfig {
  const name = context('env');
  if (typeof name !== 'string' || !(name in ENVIRONMENTS)) {
    throw new ConfigError('deployment environment', [
      `pass -c env=<name> with one of: ${Object.keys(ENVIRONMENTS).join(', ')}${name === undefined ? '' : ` (got ${JSON.stringify(name)})`}`,
    ]);
  }
  const overrides: Record<string, unknown> = {};
  for (const key of ['account', 'region', 'alarmEmail', 'bootstrapNonce'] as const) {
    const value = context(key);
    if (value !== undefined) overrides[key] = String(value);
  }
  const config = parseConfig(
    `configuration of environment ${name}`,
    schema,
    { ...ENVIRONMENTS[name], ...overrides },
    HINTS,
  );
  try {
    parseSchedule(config.resyncSchedule);
  } catch (err) {
    if (err instanceof ScheduleExpressionError)
      throw new ConfigError(`configuration of environment ${name}`, [`resyncSchedule: ${err.message}`]);
    throw err;
  }
  return config;
}
