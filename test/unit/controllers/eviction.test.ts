/**
 * The eviction controller (Karmada's taint manager and graceful-eviction controller) over an
 * in-memory store on a virtual clock: when a binding leaves a tainted cluster, what it writes, what it
 * tells, and the safety rules — each row names the Karmada behaviour or issue it pins.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_FAILOVER_SETTINGS, type FailoverSettings, featureGates } from '../../../lib/config/failover.ts';
import { CONTENDED_RETRY_MS, EVICTION_LIMITER } from '../../../lib/controllers/eviction-limiter.ts';
import { createEvictionController } from '../../../lib/controllers/eviction.ts';
import { EVICTION_CONTROLLER_NAME, SWEEP_KEY } from '../../../lib/controllers/specs.ts';
import { NOT_READY_TAINT_KEY, UNREACHABLE_TAINT_KEY } from '../../../lib/core/clusters/health.ts';
import type { Cluster, ResourceBinding, Taint } from '../../../lib/core/model/types.ts';
import { METRIC } from '../../../lib/observability/metrics.ts';
import { ConflictError } from '../../../lib/store/errors.ts';
import type { ObjectStore, WriteOptions } from '../../../lib/store/port.ts';
import type { KubeObject } from '../../../lib/api/object.ts';
import { bindingFactory, clusterFactory, summary } from '../core/scheduler/fixtures.ts';
import { keyOf, refOf, world } from './placement-harness.ts';

const at = (w: ReturnType<typeof world>, s: number) =>
  new Date(w.clock.now() + s * 1000).toISOString().replace('.000Z', 'Z');

/** A Ready member with room for `cpu` one-cpu replicas, optionally tainted. */
function member(name: string, options: { cpu?: number; ready?: boolean; taints?: Taint[] } = {}): Cluster {
  const c = clusterFactory(name, {
    resourceSummary: summary({ cpu: String(options.cpu ?? 10), memory: '1Ti' }),
    ...(options.taints ? { taints: options.taints } : {}),
  });
  const ready = options.ready ?? true;
  return {
    ...c,
    status: {
      ...c.status,
      conditions: [
        ...(c.status?.conditions ?? []),
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-11-21T09:00:00Z' },
      ],
    },
  };
}

const notReady = (added: string): Taint[] => [
  { key: NOT_READY_TAINT_KEY, effect: 'NoSchedule', timeAdded: added },
  { key: NOT_READY_TAINT_KEY, effect: 'NoExecute', timeAdded: added },
];

/** A `Gracefully` eviction task of the taint manager from `cluster`, created `ageSeconds` ago. */
const taintTask = (w: ReturnType<typeof world>, cluster: string, ageSeconds: number, replicas?: number) => ({
  fromCluster: cluster,
  reason: 'TaintUntolerated',
  producer: 'TaintManager',
  purgeMode: 'Gracefully',
  ...(replicas !== undefined ? { replicas } : {}),
  creationTimestamp: at(w, -ageSeconds),
});

/** A Divided Deployment binding of 1-cpu replicas, scheduled (observed generation = generation). */
function placed(
  name: string,
  clusters: { name: string; replicas: number }[],
  extra: Partial<ResourceBinding['spec']> = {},
) {
  const b = bindingFactory(name, {
    request: { cpu: '1' },
    replicas: clusters.reduce((n, c) => n + c.replicas, 0),
    clusters,
    placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
    appliedPlacement: '{}',
    status: { schedulerObservedGeneration: 1, conditions: [{ type: 'Scheduled', status: 'True' }] },
  });
  return {
    ...b,
    metadata: { ...b.metadata, labels: { 'resourcebinding.karmada.io/permanent-id': `rb-${name}` } },
    spec: { ...b.spec, ...extra },
  } as ResourceBinding;
}

/** The Deployment a binding's Works carry, with `replicas`. */
const manifest = (binding: ResourceBinding, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: binding.spec.resource.name, namespace: binding.spec.resource.namespace },
  spec: { replicas },
});

/**
 * The binding's Work on `cluster` at generation `generation` (its spec written that many times), its
 * `Applied` condition True at `applied` and its Deployment reported `health`.
 */
async function workOf(
  store: ObjectStore,
  binding: ResourceBinding,
  cluster: string,
  report: { generation: number; applied: number; health: string },
): Promise<KubeObject> {
  let work = await store.create({
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: `${binding.metadata.name}-work`,
      namespace: `karmada-es-${cluster}`,
      labels: {
        'resourcebinding.karmada.io/permanent-id': binding.metadata.labels!['resourcebinding.karmada.io/permanent-id']!,
      },
      annotations: {
        'resourcebinding.karmada.io/namespace': binding.metadata.namespace!,
        'resourcebinding.karmada.io/name': binding.metadata.name!,
      },
    },
    spec: { workload: { manifests: [manifest(binding, 1)] } },
  });
  for (let g = 2; g <= report.generation; g++)
    work = await store.update({ ...work, spec: { workload: { manifests: [manifest(binding, g)] } } });
  return reportWork(store, work, report);
}

/** What the executor writes: the Work's `Applied` condition True at `applied`, its Deployment's `health`. */
async function reportWork(
  store: ObjectStore,
  work: KubeObject,
  report: { applied: number; health: string },
): Promise<KubeObject> {
  const current = (await store.get({
    group: 'work.karmada.io',
    kind: 'Work',
    namespace: work.metadata.namespace!,
    name: work.metadata.name!,
  }))!;
  const deployment = (current.spec as { workload: { manifests: KubeObject[] } }).workload.manifests[0]!;
  return store.updateStatus({
    ...current,
    status: {
      conditions: [
        {
          type: 'Applied',
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
          observedGeneration: report.applied,
          lastTransitionTime: '2026-11-21T09:00:00Z',
        },
      ],
      manifestStatuses: [
        {
          identifier: {
            ordinal: 0,
            group: 'apps',
            version: 'v1',
            kind: 'Deployment',
            namespace: deployment.metadata.namespace,
            name: deployment.metadata.name,
          },
          health: report.health,
        },
      ],
    },
  });
}

function setup(settings: Partial<FailoverSettings> = {}) {
  const w = world();
  const counted: string[] = [];
  const eviction = createEvictionController({
    store: w.store,
    workQueue: w.queue,
    events: w.events,
    settings: { ...DEFAULT_FAILOVER_SETTINGS, ...settings },
    now: () => w.clock.now(),
  });
  async function reconcile(keys: string | string[]) {
    const list = Array.isArray(keys) ? keys : [keys];
    const batch = await eviction.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys: list });
    try {
      const out = [];
      for (const key of list) {
        out.push(
          await eviction.reconcile(
            { key, lane: 'priority', reasons: [] },
            { ...w.context(batch), count: (m, n = 1) => counted.push(...Array(n).fill(m)) },
          ),
        );
      }
      return out.length === 1 ? out[0] : out;
    } finally {
      await batch.close?.();
    }
  }
  const read = async (b: ResourceBinding) => (await w.store.get(refOf(b))) as ResourceBinding;
  return { ...w, eviction, reconcile, read, counted };
}

describe('eviction controller: taint-based eviction (NoExecuteTaintManager)', () => {
  it('within the default toleration (the seeds: 300 s) the binding stays, and a timer is set for the rest', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -100)) }));
    await t.seed(member('b'));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 2 }]));
    t.store.reset();
    const result = await t.reconcile(keyOf(b));
    assert.deepEqual(t.store.writes, [], 'nothing written');
    assert.deepEqual(result, { requeueAfterMs: 200_000, requeueLane: 'priority' });
  });

  it('when the toleration ends: evicted in one write, re-placed by the scheduler, explained in events and a metric', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('b'));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 2 }]));
    t.store.reset();
    await t.reconcile(keyOf(b));
    const writes = t.store.writesTo(keyOf(b));
    assert.equal(writes.length, 1, 'one write per evicted binding');
    assert.equal(writes[0]!.op, 'updateWithStatus');
    const after = await t.read(b);
    assert.deepEqual(after.spec.clusters, []);
    const task = after.spec.gracefulEvictionTasks![0]!;
    assert.deepEqual(
      [task.fromCluster, task.reason, task.producer, task.purgeMode, task.replicas],
      ['a', 'TaintUntolerated', 'TaintManager', 'Gracefully', 2],
    );
    assert.equal(task.creationTimestamp, at(t, 0));
    assert.match(task.message!, /cluster a has had taint\(s\) \{cluster.karmada.io\/not-ready:NoExecute\}/);
    assert.deepEqual(
      t.queue.items.map((i) => [i.controller, i.reason]),
      [['scheduler', 'evicted']],
      'the copy stays until its task ends: the binder is the scheduler’s to tell, once it is re-placed',
    );
    const reasons = t.events.events.map((e) => [e.involved.kind, e.reason]);
    assert.deepEqual(reasons, [
      ['ResourceBinding', 'EvictWorkloadFromClusterSucceed'],
      ['Deployment', 'EvictWorkloadFromClusterSucceed'],
    ]);
    assert.match(t.events.events[0]!.message, /Evict from cluster a succeed: .*\(purge mode Gracefully\)/);
    assert.deepEqual(t.counted, [METRIC.evictions]);
  });

  it('an untolerated NoExecute taint (e.g. from a ClusterTaintPolicy) evicts at once', async () => {
    const t = setup();
    await t.seed(member('a', { taints: [{ key: 'maintenance', effect: 'NoExecute', timeAdded: at(t, 0) }] }));
    await t.seed(member('b'));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 1 }]));
    await t.reconcile(keyOf(b));
    assert.deepEqual(
      (await t.read(b)).spec.gracefulEvictionTasks?.map((x) => x.fromCluster),
      ['a'],
    );
  });

  it('failover.cluster.purgeMode Directly and the seed’s statePreservation: the job id travels in the task', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -301)) }));
    await t.seed(member('b'));
    const seeded = placed('flink', [{ name: 'a', replicas: 1 }], {
      failover: {
        cluster: {
          purgeMode: 'Directly',
          statePreservation: {
            rules: [
              { aliasLabelName: 'application.karmada.io/cluster-failover-jobid', jsonPath: '{ .jobStatus.jobID }' },
            ],
          },
        },
      },
    });
    seeded.status = {
      ...seeded.status,
      aggregatedStatus: [{ clusterName: 'a', status: { jobStatus: { jobID: 'job-42' } }, applied: true }],
    } as ResourceBinding['status'];
    const b = await t.seed(seeded);
    await t.reconcile(keyOf(b));
    const task = (await t.read(b)).spec.gracefulEvictionTasks![0]!;
    assert.equal(task.purgeMode, 'Directly');
    assert.deepEqual(task.preservedLabelState, { 'application.karmada.io/cluster-failover-jobid': 'job-42' });
    assert.deepEqual(
      t.queue.items.map((i) => [i.controller, i.reason]),
      [
        ['scheduler', 'evicted'],
        ['binder', 'evicted'],
      ],
      'the copy purged Directly goes at once: the binder is told now, not after the re-placement',
    );
  });

  it('an eviction write that fails for another reason than a lost race: EvictWorkloadFromClusterFailed on the binding and the template, and the error goes up (retried)', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('b'));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 2 }]));
    const failing = createEvictionController({
      store: {
        ...t.store,
        updateWithStatus: () => Promise.reject(new Error('item size has exceeded the maximum allowed size')),
      },
      workQueue: t.queue,
      events: t.events,
      settings: DEFAULT_FAILOVER_SETTINGS,
      now: () => t.clock.now(),
    });
    const batch = await failing.openBatch!({ logger: t.context().logger, now: t.clock.now(), keys: [keyOf(b)] });
    await assert.rejects(
      failing.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, t.context(batch)),
      /maximum allowed size/,
    );
    await batch.close?.();
    assert.deepEqual(
      t.events.events.map((e) => [e.involved.kind, e.type, e.reason]),
      [
        ['ResourceBinding', 'Warning', 'EvictWorkloadFromClusterFailed'],
        ['Deployment', 'Warning', 'EvictWorkloadFromClusterFailed'],
      ],
    );
    assert.match(t.events.events[0]!.message, /^Evict from cluster a failed: item size has exceeded/);
  });

  it('a lost race is no failure: no event, decided again at once', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('b'));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 2 }]));
    const racing = createEvictionController({
      store: {
        ...t.store,
        updateWithStatus: () => Promise.reject(new ConflictError(refOf(b), undefined, 'the object has been modified')),
      },
      workQueue: t.queue,
      events: t.events,
      settings: DEFAULT_FAILOVER_SETTINGS,
      now: () => t.clock.now(),
    });
    const batch = await racing.openBatch!({ logger: t.context().logger, now: t.clock.now(), keys: [keyOf(b)] });
    const result = await racing.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, t.context(batch));
    await batch.close?.();
    assert.deepEqual(result, { requeueAfterMs: 0 });
    assert.deepEqual(t.events.events, []);
  });

  it('--enable-no-execute-taint-eviction=false, or the Failover gate off: taints never evict', async () => {
    for (const settings of [
      { enableNoExecuteTaintEviction: false },
      { featureGates: featureGates({ Failover: false }) },
    ]) {
      const t = setup(settings);
      await t.seed(member('a', { ready: false, taints: notReady(at(t, -9999)) }));
      await t.seed(member('b'));
      const b = await t.seed(placed('web', [{ name: 'a', replicas: 1 }]));
      t.store.reset();
      await t.reconcile(keyOf(b));
      assert.deepEqual(t.store.writes, []);
    }
  });
});

describe('eviction controller: safer than Karmada', () => {
  it('never evicts the last copy when no other cluster can take it (#7455): held, with a condition and an event', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('small', { cpu: 1 }));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 3 }]));
    await t.reconcile(keyOf(b));
    let after = await t.read(b);
    assert.deepEqual(after.spec.clusters, [{ name: 'a', replicas: 3 }], 'still where it was');
    assert.equal(after.spec.gracefulEvictionTasks, undefined);
    const held = after.status?.conditions?.find((c) => c.type === 'FailoverHeld');
    assert.equal(held?.status, 'True');
    assert.equal(held?.reason, 'NoReplacementCluster');
    assert.match(held!.message!, /last copy of the workload and no other cluster can take it/);
    assert.ok(t.events.events.some((e) => e.reason === 'EvictionHeld' && e.type === 'Warning'));

    // …and it moves as soon as a replacement fits; the condition goes.
    await t.seed(member('big', { cpu: 8 }));
    await t.reconcile(keyOf(b));
    after = await t.read(b);
    assert.deepEqual(
      after.spec.gracefulEvictionTasks?.map((x) => x.fromCluster),
      ['a'],
    );
    assert.equal(
      after.status?.conditions?.find((c) => c.type === 'FailoverHeld'),
      undefined,
    );
  });

  it('a recovered cluster’s task stays while its replacement is not Healthy (#5803): its copy is the last healthy one', async () => {
    const t = setup();
    await t.seed(member('a'));
    await t.seed(member('b'));
    const b = await t.seed(
      placed('web', [{ name: 'b', replicas: 1 }], {
        gracefulEvictionTasks: [taintTask(t, 'a', 30)],
      }),
    );
    t.store.reset();
    const result = await t.reconcile(keyOf(b));
    assert.deepEqual(t.store.writes, [], 'the task and the copy on a stay');
    assert.deepEqual(result, { requeueAfterMs: 570_001, requeueLane: 'priority' });
  });

  it('a recovered cluster whose replacement is still not Healthy at the end of the grace period takes the workload back (#5803; simulation seeds 14, 16, 40): the task ends, its copy stays', async () => {
    const t = setup();
    await t.seed(member('a'));
    await t.seed(member('b'));
    const b = await t.seed(
      placed('web', [{ name: 'b', replicas: 2 }], {
        gracefulEvictionTasks: [taintTask(t, 'a', 601, 2)],
      }),
    );
    await t.reconcile(keyOf(b));
    const after = await t.read(b);
    assert.equal(after.spec.gracefulEvictionTasks, undefined, 'no task outlives its grace period');
    assert.deepEqual(after.spec.clusters, [
      { name: 'b', replicas: 2 },
      { name: 'a', replicas: 2 },
    ]);
    assert.deepEqual(
      t.queue.items.map((i) => [i.controller, i.reason]),
      [
        ['scheduler', 'cluster-recovered'],
        ['binder', 'eviction-tasks'],
      ],
    );
  });

  it('a recovered cluster with nothing placed in its stead takes the workload back (#5803): its copy stays, the scheduler decides from there', async () => {
    const t = setup();
    await t.seed(member('a'));
    const b = await t.seed(
      placed('web', [], {
        replicas: 2,
        gracefulEvictionTasks: [taintTask(t, 'a', 30, 2)],
      }),
    );
    await t.reconcile(keyOf(b));
    const after = await t.read(b);
    assert.equal(after.spec.gracefulEvictionTasks, undefined);
    assert.deepEqual(after.spec.clusters, [{ name: 'a', replicas: 2 }]);
    assert.deepEqual(
      t.queue.items.map((i) => [i.controller, i.reason]),
      [
        ['scheduler', 'cluster-recovered'],
        ['binder', 'eviction-tasks'],
      ],
    );
    assert.match(
      t.events.events.find((e) => e.reason === 'EvictionTaskEnded')!.message,
      /cluster a recovered while nothing healthy was placed in its stead, so it takes the workload back and keeps its copy/,
    );
    assert.deepEqual(
      t.events.events.filter((e) => e.reason === 'EvictionTaskEnded').map((e) => e.involved.kind),
      ['ResourceBinding', 'Deployment'],
      'on the binding and on its template',
    );
  });

  /** The namespace's FederatedResourceQuota of `overall` CPUs, `used` of them charged already. */
  const cpuQuota = (overall: number, used: number): KubeObject => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { name: 'team', namespace: 'default' },
    spec: { overall: { cpu: String(overall) } },
    status: { overall: { cpu: String(overall) }, overallUsed: { cpu: String(used) } },
  });
  const usedCpu = async (t: ReturnType<typeof setup>) =>
    (
      (await t.store.get({
        group: 'policy.karmada.io',
        kind: 'FederatedResourceQuota',
        namespace: 'default',
        name: 'team',
      })) as { status?: { overallUsed?: { cpu?: string } } }
    ).status?.overallUsed?.cpu;
  /** `web` on b (2 replicas) with a task from a (2 replicas) past its grace period; a has recovered. */
  async function recoveredPastGrace(t: ReturnType<typeof setup>, clusters: { name: string; replicas: number }[]) {
    await t.seed(member('a'));
    await t.seed(member('b'));
    return t.seed(
      placed('web', clusters, {
        replicas: 4,
        gracefulEvictionTasks: [taintTask(t, 'a', 601, 2)],
      }),
    );
  }

  it('with FederatedQuotaEnforcement, a recovered cluster takes its replicas back only as a charge on the namespace’s quota, written with the placement', async () => {
    const t = setup();
    await t.seed(cpuQuota(10, 2));
    const b = await recoveredPastGrace(t, [{ name: 'b', replicas: 2 }]);
    await t.reconcile(keyOf(b));
    const after = await t.read(b);
    assert.deepEqual(after.spec.clusters, [
      { name: 'b', replicas: 2 },
      { name: 'a', replicas: 2 },
    ]);
    assert.equal(await usedCpu(t), '4', 'the 2 restored CPUs are charged');
    assert.match(after.metadata.annotations!['resourcebinding.serverless-karmada.io/quota-charged']!, /"cpu":"4"/);
  });

  it('a recovered cluster whose replicas the quota no longer admits (another workload took what the eviction gave back; simulation seeds 480, 500, 995): the task ends, its copy goes, nothing is charged, and the event says why', async () => {
    const t = setup();
    await t.seed(cpuQuota(4, 4));
    const b = await recoveredPastGrace(t, [{ name: 'b', replicas: 2 }]);
    await t.reconcile(keyOf(b));
    const after = await t.read(b);
    assert.equal(after.spec.gracefulEvictionTasks, undefined, 'the task ended');
    assert.deepEqual(after.spec.clusters, [{ name: 'b', replicas: 2 }], 'a is not put back over the quota');
    assert.equal(await usedCpu(t), '4', 'nothing charged');
    assert.deepEqual(
      t.queue.items.map((i) => [i.controller, i.reason]),
      [
        ['scheduler', 'cluster-recovered'],
        ['binder', 'eviction-tasks'],
      ],
      'the scheduler places the missing replicas when the quota allows',
    );
    assert.match(
      t.events.events.find((e) => e.reason === 'EvictionTaskEnded')!.message,
      /cluster a recovered, but taking its replicas back would exceed the namespace's quota \(FederatedResourceQuota\(default\/team\) exceeded for resource cpu: requested sum 6, limit 4\.\), so its copy there is removed/,
    );
  });

  it('a recovered cluster the quota refuses, with nothing else placed: its task and copy stay (the last copy), looked at again in a minute', async () => {
    const t = setup();
    await t.seed(cpuQuota(4, 4));
    const b = await recoveredPastGrace(t, []);
    const result = await t.reconcile(keyOf(b));
    const after = await t.read(b);
    assert.deepEqual(
      after.spec.gracefulEvictionTasks?.map((task) => task.fromCluster),
      ['a'],
      'the task holding the only copy stays',
    );
    assert.equal(after.spec.clusters?.length ?? 0, 0);
    assert.equal(await usedCpu(t), '4');
    assert.deepEqual(result, { requeueAfterMs: 60_000, requeueLane: 'priority' });
  });

  it('Gracefully: the task ends once every new target is Healthy, not before', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -900)) }));
    await t.seed(member('b'));
    const task = taintTask(t, 'a', 30);
    const pending = placed('web', [{ name: 'b', replicas: 1 }], { gracefulEvictionTasks: [task] });
    pending.status = {
      ...pending.status,
      aggregatedStatus: [{ clusterName: 'b', health: 'Unknown' }],
    } as ResourceBinding['status'];
    const b = await t.seed(pending);
    await workOf(t.store, b, 'b', { generation: 1, applied: 1, health: 'Healthy' });
    const first = await t.reconcile(keyOf(b));
    assert.equal((await t.read(b)).spec.gracefulEvictionTasks?.length, 1, 'kept while b is not Healthy');
    assert.deepEqual(
      first,
      { requeueAfterMs: 570_001, requeueLane: 'priority' },
      'a timer at the end of the grace period',
    );

    const current = await t.read(b);
    await t.store.updateStatus({
      ...current,
      status: { ...current.status, aggregatedStatus: [{ clusterName: 'b', health: 'Healthy' }] },
    } as ResourceBinding);
    await t.reconcile(keyOf(b));
    assert.equal((await t.read(b)).spec.gracefulEvictionTasks, undefined);
  });

  it('Gracefully (issue 13): a Healthy item from before the new target’s Work was scaled up ends nothing — the task waits until that Work is applied at its generation and the member reports Healthy (Karmada ends it at once and deletes the old copy)', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -900)) }));
    await t.seed(member('b'));
    // a's replicas moved to b, which already ran a copy: b's Work went to generation 2, the member has
    // not applied it yet, and b's item still says Healthy from generation 1.
    const seeded = placed('web', [{ name: 'b', replicas: 2 }], {
      gracefulEvictionTasks: [taintTask(t, 'a', 1, 1)],
    });
    seeded.status = {
      ...seeded.status,
      aggregatedStatus: [{ clusterName: 'b', applied: true, health: 'Healthy' }],
    } as ResourceBinding['status'];
    const b = await t.seed(seeded);
    const work = await workOf(t.store, b, 'b', { generation: 2, applied: 1, health: 'Healthy' });
    t.store.reset();
    const first = await t.reconcile(keyOf(b));
    assert.deepEqual(t.store.writes, [], 'the task and the copy on a stay');
    assert.equal((await t.read(b)).spec.gracefulEvictionTasks?.length, 1);
    assert.deepEqual(first, { requeueAfterMs: 599_001, requeueLane: 'priority' }, 'only the grace period’s timer');

    // The member applied generation 2 and is rolling out; the binder has not folded that report in yet
    // (b's item still says Healthy): the Work's own status decides — still kept.
    await reportWork(t.store, work, { applied: 2, health: 'Unhealthy' });
    await t.reconcile(keyOf(b));
    assert.equal((await t.read(b)).spec.gracefulEvictionTasks?.length, 1, 'kept while b rolls out');

    // Applied at its generation and Healthy (and so says b's item): the task ends and the binder
    // removes a's copy.
    await reportWork(t.store, work, { applied: 2, health: 'Healthy' });
    t.queue.items.splice(0);
    await t.reconcile(keyOf(b));
    assert.equal((await t.read(b)).spec.gracefulEvictionTasks, undefined);
    assert.deepEqual(
      t.queue.items.map((i) => [i.controller, i.reason]),
      [['binder', 'eviction-tasks']],
    );
    assert.match(t.events.events.find((e) => e.reason === 'EvictionTaskEnded')!.message, /every new target is healthy/);
  });

  it('a binding without eviction tasks reads no Work (the Works are read only while a task may end on health)', async () => {
    const t = setup();
    await t.seed(member('b'));
    const seeded = placed('web', [{ name: 'b', replicas: 1 }]);
    seeded.status = {
      ...seeded.status,
      aggregatedStatus: [{ clusterName: 'b', health: 'Healthy' }],
    } as ResourceBinding['status'];
    const b = await t.seed(seeded);
    let asked = 0;
    const eviction = createEvictionController({
      store: {
        ...t.store,
        listDependents: (...args: Parameters<ObjectStore['listDependents']>) => (
          asked++,
          t.store.listDependents(...args)
        ),
      },
      workQueue: t.queue,
      settings: DEFAULT_FAILOVER_SETTINGS,
      now: () => t.clock.now(),
    });
    await eviction.reconcile({ key: keyOf(b), lane: 'standard', reasons: [] }, t.context());
    assert.equal(asked, 0);
  });

  it('state across consecutive failovers outlives the first task (#6232): kept on the binding when the task ends, carried into the next eviction of that copy', async () => {
    const t = setup();
    const JOB = 'application.karmada.io/cluster-failover-jobid';
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -1200)) }));
    await t.seed(member('b'));
    await t.seed(member('c'));
    const seeded = placed('flink', [{ name: 'b', replicas: 1 }], {
      failover: {
        cluster: {
          purgeMode: 'Directly',
          statePreservation: { rules: [{ aliasLabelName: JOB, jsonPath: '{ .jobStatus.jobID }' }] },
        },
      },
      gracefulEvictionTasks: [
        {
          fromCluster: 'a',
          reason: 'TaintUntolerated',
          producer: 'TaintManager',
          purgeMode: 'Directly',
          preservedLabelState: { [JOB]: 'job-from-a' },
          creationTimestamp: at(t, -601),
        },
      ],
    });
    seeded.status = {
      ...seeded.status,
      aggregatedStatus: [{ clusterName: 'b', status: { jobStatus: { state: 'RECONCILING' } }, health: 'Unhealthy' }],
    } as ResourceBinding['status'];
    const b = await t.seed(seeded);
    await t.reconcile(keyOf(b));
    let after = await t.read(b);
    assert.equal(after.spec.gracefulEvictionTasks, undefined, 'the first task ended at its grace period');
    assert.deepEqual(
      JSON.parse(after.metadata.annotations!['resourcebinding.serverless-karmada.io/carried-label-state']!),
      {
        from: 'a',
        cluster: 'b',
        state: { [JOB]: 'job-from-a' },
      },
    );

    // b fails in turn, its job never having run: a's job id goes on with the eviction.
    const cluster = (await t.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'b' })) as Cluster;
    await t.store.update({ ...cluster, spec: { ...cluster.spec, taints: notReady(at(t, -300)) } });
    await t.reconcile(keyOf(b));
    after = await t.read(b);
    assert.deepEqual(
      after.spec.gracefulEvictionTasks?.map((x) => [x.fromCluster, x.preservedLabelState]),
      [['b', { [JOB]: 'job-from-a' }]],
    );
    assert.equal(after.metadata.annotations?.['resourcebinding.serverless-karmada.io/carried-label-state'], undefined);
  });

  it('the fleet’s eviction rate (--resource-eviction-rate): beyond the burst, evictions wait their turn on a stored limiter', async () => {
    const t = setup({ resourceEvictionRate: 0.5, resourceEvictionBurst: 1 });
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('b'));
    await t.seed(member('c'));
    const one = await t.seed(placed('one', [{ name: 'a', replicas: 1 }]));
    const two = await t.seed(placed('two', [{ name: 'a', replicas: 1 }]));
    const results = (await t.reconcile([keyOf(one), keyOf(two)])) as unknown[];
    const evicted = [await t.read(one), await t.read(two)].filter((b) => b.spec.gracefulEvictionTasks?.length);
    assert.equal(evicted.length, 1, 'one eviction within the burst');
    assert.deepEqual(results[1], { requeueAfterMs: 2_000, requeueLane: 'priority' }, 'the next token comes in 1/0.5 s');
    assert.ok(await t.store.get({ ...EVICTION_LIMITER, name: 'fleet' }), 'the limiter is stored, not in memory');
    assert.ok(t.counted.includes(METRIC.evictionsRateLimited));

    await t.clock.advance(2_000);
    await t.reconcile(keyOf(two));
    assert.equal((await t.read(two)).spec.gracefulEvictionTasks?.length, 1);
  });

  it('a batch that loses every race for the stored bucket to other batches tries again in a second, not at the halted pace', async () => {
    const t = setup({ resourceEvictionRate: 100, resourceEvictionBurst: 1_000 });
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('b'));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 1 }]));
    await t.store.create({
      apiVersion: `${EVICTION_LIMITER.group}/v1`,
      kind: EVICTION_LIMITER.kind,
      metadata: { name: 'fleet' },
      spec: { tokens: 1_000, updatedMs: t.clock.now() },
    });
    // Every write of the bucket loses to another batch's.
    const contended = createEvictionController({
      store: {
        ...t.store,
        update: (obj: KubeObject, options?: WriteOptions) =>
          obj.kind === EVICTION_LIMITER.kind
            ? Promise.reject(new ConflictError(refOf(obj), undefined, 'the object has been modified'))
            : t.store.update(obj, options),
      },
      workQueue: t.queue,
      events: t.events,
      settings: { ...DEFAULT_FAILOVER_SETTINGS, resourceEvictionRate: 100, resourceEvictionBurst: 1_000 },
      now: () => t.clock.now(),
    });
    const batch = await contended.openBatch!({ logger: t.context().logger, now: t.clock.now(), keys: [keyOf(b)] });
    const result = await contended.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, t.context(batch));
    await batch.close?.();
    assert.equal((await t.read(b)).spec.gracefulEvictionTasks, undefined, 'not evicted in this pass');
    assert.deepEqual(result, { requeueAfterMs: CONTENDED_RETRY_MS, requeueLane: 'priority' });
    assert.equal(CONTENDED_RETRY_MS, 1_000);
  });

  it('every cluster unhealthy (the control plane lost its own network, #5150): evictions halt', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('b', { ready: false }));
    const b = await t.seed(
      placed('web', [
        { name: 'a', replicas: 1 },
        { name: 'b', replicas: 1 },
      ]),
    );
    t.store.reset();
    const result = await t.reconcile(keyOf(b));
    assert.deepEqual(t.store.writes, [], 'nothing evicted while the whole fleet looks down');
    assert.deepEqual(result, { requeueAfterMs: 10_000, requeueLane: 'priority' }, 'looked at again later');
    assert.ok(t.counted.includes(METRIC.evictionsRateLimited));
  });

  it('more than 0.55 of the fleet unhealthy: the secondary rate (0.1/s) applies', async () => {
    const t = setup({ resourceEvictionBurst: 1 });
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -300)) }));
    await t.seed(member('b', { ready: false }));
    await t.seed(member('c'));
    const one = await t.seed(placed('one', [{ name: 'a', replicas: 1 }]));
    const two = await t.seed(placed('two', [{ name: 'a', replicas: 1 }]));
    const results = (await t.reconcile([keyOf(one), keyOf(two)])) as unknown[];
    assert.deepEqual(results[1], { requeueAfterMs: 10_000, requeueLane: 'priority' }, 'one token every 10 s');
  });
});

describe('eviction controller: cluster keys and the sweep', () => {
  it('a tainted cluster fans out to the bindings with a Work there', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -10)) }));
    await t.store.create({
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: {
        name: 'web-abc',
        namespace: 'karmada-es-a',
        annotations: { 'resourcebinding.karmada.io/namespace': 'default', 'resourcebinding.karmada.io/name': 'web' },
      },
      spec: {},
    });
    await t.reconcile('Cluster.cluster.karmada.io/a');
    assert.deepEqual(
      t.queue.items.map((i) => [i.controller, i.key, i.reason]),
      [[EVICTION_CONTROLLER_NAME, 'ResourceBinding.work.karmada.io/default/web', 'cluster-tainted']],
    );
  });

  it('a recovered cluster fans out to the bindings still holding a task from it', async () => {
    const t = setup();
    await t.seed(member('a'));
    await t.seed(
      placed('web', [{ name: 'b', replicas: 1 }], {
        gracefulEvictionTasks: [
          { fromCluster: 'a', reason: 'TaintUntolerated', producer: 'TaintManager', purgeMode: 'Directly' },
        ],
      }),
    );
    await t.seed(placed('other', [{ name: 'b', replicas: 1 }]));
    await t.reconcile('Cluster.cluster.karmada.io/a');
    assert.deepEqual(
      t.queue.items.map((i) => [i.key, i.reason]),
      [['ResourceBinding.work.karmada.io/default/web', 'cluster-recovered']],
    );
  });

  it('the sweep re-examines every NoExecute-tainted cluster (a lost message delays an eviction by one sweep at most)', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -10)) }));
    await t.seed(member('b'));
    await t.seed(member('c', { taints: [{ key: UNREACHABLE_TAINT_KEY, effect: 'NoSchedule', timeAdded: at(t, 0) }] }));
    await t.reconcile(SWEEP_KEY);
    assert.deepEqual(
      t.queue.items.map((i) => i.key),
      ['Cluster.cluster.karmada.io/a'],
    );
  });

  it('decisions come from stored times only: a fresh controller (a restart) evicts on time', async () => {
    const t = setup();
    await t.seed(member('a', { ready: false, taints: notReady(at(t, -100)) }));
    await t.seed(member('b'));
    const b = await t.seed(placed('web', [{ name: 'a', replicas: 1 }]));
    await t.reconcile(keyOf(b));
    await t.clock.advance(200_000);
    const restarted = createEvictionController({
      store: t.store,
      workQueue: t.queue,
      settings: DEFAULT_FAILOVER_SETTINGS,
      now: () => t.clock.now(),
    });
    const batch = await restarted.openBatch!({ logger: t.context().logger, now: t.clock.now(), keys: [keyOf(b)] });
    await restarted.reconcile({ key: keyOf(b), lane: 'standard', reasons: ['requeue'] }, t.context(batch));
    await batch.close?.();
    assert.deepEqual(
      (await t.read(b)).spec.gracefulEvictionTasks?.map((x) => x.fromCluster),
      ['a'],
    );
  });
});
