/**
 * Karmada v1.17 workload affinity / anti-affinity (`plugins/workloadaffinity`, `workloadantiaffinity`,
 * detector `getWorkloadAffinityGroups`) and v1.18 overflow cluster affinities (`assignWorkloadReplicas`,
 * `getClusterOverflowOrder`, the ClusterAffinity filter), scheduled on the pure core.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workloadAffinityGroupsOf } from '../../../../lib/core/policy/index.ts';
import { workloadPeersOf } from '../../../../lib/core/scheduler/index.ts';
import { buildFramework } from '../../../../lib/core/scheduler/plugins/registry.ts';
import { scheduleBinding, type ScheduleResult } from '../../../../lib/core/scheduler/schedule.ts';
import { buildSnapshot } from '../../../../lib/core/scheduler/snapshot.ts';
import type { Cluster, ResourceBinding } from '../../../../lib/core/model/types.ts';
import { pp, template } from '../policy/fixtures.ts';
import { AGGREGATED, asRecord, bindingFactory, clusterFactory, cpuFor, DUPLICATED, targets } from './fixtures.ts';

const framework = buildFramework();
const outcome = (r: ScheduleResult) =>
  r.outcome.ok ? asRecord(r.outcome.value.clusters) : `${r.outcome.failure.reason}: ${r.outcome.failure.message}`;

describe('workloadAffinityGroupsOf (Karmada getWorkloadAffinityGroups)', () => {
  const policy = pp('p', {
    placement: {
      workloadAffinity: { affinity: { groupByLabelKey: 'app.group' }, antiAffinity: { groupByLabelKey: 'ha' } },
    },
  });
  const labelled = (labels: Record<string, string>) => ({
    ...template('t'),
    metadata: { ...template('t').metadata, labels },
  });
  it('the template label values name the groups', () => {
    assert.deepEqual(workloadAffinityGroupsOf(labelled({ 'app.group': 'frontend', ha: 'a' }), policy), {
      affinityGroup: 'app.group=frontend',
      antiAffinityGroup: 'ha=a',
    });
  });
  it('a template without the label is in no group; no group at all is undefined', () => {
    assert.deepEqual(workloadAffinityGroupsOf(labelled({ ha: 'a' }), policy), { antiAffinityGroup: 'ha=a' });
    assert.equal(workloadAffinityGroupsOf(labelled({}), policy), undefined);
    assert.equal(workloadAffinityGroupsOf(labelled({ 'app.group': 'x' }), pp('plain')), undefined);
  });
});

describe('WorkloadAffinity / WorkloadAntiAffinity filters', () => {
  const clusters = ['m1', 'm2', 'm3'].map((n) => clusterFactory(n));
  const grouped = (name: string, groups: ResourceBinding['spec']['workloadAffinityGroups'], placed?: string[]) => {
    const b = bindingFactory(name, { placement: { replicaScheduling: DUPLICATED }, replicas: 1 });
    b.spec.workloadAffinityGroups = groups;
    if (placed) b.spec.clusters = placed.map((n) => ({ name: n, replicas: 1 }));
    return b;
  };
  const run = (b: ResourceBinding, others: ResourceBinding[]) => {
    const workloadPeers = workloadPeersOf(b, others);
    return outcome(scheduleBinding(b, buildSnapshot(clusters), framework, workloadPeers ? { workloadPeers } : {}));
  };

  it('affinity: goes only where every placed peer of its group is', () => {
    const peer = grouped('backend', { affinityGroup: 'g=shop' }, ['m2']);
    assert.deepEqual(run(grouped('frontend', { affinityGroup: 'g=shop' }), [peer]), { m2: 1 });
  });
  it('affinity: the first of a group is not blocked, and unplaced peers do not count', () => {
    const unplaced = grouped('backend', { affinityGroup: 'g=shop' });
    assert.deepEqual(run(grouped('frontend', { affinityGroup: 'g=shop' }), [unplaced]), { m1: 1, m2: 1, m3: 1 });
  });
  it('affinity: peers in other groups or namespaces do not count', () => {
    const other = grouped('x', { affinityGroup: 'g=other' }, ['m1']);
    const elsewhere = { ...grouped('y', { affinityGroup: 'g=shop' }, ['m1']) };
    elsewhere.metadata = { ...elsewhere.metadata, namespace: 'elsewhere' };
    assert.deepEqual(run(grouped('frontend', { affinityGroup: 'g=shop' }), [other, elsewhere]), {
      m1: 1,
      m2: 1,
      m3: 1,
    });
  });
  it('anti-affinity: keeps away from clusters holding a peer of its group', () => {
    const peer = grouped('replica-a', { antiAffinityGroup: 'ha=db' }, ['m1']);
    assert.deepEqual(run(grouped('replica-b', { antiAffinityGroup: 'ha=db' }), [peer]), { m2: 1, m3: 1 });
  });
  it('a cluster the binding is already on always passes (the filters never remove a placed copy)', () => {
    const peer = grouped('replica-a', { antiAffinityGroup: 'ha=db' }, ['m1']);
    const placed = grouped('replica-b', { antiAffinityGroup: 'ha=db' }, ['m1']);
    assert.deepEqual(run(placed, [peer]), { m1: 1, m2: 1, m3: 1 });
  });
  it("a peer decided a moment ago in this batch counts over its stored copy (Karmada's assigning bindings)", () => {
    const stored = grouped('backend', { affinityGroup: 'g=shop' });
    const decided = grouped('backend', { affinityGroup: 'g=shop' }, ['m3']);
    const b = grouped('frontend', { affinityGroup: 'g=shop' });
    const workloadPeers = workloadPeersOf(b, [stored], new Map([['default/backend', decided]]));
    assert.deepEqual(workloadPeers?.affinity, [{ name: 'backend', clusters: ['m3'] }]);
  });
  it('no cluster left is NoClusterFit with the plugin reason', () => {
    const peer = grouped('a', { antiAffinityGroup: 'ha=db' }, ['m1', 'm2', 'm3']);
    assert.match(
      String(run(grouped('b', { antiAffinityGroup: 'ha=db' }), [peer])),
      /^NoClusterFit: .*cluster already has workload with the same anti-affinity group/,
    );
  });
});

describe('overflow cluster affinities (Karmada v1.18)', () => {
  const clusters: Cluster[] = [
    clusterFactory('primary-1', { labels: { tier: 'primary' }, resourceSummary: cpuFor(3) }),
    clusterFactory('primary-2', { labels: { tier: 'primary' }, resourceSummary: cpuFor(2) }),
    clusterFactory('burst-1', { labels: { tier: 'burst' }, resourceSummary: cpuFor(10) }),
    clusterFactory('spare-1', { labels: { tier: 'spare' }, resourceSummary: cpuFor(10) }),
  ];
  const term = {
    affinityName: 'main',
    labelSelector: { matchLabels: { tier: 'primary' } },
    overflowAffinities: [
      { affinityName: 'burst', labelSelector: { matchLabels: { tier: 'burst' } } },
      { affinityName: 'spare', labelSelector: { matchLabels: { tier: 'spare' } } },
    ],
  };
  const workload = (replicas: number, clustersNow?: Record<string, number>) =>
    bindingFactory('web', {
      replicas,
      request: { cpu: '1' },
      placement: { clusterAffinities: [term], replicaScheduling: AGGREGATED },
      ...(clustersNow ? { clusters: targets(clustersNow) } : {}),
    });
  const run = (b: ResourceBinding) => outcome(scheduleBinding(b, buildSnapshot(clusters), framework));

  it('fills the primary group first', () => {
    assert.deepEqual(run(workload(4)), { 'primary-1': 3, 'primary-2': 1 });
  });
  it('spills what the primary group cannot hold into the first overflow group', () => {
    assert.deepEqual(run(workload(8)), { 'primary-1': 3, 'primary-2': 2, 'burst-1': 3 });
  });
  it('shrinks the overflow group first on scale-down', () => {
    // As placed after the spill: the primary clusters are full with this workload's own replicas.
    const full: Cluster[] = [
      clusterFactory('primary-1', { labels: { tier: 'primary' }, resourceSummary: cpuFor(0) }),
      clusterFactory('primary-2', { labels: { tier: 'primary' }, resourceSummary: cpuFor(0) }),
      clusterFactory('burst-1', { labels: { tier: 'burst' }, resourceSummary: cpuFor(7) }),
      clusterFactory('spare-1', { labels: { tier: 'spare' }, resourceSummary: cpuFor(10) }),
    ];
    const now = { 'primary-1': 3, 'primary-2': 2, 'burst-1': 3 };
    const on = (b: ResourceBinding) => outcome(scheduleBinding(b, buildSnapshot(full), framework));
    assert.deepEqual(on(workload(6, now)), { 'primary-1': 3, 'primary-2': 2, 'burst-1': 1 });
    assert.deepEqual(on(workload(5, now)), { 'primary-1': 3, 'primary-2': 2 });
  });
  it('spills into the overflow groups in order: the second only once the first is full', () => {
    // primary 5, burst 10, spare 10: 15 fills primary and burst; 18 needs the second overflow group.
    assert.deepEqual(run(workload(15)), { 'primary-1': 3, 'primary-2': 2, 'burst-1': 10 });
    assert.deepEqual(run(workload(18)), { 'primary-1': 3, 'primary-2': 2, 'burst-1': 10, 'spare-1': 3 });
  });
  it('shrinks the last overflow group first on scale-down, then the one before it', () => {
    // As placed after spilling into both overflow groups: primary and burst are full with this
    // workload's own replicas, spare holds 3 of its 10.
    const full: Cluster[] = [
      clusterFactory('primary-1', { labels: { tier: 'primary' }, resourceSummary: cpuFor(0) }),
      clusterFactory('primary-2', { labels: { tier: 'primary' }, resourceSummary: cpuFor(0) }),
      clusterFactory('burst-1', { labels: { tier: 'burst' }, resourceSummary: cpuFor(0) }),
      clusterFactory('spare-1', { labels: { tier: 'spare' }, resourceSummary: cpuFor(7) }),
    ];
    const now = { 'primary-1': 3, 'primary-2': 2, 'burst-1': 10, 'spare-1': 3 };
    const on = (b: ResourceBinding) => outcome(scheduleBinding(b, buildSnapshot(full), framework));
    assert.deepEqual(on(workload(16, now)), { 'primary-1': 3, 'primary-2': 2, 'burst-1': 10, 'spare-1': 1 });
    assert.deepEqual(on(workload(15, now)), { 'primary-1': 3, 'primary-2': 2, 'burst-1': 10 });
    assert.deepEqual(on(workload(12, now)), { 'primary-1': 3, 'primary-2': 2, 'burst-1': 7 });
  });
  it('a kind that takes no capacity uses the primary group only', () => {
    const cm = bindingFactory('cfg', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      placement: { clusterAffinities: [term], replicaScheduling: AGGREGATED },
    });
    const result = scheduleBinding(
      cm,
      buildSnapshot(
        clusters.map((c) => ({
          ...c,
          status: {
            ...c.status,
            apiEnablements: [
              ...(c.status?.apiEnablements ?? []),
              { groupVersion: 'v1', resources: [{ name: 'configmaps', kind: 'ConfigMap' }] },
            ],
          },
        })),
      ),
      framework,
    );
    assert.deepEqual(outcome(result), { 'primary-1': -1, 'primary-2': -1 });
  });
  it('more than every group holds is Unschedulable', () => {
    assert.match(String(run(workload(40))), /^Unschedulable: /);
  });
});
