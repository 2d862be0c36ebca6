import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Condition,
  type ConditionStatus,
  DEFAULT_HEALTH_SETTINGS,
  findCondition,
  NOT_READY_TAINT_KEY,
  observedReady,
  type ProbeResult,
  pullClusterStaleness,
  rfc3339,
  setCondition,
  statusCollectionFailed,
  type Taint,
  taintsForReady,
  thresholdAdjustedReady,
  type ThresholdState,
  UNREACHABLE_TAINT_KEY,
  ZERO_TIME_MS,
} from '../../../../lib/core/clusters/health.ts';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const at = (s: number) => T0 + s * 1000;
const ready = (status: ConditionStatus, lastTransitionTime = '2025-01-01T00:00:00Z', reason = 'R'): Condition => ({
  type: 'Ready',
  status,
  reason,
  message: 'm',
  lastTransitionTime,
});

describe('observedReady (generateReadyCondition)', () => {
  const cases: [ProbeResult, ConditionStatus, string, string][] = [
    [{ online: false, healthy: false }, 'False', 'ClusterNotReachable', 'cluster is not reachable'],
    [
      { online: true, healthy: false },
      'False',
      'ClusterNotReady',
      'cluster is reachable but health endpoint responded without ok',
    ],
    [{ online: true, healthy: true }, 'True', 'ClusterReady', 'cluster is healthy and ready to accept workloads'],
  ];
  for (const [probe, status, reason, message] of cases) {
    it(`${JSON.stringify(probe)} ⇒ ${status}/${reason}`, () => {
      assert.deepEqual(observedReady(probe), { status, reason, message });
    });
  }
  it('client construction failure ⇒ StatusCollectionFailed', () => {
    assert.deepEqual(statusCollectionFailed('boom'), {
      status: 'False',
      reason: 'StatusCollectionFailed',
      message: 'failed to create a ClusterClient: boom',
    });
  });
});

describe('thresholdAdjustedReady: single steps', () => {
  const F = observedReady({ online: false, healthy: false });
  const T = observedReady({ online: true, healthy: true });
  const cases: {
    name: string;
    current: Condition | undefined;
    observed: typeof F;
    state: ThresholdState | undefined;
    now: number;
    want: ConditionStatus;
    wantState: ThresholdState | 'same';
  }[] = [
    {
      name: 'first observation is returned unsmoothed, cache starts in the distant past',
      current: ready('True'),
      observed: F,
      state: undefined,
      now: at(100),
      want: 'False',
      wantState: { lastObserved: 'False', thresholdStartMs: ZERO_TIME_MS },
    },
    {
      name: 'no current Ready condition: observed, cache untouched',
      current: undefined,
      observed: F,
      state: { lastObserved: 'True', thresholdStartMs: at(0) },
      now: at(5),
      want: 'False',
      wantState: 'same',
    },
    {
      name: 'True→False observed change resets the window and holds True',
      current: ready('True'),
      observed: F,
      state: { lastObserved: 'True', thresholdStartMs: ZERO_TIME_MS },
      now: at(10),
      want: 'True',
      wantState: { lastObserved: 'False', thresholdStartMs: at(10) },
    },
    {
      name: 'still failing just before the failure threshold: held',
      current: ready('True'),
      observed: F,
      state: { lastObserved: 'False', thresholdStartMs: at(10) },
      now: at(40) - 1,
      want: 'True',
      wantState: 'same',
    },
    {
      name: 'failure threshold reached: False',
      current: ready('True'),
      observed: F,
      state: { lastObserved: 'False', thresholdStartMs: at(10) },
      now: at(40),
      want: 'False',
      wantState: 'same',
    },
    {
      name: 'False→True held until the success threshold',
      current: ready('False'),
      observed: T,
      state: { lastObserved: 'True', thresholdStartMs: at(0) },
      now: at(29),
      want: 'False',
      wantState: 'same',
    },
    {
      name: 'success threshold reached: True',
      current: ready('False'),
      observed: T,
      state: { lastObserved: 'True', thresholdStartMs: at(0) },
      now: at(30),
      want: 'True',
      wantState: 'same',
    },
    {
      name: 'Unknown→False is never delayed',
      current: ready('Unknown'),
      observed: F,
      state: { lastObserved: 'True', thresholdStartMs: ZERO_TIME_MS },
      now: at(1),
      want: 'False',
      wantState: { lastObserved: 'False', thresholdStartMs: at(1) },
    },
    {
      name: 'Unknown→True is a flip (not-True→True): held',
      current: ready('Unknown'),
      observed: T,
      state: { lastObserved: 'False', thresholdStartMs: ZERO_TIME_MS },
      now: at(1),
      want: 'Unknown',
      wantState: { lastObserved: 'True', thresholdStartMs: at(1) },
    },
    {
      name: 'same status as current: observed (reason may change) immediately',
      current: ready('False', undefined, 'ClusterNotReady'),
      observed: F,
      state: { lastObserved: 'False', thresholdStartMs: at(0) },
      now: at(1),
      want: 'False',
      wantState: 'same',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { ready: out, state } = thresholdAdjustedReady(
        c.current,
        c.observed,
        c.state,
        c.now,
        DEFAULT_HEALTH_SETTINGS,
      );
      assert.equal(out.status, c.want);
      if (c.want === c.observed.status) assert.deepEqual(out, c.observed);
      else assert.deepEqual(out, { status: c.current!.status, reason: c.current!.reason, message: c.current!.message });
      if (c.wantState === 'same') assert.equal(state, c.state);
      else assert.deepEqual(state, c.wantState);
    });
  }
});

describe('thresholdAdjustedReady + setCondition: probe sequences', () => {
  // [seconds, probe healthy?, expected Ready status written]
  const cases: { name: string; steps: [number, boolean, ConditionStatus][] }[] = [
    {
      name: 'healthy then failing: False only once the failure threshold passed',
      steps: [
        [0, true, 'True'],
        [10, false, 'True'],
        [20, false, 'True'],
        [30, false, 'True'],
        [40, false, 'False'],
        [50, false, 'False'],
      ],
    },
    {
      name: 'joins unhealthy, recovers after the success threshold',
      steps: [
        [0, false, 'False'],
        [10, true, 'False'],
        [39, true, 'False'],
        [40, true, 'True'],
      ],
    },
    {
      name: 'a blip resets the window',
      steps: [
        [0, true, 'True'],
        [10, false, 'True'],
        [20, true, 'True'],
        [30, false, 'True'],
        [50, false, 'True'],
        [60, false, 'False'],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      let conditions: Condition[] = [];
      let state: ThresholdState | undefined;
      for (const [s, healthy, want] of c.steps) {
        const observed = observedReady({ online: true, healthy });
        const r = thresholdAdjustedReady(
          findCondition(conditions, 'Ready'),
          observed,
          state,
          at(s),
          DEFAULT_HEALTH_SETTINGS,
        );
        state = r.state;
        conditions = setCondition(conditions, { type: 'Ready', ...r.ready }, rfc3339(at(s)));
        assert.equal(findCondition(conditions, 'Ready')?.status, want, `at ${s}s`);
      }
    });
  }
});

describe('setCondition (meta.SetStatusCondition)', () => {
  const other: Condition = {
    type: 'CompleteAPIEnablements',
    status: 'True',
    reason: 'Complete',
    message: 'x',
    lastTransitionTime: '2024-12-01T00:00:00Z',
  };
  const base: Condition[] = [ready('True', '2024-12-31T00:00:00Z', 'ClusterReady'), other];
  const NOW = '2025-01-01T00:00:10Z';
  const cases: {
    name: string;
    conditions: Condition[] | undefined;
    next: Parameters<typeof setCondition>[1];
    want: Condition[] | 'same';
  }[] = [
    {
      name: 'adds to no conditions with lastTransitionTime = now',
      conditions: undefined,
      next: { type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'm' },
      want: [{ type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'm', lastTransitionTime: NOW }],
    },
    {
      name: 'appends a new type after existing ones',
      conditions: [other],
      next: { type: 'Ready', status: 'False', reason: 'X', message: 'y', observedGeneration: 2 },
      want: [
        other,
        { type: 'Ready', status: 'False', reason: 'X', message: 'y', lastTransitionTime: NOW, observedGeneration: 2 },
      ],
    },
    {
      name: 'unchanged ⇒ same array',
      conditions: base,
      next: { type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'm' },
      want: 'same',
    },
    {
      name: 'reason/message change keeps lastTransitionTime and position',
      conditions: base,
      next: { type: 'Ready', status: 'True', reason: 'Other', message: 'n' },
      want: [
        { type: 'Ready', status: 'True', reason: 'Other', message: 'n', lastTransitionTime: '2024-12-31T00:00:00Z' },
        other,
      ],
    },
    {
      name: 'status change moves lastTransitionTime to now',
      conditions: base,
      next: { type: 'Ready', status: 'False', reason: 'ClusterNotReachable', message: 'cluster is not reachable' },
      want: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'ClusterNotReachable',
          message: 'cluster is not reachable',
          lastTransitionTime: NOW,
        },
        other,
      ],
    },
    {
      name: 'observedGeneration set',
      conditions: [other],
      next: { ...other, observedGeneration: 4 },
      want: [{ ...other, observedGeneration: 4 }],
    },
    {
      name: 'absent observedGeneration clears it (Go zero value)',
      conditions: [{ ...other, observedGeneration: 4 }],
      next: { type: other.type, status: other.status, reason: other.reason, message: other.message },
      want: [other],
    },
    {
      name: 'observedGeneration 0 equals absent ⇒ same array',
      conditions: [other],
      next: { ...other, observedGeneration: 0 },
      want: 'same',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.conditions);
      const out = setCondition(c.conditions, c.next, NOW);
      if (c.want === 'same') assert.equal(out, c.conditions);
      else {
        assert.notEqual(out, c.conditions);
        assert.deepEqual(out, c.want);
      }
      assert.deepEqual(c.conditions, before, 'input not mutated');
    });
  }
});

describe('taintsForReady (taintClusterByCondition)', () => {
  const NOW = '2025-01-01T00:01:00Z';
  const OLD = '2024-12-01T00:00:00Z';
  const nr = (timeAdded = NOW): Taint => ({ key: NOT_READY_TAINT_KEY, effect: 'NoSchedule', timeAdded });
  const ur = (timeAdded = NOW): Taint => ({ key: UNREACHABLE_TAINT_KEY, effect: 'NoSchedule', timeAdded });
  const user: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const nrNoExecute: Taint = { key: NOT_READY_TAINT_KEY, effect: 'NoExecute', timeAdded: OLD };
  const cases: {
    name: string;
    taints: Taint[] | undefined;
    ready: ConditionStatus | undefined;
    want: Taint[] | 'same';
  }[] = [
    { name: 'no Ready condition ⇒ not-ready', taints: undefined, ready: undefined, want: [nr()] },
    { name: 'no Ready keeps unreachable (only adds)', taints: [ur(OLD)], ready: undefined, want: [ur(OLD), nr()] },
    { name: 'False ⇒ not-ready', taints: [user], ready: 'False', want: [user, nr()] },
    { name: 'False swaps unreachable for not-ready', taints: [ur(OLD), user], ready: 'False', want: [user, nr()] },
    { name: 'Unknown ⇒ unreachable', taints: [], ready: 'Unknown', want: [ur()] },
    { name: 'Unknown swaps not-ready for unreachable', taints: [user, nr(OLD)], ready: 'Unknown', want: [user, ur()] },
    { name: 'True removes both, keeps user taints', taints: [nr(OLD), user, ur(OLD)], ready: 'True', want: [user] },
    { name: 'True with nothing to remove ⇒ same array', taints: [user], ready: 'True', want: 'same' },
    { name: 'True with no taints ⇒ same (empty) array', taints: [], ready: 'True', want: 'same' },
    { name: 'already not-ready keeps its timeAdded ⇒ same array', taints: [nr(OLD)], ready: 'False', want: 'same' },
    {
      name: 'identity is (key, effect): value ignored',
      taints: [{ key: NOT_READY_TAINT_KEY, value: 'x', effect: 'NoSchedule' }],
      ready: 'False',
      want: 'same',
    },
    {
      name: 'a NoExecute taint with the same key is a different taint',
      taints: [nrNoExecute],
      ready: 'False',
      want: [nrNoExecute, nr()],
    },
    { name: 'True leaves a NoExecute not-ready taint alone', taints: [nrNoExecute], ready: 'True', want: 'same' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.taints);
      const out = taintsForReady(c.taints, c.ready ? ready(c.ready) : undefined, NOW);
      if (c.want === 'same') assert.equal(out, c.taints);
      else assert.deepEqual(out, c.want);
      assert.deepEqual(c.taints, before, 'input not mutated');
    });
  }
});

describe('pullClusterStaleness (cluster controller monitor)', () => {
  const created = at(0);
  const NEVER = {
    status: 'Unknown',
    reason: 'ClusterStatusNeverUpdated',
    message: 'Cluster status controller never posted cluster status.',
  };
  const STOPPED = {
    status: 'Unknown',
    reason: 'ClusterStatusUnknown',
    message: 'Cluster status controller stopped posting cluster status.',
  };
  const readyAt100 = ready('True', rfc3339(at(100)));
  const cases: {
    name: string;
    ready: Condition | undefined;
    lastHeardMs?: number;
    readyChangedMs?: number;
    now: number;
    want: typeof NEVER | undefined;
  }[] = [
    { name: 'never updated, within startup grace', ready: undefined, now: at(60), want: undefined },
    { name: 'never updated, startup grace passed', ready: undefined, now: at(60) + 1, want: NEVER },
    {
      name: 'never updated but lease renewed: grace counts from the renewal',
      ready: undefined,
      lastHeardMs: at(30),
      now: at(61),
      want: undefined,
    },
    {
      name: 'never updated, lease renewal also stale',
      ready: undefined,
      lastHeardMs: at(30),
      now: at(91),
      want: NEVER,
    },
    {
      name: 'lease older than creation does not shorten the grace',
      ready: undefined,
      lastHeardMs: at(-100),
      now: at(59),
      want: undefined,
    },
    { name: 'updated, within monitor grace', ready: readyAt100, now: at(140), want: undefined },
    { name: 'updated, monitor grace passed', ready: readyAt100, now: at(141), want: STOPPED },
    {
      name: 'lease renewal refreshes the probe time',
      ready: readyAt100,
      lastHeardMs: at(130),
      now: at(170),
      want: undefined,
    },
    { name: 'lease renewal stale too', ready: readyAt100, lastHeardMs: at(130), now: at(171), want: STOPPED },
    {
      name: 'a later Ready change (reason/message) counts as a probe',
      ready: readyAt100,
      readyChangedMs: at(120),
      now: at(150),
      want: undefined,
    },
    { name: 'False goes Unknown too', ready: ready('False', rfc3339(at(100))), now: at(200), want: STOPPED },
    {
      name: 'already Unknown ⇒ nothing to do',
      ready: ready('Unknown', rfc3339(at(100))),
      now: at(1000),
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = pullClusterStaleness({
        createdMs: created,
        ready: c.ready,
        lastHeardMs: c.lastHeardMs,
        readyChangedMs: c.readyChangedMs,
        nowMs: c.now,
        settings: DEFAULT_HEALTH_SETTINGS,
      });
      assert.deepEqual(out, c.want);
    });
  }

  it('custom settings are honoured', () => {
    const settings = { ...DEFAULT_HEALTH_SETTINGS, startupGracePeriodMs: 5_000 };
    const args = { createdMs: created, ready: undefined, lastHeardMs: undefined, settings };
    assert.equal(pullClusterStaleness({ ...args, nowMs: at(5) }), undefined);
    assert.deepEqual(pullClusterStaleness({ ...args, nowMs: at(6) }), NEVER);
  });

  it('the result applied with setCondition stamps lastTransitionTime = now', () => {
    const stale = pullClusterStaleness({
      createdMs: created,
      ready: readyAt100,
      lastHeardMs: undefined,
      nowMs: at(200),
      settings: DEFAULT_HEALTH_SETTINGS,
    })!;
    const out = setCondition([readyAt100], { type: 'Ready', ...stale }, rfc3339(at(200)));
    assert.deepEqual(out, [{ type: 'Ready', ...stale, lastTransitionTime: '2025-01-01T00:03:20Z' }]);
  });
});
