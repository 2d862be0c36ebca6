import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectByRegion, SPREAD_ERRORS, type ClusterGroup } from '../../../../../lib/core/scheduler/spread/index.ts';
import type { SpreadConstraint } from '../../../../../lib/core/model/types.ts';
import { detail, names } from './fixtures.ts';

/** A region group with a preset score, clusters given as [name, score, available] (Karmada `RegionInfo`). */
const region = (name: string, score: number, clusters: [string, number, number][]): ClusterGroup => {
  const cs = clusters.map(([n, s, a]) => detail(n, s, a, { provider: 'P1', region: name, zone: 'Z1' }));
  return { name, score, availableReplicas: cs.reduce((t, c) => t + c.availableReplicas, 0), clusters: cs };
};
const byRegion = (minGroups: number, maxGroups: number): SpreadConstraint => ({
  spreadByField: 'region',
  minGroups,
  maxGroups,
});
const byCluster = (minGroups: number, maxGroups: number): SpreadConstraint => ({
  spreadByField: 'cluster',
  minGroups,
  maxGroups,
});

const twoRegions = () => [
  region('R1', 100, [
    ['member1', 100, 40],
    ['member2', 80, 40],
  ]),
  region('R2', 80, [
    ['member3', 80, 40],
    ['member4', 80, 40],
    ['member5', 60, 40],
  ]),
];

describe('selectByRegion (Karmada select_clusters_by_region_test.go Test_selectBestClustersByRegion)', () => {
  const rows: {
    name: string;
    regions: ClusterGroup[];
    region: SpreadConstraint;
    cluster: SpreadConstraint;
    want: string[] | string;
  }[] = [
    {
      name: 'select cluster from the region with the higher score',
      regions: twoRegions(),
      region: byRegion(1, 1),
      cluster: byCluster(2, 2),
      want: ['member1', 'member2'],
    },
    {
      name: 'select cluster from the region with enough clusters',
      regions: twoRegions(),
      region: byRegion(1, 1),
      cluster: byCluster(3, 3),
      want: ['member3', 'member4', 'member5'],
    },
    {
      name: 'select cluster from the region with enough clusters and higher score',
      regions: [
        region('R1', 90, [['member1', 90, 40]]),
        region('R2', 70, [
          ['member2', 70, 40],
          ['member3', 60, 40],
          ['member4', 30, 40],
        ]),
        region('R3', 80, [
          ['member5', 80, 40],
          ['member6', 50, 60],
        ]),
        region('R4', 50, [
          ['member7', 50, 50],
          ['member8', 40, 50],
          ['member9', 10, 50],
          ['member10', 0, 50],
        ]),
      ],
      region: byRegion(2, 2),
      cluster: byCluster(4, 5),
      want: ['member1', 'member2', 'member3', 'member4'],
    },
    {
      name: 'select cluster from more than `minGroups` regions with enough clusters and higher score',
      regions: [
        region('R1', 70, [['member1', 70, 40]]),
        region('R2', 40, [
          ['member2', 40, 40],
          ['member3', 40, 40],
          ['member4', 40, 40],
        ]),
        region('R3', 60, [
          ['member5', 60, 40],
          ['member6', 50, 60],
        ]),
        region('R4', 70, [['member7', 70, 100]]),
        region('R5', 50, [['member8', 50, 50]]),
      ],
      region: byRegion(1, 3),
      cluster: byCluster(6, 8),
      want: ['member1', 'member5', 'member2', 'member6', 'member3', 'member4'],
    },
    {
      name: 'no enough region',
      regions: twoRegions(),
      region: byRegion(3, 3),
      cluster: byCluster(3, 3),
      want: SPREAD_ERRORS.regionMinGroups,
    },
    {
      name: 'no enough clusters',
      regions: [
        region('R1', 100, [
          ['member1', 100, 40],
          ['member2', 80, 60],
        ]),
        region('R2', 80, [
          ['member3', 80, 40],
          ['member4', 80, 40],
          ['member5', 60, 40],
        ]),
      ],
      region: byRegion(1, 1),
      cluster: byCluster(4, 4),
      want: SPREAD_ERRORS.regionClusterMinGroups,
    },
    {
      name: 'no more regions to replace',
      regions: [
        region('R1', 100, [
          ['member1', 100, 40],
          ['member2', 80, 20],
        ]),
      ],
      region: byRegion(1, 1),
      cluster: byCluster(3, 4),
      want: SPREAD_ERRORS.regionClusterMinGroups,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const out = selectByRegion(row.regions, row.region, row.cluster);
      assert.deepEqual(names(out), row.want);
      if (!out.ok) assert.equal(out.failure.reason, 'SchedulerError');
    });
  }

  it('without a cluster constraint takes only the best cluster of each chosen region (maxGroups reads 0)', () => {
    assert.deepEqual(names(selectByRegion(twoRegions(), byRegion(2, 2), undefined)), ['member1', 'member3']);
  });

  it('region maxGroups omitted (0) finds no region combination', () => {
    assert.deepEqual(
      names(selectByRegion(twoRegions(), { spreadByField: 'region', minGroups: 1 }, byCluster(1, 2))),
      SPREAD_ERRORS.regionClusterMinGroups,
    );
  });
});
