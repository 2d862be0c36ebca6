/**
 * When the scheduler's reservations end (lib/controllers/reservations.ts): Karmada has no ledger
 * (#6783); here a cluster's reservation lasts until its summary shows the pods, bounded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import {
  allocatedPodsOf,
  DEFAULT_RESERVATION_TTL_MS,
  ledgerReservations,
  MAX_RESERVATION_MS,
} from '../../../lib/controllers/reservations.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

function ledger(buckets: Record<string, Record<string, { pods: number; basePods?: number }>>): KubeObject {
  const spec = {
    buckets: Object.fromEntries(
      Object.entries(buckets).map(([start, clusters]) => [
        start,
        Object.fromEntries(Object.entries(clusters).map(([c, a]) => [c, { resources: { cpu: a.pods * 1000 }, ...a }])),
      ]),
    ),
  };
  return { apiVersion: 'work.serverless-karmada.io/v1', kind: 'ClusterReservation', metadata: { name: 'fleet' }, spec };
}

const pods = (m: Record<string, number>) => (c: string) => m[c];
const reservedPods = (item: KubeObject, now: number, allocated?: (c: string) => number | undefined) =>
  Object.fromEntries(
    [...ledgerReservations(item, now, DEFAULT_RESERVATION_TTL_MS, allocated)].map(([c, r]) => [c, r.pods]),
  );

describe('scheduler reservations: how long they last', () => {
  const item = ledger({ [String(T0)]: { m1: { pods: 3, basePods: 2 } } });
  const rows: [string, number, ((c: string) => number | undefined) | undefined, Record<string, number>][] = [
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
  it('allocated pods come from the clusters’ summaries', () => {
    const clusters = [
      { metadata: { name: 'm1' }, status: { resourceSummary: { allocated: { pods: '4' } } } },
      { metadata: { name: 'm2' }, status: {} },
    ] as unknown as KubeObject[];
    const of = allocatedPodsOf(clusters);
    assert.deepEqual([of('m1'), of('m2'), of('m3')], [4, undefined, undefined]);
  });
});
