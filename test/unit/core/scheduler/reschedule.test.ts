import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonical,
  DEFAULT_SCHEDULER_NAME,
  isSchedulable,
  placementChanged,
  type ScheduleTrigger,
  scheduleTrigger,
} from '../../../../lib/core/scheduler/reschedule.ts';
import { buildSnapshot } from '../../../../lib/core/scheduler/snapshot.ts';
import type { Component, Placement } from '../../../../lib/core/model/types.ts';
import {
  AGGREGATED,
  type BindingOptions,
  bindingFactory,
  clusterFactory,
  DUPLICATED,
  DYNAMIC_WEIGHT,
  scheduledStatus,
  targets,
} from './fixtures.ts';

const LAST = '2026-01-01T00:00:00Z';
const snapshot = buildSnapshot([
  clusterFactory('m1'),
  clusterFactory('m2'),
  // A new matching cluster: must not make a steady Divided binding move.
  clusterFactory('m3'),
  clusterFactory('leaving', { deleting: true }),
]);

const DIVIDED: Placement = { replicaScheduling: AGGREGATED };

/** A Divided binding scheduled successfully to m1:3, m2:1 with its placement applied: nothing to do. */
function steady(overrides: BindingOptions = {}): BindingOptions {
  const placement = overrides.placement ?? DIVIDED;
  return {
    replicas: 4,
    clusters: targets({ m1: 3, m2: 1 }),
    placement,
    appliedPlacement: JSON.stringify(placement),
    status: scheduledStatus('True', { lastScheduledTime: LAST, schedulerObservedGeneration: 1 }),
    ...overrides,
  };
}

interface Row {
  name: string;
  binding: BindingOptions;
  want: ScheduleTrigger | undefined;
}

const affinities = [
  { affinityName: 'primary', clusterNames: ['m1', 'm2'] },
  { affinityName: 'backup', clusterNames: ['m3'] },
];

const components: Component[] = [
  { name: 'jobmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1' } } },
  { name: 'taskmanager', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '2' } } },
];

describe('scheduleTrigger: when to (re)schedule (§2.2 "When to (re)schedule", §4 item 3)', () => {
  const rows: Row[] = [
    {
      name: 'steady Divided binding ⇒ undefined (only schedulerObservedGeneration is brought up to date)',
      binding: steady(),
      want: undefined,
    },
    {
      name: 'steady Divided binding: a new matching cluster does not rebalance it (Karmada §4.3)',
      binding: steady({ placement: { ...DIVIDED, clusterAffinity: { clusterNames: ['m1', 'm2', 'm3'] } } }),
      want: undefined,
    },
    {
      name: 'FirstSchedule: no Scheduled condition yet',
      binding: steady({ status: {} }),
      want: 'FirstSchedule',
    },
    {
      name: 'FirstSchedule: takes precedence over everything else (no status at all)',
      binding: { replicas: 3, placement: DIVIDED },
      want: 'FirstSchedule',
    },
    {
      name: 'PlacementChanged: no applied-placement annotation',
      binding: { ...steady(), appliedPlacement: '' },
      want: 'PlacementChanged',
    },
    {
      name: 'PlacementChanged: the placement differs from the annotation',
      binding: steady({ appliedPlacement: JSON.stringify({ replicaScheduling: DYNAMIC_WEIGHT }) }),
      want: 'PlacementChanged',
    },
    {
      name: 'PlacementChanged: added tolerations count as a change',
      binding: steady({
        placement: { ...DIVIDED, clusterTolerations: [{ key: 'x', operator: 'Exists' }] },
        appliedPlacement: JSON.stringify(DIVIDED),
      }),
      want: 'PlacementChanged',
    },
    {
      name: 'PlacementChanged: key order in the annotation does not matter',
      binding: steady({
        placement: {
          clusterAffinity: { clusterNames: ['m1', 'm2'], exclude: ['m3'] },
          replicaScheduling: AGGREGATED,
        },
        appliedPlacement:
          '{"replicaScheduling":{"replicaDivisionPreference":"Aggregated","replicaSchedulingType":"Divided"},' +
          '"clusterAffinity":{"exclude":["m3"],"clusterNames":["m1","m2"]}}',
      }),
      want: undefined,
    },
    {
      name: 'PlacementChanged: list order does matter (clusterNames reordered)',
      binding: steady({
        placement: { ...DIVIDED, clusterAffinity: { clusterNames: ['m1', 'm2'] } },
        appliedPlacement: JSON.stringify({ ...DIVIDED, clusterAffinity: { clusterNames: ['m2', 'm1'] } }),
      }),
      want: 'PlacementChanged',
    },
    {
      name: 'PlacementChanged: clusterAffinities — a change to a term other than the observed one is ignored',
      binding: steady({
        placement: {
          ...DIVIDED,
          clusterAffinities: [affinities[0]!, { affinityName: 'backup', clusterNames: ['m2'] }],
        },
        appliedPlacement: JSON.stringify({ ...DIVIDED, clusterAffinities: affinities }),
        status: scheduledStatus('True', { lastScheduledTime: LAST, schedulerObservingAffinityName: 'primary' }),
      }),
      want: undefined,
    },
    {
      name: 'PlacementChanged: clusterAffinities — adding a later fallback term does not move a placed workload',
      binding: steady({
        placement: { ...DIVIDED, clusterAffinities: [...affinities, { affinityName: 'last', clusterNames: ['m9'] }] },
        appliedPlacement: JSON.stringify({ ...DIVIDED, clusterAffinities: affinities }),
        status: scheduledStatus('True', { lastScheduledTime: LAST, schedulerObservingAffinityName: 'primary' }),
      }),
      want: undefined,
    },
    {
      name: 'PlacementChanged: clusterAffinities — a change to the observed term counts',
      binding: steady({
        placement: {
          ...DIVIDED,
          clusterAffinities: [affinities[0]!, { affinityName: 'backup', clusterNames: ['m2'] }],
        },
        appliedPlacement: JSON.stringify({ ...DIVIDED, clusterAffinities: affinities }),
        status: scheduledStatus('True', { lastScheduledTime: LAST, schedulerObservingAffinityName: 'backup' }),
      }),
      want: 'PlacementChanged',
    },
    {
      name: 'PlacementChanged: clusterAffinities — the observed term removed counts',
      binding: steady({
        placement: { ...DIVIDED, clusterAffinities: [affinities[0]!] },
        appliedPlacement: JSON.stringify({ ...DIVIDED, clusterAffinities: affinities }),
        status: scheduledStatus('True', { lastScheduledTime: LAST, schedulerObservingAffinityName: 'backup' }),
      }),
      want: 'PlacementChanged',
    },
    {
      name: 'PlacementChanged: clusterAffinities — a change outside the terms still counts',
      binding: steady({
        placement: { replicaScheduling: DYNAMIC_WEIGHT, clusterAffinities: affinities },
        appliedPlacement: JSON.stringify({ ...DIVIDED, clusterAffinities: affinities }),
        status: scheduledStatus('True', { lastScheduledTime: LAST, schedulerObservingAffinityName: 'primary' }),
      }),
      want: 'PlacementChanged',
    },
    {
      name: 'ReplicasChanged: Divided and Σ spec.clusters ≠ spec.replicas (scale up)',
      binding: steady({ replicas: 6 }),
      want: 'ReplicasChanged',
    },
    {
      name: 'ReplicasChanged: Divided scale down',
      binding: steady({ replicas: 2 }),
      want: 'ReplicasChanged',
    },
    {
      name: 'ReplicasChanged: Divided with spec.clusters emptied (its only cluster evicted) and replicas > 0',
      binding: steady({ clusters: [] }),
      want: 'ReplicasChanged',
    },
    {
      name: 'ReplicasChanged: Duplicated and a cluster holding another count than spec.replicas',
      binding: steady({
        replicas: 3,
        placement: { replicaScheduling: DUPLICATED },
        clusters: targets({ m1: 3, m2: 2 }),
      }),
      want: 'ReplicasChanged',
    },
    {
      name: 'ReplicasChanged is not checked for component bindings (their targets carry no replicas)',
      binding: steady({ components, replicas: 4, clusters: [{ name: 'm1' }] }),
      want: undefined,
    },
    {
      name: 'RescheduleTriggered: rescheduleTriggeredAt newer than lastScheduledTime (WorkloadRebalancer)',
      binding: steady({ rescheduleTriggeredAt: '2026-01-01T00:00:01Z' }),
      want: 'RescheduleTriggered',
    },
    {
      name: 'RescheduleTriggered: not when rescheduleTriggeredAt is older or equal',
      binding: steady({ rescheduleTriggeredAt: LAST }),
      want: undefined,
    },
    {
      name: 'RescheduleTriggered: timestamps are compared as instants, not text (+02:00 offset is 1 h earlier)',
      binding: steady({ rescheduleTriggeredAt: '2026-01-01T01:00:00+02:00' }),
      want: undefined,
    },
    {
      name: 'RescheduleTriggered: fractional seconds later than lastScheduledTime count',
      binding: steady({ rescheduleTriggeredAt: '2026-01-01T00:00:00.500Z' }),
      want: 'RescheduleTriggered',
    },
    {
      name: 'RescheduleTriggered: not before a first successful schedule (no lastScheduledTime; Karmada RescheduleRequired)',
      binding: steady({ rescheduleTriggeredAt: '2026-01-01T00:00:01Z', status: scheduledStatus('True') }),
      want: undefined,
    },
    {
      name: 'RetryFailed: the last attempt failed (Scheduled=False)',
      binding: steady({ status: scheduledStatus('False', { lastScheduledTime: LAST }) }),
      want: 'RetryFailed',
    },
    {
      name: 'RetryFailed: a Duplicated binding whose NoClusterFit emptied spec.clusters is retried',
      binding: steady({ clusters: [], placement: { replicaScheduling: DUPLICATED }, status: scheduledStatus('False') }),
      want: 'RetryFailed',
    },
    {
      name: 'AlwaysReschedule: Duplicated bindings are rescheduled on every pass',
      binding: steady({
        replicas: 3,
        placement: { replicaScheduling: DUPLICATED },
        clusters: targets({ m1: 3, m2: 3 }),
      }),
      want: 'AlwaysReschedule',
    },
    {
      name: 'AlwaysReschedule: no replicaScheduling means Duplicated',
      binding: steady({ replicas: 2, placement: {}, clusters: targets({ m1: 2 }) }),
      want: 'AlwaysReschedule',
    },
    {
      name: 'AlwaysReschedule: replicas 0 (non-workloads) even when Divided',
      binding: steady({ replicas: 0, clusters: [{ name: 'm1' }, { name: 'm2' }] }),
      want: 'AlwaysReschedule',
    },
    {
      name: 'TargetClusterRemoved: a cluster in spec.clusters is being deleted',
      binding: steady({ clusters: targets({ m1: 3, leaving: 1 }) }),
      want: 'TargetClusterRemoved',
    },
    {
      name: 'TargetClusterRemoved: a cluster in spec.clusters no longer exists',
      binding: steady({ clusters: targets({ m1: 3, vanished: 1 }) }),
      want: 'TargetClusterRemoved',
    },
    {
      name: 'ComponentsChanged: a component binding whose generation was not observed by the scheduler',
      binding: steady({ components, replicas: 4, clusters: [{ name: 'm1' }], generation: 2 }),
      want: 'ComponentsChanged',
    },
    {
      name: 'order: PlacementChanged before ReplicasChanged',
      binding: steady({ replicas: 6, appliedPlacement: JSON.stringify({}) }),
      want: 'PlacementChanged',
    },
    {
      name: 'order: ReplicasChanged before RescheduleTriggered and RetryFailed',
      binding: steady({
        replicas: 6,
        rescheduleTriggeredAt: '2026-01-02T00:00:00Z',
        status: scheduledStatus('False', { lastScheduledTime: LAST }),
      }),
      want: 'ReplicasChanged',
    },
    {
      name: 'order: RescheduleTriggered before RetryFailed',
      binding: steady({
        rescheduleTriggeredAt: '2026-01-02T00:00:00Z',
        status: scheduledStatus('False', { lastScheduledTime: LAST }),
      }),
      want: 'RescheduleTriggered',
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(scheduleTrigger(bindingFactory('web', row.binding), snapshot), row.want);
    });
  }
});

describe('placementChanged and canonical (Karmada helper.go placementChanged)', () => {
  it('canonical sorts object keys at every depth, keeps array order', () => {
    assert.equal(canonical({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 2 } }), '{"a":{"c":2,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('identical placements are unchanged; unparsable annotations count as changed', () => {
    assert.equal(placementChanged(DIVIDED, JSON.stringify(DIVIDED)), false);
    assert.equal(placementChanged(DIVIDED, '{not json'), true);
    assert.equal(placementChanged(DIVIDED, undefined), true);
  });

  it('without an observed name, the first term is the one compared', () => {
    const now = { clusterAffinities: [affinities[0]!, { affinityName: 'backup', clusterNames: ['m2'] }] };
    assert.equal(placementChanged(now, JSON.stringify({ clusterAffinities: affinities })), false);
    const first = { clusterAffinities: [{ affinityName: 'primary', clusterNames: ['m1'] }, affinities[1]!] };
    assert.equal(placementChanged(first, JSON.stringify({ clusterAffinities: affinities })), true);
  });

  it('switching from clusterAffinity to clusterAffinities counts as changed', () => {
    assert.equal(
      placementChanged(
        { clusterAffinities: affinities },
        JSON.stringify({ clusterAffinity: { clusterNames: ['m1'] } }),
        'primary',
      ),
      true,
    );
  });
});

describe('isSchedulable: which bindings this scheduler owns (§2.2 "Which bindings")', () => {
  const rows: { name: string; binding: BindingOptions; schedulerName?: string; want: boolean }[] = [
    { name: 'empty spec.schedulerName means default-scheduler', binding: {}, want: true },
    { name: 'explicit default-scheduler', binding: { schedulerName: DEFAULT_SCHEDULER_NAME }, want: true },
    { name: 'schedulerName "" is the default too', binding: { schedulerName: '' }, want: true },
    { name: 'another scheduler’s binding is not ours', binding: { schedulerName: 'gpu-scheduler' }, want: false },
    {
      name: 'a scheduler started with --scheduler-name owns its bindings',
      binding: { schedulerName: 'gpu-scheduler' },
      schedulerName: 'gpu-scheduler',
      want: true,
    },
    {
      name: 'a named scheduler does not own default bindings',
      binding: {},
      schedulerName: 'gpu-scheduler',
      want: false,
    },
    { name: 'spec.suspension.scheduling=true pauses scheduling', binding: { suspendScheduling: true }, want: false },
    { name: 'spec.suspension.scheduling=false does not', binding: { suspendScheduling: false }, want: true },
    { name: 'a binding being deleted is skipped', binding: { deleting: true }, want: false },
  ];
  for (const row of rows) {
    it(`isSchedulable: ${row.name}`, () => {
      const binding = bindingFactory('web', row.binding);
      const got = row.schedulerName === undefined ? isSchedulable(binding) : isSchedulable(binding, row.schedulerName);
      assert.equal(got, row.want);
    });
  }

  // An attached binding (propagateDeps): no placement, no policy's claim — the binder renders it to the
  // clusters of the bindings that require it. Scheduled by a resync, it went to every cluster and stayed
  // after its workload was deleted (seen as a flaky propagation e2e).
  const attached = (labels: Record<string, string> = {}) => {
    const b = bindingFactory('web-config-configmap', { kind: 'ConfigMap' });
    const { placement: _none, ...spec } = b.spec;
    return {
      ...b,
      metadata: { ...b.metadata, labels },
      spec: { ...spec, requiredBy: [{ namespace: 'default', name: 'web-deployment', clusters: [{ name: 'm1' }] }] },
    };
  };
  it('isSchedulable: an attached binding (no placement, no policy claim) is never scheduled (Karmada’s event filter)', () =>
    assert.equal(isSchedulable(attached()), false));
  it('isSchedulable: a binding a policy claims is scheduled even without a placement (the policy has none)', () => {
    assert.equal(isSchedulable(attached({ 'propagationpolicy.karmada.io/permanent-id': 'p' })), true);
    assert.equal(isSchedulable(attached({ 'clusterpropagationpolicy.karmada.io/permanent-id': 'c' })), true);
  });
});
