/**
 * The cost model of issue 18: AWS list prices as named constants, the unit rules of each service
 * (DynamoDB request units, SQS 64 KB chunks, Lambda GB-seconds), and pure functions turning counted
 * usage into dollars, an idle month, the break-even against a Karmada host, and throughput on paper.
 * No I/O: bench/cost.bench.ts measures the usage, docs/cost.md explains the model, and
 * test/unit/bench/cost-model.test.ts pins the arithmetic.
 */

/** The prices below: us-east-1, on-demand, public list prices as published in this month. */
export const PRICES_AS_OF = '2025-07';
export const PRICES_REGION = 'us-east-1';
export const HOURS_PER_MONTH = 730;
export const MINUTES_PER_MONTH = HOURS_PER_MONTH * 60;

export interface Price {
  /** Dollars per `per` units. */
  usd: number;
  per: number;
  unit: string;
  what: string;
}

/** Dollars for one unit. */
export function unitPrice(p: Price): number {
  return p.usd / p.per;
}

/**
 * List prices, us-east-1, on-demand, first tier, free tiers not applied (see {@link FREE_TIER}). Taken
 * from the services' public price pages as of {@link PRICES_AS_OF}; not re-checked at each run.
 */
export const PRICES = {
  lambdaRequest: { usd: 0.2, per: 1e6, unit: 'requests', what: 'Lambda requests' },
  lambdaArmGbSecond: { usd: 0.0000133334, per: 1, unit: 'GB-s', what: 'Lambda duration, arm64 (what infra/ deploys)' },
  lambdaX86GbSecond: { usd: 0.0000166667, per: 1, unit: 'GB-s', what: 'Lambda duration, x86_64 (for comparison)' },
  dynamoWriteUnit: {
    usd: 0.625,
    per: 1e6,
    unit: 'write request units',
    what: 'DynamoDB on-demand writes (1 KB each; every index an item is in costs its own)',
  },
  dynamoReadUnit: {
    usd: 0.125,
    per: 1e6,
    unit: 'read request units',
    what: 'DynamoDB on-demand reads (4 KB strongly consistent, 8 KB eventually consistent)',
  },
  dynamoStorage: { usd: 0.25, per: 1, unit: 'GB-month', what: 'DynamoDB storage (table and indexes)' },
  dynamoPitr: { usd: 0.2, per: 1, unit: 'GB-month', what: 'DynamoDB point-in-time recovery' },
  sqsRequest: { usd: 0.4, per: 1e6, unit: 'requests', what: 'SQS standard requests (each 64 KB of payload is one)' },
  httpApiRequest: {
    usd: 1.0,
    per: 1e6,
    unit: 'requests',
    what: 'API Gateway HTTP API requests (first 300 M a month; what infra/ deploys)',
  },
  restApiRequest: { usd: 3.5, per: 1e6, unit: 'requests', what: 'API Gateway REST API requests (for comparison)' },
  schedulerInvocation: { usd: 1.0, per: 1e6, unit: 'invocations', what: 'EventBridge Scheduler invocations' },
  kmsKey: {
    usd: 1.0,
    per: 1,
    unit: 'key-month',
    what: 'KMS customer managed key (first year; rotations add up to $2)',
  },
  kmsRequest: { usd: 0.03, per: 10_000, unit: 'requests', what: 'KMS requests' },
  secret: { usd: 0.4, per: 1, unit: 'secret-month', what: 'Secrets Manager secret' },
  logsIngestion: { usd: 0.5, per: 1, unit: 'GB', what: 'CloudWatch Logs ingestion (standard class; EMF included)' },
  logsStorage: { usd: 0.03, per: 1, unit: 'GB-month', what: 'CloudWatch Logs storage' },
  dataTransferOut: {
    usd: 0.09,
    per: 1,
    unit: 'GB',
    what: 'Data transfer out to the internet (requests to member API servers, API answers; first 10 TB)',
  },
  alarm: {
    usd: 0.1,
    per: 1,
    unit: 'alarm metric-month',
    what: 'CloudWatch alarm, standard resolution (per metric it evaluates: a metric-math alarm pays for each)',
  },
  dashboard: { usd: 3.0, per: 1, unit: 'dashboard-month', what: 'CloudWatch dashboard (beyond the 3 free)' },
  customMetric: {
    usd: 0.3,
    per: 1,
    unit: 'metric-month',
    what: 'CloudWatch custom metric (EMF; billed per hour it is published)',
  },
  ec2M6iLarge: { usd: 0.096, per: 1, unit: 'instance-hour', what: 'EC2 m6i.large (2 vCPU, 8 GiB), Linux' },
  ebsGp3: { usd: 0.08, per: 1, unit: 'GB-month', what: 'EBS gp3 volume' },
  eksCluster: { usd: 0.1, per: 1, unit: 'cluster-hour', what: 'EKS control plane (standard support)' },
  nlb: { usd: 0.0225, per: 1, unit: 'hour', what: 'Network Load Balancer (LCUs not counted)' },
} as const satisfies Record<string, Price>;

/** Monthly free tiers of the services above (they apply per account, once). */
export const FREE_TIER = {
  lambdaRequests: 1e6,
  lambdaGbSeconds: 400_000,
  sqsRequests: 1e6,
  kmsRequests: 20_000,
  alarms: 10,
  customMetrics: 10,
  dashboards: 3,
  logsGb: 5,
  schedulerInvocations: 14e6,
  dynamoStorageGb: 25,
  dataTransferOutGb: 100,
} as const;

// ---- How the services count ------------------------------------------------------------------------

/** DynamoDB read request units of one read of `bytes`: 4 KB per unit, half for eventually consistent. */
export function readUnits(bytes: number, consistent: boolean): number {
  const units = Math.max(1, Math.ceil(bytes / 4096));
  return consistent ? units : units / 2;
}

/** DynamoDB write request units of one write (or index write) of `bytes`: 1 KB per unit, at least 1. */
export function writeUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}

/** SQS requests one SendMessageBatch (or any request) with `bytes` of payload counts as: one per 64 KB. */
export function sqsRequestsFor(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 65_536));
}

/** Lambda gives a function one full vCPU at this much memory, proportionally less below it. */
export const FULL_VCPU_MB = 1769;

/** How much longer CPU-bound work takes in a function of `memoryMB` than on one full core. */
export function cpuSlowdown(memoryMB: number): number {
  return Math.max(1, FULL_VCPU_MB / memoryMB);
}

/**
 * Assumed round-trip times inside one region (not measured: the bench runs without AWS). They make
 * up the part of an invocation's billed duration spent waiting; see docs/cost.md.
 */
export const IO_LATENCY_MS = {
  dynamoGet: 4,
  dynamoQuery: 6,
  dynamoWrite: 6,
  sqsSend: 10,
  sqsChangeVisibility: 8,
  /** A member cluster's API server, reached over the internet from Lambda. */
  memberRequest: 25,
  kms: 10,
} as const;

/**
 * Billed milliseconds of one invocation: its CPU time slowed to the function's vCPU share, plus the
 * critical path of its calls' round trips (calls it awaits together overlap). Adding the two is an
 * upper bound: one key's CPU can run while another key of the batch waits.
 */
export function invocationMs(options: { cpuMs: number; ioMs: number; memoryMB: number }): number {
  return Math.max(1, Math.ceil(options.cpuMs * cpuSlowdown(options.memoryMB) + options.ioMs));
}

/** GB-seconds of `ms` billed milliseconds at `memoryMB`. */
export function gbSeconds(ms: number, memoryMB: number): number {
  return (ms / 1000) * (memoryMB / 1024);
}

/**
 * Lambda's SQS event source keeps long-polling an empty queue: about five pollers, each one
 * ReceiveMessage of 20 s, i.e. ~15 empty receives a minute per queue (what users report seeing on
 * CloudWatch's NumberOfEmptyReceives; AWS does not document the poller count). Not measured here.
 */
export const IDLE_RECEIVES_PER_QUEUE_MINUTE = 15;

/**
 * How long Lambda keeps an idle execution environment (not documented; commonly 5 to 15 minutes). An
 * invocation later than this after the function's previous one is counted as a cold start, whose init
 * is billed (on-demand functions, since August 2025).
 */
export const KEEP_WARM_MS = 5 * 60_000;

/**
 * DynamoDB asks KMS for a table's key (customer managed, as infra/ configures the table) at most once
 * per caller principal per this many minutes of use; each function has its own role.
 */
export const TABLE_KEY_CACHE_MINUTES = 5;

/**
 * Bytes a member request sends besides its path and body: request line, headers and a bearer token
 * (a service-account JWT is about 1 KB), TLS framing. Estimated, not measured.
 */
export const MEMBER_REQUEST_OVERHEAD_BYTES = 1200;

/** CloudWatch Logs bills each event's message plus 26 bytes. */
export const LOG_EVENT_OVERHEAD_BYTES = 26;

/**
 * Lambda's own lines per invocation (START, END, REPORT in the text format infra/ leaves on), with
 * their overhead. Estimated from their usual length, not measured.
 */
export const LAMBDA_PLATFORM_LOG_BYTES = 70 + 55 + 190 + 3 * LOG_EVENT_OVERHEAD_BYTES;

/** One API Gateway access-log line in infra/'s JSON format (nine fields), with its overhead. Estimated. */
export const API_ACCESS_LOG_BYTES = 330 + LOG_EVENT_OVERHEAD_BYTES;

// ---- Dollars -----------------------------------------------------------------------------------------

/** Usage of the request-priced services, for any period (one change, a month). */
export interface Usage {
  apiRequests: number;
  lambdaRequests: number;
  lambdaGbSeconds: number;
  dynamoWriteUnits: number;
  dynamoReadUnits: number;
  sqsRequests: number;
  schedulerInvocations: number;
  kmsRequests: number;
  logBytes: number;
  /** Log bytes × the months they are kept (the log groups' retention). */
  logStoredGbMonths: number;
  /** Bytes leaving AWS: requests to member API servers, the API's answers (what comes in is free). */
  dataOutBytes: number;
}

export interface CostLine {
  item: string;
  quantity: number;
  unit: string;
  usd: number;
  price: Price;
}

export type Architecture = 'arm64' | 'x86_64';

function line(item: string, quantity: number, price: Price): CostLine {
  return { item, quantity, unit: price.unit, usd: quantity * unitPrice(price), price };
}

/** A price as the price pages quote it: `$0.625 per 1M write request units`. */
export function describePrice(p: Price): string {
  const per = p.per === 1 ? '' : p.per >= 1e6 ? `${p.per / 1e6}M ` : `${p.per.toLocaleString('en-US')} `;
  return `$${p.usd} per ${per}${p.unit}`;
}

/** The itemised list price of `usage` (no free tier). */
export function usageCost(usage: Usage, architecture: Architecture = 'arm64'): CostLine[] {
  return [
    line('API Gateway HTTP API requests', usage.apiRequests, PRICES.httpApiRequest),
    line('Lambda requests', usage.lambdaRequests, PRICES.lambdaRequest),
    line(
      `Lambda duration (${architecture})`,
      usage.lambdaGbSeconds,
      architecture === 'arm64' ? PRICES.lambdaArmGbSecond : PRICES.lambdaX86GbSecond,
    ),
    line('DynamoDB writes', usage.dynamoWriteUnits, PRICES.dynamoWriteUnit),
    line('DynamoDB reads', usage.dynamoReadUnits, PRICES.dynamoReadUnit),
    line('SQS requests', usage.sqsRequests, PRICES.sqsRequest),
    line('EventBridge Scheduler invocations', usage.schedulerInvocations, PRICES.schedulerInvocation),
    line('KMS requests', usage.kmsRequests, PRICES.kmsRequest),
    line('CloudWatch Logs ingestion', usage.logBytes / 1e9, PRICES.logsIngestion),
    line('CloudWatch Logs storage over the retention', usage.logStoredGbMonths, PRICES.logsStorage),
    line('Data transfer out', usage.dataOutBytes / 1e9, PRICES.dataTransferOut),
  ];
}

/** Resources billed by the month whatever the load. */
export interface FixedResources {
  kmsKeys: number;
  secrets: number;
  /** Alarm metrics: one per single-metric alarm, one per metric in a metric-math alarm. */
  alarms: number;
  dashboards: number;
  /** Custom metrics published in an average hour (EMF). */
  customMetrics: number;
  /** Table and index storage, GB (PITR billed on the same size). */
  storageGb: number;
}

export function fixedCost(r: FixedResources): CostLine[] {
  return [
    line('KMS customer managed keys', r.kmsKeys, PRICES.kmsKey),
    line('Secrets Manager secrets', r.secrets, PRICES.secret),
    line('CloudWatch alarms', r.alarms, PRICES.alarm),
    line('CloudWatch dashboards', r.dashboards, PRICES.dashboard),
    line('CloudWatch custom metrics (EMF)', r.customMetrics, PRICES.customMetric),
    line('DynamoDB storage', r.storageGb, PRICES.dynamoStorage),
    line('DynamoDB point-in-time recovery', r.storageGb, PRICES.dynamoPitr),
  ];
}

export function total(lines: readonly CostLine[]): number {
  return lines.reduce((sum, l) => sum + l.usd, 0);
}

/** The same lines with each service's monthly free tier taken off (for a deployment alone in its account). */
export function afterFreeTier(lines: readonly CostLine[]): CostLine[] {
  const free: Record<string, number> = {
    'Lambda requests': FREE_TIER.lambdaRequests,
    'Lambda duration (arm64)': FREE_TIER.lambdaGbSeconds,
    'Lambda duration (x86_64)': FREE_TIER.lambdaGbSeconds,
    'SQS requests': FREE_TIER.sqsRequests,
    'KMS requests': FREE_TIER.kmsRequests,
    'CloudWatch alarms': FREE_TIER.alarms,
    'CloudWatch custom metrics (EMF)': FREE_TIER.customMetrics,
    'CloudWatch dashboards': FREE_TIER.dashboards,
    'CloudWatch Logs ingestion': FREE_TIER.logsGb,
    'EventBridge Scheduler invocations': FREE_TIER.schedulerInvocations,
    'DynamoDB storage': FREE_TIER.dynamoStorageGb,
    'Data transfer out': FREE_TIER.dataTransferOutGb,
  };
  return lines.map((l) => {
    const allowance = free[l.item] ?? 0;
    if (allowance === 0 || l.quantity === 0) return l;
    const billed = Math.max(0, l.quantity - allowance);
    return { ...l, usd: (l.usd * billed) / l.quantity };
  });
}

// ---- The alternative: a Karmada host ------------------------------------------------------------

export interface Host {
  id: string;
  what: string;
  lines: CostLine[];
}

/** Minimal highly-available Karmada hosts, on-demand, a month. */
export function karmadaHosts(): Host[] {
  const nodes = line('3 × m6i.large', 3 * HOURS_PER_MONTH, PRICES.ec2M6iLarge);
  const disks = line('3 × 50 GB gp3', 3 * 50, PRICES.ebsGp3);
  return [
    {
      id: 'self-managed',
      what: 'three m6i.large nodes running karmada-apiserver, stacked etcd (3 members) and the controllers (kubeadm), 50 GB gp3 each',
      lines: [nodes, disks],
    },
    {
      id: 'eks',
      what: 'an EKS control plane, three m6i.large nodes for karmada-apiserver, etcd (3 members) and the controllers, 50 GB gp3 each, an NLB in front of karmada-apiserver',
      lines: [
        line('EKS control plane', HOURS_PER_MONTH, PRICES.eksCluster),
        nodes,
        disks,
        line('Network Load Balancer', HOURS_PER_MONTH, PRICES.nlb),
      ],
    },
  ];
}

/**
 * Template changes a month at which the host becomes the cheaper option: the host's month, less what
 * this system costs idle, paid for at `perChange` dollars each. Infinite when a change costs nothing;
 * zero when idle already costs more than the host.
 */
export function breakEvenChanges(hostMonthly: number, idleMonthly: number, perChange: number): number {
  if (idleMonthly >= hostMonthly) return 0;
  if (perChange <= 0) return Number.POSITIVE_INFINITY;
  return (hostMonthly - idleMonthly) / perChange;
}

// ---- Throughput on paper ------------------------------------------------------------------------

/**
 * Keys a lane reconciles per second with `maxConcurrency` invocations running back to back, each on a
 * full batch: every key costs its CPU (slowed to the function's vCPU share) and its calls' waits, of
 * which `concurrency` overlap.
 */
export function laneKeysPerSecond(options: {
  maxConcurrency: number;
  batchSize: number;
  perKeyCpuMs: number;
  perKeyIoMs: number;
  memoryMB: number;
  concurrency: number;
}): number {
  const b = options.batchSize;
  const ms =
    b * options.perKeyCpuMs * cpuSlowdown(options.memoryMB) +
    Math.ceil(b / Math.max(1, options.concurrency)) * options.perKeyIoMs;
  return ms <= 0 ? Number.POSITIVE_INFINITY : (options.maxConcurrency * b * 1000) / ms;
}

/** DynamoDB's per-partition write limit (table and index partitions alike). */
export const PARTITION_WRITE_UNITS_PER_SECOND = 1000;

/** Objects per second `partitions` index partitions take when each object costs `unitsPerObject` there. */
export function partitionObjectsPerSecond(partitions: number, unitsPerObject: number): number {
  return unitsPerObject <= 0
    ? Number.POSITIVE_INFINITY
    : (partitions * PARTITION_WRITE_UNITS_PER_SECOND) / unitsPerObject;
}
