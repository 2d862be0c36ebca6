import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterDetail } from '../../../../../lib/core/scheduler/framework/types.ts';
import {
  groupClusters,
  groupScore,
  groupScoreForDuplicate,
  sortClusters,
  type GroupField,
} from '../../../../../lib/core/scheduler/spread/index.ts';
import type { Placement } from '../../../../../lib/core/model/types.ts';
import { detail } from './fixtures.ts';

/** Karmada group_clusters_test.go `generateClusterScores(n, scores, replicas)`. */
const scores = (s: number[], avail: number[]): ClusterDetail[] =>
  s.map((score, i) => detail(`member${i + 1}`, score, avail[i]!));

/** Karmada group_clusters_test.go `generateRbSpec(replica)` placements. */
const placements: Record<'duplicated' | 'aggregated' | 'dynamicWeight' | 'staticWeight', Placement> = {
  duplicated: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
  aggregated: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
  dynamicWeight: {
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: { dynamicWeight: 'AvailableReplicas' },
    },
  },
  staticWeight: {
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: { staticWeightList: [] },
    },
  },
};

describe('groupScore (Karmada group_clusters_test.go Test_CalcGroupScore)', () => {
  const rows: {
    id: number;
    c1: ClusterDetail[];
    c2: ClusterDetail[];
    placement: Placement;
    replicas: number;
    minGroups: number;
    group1Wins: boolean;
    why: string;
  }[] = [
    {
      id: 1,
      c1: scores([100, 100, 0, 0, 0], [30, 30, 30, 30, 30]),
      c2: scores([100, 100, 100, 100, 100], [30, 30, 30, 10, 10]),
      placement: placements.duplicated,
      replicas: 20,
      minGroups: 0,
      group1Wins: true,
      why: 'duplicated: more clusters meet the replica requirement',
    },
    {
      id: 2,
      c1: scores([100, 100, 0, 0, 0], [30, 30, 30, 10, 10]),
      c2: scores([100, 100, 100, 100, 100], [30, 30, 30, 10, 10]),
      placement: placements.duplicated,
      replicas: 20,
      minGroups: 0,
      group1Wins: false,
      why: 'duplicated: same number of fitting clusters, clusters2 scores higher',
    },
    {
      id: 3,
      c1: scores([100, 100, 0, 0, 0], [30, 30, 30, 10, 10]),
      c2: scores([100, 100, 100, 100, 100], [10, 10, 10, 5, 5]),
      placement: placements.aggregated,
      replicas: 100,
      minGroups: 2,
      group1Wins: true,
      why: 'aggregated: clusters1 meets the replica target, clusters2 does not',
    },
    {
      id: 4,
      c1: scores([100, 100, 0, 0, 0], [10, 10, 10, 10, 5]),
      c2: scores([100, 100, 100, 100, 100], [10, 10, 10, 5, 5]),
      placement: placements.dynamicWeight,
      replicas: 100,
      minGroups: 2,
      group1Wins: true,
      why: "dynamic weight: clusters1's available replicas are larger",
    },
    {
      id: 5,
      c1: scores([100, 100, 0, 0, 0], [10, 10, 10, 5, 5]),
      c2: scores([100, 100, 100, 100, 100], [10, 10, 10, 5, 5]),
      placement: placements.staticWeight,
      replicas: 100,
      minGroups: 2,
      group1Wins: false,
      why: 'empty static weight list (Divided scoring): clusters2 scores higher',
    },
    {
      id: 6,
      c1: scores([0, 0, 0, 0, 0], [100, 100, 100, 100, 100]),
      c2: scores([100, 100, 100, 100, 100], [50, 50, 50, 50, 50]),
      placement: placements.aggregated,
      replicas: 100,
      minGroups: 2,
      group1Wins: false,
      why: 'aggregated: both reach the target, clusters2 scores higher despite less capacity',
    },
  ];
  for (const row of rows) {
    it(`#${row.id} ${row.why}`, () => {
      const s1 = groupScore(row.c1, row.placement, row.replicas, row.minGroups);
      const s2 = groupScore(row.c2, row.placement, row.replicas, row.minGroups);
      assert.equal(s1 >= s2, row.group1Wins, `score1=${s1} score2=${s2}`);
    });
  }
});

describe('groupScore worked examples (comments in Karmada group_clusters.go)', () => {
  const divided: Placement = {
    replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
    spreadConstraints: [
      { spreadByField: 'region', minGroups: 2, maxGroups: 2 },
      { spreadByField: 'cluster', minGroups: 1, maxGroups: 5 },
    ],
  };
  it('duplicated, 50 replicas: 2 fitting clusters at score 100 ⇒ 2100; 4 fitting at score 0 ⇒ 4000', () => {
    assert.equal(groupScore(scores([100, 100, 100, 100, 100], [60, 70, 40, 30, 10]), undefined, 50, 1), 2100);
    assert.equal(groupScore(scores([0, 0, 0, 0], [60, 60, 60, 60]), undefined, 50, 1), 4000);
  });
  it('duplicated, 50 replicas: same fitting count ⇒ average score decides (2100 vs 2000)', () => {
    assert.equal(groupScoreForDuplicate(scores([100, 100, 100, 100, 100], [60, 70, 10, 10, 5]), 50), 2100);
    assert.equal(groupScoreForDuplicate(scores([0, 0, 0, 0], [100, 100, 10, 10]), 50), 2000);
  });
  it('divided, 100 replicas over 2 regions: short of the target ⇒ Σavailable*1000 + avg (45100 vs 50000)', () => {
    assert.equal(groupScore(scores([100, 100, 100, 100, 100], [10, 10, 10, 10, 5]), divided, 100, 2), 45100);
    assert.equal(groupScore(scores([0, 0, 0, 0], [40, 30, 10, 10]), divided, 100, 2), 50000);
  });
  it('divided, 100 replicas over 2 regions: both reach the target ⇒ average score decides (50100 vs 50000)', () => {
    assert.equal(groupScore(scores([100, 100, 100, 100, 100], [40, 40, 10, 10, 5]), divided, 100, 2), 50100);
    assert.equal(groupScore(scores([0, 0, 0, 0], [100, 100, 10, 10]), divided, 100, 2), 50000);
  });
  it('divided: the cluster constraint minGroups raises how many clusters are averaged', () => {
    const p: Placement = { ...divided, spreadConstraints: [{ spreadByField: 'cluster', minGroups: 3, maxGroups: 5 }] };
    // target 50 reached after 1 cluster, but 3 clusters are taken: 50*1000 + (100+50+0)/3 = 50050
    assert.equal(groupScore(scores([100, 50, 0], [60, 10, 10]), p, 100, 2), 50050);
  });
  it('divided with group minGroups 0 (webhook default bypassed): amd64 Go gives a 0 replica term', () => {
    // ceil(100/0) = +Inf ⇒ int64 MinInt64 on amd64; every prefix "reaches" it and MinInt64*1000 wraps to 0.
    assert.equal(groupScore(scores([90, 10], [1, 1]), placements.aggregated, 100, 0), 90);
  });
});

describe('groupScoreForDuplicate (Karmada Test_CalcGroupScoreForDuplicate)', () => {
  it('get 0 score when clusters is empty', () => assert.equal(groupScoreForDuplicate([], 10), 0));
  it('get 0 score when all clusters can not meet the replica requirements', () =>
    assert.equal(groupScoreForDuplicate(scores([50, 50], [5, 5]), 10), 0));
});

describe('groupClusters (Karmada group_clusters_test.go Test_GroupClustersWithScore)', () => {
  // generateClusterScore(): member1 P1/R1/Z1 20, member2 P1/R1/Z2 40, member3 P2/R1/Z1 30, member4 P2/R2/Z2 60; 100 available each.
  const sorted = sortClusters([
    detail('member1', 20, 100, { provider: 'P1', region: 'R1', zone: 'Z1' }),
    detail('member2', 40, 100, { provider: 'P1', region: 'R1', zone: 'Z2' }),
    detail('member3', 30, 100, { provider: 'P2', region: 'R1', zone: 'Z1' }),
    detail('member4', 60, 100, { provider: 'P2', region: 'R2', zone: 'Z2' }),
  ]);
  const rows: { field: GroupField; want: Record<string, string[]> }[] = [
    { field: 'zone', want: { Z2: ['member4', 'member2'], Z1: ['member3', 'member1'] } },
    { field: 'region', want: { R2: ['member4'], R1: ['member2', 'member3', 'member1'] } },
    { field: 'provider', want: { P2: ['member4', 'member3'], P1: ['member2', 'member1'] } },
  ];
  for (const row of rows) {
    it(`test SpreadConstraints is ${row.field}: 2 groups, clusters kept in sorted order`, () => {
      const groups = groupClusters(row.field, sorted, {}, 0, 1);
      assert.deepEqual(Object.fromEntries(groups.map((gr) => [gr.name, gr.clusters.map((c) => c.name)])), row.want);
      for (const gr of groups) assert.equal(gr.availableReplicas, gr.clusters.length * 100);
    });
  }
  it('leaves out clusters without the field', () => {
    const groups = groupClusters('region', [detail('a', 0, 1, { region: 'R1' }), detail('b', 0, 1)], {}, 0, 1);
    assert.deepEqual(
      groups.map((gr) => gr.clusters.map((c) => c.name)),
      [['a']],
    );
  });
  it('scores each group with groupScore', () => {
    const groups = groupClusters('region', sorted, placements.duplicated, 50, 1);
    // Duplicated, 50 replicas, all clusters hold 100: R2 = 1*1000 + 60, R1 = 3*1000 + (40+30+20)/3
    assert.deepEqual(
      groups.map((gr) => [gr.name, gr.score]),
      [
        ['R2', 1060],
        ['R1', 3030],
      ],
    );
  });
});
