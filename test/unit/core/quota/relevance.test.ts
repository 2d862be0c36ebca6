/**
 * Which ResourceBinding updates are quota-relevant: Karmada's `isQuotaRelevantFieldChanged` and its
 * helpers, with the rows of Karmada's validating_test.go (TestIsQuotaRelevantFieldChanged,
 * TestIsResourceRequestChanged, TestIsScheduledReplicasChanged, TestIsComponentsChanged,
 * TestAreResourceListsEqual) mapped onto binding specs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quotaRelevantChanged, type QuotaBindingSpec } from '../../../../lib/core/quota/index.ts';
import type { Component } from '../../../../lib/core/model/types.ts';
import { component, replicaSpec } from './factories.ts';

const withRequest = (request: Record<string, string> | undefined): QuotaBindingSpec =>
  request ? { replicaRequirements: { resourceRequest: request } } : {};
const withClusters = (clusters: Record<string, number> | undefined): QuotaBindingSpec =>
  clusters ? { clusters: Object.entries(clusters).map(([name, replicas]) => ({ name, replicas })) } : {};
const withComponents = (components: Component[]): QuotaBindingSpec => ({ components });
/** validating_test's makeComponent: cpu '' means no replica requirements. */
const comp = (name: string, replicas: number, cpu: string) =>
  cpu ? component(name, replicas, { cpu }) : component(name, replicas);

describe('quotaRelevantChanged (isQuotaRelevantFieldChanged)', () => {
  const rows: { name: string; old: QuotaBindingSpec | undefined; new: QuotaBindingSpec; want: boolean }[] = [
    // TestIsQuotaRelevantFieldChanged
    { name: 'nil old RB should return true (a create)', old: undefined, new: {}, want: true },
    {
      name: 'no changes should return false',
      old: replicaSpec({ cpu: '100m' }, { c1: 2 }),
      new: replicaSpec({ cpu: '100m' }, { c1: 2 }),
      want: false,
    },
    {
      name: 'resource request changed should return true',
      old: withRequest({ cpu: '100m' }),
      new: withRequest({ cpu: '200m' }),
      want: true,
    },
    {
      name: 'scheduled replicas changed should return true',
      old: withClusters({ c1: 1 }),
      new: withClusters({ c1: 2 }),
      want: true,
    },
    {
      name: 'components changed should return true',
      old: withComponents([component('comp1', 1)]),
      new: withComponents([component('comp1', 2)]),
      want: true,
    },
    {
      name: 'non-quota relevant field changed should return false (resource reference)',
      old: { resource: { apiVersion: 'v1', kind: 'Pod', name: 'old-pod' } } as QuotaBindingSpec,
      new: { resource: { apiVersion: 'v1', kind: 'Pod', name: 'new-pod' } } as QuotaBindingSpec,
      want: false,
    },
    // TestIsResourceRequestChanged
    { name: 'no replica requirements in both should return false', old: {}, new: {}, want: false },
    {
      name: 'old has no replica requirements, new has some should return true',
      old: {},
      new: withRequest({ cpu: '100m' }),
      want: true,
    },
    {
      name: 'old has replica requirements, new has none should return true',
      old: withRequest({ cpu: '100m' }),
      new: {},
      want: true,
    },
    {
      name: 'same resource requests should return false',
      old: withRequest({ cpu: '100m', memory: '128Mi' }),
      new: withRequest({ cpu: '100m', memory: '128Mi' }),
      want: false,
    },
    {
      name: 'different resource types should return true',
      old: withRequest({ cpu: '100m' }),
      new: withRequest({ memory: '128Mi' }),
      want: true,
    },
    {
      name: 'areResourceListsEqual compares amounts (Cmp): 1 and 1000m are the same request',
      old: withRequest({ cpu: '1' }),
      new: withRequest({ cpu: '1000m' }),
      want: false,
    },
    {
      name: 'areResourceListsEqual: absent and empty requests are equal (one nil, one empty)',
      old: { replicaRequirements: {} },
      new: { replicaRequirements: { resourceRequest: {} } },
      want: false,
    },
    // TestIsScheduledReplicasChanged
    {
      name: 'no clusters in both should return false',
      old: withClusters(undefined),
      new: withClusters(undefined),
      want: false,
    },
    {
      name: 'same total replicas should return false (a move that keeps Σ replicas)',
      old: withClusters({ c1: 2, c2: 3 }),
      new: withClusters({ c1: 1, c2: 4 }),
      want: false,
    },
    {
      name: 'different total replicas should return true',
      old: withClusters({ c1: 2 }),
      new: withClusters({ c1: 3 }),
      want: true,
    },
    {
      name: 'old has no clusters, new has clusters should return true',
      old: withClusters(undefined),
      new: withClusters({ c1: 1 }),
      want: true,
    },
    {
      name: 'old has clusters, new has no clusters should return true',
      old: withClusters({ c1: 1 }),
      new: withClusters(undefined),
      want: true,
    },
    {
      name: 'without components, a different cluster with the same Σ replicas is not relevant',
      old: replicaSpec({ cpu: '1' }, { m1: 2 }),
      new: replicaSpec({ cpu: '1' }, { m2: 2 }),
      want: false,
    },
    // isScheduledClusterChanged (components only)
    {
      name: 'with components, the scheduled cluster set changing is relevant (one set per cluster)',
      old: { ...withComponents([comp('c', 1, '1')]), clusters: [{ name: 'm1' }] },
      new: { ...withComponents([comp('c', 1, '1')]), clusters: [{ name: 'm2' }] },
      want: true,
    },
    {
      name: 'with components, the same cluster set in another order is not relevant',
      old: { ...withComponents([comp('c', 1, '1')]), clusters: [{ name: 'm1' }, { name: 'm2' }] },
      new: { ...withComponents([comp('c', 1, '1')]), clusters: [{ name: 'm2' }, { name: 'm1' }] },
      want: false,
    },
    // TestIsComponentsChanged
    {
      name: 'no components in both should return false',
      old: withComponents([]),
      new: withComponents([]),
      want: false,
    },
    {
      name: 'same components should return false',
      old: withComponents([comp('comp1', 2, '100m'), comp('comp2', 1, '50m')]),
      new: withComponents([comp('comp1', 2, '100m'), comp('comp2', 1, '50m')]),
      want: false,
    },
    {
      name: 'different number of components should return true',
      old: withComponents([comp('comp1', 1, '100m')]),
      new: withComponents([comp('comp1', 1, '100m'), comp('comp2', 1, '50m')]),
      want: true,
    },
    {
      name: 'different replicas should return true',
      old: withComponents([comp('comp1', 1, '100m')]),
      new: withComponents([comp('comp1', 2, '100m')]),
      want: true,
    },
    {
      name: "old has replica requirements, new doesn't should return true",
      old: withComponents([comp('comp1', 1, '100m')]),
      new: withComponents([comp('comp1', 1, '')]),
      want: true,
    },
    {
      name: "old doesn't have replica requirements, new does should return true",
      old: withComponents([comp('comp1', 1, '')]),
      new: withComponents([comp('comp1', 1, '100m')]),
      want: true,
    },
    {
      name: 'different component resource requests should return true',
      old: withComponents([comp('comp1', 1, '100m')]),
      new: withComponents([comp('comp1', 1, '200m')]),
      want: true,
    },
    {
      name: 'Karmada quirk kept: a renamed component with equal replicas and requests is not relevant',
      old: withComponents([comp('comp-old', 1, '100m')]),
      new: withComponents([comp('comp-new', 1, '100m')]),
      want: false,
    },
  ];
  for (const row of rows) it(row.name, () => assert.equal(quotaRelevantChanged(row.old, row.new), row.want));
});
