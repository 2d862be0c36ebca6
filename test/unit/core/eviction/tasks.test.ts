/**
 * Graceful eviction tasks (Karmada `binding_types_helper.go GracefulEvictCluster`,
 * `gracefuleviction/evictiontask.go assessEvictionTasks`, the taint manager's `getPurgeMode`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportedNginxWork } from '../../../support/factories.ts';
import {
  assessEvictionTasks,
  canonicalPurgeMode,
  clusterEvictionPurgeMode,
  currentWorkClusters,
  directlyPurgedClusters,
  gracefulEvictCluster,
  restoredClusters,
  type TaskAssessment,
  lastCopyClusters,
  worksDecideTasks,
} from '../../../../lib/core/eviction/tasks.ts';
import type { GracefulEvictionTask, KubeObject, ResourceBindingSpec } from '../../../../lib/core/model/types.ts';

type EvictableSpec = Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>;

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');

const task = (from: string, extra: Partial<GracefulEvictionTask> = {}): GracefulEvictionTask => ({
  fromCluster: from,
  reason: 'TaintUntolerated',
  producer: 'TaintManager',
  purgeMode: 'Gracefully',
  creationTimestamp: at(-60),
  ...extra,
});

describe('purge modes', () => {
  for (const [given, want] of [
    ['Directly', 'Directly'],
    ['Immediately', 'Directly'],
    ['Gracefully', 'Gracefully'],
    ['Graciously', 'Gracefully'],
    ['Never', 'Never'],
    [undefined, 'Gracefully'],
    ['bogus', 'Gracefully'],
  ] as const) {
    it(`canonicalPurgeMode(${given}) = ${want} (v1.12 names accepted, v1.15 names stored)`, () =>
      assert.equal(canonicalPurgeMode(given), want));
  }
  it('cluster eviction: failover.cluster.purgeMode wins; empty means Gracefully', () => {
    assert.equal(
      clusterEvictionPurgeMode({ failover: { cluster: { purgeMode: 'Directly' } } }, 'Gracefully'),
      'Directly',
    );
    assert.equal(clusterEvictionPurgeMode({ failover: { cluster: {} } }, 'Directly'), 'Gracefully');
  });
  it('cluster eviction without failover.cluster: --no-execute-taint-eviction-purge-mode (Directly, else Gracefully)', () => {
    assert.equal(clusterEvictionPurgeMode({}, 'Directly'), 'Directly');
    assert.equal(clusterEvictionPurgeMode({}, 'Never'), 'Gracefully');
    assert.equal(clusterEvictionPurgeMode({ failover: { application: {} } }, 'Whatever'), 'Gracefully');
  });
});

describe('gracefulEvictCluster', () => {
  const options = { producer: 'TaintManager', reason: 'TaintUntolerated', purgeMode: 'Directly' as const };
  it('removes the cluster from spec.clusters and records a task with its replicas and creation time', () => {
    const spec = {
      clusters: [
        { name: 'a', replicas: 2 },
        { name: 'b', replicas: 1 },
      ],
    };
    assert.deepEqual(gracefulEvictCluster(spec, 'a', { ...options, preservedLabelState: { k: 'v' } }, at(0)), {
      clusters: [{ name: 'b', replicas: 1 }],
      gracefulEvictionTasks: [
        {
          fromCluster: 'a',
          purgeMode: 'Directly',
          replicas: 2,
          reason: 'TaintUntolerated',
          producer: 'TaintManager',
          preservedLabelState: { k: 'v' },
          creationTimestamp: at(0),
        },
      ],
    });
  });
  it('a cluster with 0 replicas gets a task without replicas', () => {
    const got = gracefulEvictCluster<EvictableSpec>({ clusters: [{ name: 'a', replicas: 0 }] }, 'a', options, at(0));
    assert.equal(got.gracefulEvictionTasks?.[0]?.replicas, undefined);
  });
  it('a cluster that is not a target: no-op (same object)', () => {
    const spec = { clusters: [{ name: 'b' }] };
    assert.equal(gracefulEvictCluster(spec, 'a', options, at(0)), spec);
  });
  it('a second eviction from a cluster with a task keeps the first task (and still removes the cluster)', () => {
    const first = task('a');
    const got = gracefulEvictCluster(
      { clusters: [{ name: 'a' }], gracefulEvictionTasks: [first] },
      'a',
      options,
      at(0),
    );
    assert.deepEqual(got, { clusters: [], gracefulEvictionTasks: [first] });
  });
  it('the message is cut at Karmada’s 1,024 characters', () => {
    const got = gracefulEvictCluster<EvictableSpec>(
      { clusters: [{ name: 'a' }] },
      'a',
      { ...options, message: 'x'.repeat(2000) },
      at(0),
    );
    assert.equal(got.gracefulEvictionTasks?.[0]?.message?.length, 1024);
  });
});

describe('assessEvictionTasks (graceful-eviction controller)', () => {
  const base = {
    nowMs: T0,
    timeoutMs: 600_000,
    clusters: [{ name: 'b', replicas: 2 }],
    observed: [{ clusterName: 'b', health: 'Healthy' }],
    currentWorks: new Set(['b']),
    hasScheduled: false,
  };
  it('a task without creationTimestamp is stamped now and kept (not assessed this round)', () => {
    const { creationTimestamp: _, ...unstamped } = task('a');
    const got = assessEvictionTasks({ ...base, hasScheduled: true, tasks: [unstamped] });
    assert.deepEqual(got.kept, [{ ...unstamped, creationTimestamp: at(0) }]);
    assert.equal(got.nextMs, T0 + 600_000);
  });
  it('suppressDeletion: true keeps it forever, false ends it now (Never purge mode)', () => {
    const got = assessEvictionTasks({
      ...base,
      hasScheduled: true,
      tasks: [
        task('a', { suppressDeletion: true, creationTimestamp: at(-99_999) }),
        task('c', { suppressDeletion: false }),
      ],
    });
    assert.deepEqual(
      got.kept.map((t) => t.fromCluster),
      ['a'],
    );
    assert.deepEqual(got.ended, [{ cluster: 'c', why: 'suppression-lifted' }]);
    assert.equal(got.nextMs, undefined, 'no timer for suppressed tasks');
  });
  it('past creationTimestamp + timeout it ends (--graceful-eviction-timeout)', () => {
    const got = assessEvictionTasks({ ...base, tasks: [task('a', { creationTimestamp: at(-601) })] });
    assert.deepEqual(got.ended, [{ cluster: 'a', why: 'timeout' }]);
  });
  it('gracePeriodSeconds overrides the timeout', () => {
    const got = assessEvictionTasks({
      ...base,
      tasks: [task('a', { gracePeriodSeconds: 30, creationTimestamp: at(-31) })],
    });
    assert.deepEqual(got.ended, [{ cluster: 'a', why: 'timeout' }]);
  });
  it('scheduled and every new target Healthy: it ends (Gracefully waits for the new copies)', () => {
    const got = assessEvictionTasks({ ...base, hasScheduled: true, tasks: [task('a')] });
    assert.deepEqual(got.ended, [{ cluster: 'a', why: 'healthy' }]);
  });
  it('a new target not yet Healthy: kept, with a timer at its deadline', () => {
    const got = assessEvictionTasks({
      ...base,
      hasScheduled: true,
      observed: [{ clusterName: 'b', health: 'Unknown' }],
      tasks: [task('a')],
    });
    assert.equal(got.kept.length, 1);
    assert.equal(got.nextMs, T0 + 540_000 + 1);
  });
  it('not yet scheduled for this generation: kept even if the targets look healthy', () => {
    const got = assessEvictionTasks({ ...base, hasScheduled: false, tasks: [task('a')] });
    assert.equal(got.kept.length, 1);
  });
  const staleRows: {
    name: string;
    args: Partial<Parameters<typeof assessEvictionTasks>[0]>;
    kept: string[];
    ended: TaskAssessment['ended'];
  }[] = [
    {
      name: 'a stale Healthy item: b’s Work (scaled up for the evicted replicas) not yet applied at its generation — kept (Karmada ends it and deletes the old copy before b has its new replicas)',
      args: { currentWorks: new Set() },
      kept: ['a'],
      ended: [],
    },
    {
      name: 'one target current and Healthy, the other Healthy but its Work not applied at its generation — kept',
      args: {
        clusters: [
          { name: 'b', replicas: 1 },
          { name: 'c', replicas: 1 },
        ],
        observed: [
          { clusterName: 'b', health: 'Healthy' },
          { clusterName: 'c', health: 'Healthy' },
        ],
        currentWorks: new Set(['b']),
      },
      kept: ['a'],
      ended: [],
    },
    {
      name: 'b’s Work applied at its generation but b not yet Healthy (the member still rolling out) — kept',
      args: { observed: [{ clusterName: 'b', health: 'Unhealthy' }] },
      kept: ['a'],
      ended: [],
    },
    {
      name: 'b’s Work applied at its generation and b Healthy — ended, the old copy goes',
      args: {},
      kept: [],
      ended: [{ cluster: 'a', why: 'healthy' }],
    },
    {
      name: 'a Work not applied at its generation does not hold a task past its grace period — ends at the timeout, as in Karmada',
      args: { currentWorks: new Set(), tasks: [task('a', { creationTimestamp: at(-601) })] },
      kept: [],
      ended: [{ cluster: 'a', why: 'timeout' }],
    },
  ];
  for (const row of staleRows) {
    it(row.name, () => {
      const got = assessEvictionTasks({ ...base, hasScheduled: true, tasks: [task('a')], ...row.args });
      assert.deepEqual(
        got.kept.map((t) => t.fromCluster),
        row.kept,
      );
      assert.deepEqual(got.ended, row.ended);
    });
  }
  it('no target at all: kept (Karmada ends it vacuously and deletes the only copy, #7455)', () => {
    const got = assessEvictionTasks({ ...base, hasScheduled: true, clusters: [], tasks: [task('a')] });
    assert.equal(got.kept.length, 1);
  });
  it('no target at all, past the timeout: still kept, looked at again in a minute (the only copy; simulation seed 10)', () => {
    const got = assessEvictionTasks({
      ...base,
      hasScheduled: true,
      clusters: [],
      tasks: [task('a', { creationTimestamp: at(-601) })],
    });
    assert.deepEqual([got.kept.length, got.ended, got.nextMs], [1, [], T0 + 60_000]);
  });
});

describe('which targets’ Works can end a task (issue 13: a Healthy item may predate its Work’s last update)', () => {
  const resource = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' };
  const work = (
    report: { generation?: number; applied?: number; appliedStatus?: string; health?: string; deleting?: boolean } = {},
  ): KubeObject => reportedNginxWork('b', { ...report, ...(report.deleting ? { deletionTimestamp: at(0) } : {}) });
  const rows: { name: string; works: KubeObject[]; current: boolean }[] = [
    {
      name: 'applied at its current generation and reporting Healthy: current',
      works: [work({ health: 'Healthy' })],
      current: true,
    },
    {
      name: 'Applied True at an older generation (scaled up, the member has not applied it): not current, whatever it reported',
      works: [work({ applied: 1, health: 'Healthy' })],
      current: false,
    },
    {
      name: 'applied at its generation, the member still rolling out (Unhealthy): not current',
      works: [work({ health: 'Unhealthy' })],
      current: false,
    },
    { name: 'applied at its generation, no manifest status yet: not current', works: [work()], current: false },
    {
      name: 'applying its generation failed (Applied False): not current',
      works: [work({ appliedStatus: 'False', health: 'Healthy' })],
      current: false,
    },
    { name: 'being deleted: not current', works: [work({ health: 'Healthy', deleting: true })], current: false },
    {
      name: 'two Works on the cluster, one of them stale: not current',
      works: [work({ health: 'Healthy' }), work({ applied: 1, health: 'Healthy' })],
      current: false,
    },
    { name: 'no Work at all: not current', works: [], current: false },
  ];
  for (const row of rows) {
    it(`currentWorkClusters: ${row.name}`, () =>
      assert.equal(
        currentWorkClusters(
          resource,
          row.works.map((w) => ({ cluster: 'b', work: w })),
        ).has('b'),
        row.current,
      ));
  }

  const spec = { clusters: [{ name: 'b' }], gracefulEvictionTasks: [task('a')] };
  const healthyB = [{ clusterName: 'b', health: 'Healthy' }];
  const asks: { name: string; args: Parameters<typeof worksDecideTasks>; want: boolean }[] = [
    {
      name: 'tasks, scheduled, every target Healthy: the Works decide (read them)',
      args: [spec, healthyB, true],
      want: true,
    },
    {
      name: 'no task: nothing to read (the common path costs no read)',
      args: [{ clusters: spec.clusters }, healthyB, true],
      want: false,
    },
    { name: 'not scheduled for its generation: nothing to read', args: [spec, healthyB, false], want: false },
    {
      name: 'a target not Healthy: the task stays anyway, nothing to read',
      args: [spec, [{ clusterName: 'b', health: 'Unknown' }], true],
      want: false,
    },
    {
      name: 'only a Never task (suppressDeletion: true): health decides nothing, nothing to read',
      args: [
        { clusters: spec.clusters, gracefulEvictionTasks: [task('a', { suppressDeletion: true })] },
        healthyB,
        true,
      ],
      want: false,
    },
    {
      name: 'no target: nothing to read',
      args: [{ clusters: [], gracefulEvictionTasks: spec.gracefulEvictionTasks }, [], true],
      want: false,
    },
  ];
  for (const row of asks)
    it(`worksDecideTasks: ${row.name}`, () => assert.equal(worksDecideTasks(...row.args), row.want));
});

describe('assessEvictionTasks: a cluster that recovered (#5803; Karmada never ends a task on recovery, #5782)', () => {
  const base = {
    nowMs: T0,
    timeoutMs: 600_000,
    clusters: [{ name: 'b', replicas: 2 }],
    currentWorks: new Set(['b']),
    hasScheduled: true,
    recovered: (c: string) => c === 'a' || c === 'c',
  };
  const rows: {
    name: string;
    args: Partial<Parameters<typeof assessEvictionTasks>[0]>;
    kept: string[];
    ended: TaskAssessment['ended'];
    nextMs?: number;
  }[] = [
    {
      name: '#5803 recovered, its replacement not reporting yet: kept — its copy is the last healthy one (before: ended at once and the copy deleted)',
      args: { observed: [], tasks: [task('a')] },
      kept: ['a'],
      ended: [],
      nextMs: T0 + 540_000 + 1,
    },
    {
      name: '#5803 recovered, its replacement Unhealthy: kept',
      args: { observed: [{ clusterName: 'b', health: 'Unhealthy' }], tasks: [task('a')] },
      kept: ['a'],
      ended: [],
      nextMs: T0 + 540_000 + 1,
    },
    {
      name: '#5803 recovered, every replacement Healthy: ends by Karmada’s own rule, and the copy goes',
      args: { observed: [{ clusterName: 'b', health: 'Healthy' }], tasks: [task('a')] },
      kept: [],
      ended: [{ cluster: 'a', why: 'healthy' }],
    },
    {
      name: '#5803 recovered, its replacement’s item Healthy but its Work not applied at its generation: kept — the item predates the Work',
      args: { currentWorks: new Set(), observed: [{ clusterName: 'b', health: 'Healthy' }], tasks: [task('a')] },
      kept: ['a'],
      ended: [],
      nextMs: T0 + 540_000 + 1,
    },
    {
      name: '#5803 recovered, nothing placed in its stead: ends as recovered, the cluster takes the workload back (Karmada: the task stays, the cluster unschedulable, the binding stuck)',
      args: { clusters: [], observed: [], tasks: [task('a', { creationTimestamp: at(-601) })] },
      kept: [],
      ended: [{ cluster: 'a', why: 'recovered' }],
    },
    {
      name: 'recovered, past the grace period, the replacement not Healthy: ends as recovered, the cluster takes the workload back and keeps its copy (Karmada ends it at the timeout and deletes the last healthy copy; kept forever, it never converged: simulation seeds 16, 40)',
      args: {
        observed: [{ clusterName: 'b', health: 'Unhealthy' }],
        tasks: [task('a', { creationTimestamp: at(-601) })],
      },
      kept: [],
      ended: [{ cluster: 'a', why: 'recovered' }],
    },
    {
      name: 'recovered, past the grace period, the replacement not reporting yet: ends as recovered',
      args: { observed: [], tasks: [task('a', { creationTimestamp: at(-601) })] },
      kept: [],
      ended: [{ cluster: 'a', why: 'recovered' }],
    },
    {
      name: 'recovered, past the grace period, one target Healthy and another Unhealthy for its own reasons: ends as recovered (simulation seed 14)',
      args: {
        clusters: [
          { name: 'b', replicas: 1 },
          { name: 'e', replicas: 2 },
        ],
        currentWorks: new Set(['b']),
        observed: [
          { clusterName: 'b', health: 'Healthy' },
          { clusterName: 'e', health: 'Unhealthy' },
        ],
        tasks: [task('a', { creationTimestamp: at(-601) })],
      },
      kept: [],
      ended: [{ cluster: 'a', why: 'recovered' }],
    },
    {
      name: 'recovered, past the grace period, every replacement Healthy: ends as healthy, the copy goes',
      args: {
        observed: [{ clusterName: 'b', health: 'Healthy' }],
        tasks: [task('a', { creationTimestamp: at(-601) })],
      },
      kept: [],
      ended: [{ cluster: 'a', why: 'healthy' }],
    },
    {
      name: 'recovered, at its deadline exactly, the replacement Unhealthy: still kept (the window is inclusive)',
      args: {
        observed: [{ clusterName: 'b', health: 'Unhealthy' }],
        tasks: [task('a', { creationTimestamp: at(-600) })],
      },
      kept: ['a'],
      ended: [],
      nextMs: T0 + 1,
    },
    {
      name: 'recovered, not yet scheduled for this generation: kept even if the targets look healthy',
      args: { hasScheduled: false, observed: [{ clusterName: 'b', health: 'Healthy' }], tasks: [task('a')] },
      kept: ['a'],
      ended: [],
      nextMs: T0 + 540_000 + 1,
    },
    {
      name: 'still failing (not recovered), past the grace period: ends at the timeout, as in Karmada',
      args: {
        observed: [{ clusterName: 'b', health: 'Unknown' }],
        tasks: [task('d', { creationTimestamp: at(-601) })],
      },
      kept: [],
      ended: [{ cluster: 'd', why: 'timeout' }],
    },
    {
      name: 'an application-failure task on a recovered cluster follows the ordinary rules (its cluster never failed)',
      args: {
        clusters: [],
        observed: [],
        tasks: [task('c', { reason: 'ApplicationFailure', creationTimestamp: at(-30) })],
      },
      kept: ['c'],
      ended: [],
      nextMs: T0 + 570_000 + 1,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const got = assessEvictionTasks({ ...base, observed: undefined, tasks: [], ...row.args });
      assert.deepEqual(
        got.kept.map((t) => t.fromCluster),
        row.kept,
      );
      assert.deepEqual(got.ended, row.ended);
      assert.equal(got.nextMs, row.nextMs);
    });
  }
  it('restoredClusters: a cluster that took the workload back returns with the replicas its task recorded', () => {
    const tasks = [task('a', { replicas: 3 }), task('c')];
    assert.deepEqual(
      restoredClusters(tasks, {
        ended: [
          { cluster: 'a', why: 'recovered' },
          { cluster: 'c', why: 'timeout' },
        ],
      }),
      [{ name: 'a', replicas: 3 }],
    );
  });
});

describe('directlyPurgedClusters (new Works wait for these to be gone)', () => {
  it('lists Directly and Immediately tasks only', () => {
    assert.deepEqual(
      directlyPurgedClusters({
        gracefulEvictionTasks: [
          task('a', { purgeMode: 'Directly' }),
          task('b'),
          task('c', { purgeMode: 'Immediately' }),
        ],
      }),
      ['a', 'c'],
    );
  });
});

describe('lastCopyClusters (a Directly-purged copy kept while it is the only one)', () => {
  const tasks = [task('a', { purgeMode: 'Directly' }), task('b'), task('c', { purgeMode: 'Immediately' })];
  const rows: { name: string; spec: EvictableSpec; want: string[] }[] = [
    {
      name: 'placed nowhere: the Directly (and Immediately) copies are kept, Gracefully ones are not theirs to keep (simulation seed 4)',
      spec: { clusters: [], gracefulEvictionTasks: tasks },
      want: ['a', 'c'],
    },
    {
      name: 'no spec.clusters at all counts as placed nowhere (simulation seed 4)',
      spec: { gracefulEvictionTasks: tasks },
      want: ['a', 'c'],
    },
    {
      name: 'a replacement placed: none kept, the purge goes ahead (simulation seed 4)',
      spec: { clusters: [{ name: 'd', replicas: 1 }], gracefulEvictionTasks: tasks },
      want: [],
    },
    { name: 'no eviction task: none', spec: { clusters: [] }, want: [] },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(lastCopyClusters(row.spec), row.want));
});
