/**
 * FederatedResourceQuota enforcement over an in-memory store on a virtual clock: the scheduler charges
 * placements to the namespace's quotas (Karmada's RB validating webhook under
 * `FederatedQuotaEnforcement`), holds what does not fit with `QuotaExceeded`, cannot be raced past a
 * limit, and retries held bindings when quota frees; the binder gives usage back on deletion; the
 * quota controller recomputes usage, writes static assignments and releases waiters.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { createBinderController } from '../../../lib/controllers/binder.ts';
import { createFederatedResourceQuotaController } from '../../../lib/controllers/federated-resource-quota.ts';
import { chargeCovers, placementAdmitted, QUOTA_WAITLIST } from '../../../lib/controllers/quota.ts';
import { QUOTA_CHARGED_ANNOTATION } from '../../../lib/api/well-known.ts';
import { createSchedulerController } from '../../../lib/controllers/scheduler.ts';
import type { Cluster, ResourceBinding } from '../../../lib/core/model/types.ts';
import { bindingFactory, clusterFactory, summary } from '../core/scheduler/fixtures.ts';
import { keyOf, refOf, world } from './placement-harness.ts';

const FRQ_REF = { group: 'policy.karmada.io', kind: 'FederatedResourceQuota', namespace: 'default', name: 'team' };

const member = (name: string, cpu = 100): Cluster =>
  clusterFactory(name, { resourceSummary: summary({ cpu: String(cpu), memory: '1Ti' }) });

/** A Deployment binding of `replicas` one-cpu replicas, Duplicated on m1 only (usage = replicas cpu). */
const rb = (name: string, replicas: number, cpu = '1'): ResourceBinding =>
  bindingFactory(name, {
    request: { cpu },
    replicas,
    placement: {
      clusterAffinity: { clusterNames: ['m1'] },
      replicaScheduling: { replicaSchedulingType: 'Duplicated' },
    },
  });

const quota = (overall: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'FederatedResourceQuota',
  metadata: { name: 'team', namespace: 'default' },
  spec: { overall, ...extra },
});

function setup() {
  const w = world();
  const scheduler = () =>
    createSchedulerController({ store: w.store, workQueue: w.queue, events: w.events, now: () => w.clock.now() });
  const main = scheduler();
  async function schedule(key: string, s = main) {
    const batch = await s.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys: [key] });
    try {
      return await s.reconcile({ key, lane: 'priority', reasons: [] }, w.context(batch));
    } finally {
      await batch.close?.();
    }
  }
  const frqController = createFederatedResourceQuotaController({
    store: w.store,
    workQueue: w.queue,
    events: w.events,
  });
  const syncQuota = () =>
    frqController.reconcile(
      { key: 'FederatedResourceQuota.policy.karmada.io/default/team', lane: 'priority', reasons: [] },
      w.context(),
    );
  const used = async () =>
    ((await w.store.get(FRQ_REF))?.status as { overallUsed?: Record<string, string> } | undefined)?.overallUsed;
  const read = async (b: KubeObject) => (await w.store.get(refOf(b))) as ResourceBinding;
  const scheduledCondition = async (b: KubeObject) =>
    (await read(b)).status?.conditions?.find((c) => c.type === 'Scheduled');
  /** Member m1 and the quota `team` with `overall` (its status written by the controller). */
  async function withQuota(overall: Record<string, string>, extra: Record<string, unknown> = {}) {
    await w.seed(member('m1'));
    await w.seed(quota(overall, extra));
    await syncQuota();
  }
  /** A binding of `replicas` one-cpu replicas, scheduled once. */
  async function place(name: string, replicas: number): Promise<ResourceBinding> {
    const b = await w.seed(rb(name, replicas));
    await schedule(keyOf(b));
    return b;
  }
  return { ...w, scheduler, schedule, syncQuota, used, read, scheduledCondition, withQuota, place };
}

describe('quota enforcement in the scheduler (FederatedQuotaEnforcement)', () => {
  it('a placement within the limit is charged to overallUsed in the same pass', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const b = await t.place('web', 3);
    assert.equal((await t.scheduledCondition(b))?.status, 'True');
    assert.equal((await t.used())?.cpu, '3');
  });

  it("over the limit: not placed, Scheduled=False/QuotaExceeded with Karmada's message, held in the waitlist", async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    await t.place('a', 3);
    const b = await t.place('b', 2);
    const c = await t.scheduledCondition(b);
    assert.deepEqual([c?.status, c?.reason], ['False', 'QuotaExceeded']);
    assert.equal(
      c?.message,
      'FederatedResourceQuota(default/team) exceeded for resource cpu: requested sum 5, limit 4.',
    );
    assert.equal((await t.read(b)).spec.clusters, undefined, 'nothing placed');
    assert.equal((await t.used())?.cpu, '3', 'nothing charged');
    const waitlist = await t.store.get({ ...QUOTA_WAITLIST, name: 'default' });
    assert.deepEqual((waitlist?.spec as { bindings: string[] }).bindings, [keyOf(b)]);
    assert.ok(
      t.events.events.some((e) => e.reason === 'QuotaExceeded' && e.involved.kind === 'FederatedResourceQuota'),
    );
  });

  it('requests.cpu and limits.cpu keys are enforced too (Karmada #7864 dropped them)', async () => {
    for (const key of ['requests.cpu', 'limits.cpu']) {
      const t = setup();
      await t.withQuota({ [key]: '2' });
      const b = await t.seed(rb('big', 3));
      await t.schedule(keyOf(b));
      assert.equal((await t.scheduledCondition(b))?.reason, 'QuotaExceeded', key);
    }
  });

  it('N bindings scheduled at once by separate schedulers against a quota that fits N−1: exactly N−1 placed', async () => {
    const t = setup();
    await t.withQuota({ cpu: '5' });
    const bindings = [];
    for (let i = 0; i < 6; i++) bindings.push(await t.seed(rb(`w${i}`, 1)));
    // Six invocations, each its own scheduler and batch, all in flight together.
    await Promise.all(bindings.map((b) => t.schedule(keyOf(b), t.scheduler())));
    const placed = [];
    for (const b of bindings) if ((await t.scheduledCondition(b))?.status === 'True') placed.push(b.metadata.name);
    assert.equal(placed.length, 5);
    assert.equal((await t.used())?.cpu, '5');
  });

  it('when quota frees (a binding deleted), the held binding is retried at once and placed', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const a = await t.place('a', 3);
    const b = await t.place('b', 2);
    assert.equal((await t.scheduledCondition(b))?.reason, 'QuotaExceeded');

    // a is deleted: the binder gives its usage back (the binding has the binder's finalizer).
    const binder = createBinderController({ store: t.store, workQueue: t.queue, events: t.events });
    const current = await t.read(a);
    await t.store.update({
      ...current,
      metadata: { ...current.metadata, finalizers: ['karmada.io/binding-controller'] },
    });
    await t.store.delete(refOf(a));
    t.queue.items.length = 0;
    for (let i = 0; i < 3 && (await t.store.get(refOf(a))); i++)
      await binder.reconcile({ key: keyOf(a), lane: 'priority', reasons: [] }, t.context());
    assert.equal(await t.store.get(refOf(a)), undefined, 'a is gone');
    assert.equal((await t.used())?.cpu, '0');
    assert.ok(
      t.queue.items.some((i) => i.controller === 'scheduler' && i.key === keyOf(b)),
      'the held binding is sent to the scheduler',
    );
    await t.schedule(keyOf(b));
    assert.equal((await t.scheduledCondition(b))?.status, 'True');
    assert.equal((await t.used())?.cpu, '2');
  });

  it('a change that lowers usage is allowed even over a lowered limit (Karmada denies it)', async () => {
    const t = setup();
    await t.withQuota({ cpu: '10' });
    const a = await t.place('a', 6);
    // The administrator lowers the limit below what is used.
    const frq = (await t.store.get(FRQ_REF))!;
    await t.store.update({ ...frq, spec: { overall: { cpu: '4' } } });
    await t.syncQuota();
    // Scale down to 5: still over 4, but lower.
    const current = await t.read(a);
    await t.store.update({ ...current, spec: { ...current.spec, replicas: 5 } });
    await t.schedule(keyOf(a));
    assert.equal((await t.scheduledCondition(a))?.status, 'True');
    assert.equal((await t.used())?.cpu, '5');
  });

  it('requests raised while the new placement fails: the kept placement is charged at the new requests, or refused (simulation seed 23)', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const b = await t.place('web', 2);
    assert.equal((await t.used())?.cpu, '2');
    // The template's pods now ask for 3 CPUs each and it is scaled past what m1 can hold: the new
    // placement fails, the old one stays — and the binder would render the new requests onto it.
    const current = await t.read(b);
    await t.store.update({
      ...current,
      spec: {
        ...current.spec,
        replicas: 40,
        replicaRequirements: { resourceRequest: { cpu: '3' } },
        placement: {
          ...current.spec.placement,
          replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
        },
      },
    });
    await t.schedule(keyOf(b));
    const c = await t.scheduledCondition(b);
    assert.deepEqual([c?.status, c?.reason], ['False', 'QuotaExceeded']);
    assert.equal((await t.used())?.cpu, '2', 'nothing more charged');
    const held = await t.read(b);
    assert.equal(chargeCovers(held), false, 'so the binder does not roll the new requests out');
    assert.deepEqual(
      held.spec.clusters?.map((x) => x.name),
      ['m1'],
      'the old copy keeps running',
    );
  });

  it('requests raised on a kept Divided placement (no rescheduling trigger): charged, or refused (simulation seeds 400, 428)', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const divided = bindingFactory('web', {
      request: { cpu: '1' },
      replicas: 2,
      placement: {
        clusterAffinity: { clusterNames: ['m1'] },
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      },
    });
    const b = await t.seed(divided);
    await t.schedule(keyOf(b));
    assert.equal((await t.used())?.cpu, '2');
    const raise = async (cpu: string) => {
      const current = await t.read(b);
      await t.store.update({
        ...current,
        spec: { ...current.spec, replicaRequirements: { resourceRequest: { cpu } } },
      });
      await t.schedule(keyOf(b));
      return t.read(b);
    };
    const admitted = await raise('1500m');
    assert.equal((await t.used())?.cpu, '3', 'the kept placement is charged at the new requests');
    assert.equal(chargeCovers(admitted), true, 'so the binder rolls them out');
    const refused = await raise('3');
    assert.equal((await t.scheduledCondition(refused))?.reason, 'QuotaExceeded');
    assert.equal((await t.used())?.cpu, '3');
    assert.equal(chargeCovers(refused), false, 'and the members keep the admitted pods');
  });

  it('chargeCovers and placementAdmitted: what the binder and the failovers ask the quota (placementAdmitted: simulation seed 10)', () => {
    const b = rb('web', 2);
    const charged = {
      ...b,
      metadata: { ...b.metadata, annotations: { [QUOTA_CHARGED_ANNOTATION]: JSON.stringify({ cpu: '2', pods: '2' }) } },
      spec: { ...b.spec, clusters: [{ name: 'm1', replicas: 2 }] },
    } as ResourceBinding;
    assert.equal(chargeCovers(charged), true);
    assert.equal(
      chargeCovers({ ...charged, spec: { ...charged.spec, replicas: 3, clusters: [{ name: 'm1', replicas: 3 }] } }),
      false,
    );
    assert.equal(chargeCovers(b), true, 'never charged (no quota then): covered');
    const frq = { ...quota({ cpu: '3' }), status: { overallUsed: { cpu: '2' } } };
    assert.equal(placementAdmitted(charged, [{ name: 'm2', replicas: 2 }], [frq]), true, 'moving is free');
    assert.equal(
      placementAdmitted(
        charged,
        [
          { name: 'm2', replicas: 2 },
          { name: 'm3', replicas: 2 },
        ],
        [frq],
      ),
      false,
      'two copies of a Duplicated binding: 4 CPUs more than charged, over the limit',
    );
    assert.equal(placementAdmitted(charged, [{ name: 'm2', replicas: 9 }], []), true, 'no quota');
  });
});

describe('the FederatedResourceQuota controller', () => {
  it('overall = spec.overall and overallUsed recomputed from the bindings; a raised limit releases the waiters', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4', memory: '1Gi' });
    const status = (await t.store.get(FRQ_REF))?.status as {
      overall: Record<string, string>;
      overallUsed: Record<string, string>;
    };
    assert.deepEqual(status.overall, { cpu: '4', memory: '1Gi' });
    assert.deepEqual(status.overallUsed, { cpu: '0', memory: '0' });
    await t.place('a', 3);
    const b = await t.place('b', 2);
    t.queue.items.length = 0;
    const frq = (await t.store.get(FRQ_REF))!;
    await t.store.update({ ...frq, spec: { overall: { cpu: '8', memory: '1Gi' } } });
    await t.syncQuota();
    assert.ok(t.queue.items.some((i) => i.controller === 'scheduler' && i.key === keyOf(b)));
    await t.schedule(keyOf(b));
    assert.equal((await t.used())?.cpu, '5');
  });

  it('static assignments become ResourceQuota Works in the named members; usage comes back per cluster', async () => {
    const t = setup();
    await t.seed(member('m2'));
    await t.withQuota(
      { cpu: '4' },
      {
        staticAssignments: [
          { clusterName: 'm1', hard: { cpu: '1' } },
          { clusterName: 'm2', hard: { cpu: '3' } },
        ],
      },
    );
    const works = [];
    for (const c of ['m1', 'm2']) {
      const list = await t.store.list({ group: 'work.karmada.io', kind: 'Work', namespace: `karmada-es-${c}` });
      works.push(...list.items);
    }
    assert.equal(works.length, 2);
    const manifest = (works[0]!.spec as { workload: { manifests: KubeObject[] } }).workload.manifests[0]!;
    assert.deepEqual(
      [manifest.kind, manifest.metadata.name, manifest.metadata.namespace],
      ['ResourceQuota', 'team', 'default'],
    );
    // The executor reports m1's ResourceQuota.
    const w1 = works.find((w) => w.metadata.namespace === 'karmada-es-m1')!;
    await t.store.updateStatus({
      ...w1,
      status: {
        conditions: [{ type: 'Applied', status: 'True' }],
        manifestStatuses: [{ status: { hard: { cpu: '1' }, used: { cpu: '500m' } } }],
      },
    });
    await t.syncQuota();
    const aggregated = ((await t.store.get(FRQ_REF))?.status as { aggregatedStatus?: unknown[] }).aggregatedStatus;
    assert.deepEqual(aggregated, [{ clusterName: 'm1', hard: { cpu: '1' }, used: { cpu: '500m' } }]);
    // m2 removed from the assignments: its Work goes.
    const frq = (await t.store.get(FRQ_REF))!;
    await t.store.update({
      ...frq,
      spec: { ...(frq.spec as object), staticAssignments: [{ clusterName: 'm1', hard: { cpu: '1' } }] },
    });
    await t.syncQuota();
    const m2 = await t.store.list({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m2' });
    assert.ok(
      m2.items.every((w) => w.metadata.deletionTimestamp),
      'the m2 Work is being deleted',
    );
  });
});
