import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { CLUSTER_RESERVATION, DEFAULT_RESERVATION_TTL_MS, LEDGER_NAME } from '../../../lib/controllers/reservations.ts';
import { createSchedulerController } from '../../../lib/controllers/scheduler.ts';
import { SCHEDULER_CONTROLLER_NAME, SWEEP_KEY, UNSCHEDULABLE_KEY } from '../../../lib/controllers/specs.ts';
import { APPLIED_PLACEMENT_ANNOTATION } from '../../../lib/api/well-known.ts';
import { canonical } from '../../../lib/core/scheduler/reschedule.ts';
import type { Cluster, Condition, ResourceBinding } from '../../../lib/core/model/types.ts';
import type { BatchScope } from '../../../lib/reconcile/controller.ts';
import type { ObjectStore } from '../../../lib/store/index.ts';
import {
  AGGREGATED,
  bindingFactory,
  type BindingOptions,
  clusterFactory,
  DUPLICATED,
  scheduledStatus,
  summary,
  targets,
} from '../core/scheduler/fixtures.ts';
import { keyOf, refOf, world } from './placement-harness.ts';

const LEDGER_REF = { ...CLUSTER_RESERVATION, name: LEDGER_NAME };
const CLUSTER_KEY = (name: string) => `Cluster.cluster.karmada.io/${name}`;

/** A member with `cpu` cores free (plenty of memory and pods). */
const member = (name: string, cpu: number, labels: Record<string, string> = {}): Cluster =>
  clusterFactory(name, { labels, resourceSummary: summary({ cpu: String(cpu), memory: '1Ti' }) });

/** A ResourceBinding of a Deployment needing 1 cpu per replica (as the detector writes it: no status). */
const rb = (name: string, options: BindingOptions = {}): ResourceBinding =>
  bindingFactory(name, { request: { cpu: '1' }, replicas: 1, ...options });

function setup(
  options: { schedulerName?: string; reservationTtlMs?: number; store?: (s: ObjectStore) => ObjectStore } = {},
) {
  const w = world();
  const store = options.store ? options.store(w.store) : w.store;
  const make = () =>
    createSchedulerController({
      store,
      workQueue: w.queue,
      events: w.events,
      now: () => w.clock.now(),
      ...(options.schedulerName ? { schedulerName: options.schedulerName } : {}),
      ...(options.reservationTtlMs !== undefined ? { reservationTtlMs: options.reservationTtlMs } : {}),
    });
  const scheduler = make();
  const open = (s = scheduler, keys: string[] = []) =>
    s.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys });
  /** Reconciles `key` in a batch of its own, as one invocation would. */
  async function reconcile(key: string, s = scheduler) {
    const batch = await open(s, [key]);
    try {
      return await s.reconcile({ key, lane: 'priority', reasons: [] }, w.context(batch));
    } finally {
      await batch.close?.();
    }
  }
  const read = async (b: KubeObject) => (await w.store.get(refOf(b))) as ResourceBinding;
  return { ...w, scheduler, make, open, reconcile, read };
}

const scheduled = (b: ResourceBinding): Condition | undefined =>
  b.status?.conditions?.find((c) => c.type === 'Scheduled');

/** Σ over the ledger's buckets of what `cluster` holds. */
function ledgerTotal(ledger: KubeObject | undefined, cluster: string): { pods: number; cpu: number } {
  const buckets = (
    ledger?.spec as { buckets?: Record<string, Record<string, { pods: number; resources: Record<string, number> }>> }
  )?.buckets;
  let pods = 0;
  let cpu = 0;
  for (const clusters of Object.values(buckets ?? {})) {
    pods += clusters[cluster]?.pods ?? 0;
    cpu += clusters[cluster]?.resources.cpu ?? 0;
  }
  return { pods, cpu };
}

describe('scheduler: one write per decision', () => {
  const cases: { name: string; binding: ResourceBinding; clusters: Record<string, number> }[] = [
    {
      name: 'Duplicated onto the clusters the affinity names',
      binding: rb('web', {
        replicas: 2,
        placement: { clusterAffinity: { clusterNames: ['m1', 'm2'] }, replicaScheduling: DUPLICATED },
      }),
      clusters: { m1: 2, m2: 2 },
    },
    {
      name: 'Divided/Aggregated onto the fewest clusters that fit',
      binding: rb('web', { replicas: 3, placement: { replicaScheduling: AGGREGATED } }),
      clusters: { m3: 3 },
    },
  ];
  for (const c of cases) {
    it(`${c.name}: spec.clusters, annotation, condition, observed generation and time in one updateWithStatus`, async () => {
      const h = setup();
      await h.seed(member('m1', 2));
      await h.seed(member('m2', 2));
      await h.seed(member('m3', 8));
      const binding = await h.seed(c.binding);
      assert.equal(binding.metadata.generation, 1);
      h.store.reset();
      await h.clock.advance(1_500);

      assert.equal(await h.reconcile(keyOf(binding)), undefined);

      const writes = h.store.writesTo(keyOf(binding));
      assert.deepEqual(
        writes.map((w) => w.op),
        ['updateWithStatus'],
        'exactly one write to the binding',
      );
      const after = await h.read(binding);
      assert.deepEqual(Object.fromEntries(after.spec.clusters!.map((t) => [t.name, t.replicas])), c.clusters);
      assert.equal(after.metadata.annotations?.[APPLIED_PLACEMENT_ANNOTATION], canonical(c.binding.spec.placement));
      assert.equal(after.metadata.generation, 2, 'spec.clusters changed the spec');
      assert.equal(after.status?.schedulerObservedGeneration, after.metadata.generation);
      const time = new Date(h.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      assert.equal(after.status?.lastScheduledTime, time);
      assert.deepEqual(scheduled(after), {
        type: 'Scheduled',
        status: 'True',
        reason: 'Success',
        message: 'Binding has been scheduled successfully.',
        observedGeneration: 2,
        lastTransitionTime: time,
      });
      assert.deepEqual(
        h.events.events.map((e) => [e.involved.kind, e.involved.namespace, e.involved.name, e.type, e.reason]),
        [
          ['ResourceBinding', 'default', 'web', 'Normal', 'ScheduleBindingSucceed'],
          ['Deployment', 'default', 'web', 'Normal', 'ScheduleBindingSucceed'],
        ],
      );
      assert.equal(h.scheduler.stats.scheduled, 1);
      assert.equal(h.scheduler.stats.bindingWrites, 1);
      // Besides the binding, only the reservation ledger is written.
      assert.deepEqual(
        h.store.writes.filter((w) => w.key !== keyOf(binding)).map((w) => w.key),
        [
          keyOf({
            apiVersion: `${CLUSTER_RESERVATION.group}/v1`,
            kind: CLUSTER_RESERVATION.kind,
            metadata: { name: LEDGER_NAME },
          }),
        ],
      );

      // Reconciled again, unchanged: nothing is written and nothing recorded.
      h.store.reset();
      h.events.events.splice(0);
      await h.clock.advance(5_000);
      assert.equal(await h.reconcile(keyOf(binding)), undefined);
      assert.deepEqual(h.store.writes, []);
      assert.deepEqual(h.events.events, []);
    });
  }

  it('a spec change that needs no new placement only brings schedulerObservedGeneration up to date', async () => {
    const h = setup();
    await h.seed(member('m1', 8));
    const binding = await h.seed(rb('web', { replicas: 2, placement: { replicaScheduling: AGGREGATED } }));
    await h.reconcile(keyOf(binding));
    const placed = await h.read(binding);
    // The detector changes a field that does not affect placement.
    const bumped = (await h.store.update({
      ...placed,
      spec: { ...placed.spec, propagateDeps: true },
    })) as ResourceBinding;
    assert.equal(bumped.metadata.generation, 3);
    h.store.reset();
    h.events.events.splice(0);

    await h.reconcile(keyOf(binding));
    assert.deepEqual(
      h.store.writes.map((w) => `${w.op} ${w.key}`),
      [`updateStatus ${keyOf(binding)}`],
    );
    const after = await h.read(binding);
    assert.equal(after.status?.schedulerObservedGeneration, 3);
    assert.deepEqual(after.spec.clusters, placed.spec.clusters);
    assert.deepEqual(h.events.events, []);
    // The placement stands; the edit is the binder's to render (the straight pipeline), once.
    assert.equal(h.queue.items.filter((i) => i.controller === 'binder' && i.key === keyOf(binding)).length, 2);
    await h.reconcile(keyOf(binding));
    assert.equal(
      h.queue.items.filter((i) => i.controller === 'binder' && i.key === keyOf(binding)).length,
      2,
      'a repeated message hands nothing on',
    );
  });
});

describe('scheduler: failures', () => {
  const cases: {
    name: string;
    clusters: Cluster[];
    binding: BindingOptions;
    reason: string;
    message: RegExp;
    clustersAfter: ResourceBinding['spec']['clusters'];
  }[] = [
    {
      name: 'not enough capacity: Unschedulable, spec.clusters left alone',
      clusters: [member('m1', 1), member('m2', 1)],
      binding: { replicas: 3, placement: { replicaScheduling: AGGREGATED } },
      reason: 'Unschedulable',
      message: /not enough/,
      clustersAfter: undefined,
    },
    {
      name: 'no cluster fits: NoClusterFit, spec.clusters emptied',
      clusters: [member('m1', 8), member('m2', 8, { env: 'dev' }), member('m3', 8)],
      binding: {
        replicas: 1,
        placement: {
          clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } },
          replicaScheduling: AGGREGATED,
        },
        // Previously placed elsewhere (the affinity changed since).
        clusters: targets({ m1: 1 }),
        appliedPlacement: canonical({ replicaScheduling: AGGREGATED }),
        status: scheduledStatus('True'),
      },
      reason: 'NoClusterFit',
      message:
        /^0\/3 clusters are available: 3 cluster\(s\) did not match the placement cluster affinity constraint\.$/,
      clustersAfter: [],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const h = setup();
      for (const cl of c.clusters) await h.seed(cl);
      const binding = await h.seed(rb('web', c.binding));
      h.store.reset();

      await h.reconcile(keyOf(binding));

      assert.deepEqual(
        h.store.writesTo(keyOf(binding)).map((w) => w.op),
        ['updateWithStatus'],
      );
      const after = await h.read(binding);
      const condition = scheduled(after)!;
      assert.equal(condition.status, 'False');
      assert.equal(condition.reason, c.reason);
      assert.match(condition.message!, c.message);
      assert.deepEqual(after.spec.clusters, c.clustersAfter);
      assert.equal(after.status?.schedulerObservedGeneration, after.metadata.generation);
      assert.equal(condition.observedGeneration, after.metadata.generation);
      assert.equal(h.scheduler.stats.failed, 1);
      assert.equal(await h.store.get(LEDGER_REF), undefined, 'a failure reserves nothing');
      assert.deepEqual(
        h.events.events.map((e) => [e.involved.kind, e.type, e.reason, e.message]),
        [
          ['ResourceBinding', 'Warning', 'ScheduleBindingFailed', condition.message],
          ['Deployment', 'Warning', 'ScheduleBindingFailed', condition.message],
        ],
      );

      // The same failure again changes nothing.
      h.store.reset();
      await h.reconcile(keyOf(binding));
      assert.deepEqual(h.store.writes, []);
    });
  }

  it('a failed binding is scheduled once capacity appears', async () => {
    const h = setup();
    const m1 = await h.seed(member('m1', 1));
    const binding = await h.seed(rb('web', { replicas: 2, placement: { replicaScheduling: AGGREGATED } }));
    await h.reconcile(keyOf(binding));
    assert.equal(scheduled(await h.read(binding))?.reason, 'Unschedulable');
    const stored = (await h.store.get(refOf(m1)))!;
    await h.store.updateStatus({ ...stored, status: member('m1', 4).status });
    await h.reconcile(keyOf(binding));
    const after = await h.read(binding);
    assert.equal(scheduled(after)?.status, 'True');
    assert.deepEqual(after.spec.clusters, targets({ m1: 2 }));
  });
});

describe('scheduler: fan-out keys', () => {
  async function fleet() {
    const h = setup();
    await h.seed(member('m1', 8));
    await h.seed(member('m2', 8));
    const divided = { replicaScheduling: AGGREGATED };
    const seeded = {
      failed: await h.seed(rb('failed', { placement: divided, status: scheduledStatus('False') })),
      onM1: await h.seed(
        rb('on-m1', { placement: divided, clusters: targets({ m1: 1 }), status: scheduledStatus('True') }),
      ),
      onM2: await h.seed(
        rb('on-m2', { placement: divided, clusters: targets({ m2: 1 }), status: scheduledStatus('True') }),
      ),
      duplicated: await h.seed(
        rb('dup', {
          placement: { replicaScheduling: DUPLICATED },
          clusters: targets({ m2: 1 }),
          status: scheduledStatus('True'),
        }),
      ),
      replicaless: await h.seed(
        rb('cm', { replicas: 0, placement: divided, clusters: [{ name: 'm2' }], status: scheduledStatus('True') }),
      ),
      fresh: await h.seed(rb('fresh', { placement: divided })),
      failedCrb: await h.seed({
        ...rb('role', { placement: divided, status: scheduledStatus('False') }),
        kind: 'ClusterResourceBinding',
        metadata: { name: 'role' },
      } as ResourceBinding),
    };
    h.store.reset();
    return { h, seeded };
  }

  for (const key of [UNSCHEDULABLE_KEY, SWEEP_KEY]) {
    it(`${JSON.stringify(key)} re-enqueues only the failed bindings, on the standard lane`, async () => {
      const { h, seeded } = await fleet();
      assert.equal(await h.scheduler.reconcile({ key, lane: 'priority', reasons: [] }, h.context()), undefined);
      assert.deepEqual(h.store.writes, []);
      assert.deepEqual(
        h.queue.items.map((i) => [i.controller, i.lane, i.key]).sort(),
        [
          [SCHEDULER_CONTROLLER_NAME, 'standard', keyOf(seeded.failedCrb)],
          [SCHEDULER_CONTROLLER_NAME, 'standard', keyOf(seeded.failed)],
        ].sort(),
      );
    });
  }

  it('a Cluster key re-enqueues the bindings placed on it, the failed ones, and Duplicated or replica-less ones', async () => {
    const { h, seeded } = await fleet();
    await h.scheduler.reconcile({ key: CLUSTER_KEY('m1'), lane: 'priority', reasons: [] }, h.context());
    assert.deepEqual(h.store.writes, []);
    assert.deepEqual(
      h.queue.items.map((i) => i.key).sort(),
      [seeded.failed, seeded.onM1, seeded.duplicated, seeded.replicaless, seeded.failedCrb].map(keyOf).sort(),
    );
    assert.ok(h.queue.items.every((i) => i.lane === 'standard' && i.controller === SCHEDULER_CONTROLLER_NAME));
    assert.ok(h.queue.items.every((i) => i.reason === 'cluster:m1'));
  });

  it('with nothing failed, the unschedulable key enqueues nothing', async () => {
    const h = setup();
    await h.seed(rb('ok', { status: scheduledStatus('True') }));
    await h.scheduler.reconcile({ key: UNSCHEDULABLE_KEY, lane: 'standard', reasons: [] }, h.context());
    assert.deepEqual(h.queue.items, []);
  });
});

describe('scheduler: no over-commit across concurrent batches (Karmada #6783)', () => {
  type Mode = 'sequential' | 'concurrent';
  const rows: { mode: Mode; ledger: boolean }[] = [
    { mode: 'sequential', ledger: true },
    { mode: 'concurrent', ledger: true },
    // Control: without the ledger both batches take the last capacity — the scenario does race.
    { mode: 'sequential', ledger: false },
  ];
  for (const row of rows) {
    it(`${row.mode}, ${row.ledger ? 'with' : 'without'} the reservation ledger`, async () => {
      const h = setup(row.ledger ? {} : { reservationTtlMs: 0 });
      await h.seed(member('only', 1));
      const a = await h.seed(rb('a', { replicas: 1, placement: { replicaScheduling: AGGREGATED } }));
      const b = await h.seed(rb('b', { replicas: 1, placement: { replicaScheduling: AGGREGATED } }));
      // Two scheduler instances (two invocations), both batches opened before either writes.
      const s1 = h.make();
      const s2 = h.make();
      const batch1: BatchScope = await h.open(s1, [keyOf(a)]);
      const batch2: BatchScope = await h.open(s2, [keyOf(b)]);
      const run = (s: typeof s1, batch: BatchScope, binding: ResourceBinding) =>
        s.reconcile({ key: keyOf(binding), lane: 'priority', reasons: [] }, h.context(batch));
      let results;
      if (row.mode === 'sequential') {
        results = [await run(s1, batch1, a), await run(s2, batch2, b)];
      } else {
        results = await Promise.all([run(s1, batch1, a), run(s2, batch2, b)]);
      }
      await batch1.close?.();
      await batch2.close?.();

      const after = [await h.read(a), await h.read(b)];
      const placed = after.filter(
        (x) => scheduled(x)?.status === 'True' && x.spec.clusters?.some((t) => t.name === 'only'),
      );
      if (!row.ledger) {
        assert.equal(placed.length, 2, 'without reservations the race over-commits');
        return;
      }
      assert.equal(placed.length, 1, 'exactly one binding got the last core');
      const loserIndex = after.findIndex((x) => !placed.includes(x));
      const loser = after[loserIndex]!;
      const requeued = results[loserIndex]?.requeueAfterMs !== undefined;
      assert.ok(
        scheduled(loser)?.reason === 'Unschedulable' || requeued,
        `the other is Unschedulable or requeued (${JSON.stringify(scheduled(loser))})`,
      );
      if (!requeued) assert.equal(loser.spec.clusters, undefined);
      assert.deepEqual(placed[0]!.spec.clusters, targets({ only: 1 }));

      const ledger = await h.store.get(LEDGER_REF);
      assert.ok(ledger, 'the ClusterReservation ledger exists');
      assert.deepEqual(ledgerTotal(ledger, 'only'), { pods: 1, cpu: 1000 }, 'one replica (1 pod, 1000m) reserved');
      assert.equal(s1.stats.ledgerConflicts + s2.stats.ledgerConflicts, 1, 'the loser met the winner’s write');
    });
  }

  it('within one batch, the second binding sees the capacity the first took', async () => {
    const h = setup();
    await h.seed(member('only', 1));
    const a = await h.seed(rb('a', { placement: { replicaScheduling: AGGREGATED } }));
    const b = await h.seed(rb('b', { placement: { replicaScheduling: AGGREGATED } }));
    const batch = await h.open(h.scheduler, [keyOf(a), keyOf(b)]);
    await Promise.all(
      [a, b].map((x) => h.scheduler.reconcile({ key: keyOf(x), lane: 'priority', reasons: [] }, h.context(batch))),
    );
    await batch.close?.();
    const reasons = [scheduled(await h.read(a))?.reason, scheduled(await h.read(b))?.reason].sort();
    assert.deepEqual(reasons, ['Success', 'Unschedulable']);
    assert.deepEqual(ledgerTotal(await h.store.get(LEDGER_REF), 'only'), { pods: 1, cpu: 1000 });
    assert.equal(h.scheduler.stats.ledgerWrites, 1);
  });

  it('a conflicting write to the binding does not make it count its own reservation against itself', async () => {
    let interfered = false;
    const h = setup({
      store: (inner) => ({
        ...inner,
        // Someone else (the detector) updates the binding between the scheduler's read and its write.
        async updateWithStatus(obj, o) {
          if (!interfered && obj.kind === 'ResourceBinding') {
            interfered = true;
            const current = (await inner.get(refOf(obj)))!;
            await inner.update({ ...current, metadata: { ...current.metadata, labels: { touched: 'yes' } } });
          }
          return inner.updateWithStatus(obj, o);
        },
      }),
    });
    await h.seed(member('only', 1));
    const a = await h.seed(rb('a', { placement: { replicaScheduling: AGGREGATED } }));
    await h.reconcile(keyOf(a));
    assert.ok(interfered);
    const after = await h.read(a);
    assert.equal(after.metadata.labels?.touched, 'yes');
    assert.deepEqual(scheduled(after)?.reason, 'Success');
    assert.deepEqual(after.spec.clusters, targets({ only: 1 }));
    assert.deepEqual(
      ledgerTotal(await h.store.get(LEDGER_REF), 'only'),
      { pods: 1, cpu: 1000 },
      'reserved once, not twice',
    );
  });
});

describe('scheduler: requests raised on a kept placement are reserved (simulation seeds 494, 1094)', () => {
  // A template edit raises the per-replica requests of a placement the scheduler keeps (no rescheduling
  // trigger, in Karmada as here): the members roll the larger pods out onto the same clusters, yet the
  // summary still shows the old, smaller pods, so without a reservation the growth looks free.
  const rows: { name: string; replicas: number; placed: Record<string, number> }[] = [
    { name: 'requests only (no trigger): the growth is reserved', replicas: 2, placed: { only: 2 } },
    {
      name: 'requests and a scale-up: the kept replicas’ growth counts in the estimate, the scale-up does not fit',
      replicas: 3,
      placed: { only: 2 },
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const h = setup();
      const only = await h.seed(member('only', 4));
      const a = await h.seed(rb('a', { replicas: 2, placement: { replicaScheduling: AGGREGATED } }));
      await h.reconcile(keyOf(a));
      assert.deepEqual((await h.read(a)).spec.clusters, targets({ only: 2 }));
      // The member runs a's two 1-cpu pods and says so; a's reservation has ended.
      const stored = (await h.store.get(refOf(only))) as Cluster;
      await h.store.updateStatus({
        ...stored,
        status: { ...stored.status, resourceSummary: summary({ cpu: '4', memory: '1Ti' }, { cpu: '2', pods: '2' }) },
      });
      await h.clock.advance(DEFAULT_RESERVATION_TTL_MS + 10_000);
      // The edit: 2 cpu per replica (and maybe more replicas).
      const placed = await h.read(a);
      await h.store.update({
        ...placed,
        spec: { ...placed.spec, replicas: row.replicas, replicaRequirements: { resourceRequest: { cpu: '2' } } },
      });
      await h.reconcile(keyOf(a));
      const after = await h.read(a);
      assert.deepEqual(after.spec.clusters, targets(row.placed), 'the placement is kept');
      // Another binding asks for a core: the two a's pods take once they are rolled out are not free.
      const b = await h.seed(rb('b', { replicas: 1, placement: { replicaScheduling: AGGREGATED } }));
      await h.reconcile(keyOf(b));
      assert.equal(scheduled(await h.read(b))?.reason, 'Unschedulable');
    });
  }
});

describe('scheduler: bindings it does not own', () => {
  const rows: { name: string; schedulerName?: string; binding: BindingOptions; touched: boolean }[] = [
    { name: 'another scheduler’s binding', binding: { schedulerName: 'other-scheduler' }, touched: false },
    { name: 'scheduling suspended', binding: { suspendScheduling: true }, touched: false },
    { name: 'suspension.scheduling=false is scheduled', binding: { suspendScheduling: false }, touched: true },
    { name: 'an explicit default-scheduler is ours', binding: { schedulerName: 'default-scheduler' }, touched: true },
    {
      name: 'a scheduler named other-scheduler takes only its own',
      schedulerName: 'other-scheduler',
      binding: { schedulerName: 'other-scheduler' },
      touched: true,
    },
    {
      name: 'a scheduler named other-scheduler leaves default ones',
      schedulerName: 'other-scheduler',
      binding: {},
      touched: false,
    },
  ];
  for (const row of rows) {
    it(`${row.name}: ${row.touched ? 'scheduled' : 'untouched'}`, async () => {
      const h = setup(row.schedulerName ? { schedulerName: row.schedulerName } : {});
      await h.seed(member('m1', 8));
      const binding = await h.seed(rb('web', { placement: { replicaScheduling: AGGREGATED }, ...row.binding }));
      h.store.reset();
      await h.reconcile(keyOf(binding));
      if (row.touched) {
        assert.equal(scheduled(await h.read(binding))?.status, 'True');
      } else {
        assert.deepEqual(h.store.writes, []);
        assert.deepEqual(h.events.events, []);
        assert.deepEqual(await h.read(binding), binding);
      }
    });
  }

  it('a binding being deleted, or gone, is left alone; other keys are ignored', async () => {
    const h = setup();
    await h.seed(member('m1', 8));
    const going = await h.seed({
      ...rb('going', { placement: { replicaScheduling: AGGREGATED } }),
      metadata: { ...rb('going').metadata, finalizers: ['karmada.io/binding-controller'] },
    });
    await h.store.delete(refOf(going));
    h.store.reset();
    for (const key of [
      keyOf(going),
      'ResourceBinding.work.karmada.io/default/missing',
      'Deployment.apps/default/web',
    ]) {
      assert.equal(await h.reconcile(key), undefined);
    }
    assert.deepEqual(h.store.writes, []);
    assert.deepEqual(h.queue.items, []);
  });
});
