import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignReplicas, isComponentBinding } from '../../../../../lib/core/scheduler/assignment/index.ts';
import type { ClusterDetail } from '../../../../../lib/core/scheduler/framework/types.ts';
import type { Component, ReplicaSchedulingStrategy, TargetCluster } from '../../../../../lib/core/model/types.ts';
import {
  aggregated,
  candidate,
  candidates,
  duplicated,
  dynamicWeight,
  placement,
  staticByName,
  weighted,
} from './factories.ts';

/** A FlinkDeployment-like workload (Karmada common_test.go TestAssignComponentSchedulingResults). */
const flink: Component[] = [
  { name: 'jobmanager', replicas: 1 },
  { name: 'taskmanager', replicas: 4 },
];

interface Row {
  name: string;
  strategy?: ReplicaSchedulingStrategy;
  /** Candidates with the component SETS each can still host, in selection order. */
  clusters: ClusterDetail[];
  previous?: string[];
  fresh?: boolean;
  replicas?: number;
  enableEmptyWorkloadPropagation?: boolean;
  want?: TargetCluster[];
  failure?: { reason: string; message: string | RegExp };
}

function check(row: Row) {
  const out = assignReplicas({
    spec: {
      components: flink,
      ...(row.replicas !== undefined ? { replicas: row.replicas } : {}),
      placement: placement(row.strategy),
      ...(row.previous ? { clusters: row.previous.map((name) => ({ name })) } : {}),
      ...(row.fresh ? { rescheduleTriggeredAt: '2026-01-02T00:00:00Z' } : {}),
    },
    ...(row.fresh ? { status: { lastScheduledTime: '2026-01-01T00:00:00Z' } } : {}),
    candidates: row.clusters,
    uid: 'uid',
    ...(row.enableEmptyWorkloadPropagation ? { enableEmptyWorkloadPropagation: true } : {}),
  });
  if (row.failure) {
    assert.ok(!out.ok, JSON.stringify(out));
    assert.equal(out.failure.reason, row.failure.reason);
    if (typeof row.failure.message === 'string') assert.equal(out.failure.message, row.failure.message);
    else assert.match(out.failure.message, row.failure.message);
    return;
  }
  assert.ok(out.ok, JSON.stringify(out));
  const { value } = out;
  assert.deepEqual(
    value.map(({ components: _, ...t }) => t),
    row.want,
  );
  // Karmada v1.19: each target of a multi-component workload carries its per-component replicas.
  for (const t of value)
    assert.deepEqual(
      t.components,
      flink.map((c) => ({ name: c.name, replicas: c.replicas })),
    );
}

describe('component bindings are placed as whole component sets (Karmada ≥ 1.16 multi-template scheduling)', () => {
  const rows: Row[] = [
    {
      name: 'TestAssignComponentSchedulingResults "feature disabled keeps legacy result": the target has no replicas',
      clusters: candidates({ member1: 1 }),
      want: [{ name: 'member1' }],
    },
    {
      name: 'master AssignReplicas: without replicaScheduling (Duplicated) every candidate runs the whole workload',
      clusters: candidates({ member2: 0, member1: 3 }),
      want: [{ name: 'member1' }, { name: 'member2' }],
    },
    {
      name: 'Duplicated: every candidate, without a capacity check (as Duplicated replicas)',
      strategy: duplicated,
      clusters: candidates({ member1: 0, member2: 0 }),
      want: [{ name: 'member1' }, { name: 'member2' }],
    },
    {
      name: 'Divided + Aggregated: the one candidate hosting the most sets',
      strategy: aggregated,
      clusters: candidates({ member1: 1, member2: 3, member3: 2 }),
      want: [{ name: 'member2' }],
    },
    {
      name: 'Divided + static Weighted: still ONE cluster — a set is not divided by weight',
      strategy: weighted(staticByName({ member1: 5, member2: 1 })),
      clusters: candidates({ member1: 1, member2: 2 }),
      want: [{ name: 'member2' }],
    },
    {
      name: 'Divided + DynamicWeight: one cluster as well',
      strategy: dynamicWeight,
      clusters: candidates({ member1: 4, member2: 2 }),
      want: [{ name: 'member1' }],
    },
    {
      name: 'Divided: equal set capacity goes to the earlier candidate (selection order: score, available, name)',
      strategy: aggregated,
      clusters: [candidate('zeta', 2, { score: 100 }), candidate('alpha', 2)],
      want: [{ name: 'zeta' }],
    },
    {
      name: 'Divided: clusters that cannot host one set are skipped',
      strategy: aggregated,
      clusters: candidates({ member1: 0, member2: 1 }),
      want: [{ name: 'member2' }],
    },
    {
      name: 'Divided: no candidate can host one set ⇒ Unschedulable (retried when capacity appears)',
      strategy: aggregated,
      clusters: candidates({ member1: 0, member2: 0 }),
      failure: { reason: 'Unschedulable', message: 'Clusters available replicas 0 are not enough to schedule.' },
    },
    {
      name: 'Divided, Steady: the cluster already running the set keeps it, even with no free capacity left',
      strategy: aggregated,
      clusters: candidates({ member1: 5, member2: 0 }),
      previous: ['member2'],
      want: [{ name: 'member2' }],
    },
    {
      name: 'Divided, Steady: from several previous clusters (was Duplicated) the earliest candidate is kept',
      strategy: aggregated,
      clusters: candidates({ member3: 0, member1: 0, member2: 0 }),
      previous: ['member1', 'member2'],
      want: [{ name: 'member1' }],
    },
    {
      name: 'Divided, Steady: the previous cluster is no longer a candidate ⇒ the set moves to the best candidate',
      strategy: aggregated,
      clusters: candidates({ member1: 1, member3: 2 }),
      previous: ['member2'],
      want: [{ name: 'member3' }],
    },
    {
      name: 'Divided, Fresh: the choice is recomputed; the current cluster counts its own set (1 + free)',
      strategy: aggregated,
      clusters: candidates({ member1: 0, member2: 2 }),
      previous: ['member1'],
      fresh: true,
      want: [{ name: 'member2' }],
    },
    {
      name: 'Divided, Fresh: with nothing free anywhere the set stays where it runs',
      strategy: aggregated,
      clusters: candidates({ member1: 0, member2: 0 }),
      previous: ['member2'],
      fresh: true,
      want: [{ name: 'member2' }],
    },
    {
      name: 'spec.replicas does not turn a component binding into a divided workload',
      strategy: dynamicWeight,
      clusters: candidates({ member1: 1, member2: 1 }),
      replicas: 10,
      want: [{ name: 'member1' }],
    },
    {
      name: '--enable-empty-workload-propagation does not add targets to a component binding (each would run a whole set)',
      strategy: aggregated,
      clusters: candidates({ member1: 1, member2: 2 }),
      enableEmptyWorkloadPropagation: true,
      want: [{ name: 'member2' }],
    },
    {
      name: 'an unknown replicaSchedulingType ⇒ SchedulerError unsupported replica scheduling strategy',
      strategy: { replicaSchedulingType: 'Sharded' as 'Divided' },
      clusters: candidates({ member1: 1 }),
      failure: { reason: 'SchedulerError', message: /^unsupported replica scheduling strategy/ },
    },
    {
      name: 'no candidates ⇒ SchedulerError no clusters available to schedule',
      strategy: aggregated,
      clusters: [],
      failure: { reason: 'SchedulerError', message: 'no clusters available to schedule' },
    },
  ];
  for (const row of rows) it(row.name, () => check(row));
});

describe('isComponentBinding', () => {
  it('is true when spec.components is non-empty, false when absent or empty', () => {
    assert.equal(isComponentBinding({ components: flink }), true);
    assert.equal(isComponentBinding({ components: [] }), false);
    assert.equal(isComponentBinding({}), false);
  });
});
