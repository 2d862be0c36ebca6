import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isFreshReschedule } from '../../../../../lib/core/scheduler/assignment/dynamic.ts';
import { assignReplicas } from '../../../../../lib/core/scheduler/assignment/index.ts';
import type { ReplicaSchedulingStrategy } from '../../../../../lib/core/model/types.ts';
import { aggregated, asRecord, candidates, dynamicWeight, placement, targets } from './factories.ts';

interface Row {
  name: string;
  strategy: ReplicaSchedulingStrategy;
  /** Candidates as `name: allocatableReplicas`, in selection order. */
  allocatable: Record<string, number>;
  previous?: Record<string, number>;
  replicas: number;
  fresh?: boolean;
  want?: Record<string, number>;
  /** The `Unschedulable` message when the row must fail. */
  unschedulable?: string;
}

const TRIGGERED = '2026-01-02T00:00:00Z';
const LAST = '2026-01-01T00:00:00Z';

function run(row: Row) {
  return assignReplicas({
    spec: {
      replicas: row.replicas,
      placement: placement(row.strategy),
      ...(row.previous ? { clusters: targets(row.previous) } : {}),
      ...(row.fresh ? { rescheduleTriggeredAt: TRIGGERED } : {}),
    },
    ...(row.fresh ? { status: { lastScheduledTime: LAST } } : {}),
    candidates: candidates(row.allocatable),
    uid: 'some-uid',
  });
}

function check(row: Row) {
  const out = run(row);
  if (row.unschedulable) {
    assert.deepEqual(out, { ok: false, failure: { reason: 'Unschedulable', message: row.unschedulable } });
    return;
  }
  assert.ok(out.ok, JSON.stringify(out));
  assert.deepEqual(asRecord(out.value), row.want);
}

describe('dynamic assignment, Steady mode (Karmada v1.15 assignByDynamicStrategy)', () => {
  const rows: Row[] = [
    // Test_dynamicScale (pkg/scheduler/core/assignment_test.go, v1.15.9).
    {
      name: 'Test_dynamicScale "replica 12 -> 6, dynamic weighted 1:1:1": scale-down is proportional to the previous 2:4:6',
      strategy: dynamicWeight,
      allocatable: { member1: 1, member2: 1, member3: 1 },
      previous: { member1: 2, member2: 4, member3: 6 },
      replicas: 6,
      want: { member1: 1, member2: 2, member3: 3 },
    },
    {
      name: 'Test_dynamicScale "replica 12 -> 24, dynamic weighted 10:10:10": only the 12 extra are divided, then added',
      strategy: dynamicWeight,
      allocatable: { member1: 10, member2: 10, member3: 10 },
      previous: { member1: 2, member2: 4, member3: 6 },
      replicas: 24,
      want: { member1: 6, member2: 8, member3: 10 },
    },
    {
      name: 'Test_dynamicScale "replica 12 -> 24, dynamic weighted 1:1:1": 12 extra over 3 free is Unschedulable',
      strategy: dynamicWeight,
      allocatable: { member1: 1, member2: 1, member3: 1 },
      previous: { member1: 2, member2: 4, member3: 6 },
      replicas: 24,
      unschedulable: 'Clusters available replicas 3 are not enough to schedule.',
    },
    {
      name: 'Test_dynamicScale "replica 12 -> 6, aggregated 1:1:1": Aggregated scale-down keeps the fewest clusters',
      strategy: aggregated,
      allocatable: { member1: 1, member2: 1, member3: 1 },
      previous: { member1: 4, member2: 8 },
      replicas: 6,
      want: { member2: 6 },
    },
    {
      name: 'Test_dynamicScale "replica 12 -> 8, aggregated 100:100": capacity is ignored when scaling down',
      strategy: aggregated,
      allocatable: { member1: 100, member2: 100 },
      previous: { member1: 4, member2: 8 },
      replicas: 8,
      want: { member2: 8 },
    },
    {
      name: 'Test_dynamicScale "replica 12 -> 24, aggregated 4:6:8" (v1.15 dispenser): 6:12:6',
      strategy: aggregated,
      allocatable: { member1: 4, member2: 6, member3: 8 },
      previous: { member1: 4, member2: 8 },
      replicas: 24,
      want: { member1: 6, member2: 12, member3: 6 },
    },
    {
      name: 'Test_dynamicScale "replica 12 -> 24, aggregated 6:6:20": clusters already used are filled first',
      strategy: aggregated,
      allocatable: { member1: 6, member2: 6, member3: 20 },
      previous: { member1: 4, member2: 8 },
      replicas: 24,
      want: { member1: 10, member2: 14 },
    },
    {
      name: 'Test_dynamicScale "replica 12 -> 24, aggregated 1:1:1": Unschedulable',
      strategy: aggregated,
      allocatable: { member1: 1, member2: 1, member3: 1 },
      previous: { member1: 4, member2: 8 },
      replicas: 24,
      unschedulable: 'Clusters available replicas 3 are not enough to schedule.',
    },
    {
      name: 'Test_dynamicScale "aggregated 4:8:12, with cluster2 disappeared and cluster4 appeared" (v1.15): the lost 8 are re-placed',
      strategy: aggregated,
      allocatable: { member1: 4, member3: 8, member4: 12 },
      previous: { member1: 4, member2: 8 },
      replicas: 24,
      want: { member1: 7, member3: 6, member4: 11 },
    },
    // Test_dynamicScaleUp (v1.15.9): first schedules and scale-ups.
    {
      name: 'Test_dynamicScaleUp "replica 12, dynamic weight 6:8:10": first schedule divides by free capacity',
      strategy: dynamicWeight,
      allocatable: { member1: 6, member2: 8, member3: 10 },
      replicas: 12,
      want: { member1: 3, member2: 4, member3: 5 },
    },
    {
      name: 'Test_dynamicScaleUp "replica 12, dynamic weight 8:8:10": the equal-weight tie goes to member1 by name (Karmada: either)',
      strategy: dynamicWeight,
      allocatable: { member1: 8, member2: 8, member3: 10 },
      replicas: 12,
      want: { member1: 4, member2: 3, member3: 5 },
    },
    {
      name: 'Test_dynamicScaleUp "replica 12, dynamic weight 3:3:3": Unschedulable',
      strategy: dynamicWeight,
      allocatable: { member1: 3, member2: 3, member3: 3 },
      replicas: 12,
      unschedulable: 'Clusters available replicas 9 are not enough to schedule.',
    },
    {
      name: 'Test_dynamicScaleUp "replica 12, aggregated 6:8:10": the fewest clusters, largest first',
      strategy: aggregated,
      allocatable: { member1: 6, member2: 8, member3: 10 },
      replicas: 12,
      want: { member2: 5, member3: 7 },
    },
    {
      name: 'Test_dynamicScaleUp "replica 12, aggregated 12:8:10": one cluster holds everything',
      strategy: aggregated,
      allocatable: { member1: 12, member2: 8, member3: 10 },
      replicas: 12,
      want: { member1: 12 },
    },
    {
      name: 'Test_dynamicScaleUp "replica 12, aggregated 3:3:3": Unschedulable',
      strategy: aggregated,
      allocatable: { member1: 3, member2: 3, member3: 3 },
      replicas: 12,
      unschedulable: 'Clusters available replicas 9 are not enough to schedule.',
    },
    {
      name: 'Test_dynamicScaleUp "dynamic weight 3:3, with cluster3 disappeared and cluster2 appeared": 6 kept, 6 re-placed',
      strategy: dynamicWeight,
      allocatable: { member1: 3, member2: 3 },
      previous: { member1: 6, member3: 6 },
      replicas: 12,
      want: { member1: 9, member2: 3 },
    },
    // Test_dynamicDivideReplicas (v1.15.9), aggregated rows, as first schedules.
    {
      name: 'Test_dynamicDivideReplicas "replica 12, aggregated 12:6:6": the cluster that fits all takes all',
      strategy: aggregated,
      allocatable: { member1: 6, member2: 12, member3: 6 },
      replicas: 12,
      want: { member2: 12 },
    },
    {
      name: 'Test_dynamicDivideReplicas "replica 12, aggregated 6:6:6": two clusters, in selection order on equal capacity',
      strategy: aggregated,
      allocatable: { member1: 6, member2: 6, member3: 6 },
      replicas: 12,
      want: { member1: 6, member2: 6 },
    },
    {
      name: 'Test_dynamicDivideReplicas "replica 12, dynamic weight 20:12:6" (v1.15 dispenser): 7:4:1, not Webster 6:4:2',
      strategy: dynamicWeight,
      allocatable: { member1: 20, member2: 12, member3: 6 },
      replicas: 12,
      want: { member1: 7, member2: 4, member3: 1 },
    },
    // Further behaviours of Karmada's dynamic division (`pkg/scheduler/core/division_algorithm.go`) and of this
    // project's deviations (docs/decisions/0007-scheduler.md).
    {
      name: 'replicas equal to what the candidates already run ⇒ the previous result is kept, capacity not asked',
      strategy: dynamicWeight,
      allocatable: { member1: 0, member2: 0 },
      previous: { member1: 3, member2: 2 },
      replicas: 5,
      want: { member1: 3, member2: 2 },
    },
    {
      name: 'a cluster that is no longer a candidate loses its replicas; they are placed as scale-up replicas elsewhere',
      strategy: dynamicWeight,
      allocatable: { member1: 10, member3: 10 },
      previous: { member1: 4, member2: 4 },
      replicas: 8,
      want: { member1: 6, member3: 2 },
    },
    {
      name: 'scale-up adds only to the extra replicas: an over-weighted previous split is not rebalanced (§4 item 2)',
      strategy: dynamicWeight,
      allocatable: { member1: 1, member2: 100 },
      previous: { member1: 10 },
      replicas: 11,
      want: { member1: 10, member2: 1 },
    },
    {
      name: 'v1.15 quirk (§4 item 23) changed, as later Karmada: scale-down weighs only previous clusters still candidates (simulation seed 525)',
      strategy: dynamicWeight,
      allocatable: { member1: 10 },
      previous: { member1: 5, member2: 5 },
      replicas: 4,
      want: { member1: 4 },
    },
    {
      name: 'scale-down ties among equal previous replicas break by name (v1.15: randomly)',
      strategy: dynamicWeight,
      allocatable: { a: 0, b: 0, c: 0 },
      previous: { c: 2, b: 2, a: 2 },
      replicas: 4,
      want: { a: 2, b: 1, c: 1 },
    },
  ];
  for (const row of rows) it(row.name, () => check(row));
});

describe('dynamic assignment, Fresh mode (rescheduleTriggeredAt > lastScheduledTime)', () => {
  const rows: Row[] = [
    {
      name: 'recomputes everything by allocatable + already running, ignoring the previous split',
      strategy: dynamicWeight,
      allocatable: { member1: 0, member2: 6 },
      previous: { member1: 6 },
      replicas: 6,
      fresh: true,
      want: { member1: 3, member2: 3 },
    },
    {
      name: 'Aggregated Fresh picks the largest total capacity, not the previous cluster',
      strategy: aggregated,
      allocatable: { member1: 0, member2: 10 },
      previous: { member1: 4 },
      replicas: 4,
      fresh: true,
      want: { member2: 4 },
    },
    {
      name: 'Fresh counts the replicas already running as capacity: 2 running + 1 free hold 3',
      strategy: aggregated,
      allocatable: { member1: 1 },
      previous: { member1: 2 },
      replicas: 3,
      fresh: true,
      want: { member1: 3 },
    },
    {
      name: 'Fresh fails as Unschedulable when even the recomputed capacity is short',
      strategy: dynamicWeight,
      allocatable: { member1: 1, member2: 1 },
      previous: { member1: 2 },
      replicas: 5,
      fresh: true,
      unschedulable: 'Clusters available replicas 4 are not enough to schedule.',
    },
  ];
  for (const row of rows) it(row.name, () => check(row));

  it('the same binding in Steady mode keeps its previous cluster', () => {
    check({
      name: '',
      strategy: aggregated,
      allocatable: { member1: 0, member2: 10 },
      previous: { member1: 4 },
      replicas: 4,
      want: { member1: 4 },
    });
  });
});

describe('isFreshReschedule (Karmada util.RescheduleRequired)', () => {
  const rows: [string, string | undefined, string | undefined, boolean][] = [
    ['triggered after the last schedule ⇒ Fresh', TRIGGERED, LAST, true],
    ['triggered before the last schedule ⇒ Steady', LAST, TRIGGERED, false],
    ['triggered at the same instant ⇒ Steady (strictly after)', LAST, LAST, false],
    ['never triggered ⇒ Steady', undefined, LAST, false],
    ['no finished schedule yet (no lastScheduledTime) ⇒ Steady', TRIGGERED, undefined, false],
    ['unparsable timestamps ⇒ Steady', 'yesterday', LAST, false],
    ['compares instants, not strings: +01:00 offsets', '2026-01-01T00:30:00+01:00', '2025-12-31T23:00:00Z', true],
  ];
  for (const [name, triggered, last, want] of rows)
    it(name, () => assert.equal(isFreshReschedule(triggered, last), want));

  // Better than Karmada: with the trigger the last successful schedule saw recorded on the binding, a
  // trigger is answered exactly once, whatever the two whole-second timestamps say.
  const recorded: [string, string | undefined, string | undefined, string, boolean][] = [
    [
      'a rebalancer created in the same second as the last schedule ⇒ Fresh (Karmada: never answered)',
      LAST,
      LAST,
      '',
      true,
    ],
    [
      'a stamp that landed after a schedule which came between the rebalancer’s creation and its stamp ⇒ Fresh (Karmada: never answered)',
      LAST,
      TRIGGERED,
      '',
      true,
    ],
    ['the trigger the last schedule answered ⇒ Steady, even when it reads later', TRIGGERED, LAST, TRIGGERED, false],
    ['a newer trigger than the one answered ⇒ Fresh', TRIGGERED, LAST, LAST, true],
    ['never triggered ⇒ Steady', undefined, LAST, '', false],
    ['no finished schedule yet ⇒ Steady', TRIGGERED, undefined, '', false],
  ];
  for (const [name, triggered, last, observed, want] of recorded)
    it(name, () => assert.equal(isFreshReschedule(triggered, last, observed), want));
});
