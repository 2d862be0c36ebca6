/**
 * Issue 15 at the issue's scale: 5,000 ResourceBindings in one namespace with a FederatedResourceQuota,
 * placed by the real scheduler on dynalite + fauxqs (100 clusters, no templates and no members: the
 * cost measured is the quota's, not the members'; the scheduler's hand-offs to the binder are dropped,
 * as there is nothing to render). Then, one at a time:
 * - a binding's replicas change as the detector would write it: the time until the quota's
 *   `status.overallUsed` shows it, and the store reads and writes of that change;
 * - a binding is deleted as the garbage collector would delete it: the time until the binder (on its
 *   own queues) has given its usage back to `overallUsed`, and the reads and writes of that.
 * Next to them, Karmada's way: its enforcement controller recomputes `overallUsed` from a list of every
 * ResourceBinding of the namespace on each binding deletion (and quota change, and every sync period).
 * Our quota controller's sync (a quota change, the periodic sweep) is that same full recount, so it is
 * measured directly, on the same 5,000 bindings and the same store: its time, and what it reads.
 */
import { createDynamoClient } from '../lib/adapters/dynamodb/client.ts';
import { FEDERATED_RESOURCE_QUOTA } from '../lib/api/karmada-names.ts';
import { formatKey, type KubeObject } from '../lib/api/object.ts';
import { bindingFinalizerOf, type ResourceBinding } from '../lib/core/index.ts';
import { createBinderController } from '../lib/controllers/binder.ts';
import { createFederatedResourceQuotaController } from '../lib/controllers/federated-resource-quota.ts';
import { createSchedulerController } from '../lib/controllers/scheduler.ts';
import { BINDER_CONTROLLER_NAME, controllerSpec, SCHEDULER_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { createLogger } from '../lib/observability/logger.ts';
import type { ObjectStore } from '../lib/store/port.ts';
import { listAll } from '../lib/store/list-all.ts';
import { type Measurement, median, percentile } from './harness.ts';
import { controllerOnQueues } from './pipeline.ts';
import { benchBindings, seedSchedulerTable } from './scheduler.bench.ts';

const GROUP = 'FederatedResourceQuota at 5,000 bindings (issue 15)';
const NAMESPACE = 'quota';

/** What went through a store since the last reset: writes by kind, and object reads by kind. */
interface StoreCounts {
  writes: Map<string, number>;
  /** Objects read by kind (a get that found one, or an item of a list page). */
  read: Map<string, number>;
  reset(): void;
}

/** Counts the writes and reads made through a store, by kind. */
function countingStore(inner: ObjectStore): ObjectStore & StoreCounts {
  const writes = new Map<string, number>();
  const read = new Map<string, number>();
  const add = (map: Map<string, number>, kind: string, n = 1) => map.set(kind, (map.get(kind) ?? 0) + n);
  const count = (kind: string) => add(writes, kind);
  return {
    writes,
    read,
    reset: () => (writes.clear(), read.clear()),
    create: (o, opts) => (count(o.kind), inner.create(o, opts)),
    update: (o, opts) => (count(o.kind), inner.update(o, opts)),
    updateStatus: (o, opts) => (count(o.kind), inner.updateStatus(o, opts)),
    updateWithStatus: (o, opts) => (count(o.kind), inner.updateWithStatus(o, opts)),
    delete: (r, opts) => (count(r.kind), inner.delete(r, opts)),
    get: async (r) => {
      const o = await inner.get(r);
      if (o) add(read, r.kind);
      return o;
    },
    list: async (q) => {
      const page = await inner.list(q);
      add(read, q.kind, page.items.length);
      return page;
    },
    listRefs: (q) => inner.listRefs(q),
    listDependents: (u, q) => inner.listDependents(u, q),
  };
}

/** DynamoDB read requests (GetItem, Query, …) made by a client since the last reset, and their response bytes. */
interface RequestCounts {
  reads: number;
  bytes: number;
  reset(): void;
}

const READ_COMMANDS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'ScanCommand']);

/** Counts a DynamoDB client's read requests; installed before the client's first call. */
function countReadRequests(client: ReturnType<typeof createDynamoClient>): RequestCounts {
  const counts: RequestCounts = {
    reads: 0,
    bytes: 0,
    reset: () => {
      counts.reads = 0;
      counts.bytes = 0;
    },
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (READ_COMMANDS.has((context as { commandName?: string }).commandName ?? '')) {
        counts.reads++;
        const headers = (out.response as { headers?: Record<string, string> } | undefined)?.headers;
        counts.bytes += Number(headers?.['content-length'] ?? 0);
      }
      return out;
    },
    { step: 'deserialize', name: 'benchReadRequests' },
  );
  return counts;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const placedReplicas = (b: KubeObject) =>
  ((b.spec as { clusters?: { replicas?: number }[] }).clusters ?? []).reduce((a, c) => a + (c.replicas ?? 0), 0);
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

/** What one change (or recount) read: objects by kind through the store, DynamoDB read requests and bytes. */
interface Reads {
  bindings: number;
  objects: number;
  requests: number;
  kb: number;
  byKind: string;
}

export async function benchQuotaScale(
  dynamoEndpoint: string,
  sqs: { endpoint: string },
  options: { bindings: number; samples: number; recounts: number },
): Promise<Measurement[]> {
  const n = options.bindings;
  const ddb = createDynamoClient({ region: 'us-east-1', endpoint: dynamoEndpoint });
  const requests = countReadRequests(ddb);
  const bindings = benchBindings(n).map((b) => ({
    ...b,
    metadata: { ...b.metadata, namespace: NAMESPACE },
    spec: { ...b.spec, resource: { ...b.spec.resource, namespace: NAMESPACE } },
  }));
  const base = await seedSchedulerTable(ddb, 'bench-quota', bindings);
  const store = countingStore(base);
  await base.create({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { name: 'team', namespace: NAMESPACE },
    spec: { overall: { cpu: '1000000', memory: '1000000Gi', pods: '10000000' } },
  });
  const { client, workQueue, runner, controller } = await controllerOnQueues(
    sqs,
    controllerSpec(SCHEDULER_CONTROLLER_NAME),
    (queue) =>
      createSchedulerController({
        store,
        // No templates, nothing for the binder to render: its hand-offs are dropped.
        workQueue: { enqueue: (items) => queue.enqueue(items.filter((i) => i.controller !== BINDER_CONTROLLER_NAME)) },
        now: () => Date.now(),
      }),
    { visibilityTimeoutSeconds: 600 },
  );
  // The binder on queues of its own: it gives a deleted binding's usage back (it hears of nothing else here).
  const binder = await controllerOnQueues(
    sqs,
    controllerSpec(BINDER_CONTROLLER_NAME),
    (queue) => createBinderController({ store, workQueue: queue }),
    { visibilityTimeoutSeconds: 600 },
  );
  const keyOf = (name: string) => `ResourceBinding.work.karmada.io/${NAMESPACE}/${name}`;
  const refOf = (name: string) => ({ group: 'work.karmada.io', kind: 'ResourceBinding', namespace: NAMESPACE, name });
  const quotaRef = { ...FEDERATED_RESOURCE_QUOTA, namespace: NAMESPACE, name: 'team' };
  const podsUsed = async () =>
    Number(
      ((await base.get(quotaRef))?.status as { overallUsed?: Record<string, string> } | undefined)?.overallUsed?.pods ??
        0,
    );
  const placedNow = async () => {
    let placed = 0;
    for (const b of await listAll(base, { group: 'work.karmada.io', kind: 'ResourceBinding', namespace: NAMESPACE }))
      placed += placedReplicas(b);
    return placed;
  };
  /** Polls `overallUsed` pods until `done` says so; the time since `t0`. */
  const untilPods = async (done: (pods: number) => boolean, what: string, t0: number) => {
    const until = Date.now() + 60_000;
    while (!done(await podsUsed())) {
      if (Date.now() > until) throw new Error(`the quota did not follow ${what}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - t0;
  };
  const startCounting = () => {
    store.reset();
    requests.reset();
  };
  /** What was read since {@link startCounting} (the polling of the quota above goes around the counters). */
  const readsSince = (): Reads => ({
    bindings: store.read.get('ResourceBinding') ?? 0,
    objects: sum(store.read),
    requests: requests.reads,
    kb: requests.bytes / 1024,
    byKind: [...store.read]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(', '),
  });
  try {
    await workQueue.enqueue(
      bindings.map((b) => ({
        controller: SCHEDULER_CONTROLLER_NAME,
        lane: 'standard' as const,
        key: keyOf(b.metadata.name!),
      })),
    );
    const started = performance.now();
    runner.start();
    binder.runner.start();
    const deadline = Date.now() + 1_200_000;
    while (controller.stats.scheduled + controller.stats.failed < n) {
      if (Date.now() > deadline) throw new Error('quota fill timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
    const fillRate = n / ((performance.now() - started) / 1000);
    // Settled (no charge in flight), the quota holds exactly what is placed.
    await new Promise((r) => setTimeout(r, 2_000));
    const placed = await placedNow();
    const filled = await podsUsed();
    if (filled !== placed) throw new Error(`overallUsed pods ${filled} but ${placed} replicas are placed`);

    // Scale changes: the detector's write of a scaled binding, then its hand-off to the scheduler.
    const scale = { latencies: [] as number[], quotaWrites: [] as number[], allWrites: [] as number[] };
    const scaleReads: Reads[] = [];
    for (let s = 0; s < options.samples; s++) {
      const name = bindings[(s * 97) % n]!.metadata.name!;
      const before = await podsUsed();
      const current = (await base.get(refOf(name)))!;
      startCounting();
      const t0 = performance.now();
      const replicas = ((current.spec as { replicas?: number }).replicas ?? 0) + 1;
      await store.update({ ...current, spec: { ...(current.spec as object), replicas } });
      await workQueue.enqueue([{ controller: SCHEDULER_CONTROLLER_NAME, lane: 'priority', key: keyOf(name) }]);
      scale.latencies.push(await untilPods((pods) => pods !== before, `the scale of ${name}`, t0));
      await new Promise((r) => setTimeout(r, 200)); // let the change's last writes land
      scale.quotaWrites.push(store.writes.get('FederatedResourceQuota') ?? 0);
      // The detector's own write is not the quota's cost.
      scale.allWrites.push(sum(store.writes) - 1);
      scaleReads.push(readsSince());
    }

    // Deletions: the garbage collector's delete of a binding — held by the binder's finalizer, which the
    // binder puts on every binding it renders — then the hand-off to the binder, which gives the usage back.
    const del = { latencies: [] as number[], quotaWrites: [] as number[], allWrites: [] as number[] };
    const delReads: Reads[] = [];
    let givenBack = 0;
    for (let s = 0; s < options.samples; s++) {
      const name = bindings[(s * 97 + 48) % n]!.metadata.name!;
      const current = (await base.get(refOf(name))) as ResourceBinding;
      await base.update({
        ...current,
        metadata: { ...current.metadata, finalizers: [bindingFinalizerOf(current)] },
      } as KubeObject);
      const held = placedReplicas(current);
      const before = await podsUsed();
      startCounting();
      const t0 = performance.now();
      await store.delete(refOf(name));
      await binder.workQueue.enqueue([{ controller: BINDER_CONTROLLER_NAME, lane: 'priority', key: keyOf(name) }]);
      del.latencies.push(await untilPods((pods) => pods < before, `the deletion of ${name}`, t0));
      await new Promise((r) => setTimeout(r, 200)); // the binder zeroes the binding's record, then lets it go
      if ((await podsUsed()) !== before - held)
        throw new Error(`${name}: its ${held} pods were not given back exactly`);
      if (await base.get(refOf(name))) throw new Error(`${name} was not let go by the binder`);
      givenBack += held;
      del.quotaWrites.push(store.writes.get('FederatedResourceQuota') ?? 0);
      // The delete itself (marking the binding) is the garbage collector's, not the quota's.
      del.allWrites.push(sum(store.writes) - 1);
      delReads.push(readsSince());
    }

    // The full recount: the quota controller's sync, as a quota change or the periodic sweep runs it.
    await new Promise((r) => setTimeout(r, 1_000));
    const settled = await podsUsed();
    const placedAfter = await placedNow();
    if (settled !== placedAfter) throw new Error(`overallUsed pods ${settled} but ${placedAfter} replicas are placed`);
    const quotaController = createFederatedResourceQuotaController({ store, workQueue });
    const logger = createLogger({ format: 'json', level: 'SILENT', service: 'bench', write: () => {} });
    const recount = { ms: [] as number[], quotaWrites: [] as number[] };
    const recountReads: Reads[] = [];
    for (let r = 0; r < options.recounts; r++) {
      startCounting();
      const t0 = performance.now();
      await quotaController.reconcile(
        { key: formatKey(quotaRef), lane: 'standard', reasons: ['sync-period'] },
        { logger, reconcileId: `bench-recount-${r}`, now: Date.now() },
      );
      recount.ms.push(performance.now() - t0);
      recount.quotaWrites.push(store.writes.get('FederatedResourceQuota') ?? 0);
      recountReads.push(readsSince());
    }
    // The recount agrees with what the charges and give-backs left: nothing drifted.
    const recounted = await podsUsed();
    if (recounted !== settled) throw new Error(`the recount moved overallUsed pods from ${settled} to ${recounted}`);

    const mid = <T>(rows: readonly T[], f: (r: T) => number) => median(rows.map(f));
    const scaleP50 = median(scale.latencies);
    const delP50 = median(del.latencies);
    const recountMs = median(recount.ms);
    const recountKb = mid(recountReads, (r) => r.kb);
    const scaleKb = mid(scaleReads, (r) => r.kb);
    const delKb = mid(delReads, (r) => r.kb);
    const x = (a: number, b: number) => `×${a / b >= 10 ? (a / b).toFixed(0) : (a / b).toFixed(1)}`;
    const count = n.toLocaleString('en-US');
    return [
      {
        id: 'quota-scale-fill',
        group: GROUP,
        what: `${count} bindings in one namespace placed and charged (dynalite + fauxqs, 100 clusters)`,
        unit: 'bindings/s',
        median: fillRate,
        trials: [fillRate],
        higherIsBetter: true,
        note: `settled, overallUsed pods = placed replicas = ${filled.toLocaleString('en-US')}; charges of one namespace are serialised per scheduler batch`,
      },
      {
        id: 'quota-scale-latency-p50',
        group: GROUP,
        what: 'a binding scaled by one replica → overallUsed shows it (p50)',
        unit: 'ms',
        median: scaleP50,
        trials: scale.latencies.slice(0, 5),
        higherIsBetter: false,
        note: `p95 ${percentile(scale.latencies, 95).toFixed(0)} ms over ${scale.latencies.length} changes (first five shown), end to end through the scheduler's queue; a full recount takes ${x(recountMs, scaleP50)} this`,
      },
      {
        id: 'quota-scale-quota-writes',
        group: GROUP,
        what: 'quota status writes per binding change',
        unit: 'writes',
        median: median(scale.quotaWrites),
        trials: scale.quotaWrites.slice(0, 5),
        higherIsBetter: false,
        note: 'target 1',
      },
      {
        id: 'quota-scale-all-writes',
        group: GROUP,
        what: 'store writes per binding change, besides the detector’s (quota + binding + ledger)',
        unit: 'writes',
        median: median(scale.allWrites),
        trials: scale.allWrites.slice(0, 5),
        higherIsBetter: false,
        note: `bindings read per change: ${fmt(mid(scaleReads, (r) => r.bindings))} (the changed one)`,
      },
      {
        id: 'quota-scale-change-read-kb',
        group: GROUP,
        what: 'read from DynamoDB per binding change (response bytes)',
        unit: 'KB',
        median: scaleKb,
        trials: scaleReads.slice(0, 5).map((r) => r.kb),
        higherIsBetter: false,
        note: `${fmt(mid(scaleReads, (r) => r.requests))} read requests; objects read: ${scaleReads.at(-1)!.byKind} — all but the quota are the scheduler's batch reads, made with or without a quota`,
      },
      {
        id: 'quota-scale-delete-latency-p50',
        group: GROUP,
        what: 'a binding deleted → the binder gives its usage back to overallUsed (p50)',
        unit: 'ms',
        median: delP50,
        trials: del.latencies.slice(0, 5),
        higherIsBetter: false,
        note: `p95 ${percentile(del.latencies, 95).toFixed(0)} ms over ${del.latencies.length} deletions (first five shown), end to end through the binder's queue; ${givenBack.toLocaleString('en-US')} pods given back exactly; Karmada recounts the namespace on each deletion, ${x(recountMs, delP50)} this here`,
      },
      {
        id: 'quota-scale-delete-writes',
        group: GROUP,
        what: 'store writes per binding deletion, besides the delete itself (quota + binding record zeroed + finalizer removed)',
        unit: 'writes',
        median: median(del.allWrites),
        trials: del.allWrites.slice(0, 5),
        higherIsBetter: false,
        note: `quota writes ${fmt(median(del.quotaWrites))}; read: ${fmt(mid(delReads, (r) => r.bindings))} binding (the deleted one), ${delKb.toFixed(1)} KB in ${fmt(mid(delReads, (r) => r.requests))} requests (${delReads.at(-1)!.byKind})`,
      },
      {
        id: 'quota-scale-recount-ms',
        group: GROUP,
        what: `full recount of the namespace's usage, Karmada's way: all ${count} bindings listed and summed (the quota controller's sync)`,
        unit: 'ms',
        median: recountMs,
        trials: recount.ms,
        higherIsBetter: false,
        note: `${x(recountMs, scaleP50)} a scale change's p50, ${x(recountMs, delP50)} a deletion's (the recount alone, no queue hop); quota writes per recount: ${recount.quotaWrites.join(', ')} (one only when it changed something)`,
      },
      {
        id: 'quota-scale-recount-read-kb',
        group: GROUP,
        what: 'read from DynamoDB per full recount (response bytes)',
        unit: 'KB',
        median: recountKb,
        trials: recountReads.map((r) => r.kb),
        higherIsBetter: false,
        note: `${fmt(mid(recountReads, (r) => r.bindings))} bindings in ${fmt(mid(recountReads, (r) => r.requests))} read requests (index pages of up to 500 rows, and the quota itself); ${x(recountKb, scaleKb)} a scale change's bytes, ${x(recountKb, delKb)} a deletion's`,
      },
    ];
  } finally {
    await runner.stop();
    await binder.runner.stop();
    client.destroy();
    binder.client.destroy();
    ddb.destroy();
  }
}
