/**
 * Where a cluster's `NoExecute` taints come from, both ways Karmada has had them:
 *
 * - v1.3 (the seeds): the cluster controller taints a cluster `not-ready:NoExecute` or
 *   `unreachable:NoExecute` once its Ready condition has been False / Unknown for
 *   `--failover-eviction-timeout` (5 m), and removes both when it is Ready again
 *   (`processTaintBaseEviction`);
 * - v1.14+: `ClusterTaintPolicy` objects add and remove taints when the cluster's conditions match
 *   (`pkg/controllers/taint/clustertaintpolicy_controller.go`).
 *
 * Taint identity is (key, effect), as `SetCurrentClusterTaints` has it: a taint already present with
 * that identity is kept as it is (value and `timeAdded` untouched); an added one gets `timeAdded = now`.
 */
import { rfc3339 } from '../../api/time.ts';
import type { Condition, Taint, Toleration } from '../model/types.ts';
import { NOT_READY_TAINT_KEY, type TaintTemplate, UNREACHABLE_TAINT_KEY, updateTaints } from '../clusters/health.ts';
import type { ClusterAffinity } from '../model/types.ts';
import { toleratesTaint } from '../placement/tolerations.ts';

const NOT_READY_NO_EXECUTE: TaintTemplate = { key: NOT_READY_TAINT_KEY, effect: 'NoExecute' };
const UNREACHABLE_NO_EXECUTE: TaintTemplate = { key: UNREACHABLE_TAINT_KEY, effect: 'NoExecute' };

/** What the failover-eviction-timeout rule decided, and when to look again. */
export interface NoExecuteByCondition {
  taints: Taint[];
  /** The rule will add a taint at this time if nothing changes (ms since epoch); undefined: no timer. */
  nextCheckMs?: number;
}

/**
 * The seeds' v1.3 rule (`processTaintBaseEviction`): Ready False for at least `timeoutMs` since its
 * last transition ⇒ `not-ready:NoExecute` (and no `unreachable:NoExecute`); Unknown for at least
 * `timeoutMs` ⇒ `unreachable:NoExecute` (and no `not-ready:NoExecute`); True ⇒ neither. While the
 * timeout runs, the taints stay as they are and `nextCheckMs` says when it ends. A missing or
 * unparsable transition time counts from now (the timeout starts, never skips).
 */
export function noExecuteTaintsByCondition(args: {
  taints: readonly Taint[] | undefined;
  ready: Pick<Condition, 'status' | 'lastTransitionTime'> | undefined;
  nowMs: number;
  timeoutMs: number;
}): NoExecuteByCondition {
  const { ready, nowMs, timeoutMs } = args;
  const now = rfc3339(nowMs);
  if (!ready || ready.status === 'True') {
    return { taints: updateTaints(args.taints, [], [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE], now) };
  }
  const since = Date.parse(ready.lastTransitionTime ?? '');
  const start = Number.isNaN(since) ? nowMs : since;
  if (nowMs < start + timeoutMs) return { taints: (args.taints ?? []) as Taint[], nextCheckMs: start + timeoutMs };
  const [add, remove] =
    ready.status === 'False'
      ? [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE]
      : [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
  return { taints: updateTaints(args.taints, [add], [remove], now) };
}

// ---------------------------------------------------------------------------- ClusterTaintPolicy

/** `policy.karmada.io/v1alpha1` MatchCondition. */
export interface MatchCondition {
  conditionType: string;
  operator: 'In' | 'NotIn' | string;
  statusValues: string[];
}

/** The parts of a ClusterTaintPolicy its controller acts on. */
export interface ClusterTaintPolicySpec {
  targetClusters?: ClusterAffinity;
  addOnConditions?: MatchCondition[];
  removeOnConditions?: MatchCondition[];
  taints: TaintTemplate[];
}

/**
 * `conditionMatches`: every match condition must hold (AND). An empty list never matches; a
 * condition type the cluster does not report never matches (even with `NotIn`); an unknown operator
 * never matches.
 */
export function conditionMatches(
  conditions: readonly Pick<Condition, 'type' | 'status'>[] | undefined,
  matches: readonly MatchCondition[] | undefined,
): boolean {
  if (!matches?.length) return false;
  for (const m of matches) {
    let matched = false;
    for (const c of conditions ?? []) {
      if (c.type !== m.conditionType) continue;
      if (m.operator === 'In') matched = m.statusValues.includes(c.status);
      else if (m.operator === 'NotIn') matched = !m.statusValues.includes(c.status);
      else return false;
    }
    if (!matched) return false;
  }
  return true;
}

/**
 * The taints after every ClusterTaintPolicy that targets the cluster has acted, policies in
 * creation order: `addOnConditions` matching ⇒ add the policy's missing taints; then
 * `removeOnConditions` matching ⇒ remove taints with the same (key, effect). Deleting a policy never
 * removes taints (they stay until a `removeOnConditions` or a person removes them).
 */
export function applyClusterTaintPolicies(args: {
  taints: readonly Taint[] | undefined;
  conditions: readonly Pick<Condition, 'type' | 'status'>[] | undefined;
  policies: readonly { creationTimestamp?: string; name: string; spec: ClusterTaintPolicySpec }[];
  targets: (affinity: ClusterAffinity | undefined) => boolean;
  now: string;
}): Taint[] {
  const ordered = [...args.policies].sort(
    (a, b) =>
      (a.creationTimestamp ?? '').localeCompare(b.creationTimestamp ?? '') ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  let taints = (args.taints ?? []) as Taint[];
  for (const policy of ordered) {
    if (!args.targets(policy.spec.targetClusters)) continue;
    if (conditionMatches(args.conditions, policy.spec.addOnConditions)) {
      taints = updateTaints(taints, policy.spec.taints, [], args.now);
    }
    if (conditionMatches(args.conditions, policy.spec.removeOnConditions)) {
      taints = updateTaints(taints, [], policy.spec.taints, args.now);
    }
  }
  return taints;
}

// --------------------------------------------------------------------------------- tolerations

/** The taints with effect `NoExecute` (`GetNoExecuteTaints`). */
export function noExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/**
 * `GetMatchingTolerations`: whether every taint is tolerated, and for each taint the first
 * toleration that tolerates it.
 */
export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
): { allTolerated: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = (tolerations ?? []).find((t) => toleratesTaint(t, taint));
    if (!match) return { allTolerated: false, used: [] };
    used.push(match);
  }
  return { allTolerated: true, used };
}

/**
 * `GetMinTolerationTimeWithCurrentTime`, as an instant: the earliest `timeAdded + tolerationSeconds`
 * over the used tolerations with `tolerationSeconds` and the taints they tolerate that carry
 * `timeAdded`. `undefined`: tolerated forever. No used toleration (no taints tolerated) ⇒ now.
 */
export function evictionTime(taints: readonly Taint[], used: readonly Toleration[], nowMs: number): number | undefined {
  if (taints.length === 0) return undefined;
  if (used.length === 0) return nowMs;
  let earliest: number | undefined;
  for (const toleration of used) {
    if (toleration.tolerationSeconds === undefined || toleration.tolerationSeconds === null) continue;
    for (const taint of taints) {
      const added = Date.parse(taint.timeAdded ?? '');
      if (Number.isNaN(added) || !toleratesTaint(toleration, taint)) continue;
      const at = added + toleration.tolerationSeconds * 1000;
      if (earliest === undefined || at < earliest) earliest = at;
    }
  }
  return earliest;
}

/** Whether a binding must leave a cluster now, later (at `atMs`), or never. */
export type EvictionNeed =
  { evict: true; reason: 'untolerated' | 'expired'; taint?: Taint } | { evict: false; atMs?: number };

/**
 * `needEvictionWithCurrentTime` for one cluster: no NoExecute taint ⇒ never; a NoExecute taint no
 * toleration tolerates ⇒ now; else at the minimum toleration time (now when it has passed), or never
 * when every used toleration tolerates forever.
 */
export function needEviction(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  nowMs: number,
): EvictionNeed {
  const noExec = noExecuteTaints(taints);
  if (noExec.length === 0) return { evict: false };
  for (const taint of noExec) {
    if (!(tolerations ?? []).some((t) => toleratesTaint(t, taint)))
      return { evict: true, reason: 'untolerated', taint };
  }
  const { used } = matchingTolerations(noExec, tolerations);
  const at = evictionTime(noExec, used, nowMs);
  if (at === undefined) return { evict: false };
  if (at <= nowMs) return { evict: true, reason: 'expired' };
  return { evict: false, atMs: at };
}

/**
 * The seeds' default tolerations (v1.3's policy webhook, `--default-not-ready-toleration-seconds` /
 * `--default-unreachable-toleration-seconds`, 300 each): a placement without a NoExecute toleration
 * for `not-ready` (resp. `unreachable`) gets `{key, operator: Exists, effect: NoExecute,
 * tolerationSeconds}`. A toleration for the key with an empty effect (every effect) counts. Returns
 * the same list when nothing is missing.
 */
export function withDefaultTolerations(
  tolerations: readonly Toleration[] | undefined,
  seconds: { notReady: number; unreachable: number },
): Toleration[] {
  const list = (tolerations ?? []) as Toleration[];
  const has = (key: string) => list.some((t) => t.key === key && (!t.effect || t.effect === 'NoExecute'));
  const missing: Toleration[] = [];
  if (!has(NOT_READY_TAINT_KEY)) {
    missing.push({
      key: NOT_READY_TAINT_KEY,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: seconds.notReady,
    });
  }
  if (!has(UNREACHABLE_TAINT_KEY)) {
    missing.push({
      key: UNREACHABLE_TAINT_KEY,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: seconds.unreachable,
    });
  }
  return missing.length ? [...list, ...missing] : list;
}
