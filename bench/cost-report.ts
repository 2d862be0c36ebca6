/**
 * The results section of docs/cost.md, computed from one run of the cost bench (cost.bench.ts) with
 * the cost model (cost-model.ts). Every figure here comes from a count or a price constant; the prose
 * of docs/cost.md explains them and holds none.
 */
import { parseGroupKind } from '../lib/api/object.ts';
import { CONTROLLER_SPECS } from '../lib/controllers/specs.ts';
import { KIND_SHARDS, kindShardsOf } from '../lib/store/layout.ts';
import type { BundleMeasurement, DeployedShape } from './cost-bundles.ts';
import {
  afterFreeTier,
  breakEvenChanges,
  fixedCost,
  HOURS_PER_MONTH,
  IDLE_RECEIVES_PER_QUEUE_MINUTE,
  IO_LATENCY_MS,
  describePrice,
  karmadaHosts,
  KEEP_WARM_MS,
  laneKeysPerSecond,
  MINUTES_PER_MONTH,
  PARTITION_WRITE_UNITS_PER_SECOND,
  partitionObjectsPerSecond,
  PRICES,
  PRICES_AS_OF,
  PRICES_REGION,
  total,
  unitPrice,
  usageCost,
  MEMBER_REQUEST_OVERHEAD_BYTES,
  TABLE_KEY_CACHE_MINUTES,
} from './cost-model.ts';
import { type Counts, diffCounts, functionsOf, metric } from './cost-meter.ts';
import { API_MEMORY_MB, ENV, RECONCILE_CONCURRENCY } from './cost-world.ts';
import { describeSetup, median } from './harness.ts';
import { costTable, fmt, largest, mean, pct, table, usd } from './cost-format.ts';
import { addCounts, idleMonthUsage, meanCounts, scaleCounts, usageOf, type Window } from './cost-usage.ts';

/** Targets of issue 18. */
const TARGET_PER_MILLION = 10;
const TARGET_IDLE_MONTH = 5;
/** DynamoDB's default on-demand maximum per table (adjustable), and what a new table serves at once. */
const TABLE_MAX_WRITE_UNITS = 40_000;
const NEW_TABLE_WRITE_UNITS = 4_000;
/** Lambda adds at most this many concurrent invocations a minute to an SQS event source (standard queues). */
const SQS_SCALE_UP_PER_MINUTE = 300;
const KIND_SHARDS_NOTE = 'lib/store/layout.ts KIND_SHARDS';

export interface CostOptions {
  /** Deployments created, then each changed once. */
  templates: number;
  /** Minutes the two-cluster world is watched idle, before and after the templates exist. */
  idleMinutes: number;
  /** Minutes after the changes in which their status follows (and the same idle, to subtract). */
  followUpMinutes: number;
  fleetClusters: number;
  /** Minutes the idle fleet is watched. */
  fleetMinutes: number;
  /** Fresh processes per bundle for its cold start. */
  coldStartRuns: number;
  /** Write docs/cost.md. */
  write: boolean;
}

/** A window of counts and how many minutes it covered. */
export type { Window } from './cost-usage.ts';

export interface CostResults {
  date: string;
  options: CostOptions;
  /** One count map per change, until the queues were empty. */
  changes: Counts[];
  /** Minutes after all changes, and the same minutes idle before them. */
  followUp: Window;
  followUpIdle: Window;
  /** The minutes after the follow-up (should match idle: the changes have settled). */
  afterFollowUp: Window;
  /** The two-cluster world idle with no template, and with every template. */
  idleEmpty: Window;
  idleTemplates: Window;
  storedBytesEmpty: number;
  storedBytesTemplates: number;
  /** The idle fleet. */
  fleet: Window;
  fleetColdStarts: Map<string, number>;
  /** KMS requests DynamoDB made for the table key in the window (one per role per cache period used). */
  fleetTableKeyRequests: number;
  /** Custom metrics (name and dimensions) the idle fleet published. */
  fleetMetricKeys: string[];
  fleetStoredBytes: number;
  /** Custom metrics published while the changes and their follow-up ran. */
  busyMetricKeys: string[];
  shape: DeployedShape | undefined;
  bundles: BundleMeasurement[];
  bundleError?: string;
  /** Seconds each part took here. */
  timings: Record<string, number>;
}

/** `name count` per metric name of `name|dimensions` keys, e.g. `ReconcileLatency 10`. */
function metricNames(keys: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const name = key.slice(0, key.indexOf('|'));
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts.size === 0
    ? 'none'
    : [...counts]
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([name, n]) => `${name} ${n}`)
        .join(', ');
}

const PIPELINE = ['api', 'detector', 'scheduler', 'binder', 'executor'];

const MEASURES: { label: string; value: (c: Counts) => number }[] = [
  { label: 'API Gateway requests', value: (c) => metric(c, 'api.requests') },
  { label: 'Lambda invocations', value: (c) => metric(c, 'lambda.invocations') },
  { label: 'SQS messages sent', value: (c) => metric(c, 'sqs.messages') },
  { label: 'SQS SendMessageBatch requests', value: (c) => metric(c, 'sqs.send') },
  { label: 'SQS ReceiveMessage requests (poller, one per ≤ 10 delivered)', value: (c) => metric(c, 'sqs.receive') },
  { label: 'SQS DeleteMessageBatch requests (poller)', value: (c) => metric(c, 'sqs.delete') },
  { label: 'SQS ChangeMessageVisibility requests', value: (c) => metric(c, 'sqs.visibility') },
  { label: 'DynamoDB GetItem (consistent)', value: (c) => metric(c, 'ddb.get') },
  { label: 'DynamoDB Query pages (indexes)', value: (c) => metric(c, 'ddb.query') },
  { label: 'DynamoDB PutItem', value: (c) => metric(c, 'ddb.put') },
  { label: 'DynamoDB DeleteItem', value: (c) => metric(c, 'ddb.delete') },
  { label: 'of which failed conditions', value: (c) => metric(c, 'ddb.conflicts') },
  { label: 'DynamoDB write units: table', value: (c) => metric(c, 'ddb.wru.table') },
  { label: 'DynamoDB write units: byKind index', value: (c) => metric(c, 'ddb.wru.byKind') },
  { label: 'DynamoDB write units: byCluster index', value: (c) => metric(c, 'ddb.wru.byCluster') },
  { label: 'DynamoDB write units: byOwner index', value: (c) => metric(c, 'ddb.wru.byOwner') },
  { label: 'DynamoDB read units', value: (c) => metric(c, 'ddb.rru') },
  { label: 'member API requests', value: (c) => metric(c, 'member.requests') },
  { label: 'KMS requests', value: (c) => metric(c, 'kms.requests') },
  { label: 'handler CPU, ms (this machine)', value: (c) => metric(c, 'lambda.cpuMs') },
  { label: 'modelled waits on calls (critical path), ms', value: (c) => metric(c, 'lambda.ioMs') },
  { label: 'billed Lambda duration, ms (model)', value: (c) => metric(c, 'lambda.billedMs') },
  { label: 'Lambda GB-seconds (model)', value: (c) => metric(c, 'lambda.gbSeconds') },
  { label: 'log bytes ingested (app, EMF, platform, access log)', value: (c) => metric(c, 'logs.bytes') },
];

function functionRows(c: Counts, fns: readonly string[]): string[][] {
  return fns.map((fn) => [
    fn,
    fmt(metric(c, 'lambda.invocations', fn)),
    fmt(metric(c, 'lambda.messages', fn)),
    fmt(metric(c, 'lambda.cpuMs', fn)),
    fmt(metric(c, 'lambda.ioMs', fn)),
    fmt(metric(c, 'lambda.billedMs', fn)),
    fmt(metric(c, 'ddb.get', fn) + metric(c, 'ddb.query', fn)),
    fmt(metric(c, 'ddb.put', fn) + metric(c, 'ddb.delete', fn)),
    fmt(
      metric(c, 'ddb.wru.table', fn) +
        metric(c, 'ddb.wru.byKind', fn) +
        metric(c, 'ddb.wru.byCluster', fn) +
        metric(c, 'ddb.wru.byOwner', fn),
    ),
    fmt(metric(c, 'ddb.rru', fn)),
    fmt(
      metric(c, 'sqs.send', fn) +
        metric(c, 'sqs.receive', fn) +
        metric(c, 'sqs.delete', fn) +
        metric(c, 'sqs.visibility', fn),
    ),
    fmt(metric(c, 'member.requests', fn)),
  ]);
}

const FUNCTION_HEADER = [
  'function',
  'invocations',
  'messages',
  'CPU ms',
  'wait ms',
  'billed ms',
  'reads (Get + Query)',
  'writes (Put + Delete)',
  'write units',
  'read units',
  'SQS requests',
  'member requests',
];
const FUNCTION_ALIGN = ['---', ...FUNCTION_HEADER.slice(1).map(() => '---:')];

/** Functions with any count, the pipeline first. */
function functionsIn(c: Counts): string[] {
  const all = new Set([...functionsOf(c, 'lambda.invocations'), ...functionsOf(c, 'sqs.receive')]);
  all.delete('setup');
  return [...PIPELINE.filter((f) => all.has(f)), ...[...all].filter((f) => !PIPELINE.includes(f)).sort()];
}

function monthly(w: Window): Counts {
  return scaleCounts(w.counts, MINUTES_PER_MONTH / w.minutes);
}

export function renderCostReport(r: CostResults): string {
  const n = r.changes.length;
  const immediateMean = meanCounts(r.changes);
  const followUp = scaleCounts(diffCounts(r.followUp.counts, r.followUpIdle.counts), 1 / Math.max(1, n));
  const perChange = addCounts(immediateMean, followUp);
  const usage = usageOf(perChange);
  const perChangeDollars = total(usageCost(usage));
  const sampleDollars = r.changes.map((c) => total(usageCost(usageOf(c))));
  const followUpDollars = total(usageCost(usageOf(followUp)));
  const million = usageCost(usageOf(scaleCounts(perChange, 1e6)));
  const millionX86 = usageCost(usageOf(scaleCounts(perChange, 1e6)), 'x86_64');
  const perMillion = total(million);
  const restDelta = 1e6 * usage.apiRequests * (unitPrice(PRICES.restApiRequest) - unitPrice(PRICES.httpApiRequest));
  const withoutStore = total(million.filter((l) => !l.item.startsWith('DynamoDB')));
  const hopPerMillion = 1e6 * (3 * unitPrice(PRICES.sqsRequest) + unitPrice(PRICES.lambdaRequest));

  // ---- idle fleet ----
  const shape = r.shape;
  const eventSources = shape?.resources['AWS::Lambda::EventSourceMapping'] ?? CONTROLLER_SPECS.length * 2;
  const idle = idleMonthUsage(r.fleet, r.fleetColdStarts, r.fleetTableKeyRequests, r.bundles, eventSources);
  const fleetMonth = monthly(r.fleet);
  const idleUsageLines = usageCost(idle.usage);
  const fixedLines = fixedCost({
    kmsKeys: shape?.resources['AWS::KMS::Key'] ?? 0,
    secrets: shape?.resources['AWS::SecretsManager::Secret'] ?? 0,
    alarms: shape?.alarmMetrics ?? 0,
    dashboards: shape?.resources['AWS::CloudWatch::Dashboard'] ?? 0,
    customMetrics: r.fleetMetricKeys.length,
    storageGb: r.fleetStoredBytes / 1e9,
  });
  const idleLines = [...idleUsageLines, ...fixedLines];
  const idleMonth = total(idleLines);
  const idleFree = total(afterFreeTier(idleLines));
  const pollLine = idle.pollRequests * unitPrice(PRICES.sqsRequest);
  const fixedBilled = fixedLines.filter((l) => l.usd >= 0.01);
  const busyOnly = r.busyMetricKeys.filter((k) => !r.fleetMetricKeys.includes(k)).length;

  // ---- steady state of templates ----
  const steady = scaleCounts(
    diffCounts(monthly(r.idleTemplates), monthly(r.idleEmpty)),
    1 / Math.max(1, r.options.templates),
  );
  const steadyLines = usageCost(usageOf(steady));
  const storagePerTemplate = (r.storedBytesTemplates - r.storedBytesEmpty) / Math.max(1, r.options.templates);

  const out: string[] = [];
  out.push(
    `_Written by \`npm run bench -- --only=cost\` on ${r.date.slice(0, 10)} (bench/cost.bench.ts, bench/cost-report.ts); do not edit by hand._`,
    '',
    '### The run',
    '',
    ...describeSetup(),
    `- Template changes: ${n} Deployments on two simulated members (Duplicated, one replica), each created, then its image patched once through the API (\`PATCH\` strategic merge, as \`kubectl set image\`); each change counted until the queues were empty, then the ${r.followUp.minutes} minutes after all of them (status collected and aggregated) less the same ${r.followUp.minutes} minutes idle just before them.`,
    `- Idle: ${r.options.fleetClusters} simulated members, nothing propagated, ${r.fleet.minutes} simulated minutes with every schedule of the \`${ENV.name}\` environment (resync ${ENV.resyncSchedule}; ${CONTROLLER_SPECS.flatMap((s) => (s.schedules ?? []).map((x) => `${x.name} ${x.expression}`)).join(', ')}); counts scaled to a month of ${HOURS_PER_MONTH} hours.`,
    `- Functions as \`${ENV.name}\` deploys them: JSON logs at ${ENV.logLevel}, EMF metrics, SK_RECONCILE_CONCURRENCY ${RECONCILE_CONCURRENCY}, memory from lib/controllers/specs.ts (api ${API_MEMORY_MB} MB); one invocation at a time (the counts do not depend on it; durations are modelled, see above).`,
    `- Prices: ${PRICES_REGION}, on-demand list prices as of ${PRICES_AS_OF} (bench/cost-model.ts), no free tier unless said.`,
    `- Time spent here: ${Object.entries(r.timings)
      .map(([k, v]) => `${k} ${Math.round(v)} s`)
      .join('; ')}.`,
    '',
    '### One template change on two clusters',
    '',
    ...table(
      [
        'per change',
        'median until the queues were empty',
        'mean until the queues were empty',
        `mean follow-up (${r.followUp.minutes} min, less idle)`,
        'mean in all',
      ],
      ['---', '---:', '---:', '---:', '---:'],
      [
        ...MEASURES.map((m) => [
          m.label,
          fmt(median(r.changes.map(m.value))),
          fmt(m.value(immediateMean)),
          fmt(m.value(followUp)),
          fmt(m.value(perChange)),
        ]),
        [
          'dollars (model, list prices)',
          usd(median(sampleDollars)),
          usd(mean(sampleDollars)),
          usd(followUpDollars),
          usd(perChangeDollars),
        ],
      ],
    ),
    '',
    'By function, mean per change in all (follow-up included):',
    '',
    ...table(FUNCTION_HEADER, FUNCTION_ALIGN, functionRows(perChange, functionsIn(perChange))),
    '',
    'By kind of object written, mean per change in all (write units of the item and of its index entries):',
    '',
    ...table(
      ['kind', 'writes (Put + Delete)', 'write units', 'share of the write units'],
      ['---', '---:', '---:', '---:'],
      functionsOf(perChange, 'ddb.kind.wru')
        .sort((a, b) => metric(perChange, 'ddb.kind.wru', b) - metric(perChange, 'ddb.kind.wru', a))
        .map((kind) => [
          kind,
          fmt(metric(perChange, 'ddb.kind.writes', kind)),
          fmt(metric(perChange, 'ddb.kind.wru', kind)),
          pct(metric(perChange, 'ddb.kind.wru', kind), usage.dynamoWriteUnits),
        ]),
    ),
    '',
    '### A million template changes on two clusters',
    '',
    ...costTable(million, 'one million changes'),
    '',
    `- Target ≤ ${usd(TARGET_PER_MILLION)} per million: **${perMillion <= TARGET_PER_MILLION ? 'met' : 'missed'}** (${usd(perMillion)}, ×${(perMillion / TARGET_PER_MILLION).toFixed(2)} the target). Largest items: ${largest(million)}.`,
    `- On x86_64 instead of arm64: ${usd(total(millionX86))}. With a REST API instead of the HTTP API: ${usd(perMillion + restDelta)}.`,
    `- What sets it besides the store: without a single DynamoDB request a change would still cost ${usd(withoutStore)} a million (${largest(
      million.filter((l) => !l.item.startsWith('DynamoDB')),
      3,
    )}), ×${(withoutStore / TARGET_PER_MILLION).toFixed(2)} the target. At this volume changes come one by one, so no batch carries two: each hop through an event source — a message sent, received and deleted, and an invocation — costs ${usd(hopPerMillion)} a million changes, and a change takes ${fmt(usage.lambdaRequests - usage.apiRequests)} of them after the API's request.`,
    `- DynamoDB writes in all: ${fmt(usage.dynamoWriteUnits)} write units per change, of which ${pct(metric(perChange, 'ddb.wru.byKind') + metric(perChange, 'ddb.wru.byCluster') + metric(perChange, 'ddb.wru.byOwner'), usage.dynamoWriteUnits)} are index writes (byKind and byCluster project every attribute, so each write to an item in them is paid again per index).`,
    '',
  );

  // ---- idle ----
  const fleetFns = functionsIn(fleetMonth);
  out.push(
    `### ${r.options.fleetClusters} clusters idle for a month`,
    '',
    ...table(FUNCTION_HEADER, FUNCTION_ALIGN, functionRows(fleetMonth, fleetFns)),
    '',
    `EventBridge Scheduler invocations a month: ${fmt(metric(fleetMonth, 'scheduler.invocations'))} (${functionsOf(
      fleetMonth,
      'scheduler.runs',
    )
      .map((s) => `${s} ${fmt(metric(fleetMonth, 'scheduler.runs', s))}`)
      .join(
        ', ',
      )}). Cold starts (an invocation more than ${KEEP_WARM_MS / 60_000} minutes after the function's previous one) a month: ${
      [...r.fleetColdStarts].map(([fn, c]) => `${fn} ${fmt((c * MINUTES_PER_MONTH) / r.fleet.minutes)}`).join(', ') ||
      'none'
    }, billed init ${fmt(idle.coldStartGbSeconds)} GB-s.`,
    '',
    ...costTable(idleLines, 'a month idle, list prices'),
    '',
    `- KMS requests: ${fmt(idle.tableKeyRequests)} are DynamoDB's for the table's customer managed key (once per function role per ${TABLE_KEY_CACHE_MINUTES} minutes it is used in, an estimate), the rest the functions' own (member credentials; cached per warm function).`,
    `- Data transfer out: ${fmt(metric(fleetMonth, 'member.requests'))} member requests a month at ${MEMBER_REQUEST_OVERHEAD_BYTES} bytes of headers each (estimated) plus their paths and bodies; answers (${fmt(metric(fleetMonth, 'member.bytesIn') / 1e9)} GB a month) come in free. ${fmt(metric(fleetMonth, 'member.requests', 'cluster-status') / Math.max(1, metric(fleetMonth, 'lambda.keys', 'cluster-status')))} member requests per cluster-status key (a probe, or the minute's sweep): the health check, the version, discovery in two requests (aggregated discovery, decisions/0017), nodes and pods.`,
    `- Of the SQS requests, ${fmt(idle.pollRequests)} (${usd(pollLine)}) are Lambda's pollers waiting on ${eventSources} empty queues (${IDLE_RECEIVES_PER_QUEUE_MINUTE} receives a minute each, not measured); the rest are the sweeps' own messages.`,
    `- Fixed resources counted in the synthesised \`${ENV.name}\` stacks: ${shape ? `${shape.resources['AWS::KMS::Key'] ?? 0} KMS keys, ${shape.resources['AWS::SecretsManager::Secret'] ?? 0} secret, ${shape.resources['AWS::CloudWatch::Alarm'] ?? 0} alarms (${shape.alarmMetrics} alarm metrics), ${shape.resources['AWS::CloudWatch::Dashboard'] ?? 0} dashboard, ${eventSources} SQS event sources, ${shape.resources['AWS::Scheduler::Schedule'] ?? 0} schedules, ${shape.functions.length} functions (${[...new Set(shape.functions.map((f) => f.architecture))].join(', ')}), API Gateway ${shape.apiProtocol} API` : 'not available (synth failed)'}. Custom metrics: ${r.fleetMetricKeys.length} published by the idle fleet (EMF names × dimension values: ${metricNames(r.fleetMetricKeys)}), ${busyOnly} more while changes flow (${metricNames(r.busyMetricKeys.filter((k) => !r.fleetMetricKeys.includes(k)))}).`,
    `- Target ≤ ${usd(TARGET_IDLE_MONTH)} a month idle: **${idleMonth <= TARGET_IDLE_MONTH ? 'met' : 'missed'}** (${usd(idleMonth)} at list prices, ${usd(idleFree)} after the free tiers if the account has nothing else). Largest items: ${largest(idleLines, 4)}. The resources billed whatever the load (${largest(fixedBilled, fixedBilled.length)}) come to ${usd(total(fixedBilled))} before any request, and the pollers on the empty queues to ${usd(pollLine)}.`,
    '',
    `Each template already propagated to two clusters adds, idle, per month: ${usd(total(steadyLines))} (${largest(steadyLines, 3)}), measured as the difference between ${r.idleEmpty.minutes} idle minutes with ${r.options.templates} templates and without; and ${fmt(storagePerTemplate)} bytes of table and index storage (${usd((storagePerTemplate / 1e9) * (unitPrice(PRICES.dynamoStorage) + unitPrice(PRICES.dynamoPitr)))} a month).`,
    '',
  );

  // ---- break-even ----
  out.push('### Break-even against a Karmada host', '');
  const hostRows = karmadaHosts().map((h) => {
    const monthlyHost = total(h.lines);
    const v = breakEvenChanges(monthlyHost, idleMonth + busyOnly * unitPrice(PRICES.customMetric), perChangeDollars);
    return [
      h.what,
      h.lines.map((l) => `${l.item} ${usd(l.usd)}`).join(' + '),
      usd(monthlyHost),
      Number.isFinite(v) ? fmt(v) : '∞',
      Number.isFinite(v) ? fmt(v / (MINUTES_PER_MONTH * 60)) : '∞',
    ];
  });
  out.push(
    ...table(
      [
        'host (on-demand, a month)',
        'items',
        'a month',
        'changes a month at which the host is cheaper',
        'the same, per second',
      ],
      ['---', '---', '---:', '---:', '---:'],
      hostRows,
    ),
    '',
    `Computed as (host − idle fleet − the custom metrics a busy month adds) ÷ ${usd(perChangeDollars)} per change. Left out on both sides: the existing templates' own idle cost (above), and the host's data transfer and load balancer capacity units.`,
    '',
  );

  // ---- bundles ----
  out.push('### Bundles and cold starts', '');
  if (r.bundles.length === 0) {
    out.push(`Not measured: ${r.bundleError ?? 'no bundle'}.`, '');
  } else {
    out.push(
      ...table(
        [
          'function',
          'memory MB',
          'index.mjs bytes',
          'index.mjs.map bytes',
          'deployed (deflated) bytes',
          'init ms: import + handler',
          'of which AWS SDK clients',
          'Node start ms',
        ],
        ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
        r.bundles.map((b) => [
          b.name,
          String(b.memoryMB),
          b.bundleBytes.toLocaleString('en-US'),
          b.mapBytes.toLocaleString('en-US'),
          b.zippedBytes.toLocaleString('en-US'),
          fmt(b.initMs),
          `${fmt(b.sdkMs)} (${b.sdkModules.map((m) => m.replace('@aws-sdk/client-', '')).join(', ') || 'none'})`,
          fmt(b.nodeStartMs),
        ]),
      ),
      '',
      `Medians of ${r.bundles[0]!.runs} fresh \`node\` processes each (${process.version}), with the function's environment from the synthesised template (NODE_OPTIONS=--enable-source-maps as deployed), on this machine's CPU; the SDK clients come from node_modules here and from the runtime in Lambda.`,
      '',
    );
  }

  // ---- throughput ----
  out.push('### Throughput on paper', '');
  const stage = (fn: string) => {
    const spec = CONTROLLER_SPECS.find((s) => s.name === fn)!;
    const keys = r.changes.reduce((a, c) => a + metric(c, 'lambda.keys', fn), 0);
    const invocations = r.changes.reduce((a, c) => a + metric(c, 'lambda.invocations', fn), 0);
    const cpu = r.changes.reduce((a, c) => a + metric(c, 'lambda.cpuMs', fn), 0);
    const io = r.changes.reduce((a, c) => a + metric(c, 'lambda.ioMs', fn), 0);
    const perKeyCpuMs = keys ? cpu / keys : 0;
    const perKeyIoMs = invocations ? io / invocations : 0;
    const rate = (maxConcurrency: number, batchSize: number) =>
      laneKeysPerSecond({
        maxConcurrency,
        batchSize,
        perKeyCpuMs,
        perKeyIoMs,
        memoryMB: spec.memoryMB,
        concurrency: RECONCILE_CONCURRENCY,
      });
    const { priority, standard } = spec.lanes;
    return {
      fn,
      perKeyCpuMs,
      perKeyIoMs,
      one: rate(1, priority.batchSize),
      priority: rate(priority.maxConcurrency, priority.batchSize),
      standard: rate(standard.maxConcurrency, standard.batchSize),
      reserved: ENV.reservedConcurrency ? rate(ENV.reservedConcurrency, priority.batchSize) : undefined,
      lanes: `priority ${priority.maxConcurrency} × ${priority.batchSize}, standard ${standard.maxConcurrency} × ${standard.batchSize}`,
      keysPerChange: keys / Math.max(1, n),
    };
  };
  const stages = ['detector', 'scheduler', 'binder', 'executor'].map(stage);
  out.push(
    ...table(
      [
        'stage (keys)',
        'keys per change',
        'CPU ms per key (this machine)',
        'modelled wait ms per invocation',
        'keys/s, one invocation at a time (batch 10)',
        'event sources (concurrency × batch)',
        'keys/s at that concurrency (both lanes)',
        `keys/s with the ${ENV.reservedConcurrency ?? '—'} reserved executions on batches of 10`,
      ],
      ['---', '---:', '---:', '---:', '---:', '---', '---:', '---:'],
      stages.map((s) => [
        `${s.fn} (${s.fn === 'executor' ? 'Works' : s.fn === 'detector' ? 'templates' : 'bindings'})`,
        fmt(s.keysPerChange),
        fmt(s.perKeyCpuMs),
        fmt(s.perKeyIoMs),
        fmt(s.one),
        s.lanes,
        fmt(s.priority + s.standard),
        s.reserved === undefined ? '—' : fmt(s.reserved),
      ]),
    ),
    '',
  );
  const byKindClasses = functionsOf(perChange, 'ddb.partition.byKind');
  const partitionRows: string[][] = [];
  for (const cls of byKindClasses) {
    const units = metric(perChange, 'ddb.partition.byKind', cls);
    const shards = kindShardsOf(parseGroupKind(cls));
    partitionRows.push([
      `byKind, ${cls} (${shards} ${shards === 1 ? 'shard' : 'shards'})`,
      fmt(units),
      fmt(partitionObjectsPerSecond(shards, units)),
    ]);
  }
  const clusters = 2;
  for (const cls of functionsOf(perChange, 'ddb.partition.byCluster')) {
    const units = metric(perChange, 'ddb.partition.byCluster', cls) / clusters;
    partitionRows.push([
      `byCluster, ${cls}, one cluster's partition (a change puts one Work there)`,
      fmt(units),
      fmt(partitionObjectsPerSecond(1, units)),
    ]);
  }
  const tableUnits = metric(perChange, 'ddb.wru.table');
  partitionRows.push(
    [
      `table, on-demand default maximum (${TABLE_MAX_WRITE_UNITS.toLocaleString('en-US')} write units/s)`,
      fmt(tableUnits),
      fmt(TABLE_MAX_WRITE_UNITS / tableUnits),
    ],
    [
      `table, a new on-demand table at once (${NEW_TABLE_WRITE_UNITS.toLocaleString('en-US')} write units/s)`,
      fmt(tableUnits),
      fmt(NEW_TABLE_WRITE_UNITS / tableUnits),
    ],
  );
  out.push(
    ...table(
      ['DynamoDB write limit', 'write units per change there', 'changes/s it allows'],
      ['---', '---:', '---:'],
      partitionRows,
    ),
    '',
    `Each partition takes ${PARTITION_WRITE_UNITS_PER_SECOND.toLocaleString('en-US')} write units/s (${KIND_SHARDS_NOTE}: a kind's byKind entries spread over ${KIND_SHARDS} partitions, one for the policies, clusters and the few other kinds of decisions/0020; a cluster's Works share one byCluster partition, so a change's two Works land on two partitions). The API is throttled at ${ENV.apiThrottle.rate.toLocaleString('en-US')} requests/s (burst ${ENV.apiThrottle.burst.toLocaleString('en-US')}) in \`${ENV.name}\`; Lambda adds at most ${SQS_SCALE_UP_PER_MINUTE} concurrent invocations a minute to an SQS event source, well above the event sources' caps.`,
    '',
  );

  // ---- prices ----
  out.push(
    `### Prices used (${PRICES_REGION}, on-demand, as of ${PRICES_AS_OF})`,
    '',
    ...table(
      ['what', 'list price'],
      ['---', '---:'],
      Object.values(PRICES).map((p) => [p.what, describePrice(p)]),
    ),
    '',
  );

  // ---- checks ----
  const residual = diffCounts(r.afterFollowUp.counts, r.followUpIdle.counts);
  out.push(
    '### Checks',
    '',
    `- Settled: the ${r.afterFollowUp.minutes} minutes after the follow-up differ from the same minutes idle by ${fmt(metric(residual, 'ddb.put') + metric(residual, 'ddb.delete'))} store writes and ${fmt(metric(residual, 'lambda.invocations'))} invocations in all (over ${n} changes), so the follow-up window caught what the changes set off.`,
    `- Modelled round trips: ${Object.entries(IO_LATENCY_MS)
      .map(([k, v]) => `${k} ${v} ms`)
      .join(', ')}.`,
  );
  return out.join('\n');
}
