import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterDetail } from '../../../../../lib/core/scheduler/framework/types.ts';
import {
  selectBestClusters,
  selectByCluster,
  sortClusters,
  SPREAD_ERRORS,
} from '../../../../../lib/core/scheduler/spread/index.ts';
import type { Placement, ResourceBindingSpec, SpreadConstraint } from '../../../../../lib/core/model/types.ts';
import { detail, names, rng } from './fixtures.ts';

const spec = (replicas: number, placement: Placement): ResourceBindingSpec => ({
  resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' },
  replicas,
  placement,
});
const sc = (spreadByField: SpreadConstraint['spreadByField'], minGroups?: number, maxGroups?: number) => ({
  spreadByField,
  ...(minGroups === undefined ? {} : { minGroups }),
  ...(maxGroups === undefined ? {} : { maxGroups }),
});
const divided: Placement['replicaScheduling'] = { replicaSchedulingType: 'Divided' };
const duplicated: Placement['replicaScheduling'] = { replicaSchedulingType: 'Duplicated' };
const staticWeight: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 2 }] },
};

/** Karmada select_clusters_test.go `generateClusterInfo()` (already in Karmada's order). */
const karmadaClusters = () => [
  detail('member4', 60, 50, { provider: 'P2', region: 'R2', zone: 'Z2' }),
  detail('member2', 40, 60, { provider: 'P1', region: 'R1', zone: 'Z2' }),
  detail('member3', 30, 80, { provider: 'P2', region: 'R1', zone: 'Z1' }),
  detail('member1', 20, 40, { provider: 'P1', region: 'R1', zone: 'Z1' }),
];

interface Row {
  name: string;
  placement: Placement;
  replicas: number;
  clusters: () => ClusterDetail[];
  want: string[] | string;
}

function run(rows: Row[]) {
  for (const row of rows) {
    it(row.name, () => {
      const clusters = row.clusters();
      const before = clusters.map((c) => c.name);
      const out = selectBestClusters({ spec: spec(row.replicas, row.placement), clusters });
      assert.deepEqual(names(out), row.want);
      if (!out.ok) assert.equal(out.failure.reason, 'SchedulerError');
      assert.deepEqual(
        clusters.map((c) => c.name),
        before,
        'input not modified',
      );
    });
  }
}

describe('selectBestClusters (Karmada select_clusters_test.go TestSelectBestClusters)', () => {
  run([
    {
      name: 'select clusters by cluster score',
      placement: { spreadConstraints: [sc('cluster', 1, 2)] },
      replicas: 100,
      clusters: karmadaClusters,
      want: ['member4', 'member2'],
    },
    {
      name: 'select clusters by cluster score and ignore available resources when scheduling strategy is duplicated',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: duplicated },
      replicas: 120,
      clusters: karmadaClusters,
      want: ['member4', 'member2'],
    },
    {
      name: 'select clusters by cluster score and ignore available resources when scheduling strategy is static weight',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: staticWeight },
      replicas: 120,
      clusters: karmadaClusters,
      want: ['member4', 'member2', 'member3', 'member1'],
    },
    {
      name: 'select clusters by cluster score and satisfy available resources',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 120,
      clusters: karmadaClusters,
      want: ['member4', 'member3'],
    },
    {
      name: 'select clusters by cluster score and insufficient resources',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 200,
      clusters: karmadaClusters,
      want: 'no enough resource when selecting 2 clusters',
    },
    {
      name: 'select clusters by cluster score and exceeded the number of available clusters.',
      placement: { spreadConstraints: [sc('cluster', 7, 7)] },
      replicas: 30,
      clusters: karmadaClusters,
      want: SPREAD_ERRORS.clusterMinGroups,
    },
  ]);
});

describe('selectBestClusters: which algorithm (§2.2.2, §4 item 5)', () => {
  const unsorted = () => [
    detail('b', 0, 10, { provider: 'P1', region: 'R1', zone: 'Z1' }),
    detail('c', 100, 1, { provider: 'P1', region: 'R2', zone: 'Z2' }),
    detail('a', 0, 10, { provider: 'P2', region: 'R1', zone: 'Z1' }),
  ];
  run([
    {
      name: 'no spread constraints ⇒ every cluster, in Karmada order (score, available, name)',
      placement: {},
      replicas: 5,
      clusters: unsorted,
      want: ['c', 'a', 'b'],
    },
    {
      name: 'static weight ignores a cluster constraint that would keep 1 cluster',
      placement: { spreadConstraints: [sc('cluster', 1, 1)], replicaScheduling: staticWeight },
      replicas: 5,
      clusters: unsorted,
      want: ['c', 'a', 'b'],
    },
    {
      name: 'static weight ignores a region constraint that cannot be met',
      placement: {
        spreadConstraints: [sc('region', 5, 5), sc('cluster', 5, 5)],
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
      },
      replicas: 5,
      clusters: unsorted,
      want: ['c', 'a', 'b'],
    },
    {
      name: 'static weight ignores a zone-only constraint (no unsupported error)',
      placement: { spreadConstraints: [sc('zone', 1, 1)], replicaScheduling: staticWeight },
      replicas: 5,
      clusters: unsorted,
      want: ['c', 'a', 'b'],
    },
    {
      name: 'zone-only constraint ⇒ just support cluster and region spread constraint',
      placement: { spreadConstraints: [sc('zone', 1, 2)] },
      replicas: 5,
      clusters: unsorted,
      want: SPREAD_ERRORS.unsupported,
    },
    {
      name: 'provider-only constraint ⇒ just support cluster and region spread constraint',
      placement: { spreadConstraints: [sc('provider', 1, 2)], replicaScheduling: divided },
      replicas: 5,
      clusters: unsorted,
      want: 'just support cluster and region spread constraint',
    },
    {
      name: 'zone + provider constraints ⇒ unsupported as well',
      placement: { spreadConstraints: [sc('zone', 1, 2), sc('provider', 1, 2)] },
      replicas: 5,
      clusters: unsorted,
      want: SPREAD_ERRORS.unsupported,
    },
    {
      name: 'spreadByLabel constraint ⇒ unsupported (its spreadByField is empty)',
      placement: { spreadConstraints: [{ spreadByLabel: 'team', minGroups: 1, maxGroups: 2 }] },
      replicas: 5,
      clusters: unsorted,
      want: SPREAD_ERRORS.unsupported,
    },
    {
      name: 'constraint without spreadByField is not defaulted to cluster here (the webhook does that)',
      placement: { spreadConstraints: [{ minGroups: 1, maxGroups: 2 }] },
      replicas: 5,
      clusters: unsorted,
      want: SPREAD_ERRORS.unsupported,
    },
    {
      name: 'zone + cluster constraints ⇒ cluster algorithm (zone groups unused)',
      placement: { spreadConstraints: [sc('zone', 5, 5), sc('cluster', 1, 2)] },
      replicas: 5,
      clusters: unsorted,
      want: ['c', 'a'],
    },
    {
      // R1 (a, b hold 5 replicas: 2*1000) outranks R2 (c holds 1: 0), so R1's best cluster comes first.
      name: 'provider + region + cluster constraints ⇒ region algorithm, regions in group-score order',
      placement: { spreadConstraints: [sc('provider', 9, 9), sc('region', 2, 2), sc('cluster', 2, 2)] },
      replicas: 5,
      clusters: unsorted,
      want: ['a', 'c'],
    },
    {
      name: 'several cluster constraints: the last one counts (Karmada map)',
      placement: { spreadConstraints: [sc('cluster', 1, 3), sc('cluster', 1, 1)] },
      replicas: 5,
      clusters: unsorted,
      want: ['c'],
    },
  ]);
});

describe('selectBestClusters: cluster spread constraint (A.4)', () => {
  const capacity = () => [detail('m1', 100, 5), detail('m2', 90, 5), detail('m3', 80, 50), detail('m4', 70, 20)];
  run([
    {
      name: 'enough capacity in the top maxGroups ⇒ no swap',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 10,
      clusters: capacity,
      want: ['m1', 'm2'],
    },
    {
      name: 'insufficient capacity ⇒ the last selected is swapped for the largest remaining',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 40,
      clusters: capacity,
      want: ['m1', 'm3'],
    },
    {
      name: 'still short ⇒ walks backwards, swapping the earlier position too (positions kept)',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 65,
      clusters: capacity,
      want: ['m4', 'm3'],
    },
    {
      name: 'short after every swap ⇒ no enough resource when selecting 2 clusters',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 71,
      clusters: capacity,
      want: 'no enough resource when selecting 2 clusters',
    },
    {
      name: 'a swapped-out cluster returns to the rest and can be swapped back in earlier',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 35,
      clusters: () => [detail('x', 100, 1), detail('y', 90, 5), detail('z', 80, 30)],
      want: ['y', 'z'],
    },
    {
      name: 'Karmada doc example: needClusterCount 2, needReplicas 80 ⇒ member1 and member3',
      placement: { spreadConstraints: [sc('cluster', 1, 2)], replicaScheduling: divided },
      replicas: 80,
      clusters: () => [detail('member1', 60, 40), detail('member2', 50, 30), detail('member3', 40, 60)],
      want: ['member1', 'member3'],
    },
    {
      name: 'maxGroups above #clusters selects all of them',
      placement: { spreadConstraints: [sc('cluster', 1, 10)], replicaScheduling: divided },
      replicas: 80,
      clusters: capacity,
      want: ['m1', 'm2', 'm3', 'm4'],
    },
    {
      name: 'minGroups > #clusters ⇒ the number of feasible clusters is less than spreadConstraint.MinGroups',
      placement: { spreadConstraints: [sc('cluster', 5, 5)], replicaScheduling: divided },
      replicas: 1,
      clusters: capacity,
      want: 'the number of feasible clusters is less than spreadConstraint.MinGroups',
    },
    {
      name: 'maxGroups omitted, Duplicated ⇒ zero clusters (assignment then fails: no clusters available to schedule)',
      placement: { spreadConstraints: [sc('cluster', 1)], replicaScheduling: duplicated },
      replicas: 2,
      clusters: capacity,
      want: [],
    },
    {
      name: 'maxGroups omitted, no replicaScheduling ⇒ zero clusters',
      placement: { spreadConstraints: [sc('cluster', 1)] },
      replicas: 2,
      clusters: capacity,
      want: [],
    },
    {
      name: 'maxGroups omitted, Divided ⇒ no enough resource when selecting 0 clusters',
      placement: { spreadConstraints: [sc('cluster', 1)], replicaScheduling: divided },
      replicas: 2,
      clusters: capacity,
      want: 'no enough resource when selecting 0 clusters',
    },
    {
      name: 'maxGroups omitted, Divided with 0 replicas ⇒ still the 0-clusters error (empty result is an error)',
      placement: { spreadConstraints: [sc('cluster', 1)], replicaScheduling: divided },
      replicas: 0,
      clusters: capacity,
      want: 'no enough resource when selecting 0 clusters',
    },
    {
      name: 'no clusters and minGroups 0 ⇒ Duplicated selects nothing',
      placement: { spreadConstraints: [sc('cluster', 0, 2)] },
      replicas: 2,
      clusters: () => [],
      want: [],
    },
  ]);
});

describe('selectBestClusters: region spread constraint', () => {
  // 3 regions × 2 clusters, 10 available each.
  const threeByTwo = () => [
    detail('r1-a', 100, 10, { region: 'R1' }),
    detail('r1-b', 90, 10, { region: 'R1' }),
    detail('r2-a', 80, 10, { region: 'R2' }),
    detail('r2-b', 70, 10, { region: 'R2' }),
    detail('r3-a', 60, 10, { region: 'R3' }),
    detail('r3-b', 50, 10, { region: 'R3' }),
  ];
  run([
    {
      name: '3 regions × 2 clusters, region min=max=3, cluster min=max=3 ⇒ one cluster per region',
      placement: { spreadConstraints: [sc('region', 3, 3), sc('cluster', 3, 3)], replicaScheduling: duplicated },
      replicas: 2,
      clusters: threeByTwo,
      want: ['r1-a', 'r2-a', 'r3-a'],
    },
    {
      name: 'same with Divided replicas (group score by capacity) ⇒ one cluster per region',
      placement: { spreadConstraints: [sc('region', 3, 3), sc('cluster', 3, 3)], replicaScheduling: divided },
      replicas: 30,
      clusters: threeByTwo,
      want: ['r1-a', 'r2-a', 'r3-a'],
    },
    {
      name: 'cluster maxGroups 4 ⇒ best cluster per region, then the best remaining cluster',
      placement: { spreadConstraints: [sc('region', 3, 3), sc('cluster', 3, 4)], replicaScheduling: duplicated },
      replicas: 2,
      clusters: threeByTwo,
      want: ['r1-a', 'r2-a', 'r3-a', 'r1-b'],
    },
    {
      name: 'region min=max=2 ⇒ the two best-scored regions',
      placement: { spreadConstraints: [sc('region', 2, 2), sc('cluster', 2, 4)], replicaScheduling: duplicated },
      replicas: 2,
      clusters: threeByTwo,
      want: ['r1-a', 'r2-a', 'r1-b', 'r2-b'],
    },
    {
      name: 'Duplicated group score counts clusters that hold all replicas: a full region wins over a better-scored one',
      placement: { spreadConstraints: [sc('region', 1, 1), sc('cluster', 1, 2)], replicaScheduling: duplicated },
      replicas: 10,
      clusters: () => [
        detail('hi-1', 100, 10, { region: 'HI' }),
        detail('hi-2', 100, 1, { region: 'HI' }),
        detail('lo-1', 0, 10, { region: 'LO' }),
        detail('lo-2', 0, 10, { region: 'LO' }),
      ],
      want: ['lo-1', 'lo-2'],
    },
    {
      name: 'capacity is not checked by the region algorithm',
      placement: { spreadConstraints: [sc('region', 1, 1), sc('cluster', 1, 1)], replicaScheduling: divided },
      replicas: 1000,
      clusters: threeByTwo,
      want: ['r1-a'],
    },
    {
      name: 'region minGroups > #regions ⇒ the number of feasible region is less than spreadConstraint.MinGroups',
      placement: { spreadConstraints: [sc('region', 4, 4), sc('cluster', 4, 4)], replicaScheduling: duplicated },
      replicas: 2,
      clusters: threeByTwo,
      want: 'the number of feasible region is less than spreadConstraint.MinGroups',
    },
    {
      name: 'cluster minGroups above the clusters of any allowed combination ⇒ cluster minGroups error',
      placement: { spreadConstraints: [sc('region', 1, 2), sc('cluster', 5, 6)], replicaScheduling: duplicated },
      replicas: 2,
      clusters: threeByTwo,
      want: 'the number of clusters is less than the cluster spreadConstraint.MinGroups',
    },
    {
      name: 'clusters without a region are not candidates',
      placement: { spreadConstraints: [sc('region', 1, 1), sc('cluster', 1, 3)], replicaScheduling: duplicated },
      replicas: 2,
      clusters: () => [detail('none', 100, 100), detail('r-1', 0, 10, { region: 'R' })],
      want: ['r-1'],
    },
  ]);
});

/** Literal transcription of Karmada's selectBestClustersByCluster / selectClustersByAvailableResource. */
function karmadaByCluster(c: SpreadConstraint, clusters: ClusterDetail[], need: number): string[] | string {
  const all = clusters.slice();
  if (all.length < (c.minGroups ?? 0)) return SPREAD_ERRORS.clusterMinGroups;
  const needCnt = Math.min(all.length, c.maxGroups ?? 0);
  if (need === -1) return all.slice(0, needCnt).map((x) => x.name);
  const check = () => all.slice(0, needCnt).reduce((s, x) => s + x.availableReplicas, 0) >= need;
  let u = needCnt - 1;
  while (!check() && u >= 0) {
    let id = -1;
    let max = all[u]!.availableReplicas;
    for (let i = needCnt; i < all.length; i++) {
      if (max < all[i]!.availableReplicas) {
        id = i;
        max = all[i]!.availableReplicas;
      }
    }
    if (id !== -1) [all[u], all[id]] = [all[id]!, all[u]!];
    u--;
  }
  if (!check() || needCnt === 0) return `no enough resource when selecting ${needCnt} clusters`;
  return all.slice(0, needCnt).map((x) => x.name);
}

describe('selectByCluster agrees with a literal port of Karmada on random inputs', () => {
  it('3000 random cluster sets (ties in score and capacity included)', () => {
    const rand = rng(6516);
    const int = (n: number) => Math.floor(rand() * n);
    for (let round = 0; round < 3000; round++) {
      const n = int(12);
      const clusters = sortClusters(Array.from({ length: n }, (_, i) => detail(`m${i}`, int(3) * 50, int(8) * 5)));
      const c: SpreadConstraint = { spreadByField: 'cluster', minGroups: int(4), maxGroups: int(n + 2) };
      const need = rand() < 0.2 ? -1 : int(120);
      assert.deepEqual(
        names(selectByCluster(c, clusters, need)),
        karmadaByCluster(c, clusters, need),
        JSON.stringify({ c, need, clusters: clusters.map((x) => [x.name, x.score, x.availableReplicas]) }),
      );
    }
  });
});
