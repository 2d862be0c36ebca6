/**
 * A ResourceBinding as its namespace's quotas see it: what it was charged, what its spec uses, whether
 * a placement is admitted or its spec covered, and the marks written with a placement. Karmada keeps
 * no charge on the binding (its webhook recomputes the old usage from the old object); rows name the
 * behaviour they pin, ours or Karmada's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import {
  QUOTA_CHARGED_ANNOTATION,
  RENDERED_GENERATION_ANNOTATION,
  REPLICA_LIMITS_ANNOTATION,
} from '../../../../lib/api/well-known.ts';
import type { ResourceBinding, ResourceList } from '../../../../lib/core/model/types.ts';
import {
  chargeCovers,
  chargedSurplus,
  chargedUsageOf,
  chargeUntilRendered,
  placementAdmitted,
  releasableSurplus,
  renderedMark,
  quotaUsageView,
  usageOf,
  wasHeldForQuota,
  withChargedUsage,
  withRenderedGeneration,
} from '../../../../lib/core/quota/index.ts';
import { bindingFactory } from '../scheduler/fixtures.ts';

/** Two one-cpu replicas on m1, with the given annotations. */
function rb(annotations: Record<string, string> = {}, replicas = 2, cpu = '1'): ResourceBinding {
  const b = bindingFactory('web', {
    request: { cpu },
    replicas,
    clusters: [{ name: 'm1', replicas }],
  });
  return { ...b, metadata: { ...b.metadata, annotations } };
}

const charged = (usage: ResourceList) => ({ [QUOTA_CHARGED_ANNOTATION]: JSON.stringify(usage) });

function frq(overall: ResourceList, overallUsed?: ResourceList): KubeObject {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { name: 'team', namespace: 'default' },
    spec: { overall },
    ...(overallUsed ? { status: { overallUsed } } : {}),
  };
}

describe('quotaUsageView', () => {
  it('spec.overall and status.overallUsed of the object; a quota never synced has used nothing', () => {
    assert.deepEqual(quotaUsageView(frq({ cpu: '4' }, { cpu: '1' })), {
      namespace: 'default',
      name: 'team',
      overall: { cpu: '4' },
      overallUsed: { cpu: '1' },
    });
    assert.deepEqual(quotaUsageView(frq({ cpu: '4' })).overallUsed, {});
  });
});

describe('usageOf', () => {
  const rows: { name: string; binding: ResourceBinding; want: ResourceList }[] = [
    {
      name: "Karmada's CalculateResourceUsage of the spec: request × scheduled replicas (plus our pods)",
      binding: rb(),
      want: { cpu: '2', pods: '2' },
    },
    {
      name: 'ours: the per-replica limits the detector recorded give limits.* entries',
      binding: rb({ [REPLICA_LIMITS_ANNOTATION]: JSON.stringify({ cpu: '1500m' }) }),
      want: { cpu: '2', 'limits.cpu': '3', pods: '2' },
    },
    {
      name: 'mangled limits are ignored (no limits.* entries), never a failure',
      binding: rb({ [REPLICA_LIMITS_ANNOTATION]: '{not json' }),
      want: { cpu: '2', pods: '2' },
    },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(usageOf(row.binding, row.binding.spec), row.want));
});

describe('chargedUsageOf', () => {
  const rows: { name: string; binding: ResourceBinding; want: ResourceList }[] = [
    {
      name: 'ours: what was charged with the placement, even when the spec has moved on since',
      binding: rb(charged({ cpu: '1', pods: '1' }), 5),
      want: { cpu: '1', pods: '1' },
    },
    {
      name: 'a binding given back on deletion is charged nothing ({})',
      binding: rb(charged({})),
      want: {},
    },
    {
      name: "placed before its namespace had a quota (no record): Karmada's usage of its spec",
      binding: rb(),
      want: { cpu: '2', pods: '2' },
    },
    {
      name: "a mangled record counts as none: Karmada's usage of its spec",
      binding: rb({ [QUOTA_CHARGED_ANNOTATION]: '[1,2]' }),
      want: { cpu: '2', pods: '2' },
    },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(chargedUsageOf(row.binding), row.want));
});

describe('chargeCovers', () => {
  const rows: { name: string; binding: ResourceBinding; want: boolean }[] = [
    { name: 'charged exactly what the spec uses: covered', binding: rb(charged({ cpu: '2', pods: '2' })), want: true },
    {
      name: 'replicas raised, not charged yet: not covered (the binder does not roll it out)',
      binding: rb(charged({ cpu: '2', pods: '2' }), 3),
      want: false,
    },
    {
      name: 'requests raised, not charged yet: not covered',
      binding: rb(charged({ cpu: '2', pods: '2' }), 2, '1500m'),
      want: false,
    },
    {
      name: 'usage lowered: covered (a decrease waits for no charge)',
      binding: rb(charged({ cpu: '2', pods: '2' }), 1),
      want: true,
    },
    { name: 'never charged (no quota in the namespace then): covered', binding: rb(), want: true },
  ];
  for (const row of rows) it(row.name, () => assert.equal(chargeCovers(row.binding), row.want));
});

describe('placementAdmitted', () => {
  const placed = rb(charged({ cpu: '2', pods: '2' }));
  const rows: {
    name: string;
    clusters: ResourceBinding['spec']['clusters'];
    quotas: KubeObject[];
    want: boolean;
  }[] = [
    {
      name: 'moving the same replicas to another cluster costs nothing more: admitted',
      clusters: [{ name: 'm2', replicas: 2 }],
      quotas: [frq({ cpu: '3' }, { cpu: '2' })],
      want: true,
    },
    {
      name: "two more cpus than charged over a limit of 3 (Karmada's webhook denial): not admitted",
      clusters: [
        { name: 'm2', replicas: 2 },
        { name: 'm3', replicas: 2 },
      ],
      quotas: [frq({ cpu: '3' }, { cpu: '2' })],
      want: false,
    },
    {
      name: 'ours: fewer replicas are admitted even over a lowered limit (Karmada denies)',
      clusters: [{ name: 'm2', replicas: 1 }],
      quotas: [frq({ cpu: '1' }, { cpu: '2' })],
      want: true,
    },
    {
      name: 'no quota in the namespace: admitted',
      clusters: [{ name: 'm2', replicas: 9 }],
      quotas: [],
      want: true,
    },
  ];
  for (const row of rows)
    it(row.name, () => assert.equal(placementAdmitted(placed, row.clusters, row.quotas), row.want));
});

describe('withChargedUsage and wasHeldForQuota', () => {
  it('the charge is recorded as canonical JSON (sorted keys), other annotations kept', () => {
    const b = withChargedUsage(rb({ keep: 'me' }), { pods: '2', cpu: '2' });
    assert.deepEqual(b.metadata.annotations, { keep: 'me', [QUOTA_CHARGED_ANNOTATION]: '{"cpu":"2","pods":"2"}' });
    assert.deepEqual(chargedUsageOf(b), { cpu: '2', pods: '2' });
  });

  const rows: { name: string; conditions: NonNullable<ResourceBinding['status']>['conditions']; want: boolean }[] = [
    {
      name: "Karmada's QuotaExceeded on Scheduled=False: held for quota",
      conditions: [{ type: 'Scheduled', status: 'False', reason: 'QuotaExceeded', message: 'm' }],
      want: true,
    },
    {
      name: 'Scheduled=False for another reason (no cluster fits): not held for quota',
      conditions: [{ type: 'Scheduled', status: 'False', reason: 'NoClusterFit', message: 'm' }],
      want: false,
    },
    {
      name: 'scheduled: not held',
      conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success', message: 'm' }],
      want: false,
    },
    { name: 'no conditions yet: not held', conditions: undefined, want: false },
  ];
  for (const row of rows)
    it(row.name, () => {
      const b = rb();
      assert.equal(wasHeldForQuota({ ...b, status: row.conditions ? { conditions: row.conditions } : {} }), row.want);
    });
});

describe('chargeUntilRendered: an increase is charged at once, a decrease stays charged until rendered (simulation seed 962)', () => {
  const rows: { name: string; from: ResourceList; to: ResourceList; want: ResourceList }[] = [
    { name: 'scale-up: the new usage', from: { cpu: '2' }, to: { cpu: '3' }, want: { cpu: '3' } },
    { name: 'scale-down: the old usage stays charged', from: { cpu: '3' }, to: { cpu: '1' }, want: { cpu: '3' } },
    {
      name: 'per key: more cpu, less memory ⇒ the larger of each',
      from: { cpu: '1', memory: '2Gi' },
      to: { cpu: '1500m', memory: '1Gi' },
      want: { cpu: '1500m', memory: '2Gi' },
    },
    {
      name: 'a key new to the usage is added',
      from: { cpu: '1' },
      to: { cpu: '1', pods: '1' },
      want: { cpu: '1', pods: '1' },
    },
    {
      name: 'a key the usage dropped stays until rendered',
      from: { cpu: '1', pods: '1' },
      to: { cpu: '1' },
      want: { cpu: '1', pods: '1' },
    },
    {
      name: 'compared as quantities, not text',
      from: { memory: '1Gi' },
      to: { memory: '1024Mi' },
      want: { memory: '1Gi' },
    },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(chargeUntilRendered(row.from, row.to), row.want));
});

describe('chargedSurplus and releasableSurplus: what is given back once the binder has rendered a decrease', () => {
  const rows: { name: string; binding: ResourceBinding; surplus?: ResourceList; releasable?: ResourceList }[] = [
    {
      name: 'charged 5 for a spec of 2, rendered at this generation: given back down to 2',
      binding: withRenderedGeneration(rb(charged({ cpu: '5', pods: '5' }))),
      surplus: { cpu: '2', pods: '2' },
      releasable: { cpu: '2', pods: '2' },
    },
    {
      name: 'charged 5 for a spec of 2, not rendered yet: nothing given back',
      binding: rb(charged({ cpu: '5', pods: '5' })),
      surplus: { cpu: '2', pods: '2' },
    },
    {
      name: 'rendered at an older generation (the spec moved on since): nothing given back',
      binding: rb({ ...charged({ cpu: '5', pods: '5' }), [RENDERED_GENERATION_ANNOTATION]: '0' }),
      surplus: { cpu: '2', pods: '2' },
    },
    {
      name: 'charged what the spec uses: no surplus',
      binding: withRenderedGeneration(rb(charged({ cpu: '2', pods: '2' }))),
    },
    {
      name: 'the spec uses more than charged on one key (a raise not charged yet): nothing given back',
      binding: withRenderedGeneration(rb(charged({ cpu: '5', pods: '1' }))),
    },
    {
      name: 'no charge recorded (placed before the namespace had a quota): nothing to give back',
      binding: withRenderedGeneration(rb()),
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(chargedSurplus(row.binding), row.surplus);
      assert.deepEqual(releasableSurplus(row.binding), row.releasable);
    });
  }
});

describe('renderedMark: what the binder writes once it has rendered a binding in full', () => {
  it('charged more than it uses, not marked: marked at its generation', () => {
    const b = rb(charged({ cpu: '5', pods: '5' }));
    assert.deepEqual(renderedMark(b), withRenderedGeneration(b));
  });
  it('marked at this generation already: nothing to write', () => {
    assert.equal(renderedMark(withRenderedGeneration(rb(charged({ cpu: '5', pods: '5' })))), undefined);
  });
  it('charged what it uses (no decrease to give back): nothing to write', () => {
    assert.equal(renderedMark(rb(charged({ cpu: '2', pods: '2' }))), undefined);
  });
});
