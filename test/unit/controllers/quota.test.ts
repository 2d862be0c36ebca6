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
import {
  createFederatedResourceQuotaController,
  MEMBER_QUOTA_REPORT_REASON,
} from '../../../lib/controllers/federated-resource-quota.ts';
import type { ObjectStore, WriteOptions } from '../../../lib/store/port.ts';
import { chargeQuota, QUOTA_WAITLIST, revertQuota } from '../../../lib/controllers/quota.ts';
import {
  CHARGE_IN_FLIGHT_BOUND_MS,
  chargeCovers,
  chargeInFlight,
  chargesInFlightOf,
  placementAdmitted,
  withChargesInFlight,
} from '../../../lib/core/quota/index.ts';
import { QUOTA_CHARGED_ANNOTATION, QUOTA_CHARGES_IN_FLIGHT_ANNOTATION } from '../../../lib/api/well-known.ts';
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

/**
 * Holds the store writes `matches` picks until `release()` — before the write lands, or after it
 * (`when`) — so a test can run another step in between, deterministically. `reached` resolves when one
 * is held.
 */
function pause(matches: (obj: KubeObject) => boolean, when: 'before' | 'after' = 'before') {
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((r) => (reach = r));
  const released = new Promise<void>((r) => (release = r));
  return {
    reached,
    release,
    wrap:
      (write: (obj: KubeObject, options?: WriteOptions) => Promise<KubeObject>) =>
      async (obj: KubeObject, options?: WriteOptions): Promise<KubeObject> => {
        if (!matches(obj)) return write(obj, options);
        if (when === 'before') {
          reach();
          await released;
          return write(obj, options);
        }
        const out = await write(obj, options);
        reach();
        await released;
        return out;
      },
  };
}

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
  const syncQuota = (reasons: string[] = []) =>
    frqController.reconcile(
      { key: 'FederatedResourceQuota.policy.karmada.io/default/team', lane: 'priority', reasons },
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
  const binder = createBinderController({ store: w.store, workQueue: w.queue, events: w.events });
  /** The binder's pass over `b`, its template (a Deployment of one-cpu replicas) created first if missing. */
  async function render(b: KubeObject) {
    const binding = await read(b);
    const resource = binding.spec.resource;
    const template = { group: 'apps', kind: 'Deployment', namespace: resource.namespace, name: resource.name };
    if (!(await w.store.get(template))) {
      await w.store.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: resource.name, namespace: resource.namespace },
        spec: {
          replicas: binding.spec.replicas,
          selector: { matchLabels: { app: resource.name } },
          template: {
            metadata: { labels: { app: resource.name } },
            spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '1' } } }] },
          },
        },
      });
    }
    const batch = await binder.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys: [keyOf(b)] });
    try {
      return await binder.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, w.context(batch));
    } finally {
      await batch.close?.();
    }
  }
  /** Sets `b`'s spec.replicas (a scale, as the detector writes it). */
  async function scale(b: KubeObject, replicas: number) {
    const current = await read(b);
    await w.store.update({ ...current, spec: { ...current.spec, replicas } });
  }
  /** `a` placed with `from` replicas and rendered, then scaled to `to` and scheduled (not rendered yet). */
  async function scaledDown(from: number, to: number): Promise<ResourceBinding> {
    const a = await place('a', from);
    await render(a);
    await scale(a, to);
    await schedule(keyOf(a));
    return a;
  }
  return {
    ...w,
    scheduler,
    schedule,
    syncQuota,
    used,
    read,
    scheduledCondition,
    withQuota,
    place,
    render,
    scale,
    scaledDown,
  };
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

  it("held for quota: a ScheduleBindingFailed warning with Karmada's message on the binding and on its template", async () => {
    const t = setup();
    await t.withQuota({ cpu: '1' });
    const b = await t.place('web', 2);
    const message = 'FederatedResourceQuota(default/team) exceeded for resource cpu: requested sum 2, limit 1.';
    const failed = t.events.events.filter((e) => e.reason === 'ScheduleBindingFailed');
    assert.deepEqual(
      failed.map((e) => [e.involved.kind, e.involved.namespace, e.involved.name, e.type, e.message]),
      [
        ['ResourceBinding', 'default', b.metadata.name, 'Warning', message],
        ['Deployment', 'default', 'web', 'Warning', message],
      ],
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
    await t.scale(a, 5);
    await t.schedule(keyOf(a));
    assert.equal((await t.scheduledCondition(a))?.status, 'True');
    // The decrease is given back once the binder has rendered it.
    await t.render(a);
    await t.schedule(keyOf(a));
    assert.equal((await t.used())?.cpu, '5');
  });

  it('a decrease is given back only once the binder has rendered it: until then the room is not handed to another workload (simulation seed 962: 13–14 CPUs rendered against 10)', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const a = await t.scaledDown(3, 1);
    assert.equal((await t.scheduledCondition(a))?.status, 'True', 'the scale-down is placed at once');
    assert.equal((await t.used())?.cpu, '3', 'the members may still run 3: still charged');
    const b = await t.place('b', 2);
    assert.equal((await t.scheduledCondition(b))?.reason, 'QuotaExceeded', '3 + 2 is over 4 until a shrinks');

    t.queue.items.length = 0;
    await t.render(a);
    const work = (
      await t.store.list({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m1' })
    ).items.find((w) => w.metadata.annotations?.['resourcebinding.karmada.io/name'] === a.metadata.name);
    assert.ok(work, 'the Work is rendered');
    const rendered = (work!.spec as { workload: { manifests: { spec: { replicas: number } }[] } }).workload
      .manifests[0]!;
    assert.equal(rendered.spec.replicas, 1);
    assert.deepEqual(
      t.queue.items.filter((i) => i.controller === 'scheduler').map((i) => [i.key, i.reason]),
      [[keyOf(a), 'decrease-rendered']],
      'rendered: the scheduler gives the room back',
    );
    await t.schedule(keyOf(a));
    assert.equal((await t.used())?.cpu, '1');
    assert.ok(
      t.queue.items.some((i) => i.controller === 'scheduler' && i.key === keyOf(b)),
      'the binding held for the room is sent to the scheduler',
    );
    await t.schedule(keyOf(b));
    assert.equal((await t.scheduledCondition(b))?.status, 'True');
    assert.equal((await t.used())?.cpu, '3');
  });

  it('a rendered mark of an older generation gives nothing back', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const a = await t.scaledDown(3, 1);
    await t.render(a);
    // Scaled again (a new generation) before the scheduler gave the room back: the mark is stale.
    await t.scale(a, 2);
    await t.schedule(keyOf(a));
    assert.equal((await t.used())?.cpu, '3', 'the new generation is not rendered yet: nothing given back');
    await t.render(a);
    await t.schedule(keyOf(a));
    assert.equal((await t.used())?.cpu, '2');
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

  it('a cluster placed but not rendered yet when a raise is refused gets no Work until the quota admits the raise (simulation seed 318)', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    await t.seed(member('m2'));
    const b = await t.place('web', 1);
    await t.render(b);
    // The policy widens to m2: placed and charged (2), and the binder has not run yet ...
    const widen = await t.read(b);
    await t.store.update({
      ...widen,
      spec: {
        ...widen.spec,
        placement: { ...widen.spec.placement, clusterAffinity: { clusterNames: ['m1', 'm2'] } },
      },
    });
    await t.schedule(keyOf(b));
    assert.deepEqual(
      (await t.read(b)).spec.clusters?.map((c) => c.name),
      ['m1', 'm2'],
    );
    assert.equal((await t.used())?.cpu, '2');
    // ... when the template's pods are raised to 3 CPUs each: 6 is over 4, refused.
    const template = { group: 'apps', kind: 'Deployment', namespace: 'default', name: b.spec.resource.name };
    const requests = (cpu: string) => ({
      containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu } } }],
    });
    const deployment = (await t.store.get(template))!;
    const podSpec = (deployment.spec as { template: { metadata: unknown } }).template;
    await t.store.update({
      ...deployment,
      spec: { ...(deployment.spec as object), template: { ...podSpec, spec: requests('3') } },
    });
    const raised = await t.read(b);
    await t.store.update({
      ...raised,
      spec: { ...raised.spec, replicaRequirements: { resourceRequest: { cpu: '3' } } },
    });
    await t.schedule(keyOf(b));
    assert.equal((await t.scheduledCondition(b))?.reason, 'QuotaExceeded');
    const cpuOn = async (cluster: string) => {
      const work = (
        await t.store.list({ group: 'work.karmada.io', kind: 'Work', namespace: `karmada-es-${cluster}` })
      ).items.find((w) => w.metadata.annotations?.['resourcebinding.karmada.io/name'] === b.metadata.name);
      const manifest = (
        work?.spec as
          { workload: { manifests: { spec: { template: { spec: ReturnType<typeof requests> } } }[] } } | undefined
      )?.workload.manifests[0];
      return manifest ? manifest.spec.template.spec.containers[0]!.resources.requests.cpu : 'no Work';
    };
    await t.render(b);
    assert.deepEqual(
      [await cpuOn('m1'), await cpuOn('m2')],
      ['1', 'no Work'],
      "m2's Work would carry the refused requests: the members keep what the quota admitted",
    );
    // The limit is raised: the raise is charged, and both clusters get the new requests.
    const frq = (await t.store.get(FRQ_REF))!;
    await t.store.update({ ...frq, spec: { overall: { cpu: '6' } } });
    await t.syncQuota();
    await t.schedule(keyOf(b));
    assert.equal((await t.used())?.cpu, '6');
    await t.render(b);
    assert.deepEqual([await cpuOn('m1'), await cpuOn('m2')], ['3', '3']);
  });

  it('a recount between a charge and its binding write keeps the charge: later placements stay within the limit', async () => {
    const t = setup();
    await t.withQuota({ cpu: '2' });
    const [a, b, c] = [await t.seed(rb('a', 1)), await t.seed(rb('b', 1)), await t.seed(rb('c', 1))];
    // A scheduler whose write of `a` waits at the store until the recount has run.
    const gate = pause((obj) => obj.kind === 'ResourceBinding' && obj.metadata.name === 'a');
    const paused = { ...t.store, updateWithStatus: gate.wrap(t.store.updateWithStatus) };
    const slow = createSchedulerController({ store: paused, workQueue: t.queue, now: () => t.clock.now() });
    const placing = t.schedule(keyOf(a), slow);
    await gate.reached;
    assert.equal((await t.used())?.cpu, '1', "a's charge is in the quota, its binding not written yet");
    await t.syncQuota(['sync-period']);
    assert.equal((await t.used())?.cpu, '1', 'the recount counts the charge in flight');
    gate.release();
    await placing;
    await t.schedule(keyOf(b));
    await t.schedule(keyOf(c));
    assert.deepEqual(
      [await t.scheduledCondition(a), await t.scheduledCondition(b), await t.scheduledCondition(c)].map(
        (x) => x?.reason,
      ),
      ['Success', 'Success', 'QuotaExceeded'],
    );
    assert.equal((await t.used())?.cpu, '2');
    await t.syncQuota(['sync-period']);
    assert.equal((await t.used())?.cpu, '2', 'the next recount agrees');
    assert.equal(
      (await t.store.get(FRQ_REF))?.metadata.annotations?.[QUOTA_CHARGES_IN_FLIGHT_ANNOTATION],
      undefined,
      'and has settled every charge in flight (the bindings show them)',
    );
  });

  it('a charge given back after its binding write conflicted is charged again when the batch decides the binding again', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const a = await t.seed(rb('a', 2));
    // The scheduler's write of `a` waits at the store while another writer changes `a`: the write
    // conflicts, the charge is given back, and the same batch decides `a` again.
    const gate = pause((obj) => obj.kind === 'ResourceBinding' && obj.metadata.name === 'a');
    const paused = { ...t.store, updateWithStatus: gate.wrap(t.store.updateWithStatus) };
    const slow = createSchedulerController({ store: paused, workQueue: t.queue, now: () => t.clock.now() });
    const placing = t.schedule(keyOf(a), slow);
    await gate.reached;
    assert.equal((await t.used())?.cpu, '2', "a's charge is in the quota, its binding not written yet");
    const current = await t.read(a);
    await t.store.update({ ...current, metadata: { ...current.metadata, labels: { touched: 'yes' } } });
    gate.release();
    await placing;
    assert.equal((await t.scheduledCondition(a))?.reason, 'Success');
    assert.equal((await t.used())?.cpu, '2', 'placed and charged once (the batch did not decide on its stale copy)');
    await t.syncQuota(['sync-period']);
    assert.equal((await t.used())?.cpu, '2', 'the recount agrees');
  });

  it('a recount between a deleted binding giving its usage back and its record zeroed: not given back twice', async () => {
    const t = setup();
    await t.withQuota({ cpu: '2' });
    const a = await t.place('a', 1);
    await t.place('b', 1);
    const current = await t.read(a);
    await t.store.update({
      ...current,
      metadata: { ...current.metadata, finalizers: ['karmada.io/binding-controller'] },
    });
    await t.store.delete(refOf(a));
    // The binder stops after its first write (whichever it is) until the recount has run.
    let first = true;
    const gate = pause(() => (first ? ((first = false), true) : false), 'after');
    const paused: ObjectStore = {
      ...t.store,
      update: gate.wrap(t.store.update),
      updateStatus: gate.wrap(t.store.updateStatus),
      updateWithStatus: gate.wrap(t.store.updateWithStatus),
    };
    const binder = createBinderController({ store: paused, workQueue: t.queue, events: t.events });
    const releasing = binder.reconcile({ key: keyOf(a), lane: 'priority', reasons: [] }, t.context());
    await gate.reached;
    await t.syncQuota(['sync-period']);
    gate.release();
    await releasing;
    for (let i = 0; i < 3 && (await t.store.get(refOf(a))); i++)
      await binder.reconcile({ key: keyOf(a), lane: 'priority', reasons: [] }, t.context());
    assert.equal(await t.store.get(refOf(a)), undefined, 'a is gone');
    assert.equal((await t.used())?.cpu, '1', 'b still counts');
    const c = await t.place('c', 2);
    assert.equal((await t.scheduledCondition(c))?.reason, 'QuotaExceeded', '1 + 2 is over 2');
    await t.syncQuota(['sync-period']);
    assert.equal((await t.used())?.cpu, '1');
  });

  it('a charge whose binding write never came is counted until the bound, then healed by the recount', async () => {
    const t = setup();
    await t.withQuota({ cpu: '2' });
    const a = await t.seed(rb('a', 1));
    // The invocation dies between the charge and the binding write.
    const dead: ObjectStore = {
      ...t.store,
      updateWithStatus: (obj, o) =>
        obj.kind === 'ResourceBinding' ? new Promise<never>(() => {}) : t.store.updateWithStatus(obj, o),
    };
    const doomed = createSchedulerController({ store: dead, workQueue: t.queue, now: () => t.clock.now() });
    void t.schedule(keyOf(a), doomed);
    for (let i = 0; i < 20 && (await t.used())?.cpu !== '1'; i++) await new Promise((r) => setImmediate(r));
    assert.equal((await t.used())?.cpu, '1');
    await t.syncQuota(['sync-period']);
    assert.equal((await t.used())?.cpu, '1', 'within the bound: still in flight');
    await t.clock.advance(CHARGE_IN_FLIGHT_BOUND_MS + 1);
    await t.syncQuota(['sync-period']);
    assert.equal((await t.used())?.cpu, '0', 'past it: the binding shows nothing charged, and that is what counts');
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

describe('charges in flight on the quota', () => {
  const inFlight = async (t: ReturnType<typeof setup>) =>
    Object.keys(chargesInFlightOf((await t.store.get(FRQ_REF))!)).sort();
  /** `binding`'s usage charged from `from` to `to` against the quota as it is now, `laterMs` after the clock. */
  const charge = async (
    t: ReturnType<typeof setup>,
    binding: string,
    from: Record<string, string>,
    to: Record<string, string>,
    laterMs = 0,
  ) => chargeQuota(t.store, [(await t.store.get(FRQ_REF))!], from, to, { binding, now: t.clock.now() + laterMs });

  it('a charge repeated before its binding write (a lost invocation, retried) is not charged twice', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const quotas = [(await t.store.get(FRQ_REF))!];
    const to = { cpu: '2', pods: '2' };
    const first = await chargeQuota(t.store, quotas, {}, to, { binding: 'web', now: t.clock.now() });
    assert.equal(first.ok, true);
    const again = await chargeQuota(t.store, quotas, {}, to, { binding: 'web', now: t.clock.now() });
    assert.equal(again.ok, true);
    assert.equal((await t.used())?.cpu, '2');
    assert.deepEqual(await inFlight(t), ['web']);
  });

  it('a revert gives the charge back and drops its record', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const charged = await charge(t, 'web', {}, { cpu: '2' });
    assert.ok(charged.ok);
    await revertQuota(t.store, charged.charged);
    assert.equal((await t.used())?.cpu, '0');
    assert.deepEqual(await inFlight(t), []);
  });

  it('a revert after another charge of the same binding (two writers: a restore and a placement) changes nothing — that charge counted from this one', async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' });
    const first = await charge(t, 'web', {}, { cpu: '2' });
    assert.ok(first.ok);
    // The second writer read the quota after the first charge: it holds 2 for web, and charges up to 3.
    const second = await charge(t, 'web', {}, { cpu: '3' }, 1_000);
    assert.ok(second.ok);
    assert.equal((await t.used())?.cpu, '3');
    // The first writer's binding write lost: its revert must not take 2 off what the second one holds.
    await revertQuota(t.store, first.charged);
    assert.equal((await t.used())?.cpu, '3', 'before: 1 — the quota counted less than the binding shows');
    assert.deepEqual(await inFlight(t), ['web']);
    // The second one's revert (its write lost too) gives back to what it found: the first charge's 2.
    await revertQuota(t.store, second.charged);
    assert.equal((await t.used())?.cpu, '2', 'over-counted until the recount, never under');
  });

  it('a give-back whose binding write lost is put back even when its room was taken meanwhile (simulation seed 1195: refused, the quota counted 2 CPUs less than its bindings, and later charges went past the limit)', async () => {
    const t = setup();
    await t.withQuota({ cpu: '10' });
    assert.ok((await charge(t, 'other', {}, { cpu: '4' })).ok);
    assert.ok((await charge(t, 'web', {}, { cpu: '4' })).ok);
    // web gives 2 back (a rendered scale-down) …
    const giveBack = await charge(t, 'web', { cpu: '4' }, { cpu: '2' }, 1_000);
    assert.ok(giveBack.ok);
    // … a third binding takes the room …
    assert.ok((await charge(t, 'new', {}, { cpu: '3' })).ok);
    assert.equal((await t.used())?.cpu, '9');
    // … and web's binding write loses: its 4 are still what the members run.
    await revertQuota(t.store, giveBack.charged);
    assert.equal((await t.used())?.cpu, '11', 'counted as it is — over the limit, so nothing more is admitted');
    const held = await charge(t, 'late', {}, { cpu: '1' });
    assert.equal(held.ok, false);
  });

  it('many records: the next charge drops those its bindings show (read one by one), in the same write', async () => {
    const t = setup();
    await t.withQuota({ cpu: '1000' });
    const bindings = [];
    for (let i = 0; i < 70; i++) bindings.push(await t.place(`w${i}`, 1));
    assert.equal((await inFlight(t)).length, 70 - 64 + 1, 'the 64th charge settled the 63 placed before it');
    // One whose binding write has not landed (its record shows more than the binding) is kept.
    const frq = (await t.store.get(FRQ_REF))!;
    const pending = { ...chargesInFlightOf(frq), w0: chargeInFlight({ cpu: '5', pods: '5' }, t.clock.now()) };
    await t.store.updateWithStatus(withChargesInFlight(frq, pending));
    for (let i = 70; i < 130; i++) await t.place(`w${i}`, 1);
    const left = await inFlight(t);
    assert.ok(left.includes('w0'), 'the charge its binding does not show stays');
    assert.ok(left.length < 64, `${left.length} records`);
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

  it("a member's ResourceQuota report refreshes aggregatedStatus only: no binding listed, overallUsed kept (Karmada #6836)", async () => {
    const t = setup();
    await t.withQuota({ cpu: '4' }, { staticAssignments: [{ clusterName: 'm1', hard: { cpu: '4' } }] });
    await t.place('a', 3);
    const lists: string[] = [];
    const counting: ObjectStore = { ...t.store, list: (q) => (lists.push(q.kind), t.store.list(q)) };
    const controller = createFederatedResourceQuotaController({ store: counting, workQueue: t.queue });
    const reconcile = (reasons: string[]) =>
      controller.reconcile({ key: keyOf(quota({})), lane: 'standard', reasons }, t.context());
    // What the charges left in overallUsed is what a report keeps (a recount would say 3).
    const frq = (await t.store.get(FRQ_REF))!;
    await t.store.updateStatus({ ...frq, status: { ...(frq.status as object), overallUsed: { cpu: '2' } } });
    const [work] = (await t.store.list({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m1' })).items;
    await t.store.updateStatus({
      ...work!,
      status: {
        conditions: [{ type: 'Applied', status: 'True' }],
        manifestStatuses: [{ status: { hard: { cpu: '4' }, used: { cpu: '1' } } }],
      },
    });
    for (let i = 0; i < 5; i++) await reconcile([MEMBER_QUOTA_REPORT_REASON]);
    let status = (await t.store.get(FRQ_REF))?.status as { overallUsed: unknown; aggregatedStatus: unknown };
    assert.deepEqual(status.aggregatedStatus, [{ clusterName: 'm1', hard: { cpu: '4' }, used: { cpu: '1' } }]);
    assert.deepEqual(status.overallUsed, { cpu: '2' }, 'kept as stored');
    assert.deepEqual(
      lists.filter((k) => k === 'ResourceBinding'),
      [],
      'five reports, no binding listed',
    );
    // The sweep (or a quota change) recounts: one listing.
    await reconcile(['sync-period']);
    status = (await t.store.get(FRQ_REF))?.status as { overallUsed: unknown; aggregatedStatus: unknown };
    assert.deepEqual(status.overallUsed, { cpu: '3' });
    assert.equal(lists.filter((k) => k === 'ResourceBinding').length, 1);
  });

  it('FederatedQuotaEnforcement=false: nothing is held or charged, and overallUsed is the members’ ResourceQuota usage', async () => {
    const t = setup();
    const off = createSchedulerController({
      store: t.store,
      workQueue: t.queue,
      events: t.events,
      now: () => t.clock.now(),
      quotaEnforcement: false,
    });
    const controller = createFederatedResourceQuotaController({
      store: t.store,
      workQueue: t.queue,
      enforcement: false,
    });
    const sync = (reasons: string[]) =>
      controller.reconcile({ key: keyOf(quota({})), lane: 'standard', reasons }, t.context());
    await t.seed(member('m1'));
    await t.seed(quota({ cpu: '1' }, { staticAssignments: [{ clusterName: 'm1', hard: { cpu: '1' } }] }));
    await sync([]);
    const b = await t.seed(rb('web', 3));
    await t.schedule(keyOf(b), off);
    assert.equal((await t.scheduledCondition(b))?.status, 'True', 'placed over the limit: nothing held');
    assert.equal((await t.read(b)).metadata.annotations?.[QUOTA_CHARGED_ANNOTATION], undefined, 'nothing charged');
    assert.equal(
      t.events.events.some((e) => e.reason === 'QuotaExceeded' || e.reason === 'ScheduleBindingFailed'),
      false,
    );
    // The member's ResourceQuota reports its usage: overallUsed follows it, also on a report alone.
    const [work] = (await t.store.list({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m1' })).items;
    await t.store.updateStatus({
      ...work!,
      status: {
        conditions: [{ type: 'Applied', status: 'True' }],
        manifestStatuses: [{ status: { hard: { cpu: '1' }, used: { cpu: '3' } } }],
      },
    });
    await sync([MEMBER_QUOTA_REPORT_REASON]);
    assert.deepEqual(((await t.store.get(FRQ_REF))?.status as { overallUsed: unknown }).overallUsed, { cpu: '3' });
    await sync(['sync-period']);
    assert.deepEqual(((await t.store.get(FRQ_REF))?.status as { overallUsed: unknown }).overallUsed, { cpu: '3' });
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
