/**
 * The environment of every deployed function (and of local mode's handlers), read once per cold
 * start. Settings of this system are `SK_*` variables; an unknown `SK_*` variable is an error, so a
 * typo in the stack fails the first invocation loudly instead of silently using a default.
 */
import * as z from 'zod/mini';
import { formatDuration, parseDuration } from '../util/duration.ts';
import {
  FAILOVER_ENV_NAMES,
  FAILOVER_FLAGS,
  failoverEnvironment,
  type FailoverSettings,
  failoverSettingsFromEnvironment,
} from './failover.ts';
import { parseConfig } from './validate.ts';

const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;

const goDuration = z
  .string()
  .check(z.refine((v) => parseDuration(v) !== undefined, 'must be a duration such as 500ms, 30s or 1m'));

/** Karmada's cluster health flags, as `SK_*` variables (Go durations). */
const CLUSTER_TIMING_ENV = {
  SK_CLUSTER_STATUS_UPDATE_FREQUENCY: 'statusUpdateFrequencyMs',
  SK_CLUSTER_SUCCESS_THRESHOLD: 'successThresholdMs',
  SK_CLUSTER_FAILURE_THRESHOLD: 'failureThresholdMs',
  SK_CLUSTER_MONITOR_GRACE_PERIOD: 'monitorGracePeriodMs',
  SK_CLUSTER_STARTUP_GRACE_PERIOD: 'startupGracePeriodMs',
  SK_CLUSTER_LEASE_DURATION: 'leaseDurationMs',
} as const satisfies Record<string, keyof ClusterTimings>;

/** Karmada's cluster health timings (flags of the same names, same defaults). */
export interface ClusterTimings {
  /** `--cluster-status-update-frequency`: how often each cluster is probed (10 s). */
  statusUpdateFrequencyMs: number;
  /** `--cluster-success-threshold` (30 s). */
  successThresholdMs: number;
  /** `--cluster-failure-threshold` (30 s). */
  failureThresholdMs: number;
  /** `--cluster-monitor-grace-period`: a Pull cluster silent this long goes Unknown (40 s). */
  monitorGracePeriodMs: number;
  /** `--cluster-startup-grace-period`: the same for a Pull cluster never heard from (60 s). */
  startupGracePeriodMs: number;
  /** `--cluster-lease-duration` of the agent's lease (40 s). */
  leaseDurationMs: number;
}

/** Karmada's flag names for the cluster timings (skctl up flags, CDK environment settings). */
export const CLUSTER_TIMING_FLAGS = {
  'cluster-status-update-frequency': 'statusUpdateFrequencyMs',
  'cluster-success-threshold': 'successThresholdMs',
  'cluster-failure-threshold': 'failureThresholdMs',
  'cluster-monitor-grace-period': 'monitorGracePeriodMs',
  'cluster-startup-grace-period': 'startupGracePeriodMs',
  'cluster-lease-duration': 'leaseDurationMs',
} as const satisfies Record<string, keyof ClusterTimings>;

/** Timings from Karmada-named flags with Go durations (`{'cluster-failure-threshold': '5s'}`); invalid ones are skipped. */
export function clusterTimingsFromFlags(flags: Partial<Record<string, string>>): Partial<ClusterTimings> {
  const out: Partial<ClusterTimings> = {};
  for (const [flag, field] of Object.entries(CLUSTER_TIMING_FLAGS)) {
    const ms = flags[flag] !== undefined ? parseDuration(flags[flag]) : undefined;
    if (ms !== undefined) out[field] = ms;
  }
  return out;
}

export const DEFAULT_CLUSTER_TIMINGS: ClusterTimings = {
  statusUpdateFrequencyMs: 10_000,
  successThresholdMs: 30_000,
  failureThresholdMs: 30_000,
  monitorGracePeriodMs: 40_000,
  startupGracePeriodMs: 60_000,
  leaseDurationMs: 40_000,
};

const schema = z.strictObject({
  AWS_REGION: z.string().check(z.minLength(1)),
  SK_ENVIRONMENT: z.string().check(z.minLength(1)),
  SK_TABLE_NAME: z.string().check(z.minLength(3), z.maxLength(255)),
  SK_QUEUE_PREFIX: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,40}$/)),
  SK_QUEUE_URL_BASE: z.url().check(z.regex(/\/$/, 'must end with /')),
  SK_DYNAMODB_ENDPOINT: z.optional(z.url()),
  SK_SQS_ENDPOINT: z.optional(z.url()),
  SK_RECONCILE_CONCURRENCY: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(64)), 8),
  SK_METRICS: z._default(z.enum(['emf', 'off']), 'emf'),
  SK_EVENT_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.minimum(60), z.maximum(30 * 86400)), 3600),
  SK_ADMIN_SECRET_ID: z.optional(z.string().check(z.minLength(1))),
  SK_CREDENTIALS_KEY_FILE: z.optional(z.string().check(z.minLength(1))),
  SK_CREDENTIALS_KMS_KEY: z.optional(z.string().check(z.minLength(1))),
  SK_SCHEDULER_PLUGINS: z.optional(z.string().check(z.regex(/^[*A-Za-z,-]+$/))),
  SK_SCHEDULER_RESERVATION_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(3600)), 60),
  ...Object.fromEntries(Object.keys(CLUSTER_TIMING_ENV).map((k) => [k, z.optional(goDuration)])),
  // Parsed and checked by failoverSettingsFromEnvironment (lib/config/failover.ts).
  ...Object.fromEntries(FAILOVER_ENV_NAMES.map((k) => [k, z.optional(z.string())])),
  LOG_FORMAT: z._default(z.enum(['json', 'text']), 'json'),
  LOG_LEVEL: z._default(z.enum(LOG_LEVELS), 'INFO'),
});

const HINTS: Record<string, string> = {
  AWS_REGION: 'set by Lambda; set it yourself when running outside Lambda',
  SK_ENVIRONMENT: 'the environment name, e.g. dev or prod',
  SK_TABLE_NAME: 'the DynamoDB object table, set by the stateless stack',
  SK_QUEUE_PREFIX: 'the prefix of every queue name, e.g. sk-dev',
  SK_QUEUE_URL_BASE: 'queue URLs are this plus the queue name, e.g. https://sqs.us-east-1.amazonaws.com/123456789012/',
  SK_DYNAMODB_ENDPOINT: 'only for local DynamoDB-compatible servers',
  SK_SQS_ENDPOINT: 'only for local SQS-compatible servers',
  SK_RECONCILE_CONCURRENCY: 'keys reconciled at once within one batch',
  SK_METRICS: 'emf writes CloudWatch Embedded Metric Format to stdout',
  SK_EVENT_TTL_SECONDS:
    "how long an Event lives after its last update, like kube-apiserver's --event-ttl (default 3600)",
  SK_ADMIN_SECRET_ID: 'the Secrets Manager secret holding the admin kubeconfig (bootstrap function only)',
  SK_CREDENTIALS_KEY_FILE: 'local mode: the key file sealing member-cluster credentials',
  SK_CREDENTIALS_KMS_KEY: 'the KMS key sealing member-cluster credentials (envelope encryption)',
  SK_SCHEDULER_PLUGINS: "Karmada's scheduler --plugins, e.g. *,-ClusterLocality (default *)",
  SK_SCHEDULER_RESERVATION_TTL_SECONDS:
    'how long capacity promised to a just-scheduled binding is held back from others (default 60; 0 disables)',
  SK_CLUSTER_STATUS_UPDATE_FREQUENCY: "Karmada's --cluster-status-update-frequency, e.g. 10s",
  SK_CLUSTER_SUCCESS_THRESHOLD: "Karmada's --cluster-success-threshold, e.g. 30s",
  SK_CLUSTER_FAILURE_THRESHOLD: "Karmada's --cluster-failure-threshold, e.g. 30s",
  SK_CLUSTER_MONITOR_GRACE_PERIOD: "Karmada's --cluster-monitor-grace-period, e.g. 40s",
  SK_CLUSTER_STARTUP_GRACE_PERIOD: "Karmada's --cluster-startup-grace-period, e.g. 60s",
  SK_CLUSTER_LEASE_DURATION: "Karmada's --cluster-lease-duration, e.g. 40s",
  ...Object.fromEntries(
    Object.entries(FAILOVER_FLAGS).map(([flag, spec]) => [spec.env, `Karmada's --${flag}: ${spec.help}`]),
  ),
  LOG_FORMAT: "Karmada's --logging-format: json or text",
  LOG_LEVEL: 'the least severe level printed',
};

export interface RuntimeConfig {
  region: string;
  environment: string;
  tableName: string;
  queuePrefix: string;
  queueUrlBase: string;
  dynamodbEndpoint?: string;
  sqsEndpoint?: string;
  reconcileConcurrency: number;
  metrics: 'emf' | 'off';
  /** Seconds an Event lives after its last write (kube-apiserver's `--event-ttl`, default 1h). */
  eventTtlSeconds: number;
  /** The admin kubeconfig secret (the bootstrap function only). */
  adminSecretId?: string;
  /** Local mode: the key file sealing member-cluster credentials. */
  credentialsKeyFile?: string;
  /** AWS: the KMS key (id, ARN or alias) sealing member-cluster credentials. */
  credentialsKmsKey?: string;
  /** Overrides of Karmada's cluster health timings (defaults: DEFAULT_CLUSTER_TIMINGS). */
  clusterTimings?: Partial<ClusterTimings>;
  /** Karmada's scheduler `--plugins` (comma-separated; default `*`). */
  schedulerPlugins?: string;
  /** Seconds the scheduler's capacity reservations live (default 60; 0 disables them). */
  schedulerReservationTtlSeconds?: number;
  /** Overrides of the failover settings (defaults: DEFAULT_FAILOVER_SETTINGS). */
  failover?: Partial<FailoverSettings>;
  logFormat: 'json' | 'text';
  logLevel: (typeof LOG_LEVELS)[number];
}

/** Reads and validates the function environment; throws ConfigError listing every problem. */
export function loadRuntimeConfig(env: Record<string, string | undefined> = process.env): RuntimeConfig {
  const ours = Object.fromEntries(
    Object.entries(env).filter(
      ([k, v]) =>
        v !== undefined && (k.startsWith('SK_') || k === 'AWS_REGION' || k === 'LOG_FORMAT' || k === 'LOG_LEVEL'),
    ),
  );
  const c = parseConfig('function environment', schema, ours, HINTS);
  const failover = failoverSettingsFromEnvironment(ours);
  return {
    region: c.AWS_REGION,
    environment: c.SK_ENVIRONMENT,
    tableName: c.SK_TABLE_NAME,
    queuePrefix: c.SK_QUEUE_PREFIX,
    queueUrlBase: c.SK_QUEUE_URL_BASE,
    ...(c.SK_DYNAMODB_ENDPOINT ? { dynamodbEndpoint: c.SK_DYNAMODB_ENDPOINT } : {}),
    ...(c.SK_SQS_ENDPOINT ? { sqsEndpoint: c.SK_SQS_ENDPOINT } : {}),
    reconcileConcurrency: c.SK_RECONCILE_CONCURRENCY,
    metrics: c.SK_METRICS,
    eventTtlSeconds: c.SK_EVENT_TTL_SECONDS,
    ...(c.SK_ADMIN_SECRET_ID ? { adminSecretId: c.SK_ADMIN_SECRET_ID } : {}),
    ...(c.SK_CREDENTIALS_KEY_FILE ? { credentialsKeyFile: c.SK_CREDENTIALS_KEY_FILE } : {}),
    ...(c.SK_CREDENTIALS_KMS_KEY ? { credentialsKmsKey: c.SK_CREDENTIALS_KMS_KEY } : {}),
    ...(timings(c as Record<string, unknown>) ?? {}),
    ...(c.SK_SCHEDULER_PLUGINS ? { schedulerPlugins: c.SK_SCHEDULER_PLUGINS } : {}),
    schedulerReservationTtlSeconds: c.SK_SCHEDULER_RESERVATION_TTL_SECONDS,
    ...(Object.keys(failover).length ? { failover } : {}),
    logFormat: c.LOG_FORMAT,
    logLevel: c.LOG_LEVEL,
  };
}

/** The inverse of {@link loadRuntimeConfig}: the environment that yields `config` (CDK, local mode). */
export function runtimeEnvironment(config: Omit<RuntimeConfig, 'region'>): Record<string, string> {
  const env: Record<string, string> = {
    SK_ENVIRONMENT: config.environment,
    SK_TABLE_NAME: config.tableName,
    SK_QUEUE_PREFIX: config.queuePrefix,
    SK_QUEUE_URL_BASE: config.queueUrlBase,
    SK_RECONCILE_CONCURRENCY: String(config.reconcileConcurrency),
    SK_METRICS: config.metrics,
    SK_EVENT_TTL_SECONDS: String(config.eventTtlSeconds),
    LOG_FORMAT: config.logFormat,
    LOG_LEVEL: config.logLevel,
  };
  if (config.dynamodbEndpoint) env.SK_DYNAMODB_ENDPOINT = config.dynamodbEndpoint;
  if (config.sqsEndpoint) env.SK_SQS_ENDPOINT = config.sqsEndpoint;
  if (config.adminSecretId) env.SK_ADMIN_SECRET_ID = config.adminSecretId;
  if (config.credentialsKeyFile) env.SK_CREDENTIALS_KEY_FILE = config.credentialsKeyFile;
  if (config.credentialsKmsKey) env.SK_CREDENTIALS_KMS_KEY = config.credentialsKmsKey;
  if (config.schedulerPlugins) env.SK_SCHEDULER_PLUGINS = config.schedulerPlugins;
  if (config.schedulerReservationTtlSeconds !== undefined) {
    env.SK_SCHEDULER_RESERVATION_TTL_SECONDS = String(config.schedulerReservationTtlSeconds);
  }
  for (const [name, field] of Object.entries(CLUSTER_TIMING_ENV)) {
    const ms = config.clusterTimings?.[field];
    if (ms !== undefined) env[name] = formatDuration(ms);
  }
  Object.assign(env, failoverEnvironment(config.failover));
  return env;
}

function timings(c: Record<string, unknown>): { clusterTimings: Partial<ClusterTimings> } | undefined {
  const out: Partial<ClusterTimings> = {};
  for (const [name, field] of Object.entries(CLUSTER_TIMING_ENV)) {
    const text = c[name];
    if (typeof text === 'string') out[field] = parseDuration(text)!;
  }
  return Object.keys(out).length ? { clusterTimings: out } : undefined;
}

/** The cluster health timings of a runtime: its overrides over Karmada's defaults. */
export function clusterTimings(config: Pick<RuntimeConfig, 'clusterTimings'>): ClusterTimings {
  return { ...DEFAULT_CLUSTER_TIMINGS, ...config.clusterTimings };
}
