/**
 * The WorkloadRebalancer decision (Karmada `pkg/controllers/workloadrebalancer/workloadrebalancer_controller.go`
 * and its `_test.go`): which bindings get `spec.rescheduleTriggeredAt`, the status written, and when the
 * rebalancer is deleted. Each row names the Karmada behaviour it pins.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatKey, refOf } from '../../../../lib/api/object.ts';
import type { ResourceBinding } from '../../../../lib/core/model/types.ts';
import {
  decideRebalance,
  needTriggerReschedule,
  type ObservedWorkload,
  type RebalanceDecision,
  type RebalancerCleanup,
  rebalancerBindingRefs,
  type WorkloadRebalancer,
} from '../../../../lib/core/rebalancer/index.ts';
import { at, bindingOf, notFound, ok, rebalancerFactory, T0, workload } from './fixtures.ts';

const web = workload('web');
const api = workload('api');
const db = workload('db');
const role = workload('system:reader', {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  namespace: '',
});

const NOW = T0 + 30_000;

function decide(rebalancer: WorkloadRebalancer, bindings: ResourceBinding[], nowMs = NOW): RebalanceDecision {
  return decideRebalance({
    rebalancer,
    bindings: new Map(bindings.map((b) => [formatKey(refOf(b)), b])),
    nowMs,
  });
}

/** `(binding name, rescheduleTriggeredAt)` of each binding written. */
const stamped = (d: RebalanceDecision) =>
  d.bindingUpdates.map((b) => [b.kind, b.metadata.name, b.spec.rescheduleTriggeredAt] as const);

describe('needTriggerReschedule (Karmada: nil, or older than the rebalancer’s creationTimestamp)', () => {
  const rows: { name: string; triggeredAt: string | undefined; want: boolean }[] = [
    { name: 'no trigger yet: trigger', triggeredAt: undefined, want: true },
    { name: 'an older trigger (an earlier rebalancer): trigger', triggeredAt: at(-60), want: true },
    {
      name: 'this rebalancer’s own trigger: not again (creationTimestamp.After is strict)',
      triggeredAt: at(0),
      want: false,
    },
    { name: 'a newer trigger (a later rebalancer): left as it is', triggeredAt: at(60), want: false },
    { name: 'compared as instants, not as text', triggeredAt: '2026-05-01T11:59:00+02:00', want: true },
    { name: 'a trigger that does not parse is replaced', triggeredAt: 'yesterday', want: true },
  ];
  for (const row of rows) {
    it(row.name, () => assert.equal(needTriggerReschedule(at(0), row.triggeredAt), row.want));
  }
});

describe('decideRebalance: which bindings get the trigger (triggerReschedule)', () => {
  const rows: {
    name: string;
    rebalancer: WorkloadRebalancer;
    bindings: ResourceBinding[];
    want: { stamped: (readonly [string, string | undefined, string | undefined])[]; observed: ObservedWorkload[] };
  }[] = [
    {
      name: 'a pending workload whose binding has no trigger: stamped with the rebalancer’s creationTimestamp, Successful',
      rebalancer: rebalancerFactory([web]),
      bindings: [bindingOf(web)],
      want: { stamped: [['ResourceBinding', 'web-deployment', at(0)]], observed: [ok(web)] },
    },
    {
      name: 'a binding with an older trigger is stamped again',
      rebalancer: rebalancerFactory([web]),
      bindings: [bindingOf(web, at(-3600))],
      want: { stamped: [['ResourceBinding', 'web-deployment', at(0)]], observed: [ok(web)] },
    },
    {
      name: 'a binding already carrying a newer trigger is not written, and the workload is still Successful',
      rebalancer: rebalancerFactory([web]),
      bindings: [bindingOf(web, at(60))],
      want: { stamped: [], observed: [ok(web)] },
    },
    {
      name: 'a binding not found: Failed with reason ReferencedBindingNotFound (pendingRebalancer row)',
      rebalancer: rebalancerFactory([api, web]),
      bindings: [bindingOf(web)],
      want: { stamped: [['ResourceBinding', 'web-deployment', at(0)]], observed: [notFound(api), ok(web)] },
    },
    {
      name: 'a Successful workload is not triggered again, its binding not even read (succeedRebalancer row)',
      rebalancer: rebalancerFactory([web], { status: { observedWorkloads: [ok(web)] } }),
      bindings: [],
      want: { stamped: [], observed: [ok(web)] },
    },
    {
      name: 'a Failed workload is not retried, even once its binding exists (notFoundRebalancer row)',
      rebalancer: rebalancerFactory([web], { status: { observedWorkloads: [notFound(web)] } }),
      bindings: [bindingOf(web)],
      want: { stamped: [], observed: [notFound(web)] },
    },
    {
      name: 'an entry without a result (a retried failure) is rebalanced (failedRebalancer row)',
      rebalancer: rebalancerFactory([web], { status: { observedWorkloads: [{ workload: web }] } }),
      bindings: [bindingOf(web)],
      want: { stamped: [['ResourceBinding', 'web-deployment', at(0)]], observed: [ok(web)] },
    },
    {
      name: 'a cluster-scoped workload maps to its ClusterResourceBinding, `:` in the name as `.` (cluster-wide row)',
      rebalancer: rebalancerFactory([role]),
      bindings: [bindingOf(role)],
      want: { stamped: [['ClusterResourceBinding', 'system.reader-clusterrole', at(0)]], observed: [ok(role)] },
    },
    {
      name: 'the binding name ignores the API version: two versions of one Deployment write its binding once',
      rebalancer: rebalancerFactory([web, workload('web', { apiVersion: 'apps/v1beta1' })]),
      bindings: [bindingOf(web)],
      want: {
        stamped: [['ResourceBinding', 'web-deployment', at(0)]],
        observed: [ok(web), ok(workload('web', { apiVersion: 'apps/v1beta1' }))],
      },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const d = decide(row.rebalancer, row.bindings);
      assert.deepEqual(stamped(d), row.want.stamped);
      assert.deepEqual(d.status.observedWorkloads, row.want.observed);
    });
  }

  it('the written binding keeps everything else it had (only spec.rescheduleTriggeredAt changes)', () => {
    const binding = bindingOf(web);
    const [written] = decide(rebalancerFactory([web]), [binding]).bindingUpdates;
    assert.deepEqual(written, { ...binding, spec: { ...binding.spec, rescheduleTriggeredAt: at(0) } });
  });

  it('outcomes say what happened to each pending workload (Triggered, AlreadyTriggered, BindingNotFound)', () => {
    const d = decide(rebalancerFactory([web, api, db]), [bindingOf(web), bindingOf(db, at(60))]);
    assert.deepEqual(
      d.outcomes.map((o) => [o.workload.name, o.outcome, o.binding.name]),
      [
        ['api', 'BindingNotFound', 'api-deployment'],
        ['db', 'AlreadyTriggered', 'db-deployment'],
        ['web', 'Triggered', 'web-deployment'],
      ],
    );
  });

  it('throws on a rebalancer without creationTimestamp (the store always sets it: a bug)', () => {
    const r = rebalancerFactory([web]);
    delete r.metadata.creationTimestamp;
    assert.throws(() => decide(r, [bindingOf(web)]), /no creationTimestamp/);
  });
});

describe('decideRebalance: the status (observedWorkloads, observedGeneration, finishTime)', () => {
  it('observedWorkloads sorted by "apiVersion kind namespace name" whatever the spec order; observedGeneration is the generation', () => {
    const d = decide(rebalancerFactory([web, db, api], { generation: 3 }), [
      bindingOf(web),
      bindingOf(db),
      bindingOf(api),
    ]);
    assert.deepEqual(d.status, {
      observedWorkloads: [ok(api), ok(db), ok(web)],
      observedGeneration: 3,
      finishTime: at(30),
    });
    assert.equal(d.statusChanged, true);
  });

  it('finishTime is set when the status changes and every workload has a result (retryNum = 0)', () => {
    const d = decide(rebalancerFactory([web]), []);
    assert.equal(d.status.finishTime, at(30));
  });

  it('an unchanged status is not written and keeps its finishTime (reflect.DeepEqual except finishTime)', () => {
    const status = { observedWorkloads: [ok(web)], observedGeneration: 1, finishTime: at(5) };
    const d = decide(rebalancerFactory([web], { status }), []);
    assert.equal(d.statusChanged, false);
    assert.deepEqual(d.status, status);
    assert.deepEqual(d.bindingUpdates, []);
  });

  it('empty fields compare as absent (omitempty): a namespace "" and a missing one are the same workload', () => {
    const stored = { ...role, namespace: '' };
    const status = { observedWorkloads: [{ workload: stored, result: 'Successful' as const, reason: '' as never }] };
    const d = decide(
      rebalancerFactory([role], { status: { ...status, observedGeneration: 1, finishTime: at(5) } }),
      [],
    );
    assert.equal(d.statusChanged, false);
  });

  it('spec edited (generation 2): a removed Successful workload stays, a removed Failed one drops out, a new one is rebalanced, finishTime moves (modifiedRebalancer row)', () => {
    const r = rebalancerFactory([db], {
      generation: 2,
      status: { observedWorkloads: [notFound(api), ok(web)], observedGeneration: 1, finishTime: at(-600) },
    });
    const d = decide(r, [bindingOf(db)]);
    assert.deepEqual(stamped(d), [['ResourceBinding', 'db-deployment', at(0)]]);
    assert.deepEqual(d.status, { observedWorkloads: [ok(db), ok(web)], observedGeneration: 2, finishTime: at(30) });
  });

  it('only the order of spec.workloads changed (generation 2): nothing is rebalanced again, observedGeneration and finishTime move', () => {
    const r = rebalancerFactory([web, api], {
      generation: 2,
      status: { observedWorkloads: [ok(api), ok(web)], observedGeneration: 1, finishTime: at(5) },
    });
    const d = decide(r, []);
    assert.deepEqual(d.bindingUpdates, []);
    assert.deepEqual(d.status, { observedWorkloads: [ok(api), ok(web)], observedGeneration: 2, finishTime: at(30) });
  });

  it('deliberate: a stored status complete but without finishTime gets one (Karmada fails its TTL check on it forever)', () => {
    const d = decide(
      rebalancerFactory([web], { ttl: 60, status: { observedWorkloads: [ok(web)], observedGeneration: 1 } }),
      [],
    );
    assert.equal(d.statusChanged, true);
    assert.equal(d.status.finishTime, at(30));
    assert.deepEqual(d.cleanup, { action: 'Wait', atMs: T0 + 90_000 });
  });
});

describe('decideRebalance: ttlSecondsAfterFinished (Karmada timeLeft: requeue while > 0, else delete)', () => {
  const finished = { observedWorkloads: [ok(web)], observedGeneration: 1, finishTime: at(0) };
  const rows: { name: string; ttl: number | undefined; nowMs: number; fresh?: boolean; want: RebalancerCleanup }[] = [
    { name: 'no TTL: kept until someone deletes it', ttl: undefined, nowMs: T0 + 86_400_000, want: { action: 'Keep' } },
    {
      name: 'before finishTime + ttl: come back then',
      ttl: 60,
      nowMs: T0 + 59_000,
      want: { action: 'Wait', atMs: T0 + 60_000 },
    },
    { name: 'at finishTime + ttl: deleted', ttl: 60, nowMs: T0 + 60_000, want: { action: 'Delete' } },
    { name: 'after finishTime + ttl: deleted', ttl: 60, nowMs: T0 + 3_600_000, want: { action: 'Delete' } },
    {
      name: 'ttl 0: deleted in the pass that finishes it',
      ttl: 0,
      nowMs: NOW,
      fresh: true,
      want: { action: 'Delete' },
    },
    {
      name: 'the TTL counts from the finishTime this pass sets, not the creation',
      ttl: 60,
      nowMs: NOW,
      fresh: true,
      want: { action: 'Wait', atMs: NOW + 60_000 },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const r = rebalancerFactory([web], {
        ...(row.ttl !== undefined ? { ttl: row.ttl } : {}),
        ...(row.fresh ? {} : { status: finished }),
      });
      assert.deepEqual(decide(r, [bindingOf(web)], row.nowMs).cleanup, row.want);
    });
  }
});

describe('rebalancerBindingRefs: what to read before deciding', () => {
  it('the bindings of the workloads still without a result, once each, in the status order', () => {
    const r = rebalancerFactory([web, workload('web', { apiVersion: 'apps/v1beta1' }), api, role, db], {
      status: { observedWorkloads: [ok(api), notFound(db)] },
    });
    assert.deepEqual(rebalancerBindingRefs(r).map(formatKey), [
      'ResourceBinding.work.karmada.io/default/web-deployment',
      'ClusterResourceBinding.work.karmada.io/system.reader-clusterrole',
    ]);
  });

  it('none for a finished rebalancer (a resync of it reads no binding)', () => {
    assert.deepEqual(rebalancerBindingRefs(rebalancerFactory([web], { status: { observedWorkloads: [ok(web)] } })), []);
  });
});
