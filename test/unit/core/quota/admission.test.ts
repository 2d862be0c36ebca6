/**
 * FederatedResourceQuota admission of a binding's usage change: Karmada's ResourceBinding validating
 * webhook (`validating.go`, the quota rows of its validating_test.go TestValidatingAdmission_Handle
 * reused with the same bindings, quotas and messages), our deliberate difference (a change that does
 * not raise a resource is never denied) and the #7864 fix (`requests.*`, `limits.*`, `pods` enforced).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admitUsageChange,
  calculateResourceUsage,
  type QuotaAdmission,
  quotaExceededCondition,
  type QuotaUsageView,
  webhookDenialMessage,
} from '../../../../lib/core/quota/index.ts';
import type { ResourceList } from '../../../../lib/core/model/types.ts';
import { component, componentSpec, quota, replicaSpec } from './factories.ts';

const usage = calculateResourceUsage;

/** Karmada's denial for `quota-ns/<name>`. */
function denied(name: string, resource: string, requested: string, limit: string): QuotaAdmission {
  return {
    allowed: false,
    reason: 'QuotaExceeded',
    namespace: 'quota-ns',
    name,
    resource,
    requested,
    limit,
    message: `FederatedResourceQuota(quota-ns/${name}) exceeded for resource ${resource}: requested sum ${requested}, limit ${limit}.`,
  };
}

function allowed(...updates: [name: string, overallUsed: ResourceList][]): QuotaAdmission {
  return {
    allowed: true,
    updates: updates.map(([name, overallUsed]) => ({ namespace: 'quota-ns', name, overallUsed })),
  };
}

const RB_WITH_COMPONENTS = componentSpec(
  [component('comp1', 2, { cpu: '25m' }), component('comp2', 1, { cpu: '30m' })],
  ['m1', 'm2'],
);

describe('admitUsageChange', () => {
  const rows: { name: string; quotas: QuotaUsageView[]; from: ResourceList; to: ResourceList; want: QuotaAdmission }[] =
    [
      // Karmada validating_test.go, TestValidatingAdmission_Handle
      {
        name: 'Karmada "create operation not yet scheduled should be allowed": an unscheduled binding uses nothing',
        quotas: [quota('frq-for-create-unscheduled', { cpu: '200m' }, { cpu: '100m' })],
        from: {},
        to: usage(replicaSpec({ cpu: '100m' })),
        want: allowed(),
      },
      {
        name: 'Karmada "total RB delta is zero should be allowed": 2 × 100m on m2 → 1 × 200m on m1, no update',
        quotas: [quota('frq-fordeltazero', { cpu: '1Gi' })],
        from: usage(replicaSpec({ cpu: '100m' }, { m2: 2 })),
        to: usage(replicaSpec({ cpu: '200m' }, { m1: 1 })),
        want: allowed(),
      },
      {
        name: 'Karmada "no FRQs found should be allowed"',
        quotas: [],
        from: {},
        to: usage(replicaSpec({ cpu: '1' }, { m1: 1 })),
        want: allowed(),
      },
      {
        name: 'Karmada "create quota exceeded should deny": 200m against a 150m limit, exact message',
        quotas: [quota('frq-create-exceeds', { cpu: '150m' }, { cpu: '0m' })],
        from: {},
        to: usage(replicaSpec({ cpu: '200m' }, { m1: 1 })),
        want: denied('frq-create-exceeds', 'cpu', '200m', '150m'),
      },
      {
        name: 'Karmada "update passes quota": 50m → 100m with 100m used of 200m; overallUsed becomes 150m',
        quotas: [quota('frq-update-pass-nondryrun', { cpu: '200m' }, { cpu: '100m' })],
        from: usage(replicaSpec({ cpu: '50m' }, { m1: 1 })),
        to: usage(replicaSpec({ cpu: '100m' }, { m1: 1 })),
        want: allowed(['frq-update-pass-nondryrun', { cpu: '150m' }]),
      },
      {
        name: 'Karmada "update fails quota": 1 × 50m → 2 × 80m is +110m against 100m',
        quotas: [quota('frq-update-fail', { cpu: '100m' }, { cpu: '0m' })],
        from: usage(replicaSpec({ cpu: '50m' }, { m1: 1 })),
        to: usage(replicaSpec({ cpu: '80m' }, { m1: 2 })),
        want: denied('frq-update-fail', 'cpu', '110m', '100m'),
      },
      {
        name: 'Karmada "create with components and sufficient quota (allowed)": 160m of 200m',
        quotas: [quota('frq-components-sufficient', { cpu: '200m' }, { cpu: '0m' })],
        from: {},
        to: usage(RB_WITH_COMPONENTS),
        want: allowed(['frq-components-sufficient', { cpu: '160m' }]),
      },
      {
        name: 'Karmada "create with components and exceeded quota (denied)": 160m against 150m',
        quotas: [quota('frq-components-exceeded', { cpu: '150m' }, { cpu: '0m' })],
        from: {},
        to: usage(RB_WITH_COMPONENTS),
        want: denied('frq-components-exceeded', 'cpu', '160m', '150m'),
      },
      {
        name: 'Karmada "update components passes quota": 1 × 50m → 2 × 40m, 100m + 30m of 200m',
        quotas: [quota('frq-components-pass', { cpu: '200m' }, { cpu: '100m' })],
        from: usage(componentSpec([component('comp-old', 1, { cpu: '50m' })], ['m1'])),
        to: usage(componentSpec([component('comp-new', 2, { cpu: '40m' })], ['m1'])),
        want: allowed(['frq-components-pass', { cpu: '130m' }]),
      },
      {
        name: 'Karmada "update components fails quota": 1 × 50m → 2 × 80m is +110m against 100m',
        quotas: [quota('frq-components-fail', { cpu: '100m' }, { cpu: '0m' })],
        from: usage(componentSpec([component('comp-old', 1, { cpu: '50m' })], ['m1'])),
        to: usage(componentSpec([component('comp-new', 2, { cpu: '80m' })], ['m1'])),
        want: denied('frq-components-fail', 'cpu', '110m', '100m'),
      },
      // Limits and ordering
      {
        name: 'allowed exactly at the limit (Cmp > 0 denies, equal does not)',
        quotas: [quota('team', { cpu: '1' }, { cpu: '400m' })],
        from: {},
        to: { cpu: '600m' },
        want: allowed(['team', { cpu: '1' }]),
      },
      {
        name: 'denied one millicore over the limit, with canonical quantities in the message',
        quotas: [quota('team', { cpu: '1' }, { cpu: '400m' })],
        from: {},
        to: { cpu: '601m' },
        want: denied('team', 'cpu', '1001m', '1'),
      },
      {
        name: 'the limit prints canonically too (a non-canonical 1024Mi prints 1Gi, as Go String())',
        quotas: [quota('team', { memory: '1024Mi' })],
        from: {},
        to: { memory: '2Gi' },
        want: denied('team', 'memory', '2Gi', '1Gi'),
      },
      {
        name: 'resources are checked in name order: cpu is reported before memory',
        quotas: [quota('team', { memory: '1Gi', cpu: '1' })],
        from: {},
        to: { cpu: '2', memory: '2Gi' },
        want: denied('team', 'cpu', '2', '1'),
      },
      {
        name: 'a quota whose keys the change leaves untouched is skipped (no update)',
        quotas: [
          quota('cpu-only', { cpu: '10' }, { cpu: '1' }),
          quota('gpu-only', { 'nvidia.com/gpu': '4' }, { 'nvidia.com/gpu': '1' }),
        ],
        from: { cpu: '1' },
        to: { cpu: '2' },
        want: allowed(['cpu-only', { cpu: '2' }]),
      },
      {
        name: 'a quota without overall keys is skipped (Karmada: no spec.overall)',
        quotas: [quota('empty', {})],
        from: {},
        to: { cpu: '100' },
        want: allowed(),
      },
      {
        name: 'several quotas: all pass ⇒ each is updated, in name order',
        quotas: [quota('b-mem', { memory: '4Gi' }, { memory: '1Gi' }), quota('a-cpu', { cpu: '4' }, { cpu: '1' })],
        from: {},
        to: { cpu: '1', memory: '1Gi' },
        want: allowed(['a-cpu', { cpu: '2' }], ['b-mem', { memory: '2Gi' }]),
      },
      {
        name: 'several quotas: one denies ⇒ the change is refused and no quota is updated',
        quotas: [quota('a-cpu', { cpu: '4' }, { cpu: '1' }), quota('b-mem', { memory: '1Gi' }, { memory: '512Mi' })],
        from: {},
        to: { cpu: '1', memory: '1Gi' },
        want: denied('b-mem', 'memory', '1536Mi', '1Gi'),
      },
      {
        name: 'several quotas that would both deny: the first by name is reported (deterministic)',
        quotas: [quota('zz', { cpu: '1' }), quota('aa', { cpu: '1' })],
        from: {},
        to: { cpu: '2' },
        want: denied('aa', 'cpu', '2', '1'),
      },
      // Our deliberate difference from Karmada
      {
        name: 'difference: a scale-down is allowed even while over a lowered limit (Karmada denies it)',
        quotas: [quota('lowered', { cpu: '1' }, { cpu: '3' })],
        from: { cpu: '2', pods: '2' },
        to: { cpu: '1', pods: '1' },
        want: allowed(['lowered', { cpu: '2' }]),
      },
      {
        name: 'difference: raising memory within its limit is allowed while cpu stays over (Karmada checks every resource)',
        quotas: [quota('lowered', { cpu: '1', memory: '4Gi' }, { cpu: '3', memory: '1Gi' })],
        from: { cpu: '1', memory: '1Gi' },
        to: { cpu: '1', memory: '2Gi' },
        want: allowed(['lowered', { cpu: '3', memory: '2Gi' }]),
      },
      {
        name: 'raising a resource that is already over is still denied',
        quotas: [quota('lowered', { cpu: '1' }, { cpu: '3' })],
        from: { cpu: '1' },
        to: { cpu: '1500m' },
        want: denied('lowered', 'cpu', '3500m', '1'),
      },
      {
        name: 'a release larger than the recorded usage clamps at zero',
        quotas: [quota('drifted', { cpu: '4', memory: '8Gi' }, { cpu: '100m', memory: '1Gi' })],
        from: { cpu: '500m', memory: '512Mi' },
        to: {},
        want: allowed(['drifted', { cpu: '0', memory: '512Mi' }]),
      },
      // #7864 fix and our additions
      {
        name: '#7864 fix: requests.cpu is enforced against the cpu requests',
        quotas: [quota('requests', { 'requests.cpu': '2', 'requests.memory': '4Gi' })],
        from: {},
        to: usage(replicaSpec({ cpu: '1', memory: '1Gi' }, { m1: 3 })),
        want: denied('requests', 'requests.cpu', '3', '2'),
      },
      {
        name: '#7864 fix: limits.memory is enforced against the limit sum',
        quotas: [quota('limits', { 'limits.memory': '1Gi', 'requests.memory': '1Gi' })],
        from: {},
        to: usage(replicaSpec({ memory: '256Mi' }, { m1: 2 }), { replicaLimits: { memory: '1Gi' } }),
        want: denied('limits', 'limits.memory', '2Gi', '1Gi'),
      },
      {
        name: 'limits.cpu without computed limits charges the requests (approximation)',
        quotas: [quota('limits', { 'limits.cpu': '10' }, { 'limits.cpu': '1' })],
        from: {},
        to: usage(replicaSpec({ cpu: '500m' }, { m1: 2 })),
        want: allowed(['limits', { 'limits.cpu': '2' }]),
      },
      {
        name: 'pods is enforced against the pod count (our addition)',
        quotas: [quota('pods', { pods: '5' }, { pods: '4' })],
        from: {},
        to: usage(replicaSpec(undefined, { m1: 1, m2: 1 })),
        want: denied('pods', 'pods', '6', '5'),
      },
      {
        name: 'keys not computable from bindings are not enforced and not written; outside keys are dropped',
        quotas: [quota('mixed', { 'count/deployments.apps': '1', cpu: '4', memory: '1Gi' }, { cpu: '1', stale: '7' })],
        from: {},
        to: { cpu: '1' },
        want: allowed(['mixed', { cpu: '2', memory: '0' }]),
      },
      {
        name: 'a first charge takes the charged format (0 + 512Mi prints 512Mi, Go Add)',
        quotas: [quota('fresh', { memory: '1Gi' })],
        from: {},
        to: { memory: '512Mi' },
        want: allowed(['fresh', { memory: '512Mi' }]),
      },
    ];
  for (const row of rows) {
    it(row.name, () =>
      assert.deepEqual(admitUsageChange({ quotas: row.quotas, from: row.from, to: row.to }), row.want),
    );
  }

  it('a charge reverted (to → from) gives back what it took', () => {
    const quotas = [quota('team', { cpu: '4', pods: '10' }, { cpu: '1', pods: '1' })];
    const from = usage(replicaSpec({ cpu: '100m' }, { m1: 1 }));
    const to = usage(replicaSpec({ cpu: '100m' }, { m1: 5 }));
    const charged = admitUsageChange({ quotas, from, to });
    assert.deepEqual(charged, allowed(['team', { cpu: '1400m', pods: '5' }]));
    const after = [quota('team', { cpu: '4', pods: '10' }, { cpu: '1400m', pods: '5' })];
    assert.deepEqual(
      admitUsageChange({ quotas: after, from: to, to: from }),
      allowed(['team', { cpu: '1', pods: '1' }]),
    );
  });

  it('enforce: false — undoing a give-back whose room was taken since puts the usage back past the limit (simulation seed 1195)', () => {
    // A scale-down gave 2 back (4 → 2), another binding took the room (used 9 of 10), and the
    // scale-down's binding write lost: the members still run 4, so the quota must count it.
    const quotas = [quota('team', { cpu: '10' }, { cpu: '9' })];
    assert.equal(admitUsageChange({ quotas, from: { cpu: '2' }, to: { cpu: '4' } }).allowed, false);
    assert.deepEqual(
      admitUsageChange({ quotas, from: { cpu: '2' }, to: { cpu: '4' }, enforce: false }),
      allowed(['team', { cpu: '11' }]),
    );
  });
});

describe('quotaExceededCondition', () => {
  it('a denial becomes Scheduled=False/QuotaExceeded with the message (Karmada getConditionByError)', () => {
    const denial = admitUsageChange({ quotas: [quota('team', { cpu: '1' })], from: {}, to: { cpu: '2' } });
    assert.ok(!denial.allowed);
    assert.deepEqual(quotaExceededCondition(denial.message), {
      type: 'Scheduled',
      status: 'False',
      reason: 'QuotaExceeded',
      message: 'FederatedResourceQuota(quota-ns/team) exceeded for resource cpu: requested sum 2, limit 1.',
    });
  });

  it("Karmada's condition message is the apiserver's wrapping of the webhook denial", () => {
    assert.equal(
      webhookDenialMessage('FederatedResourceQuota(ns/q) exceeded for resource cpu: requested sum 2, limit 1.'),
      'admission webhook "resourcebinding.karmada.io" denied the request: FederatedResourceQuota(ns/q) exceeded for resource cpu: requested sum 2, limit 1.',
    );
  });
});
