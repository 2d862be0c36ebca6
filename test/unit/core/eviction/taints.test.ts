/**
 * NoExecute taints and tolerations (Karmada `pkg/util/helper/taint.go`, `taint_manager.go`,
 * `clustertaintpolicy_controller.go`, v1.3's `processTaintBaseEviction`). Rows name what they pin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyClusterTaintPolicies,
  conditionMatches,
  evictionTime,
  matchingTolerations,
  type MatchCondition,
  needEviction,
  noExecuteTaintsByCondition,
  withDefaultTolerations,
} from '../../../../lib/core/eviction/taints.ts';
import { NOT_READY_TAINT_KEY, UNREACHABLE_TAINT_KEY, updateTaints } from '../../../../lib/core/clusters/health.ts';
import type { Taint, Toleration } from '../../../../lib/core/model/types.ts';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');
const NOW = at(0);

const notReadyNoExec = (added = at(0)): Taint => ({ key: NOT_READY_TAINT_KEY, effect: 'NoExecute', timeAdded: added });
const unreachableNoExec = (added = at(0)): Taint => ({
  key: UNREACHABLE_TAINT_KEY,
  effect: 'NoExecute',
  timeAdded: added,
});
const notReadyNoSched: Taint = { key: NOT_READY_TAINT_KEY, effect: 'NoSchedule', timeAdded: at(-100) };

describe('updateTaints (SetCurrentClusterTaints: identity is key+effect)', () => {
  const rows: { name: string; current: Taint[]; add: Taint[]; remove: Taint[]; want: Taint[] }[] = [
    {
      name: 'adds a missing taint with timeAdded = now',
      current: [],
      add: [{ key: 'k', effect: 'NoExecute' }],
      remove: [],
      want: [{ key: 'k', effect: 'NoExecute', timeAdded: NOW }],
    },
    {
      name: 'keeps an existing taint of the same identity as it is (value and timeAdded untouched)',
      current: [{ key: 'k', value: 'old', effect: 'NoExecute', timeAdded: at(-50) }],
      add: [{ key: 'k', value: 'new', effect: 'NoExecute' }],
      remove: [],
      want: [{ key: 'k', value: 'old', effect: 'NoExecute', timeAdded: at(-50) }],
    },
    {
      name: 'the same key with another effect is another taint',
      current: [notReadyNoSched],
      add: [{ key: NOT_READY_TAINT_KEY, effect: 'NoExecute' }],
      remove: [],
      want: [notReadyNoSched, { key: NOT_READY_TAINT_KEY, effect: 'NoExecute', timeAdded: NOW }],
    },
    {
      name: 'removes every taint with the identity, whatever its value',
      current: [{ key: 'k', value: 'a', effect: 'NoExecute' }, notReadyNoSched],
      add: [],
      remove: [{ key: 'k', effect: 'NoExecute' }],
      want: [notReadyNoSched],
    },
  ];
  for (const row of rows) {
    it(row.name, () => assert.deepEqual(updateTaints(row.current, row.add, row.remove, NOW), row.want));
  }
  it('returns the same list when nothing changes (no write)', () => {
    const current = [notReadyNoSched];
    assert.equal(updateTaints(current, [notReadyNoSched], [{ key: 'x', effect: 'NoExecute' }], NOW), current);
  });
});

describe('noExecuteTaintsByCondition (the seeds: --failover-eviction-timeout, v1.3 processTaintBaseEviction)', () => {
  const timeoutMs = 300_000;
  const rows: {
    name: string;
    taints: Taint[];
    ready: { status: 'True' | 'False' | 'Unknown'; lastTransitionTime: string } | undefined;
    nowS: number;
    want: Taint[];
    next?: number;
  }[] = [
    {
      name: 'Ready False for less than the timeout: no NoExecute taint yet, wake up when it ends',
      taints: [notReadyNoSched],
      ready: { status: 'False', lastTransitionTime: at(-100) },
      nowS: 0,
      want: [notReadyNoSched],
      next: T0 + 200_000,
    },
    {
      name: 'Ready False for the timeout: not-ready:NoExecute with timeAdded = now',
      taints: [notReadyNoSched],
      ready: { status: 'False', lastTransitionTime: at(-300) },
      nowS: 0,
      want: [notReadyNoSched, notReadyNoExec(NOW)],
    },
    {
      name: 'Ready Unknown for the timeout: unreachable:NoExecute, and not-ready:NoExecute replaced',
      taints: [notReadyNoExec(at(-10))],
      ready: { status: 'Unknown', lastTransitionTime: at(-301) },
      nowS: 0,
      want: [unreachableNoExec(NOW)],
    },
    {
      name: 'Ready True: both NoExecute taints removed (recovery), NoSchedule left to the status controller',
      taints: [notReadyNoSched, notReadyNoExec(at(-10)), unreachableNoExec(at(-20))],
      ready: { status: 'True', lastTransitionTime: at(-1) },
      nowS: 0,
      want: [notReadyNoSched],
    },
    {
      name: 'no Ready condition yet: nothing NoExecute (a new cluster is not evicted from)',
      taints: [],
      ready: undefined,
      nowS: 0,
      want: [],
    },
    {
      name: 'an unparsable transition time starts the timeout now, never skips it',
      taints: [],
      ready: { status: 'False', lastTransitionTime: 'yesterday' },
      nowS: 0,
      want: [],
      next: T0 + timeoutMs,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const got = noExecuteTaintsByCondition({
        taints: row.taints,
        ready: row.ready,
        nowMs: T0 + row.nowS * 1000,
        timeoutMs,
      });
      assert.deepEqual(got.taints, row.want);
      assert.equal(got.nextCheckMs, row.next);
    });
  }
});

describe('conditionMatches (ClusterTaintPolicy add/removeOnConditions)', () => {
  const conds = [
    { type: 'Ready', status: 'False' as const },
    { type: 'NetworkUnavailable', status: 'True' as const },
  ];
  const rows: { name: string; matches: MatchCondition[] | undefined; want: boolean }[] = [
    { name: 'an empty list never matches', matches: [], want: false },
    { name: 'undefined never matches', matches: undefined, want: false },
    {
      name: 'In with the status matches',
      matches: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False', 'Unknown'] }],
      want: true,
    },
    {
      name: 'NotIn with the status does not match',
      matches: [{ conditionType: 'Ready', operator: 'NotIn', statusValues: ['False'] }],
      want: false,
    },
    {
      name: 'NotIn without the status matches',
      matches: [{ conditionType: 'Ready', operator: 'NotIn', statusValues: ['True'] }],
      want: true,
    },
    {
      name: 'every entry must match (AND)',
      matches: [
        { conditionType: 'Ready', operator: 'In', statusValues: ['False'] },
        { conditionType: 'NetworkUnavailable', operator: 'In', statusValues: ['False'] },
      ],
      want: false,
    },
    {
      name: 'a condition type the cluster does not report never matches, even with NotIn',
      matches: [{ conditionType: 'DiskPressure', operator: 'NotIn', statusValues: ['True'] }],
      want: false,
    },
    {
      name: 'an unknown operator never matches',
      matches: [{ conditionType: 'Ready', operator: 'Exists', statusValues: [] }],
      want: false,
    },
  ];
  for (const row of rows) it(row.name, () => assert.equal(conditionMatches(conds, row.matches), row.want));
});

describe('applyClusterTaintPolicies (Karmada ≥ 1.14 ClusterTaintPolicy controller)', () => {
  const notReadyPolicy = {
    name: 'not-ready',
    creationTimestamp: at(-1000),
    spec: {
      addOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False', 'Unknown'] }],
      removeOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['True'] }],
      taints: [{ key: NOT_READY_TAINT_KEY, effect: 'NoExecute' as const }],
    },
  };
  const all = () => true;
  it('adds the policy taints with timeAdded when addOnConditions match', () => {
    assert.deepEqual(
      applyClusterTaintPolicies({
        taints: [],
        conditions: [{ type: 'Ready', status: 'False' }],
        policies: [notReadyPolicy],
        targets: all,
        now: NOW,
      }),
      [{ key: NOT_READY_TAINT_KEY, effect: 'NoExecute', timeAdded: NOW }],
    );
  });
  it('removes them when removeOnConditions match', () => {
    assert.deepEqual(
      applyClusterTaintPolicies({
        taints: [notReadyNoExec(at(-5)), notReadyNoSched],
        conditions: [{ type: 'Ready', status: 'True' }],
        policies: [notReadyPolicy],
        targets: all,
        now: NOW,
      }),
      [notReadyNoSched],
    );
  });
  it('a policy whose targetClusters do not match does nothing', () => {
    assert.deepEqual(
      applyClusterTaintPolicies({
        taints: [],
        conditions: [{ type: 'Ready', status: 'False' }],
        policies: [notReadyPolicy],
        targets: () => false,
        now: NOW,
      }),
      [],
    );
  });
  it('policies act in creation order: a later policy removing what an earlier added wins', () => {
    const remover = {
      name: 'a-remover',
      creationTimestamp: at(-10),
      spec: {
        addOnConditions: [],
        removeOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False'] }],
        taints: [{ key: NOT_READY_TAINT_KEY, effect: 'NoExecute' as const }],
      },
    };
    assert.deepEqual(
      applyClusterTaintPolicies({
        taints: [],
        conditions: [{ type: 'Ready', status: 'False' }],
        policies: [remover, notReadyPolicy],
        targets: all,
        now: NOW,
      }),
      [],
    );
  });
  it('existing taint values are not updated (#7348: concurrent not-ready and unreachable taints both kept)', () => {
    const both = {
      ...notReadyPolicy,
      spec: {
        ...notReadyPolicy.spec,
        taints: [
          { key: NOT_READY_TAINT_KEY, effect: 'NoExecute' as const },
          { key: UNREACHABLE_TAINT_KEY, effect: 'NoExecute' as const },
        ],
      },
    };
    const got = applyClusterTaintPolicies({
      taints: [notReadyNoExec(at(-30))],
      conditions: [{ type: 'Ready', status: 'Unknown' }],
      policies: [both],
      targets: all,
      now: NOW,
    });
    assert.deepEqual(got, [notReadyNoExec(at(-30)), unreachableNoExec(NOW)]);
  });
});

describe('tolerations (GetMatchingTolerations, GetMinTolerationTime, needEviction)', () => {
  const tol = (key: string, seconds?: number): Toleration => ({
    key,
    operator: 'Exists',
    effect: 'NoExecute',
    ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
  });
  it('matchingTolerations: the first tolerating toleration per taint; any untolerated ⇒ not all', () => {
    assert.deepEqual(matchingTolerations([notReadyNoExec()], [tol('other'), tol(NOT_READY_TAINT_KEY, 60)]), {
      allTolerated: true,
      used: [tol(NOT_READY_TAINT_KEY, 60)],
    });
    assert.deepEqual(matchingTolerations([notReadyNoExec(), unreachableNoExec()], [tol(NOT_READY_TAINT_KEY)]), {
      allTolerated: false,
      used: [],
    });
  });
  it('evictionTime: the earliest timeAdded + tolerationSeconds; forever without tolerationSeconds', () => {
    const taints = [notReadyNoExec(at(-100)), unreachableNoExec(at(-50))];
    assert.equal(
      evictionTime(taints, [tol(NOT_READY_TAINT_KEY, 300), tol(UNREACHABLE_TAINT_KEY, 60)], T0),
      T0 + 10_000,
    );
    assert.equal(evictionTime(taints, [tol('')], T0), undefined);
  });

  const rows: {
    name: string;
    taints: Taint[];
    tolerations: Toleration[];
    nowS: number;
    want: ReturnType<typeof needEviction>;
  }[] = [
    { name: 'no NoExecute taint: never', taints: [notReadyNoSched], tolerations: [], nowS: 0, want: { evict: false } },
    {
      name: 'an untolerated NoExecute taint: evict now',
      taints: [notReadyNoExec()],
      tolerations: [],
      nowS: 0,
      want: { evict: true, reason: 'untolerated', taint: notReadyNoExec() },
    },
    {
      name: 'tolerated for 300 s from timeAdded: evict at timeAdded + 300 s',
      taints: [notReadyNoExec(at(-100))],
      tolerations: [tol(NOT_READY_TAINT_KEY, 300)],
      nowS: 0,
      want: { evict: false, atMs: T0 + 200_000 },
    },
    {
      name: 'the toleration has run out: evict now',
      taints: [notReadyNoExec(at(-300))],
      tolerations: [tol(NOT_READY_TAINT_KEY, 300)],
      nowS: 0,
      want: { evict: true, reason: 'expired' },
    },
    {
      name: 'tolerated forever (no tolerationSeconds): never (#7613: not even enqueued)',
      taints: [notReadyNoExec(at(-3000))],
      tolerations: [tol(NOT_READY_TAINT_KEY)],
      nowS: 0,
      want: { evict: false },
    },
    {
      name: 'an Exists toleration with an empty key tolerates every taint',
      taints: [notReadyNoExec(), { key: 'custom', effect: 'NoExecute', timeAdded: at(0) }],
      tolerations: [{ operator: 'Exists' }],
      nowS: 0,
      want: { evict: false },
    },
  ];
  for (const row of rows) {
    it(`needEviction: ${row.name}`, () =>
      assert.deepEqual(needEviction(row.taints, row.tolerations, T0 + row.nowS * 1000), row.want));
  }
});

describe('withDefaultTolerations (the seeds: --default-not-ready/unreachable-toleration-seconds, 300)', () => {
  const seconds = { notReady: 300, unreachable: 300 };
  it('adds both defaults to a placement without NoExecute tolerations', () => {
    assert.deepEqual(withDefaultTolerations(undefined, seconds), [
      { key: NOT_READY_TAINT_KEY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: UNREACHABLE_TAINT_KEY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });
  it('keeps a user toleration for the key and adds only the other', () => {
    const mine: Toleration = {
      key: NOT_READY_TAINT_KEY,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 30,
    };
    assert.deepEqual(withDefaultTolerations([mine], seconds), [
      mine,
      { key: UNREACHABLE_TAINT_KEY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });
  it('a toleration of the key for every effect counts; a NoSchedule one does not', () => {
    const all: Toleration = { key: UNREACHABLE_TAINT_KEY, operator: 'Exists' };
    const noSchedule: Toleration = { key: NOT_READY_TAINT_KEY, operator: 'Exists', effect: 'NoSchedule' };
    assert.deepEqual(withDefaultTolerations([all, noSchedule], seconds), [
      all,
      noSchedule,
      { key: NOT_READY_TAINT_KEY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });
  it('returns the same list when nothing is missing', () => {
    const list = withDefaultTolerations(undefined, seconds);
    assert.equal(withDefaultTolerations(list, seconds), list);
  });
});
