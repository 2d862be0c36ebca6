/**
 * The taint manager's per-binding decision with the graceful-eviction assessment, and the fleet's
 * eviction rate. Rows name the Karmada behaviour or issue they pin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportedNginxWork } from '../../../support/factories.ts';
import {
  binderNeededAtOnce,
  type ClusterHealthView,
  decideEviction,
  evictedSpec,
  failoverHeldCondition,
  withoutRestore,
} from '../../../../lib/core/eviction/decision.ts';
import { DEFAULT_EVICTION_RATE, fleetEvictionRate, takeTokens } from '../../../../lib/core/eviction/rate.ts';
import { carriedLabelState } from '../../../../lib/core/eviction/state.ts';
import type { TaskAssessment } from '../../../../lib/core/eviction/tasks.ts';
import { NOT_READY_TAINT_KEY } from '../../../../lib/core/clusters/health.ts';
import type { ResourceBindingSpec, Taint } from '../../../../lib/core/model/types.ts';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');

const settings = {
  enabled: true,
  purgeModeFlag: 'Gracefully',
  defaultTolerationSeconds: { notReady: 300, unreachable: 300 },
  statefulFailoverInjection: true,
  gracefulEvictionTimeoutMs: 600_000,
};

const healthy: ClusterHealthView = { exists: true, ready: true, taints: [] };
const failed = (since: number, key = NOT_READY_TAINT_KEY): ClusterHealthView => ({
  exists: true,
  ready: false,
  taints: [
    { key, effect: 'NoSchedule', timeAdded: at(since) },
    { key, effect: 'NoExecute', timeAdded: at(since) } as Taint,
  ],
});

const spec = (clusters: string[], extra: Partial<ResourceBindingSpec> = {}): ResourceBindingSpec =>
  ({
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' },
    clusters: clusters.map((name) => ({ name, replicas: 2 })),
    ...extra,
  }) as ResourceBindingSpec;

/** A Work of the nginx binding on `cluster`: at `generation`, Applied at `applied`, reporting `health`. */
function workOn(cluster: string, report: { generation: number; applied: number; health: string }) {
  return { cluster, work: reportedNginxWork(cluster, report) };
}

function decide(overrides: Partial<Parameters<typeof decideEviction>[0]> & { spec: ResourceBindingSpec }) {
  return decideEviction({
    aggregatedStatus: [],
    targetWorks: ['a', 'b', 'c'].map((c) => workOn(c, { generation: 1, applied: 1, health: 'Healthy' })),
    appliedPlacement: {},
    hasScheduled: true,
    deleting: false,
    clusters: new Map([
      ['a', healthy],
      ['b', healthy],
      ['c', healthy],
    ]),
    nowMs: T0,
    settings,
    replacementFits: () => true,
    ...overrides,
  });
}

describe('decideEviction: when a binding leaves a NoExecute-tainted cluster', () => {
  it('within the default toleration (300 s, the seeds): stays, with a timer at the end of it', () => {
    const d = decide({
      spec: spec(['a', 'b']),
      clusters: new Map([
        ['a', failed(-100)],
        ['b', healthy],
      ]),
    });
    assert.deepEqual(d.due, []);
    assert.equal(d.nextMs, T0 + 200_000);
  });
  it('once the toleration ends: evicted, with the policy’s purge mode and a message saying why', () => {
    const d = decide({
      spec: spec(['a', 'b']),
      clusters: new Map([
        ['a', failed(-300)],
        ['b', healthy],
      ]),
    });
    assert.equal(d.due.length, 1);
    assert.equal(d.due[0]!.cluster, 'a');
    assert.equal(d.due[0]!.purgeMode, 'Gracefully');
    assert.match(
      d.due[0]!.message,
      /cluster a has had taint\(s\) \{cluster.karmada.io\/not-ready:NoExecute\} for longer than the placement tolerates/,
    );
  });
  it('a placement toleration of 30 s wins over the default', () => {
    const d = decide({
      spec: spec(['a', 'b']),
      appliedPlacement: {
        clusterTolerations: [
          { key: NOT_READY_TAINT_KEY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
        ],
      },
      clusters: new Map([
        ['a', failed(-31)],
        ['b', healthy],
      ]),
    });
    assert.deepEqual(
      d.due.map((x) => x.cluster),
      ['a'],
    );
  });
  it('an untolerated custom NoExecute taint (ClusterTaintPolicy): evicted at once', () => {
    const custom: ClusterHealthView = {
      exists: true,
      ready: true,
      taints: [{ key: 'maintenance', effect: 'NoExecute', timeAdded: at(0) }],
    };
    const d = decide({
      spec: spec(['a', 'b']),
      clusters: new Map([
        ['a', custom],
        ['b', healthy],
      ]),
    });
    assert.match(d.due[0]!.message, /has taint \{maintenance:NoExecute\}, which the placement does not tolerate/);
  });
  it('--enable-no-execute-taint-eviction=false: taints never evict', () => {
    const d = decide({
      spec: spec(['a']),
      settings: { ...settings, enabled: false },
      clusters: new Map([['a', failed(-9999)]]),
    });
    assert.deepEqual(d.due, []);
  });
  it('a binding being deleted is left alone', () => {
    const d = decide({ spec: spec(['a']), deleting: true, clusters: new Map([['a', failed(-9999)]]) });
    assert.deepEqual(d.due, []);
  });
  it('a cluster that no longer exists is not evicted from (Karmada: cluster not found ⇒ no eviction)', () => {
    const d = decide({ spec: spec(['gone']), clusters: new Map() });
    assert.deepEqual(d.due, []);
  });
  it('failover.cluster.purgeMode Directly with the seed’s statePreservation: the job id travels in the task', () => {
    const d = decide({
      spec: spec(['a'], {
        failover: {
          cluster: {
            purgeMode: 'Directly',
            statePreservation: {
              rules: [
                { aliasLabelName: 'application.karmada.io/cluster-failover-jobid', jsonPath: '{ .jobStatus.jobID }' },
              ],
            },
          },
        },
      }),
      aggregatedStatus: [{ clusterName: 'a', status: { jobStatus: { jobID: 'j-1' } } }],
      clusters: new Map([
        ['a', failed(-300)],
        ['b', healthy],
      ]),
    });
    assert.deepEqual(d.due[0]!.preservedLabelState, { 'application.karmada.io/cluster-failover-jobid': 'j-1' });
    assert.equal(d.due[0]!.purgeMode, 'Directly');
  });
  it('state not collected yet: held (StateNotCollected), as Karmada retries', () => {
    const d = decide({
      spec: spec(['a'], {
        failover: {
          cluster: { statePreservation: { rules: [{ aliasLabelName: 'x', jsonPath: '{.jobStatus.jobID}' }] } },
        },
      }),
      clusters: new Map([
        ['a', failed(-300)],
        ['b', healthy],
      ]),
    });
    assert.deepEqual(d.due, []);
    assert.equal(d.held[0]!.reason, 'StateNotCollected');
  });
});

describe('decideEviction: safer than Karmada', () => {
  it('never evicts the last copy when no other cluster can take it (#7455): held with NoReplacementCluster', () => {
    const excludedSeen: string[][] = [];
    const d = decide({
      spec: spec(['a']),
      clusters: new Map([['a', failed(-300)]]),
      replacementFits: (excluded) => {
        excludedSeen.push([...excluded]);
        return false;
      },
    });
    assert.deepEqual(d.due, []);
    assert.equal(d.held[0]!.reason, 'NoReplacementCluster');
    assert.match(d.held[0]!.message, /it is the last copy of the workload and no other cluster can take it/);
    assert.deepEqual(excludedSeen, [['a']]);
    const condition = failoverHeldCondition(d.held, at(0));
    assert.equal(condition?.type, 'FailoverHeld');
    assert.equal(condition?.reason, 'NoReplacementCluster');
  });
  it('a copy left on a cluster the placement no longer selects does not count: still held (simulation seed 37)', () => {
    const d = decide({
      spec: spec(['a', 'b']),
      clusters: new Map([
        ['a', failed(-300)],
        ['b', healthy],
      ]),
      replacementFits: () => false,
      stillPlaced: (cluster) => cluster !== 'b',
    });
    assert.deepEqual(d.due, []);
    assert.equal(d.held[0]!.reason, 'NoReplacementCluster');
  });
  it('…and moves as soon as a replacement fits', () => {
    const d = decide({
      spec: spec(['a']),
      clusters: new Map([
        ['a', failed(-300)],
        ['b', healthy],
      ]),
      replacementFits: () => true,
    });
    assert.deepEqual(
      d.due.map((x) => x.cluster),
      ['a'],
    );
  });
  it('with another copy left, an eviction does not need a replacement', () => {
    let asked = false;
    const d = decide({
      spec: spec(['a', 'b']),
      clusters: new Map([
        ['a', failed(-300)],
        ['b', healthy],
      ]),
      replacementFits: () => {
        asked = true;
        return false;
      },
    });
    assert.deepEqual(
      d.due.map((x) => x.cluster),
      ['a'],
    );
    assert.equal(asked, false);
  });
});

describe('decideEviction: a cluster that recovers (#5803) — hysteresis, the last healthy copy stays', () => {
  /** A step: at `s` seconds, cluster a looks like `a`, b (when placed) reports `b`; the spec after it. */
  interface Step {
    s: number;
    a: ClusterHealthView;
    b?: string;
    /** The scheduler placed the binding on these clusters before this step. */
    placed?: string[];
    tasks: string[];
    clusters: string[];
  }
  const taskFromA = {
    fromCluster: 'a',
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    purgeMode: 'Gracefully',
    replicas: 2,
    creationTimestamp: at(0),
  };
  const rows: { name: string; spec: ResourceBindingSpec; steps: Step[] }[] = [
    {
      name: '#5803 with unhealthy targets: a recovers while b is not Healthy — the task and a’s copy stay within the grace period, and go once b is Healthy',
      spec: spec(['b'], { gracefulEvictionTasks: [taskFromA] }),
      steps: [
        { s: 100, a: healthy, b: 'Unknown', tasks: ['a'], clusters: ['b'] },
        { s: 500, a: healthy, b: 'Unhealthy', tasks: ['a'], clusters: ['b'] },
        { s: 550, a: healthy, b: 'Healthy', tasks: [], clusters: ['b'] },
      ],
    },
    {
      name: '#5803 with a target that never becomes Healthy: at the end of the grace period a takes the workload back with its replicas, its copy kept (unlike Karmada, which deletes it; kept forever, the task never ended: simulation seeds 14, 16, 40)',
      spec: spec(['b'], { gracefulEvictionTasks: [taskFromA] }),
      steps: [
        { s: 100, a: healthy, b: 'Unknown', tasks: ['a'], clusters: ['b:2'] },
        { s: 600, a: healthy, b: 'Unhealthy', tasks: ['a'], clusters: ['b:2'] },
        { s: 700, a: healthy, b: 'Unhealthy', tasks: [], clusters: ['b:2', 'a:2'] },
      ],
    },
    {
      name: 'flapping: a fails, recovers and fails again inside the grace window — its copy is kept throughout and the workload does not move back and forth',
      spec: spec(['a']),
      steps: [
        { s: 0, a: failed(-300), tasks: ['a'], clusters: [] },
        { s: 60, a: healthy, b: 'Unknown', placed: ['b'], tasks: ['a'], clusters: ['b'] },
        { s: 200, a: failed(200), b: 'Unknown', tasks: ['a'], clusters: ['b'] },
        { s: 400, a: healthy, b: 'Unknown', tasks: ['a'], clusters: ['b'] },
        { s: 450, a: healthy, b: 'Healthy', tasks: [], clusters: ['b'] },
      ],
    },
    {
      name: '#5803 with nothing placed in its stead: a recovers and takes the workload back with its replicas, its copy kept (Karmada: the task stays and the binding is stuck)',
      spec: spec([], { gracefulEvictionTasks: [taskFromA] }),
      steps: [{ s: 100, a: healthy, tasks: [], clusters: ['a:2'] }],
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      let current = row.spec;
      for (const step of row.steps) {
        if (step.placed) current = { ...current, clusters: step.placed.map((name) => ({ name, replicas: 2 })) };
        const d = decide({
          spec: current,
          nowMs: T0 + step.s * 1000,
          clusters: new Map([
            ['a', step.a],
            ['b', healthy],
          ]),
          aggregatedStatus: step.b ? [{ clusterName: 'b', health: step.b }] : [],
        });
        current = evictedSpec(current, d, d.due, at(step.s)) ?? current;
        assert.deepEqual(
          {
            s: step.s,
            tasks: (current.gracefulEvictionTasks ?? []).map((t) => t.fromCluster),
            clusters: (current.clusters ?? []).map((c) =>
              step.clusters.some((x) => x.includes(':')) ? `${c.name}:${c.replicas}` : c.name,
            ),
          },
          { s: step.s, tasks: step.tasks, clusters: step.clusters },
        );
      }
    });
  }
});

describe('decideEviction: a task ends on its targets’ health only where their Works are applied at their generation', () => {
  const taskFromA = {
    fromCluster: 'a',
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    purgeMode: 'Gracefully',
    replicas: 2,
    creationTimestamp: at(-30),
  };
  for (const row of [
    {
      name: 'b’s item Healthy from before its Work was scaled up (Work at generation 2, applied at 1): the task and a’s copy stay (Karmada: ended, a’s copy deleted)',
      work: { generation: 2, applied: 1, health: 'Healthy' },
      tasks: ['a'],
    },
    {
      name: 'b’s Work applied at generation 2 but reporting Unhealthy, its item not yet updated (still Healthy): the task stays',
      work: { generation: 2, applied: 2, health: 'Unhealthy' },
      tasks: ['a'],
    },
    {
      name: 'b’s Work applied at its generation and Healthy, and so is its item: the task ends',
      work: { generation: 2, applied: 2, health: 'Healthy' },
      tasks: [],
    },
  ]) {
    it(row.name, () => {
      const before = spec(['b'], { gracefulEvictionTasks: [taskFromA] });
      const d = decide({
        spec: before,
        targetWorks: [workOn('b', row.work)],
        clusters: new Map([
          ['a', failed(-400)],
          ['b', healthy],
        ]),
        aggregatedStatus: [{ clusterName: 'b', health: 'Healthy' }],
      });
      const after = evictedSpec(before, d, d.due, at(0)) ?? before;
      assert.deepEqual(
        (after.gracefulEvictionTasks ?? []).map((t) => t.fromCluster),
        row.tasks,
      );
    });
  }
});

describe('decideEviction: state across consecutive failovers, after the first task has ended (#6232)', () => {
  const JOB = 'application.karmada.io/cluster-failover-jobid';
  const flink = spec(['a'], {
    failover: {
      cluster: {
        purgeMode: 'Directly',
        statePreservation: { rules: [{ aliasLabelName: JOB, jsonPath: '{ .jobStatus.jobID }' }] },
      },
    },
  });
  /** At `s` seconds: how the clusters look, what b reports; the scheduler placed the binding on `placed` first. */
  interface Step {
    s: number;
    clusters: [string, ClusterHealthView][];
    b?: { health: string; status: unknown };
    placed?: string[];
  }
  const rows: { name: string; steps: Step[]; want: { cluster: string; state?: Record<string, string> } }[] = [
    {
      name: 'b never became Healthy and fails 15 min after a did — the first task ended at its 10 m grace period 5 min before: a’s job id is carried on (before: held, b’s status has no job id)',
      steps: [
        {
          s: 0,
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
        },
        {
          s: 60,
          placed: ['b'],
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
          b: { health: 'Unhealthy', status: { jobStatus: { state: 'RECONCILING' } } },
        },
        {
          s: 601,
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
          b: { health: 'Unhealthy', status: { jobStatus: { state: 'RECONCILING' } } },
        },
        {
          s: 900,
          clusters: [
            ['a', failed(-300)],
            ['b', failed(600)],
            ['c', healthy],
          ],
          b: { health: 'Unhealthy', status: { jobStatus: { state: 'RECONCILING' } } },
        },
      ],
      want: { cluster: 'b', state: { [JOB]: 'job-from-a' } },
    },
    {
      name: 'b never became Healthy but reports a job id of its own (a job that never ran): a’s is carried on all the same',
      steps: [
        {
          s: 0,
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
        },
        {
          s: 60,
          placed: ['b'],
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
          b: { health: 'Unknown', status: { jobStatus: { jobID: 'never-ran-on-b' } } },
        },
        {
          s: 601,
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
          b: { health: 'Unknown', status: { jobStatus: { jobID: 'never-ran-on-b' } } },
        },
        {
          s: 1200,
          clusters: [
            ['a', failed(-300)],
            ['b', failed(900)],
            ['c', healthy],
          ],
          b: { health: 'Unknown', status: { jobStatus: { jobID: 'never-ran-on-b' } } },
        },
      ],
      want: { cluster: 'b', state: { [JOB]: 'job-from-a' } },
    },
    {
      name: 'b became Healthy after its grace period and ran: its own job id is the state when it fails later',
      steps: [
        {
          s: 0,
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
        },
        {
          s: 60,
          placed: ['b'],
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
          b: { health: 'Unhealthy', status: { jobStatus: { state: 'RECONCILING' } } },
        },
        {
          s: 601,
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
          b: { health: 'Unhealthy', status: { jobStatus: { state: 'RECONCILING' } } },
        },
        {
          s: 700,
          clusters: [
            ['a', failed(-300)],
            ['b', healthy],
            ['c', healthy],
          ],
          b: { health: 'Healthy', status: { jobStatus: { jobID: 'job-on-b' } } },
        },
        {
          s: 3600,
          clusters: [
            ['a', failed(-300)],
            ['b', failed(3300)],
            ['c', healthy],
          ],
          b: { health: 'Healthy', status: { jobStatus: { jobID: 'job-on-b' } } },
        },
      ],
      want: { cluster: 'b', state: { [JOB]: 'job-on-b' } },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      let current: ResourceBindingSpec = flink;
      let carried: ReturnType<typeof carriedLabelState>;
      let last: ReturnType<typeof decide> | undefined;
      for (const step of row.steps) {
        if (step.placed) current = { ...current, clusters: step.placed.map((name) => ({ name, replicas: 2 })) };
        const aggregatedStatus = [
          { clusterName: 'a', status: { jobStatus: { jobID: 'job-from-a' } }, health: 'Healthy' },
          ...(step.b ? [{ clusterName: 'b', ...step.b }] : []),
        ];
        last = decide({
          spec: current,
          nowMs: T0 + step.s * 1000,
          clusters: new Map(step.clusters),
          aggregatedStatus,
          carried,
        });
        const next = evictedSpec(current, last, last.due, at(step.s)) ?? current;
        carried = carriedLabelState({ before: current, after: next, carried, observed: aggregatedStatus });
        current = next;
      }
      assert.deepEqual(last!.held, []);
      assert.deepEqual(
        last!.due.map((d) => ({ cluster: d.cluster, state: d.preservedLabelState })),
        [row.want],
      );
    });
  }
});

describe('binderNeededAtOnce: who renders after an eviction write', () => {
  const ended = [{ cluster: 'a', why: 'healthy' }] as unknown as TaskAssessment['ended'];
  const rows: [string, Parameters<typeof binderNeededAtOnce>[0], TaskAssessment['ended'], boolean][] = [
    [
      'Gracefully (Karmada default): the copy stays until its task ends; the scheduler hands the re-placed binding on',
      [{ purgeMode: 'Gracefully' }],
      [],
      false,
    ],
    ['Never (suppressDeletion): the copy stays; same', [{ purgeMode: 'Never' }], [], false],
    [
      'Directly: the old copy goes now and the new ones wait for it (seeds v1.12/v1.15)',
      [{ purgeMode: 'Gracefully' }, { purgeMode: 'Directly' }],
      [],
      true,
    ],
    [
      'an eviction and an ended task in one write: the ended task’s copy goes now',
      [{ purgeMode: 'Gracefully' }],
      ended,
      true,
    ],
    ['no eviction, tasks ended or changed: the binder removes their copies', [], ended, true],
  ];
  for (const [name, due, end, want] of rows)
    it(name, () => assert.equal(binderNeededAtOnce(due, { ended: end }), want));
});

describe('evictedSpec: one write with the assessment and the evictions', () => {
  it('applies due evictions as TaintUntolerated tasks by the TaintManager', () => {
    const s = spec(['a', 'b']);
    const d = decide({
      spec: s,
      clusters: new Map([
        ['a', failed(-300)],
        ['b', healthy],
      ]),
    });
    const next = evictedSpec(s, d, d.due, at(0));
    assert.deepEqual(next?.clusters, [{ name: 'b', replicas: 2 }]);
    assert.deepEqual(
      next?.gracefulEvictionTasks?.map((t) => [t.fromCluster, t.reason, t.producer, t.purgeMode, t.replicas]),
      [['a', 'TaintUntolerated', 'TaintManager', 'Gracefully', 2]],
    );
  });
  it('nothing changed: undefined (no write)', () => {
    const s = spec(['a', 'b']);
    const d = decide({ spec: s });
    assert.equal(evictedSpec(s, d, d.due, at(0)), undefined);
  });
  it('an ended task is dropped', () => {
    const s = spec(['b'], {
      gracefulEvictionTasks: [
        {
          fromCluster: 'a',
          reason: 'TaintUntolerated',
          producer: 'TaintManager',
          purgeMode: 'Gracefully',
          creationTimestamp: at(-601),
        },
      ],
    });
    const d = decide({
      spec: s,
      clusters: new Map([
        ['a', failed(-900)],
        ['b', healthy],
      ]),
    });
    assert.equal(evictedSpec(s, d, d.due, at(0))?.gracefulEvictionTasks, undefined);
  });
});

const REFUSAL = 'FederatedResourceQuota(default/team) exceeded for resource cpu: requested sum 6, limit 4.';

describe('withoutRestore: the quota refuses a recovered cluster its replicas back (simulation seeds 480, 500, 995)', () => {
  const task = (fromCluster: string) => ({
    fromCluster,
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    purgeMode: 'Gracefully',
    replicas: 2,
    creationTimestamp: at(-601),
  });
  const rows: {
    name: string;
    clusters: string[];
    due?: string[];
    ended: { cluster: string; why: 'recovered' | 'timeout' }[];
    want: { kept: string[]; ended: [string, string][]; nextMs?: number };
  }[] = [
    {
      name: 'placed elsewhere: the task ends as over-quota (its copy goes; the scheduler places the replicas when the quota allows)',
      clusters: ['b'],
      ended: [{ cluster: 'a', why: 'recovered' }],
      want: { kept: [], ended: [['a', 'over-quota']] },
    },
    {
      name: 'placed nowhere else: the task stays — its copy is the last one — and is looked at again in a minute',
      clusters: [],
      ended: [{ cluster: 'a', why: 'recovered' }],
      want: { kept: ['a'], ended: [], nextMs: T0 + 60_000 },
    },
    {
      name: 'placed only on a cluster being evicted in the same pass: nowhere else either, the task stays',
      clusters: ['b'],
      due: ['b'],
      ended: [{ cluster: 'a', why: 'recovered' }],
      want: { kept: ['a'], ended: [], nextMs: T0 + 60_000 },
    },
    {
      name: 'other endings are left as they are',
      clusters: ['b'],
      ended: [
        { cluster: 'a', why: 'recovered' },
        { cluster: 'c', why: 'timeout' },
      ],
      want: {
        kept: [],
        ended: [
          ['a', 'over-quota'],
          ['c', 'timeout'],
        ],
      },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const s = spec(row.clusters, { gracefulEvictionTasks: row.ended.map((e) => task(e.cluster)) });
      const out = withoutRestore(
        s,
        { kept: [], ended: row.ended },
        (row.due ?? []).map((cluster) => ({ cluster })),
        T0,
        REFUSAL,
      );
      assert.deepEqual(
        out.kept.map((t) => t.fromCluster),
        row.want.kept,
      );
      assert.deepEqual(
        out.ended.map((e) => [e.cluster, e.why]),
        row.want.ended,
      );
      for (const e of out.ended) if (e.why === 'over-quota') assert.equal(e.quota, REFUSAL, 'the quota says why');
      assert.equal(out.nextMs, row.want.nextMs);
      // What the binding is written with: a cluster refused is never put back into spec.clusters.
      assert.ok(!(evictedSpec(s, { assessment: out }, [], at(0))?.clusters ?? []).some((c) => c.name === 'a'));
    });
  }
  it('nothing recovered: the assessment itself', () => {
    const assessment = { kept: [], ended: [{ cluster: 'a', why: 'timeout' as const }] };
    assert.equal(withoutRestore(spec(['b']), assessment, [], T0, REFUSAL), assessment);
  });
});

describe('fleetEvictionRate (Kubernetes node lifecycle’s zone states, Karmada #5150/#6777)', () => {
  const rows: { name: string; healthy: boolean[]; mode: string; rate: number }[] = [
    {
      name: 'one of three down: normal rate (--resource-eviction-rate)',
      healthy: [true, true, false],
      mode: 'normal',
      rate: 0.5,
    },
    {
      name: 'exactly 0.55 unhealthy is not above the threshold',
      healthy: [...Array(45).fill(true), ...Array(55).fill(false)],
      mode: 'normal',
      rate: 0.5,
    },
    { name: 'two of three down (> 0.55): secondary rate', healthy: [true, false, false], mode: 'secondary', rate: 0.1 },
    {
      name: 'every cluster down: halted — most likely the control plane lost its own network',
      healthy: [false, false, false],
      mode: 'halted',
      rate: 0,
    },
    { name: 'no cluster at all: halted', healthy: [], mode: 'halted', rate: 0 },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const got = fleetEvictionRate(row.healthy, DEFAULT_EVICTION_RATE);
      assert.equal(got.mode, row.mode);
      assert.equal(got.ratePerSecond, row.rate);
    });
  }
});

describe('takeTokens (the stored eviction limiter)', () => {
  it('a missing bucket is full: the burst goes at once', () => {
    const got = takeTokens({ bucket: undefined, nowMs: T0, ratePerSecond: 0.5, burst: 10, want: 3 });
    assert.equal(got.granted, 3);
    assert.deepEqual(got.bucket, { tokens: 7, updatedMs: T0 });
  });
  it('past the burst: what is left, and when the next token comes', () => {
    const got = takeTokens({
      bucket: { tokens: 1.5, updatedMs: T0 },
      nowMs: T0,
      ratePerSecond: 0.5,
      burst: 10,
      want: 3,
    });
    assert.equal(got.granted, 1);
    assert.equal(got.retryAtMs, T0 + 1000);
  });
  it('refills at the rate, up to the burst', () => {
    const got = takeTokens({
      bucket: { tokens: 0, updatedMs: T0 },
      nowMs: T0 + 100_000,
      ratePerSecond: 0.5,
      burst: 10,
      want: 20,
    });
    assert.equal(got.granted, 10);
  });
  it('a rate of 0 (halted) grants nothing, even from a full bucket', () => {
    const got = takeTokens({ bucket: undefined, nowMs: T0, ratePerSecond: 0, burst: 10, want: 1 });
    assert.equal(got.granted, 0);
    assert.equal(got.retryAtMs, undefined);
  });
  it('a rate of 0 (halted) grants nothing and sets no timer', () => {
    const got = takeTokens({
      bucket: { tokens: 0, updatedMs: T0 },
      nowMs: T0 + 5_000,
      ratePerSecond: 0,
      burst: 10,
      want: 1,
    });
    assert.equal(got.granted, 0);
    assert.equal(got.retryAtMs, undefined);
  });
});
