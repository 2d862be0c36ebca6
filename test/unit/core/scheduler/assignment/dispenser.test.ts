import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ClusterWeight,
  compareClusterWeights,
  mergeTargetClusters,
  spreadByTargetClusters,
  takeByWeight,
} from '../../../../../lib/core/scheduler/assignment/dispenser.ts';
import { asRecord, targets } from './factories.ts';

const w = (name: string, weight: number, lastReplicas = 0): ClusterWeight => ({ name, weight, lastReplicas });

describe('takeByWeight (Karmada v1.15 Dispenser.TakeByWeight)', () => {
  const rows: {
    name: string;
    num: number;
    init: Record<string, number>;
    weights: ClusterWeight[];
    want: Record<string, number>;
  }[] = [
    {
      name: 'Test_dispenser_takeByWeight "Scale up 6 replicas": 1:2:3 shares added to the previous 1/2/3',
      num: 6,
      init: { A: 1, B: 2, C: 3 },
      weights: [w('A', 1), w('B', 2), w('C', 3)],
      want: { A: 2, B: 4, C: 6 },
    },
    {
      name: 'Test_dispenser_takeByWeight "Scale up 3 replicas": the remainder goes to the HIGHEST weight, not the largest fraction',
      num: 3,
      init: { A: 1, B: 2, C: 3 },
      weights: [w('A', 1), w('B', 2), w('C', 3)],
      want: { A: 1, B: 3, C: 5 },
    },
    {
      name: 'Test_dispenser_takeByWeight "Scale up 2 replicas": floor shares 0/0/1, remainder to C',
      num: 2,
      init: { A: 1, B: 2, C: 3 },
      weights: [w('A', 1), w('B', 2), w('C', 3)],
      want: { A: 1, B: 2, C: 5 },
    },
    {
      name: 'Test_dynamicDivideReplicas "replica 12, dynamic weight 18:12:6" (v1.15): exact 6:4:2',
      num: 12,
      init: {},
      weights: [w('member1', 18), w('member2', 12), w('member3', 6)],
      want: { member1: 6, member2: 4, member3: 2 },
    },
    {
      name: 'Test_dynamicDivideReplicas "replica 12, dynamic weight 20:12:6" (v1.15): floors 6/3/1, remainder 2 to the two heaviest ⇒ 7:4:1',
      num: 12,
      init: {},
      weights: [w('member1', 20), w('member2', 12), w('member3', 6)],
      want: { member1: 7, member2: 4, member3: 1 },
    },
    {
      name: 'Test_dynamicDivideReplicas "replica 12, dynamic weight 6:12:6" (v1.15): 3:6:3',
      num: 12,
      init: {},
      weights: [w('member1', 6), w('member2', 12), w('member3', 6)],
      want: { member1: 3, member2: 6, member3: 3 },
    },
    {
      name: 'Dispenser.Done: nothing to divide with a previous result returns the previous result',
      num: 0,
      init: { A: 2 },
      weights: [w('A', 1), w('B', 1)],
      want: { A: 2 },
    },
    {
      name: 'all weights 0 returns the previous result unchanged',
      num: 5,
      init: { A: 2 },
      weights: [w('A', 0), w('B', 0)],
      want: { A: 2 },
    },
    {
      name: 'a cluster whose share is 0 stays in the result with 0 replicas (removed later by assignment)',
      num: 1,
      init: {},
      weights: [w('A', 9), w('B', 1)],
      want: { A: 1, B: 0 },
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(asRecord(takeByWeight(row.num, targets(row.init), row.weights)), row.want));
  }

  it('deviation from v1.15: equal weight and lastReplicas break by name ascending, never by a coin flip', () => {
    for (let i = 0; i < 20; i++) {
      assert.deepEqual(asRecord(takeByWeight(4, [], [w('c', 1), w('b', 1), w('a', 1)])), { a: 2, b: 1, c: 1 });
    }
  });

  it('keeps inertia: among equal weights the cluster with more previous replicas gets the remainder first', () => {
    assert.deepEqual(asRecord(takeByWeight(1, [], [w('a', 1, 0), w('b', 1, 3)])), { a: 0, b: 1 });
  });

  it('divides exactly when weight × replicas exceeds 2^53 (Go int64 arithmetic)', () => {
    const big = 2_000_000_000;
    const got = asRecord(takeByWeight(big, [], [w('a', big), w('b', big - 1)]));
    assert.equal(got.a! + got.b!, big);
    assert.deepEqual(got, { a: 1_000_000_001, b: 999_999_999 });
  });
});

describe('compareClusterWeights (dispenser order)', () => {
  it('sorts weight desc, then lastReplicas desc, then name asc (TestSortClusterByWeight "sort" plus the tie rules)', () => {
    const sorted = [w('cluster11', 1), w('cluster13', 3), w('b', 2, 0), w('a', 2, 0), w('z', 2, 5)].sort(
      compareClusterWeights,
    );
    assert.deepEqual(
      sorted.map((x) => x.name),
      ['cluster13', 'z', 'a', 'b', 'cluster11'],
    );
  });
});

describe('spreadByTargetClusters (Karmada v1.15 SpreadReplicasByTargetClusters)', () => {
  const rows: { name: string; sum: number; clusters: Record<string, number>; want: Record<string, number> }[] = [
    { name: 'TestDispenseReplicasByTargetClusters "empty clusters": nothing', sum: 10, clusters: {}, want: {} },
    {
      name: 'TestDispenseReplicasByTargetClusters "1 cluster, 5 replicas, 10 sum": weights are not caps',
      sum: 10,
      clusters: { member1: 5 },
      want: { member1: 10 },
    },
    {
      name: 'TestDispenseReplicasByTargetClusters "3 cluster, 1:1:1, 12 sum"',
      sum: 12,
      clusters: { member1: 5, member2: 5, member3: 5 },
      want: { member1: 4, member2: 4, member3: 4 },
    },
    {
      name: 'TestDispenseReplicasByTargetClusters "3 cluster, 1:1:1, 10 sum": the leftover to member1 (one of Karmada\'s accepted answers)',
      sum: 10,
      clusters: { member1: 5, member2: 5, member3: 5 },
      want: { member1: 4, member2: 3, member3: 3 },
    },
    {
      name: 'TestDispenseReplicasByTargetClusters "3 cluster, 1:2:3, 13 sum": 2:4:7',
      sum: 13,
      clusters: { member1: 1, member2: 2, member3: 3 },
      want: { member1: 2, member2: 4, member3: 7 },
    },
  ];
  for (const row of rows) {
    it(row.name, () =>
      assert.deepEqual(asRecord(spreadByTargetClusters(row.sum, targets(row.clusters), [])), row.want),
    );
  }

  it('takes lastReplicas from the initial result, so equal capacities favour where replicas already run', () => {
    assert.deepEqual(asRecord(spreadByTargetClusters(1, targets({ a: 5, b: 5 }), targets({ b: 2 }))), { a: 0, b: 3 });
  });
});

describe('mergeTargetClusters (Karmada util.MergeTargetClusters)', () => {
  it('adds same-named replicas and keeps entries only the previous result has', () => {
    assert.deepEqual(
      mergeTargetClusters(targets({ a: 1, b: 2 }), targets({ b: 3, c: 4 })),
      targets({ b: 5, c: 4, a: 1 }),
    );
  });
  it('returns the other side when one side is empty', () => {
    assert.deepEqual(mergeTargetClusters([], targets({ a: 1 })), targets({ a: 1 }));
    assert.deepEqual(mergeTargetClusters(targets({ a: 1 }), []), targets({ a: 1 }));
  });
});
