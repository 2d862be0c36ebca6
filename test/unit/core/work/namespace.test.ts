/**
 * Namespace auto-propagation with ClusterOverridePolicies (Karmada's namespace sync controller
 * `buildWorks`: "namespace only care about ClusterOverridePolicy", recorded with RecordAppliedOverrides).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namespacesSelectedBy, namespaceWork } from '../../../../lib/core/work/index.ts';
import type { Cluster, KubeObject } from '../../../../lib/core/model/types.ts';
import type { OverridePolicy } from '../../../../lib/core/overrides/index.ts';

const ns: KubeObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: {
    name: 'team',
    uid: 'ns-uid',
    labels: { team: 'a' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
  },
};
const cluster = (name: string) =>
  ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name } }) as Cluster;
const cop = (name: string, selectors: unknown[], clusterNames?: string[]): OverridePolicy =>
  ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterOverridePolicy',
    metadata: { name },
    spec: {
      resourceSelectors: selectors,
      overrideRules: [
        {
          ...(clusterNames ? { targetCluster: { clusterNames } } : {}),
          overriders: { labelsOverrider: [{ operator: 'add', value: { env: 'prod' } }] },
        },
      ],
    },
  }) as unknown as OverridePolicy;
const manifestOf = (work: KubeObject) =>
  (work.spec as { workload: { manifests: KubeObject[] } }).workload.manifests[0]!;

describe('namespaceWork', () => {
  it('without overrides: the labels and annotations, managed by Karmada, adopted with overwrite', () => {
    const r = namespaceWork({ namespace: ns, cluster: cluster('m1') });
    assert.ok(r.ok);
    const m = manifestOf(r.work);
    assert.deepEqual(m.metadata.labels, { team: 'a', 'karmada.io/managed': 'true' });
    assert.deepEqual(m.metadata.annotations, { 'work.karmada.io/conflict-resolution': 'overwrite' });
    assert.equal(r.work.metadata.namespace, 'karmada-es-m1');
    assert.equal(r.work.metadata.annotations, undefined);
  });

  it('a ClusterOverridePolicy selecting the namespace applies on the clusters it targets and is recorded on the Work', () => {
    const policies = [cop('ns-prod', [{ apiVersion: 'v1', kind: 'Namespace', name: 'team' }], ['m1'])];
    const on1 = namespaceWork({ namespace: ns, cluster: cluster('m1'), clusterOverridePolicies: policies });
    const on2 = namespaceWork({ namespace: ns, cluster: cluster('m2'), clusterOverridePolicies: policies });
    assert.ok(on1.ok && on2.ok);
    assert.equal(manifestOf(on1.work).metadata.labels?.env, 'prod');
    assert.equal(manifestOf(on2.work).metadata.labels?.env, undefined);
    assert.match(
      on1.work.metadata.annotations?.['policy.karmada.io/applied-cluster-overrides'] ?? '',
      /"policyName":"ns-prod"/,
    );
    // A policy that no longer applies leaves no stale record on the stored Work.
    const again = namespaceWork({ namespace: ns, cluster: cluster('m1'), existing: on1.work });
    assert.ok(again.ok);
    assert.equal(again.work.metadata.annotations?.['policy.karmada.io/applied-cluster-overrides'], undefined);
  });

  it('a policy for Deployments does not touch namespaces', () => {
    const r = namespaceWork({
      namespace: ns,
      cluster: cluster('m1'),
      clusterOverridePolicies: [cop('deploys', [{ apiVersion: 'apps/v1', kind: 'Deployment' }])],
    });
    assert.ok(r.ok);
    assert.equal(manifestOf(r.work).metadata.labels?.env, undefined);
  });

  it('namespacesSelectedBy: all for a nameless Namespace selector, else the names, none for other kinds', () => {
    assert.equal(namespacesSelectedBy(cop('a', [{ apiVersion: 'v1', kind: 'Namespace' }])), 'all');
    assert.deepEqual(namespacesSelectedBy(cop('b', [{ apiVersion: 'v1', kind: 'Namespace', name: 'x' }])), ['x']);
    assert.deepEqual(namespacesSelectedBy(cop('c', [{ apiVersion: 'apps/v1', kind: 'Deployment' }])), []);
  });
});
