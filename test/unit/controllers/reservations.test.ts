/**
 * When the scheduler's reservations end (lib/controllers/reservations.ts): Karmada has no ledger
 * (#6783); here a cluster's reservation lasts until its summary shows the pods, bounded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import type { Cluster } from '../../../lib/core/model/types.ts';
import {
  DEFAULT_RESERVATION_TTL_MS,
  ledgerReservations,
  MAX_RESERVATION_MS,
  type ShownUsage,
  shownUsageOf,
} from '../../../lib/controllers/reservations.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

type Amount = {
  pods: number;
  resources?: Record<string, number>;
  basePods?: number;
  baseResources?: Record<string, number>;
};

function ledger(buckets: Record<string, Record<string, Amount>>): KubeObject {
  const spec = {
    buckets: Object.fromEntries(
      Object.entries(buckets).map(([start, clusters]) => [
        start,
        Object.fromEntries(
          Object.entries(clusters).map(([c, a]) => [c, { ...a, resources: a.resources ?? { cpu: a.pods * 1000 } }]),
        ),
      ]),
    ),
  };
  return { apiVersion: 'work.serverless-karmada.io/v1', kind: 'ClusterReservation', metadata: { name: 'fleet' }, spec };
}

/** Summaries showing only pods taken (no resource listed: the pods alone decide). */
const pods =
  (m: Record<string, number>): ShownUsage =>
  (c) =>
    m[c] === undefined ? undefined : new Map([['pods', m[c]]]);
/** Summaries showing pods and CPUs (millicores) taken. */
const taken =
  (m: Record<string, { pods: number; cpu: number }>): ShownUsage =>
  (c) =>
    m[c] === undefined
      ? undefined
      : new Map([
          ['pods', m[c].pods],
          ['cpu', m[c].cpu],
        ]);
const reservedPods = (item: KubeObject, now: number, shown?: ShownUsage) =>
  Object.fromEntries(
    [...ledgerReservations(item, now, DEFAULT_RESERVATION_TTL_MS, shown)].map(([c, r]) => [c, r.pods]),
  );
const reservedCpu = (item: KubeObject, now: number, shown?: ShownUsage) =>
  Object.fromEntries(
    [...ledgerReservations(item, now, DEFAULT_RESERVATION_TTL_MS, shown)].map(([c, r]) => [c, r.units.get('cpu')]),
  );

describe('scheduler reservations: how long they last', () => {
  const item = ledger({ [String(T0)]: { m1: { pods: 3, basePods: 2 } } });
  const rows: [string, number, ShownUsage | undefined, Record<string, number>][] = [
    ['within the TTL: reserved whatever the summary says', T0 + 30_000, pods({ m1: 9 }), { m1: 3 }],
    ['past the TTL, the summary shows the pods (2 + 3): ended', T0 + 90_000, pods({ m1: 5 }), {}],
    [
      'past the TTL, the summary does not show them yet (a member slow to run what it was given): kept — simulation',
      T0 + 90_000,
      pods({ m1: 2 }),
      { m1: 3 },
    ],
    ['past the TTL, no summaries to compare with (a caller without them): the bare TTL', T0 + 90_000, undefined, {}],
    ['past the TTL, this cluster’s summary unknown: kept', T0 + 90_000, pods({}), { m1: 3 }],
    ['past the hard bound: ended, pods or not', T0 + MAX_RESERVATION_MS + 20_000, pods({ m1: 2 }), {}],
  ];
  for (const [name, now, allocated, want] of rows) {
    it(name, () => assert.deepEqual(reservedPods(item, now, allocated), want));
  }
  it('a base unknown when written (no summary then, or written before the rule): kept until the hard bound', () => {
    const unknown = ledger({ [String(T0)]: { m1: { pods: 3 } } });
    assert.deepEqual(reservedPods(unknown, T0 + 90_000, pods({ m1: 99 })), { m1: 3 });
    assert.deepEqual(reservedPods(unknown, T0 + MAX_RESERVATION_MS + 20_000, pods({ m1: 0 })), {});
  });
  it('a later bucket with a higher base is judged by its own base (simulation seed 6)', () => {
    const two = ledger({
      [String(T0)]: { m1: { pods: 1, basePods: 0 } },
      [String(T0 + 30_000)]: { m1: { pods: 2, basePods: 3 } },
    });
    // 3 shown: the first bucket's pod is in (0 + 1), the second's 2 are not (3 + 2 = 5).
    assert.deepEqual(reservedPods(two, T0 + 120_000, pods({ m1: 3 })), { m1: 2 });
  });
  it('later buckets count what the earlier live ones reserved', () => {
    const two = ledger({
      [String(T0)]: { m1: { pods: 3, basePods: 2 } },
      [String(T0 + 10_000)]: { m1: { pods: 2, basePods: 2 } },
    });
    // 5 shown: the first bucket's 3 are in (2 + 3), the second's are not (2 + 3 + 2 = 7).
    assert.deepEqual(reservedPods(two, T0 + 100_000, pods({ m1: 5 })), { m1: 2 });
  });
  it('what is shown taken comes from the clusters’ summaries: allocated + allocating, resources in allocatable', () => {
    const clusters = [
      {
        metadata: { name: 'm1' },
        status: {
          resourceSummary: {
            allocatable: { pods: '110', cpu: '8', memory: '1Gi' },
            allocated: { pods: '4', cpu: '1500m', 'nvidia.com/gpu': '1' },
            allocating: { pods: '1', cpu: '500m' },
          },
        },
      },
      { metadata: { name: 'm2' }, status: {} },
    ] as unknown as Cluster[];
    const of = shownUsageOf(clusters);
    assert.deepEqual(
      of('m1'),
      new Map([
        ['pods', 5],
        ['cpu', 2000],
        ['memory', 0],
      ]),
    );
    assert.deepEqual([of('m2'), of('m3')], [undefined, undefined]);
  });
});

describe('scheduler reservations: judged by the resources they hold as well as the pods', () => {
  // A bucket of 3 one-CPU pods written when the summary showed 2 pods and 1 CPU taken.
  const item = ledger({
    [String(T0)]: { m1: { pods: 3, resources: { cpu: 3000 }, basePods: 2, baseResources: { cpu: 1000 } } },
  });
  const after = T0 + 90_000;
  const rows: [string, ShownUsage, Record<string, number>][] = [
    ['pods and CPUs shown (2 + 3 pods, 1 + 3 CPUs): ended', taken({ m1: { pods: 5, cpu: 4000 } }), {}],
    [
      'the pods shown but not the CPUs (a Deployment scaled by hand on the member: more pods, not these) — simulation seed 221',
      taken({ m1: { pods: 5, cpu: 2500 } }),
      { m1: 3 },
    ],
    ['the CPUs shown but not the pods: kept', taken({ m1: { pods: 4, cpu: 4000 } }), { m1: 3 }],
    ['a summary listing no CPU: the pods decide', pods({ m1: 5 }), {}],
  ];
  for (const [name, shown, want] of rows) {
    it(name, () => assert.deepEqual(reservedPods(item, after, shown), want));
  }
  it('the growth of a kept placement’s requests (no pods) lasts until the summary shows the CPUs — simulation seeds 494, 1094', () => {
    const growth = ledger({
      [String(T0)]: { m1: { pods: 0, resources: { cpu: 2000 }, basePods: 2, baseResources: { cpu: 2000 } } },
    });
    assert.deepEqual(reservedCpu(growth, after, taken({ m1: { pods: 2, cpu: 2000 } })), { m1: 2000 });
    assert.deepEqual(reservedCpu(growth, after, taken({ m1: { pods: 2, cpu: 4000 } })), {});
  });
  it('a bucket written before resources had bases is judged by its pods', () => {
    const legacy = ledger({ [String(T0)]: { m1: { pods: 3, resources: { cpu: 3000 }, basePods: 2 } } });
    assert.deepEqual(reservedPods(legacy, after, taken({ m1: { pods: 5, cpu: 0 } })), {});
  });
});
