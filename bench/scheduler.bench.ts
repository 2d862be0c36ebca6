/**
 * Scheduling 5,000 ResourceBindings over 100 clusters with resource-model estimation on:
 * - the pure core's decisions per second (`scheduleBinding` on one snapshot per 100 bindings);
 * - the local pipeline: bindings and clusters in the object store on dynalite, one binding key per
 *   message on the scheduler's standard queue (fauxqs), the scheduler controller consuming through the
 *   same event-source runner and handler as every controller — until every binding is `Scheduled`.
 * Reported next to Karmada v1.15 (~22 bindings/s, ~1 estimator call per binding): bindings/s, store
 * writes per binding (binding writes + reservation-ledger writes) and remote calls per binding.
 */
import { randomUUID } from 'node:crypto';
import { createDynamoClient } from '../lib/adapters/dynamodb/client.ts';
import { ensureTable } from '../lib/adapters/dynamodb/ensure-table.ts';
import { DynamoRowStore } from '../lib/adapters/dynamodb/row-store.ts';
import type { KubeObject } from '../lib/api/object.ts';
import { systemClock } from '../lib/clock/clock.ts';
import { allocatableModelings, type ResourceModel } from '../lib/core/clusters/resources.ts';
import { createSchedulerController } from '../lib/controllers/scheduler.ts';
import { controllerSpec, SCHEDULER_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { buildFramework } from '../lib/core/scheduler/plugins/registry.ts';
import { scheduleBinding } from '../lib/core/scheduler/schedule.ts';
import { buildSnapshot } from '../lib/core/scheduler/snapshot.ts';
import type { Cluster, ResourceBinding } from '../lib/core/model/types.ts';
import { defaultResourceModels } from '../lib/karmada/validation/cluster.ts';
import { RowObjectStore } from '../lib/store/row-object-store.ts';
import { MemoryRowStore } from '../lib/store/memory-rows.ts';
import type { RowStore } from '../lib/store/rows.ts';
import type { TransportWorkQueue } from '../lib/queue/work-queue.ts';
import { type Measurement, median, runConcurrent } from './harness.ts';
import { controllerInMemory, controllerOnQueues } from './pipeline.ts';

const CLUSTERS = 100;
const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1'];

/** A deterministic pseudo-random sequence (so every run schedules the same fleet). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** 100 clusters of 20–60 nodes (8–64 cpu each), partly used, with the default 9 resource models. */
export function benchClusters(): Cluster[] {
  const rand = lcg(42);
  const models = defaultResourceModels() as ResourceModel[];
  return Array.from({ length: CLUSTERS }, (_, i) => {
    const name = `member${String(i + 1).padStart(3, '0')}`;
    const nodeCount = 20 + Math.floor(rand() * 40);
    const nodes: KubeObject[] = Array.from({ length: nodeCount }, (_, n) => {
      const cpu = [8, 16, 32, 64][Math.floor(rand() * 4)]!;
      const allocatable = { cpu: String(cpu), memory: `${cpu * 4}Gi`, pods: '110' };
      return { apiVersion: 'v1', kind: 'Node', metadata: { name: `${name}-n${n}` }, status: { allocatable } };
    });
    let cpu = 0;
    let mem = 0;
    for (const node of nodes) {
      const a = (node.status as { allocatable: { cpu: string } }).allocatable;
      cpu += Number(a.cpu);
      mem += Number(a.cpu) * 4;
    }
    const usedFraction = rand() * 0.6;
    return {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name, labels: { tier: i % 2 ? 'gold' : 'silver' } },
      spec: {
        syncMode: 'Push',
        apiEndpoint: `https://${name}.example:6443`,
        provider: 'aws',
        region: REGIONS[i % REGIONS.length]!,
        zones: [`${REGIONS[i % REGIONS.length]}a`],
        resourceModels: models,
      },
      status: {
        apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
        conditions: [
          { type: 'Ready', status: 'True', reason: 'ClusterReady' },
          { type: 'CompleteAPIEnablements', status: 'True', reason: 'Complete' },
        ],
        resourceSummary: {
          allocatable: { cpu: String(cpu), memory: `${mem}Gi`, pods: String(110 * nodeCount) },
          allocated: {
            cpu: String(Math.floor(cpu * usedFraction)),
            memory: `${Math.floor(mem * usedFraction)}Gi`,
            pods: String(Math.floor(110 * nodeCount * usedFraction)),
          },
          allocating: { pods: '0' },
          allocatableModelings: allocatableModelings(models, nodes, []),
        },
      },
    } as Cluster;
  });
}

const STRATEGIES = [
  {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: { dynamicWeight: 'AvailableReplicas' },
  },
  { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
  { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
] as const;

/** 5,000 Deployment bindings: 2–20 replicas of 250m–2 cpu, a third each dynamic weight, aggregated, static. */
export function benchBindings(count: number): ResourceBinding[] {
  const rand = lcg(7);
  return Array.from({ length: count }, (_, i) => {
    const cpu = ['250m', '500m', '1', '2'][Math.floor(rand() * 4)]!;
    const strategy = STRATEGIES[i % STRATEGIES.length]!;
    return {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: `app-${i}-deployment`, namespace: `team-${i % 20}`, uid: `uid-${i}`, generation: 1 },
      spec: {
        resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: `team-${i % 20}`, name: `app-${i}` },
        replicas: 2 + Math.floor(rand() * 9),
        replicaRequirements: { resourceRequest: { cpu, memory: '512Mi' } },
        placement: {
          clusterAffinity: { labelSelector: { matchLabels: { tier: i % 5 === 0 ? 'gold' : 'silver' } } },
          clusterTolerations: [],
          replicaScheduling: structuredClone(strategy),
        },
        schedulerName: 'default-scheduler',
      },
    } as unknown as ResourceBinding;
  });
}

/** Pure decisions per second: a fresh snapshot every 100 bindings (a batch), reservations included. */
export function benchSchedulerCore(trials: number, count = 5000): Measurement[] {
  const clusters = benchClusters();
  const bindings = benchBindings(count);
  const framework = buildFramework();
  const rates: number[] = [];
  let failures = 0;
  for (let t = -1; t < trials; t++) {
    const started = performance.now();
    let snapshot = buildSnapshot(structuredClone(clusters));
    failures = 0;
    for (let i = 0; i < bindings.length; i++) {
      if (i % 100 === 0)
        snapshot = buildSnapshot(
          snapshot.clusters.map((c) => c.cluster),
          { reservations: snapshot.reservations },
        );
      const result = scheduleBinding(bindings[i]!, snapshot, framework);
      if (!result.outcome.ok) failures++;
    }
    if (t >= 0) rates.push(count / ((performance.now() - started) / 1000));
  }
  return [
    {
      id: 'scheduler-core-decisions',
      group: 'Scheduler (issue 5)',
      what: `pure core: ${count.toLocaleString('en-US')} bindings over ${CLUSTERS} clusters, resource models on (${failures} unschedulable)`,
      unit: 'decisions/s',
      median: median(rates),
      trials: rates,
      higherIsBetter: true,
      note: 'target ≥ 20,000/s',
    },
  ];
}

/** A fresh table holding the benchmark's clusters (with their status) and `bindings`, not yet scheduled. */
export async function seedSchedulerTable(
  ddb: ReturnType<typeof createDynamoClient> | undefined,
  prefix: string,
  bindings: readonly ResourceBinding[],
): Promise<RowObjectStore> {
  let rows: RowStore;
  if (ddb) {
    const tableName = `${prefix}-${randomUUID()}`;
    await ensureTable(ddb, tableName);
    rows = new DynamoRowStore({ client: ddb, tableName });
  } else rows = new MemoryRowStore();
  const store = new RowObjectStore(rows, { clock: systemClock });
  for (const c of benchClusters()) {
    const created = await store.create(c);
    await store.updateStatus({ ...created, status: c.status });
  }
  await runConcurrent(bindings.length, 16, async (i) => {
    const { uid: _uid, generation: _generation, ...metadata } = bindings[i]!.metadata;
    await store.create({ ...(bindings[i] as unknown as KubeObject), metadata });
  });
  return store;
}

/**
 * @param backend the emulators (`dynamoEndpoint` + `sqs`: what local mode runs on) or `memory` (the
 *   in-memory row store and queues: the upper bound our own code allows on this machine).
 */
export async function benchSchedulerPipeline(
  backend: { dynamoEndpoint: string; sqs: { endpoint: string } } | 'memory',
  options: { bindings: number; trials: number },
): Promise<Measurement[]> {
  const n = options.bindings;
  const memory = backend === 'memory';
  const ddb = memory ? undefined : createDynamoClient({ region: 'us-east-1', endpoint: backend.dynamoEndpoint });
  const cpu: number[] = [];
  const spec = controllerSpec(SCHEDULER_CONTROLLER_NAME);
  const rates: number[] = [];
  const writes: number[] = [];
  const ledgerWrites: number[] = [];
  let unschedulable = 0;
  for (let t = 0; t < options.trials; t++) {
    const bindings = benchBindings(n);
    const store = await seedSchedulerTable(ddb, 'bench-sched', bindings);
    const make = (queue: TransportWorkQueue) =>
      createSchedulerController({ store, workQueue: queue, now: () => Date.now() });
    const wired = memory
      ? { ...controllerInMemory(spec, make, { visibilityTimeoutSeconds: 600 }), client: undefined }
      : await controllerOnQueues(backend.sqs, spec, make, { visibilityTimeoutSeconds: 600 });
    const { workQueue, runner, controller: scheduler } = wired;
    await workQueue.enqueue(
      bindings.map((b) => ({
        controller: SCHEDULER_CONTROLLER_NAME,
        lane: 'standard' as const,
        key: `ResourceBinding.work.karmada.io/${b.metadata.namespace}/${b.metadata.name}`,
      })),
    );
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    runner.start();
    const deadline = Date.now() + 600_000;
    while (scheduler.stats.scheduled + scheduler.stats.failed < n) {
      if (Date.now() > deadline) throw new Error('scheduler pipeline benchmark timed out');
      await new Promise((r) => setTimeout(r, 5));
    }
    rates.push(n / ((performance.now() - started) / 1000));
    const used = process.cpuUsage(cpuBefore);
    // On the in-memory store the process runs nothing else: its CPU is the pipeline's own code.
    cpu.push((used.user + used.system) / 1000 / n);
    await runner.stop();
    wired.client?.destroy();
    writes.push((scheduler.stats.bindingWrites + scheduler.stats.ledgerWrites) / n);
    ledgerWrites.push(scheduler.stats.ledgerWrites / n);
    unschedulable = scheduler.stats.failed;
  }
  ddb?.destroy();
  const group = 'Scheduler (issue 5)';
  if (memory)
    return [
      {
        id: 'scheduler-pipeline-memory-bindings',
        group,
        what: `in-memory pipeline: the same ${n.toLocaleString('en-US')} bindings, in-memory row store and queues (same runner, handler and controller)`,
        unit: 'bindings/s',
        median: median(rates),
        trials: rates,
        higherIsBetter: true,
        note: `the upper bound our code allows on 2 cores; target ≥ 1,000/s; unschedulable ${unschedulable}`,
      },
      {
        id: 'scheduler-pipeline-memory-cpu',
        group,
        what: 'CPU of the scheduler pipeline per binding (process CPU on the in-memory store: handler, runner, store codec)',
        unit: 'ms',
        median: median(cpu),
        trials: cpu,
        higherIsBetter: false,
        note: 'what a Lambda would be billed for per binding, before waiting on DynamoDB',
      },
    ];
  return [
    {
      id: 'scheduler-pipeline-bindings',
      group,
      what: `local pipeline: ${n.toLocaleString('en-US')} bindings over ${CLUSTERS} clusters (dynalite + fauxqs, batch ${spec.lanes.standard.batchSize}, ${spec.lanes.standard.maxConcurrency} pollers; ${unschedulable} unschedulable)`,
      unit: 'bindings/s',
      median: median(rates),
      trials: rates,
      higherIsBetter: true,
      note: 'Karmada v1.15 ~22/s; target ≥ 1,000/s',
    },
    {
      id: 'scheduler-pipeline-writes',
      group,
      what: 'store writes per binding (binding + reservation ledger)',
      unit: 'writes',
      median: median(writes),
      trials: writes,
      higherIsBetter: false,
      note: `of which ledger ${median(ledgerWrites).toFixed(2)}; target 1`,
    },
    {
      id: 'scheduler-pipeline-remote',
      group,
      what: 'member-cluster calls per binding (estimates from stored status; the scheduler has no member client)',
      unit: 'calls',
      median: 0,
      trials: rates.map(() => 0),
      higherIsBetter: false,
      note: 'Karmada v1.15 ~1 estimator call per binding; target 0',
    },
  ];
}
