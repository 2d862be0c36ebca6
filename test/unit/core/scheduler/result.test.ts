/**
 * What a scheduling attempt writes and which bindings a change concerns (Karmada v1.15
 * `pkg/scheduler/scheduler.go` `patchScheduleResultForResourceBinding`; the retry of failed bindings
 * and the cluster fan-out).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  affectedByCluster,
  type ReservationDelta,
  reservationBeyond,
  resultBinding,
  SCHEDULE_SUCCESS_MESSAGE,
  type ScheduleResult,
  schedulingFailed,
  templateStubOf,
} from '../../../../lib/core/scheduler/index.ts';
import type { ResourceBinding } from '../../../../lib/core/model/types.ts';
import { APPLIED_PLACEMENT_ANNOTATION } from '../../../../lib/api/well-known.ts';
import { bindingFactory, DUPLICATED, DYNAMIC_WEIGHT, scheduledStatus, targets } from './fixtures.ts';

const NOW = Date.parse('2026-01-02T03:04:05Z');
const placed = (clusters: Record<string, number>, affinityName?: string): ScheduleResult => ({
  outcome: {
    ok: true,
    value: { clusters: targets(clusters), reserved: [], ...(affinityName ? { affinityName } : {}) },
  },
});
const failed = (extra: Partial<ScheduleResult> = {}): ScheduleResult => ({
  outcome: { ok: false, failure: { reason: 'Unschedulable', message: '0/2 clusters are available' } },
  ...extra,
});

describe('resultBinding (patchScheduleResultForResourceBinding: placement, condition, observed generation)', () => {
  it('a placement sets spec.clusters, the applied-placement annotation, Scheduled=True and lastScheduledTime', () => {
    const binding = bindingFactory('web', { replicas: 3, placement: { replicaScheduling: DYNAMIC_WEIGHT } });
    const next = resultBinding(binding, placed({ member1: 2, member2: 1 }), NOW)!;
    assert.deepEqual(next.spec.clusters, targets({ member1: 2, member2: 1 }));
    assert.ok(next.metadata.annotations?.[APPLIED_PLACEMENT_ANNOTATION]);
    assert.equal(next.status?.lastScheduledTime, '2026-01-02T03:04:05Z');
    // The spec changes, so the write bumps the generation: the observed generation is the next one.
    assert.equal(next.status?.schedulerObservedGeneration, 2);
    assert.deepEqual(next.status?.conditions, [
      {
        type: 'Scheduled',
        status: 'True',
        reason: 'Success',
        message: SCHEDULE_SUCCESS_MESSAGE,
        observedGeneration: 2,
        lastTransitionTime: '2026-01-02T03:04:05Z',
      },
    ]);
  });

  it('the affinity term that produced the placement is recorded', () => {
    const next = resultBinding(bindingFactory('web'), placed({ member1: 1 }, 'primary'), NOW)!;
    assert.equal(next.status?.schedulerObservingAffinityName, 'primary');
  });

  it('a failure sets Scheduled=False with Karmada’s reason and message and keeps the clusters', () => {
    const binding = bindingFactory('web', { clusters: targets({ member1: 1 }) });
    const next = resultBinding(binding, failed(), NOW)!;
    assert.deepEqual(next.spec.clusters, targets({ member1: 1 }));
    assert.equal(next.status?.schedulerObservedGeneration, 1);
    assert.deepEqual(
      next.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      [['Scheduled', 'False', 'Unschedulable', '0/2 clusters are available']],
    );
  });

  it('a FitError empties spec.clusters (clustersOnFailure)', () => {
    const binding = bindingFactory('web', { clusters: targets({ member1: 1 }) });
    const next = resultBinding(binding, failed({ clustersOnFailure: [] }), NOW)!;
    assert.deepEqual(next.spec.clusters, []);
    assert.equal(next.status?.schedulerObservedGeneration, 2);
  });

  it('an empty result on a binding that never had clusters leaves spec.clusters out', () => {
    const next = resultBinding(bindingFactory('web'), failed({ clustersOnFailure: [] }), NOW)!;
    assert.equal('clusters' in next.spec, false);
  });

  it('the same result again writes nothing, whatever the time', () => {
    const first = resultBinding(bindingFactory('web'), placed({ member1: 1 }), NOW)!;
    const stored: ResourceBinding = { ...first, metadata: { ...first.metadata, generation: 2 } };
    assert.equal(resultBinding(stored, placed({ member1: 1 }), NOW + 60_000), undefined);
  });
});

describe('reservationBeyond (what a retried attempt still has to reserve)', () => {
  const delta = (cluster: string, pods: number, units: Record<string, number>): ReservationDelta => ({
    cluster,
    pods,
    units: new Map(Object.entries(units)),
  });
  const cases: [string, ReservationDelta[], ReservationDelta[], ReservationDelta[]][] = [
    ['nothing held: everything wanted', [delta('m1', 2, { cpu: 200 })], [], [delta('m1', 2, { cpu: 200 })]],
    [
      'held on the same cluster is subtracted',
      [delta('m1', 3, { cpu: 300 })],
      [delta('m1', 1, { cpu: 100 })],
      [delta('m1', 2, { cpu: 200 })],
    ],
    [
      'held on another cluster is not',
      [delta('m1', 3, { cpu: 300 })],
      [delta('m2', 1, { cpu: 100 })],
      [delta('m1', 3, { cpu: 300 })],
    ],
    [
      'never negative: holding more than wanted reserves nothing more',
      [delta('m1', 1, { cpu: 100 })],
      [delta('m1', 3, { cpu: 300, memory: 5 })],
      [delta('m1', 0, { cpu: 0 })],
    ],
  ];
  for (const [name, wanted, held, expected] of cases) {
    it(name, () => {
      assert.deepEqual(reservationBeyond(wanted, held), expected);
    });
  }
});

describe('templateStubOf (scheduling events go on the template too, without reading it)', () => {
  it('names the template spec.resource points at', () => {
    const binding = bindingFactory('web');
    binding.spec.resource.uid = 'uid-template';
    assert.deepEqual(templateStubOf(binding), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', uid: 'uid-template' },
    });
  });
  it('is undefined when spec.resource names nothing', () => {
    const binding = bindingFactory('web');
    binding.spec.resource.name = '';
    assert.equal(templateStubOf(binding), undefined);
  });
});

describe('schedulingFailed / affectedByCluster (retries and the cluster fan-out)', () => {
  const cases: [string, ResourceBinding, boolean, boolean][] = [
    [
      'a binding that failed to schedule is retried by any cluster change',
      bindingFactory('a', {
        replicas: 2,
        placement: { replicaScheduling: DYNAMIC_WEIGHT },
        status: scheduledStatus('False'),
      }),
      true,
      true,
    ],
    [
      'a divided binding placed on the changed cluster is re-examined',
      bindingFactory('b', {
        replicas: 2,
        placement: { replicaScheduling: DYNAMIC_WEIGHT },
        clusters: targets({ member1: 2 }),
        status: scheduledStatus('True'),
      }),
      false,
      true,
    ],
    [
      'a divided binding placed elsewhere is not',
      bindingFactory('c', {
        replicas: 2,
        placement: { replicaScheduling: DYNAMIC_WEIGHT },
        clusters: targets({ member2: 2 }),
        status: scheduledStatus('True'),
      }),
      false,
      false,
    ],
    [
      'a Duplicated binding is rescheduled on every pass, so a new matching cluster gets it',
      bindingFactory('d', {
        replicas: 2,
        placement: { replicaScheduling: DUPLICATED },
        status: scheduledStatus('True'),
      }),
      false,
      true,
    ],
    [
      'no replicaScheduling means Duplicated',
      bindingFactory('e', { replicas: 2, status: scheduledStatus('True') }),
      false,
      true,
    ],
    [
      'a replica-less binding is rescheduled on every pass',
      bindingFactory('f', { placement: { replicaScheduling: DYNAMIC_WEIGHT }, status: scheduledStatus('True') }),
      false,
      true,
    ],
  ];
  for (const [name, binding, failedBefore, affected] of cases) {
    it(name, () => {
      assert.equal(schedulingFailed(binding), failedBefore);
      assert.equal(affectedByCluster(binding, 'member1'), affected);
    });
  }
});
