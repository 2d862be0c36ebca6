import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  INVALID_REPLICAS,
  isStaticWeight,
  needReplicas,
  sortClusters,
} from '../../../../../lib/core/scheduler/spread/index.ts';
import type { Placement, ResourceBindingSpec } from '../../../../../lib/core/model/types.ts';
import { detail } from './fixtures.ts';

const spec = (replicas: number, placement?: Placement): ResourceBindingSpec => ({
  resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' },
  replicas,
  ...(placement ? { placement } : {}),
});

describe('sortClusters (Karmada util_test.go Test_sortClusters + generateClustersInfo order)', () => {
  const rows: { name: string; input: [string, number, number][]; want: string[] }[] = [
    {
      name: 'different scores: higher score first',
      input: [
        ['b', 2, 0],
        ['a', 1, 0],
      ],
      want: ['b', 'a'],
    },
    {
      name: 'same score, default to sort by name (available also favours a here)',
      input: [
        ['b', 1, 5],
        ['a', 1, 10],
      ],
      want: ['a', 'b'],
    },
    {
      name: 'same score, sort by availableReplicas',
      input: [
        ['a', 1, 5],
        ['b', 1, 10],
      ],
      want: ['b', 'a'],
    },
    {
      name: 'group_clusters_test generateClusterScore: member4, member2, member3, member1',
      input: [
        ['member1', 20, 100],
        ['member2', 40, 100],
        ['member3', 30, 100],
        ['member4', 60, 100],
      ],
      want: ['member4', 'member2', 'member3', 'member1'],
    },
    {
      name: 'same score and available: name asc',
      input: [
        ['c', 0, 1],
        ['a', 0, 1],
        ['b', 0, 1],
      ],
      want: ['a', 'b', 'c'],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const details = row.input.map(([n, s, a]) => detail(n, s, a));
      const out = sortClusters(details);
      assert.equal(out, details, 'sorts in place and returns the same array');
      assert.deepEqual(
        out.map((c) => c.name),
        row.want,
      );
    });
  }

  it('is stable for entries equal on every key', () => {
    const a = detail('x', 1, 1);
    const b = detail('x', 1, 1);
    const out = sortClusters([detail('y', 0, 0), a, b]);
    assert.equal(out[0], a);
    assert.equal(out[1], b);
  });
});

describe('isStaticWeight (Karmada shouldIgnoreSpreadConstraint)', () => {
  const rows: { name: string; placement: Placement | undefined; want: boolean }[] = [
    { name: 'no placement', placement: undefined, want: false },
    { name: 'no replicaScheduling', placement: {}, want: false },
    { name: 'Duplicated', placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } }, want: false },
    {
      name: 'Divided + Aggregated',
      placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
      want: false,
    },
    {
      name: 'Divided + Weighted without weightPreference ⇒ static (weight 1 each)',
      placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } },
      want: true,
    },
    {
      name: 'Divided + Weighted with a staticWeightList',
      placement: {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 2 }] },
        },
      },
      want: true,
    },
    {
      name: 'Divided + Weighted with an empty staticWeightList is not static',
      placement: {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: [] },
        },
      },
      want: false,
    },
    {
      name: 'Divided + Weighted with dynamicWeight is not static (even with a staticWeightList)',
      placement: {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: {
            staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 2 }],
            dynamicWeight: 'AvailableReplicas',
          },
        },
      },
      want: false,
    },
  ];
  for (const row of rows) it(row.name, () => assert.equal(isStaticWeight(row.placement), row.want));
});

describe('needReplicas (Karmada shouldIgnoreAvailableResource)', () => {
  it('is -1 without replicaScheduling', () => assert.equal(needReplicas(spec(5, {})), INVALID_REPLICAS));
  it('is -1 without a placement', () => assert.equal(needReplicas(spec(5)), INVALID_REPLICAS));
  it('is -1 for Duplicated', () =>
    assert.equal(needReplicas(spec(5, { replicaScheduling: { replicaSchedulingType: 'Duplicated' } })), -1));
  it('is spec.replicas for Divided', () =>
    assert.equal(needReplicas(spec(7, { replicaScheduling: { replicaSchedulingType: 'Divided' } })), 7));
  it('is spec.replicas for an empty replicaSchedulingType (only nil or Duplicated ignore capacity)', () =>
    assert.equal(needReplicas(spec(3, { replicaScheduling: {} })), 3));
  it('reads the placement argument over spec.placement', () =>
    assert.equal(needReplicas(spec(4, {}), { replicaScheduling: { replicaSchedulingType: 'Divided' } }), 4));
});
