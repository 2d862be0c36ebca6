/**
 * The application failover controller over an in-memory store on a virtual clock: what it stores,
 * writes, tells and enqueues when a copy of a workload stays Unhealthy — each row names the Karmada
 * behaviour it pins (reference §2.7, A.9) or the rule here that differs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_FAILOVER_SETTINGS } from '../../../lib/config/failover.ts';
import {
  APPLICATION_HEALTH_TIMER,
  createApplicationFailoverController,
  healthTimerRefOf,
} from '../../../lib/controllers/application-failover.ts';
import { CLUSTER_RESERVATION, LEDGER_NAME } from '../../../lib/controllers/reservations.ts';
import {
  APPLICATION_FAILOVER_CONTROLLER_NAME,
  BINDER_CONTROLLER_NAME,
  EVICTION_CONTROLLER_NAME,
  SCHEDULER_CONTROLLER_NAME,
} from '../../../lib/controllers/specs.ts';
import type { Cluster, ResourceBinding } from '../../../lib/core/model/types.ts';
import { bindingFactory, clusterFactory, summary } from '../core/scheduler/fixtures.ts';
import type { ObjectStore } from '../../../lib/store/port.ts';
import { keyOf, refOf, world } from './placement-harness.ts';

function member(name: string): Cluster {
  const c = clusterFactory(name, { resourceSummary: summary({ cpu: '10', memory: '1Ti' }) });
  return {
    ...c,
    status: {
      ...c.status,
      conditions: [
        ...(c.status?.conditions ?? []),
        { type: 'Ready', status: 'True', lastTransitionTime: '2026-11-21T09:00:00Z' },
      ],
    },
  };
}

/** A Duplicated Deployment binding on `clusters` with failover.application and the given health per cluster. */
function watched(
  health: Record<string, string>,
  application: Record<string, unknown> = { decisionConditions: { tolerationSeconds: 60 }, purgeMode: 'Directly' },
  extra: Partial<ResourceBinding['spec']> = {},
): ResourceBinding {
  const clusters = Object.keys(health).map((name) => ({ name, replicas: 1 }));
  const b = bindingFactory('web', {
    request: { cpu: '1' },
    replicas: 1,
    clusters,
    placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
    status: {
      schedulerObservedGeneration: 1,
      conditions: [{ type: 'Scheduled', status: 'True' }],
      aggregatedStatus: Object.entries(health).map(([clusterName, h]) => ({
        clusterName,
        applied: true,
        health: h,
        status: { availableReplicas: h === 'Healthy' ? 1 : 0 },
      })),
    },
  });
  return { ...b, spec: { ...b.spec, propagateDeps: true, failover: { application }, ...extra } } as ResourceBinding;
}

function setup() {
  const w = world();
  /** A controller as a new execution environment builds it (over `store`, by default the world's). */
  const controllerOver = (store: ObjectStore = w.store) =>
    createApplicationFailoverController({
      store,
      workQueue: w.queue,
      events: w.events,
      settings: DEFAULT_FAILOVER_SETTINGS,
    });
  const controller = controllerOver();
  const counted: string[] = [];
  async function reconcile(key: string) {
    const batch = await controller.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys: [key] });
    return controller.reconcile(
      { key, lane: 'priority', reasons: [] },
      { ...w.context(batch), count: (m, n = 1) => counted.push(...Array<string>(n).fill(m)) },
    );
  }
  const read = async (b: ResourceBinding) => (await w.store.get(refOf(b))) as ResourceBinding;
  const timers = async (b: ResourceBinding) =>
    (await w.store.get(healthTimerRefOf(refOf(b))))?.spec as { unhealthySince?: Record<string, string> } | undefined;
  return { ...w, controller, controllerOver, reconcile, read, timers, counted };
}

const condition = (b: ResourceBinding) => b.status?.conditions?.find((c) => c.type === 'ApplicationFailover');

describe('application failover controller', () => {
  it('first Unhealthy status: the window is stored, explained, and a timer is armed for its end', async () => {
    const t = setup();
    await t.seed(member('member1'));
    await t.seed(member('member2'));
    const b = await t.seed(watched({ member1: 'Healthy', member2: 'Unhealthy' }));
    const result = await t.reconcile(keyOf(b));
    assert.deepEqual(result, { requeueAfterMs: 60_000, requeueLane: 'priority' });
    assert.deepEqual(Object.keys((await t.timers(b))?.unhealthySince ?? {}), ['member2']);
    const c = condition(await t.read(b));
    assert.equal(c?.reason, 'WorkloadUnhealthy');
    assert.match(c?.message ?? '', /member2/);
    assert.ok(t.events.events.some((e) => e.reason === 'ApplicationUnhealthy' && /member2/.test(e.message)));
    assert.deepEqual((await t.read(b)).spec.clusters?.length, 2, 'nothing evicted yet');
    assert.deepEqual(t.counted, ['ApplicationUnhealthyWindows']);
  });

  it('a restart in the window (a new controller, no memory) does not restart it: evicted on time', async () => {
    const t = setup();
    await t.seed(member('member1'));
    await t.seed(member('member2'));
    await t.seed(member('member3'));
    const b = await t.seed(watched({ member1: 'Healthy', member2: 'Unhealthy' }));
    await t.reconcile(keyOf(b));
    await t.clock.advance(40_000);
    const fresh = t.controllerOver();
    const again = await fresh.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, t.context());
    assert.deepEqual(again, { requeueAfterMs: 20_000, requeueLane: 'priority' }, 'the stored window goes on');
    await t.clock.advance(20_000);
    t.queue.items.length = 0;
    await fresh.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, t.context());
    const after = await t.read(b);
    assert.deepEqual(
      after.spec.clusters?.map((c) => c.name),
      ['member1'],
    );
    const task = after.spec.gracefulEvictionTasks?.[0];
    assert.deepEqual(
      [task?.fromCluster, task?.reason, task?.producer, task?.purgeMode],
      ['member2', 'ApplicationFailure', 'resource-binding-application-failover-controller', 'Directly'],
    );
    assert.deepEqual(
      t.queue.items.map((i) => i.controller).sort(),
      [BINDER_CONTROLLER_NAME, EVICTION_CONTROLLER_NAME, SCHEDULER_CONTROLLER_NAME].sort(),
    );
    assert.ok(t.events.events.some((e) => e.reason === 'EvictWorkloadFromClusterSucceed' && /member2/.test(e.message)));
    assert.equal(await t.timers(b), undefined, 'no window left: the timer object is gone');
  });

  it('the eviction loses a race with a status write: the window is kept, not started again', async () => {
    const t = setup();
    await t.seed(member('member1'));
    await t.seed(member('member2'));
    await t.seed(member('member3'));
    const b = await t.seed(watched({ member1: 'Healthy', member2: 'Unhealthy' }));
    await t.reconcile(keyOf(b));
    const since = (await t.timers(b))?.unhealthySince?.['member2'];
    await t.clock.advance(60_000);
    // Between the controller's read and its write, the status controller writes the binding.
    let raced = false;
    const racing = new Proxy(t.store, {
      get(target, prop, receiver) {
        if (prop === 'updateWithStatus' && !raced) {
          return async (obj: ResourceBinding) => {
            raced = true;
            const current = await t.read(obj);
            await target.updateStatus({ ...current, status: { ...current.status, observedGeneration: 7 } });
            return target.updateWithStatus(obj);
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const controller = t.controllerOver(racing);
    const lost = await controller.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, t.context());
    assert.ok(raced);
    assert.deepEqual(lost, { requeueAfterMs: 0 }, 'tried again at once');
    assert.equal((await t.read(b)).spec.clusters?.length, 2, 'nothing evicted by the losing write');
    assert.equal((await t.timers(b))?.unhealthySince?.['member2'], since, 'the window is where it was');
    await t.clock.advance(1_000);
    await controller.reconcile({ key: keyOf(b), lane: 'priority', reasons: [] }, t.context());
    const after = await t.read(b);
    assert.deepEqual(
      after.spec.clusters?.map((c) => c.name),
      ['member1'],
    );
    assert.match(
      after.spec.gracefulEvictionTasks?.[0]?.message ?? '',
      new RegExp(`Unhealthy since ${since!.slice(0, 19)}Z`),
    );
    assert.equal(await t.timers(b), undefined, 'the eviction is written: the window is gone');
  });

  it('Healthy again inside the window: the window ends, nothing evicted, the recovery is told', async () => {
    const t = setup();
    await t.seed(member('member1'));
    await t.seed(member('member2'));
    const b = await t.seed(watched({ member1: 'Healthy', member2: 'Unhealthy' }));
    await t.reconcile(keyOf(b));
    const current = await t.read(b);
    await t.store.updateStatus({
      ...current,
      status: {
        ...current.status,
        aggregatedStatus: current.status!.aggregatedStatus!.map((s) => ({ ...s, health: 'Healthy' })),
      },
    });
    await t.clock.advance(90_000);
    const result = await t.reconcile(keyOf(b));
    assert.equal(result, undefined);
    assert.equal((await t.read(b)).spec.clusters?.length, 2);
    assert.equal(condition(await t.read(b))?.reason, 'Watching');
    assert.ok(t.events.events.some((e) => e.reason === 'ApplicationRecovered'));
  });

  it('Never: the old copy is kept with suppressDeletion; Gracefully: gracePeriodSeconds', async () => {
    for (const [purgeMode, check] of [
      ['Never', (task: Record<string, unknown>) => assert.equal(task.suppressDeletion, true)],
      ['Gracefully', (task: Record<string, unknown>) => assert.equal(task.gracePeriodSeconds, 30)],
    ] as const) {
      const t = setup();
      await t.seed(member('member1'));
      await t.seed(member('member2'));
      const b = await t.seed(
        watched(
          { member1: 'Healthy', member2: 'Unhealthy' },
          { decisionConditions: { tolerationSeconds: 0 }, purgeMode, gracePeriodSeconds: 30 },
        ),
      );
      await t.reconcile(keyOf(b));
      const task = (await t.read(b)).spec.gracefulEvictionTasks?.[0] as Record<string, unknown> | undefined;
      assert.ok(task, `${purgeMode}: evicted at once with tolerationSeconds 0`);
      check(task);
    }
  });

  it('propagateDeps false: not watched, and the condition and a warning say why (Karmada is silent)', async () => {
    const t = setup();
    await t.seed(member('member1'));
    const b = await t.seed(watched({ member1: 'Unhealthy' }, undefined, { propagateDeps: false }));
    const result = await t.reconcile(keyOf(b));
    assert.equal(result, undefined);
    const c = condition(await t.read(b));
    assert.deepEqual([c?.status, c?.reason], ['False', 'PropagateDepsDisabled']);
    assert.ok(t.events.events.some((e) => e.reason === 'ApplicationFailoverInactive' && e.type === 'Warning'));
    assert.equal(await t.timers(b), undefined);
  });

  it('a kind without a health rule: inactive with NoHealthInterpretation', async () => {
    const t = setup();
    await t.seed(member('member1'));
    const base = watched({ member1: 'Unhealthy' });
    const b = await t.seed({
      ...base,
      spec: { ...base.spec, resource: { ...base.spec.resource, apiVersion: 'batch/v1', kind: 'Job' } },
    });
    await t.reconcile(keyOf(b));
    assert.equal(condition(await t.read(b))?.reason, 'NoHealthInterpretation');
  });

  it('the last copy with nowhere to go: held, said in the condition, not evicted', async () => {
    const t = setup();
    await t.seed(member('member2'));
    const b = await t.seed(
      watched({ member2: 'Unhealthy' }, { decisionConditions: { tolerationSeconds: 0 }, purgeMode: 'Directly' }),
    );
    await t.reconcile(keyOf(b));
    const after = await t.read(b);
    assert.deepEqual(
      after.spec.clusters?.map((c) => c.name),
      ['member2'],
    );
    assert.equal(condition(after)?.reason, 'EvictionHeld');
    assert.ok(t.events.events.some((e) => e.reason === 'EvictionHeld'));
  });

  // The replacement is weighed on the fleet as the scheduler sees it, the capacity its ledger promised
  // moments ago included (simulation seed 4: without it, a last copy was evicted onto room another
  // binding had just been given, and the scheduler then placed it nowhere).
  for (const row of [
    {
      name: 'the only other cluster’s CPUs reserved in the ledger: held (simulation seed 4)',
      reserved: 10,
      held: true,
    },
    { name: 'the same fleet with nothing reserved: evicted, a replacement fits', reserved: 0, held: false },
  ]) {
    it(`the last copy's replacement and the scheduler's reservations — ${row.name}`, async () => {
      const t = setup();
      await t.seed(member('member1'));
      await t.seed(member('member2'));
      if (row.reserved > 0) {
        const bucket = String(Math.floor(t.clock.now() / 10_000) * 10_000);
        await t.seed({
          apiVersion: `${CLUSTER_RESERVATION.group}/v1`,
          kind: CLUSTER_RESERVATION.kind,
          metadata: { name: LEDGER_NAME },
          spec: {
            buckets: {
              [bucket]: { member1: { pods: row.reserved, resources: { cpu: row.reserved * 1000 }, basePods: 0 } },
            },
          },
        });
      }
      // Divided (capacity-checked; a Duplicated placement's estimate is not consulted).
      const b = await t.seed(
        watched(
          { member2: 'Unhealthy' },
          { decisionConditions: { tolerationSeconds: 0 }, purgeMode: 'Directly' },
          {
            placement: {
              replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
            },
          },
        ),
      );
      await t.reconcile(keyOf(b));
      const after = await t.read(b);
      assert.deepEqual(
        after.spec.clusters?.map((c) => c.name),
        row.held ? ['member2'] : [],
      );
      assert.equal(condition(after)?.reason === 'EvictionHeld', row.held);
    });
  }

  it('failover.application removed, or the binding gone: windows and the condition are cleaned up', async () => {
    const t = setup();
    await t.seed(member('member1'));
    await t.seed(member('member2'));
    const b = await t.seed(watched({ member1: 'Healthy', member2: 'Unhealthy' }));
    await t.reconcile(keyOf(b));
    const current = await t.read(b);
    const { failover: _dropped, ...rest } = current.spec;
    await t.store.update({ ...current, spec: rest });
    await t.reconcile(keyOf(b));
    assert.equal(await t.timers(b), undefined);
    assert.equal(condition(await t.read(b)), undefined);
    assert.equal(APPLICATION_HEALTH_TIMER.kind, 'ApplicationHealthTimer');
    assert.equal(APPLICATION_FAILOVER_CONTROLLER_NAME, 'application-failover');
  });

  it('the binding deleted: its stored windows are deleted too', async () => {
    const t = setup();
    await t.seed(member('member1'));
    await t.seed(member('member2'));
    const b = await t.seed(watched({ member1: 'Healthy', member2: 'Unhealthy' }));
    await t.reconcile(keyOf(b));
    assert.ok(await t.timers(b));
    await t.store.delete(refOf(b));
    await t.reconcile(keyOf(b));
    assert.equal(await t.timers(b), undefined);
  });

  it('a binding that never opted in (the resync sends every binding): not even read further', async () => {
    const t = setup();
    await t.seed(member('member1'));
    const base = watched({ member1: 'Unhealthy' });
    const { failover: _none, ...spec } = base.spec;
    const b = await t.seed({ ...base, spec });
    t.store.reset();
    assert.equal(await t.reconcile(keyOf(b)), undefined);
    assert.deepEqual(t.store.writes, []);
    assert.equal(condition(await t.read(b)), undefined);
  });

  it('nothing changed: no write at all', async () => {
    const t = setup();
    await t.seed(member('member1'));
    const b = await t.seed(watched({ member1: 'Healthy' }));
    await t.reconcile(keyOf(b));
    t.store.reset();
    await t.reconcile(keyOf(b));
    assert.deepEqual(t.store.writes, []);
  });
});
