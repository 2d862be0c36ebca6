/**
 * Application failover (Karmada `pkg/controllers/applicationfailover`): a cluster whose copy of the
 * workload stays `Unhealthy` longer than `failover.application.decisionConditions.tolerationSeconds`
 * is evicted with reason `ApplicationFailure` and the policy's purge mode, through the same
 * {@link gracefulEvictCluster} tasks, state extraction ({@link stateForEviction}) and last-copy rule as
 * cluster failover (decision.ts).
 *
 * Deliberately different from Karmada, each for a reason a user has hit:
 * - the first-unhealthy times are an input and an output here, so the caller stores them: Karmada keeps
 *   them in memory and a restart or leader change restarts every toleration window (appendix C);
 * - `tolerationSeconds: 0` evicts on the first Unhealthy observation, and every window ends through a
 *   timer (`nextMs`): Karmada's first pass only records the time and returns no requeue, so with 0 the
 *   eviction waits for whatever status event comes next (A.9);
 * - a binding that cannot fail over (no `propagateDeps`, or no health rule for its kind) gets a reason
 *   the caller shows as a condition and an event; Karmada ignores it silently;
 * - the last copy is held while no other cluster can take it (#7455), as in cluster failover; Karmada
 *   evicts it and the workload runs nowhere.
 */
import type { ResourceBindingSpec, TargetCluster } from '../model/types.ts';
import { rfc3339 } from '../../api/time.ts';
import {
  type CarriedLabelState,
  type StatePreservationRule,
  stateForEviction,
  statePreservationRules,
} from './state.ts';
import {
  canonicalPurgeMode,
  EVICTION_PRODUCER_CRB_APPLICATION_FAILOVER,
  EVICTION_PRODUCER_RB_APPLICATION_FAILOVER,
  EVICTION_REASON_APPLICATION_FAILURE,
  gracefulEvictCluster,
  type PurgeMode,
  type TaskOptions,
} from './tasks.ts';
import { type HeldEviction, holdLastCopy } from './decision.ts';

/** The CRD default of `decisionConditions.tolerationSeconds`. */
export const DEFAULT_APPLICATION_TOLERATION_SECONDS = 300;
/** The condition a binding with `failover.application` carries: whether and how failover watches it. */
export const APPLICATION_FAILOVER_CONDITION = 'ApplicationFailover';

/** `failover.application` as the controller reads it. */
export interface ApplicationFailoverBehavior {
  tolerationSeconds: number;
  purgeMode: PurgeMode;
  gracePeriodSeconds?: number;
  rules: StatePreservationRule[];
}

/**
 * The binding's `failover.application`, or undefined when it has none. A missing or malformed
 * `tolerationSeconds` is the CRD default (300); a negative one counts as 0. The purge mode's v1.12
 * names are accepted (`Immediately` = `Directly`, `Graciously` = `Gracefully`); none is `Gracefully`
 * (the CRD default).
 */
export function applicationFailoverOf(
  spec: Pick<ResourceBindingSpec, 'failover'>,
): ApplicationFailoverBehavior | undefined {
  const app = (spec.failover as { application?: unknown } | undefined)?.application;
  if (app === null || typeof app !== 'object') return undefined;
  const a = app as {
    decisionConditions?: { tolerationSeconds?: unknown };
    purgeMode?: unknown;
    gracePeriodSeconds?: unknown;
  };
  const tol = a.decisionConditions?.tolerationSeconds;
  const grace = a.gracePeriodSeconds;
  return {
    tolerationSeconds:
      typeof tol === 'number' && Number.isFinite(tol)
        ? Math.max(0, Math.trunc(tol))
        : DEFAULT_APPLICATION_TOLERATION_SECONDS,
    purgeMode: canonicalPurgeMode(a.purgeMode),
    ...(typeof grace === 'number' && Number.isFinite(grace)
      ? { gracePeriodSeconds: Math.max(0, Math.trunc(grace)) }
      : {}),
    rules: statePreservationRules(app),
  };
}

/** Why a binding with `failover.application` is not watched (Karmada's `bindingFilter`, said out loud). */
export interface FailoverInactive {
  reason: 'PropagateDepsDisabled' | 'NoHealthInterpretation';
  message: string;
}

/**
 * Karmada's `bindingFilter`, minus its silence: application failover needs `propagateDeps: true` (the
 * dependencies must move with the workload) and an `InterpretHealth` rule for the kind (otherwise every
 * copy counts as Healthy and nothing could ever fail over). Undefined when failover is active.
 */
export function applicationFailoverInactive(args: {
  spec: Pick<ResourceBindingSpec, 'propagateDeps' | 'resource'>;
  hasHealthRule: boolean;
}): FailoverInactive | undefined {
  const { apiVersion, kind } = args.spec.resource;
  if (!args.spec.propagateDeps) {
    return {
      reason: 'PropagateDepsDisabled',
      message:
        'application failover is inactive: it needs propagateDeps: true in the propagation policy, so that the workload moves together with its dependencies',
    };
  }
  if (!args.hasHealthRule) {
    return {
      reason: 'NoHealthInterpretation',
      message: `application failover is inactive: there is no health rule for ${apiVersion}/${kind}, so every copy counts as Healthy and none can fail over (built-in rules cover the native workloads, FlinkDeployment, the Kubeflow, Ray and Spark kinds and Volcano Job; custom health rules are not supported yet)`,
    };
  }
  return undefined;
}

/** One cluster the binding must leave because its copy stayed Unhealthy. */
export interface DueApplicationEviction {
  cluster: string;
  unhealthySinceMs: number;
  message: string;
  options: TaskOptions;
}

export interface ApplicationFailoverDecision {
  /** First-unhealthy time per cluster (ms since epoch) to store: running windows only. */
  timers: Record<string, number>;
  /**
   * What to store before the binding is written: {@link timers} plus the windows of the clusters being
   * evicted now. A due cluster's window is dropped only once its eviction is in the binding; if that
   * write loses a race, the next pass finds the window where it was instead of starting a new one.
   */
  timersUntilEvicted: Record<string, number>;
  /** Clusters whose window started in this decision. */
  started: string[];
  /** Clusters whose window ended because the copy became Healthy or Unknown (or left the placement). */
  cleared: string[];
  due: DueApplicationEviction[];
  held: HeldEviction[];
  /** When a running window ends (ms since epoch): decide again then. */
  nextMs?: number;
}

/** What the application failover decisions take: a binding's spec and status, its stored windows, time. */
export interface ApplicationFailoverInput {
  spec: ResourceBindingSpec;
  clusterScoped: boolean;
  aggregatedStatus: readonly { clusterName: string; status?: unknown; health?: string }[] | undefined;
  /** Stored first-unhealthy times (ms since epoch). */
  timers: Readonly<Record<string, number>>;
  nowMs: number;
  statefulFailoverInjection: boolean;
  replacementFits: (excluded: readonly string[]) => boolean;
  /** Whether a cluster the binding keeps stays placed (see `holdLastCopy`); default: every cluster. */
  stillPlaced?: (cluster: string) => boolean;
  /** The state the binding carries from a failover whose task has ended (see `carriedLabelState`). */
  carried?: CarriedLabelState | undefined;
}

/**
 * Decides, for a binding with `failover.application`, which clusters' windows start, run, end, and
 * which clusters it must leave now (Karmada `syncBinding` / `detectFailure` / `buildTaskOptions`):
 *
 * - an aggregated status item `Unhealthy`, on a cluster of `spec.clusters` without an eviction task,
 *   starts a window at `now` (or keeps the stored one); past `first + tolerationSeconds` it is due;
 * - `Healthy` and `Unknown` items, and clusters no longer in `spec.clusters`, drop their window;
 * - a due cluster gets a task: producer `resource-binding-application-failover-controller` (or the
 *   cluster-resource-binding one), reason `ApplicationFailure`, the purge mode; `Gracefully` ⇒
 *   `gracePeriodSeconds`, `Never` ⇒ `suppressDeletion: true`; with `StatefulFailoverInjection` and
 *   rules, `preservedLabelState` from the cluster's last collected status and `clustersBeforeFailover`
 *   (state not collected yet ⇒ held, decided again at the next status);
 * - when the evictions would leave no cluster, they wait until `replacementFits(excluded)`.
 */
export function decideApplicationFailover(args: ApplicationFailoverInput): ApplicationFailoverDecision {
  const behavior = applicationFailoverOf(args.spec);
  const targets = new Set((args.spec.clusters ?? []).map((c) => c.name));
  const evicting = new Set((args.spec.gracefulEvictionTasks ?? []).map((t) => t.fromCluster));
  const timers: Record<string, number> = {};
  const started: string[] = [];
  const due: DueApplicationEviction[] = [];
  const held: HeldEviction[] = [];
  let nextMs: number | undefined;
  if (!behavior) {
    return { timers, timersUntilEvicted: {}, started, cleared: Object.keys(args.timers).sort(), due, held };
  }
  const tolMs = behavior.tolerationSeconds * 1000;
  const rules = args.statefulFailoverInjection ? behavior.rules : [];
  const before = (args.spec.clusters ?? []).map((c) => c.name);
  for (const item of args.aggregatedStatus ?? []) {
    const cluster = item.clusterName;
    if (item.health !== 'Unhealthy' || !targets.has(cluster) || evicting.has(cluster)) continue;
    const stored = args.timers[cluster];
    const first = stored !== undefined && stored <= args.nowMs ? stored : args.nowMs;
    if (stored === undefined) started.push(cluster);
    timers[cluster] = first;
    const deadline = first + tolMs;
    if (args.nowMs < deadline) {
      nextMs = nextMs === undefined ? deadline : Math.min(nextMs, deadline);
      continue;
    }
    const message = `the workload on cluster ${cluster} has been Unhealthy since ${rfc3339(first)}, longer than the ${behavior.tolerationSeconds}s the policy tolerates`;
    const state = stateForEviction({
      rules,
      spec: args.spec,
      aggregatedStatus: args.aggregatedStatus,
      cluster,
      carried: args.carried,
    });
    if (!state.ok) {
      held.push({ cluster, reason: 'StateNotCollected', message: `${message}; ${state.message}` });
      continue;
    }
    due.push({
      cluster,
      unhealthySinceMs: first,
      message:
        state.carriedFrom !== undefined
          ? `${message}; state preserved from the earlier failover from ${state.carriedFrom} is carried forward`
          : message,
      options: {
        producer: args.clusterScoped
          ? EVICTION_PRODUCER_CRB_APPLICATION_FAILOVER
          : EVICTION_PRODUCER_RB_APPLICATION_FAILOVER,
        reason: EVICTION_REASON_APPLICATION_FAILURE,
        purgeMode: behavior.purgeMode,
        message,
        ...(behavior.purgeMode === 'Gracefully' && behavior.gracePeriodSeconds !== undefined
          ? { gracePeriodSeconds: behavior.gracePeriodSeconds }
          : {}),
        ...(behavior.purgeMode === 'Never' ? { suppressDeletion: true } : {}),
        ...(state.state ? { preservedLabelState: state.state, clustersBeforeFailover: before } : {}),
      },
    });
  }

  const lastCopy = holdLastCopy(args.spec, due, args.replacementFits, args.stillPlaced);
  held.push(...lastCopy.held);
  // An evicted cluster's window is over once the eviction is written; a held one keeps running (it is
  // decided again).
  const timersUntilEvicted = { ...timers };
  for (const d of lastCopy.due) delete timers[d.cluster];
  const cleared = Object.keys(args.timers)
    .filter((c) => timers[c] === undefined && !lastCopy.due.some((d) => d.cluster === c))
    .sort();
  return {
    timers,
    timersUntilEvicted,
    started,
    cleared,
    due: lastCopy.due,
    held,
    ...(nextMs !== undefined ? { nextMs } : {}),
  };
}

/**
 * The binding spec after the application failover's evictions (one {@link gracefulEvictCluster} per due
 * cluster), or undefined when there are none.
 */
export function applicationEvictedSpec(
  spec: ResourceBindingSpec,
  due: readonly DueApplicationEviction[],
  now: string,
): ResourceBindingSpec | undefined {
  if (due.length === 0) return undefined;
  let next = spec;
  for (const d of due) next = gracefulEvictCluster(next, d.cluster, d.options, now);
  return next;
}

/**
 * The `ApplicationFailover` condition: False with the inactive reason; else True — `Unhealthy` while
 * windows run (naming each cluster and when its window ends), `Watching` otherwise.
 */
export function applicationFailoverCondition(args: {
  inactive: FailoverInactive | undefined;
  behavior: ApplicationFailoverBehavior | undefined;
  timers: Readonly<Record<string, number>>;
  targets: readonly TargetCluster[] | undefined;
}): { status: 'True' | 'False'; reason: string; message: string } | undefined {
  if (!args.behavior) return undefined;
  if (args.inactive) return { status: 'False', reason: args.inactive.reason, message: args.inactive.message };
  const tolMs = args.behavior.tolerationSeconds * 1000;
  const running = Object.entries(args.timers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (running.length > 0) {
    return {
      status: 'True',
      reason: 'WorkloadUnhealthy',
      message: running
        .map(
          ([cluster, since]) =>
            `Unhealthy on cluster ${cluster} since ${rfc3339(since)}: evicted at ${rfc3339(since + tolMs)} (purge mode ${args.behavior!.purgeMode}) unless it becomes Healthy`,
        )
        .join('; '),
    };
  }
  return {
    status: 'True',
    reason: 'Watching',
    message: `the workload's health is watched on ${(args.targets ?? []).length} cluster(s); a cluster whose copy stays Unhealthy for ${args.behavior.tolerationSeconds}s is evicted (purge mode ${args.behavior.purgeMode})`,
  };
}

/** Everything application failover decides for one binding in one pass. */
export interface ApplicationFailoverPass extends ApplicationFailoverDecision {
  behavior: ApplicationFailoverBehavior;
  inactive?: FailoverInactive;
  /** The spec with the due evictions, or undefined when there are none. */
  nextSpec?: ResourceBindingSpec;
  /** The `ApplicationFailover` condition wanted. */
  condition: { status: 'True' | 'False'; reason: string; message: string };
}

/**
 * Whether {@link decideApplicationFailover} may ask `replacementFits` for this binding: only when every
 * cluster it is placed on reports Unhealthy (otherwise an eviction always leaves a copy). Lets a caller
 * skip loading what the replacement check needs.
 */
export function lastCopyAtStake(
  spec: Pick<ResourceBindingSpec, 'clusters'>,
  aggregatedStatus: readonly { clusterName: string; health?: string }[] | undefined,
): boolean {
  const targets = spec.clusters ?? [];
  return (
    targets.length > 0 &&
    targets.every((t) => aggregatedStatus?.some((s) => s.clusterName === t.name && s.health === 'Unhealthy'))
  );
}

/**
 * One binding's whole application-failover pass: undefined without `failover.application`; otherwise
 * the windows, evictions and holds of {@link decideApplicationFailover} (nothing but closed windows when
 * failover is inactive, see {@link applicationFailoverInactive}), the evicted spec, and the condition —
 * `EvictionHeld` with every hold's message while evictions are held, else
 * {@link applicationFailoverCondition}.
 */
export function applicationFailoverPass(
  args: ApplicationFailoverInput & { hasHealthRule: boolean },
): ApplicationFailoverPass | undefined {
  const behavior = applicationFailoverOf(args.spec);
  if (!behavior) return undefined;
  const inactive = applicationFailoverInactive({ spec: args.spec, hasHealthRule: args.hasHealthRule });
  const decision: ApplicationFailoverDecision = inactive
    ? { timers: {}, timersUntilEvicted: {}, started: [], cleared: Object.keys(args.timers).sort(), due: [], held: [] }
    : decideApplicationFailover(args);
  const nextSpec = applicationEvictedSpec(args.spec, decision.due, rfc3339(args.nowMs));
  const condition = decision.held.length
    ? { status: 'True' as const, reason: 'EvictionHeld', message: decision.held.map((h) => h.message).join('; ') }
    : applicationFailoverCondition({
        inactive,
        behavior,
        timers: decision.timers,
        targets: nextSpec?.clusters ?? args.spec.clusters,
      })!;
  return {
    ...decision,
    behavior,
    ...(inactive ? { inactive } : {}),
    ...(nextSpec ? { nextSpec } : {}),
    condition,
  };
}
