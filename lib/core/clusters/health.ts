/**
 * Cluster health as Karmada v1.15 decides it, as pure functions (no I/O, no clock: time is a
 * parameter). Sources: `pkg/controllers/status/cluster_status_controller.go` (probe → observed Ready
 * condition), `pkg/controllers/status/cluster_condition_cache.go` (success/failure threshold
 * smoothing), `pkg/controllers/cluster/cluster_controller.go` (`taintClusterByCondition`, and the
 * Pull-cluster monitor `tryUpdateClusterHealth`), `pkg/util/helper/taint.go`
 * (`SetCurrentClusterTaints`), and (in lib/api/conditions.ts) apimachinery's `meta.SetStatusCondition`.
 *
 * The state Karmada keeps in memory (the per-cluster threshold cache, the monitor's probe timestamp)
 * is either an explicit input/output here ({@link ThresholdState}) or derived from persisted fields
 * ({@link pullClusterStaleness}).
 */
import { type Condition, type ConditionStatus, findCondition, rfc3339, setCondition } from '../../api/conditions.ts';

export { type Condition, type ConditionStatus, findCondition, rfc3339, setCondition };

/** The controller-manager / agent flags that govern cluster health. */
export interface HealthSettings {
  /** `--cluster-success-threshold` (30s): how long a recovered cluster must stay healthy before Ready=True. */
  successThresholdMs: number;
  /** `--cluster-failure-threshold` (30s): how long a failing cluster must stay unhealthy before Ready≠True. */
  failureThresholdMs: number;
  /** `--cluster-monitor-grace-period` (40s): Pull cluster silence tolerated before Ready=Unknown. */
  monitorGracePeriodMs: number;
  /** `--cluster-startup-grace-period` (60s): the same, for a cluster that never posted a Ready condition. */
  startupGracePeriodMs: number;
}

export const DEFAULT_HEALTH_SETTINGS: HealthSettings = Object.freeze({
  successThresholdMs: 30_000,
  failureThresholdMs: 30_000,
  monitorGracePeriodMs: 40_000,
  startupGracePeriodMs: 60_000,
});

/** `corev1.Taint`. */
export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

/** The outcome of probing a member's `/readyz` (falling back to `/healthz` on 404). */
export interface ProbeResult {
  /** False when the request failed (network error or any non-2xx status). */
  online: boolean;
  /** True only for HTTP 200. */
  healthy: boolean;
}

/** A condition's status, reason and message: what a controller decides before `setCondition` stamps it. */
export interface ObservedCondition {
  status: ConditionStatus;
  reason: string;
  message: string;
}

export const READY_CONDITION = 'Ready';

export const NOT_READY_TAINT_KEY = 'cluster.karmada.io/not-ready';
export const UNREACHABLE_TAINT_KEY = 'cluster.karmada.io/unreachable';

/**
 * Go's zero `time.Time` (0001-01-01T00:00:00Z) in Unix milliseconds: the threshold start Karmada
 * records for a cluster's first observation, i.e. "long ago" (kept finite so the state survives JSON).
 */
export const ZERO_TIME_MS = -62_135_596_800_000;

/** Karmada's observed Ready condition for a probe result (`generateReadyCondition`). */
export function observedReady(probe: ProbeResult): ObservedCondition {
  if (!probe.online) return { status: 'False', reason: 'ClusterNotReachable', message: 'cluster is not reachable' };
  if (!probe.healthy) {
    return {
      status: 'False',
      reason: 'ClusterNotReady',
      message: 'cluster is reachable but health endpoint responded without ok',
    };
  }
  return { status: 'True', reason: 'ClusterReady', message: 'cluster is healthy and ready to accept workloads' };
}

/**
 * The observed Ready condition when no client for the member could be built (`syncClusterStatus`);
 * it goes through {@link thresholdAdjustedReady} like a probe result. `error` is the Go error text.
 */
export function statusCollectionFailed(error: string): ObservedCondition {
  return { status: 'False', reason: 'StatusCollectionFailed', message: `failed to create a ClusterClient: ${error}` };
}

/** The per-cluster threshold cache Karmada keeps in memory; here it is persisted by the caller between probes. */
export interface ThresholdState {
  /** The status of the last observed (not the last written) Ready condition. */
  lastObserved: ConditionStatus;
  /** When the observed status last changed; {@link ZERO_TIME_MS} after the first observation. */
  thresholdStartMs: number;
}

/**
 * Karmada's `thresholdAdjustedReadyCondition` (`pkg/controllers/status/cluster_condition_cache.go`): the
 * Ready condition to write, given the cluster's current Ready condition, the freshly observed one and
 * the threshold cache; plus the next cache.
 *
 * - No cache (first observation, or after a controller restart): the observed condition, unsmoothed;
 *   the cache starts with a threshold start in the distant past.
 * - No current Ready condition: the observed condition; the cache is left as it was (as Karmada does).
 * - The observed status differs from the cached one: the threshold window restarts at `nowMs`.
 * - A flip between True and not-True relative to the current condition is held (the current
 *   condition is returned) until the window — success threshold when observed True, failure threshold
 *   otherwise — has passed (`now < start + threshold` holds). False↔Unknown is never delayed.
 */
export function thresholdAdjustedReady(
  current: Condition | undefined,
  observed: ObservedCondition,
  state: ThresholdState | undefined,
  nowMs: number,
  settings: HealthSettings,
): { ready: ObservedCondition; state: ThresholdState } {
  const obs: ObservedCondition = { status: observed.status, reason: observed.reason, message: observed.message };
  if (!state) return { ready: obs, state: { lastObserved: observed.status, thresholdStartMs: ZERO_TIME_MS } };
  if (!current) return { ready: obs, state };
  let next = state;
  if (state.lastObserved !== observed.status) next = { lastObserved: observed.status, thresholdStartMs: nowMs };
  const threshold = observed.status === 'True' ? settings.successThresholdMs : settings.failureThresholdMs;
  const flips = (observed.status === 'True') !== (current.status === 'True');
  if (flips && nowMs < next.thresholdStartMs + threshold) {
    return { ready: { status: current.status, reason: current.reason, message: current.message }, state: next };
  }
  return { ready: obs, state: next };
}

/** A taint's identity, as `SetCurrentClusterTaints` compares taints. */
export interface TaintTemplate {
  key: string;
  effect: Taint['effect'];
  value?: string;
}

const NOT_READY: TaintTemplate = { key: NOT_READY_TAINT_KEY, effect: 'NoSchedule' };
const UNREACHABLE: TaintTemplate = { key: UNREACHABLE_TAINT_KEY, effect: 'NoSchedule' };

const sameTaint = (a: Pick<Taint, 'key' | 'effect'>, b: Pick<Taint, 'key' | 'effect'>) =>
  a.key === b.key && a.effect === b.effect;

/**
 * `SetCurrentClusterTaints`: `current` with `add` appended where their identity (key, effect) is
 * missing (stamped `timeAdded = now`) and every taint with a `remove` identity dropped, whatever its
 * value. Kept taints stay in order with their `timeAdded`. Returns `current` itself when nothing
 * changes, so callers skip the write by identity.
 */
export function updateTaints(
  current: readonly Taint[] | undefined,
  add: readonly TaintTemplate[],
  remove: readonly TaintTemplate[],
  now: string,
): Taint[] {
  const taints = (current ?? []) as Taint[];
  const toAdd = add.filter((t) => !taints.some((c) => sameTaint(c, t)));
  const toRemove = remove.filter((t) => taints.some((c) => sameTaint(c, t)));
  if (toAdd.length === 0 && toRemove.length === 0) return taints;
  return [
    ...taints.filter((c) => !toRemove.some((t) => sameTaint(c, t))),
    ...toAdd.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect, timeAdded: now })),
  ];
}

/**
 * Karmada's `taintClusterByCondition` (`pkg/controllers/cluster/cluster_controller.go`) through
 * {@link updateTaints}: Ready missing ⇒ add not-ready; False ⇒ add not-ready, remove unreachable;
 * Unknown ⇒ add unreachable, remove not-ready; True ⇒ remove both (all `NoSchedule`). Returns the
 * SAME array object when nothing changes.
 */
export function taintsForReady(
  taints: readonly Taint[] | undefined,
  ready: Condition | undefined,
  now: string,
): Taint[] {
  if (!ready) return updateTaints(taints, [NOT_READY], [], now);
  if (ready.status === 'False') return updateTaints(taints, [NOT_READY], [UNREACHABLE], now);
  if (ready.status === 'Unknown') return updateTaints(taints, [UNREACHABLE], [NOT_READY], now);
  if (ready.status === 'True') return updateTaints(taints, [], [NOT_READY, UNREACHABLE], now);
  return (taints ?? []) as Taint[];
}

/** Ready condition the Pull-cluster monitor writes when the agent went silent. */
export interface StaleReady {
  status: 'Unknown';
  reason: string;
  message: string;
}

/**
 * The Pull-cluster monitor (`pkg/controllers/cluster/cluster_controller.go` `tryUpdateClusterHealth`,
 * run every `--cluster-monitor-period` for Pull clusters only — Push clusters return before the check):
 * the Unknown Ready condition to set once the agent has been silent longer than the grace period, or
 * undefined.
 *
 * Karmada keeps an in-memory `probeTimestamp` per cluster, set to the local time at which the monitor
 * noticed (a) the Ready condition change in any field or (b) the lease's `renewTime` advance; for a
 * cluster without a Ready condition it starts at `creationTimestamp`. Here that timestamp is derived
 * from persisted data:
 *
 *   probeBase = max(ready ? readyChangedMs : createdMs, lastHeardMs)
 *
 * - `lastHeardMs`: the lease `karmada-cluster/<cluster>` `spec.renewTime` (undefined when there is no
 *   lease). Karmada refreshes on the monitor's clock when it sees renewTime advance; using renewTime
 *   itself is at most one monitor period earlier, and makes the result independent of monitor restarts.
 * - `readyChangedMs`: when the Ready condition last changed in any field (status, reason, message);
 *   defaults to its `lastTransitionTime`, which only moves on status changes — pass a better value
 *   when the caller knows one (e.g. the resourceVersion timestamp of the last Ready write).
 *
 * Grace = startup grace when the cluster never had a Ready condition (base = creation time unless
 * the lease was renewed), else monitor grace. Stale when `now > probeBase + grace` (strict). Missing
 * Ready ⇒ `ClusterStatusNeverUpdated`; Ready not Unknown ⇒ `ClusterStatusUnknown`; already Unknown ⇒
 * undefined (nothing to write). Apply the result with {@link setCondition} (status changes, so
 * `lastTransitionTime` becomes now, as Karmada sets it).
 */
export function pullClusterStaleness(args: {
  createdMs: number;
  ready: Condition | undefined;
  lastHeardMs: number | undefined;
  readyChangedMs?: number | undefined;
  nowMs: number;
  settings: HealthSettings;
}): StaleReady | undefined {
  const { createdMs, ready, lastHeardMs, nowMs, settings } = args;
  if (ready?.status === 'Unknown') return undefined;
  let base: number;
  let grace: number;
  if (!ready) {
    base = createdMs;
    grace = settings.startupGracePeriodMs;
  } else {
    const transition = Date.parse(ready.lastTransitionTime);
    base = args.readyChangedMs ?? (Number.isNaN(transition) ? Number.NEGATIVE_INFINITY : transition);
    grace = settings.monitorGracePeriodMs;
  }
  if (lastHeardMs !== undefined && lastHeardMs > base) base = lastHeardMs;
  if (!(nowMs > base + grace)) return undefined;
  return ready
    ? {
        status: 'Unknown',
        reason: 'ClusterStatusUnknown',
        message: 'Cluster status controller stopped posting cluster status.',
      }
    : {
        status: 'Unknown',
        reason: 'ClusterStatusNeverUpdated',
        message: 'Cluster status controller never posted cluster status.',
      };
}
