import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyReservation } from '../../../../lib/core/scheduler/estimate.ts';
import { buildFramework } from '../../../../lib/core/scheduler/plugins/registry.ts';
import {
  bindingGvk,
  fitErrorMessage,
  keptOnNoFit,
  scheduleBinding,
  type ScheduleResult,
} from '../../../../lib/core/scheduler/schedule.ts';
import { buildSnapshot } from '../../../../lib/core/scheduler/snapshot.ts';
import type { Cluster, Component, ResourceBinding } from '../../../../lib/core/model/types.ts';
import {
  AGGREGATED,
  asRecord,
  bindingFactory,
  clusterFactory,
  cpuFor,
  DUPLICATED,
  DYNAMIC_WEIGHT,
  scheduledStatus,
  staticWeights,
  summary,
  targets,
} from './fixtures.ts';

const framework = buildFramework();
const CPU = { cpu: '1' };

function schedule(binding: ResourceBinding, clusters: Cluster[]): ScheduleResult {
  return scheduleBinding(binding, buildSnapshot(clusters), framework);
}

/** The decision as `name: replicas` (no replicas ⇒ -1), or the failure as `reason: message`. */
function outcomeOf(result: ScheduleResult): Record<string, number> | string {
  return result.outcome.ok
    ? asRecord(result.outcome.value.clusters)
    : `${result.outcome.failure.reason}: ${result.outcome.failure.message}`;
}

describe('scheduleBinding: filtering and NoClusterFit (§2.2 steps 1–2, FitError)', () => {
  it('NoClusterFit: "0/N clusters are available: <count> <reason>, ..." with per-cluster diagnosis and clustersOnFailure=[]', () => {
    const clusters = [
      clusterFactory('m1', {
        labels: { env: 'prod' },
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      }),
      clusterFactory('m2', { labels: { env: 'dev' } }),
      clusterFactory('m3', { labels: { env: 'dev' } }),
    ];
    const binding = bindingFactory('web', {
      replicas: 2,
      placement: { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } },
    });
    const result = schedule(binding, clusters);
    assert.deepEqual(result, {
      outcome: {
        ok: false,
        failure: {
          reason: 'NoClusterFit',
          message:
            '0/3 clusters are available: 1 cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}, ' +
            '2 cluster(s) did not match the placement cluster affinity constraint.',
          diagnosis: {
            m1: ['cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}'],
            m2: ['cluster(s) did not match the placement cluster affinity constraint'],
            m3: ['cluster(s) did not match the placement cluster affinity constraint'],
          },
        },
      },
      clustersOnFailure: [],
      reservedOnFailure: [],
    });
  });

  it('NoClusterFit keeps the clusters that only failed a health filter; drops those outside the affinity or gone (Karmada empties all; simulation seed 37)', () => {
    const snapshot = buildSnapshot([clusterFactory('m1'), clusterFactory('m2'), clusterFactory('m3')]);
    const binding = bindingFactory('web', {
      replicas: 3,
      clusters: [
        { name: 'm1', replicas: 1 },
        { name: 'm2', replicas: 1 },
        { name: 'gone', replicas: 1 },
      ],
    });
    const kept = keptOnNoFit(binding, snapshot, {
      m1: ['cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}'],
      m2: ['cluster(s) did not match the placement cluster affinity constraint'],
      m3: ['cluster(s) is in the process of eviction'],
    });
    assert.deepEqual(kept, [{ name: 'm1', replicas: 1 }]);
  });

  it('NoClusterFit: filters run in order and stop at the first failure (APIEnablement before TaintToleration)', () => {
    const clusters = [clusterFactory('m1', { apiEnablements: [], taints: [{ key: 'x', effect: 'NoSchedule' }] })];
    const result = schedule(bindingFactory('web', { replicas: 1 }), clusters);
    assert.equal(
      outcomeOf(result),
      'NoClusterFit: 0/1 clusters are available: 1 cluster(s) did not have the API resource.',
    );
    assert.ok(!result.outcome.ok);
    assert.deepEqual(result.outcome.failure.diagnosis, { m1: ['cluster(s) did not have the API resource'] });
  });

  it('NoClusterFit: N counts every cluster of the snapshot, deleting ones included (Karmada NumOfClusters)', () => {
    const clusters = [
      clusterFactory('gone', { deleting: true }),
      clusterFactory('m1', { labels: { env: 'dev' } }),
      clusterFactory('m2', { labels: { env: 'dev' } }),
    ];
    const binding = bindingFactory('web', {
      replicas: 1,
      placement: { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } },
    });
    assert.equal(
      outcomeOf(schedule(binding, clusters)),
      'NoClusterFit: 0/3 clusters are available: 2 cluster(s) did not match the placement cluster affinity constraint.',
    );
  });

  it('NoClusterFit: an empty snapshot ⇒ "0/0 clusters are available: ."', () => {
    const result = schedule(bindingFactory('web', { replicas: 1 }), []);
    assert.equal(outcomeOf(result), 'NoClusterFit: 0/0 clusters are available: .');
    assert.deepEqual(result.clustersOnFailure, []);
  });

  it('fitErrorMessage: reasons are counted and the "<n> <reason>" strings sorted (Go sort.Strings)', () => {
    assert.equal(
      fitErrorMessage(12, {
        ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`a${i}`, ['z reason']])),
        b: ['a reason'],
        c: ['a reason'],
      }),
      '0/12 clusters are available: 10 z reason, 2 a reason.',
    );
  });

  it('deleting clusters are skipped, never filtered into the diagnosis nor selected', () => {
    const clusters = [
      clusterFactory('m1', { deleting: true, resourceSummary: cpuFor(10) }),
      clusterFactory('m2', { resourceSummary: cpuFor(10) }),
      clusterFactory('m3', { resourceSummary: cpuFor(10) }),
    ];
    const result = schedule(
      bindingFactory('web', { replicas: 2, placement: { replicaScheduling: DUPLICATED } }),
      clusters,
    );
    assert.deepEqual(outcomeOf(result), { m2: 2, m3: 2 });
  });

  it('unhealthy clusters are not filtered by the scheduler, only through their taints (§2.2 step 1)', () => {
    const notReady = clusterFactory('m1', { resourceSummary: cpuFor(10) });
    notReady.status!.conditions!.push({ type: 'Ready', status: 'False' });
    assert.deepEqual(outcomeOf(schedule(bindingFactory('web', { replicas: 1 }), [notReady])), { m1: 1 });
  });

  it('bindingGvk: group/version/Kind, core group as v1/Kind', () => {
    assert.equal(bindingGvk(bindingFactory('web')), 'apps/v1/Deployment');
    assert.equal(bindingGvk(bindingFactory('cm', { apiVersion: 'v1', kind: 'ConfigMap' })), 'v1/ConfigMap');
  });
});

interface Row {
  name: string;
  clusters: Cluster[];
  binding: ResourceBinding;
  want: Record<string, number> | string;
}

describe('scheduleBinding: strategies end to end (§2.2.3)', () => {
  const three = (f: (name: string) => Cluster = (n) => clusterFactory(n, { resourceSummary: cpuFor(10) })) =>
    ['m1', 'm2', 'm3'].map(f);
  const rows: Row[] = [
    {
      name: 'Duplicated: every feasible cluster gets spec.replicas (tainted one filtered out)',
      clusters: [
        clusterFactory('m1', { resourceSummary: cpuFor(1) }),
        clusterFactory('m2', { resourceSummary: cpuFor(0) }),
        clusterFactory('m3', { taints: [{ key: 'x', effect: 'NoExecute' }] }),
      ],
      binding: bindingFactory('web', { replicas: 3, request: CPU, placement: { replicaScheduling: DUPLICATED } }),
      want: { m1: 3, m2: 3 },
    },
    {
      name: 'Duplicated is the default without replicaScheduling; capacity is not checked',
      clusters: three((n) => clusterFactory(n)),
      binding: bindingFactory('web', { replicas: 2, request: CPU }),
      want: { m1: 2, m2: 2, m3: 2 },
    },
    {
      name: 'replicas 0 (non-workload) ⇒ every feasible cluster without replicas',
      clusters: three(),
      binding: bindingFactory('cm', { apiVersion: 'apps/v1', placement: { replicaScheduling: DYNAMIC_WEIGHT } }),
      want: { m1: -1, m2: -1, m3: -1 },
    },
    {
      name: 'static weight 2:1 over three clusters (m3 unmatched ⇒ weight 0, dropped), 3 replicas ⇒ 2:1',
      clusters: three(),
      binding: bindingFactory('web', {
        replicas: 3,
        placement: { replicaScheduling: staticWeights({ m1: 2, m2: 1 }) },
      }),
      want: { m1: 2, m2: 1 },
    },
    {
      name: 'static weight 2:1 with 4 replicas ⇒ 3:1 (remainder to the heavier cluster)',
      clusters: three(),
      binding: bindingFactory('web', {
        replicas: 4,
        placement: { replicaScheduling: staticWeights({ m1: 2, m2: 1 }) },
      }),
      want: { m1: 3, m2: 1 },
    },
    {
      name: 'static weight ignores capacity (clusters without a summary still get their share)',
      clusters: three((n) => clusterFactory(n)),
      binding: bindingFactory('web', {
        replicas: 3,
        request: CPU,
        placement: { replicaScheduling: staticWeights({ m1: 2, m2: 1 }) },
      }),
      want: { m1: 2, m2: 1 },
    },
    {
      name: 'static weight ignores spread constraints (every feasible cluster is a candidate)',
      clusters: three(),
      binding: bindingFactory('web', {
        replicas: 3,
        placement: {
          replicaScheduling: staticWeights({ m1: 2, m2: 1 }),
          spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 1 }],
        },
      }),
      want: { m1: 2, m2: 1 },
    },
    {
      name: 'dynamic weight divides by available replicas (6:3 ⇒ 4:2 of 6)',
      clusters: [
        clusterFactory('m1', { resourceSummary: cpuFor(6) }),
        clusterFactory('m2', { resourceSummary: cpuFor(3) }),
        clusterFactory('m3', { resourceSummary: cpuFor(0) }),
      ],
      binding: bindingFactory('web', { replicas: 6, request: CPU, placement: { replicaScheduling: DYNAMIC_WEIGHT } }),
      want: { m1: 4, m2: 2 },
    },
    {
      name: 'dynamic weight without replicaRequirements divides by allowed pods',
      clusters: [
        clusterFactory('m1', { resourceSummary: { allocatable: { pods: '20' } } }),
        clusterFactory('m2', { resourceSummary: { allocatable: { pods: '10' } } }),
      ],
      binding: bindingFactory('web', { replicas: 3, placement: { replicaScheduling: DYNAMIC_WEIGHT } }),
      want: { m1: 2, m2: 1 },
    },
    {
      name: 'Aggregated packs into the fewest clusters (the one with most room takes all)',
      clusters: [
        clusterFactory('m1', { resourceSummary: cpuFor(4) }),
        clusterFactory('m2', { resourceSummary: cpuFor(10) }),
        clusterFactory('m3', { resourceSummary: cpuFor(2) }),
      ],
      binding: bindingFactory('web', { replicas: 5, request: CPU, placement: { replicaScheduling: AGGREGATED } }),
      want: { m2: 5 },
    },
    {
      name: 'Aggregated spills over to the next-largest cluster only when needed',
      clusters: [
        clusterFactory('m1', { resourceSummary: cpuFor(4) }),
        clusterFactory('m2', { resourceSummary: cpuFor(10) }),
        clusterFactory('m3', { resourceSummary: cpuFor(2) }),
      ],
      binding: bindingFactory('web', { replicas: 14, request: CPU, placement: { replicaScheduling: AGGREGATED } }),
      want: { m1: 4, m2: 10 },
    },
    {
      name: 'Aggregated keeps a previous cluster first (Steady mode, ClusterLocality)',
      clusters: [
        clusterFactory('m1', { resourceSummary: cpuFor(4) }),
        clusterFactory('m2', { resourceSummary: cpuFor(10) }),
      ],
      binding: bindingFactory('web', {
        replicas: 3,
        request: CPU,
        clusters: targets({ m1: 2 }),
        placement: { replicaScheduling: AGGREGATED },
      }),
      want: { m1: 3 },
    },
    {
      name: 'Unschedulable when capacity is short: "Clusters available replicas N are not enough to schedule."',
      clusters: [
        clusterFactory('m1', { resourceSummary: cpuFor(2) }),
        clusterFactory('m2', { resourceSummary: cpuFor(1) }),
        clusterFactory('m3'),
      ],
      binding: bindingFactory('web', { replicas: 5, request: CPU, placement: { replicaScheduling: DYNAMIC_WEIGHT } }),
      want: 'Unschedulable: failed to assign replicas: Clusters available replicas 3 are not enough to schedule.',
    },
    {
      name: 'Unschedulable for Aggregated too, counting only what the clusters can still take',
      clusters: [clusterFactory('m1', { resourceSummary: summary({ cpu: '4' }, { cpu: '3' }) })],
      binding: bindingFactory('web', { replicas: 2, request: CPU, placement: { replicaScheduling: AGGREGATED } }),
      want: 'Unschedulable: failed to assign replicas: Clusters available replicas 1 are not enough to schedule.',
    },
    {
      name: 'Divided without a division preference ⇒ SchedulerError "unsupported replica scheduling strategy"',
      clusters: three(),
      binding: bindingFactory('web', {
        replicas: 2,
        placement: { replicaScheduling: { replicaSchedulingType: 'Divided' } },
      }),
      want:
        'SchedulerError: failed to assign replicas: unsupported replica scheduling strategy, replicaSchedulingType: Divided, ' +
        'replicaDivisionPreference: , please try another scheduling strategy',
    },
    {
      name: 'zone-only spread constraint ⇒ SchedulerError "failed to select clusters: just support cluster and region spread constraint" (§4 item 5)',
      clusters: three((n) => clusterFactory(n, { zones: ['z1'], resourceSummary: cpuFor(10) })),
      binding: bindingFactory('web', {
        replicas: 2,
        placement: { spreadConstraints: [{ spreadByField: 'zone', minGroups: 1, maxGroups: 2 }] },
      }),
      want: 'SchedulerError: failed to select clusters: just support cluster and region spread constraint',
    },
    {
      name: 'cluster spread constraint picks the top maxGroups clusters by capacity',
      clusters: [
        clusterFactory('m1', { resourceSummary: cpuFor(3) }),
        clusterFactory('m2', { resourceSummary: cpuFor(9) }),
        clusterFactory('m3', { resourceSummary: cpuFor(6) }),
      ],
      binding: bindingFactory('web', {
        replicas: 6,
        request: CPU,
        placement: {
          replicaScheduling: DYNAMIC_WEIGHT,
          spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }],
        },
      }),
      want: { m2: 4, m3: 2 },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const result = schedule(row.binding, row.clusters);
      assert.deepEqual(outcomeOf(result), row.want);
      if (!result.outcome.ok && result.outcome.failure.reason !== 'NoClusterFit') {
        assert.equal(result.clustersOnFailure, undefined, 'only a FitError empties spec.clusters');
      }
    });
  }

  it('region spread: one cluster per region, the best of each (clusters without region filtered out)', () => {
    const clusters = [
      clusterFactory('m1', { region: 'r1', resourceSummary: cpuFor(2) }),
      clusterFactory('m2', { region: 'r1', resourceSummary: cpuFor(8) }),
      clusterFactory('m3', { region: 'r2', resourceSummary: cpuFor(9) }),
      clusterFactory('m4', { region: 'r2', resourceSummary: cpuFor(1) }),
      clusterFactory('m5', { resourceSummary: cpuFor(50) }),
    ];
    const binding = bindingFactory('web', {
      replicas: 2,
      request: CPU,
      placement: {
        replicaScheduling: DUPLICATED,
        spreadConstraints: [
          { spreadByField: 'region', minGroups: 2, maxGroups: 2 },
          { spreadByField: 'cluster', minGroups: 2, maxGroups: 2 },
        ],
      },
    });
    assert.deepEqual(outcomeOf(schedule(binding, clusters)), { m2: 2, m3: 2 });
  });

  it('region spread: fewer regions than minGroups ⇒ SchedulerError', () => {
    const clusters = [
      clusterFactory('m1', { region: 'r1', resourceSummary: cpuFor(2) }),
      clusterFactory('m2', { region: 'r1', resourceSummary: cpuFor(8) }),
    ];
    const binding = bindingFactory('web', {
      replicas: 2,
      placement: { spreadConstraints: [{ spreadByField: 'region', minGroups: 2, maxGroups: 2 }] },
    });
    assert.equal(
      outcomeOf(schedule(binding, clusters)),
      'SchedulerError: failed to select clusters: the number of feasible region is less than spreadConstraint.MinGroups',
    );
  });

  it('enableEmptyWorkloadPropagation keeps selected clusters that got 0 replicas (without replicas)', () => {
    const clusters = ['m1', 'm2', 'm3'].map((n) => clusterFactory(n, { resourceSummary: cpuFor(10) }));
    // Static weight selects every feasible cluster; m3 (weight 0) and m2 (no replica left) are kept empty.
    const binding = bindingFactory('web', {
      replicas: 1,
      placement: { replicaScheduling: staticWeights({ m1: 2, m2: 1 }) },
    });
    const result = scheduleBinding(binding, buildSnapshot(clusters), framework, {
      enableEmptyWorkloadPropagation: true,
    });
    assert.deepEqual(outcomeOf(result), { m1: 1, m2: -1, m3: -1 });
    assert.deepEqual(outcomeOf(schedule(binding, clusters)), { m1: 1 }, 'without the flag, empty targets are dropped');
  });
});

describe('scheduleBinding: clusterAffinities fallback (§2.2 "clusterAffinities")', () => {
  const clusters = [
    clusterFactory('primary-1', {
      labels: { tier: 'primary' },
      taints: [{ key: 'maintenance', effect: 'NoSchedule' }],
    }),
    clusterFactory('backup-1', { labels: { tier: 'backup' }, resourceSummary: cpuFor(10) }),
    clusterFactory('spare-1', { labels: { tier: 'spare' }, resourceSummary: cpuFor(10) }),
  ];
  const terms = [
    { affinityName: 'primary', labelSelector: { matchLabels: { tier: 'primary' } } },
    { affinityName: 'backup', labelSelector: { matchLabels: { tier: 'backup' } } },
    { affinityName: 'spare', labelSelector: { matchLabels: { tier: 'spare' } } },
  ];

  it('falls back from the first term to the second when the first fits no cluster; the decision names the term', () => {
    const result = schedule(bindingFactory('web', { replicas: 2, placement: { clusterAffinities: terms } }), clusters);
    assert.ok(result.outcome.ok, JSON.stringify(result));
    assert.deepEqual(asRecord(result.outcome.value.clusters), { 'backup-1': 2 });
    assert.equal(result.outcome.value.affinityName, 'backup');
  });

  it('starts from status.schedulerObservingAffinityName (an earlier term that would fit now is not tried)', () => {
    const healed = clusters.map((c) =>
      c.metadata.name === 'primary-1'
        ? clusterFactory('primary-1', { labels: { tier: 'primary' }, resourceSummary: cpuFor(10) })
        : c,
    );
    const fresh = schedule(bindingFactory('web', { replicas: 1, placement: { clusterAffinities: terms } }), healed);
    assert.ok(fresh.outcome.ok);
    assert.equal(fresh.outcome.value.affinityName, 'primary');

    const observing = bindingFactory('web', {
      replicas: 1,
      placement: { clusterAffinities: terms },
      status: scheduledStatus('True', { schedulerObservingAffinityName: 'spare' }),
    });
    const result = schedule(observing, healed);
    assert.ok(result.outcome.ok);
    assert.deepEqual(asRecord(result.outcome.value.clusters), { 'spare-1': 1 });
    assert.equal(result.outcome.value.affinityName, 'spare');
  });

  it('an observed name that no longer exists starts from the first term again', () => {
    const binding = bindingFactory('web', {
      replicas: 1,
      placement: { clusterAffinities: terms },
      status: scheduledStatus('True', { schedulerObservingAffinityName: 'removed' }),
    });
    const result = schedule(binding, clusters);
    assert.ok(result.outcome.ok);
    assert.equal(result.outcome.value.affinityName, 'backup');
  });

  it('all terms fail: NoClusterFit of the first failure, spec.clusters emptied, the previous affinity name kept', () => {
    const binding = bindingFactory('web', {
      replicas: 1,
      clusters: targets({ 'backup-1': 1 }),
      placement: {
        clusterAffinities: [
          { affinityName: 'a', clusterNames: ['nowhere'] },
          { affinityName: 'b', clusterNames: ['nowhere-else'] },
        ],
      },
      status: scheduledStatus('True', { schedulerObservingAffinityName: 'a' }),
    });
    const result = schedule(binding, clusters);
    assert.ok(!result.outcome.ok);
    assert.equal(result.outcome.failure.reason, 'NoClusterFit');
    assert.equal(
      result.outcome.failure.message,
      'affinity a: 0/3 clusters are available: 1 cluster(s) had untolerated taint {maintenance:NoSchedule}, ' +
        '2 cluster(s) did not match the placement cluster affinity constraint.; ' +
        'affinity b: 0/3 clusters are available: 1 cluster(s) had untolerated taint {maintenance:NoSchedule}, ' +
        '2 cluster(s) did not match the placement cluster affinity constraint.',
    );
    assert.deepEqual(result.clustersOnFailure, []);
    assert.equal(result.affinityNameOnFailure, 'a');
  });

  it('all terms fail from the observed (last) term: its failure message alone, name kept', () => {
    const binding = bindingFactory('web', {
      replicas: 50,
      request: CPU,
      placement: { clusterAffinities: terms, replicaScheduling: AGGREGATED },
      status: scheduledStatus('True', { schedulerObservingAffinityName: 'spare' }),
    });
    const result = schedule(binding, clusters);
    assert.deepEqual(
      outcomeOf(result),
      'Unschedulable: failed to assign replicas: Clusters available replicas 10 are not enough to schedule.',
    );
    assert.equal(result.clustersOnFailure, undefined, 'an Unschedulable first failure leaves spec.clusters alone');
    assert.equal(result.affinityNameOnFailure, 'spare');
  });

  it('all terms fail without an observed name: no name to record', () => {
    const binding = bindingFactory('web', {
      replicas: 1,
      placement: { clusterAffinities: [{ affinityName: 'a', clusterNames: ['nowhere'] }] },
    });
    const result = schedule(binding, clusters);
    assert.ok(!result.outcome.ok);
    assert.equal(result.affinityNameOnFailure, undefined);
    assert.deepEqual(result.clustersOnFailure, []);
  });
});

describe('scheduleBinding: no overcommit within a snapshot (reservations, Karmada #6783)', () => {
  it('two bindings where only one fits: the second is Unschedulable; reserved deltas are on the snapshot', () => {
    const snapshot = buildSnapshot([clusterFactory('m1', { resourceSummary: summary({ cpu: '4', memory: '8Gi' }) })]);
    const a = bindingFactory('a', {
      replicas: 2,
      request: { cpu: '2', memory: '1Gi' },
      placement: { replicaScheduling: AGGREGATED },
    });
    const b = bindingFactory('b', { replicas: 1, request: { cpu: '1' }, placement: { replicaScheduling: AGGREGATED } });

    const first = scheduleBinding(a, snapshot, framework);
    assert.ok(first.outcome.ok);
    assert.deepEqual(first.outcome.value.clusters, [{ name: 'm1', replicas: 2 }]);
    assert.deepEqual(first.outcome.value.reserved, [
      {
        cluster: 'm1',
        pods: 2,
        units: new Map([
          ['cpu', 4000],
          ['memory', 2 * 1024 ** 3],
        ]),
      },
    ]);
    assert.equal(snapshot.reservations.get('m1')?.pods, 2);

    const second = scheduleBinding(b, snapshot, framework);
    assert.deepEqual(
      outcomeOf(second),
      'Unschedulable: failed to assign replicas: Clusters available replicas 0 are not enough to schedule.',
    );
    assert.deepEqual(snapshot.reservations.get('m1'), {
      pods: 2,
      units: new Map([
        ['cpu', 4000],
        ['memory', 2 * 1024 ** 3],
      ]),
    });
  });

  it('the second binding goes to another cluster when one is left', () => {
    const snapshot = buildSnapshot([
      clusterFactory('m1', { resourceSummary: cpuFor(4) }),
      clusterFactory('m2', { resourceSummary: cpuFor(2) }),
    ]);
    const spec = { replicas: 3, request: CPU, placement: { replicaScheduling: AGGREGATED } };
    const first = scheduleBinding(bindingFactory('a', spec), snapshot, framework);
    const second = scheduleBinding(bindingFactory('b', { ...spec, replicas: 2 }), snapshot, framework);
    assert.deepEqual(outcomeOf(first), { m1: 3 });
    assert.deepEqual(outcomeOf(second), { m2: 2 });
    assert.ok(second.outcome.ok);
    assert.deepEqual(second.outcome.value.reserved, [{ cluster: 'm2', pods: 2, units: new Map([['cpu', 2000]]) }]);
  });

  it('bindings without replicaRequirements reserve pods, so pods are not overcommitted either', () => {
    const snapshot = buildSnapshot([clusterFactory('m1', { resourceSummary: { allocatable: { pods: '3' } } })]);
    const spec = { replicas: 3, placement: { replicaScheduling: AGGREGATED } };
    const first = scheduleBinding(bindingFactory('a', spec), snapshot, framework);
    assert.ok(first.outcome.ok);
    assert.deepEqual(first.outcome.value.reserved, [{ cluster: 'm1', pods: 3, units: new Map() }]);
    const second = scheduleBinding(bindingFactory('b', { ...spec, replicas: 1 }), snapshot, framework);
    assert.deepEqual(
      outcomeOf(second),
      'Unschedulable: failed to assign replicas: Clusters available replicas 0 are not enough to schedule.',
    );
  });

  it('a scale-up reserves only the replicas it adds; a scale-down or unchanged result reserves nothing', () => {
    const snapshot = buildSnapshot([clusterFactory('m1', { resourceSummary: cpuFor(10) })]);
    const scaled = bindingFactory('a', {
      replicas: 5,
      request: CPU,
      clusters: targets({ m1: 3 }),
      placement: { replicaScheduling: AGGREGATED },
    });
    const up = scheduleBinding(scaled, snapshot, framework);
    assert.ok(up.outcome.ok);
    assert.deepEqual(up.outcome.value.reserved, [{ cluster: 'm1', pods: 2, units: new Map([['cpu', 2000]]) }]);

    const down = scheduleBinding({ ...scaled, spec: { ...scaled.spec, replicas: 2 } }, snapshot, framework);
    assert.ok(down.outcome.ok);
    assert.deepEqual(down.outcome.value.clusters, [{ name: 'm1', replicas: 2 }]);
    assert.deepEqual(down.outcome.value.reserved, []);
    assert.equal(snapshot.reservations.get('m1')?.pods, 2);
  });

  it('failed attempts reserve nothing; reservations passed to buildSnapshot are copied, not changed', () => {
    const given = new Map([['m1', { pods: 1, units: new Map([['cpu', 1000]]) }]]);
    const snapshot = buildSnapshot([clusterFactory('m1', { resourceSummary: cpuFor(3) })], { reservations: given });
    const tooBig = bindingFactory('big', { replicas: 3, request: CPU, placement: { replicaScheduling: AGGREGATED } });
    assert.deepEqual(
      outcomeOf(scheduleBinding(tooBig, snapshot, framework)),
      'Unschedulable: failed to assign replicas: Clusters available replicas 2 are not enough to schedule.',
    );
    assert.deepEqual(snapshot.reservations.get('m1'), { pods: 1, units: new Map([['cpu', 1000]]) });
    const fits = scheduleBinding({ ...tooBig, spec: { ...tooBig.spec, replicas: 2 } }, snapshot, framework);
    assert.deepEqual(outcomeOf(fits), { m1: 2 });
    assert.deepEqual(snapshot.reservations.get('m1'), { pods: 3, units: new Map([['cpu', 3000]]) });
    assert.deepEqual(given.get('m1'), { pods: 1, units: new Map([['cpu', 1000]]) });
    assert.notEqual(snapshot.reservations.get('m1'), given.get('m1'));
    assert.deepEqual(emptyReservation(), { pods: 0, units: new Map() });
  });
});

describe('scheduleBinding: multi-template components placed as whole sets', () => {
  // One set: jobmanager 1 × 1 cpu + taskmanager 2 × 2 cpu = 5 cpu, 3 pods.
  const components: Component[] = [
    { name: 'jobmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1' } } },
    { name: 'taskmanager', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '2' } } },
  ];
  const flink = (placement = { replicaScheduling: AGGREGATED }) =>
    bindingFactory('flink', { kind: 'Deployment', components, placement });

  it('Divided ⇒ one cluster, the one that can host the most sets; it reserves one whole set', () => {
    const snapshot = buildSnapshot([
      clusterFactory('m1', { resourceSummary: summary({ cpu: '4' }) }),
      clusterFactory('m2', { resourceSummary: summary({ cpu: '8' }) }),
      clusterFactory('m3', { resourceSummary: summary({ cpu: '12' }) }),
    ]);
    const result = scheduleBinding(flink(), snapshot, framework);
    assert.ok(result.outcome.ok, JSON.stringify(result));
    // Karmada v1.19 records each component's replicas on the target (TargetCluster.components).
    assert.deepEqual(result.outcome.value.clusters, [
      {
        name: 'm3',
        components: [
          { name: 'jobmanager', replicas: 1 },
          { name: 'taskmanager', replicas: 2 },
        ],
      },
    ]);
    assert.deepEqual(result.outcome.value.reserved, [{ cluster: 'm3', pods: 3, units: new Map([['cpu', 5000]]) }]);
  });

  it('Divided ⇒ a set cannot be split: clusters each too small for one set ⇒ Unschedulable', () => {
    const result = schedule(flink(), [
      clusterFactory('m1', { resourceSummary: summary({ cpu: '4' }) }),
      clusterFactory('m2', { resourceSummary: summary({ cpu: '4' }) }),
    ]);
    assert.deepEqual(
      outcomeOf(result),
      'Unschedulable: failed to assign replicas: Clusters available replicas 0 are not enough to schedule.',
    );
    assert.equal(result.clustersOnFailure, undefined);
  });

  it('Divided ⇒ every component must fit on its own too (pods for the whole set)', () => {
    const result = schedule(flink(), [
      clusterFactory('m1', { resourceSummary: { allocatable: { pods: '2', cpu: '64' } } }),
    ]);
    assert.deepEqual(
      outcomeOf(result),
      'Unschedulable: failed to assign replicas: Clusters available replicas 0 are not enough to schedule.',
    );
  });

  it('Divided ⇒ the second set in the same snapshot sees the first one gone', () => {
    const snapshot = buildSnapshot([clusterFactory('m1', { resourceSummary: summary({ cpu: '8' }) })]);
    assert.deepEqual(outcomeOf(scheduleBinding(flink(), snapshot, framework)), { m1: -1 });
    assert.deepEqual(
      outcomeOf(
        scheduleBinding(
          bindingFactory('flink2', { components, placement: { replicaScheduling: AGGREGATED } }),
          snapshot,
          framework,
        ),
      ),
      'Unschedulable: failed to assign replicas: Clusters available replicas 0 are not enough to schedule.',
    );
  });

  it('Duplicated ⇒ every feasible cluster gets the whole workload, without replicas', () => {
    const result = schedule(flink({ replicaScheduling: DUPLICATED }), [
      clusterFactory('m1', { resourceSummary: summary({ cpu: '4' }) }),
      clusterFactory('m2', { resourceSummary: summary({ cpu: '12' }) }),
    ]);
    assert.deepEqual(outcomeOf(result), { m1: -1, m2: -1 });
  });
});
