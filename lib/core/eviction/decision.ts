/**
 * The taint manager's decision for one binding (Karmada `NoExecuteTaintManager.syncBindingEviction`
 * over every cluster of the binding), together with the graceful-eviction assessment, so one
 * reconcile makes one write. Safer than Karmada on purpose, each rule named after the issue it
 * prevents:
 *
 * - the last copy is never evicted while no other cluster can take the workload (#7455): the
 *   eviction is held, with a condition and an event saying why, until a replacement fits;
 * - tasks of a cluster that has recovered end (#5803) — once its replacements are healthy, or with the
 *   cluster taking the workload back (at once when nothing was placed in its stead, at the end of the
 *   grace period when the replacement is still not healthy): the last healthy copy is never removed
 *   without a healthy replacement, every such task ends, and a flapping cluster does not move
 *   workloads back and forth;
 * - state travels across consecutive failovers, after the first one's task has ended too (#6232, see
 *   state.ts).
 */
import type { Condition, GracefulEvictionTask, ResourceBindingSpec, Taint, Toleration } from '../model/types.ts';
import { needEviction, noExecuteTaints, withDefaultTolerations } from './taints.ts';
import { taintString } from '../placement/tolerations.ts';
import {
  assessEvictionTasks,
  clusterEvictionPurgeMode,
  currentWorkClusters,
  EVICTION_PRODUCER_TAINT_MANAGER,
  EVICTION_REASON_TAINT_UNTOLERATED,
  gracefulEvictCluster,
  type PurgeMode,
  restoredClusters,
  type TaskAssessment,
  type TargetWork,
} from './tasks.ts';
import { type CarriedLabelState, stateForEviction, statePreservationRules } from './state.ts';

/** The condition a binding carries while an eviction is held (absent otherwise). */
export const FAILOVER_HELD_CONDITION = 'FailoverHeld';

/** What the decision knows of a cluster. */
export interface ClusterHealthView {
  exists: boolean;
  ready: boolean;
  taints: readonly Taint[];
}

export interface EvictionSettings {
  /** `--enable-no-execute-taint-eviction` and the `Failover` gate: false ⇒ taints never evict. */
  enabled: boolean;
  /** `--no-execute-taint-eviction-purge-mode`. */
  purgeModeFlag: string;
  /** `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds`. */
  defaultTolerationSeconds: { notReady: number; unreachable: number };
  /** The `StatefulFailoverInjection` gate: extract `statePreservation` state before evicting. */
  statefulFailoverInjection: boolean;
  /** `--graceful-eviction-timeout` (ms). */
  gracefulEvictionTimeoutMs: number;
}

/** One cluster the binding must leave now. */
export interface DueEviction {
  cluster: string;
  purgeMode: PurgeMode;
  message: string;
  preservedLabelState?: Record<string, string>;
}

/** One eviction that is due but held back, and why. */
export interface HeldEviction {
  cluster: string;
  reason: 'NoReplacementCluster' | 'StateNotCollected';
  message: string;
}

export interface EvictionDecision {
  /** Evictions to apply now (subject to the fleet's eviction rate). */
  due: DueEviction[];
  held: HeldEviction[];
  /** The graceful-eviction assessment of the existing tasks. */
  assessment: TaskAssessment;
  /** When to decide again (a toleration or a task deadline ends), ms since epoch. */
  nextMs?: number;
}

/** The tolerations a binding is evicted by: the applied placement's, plus the seeds' defaults. */
export function effectiveTolerations(
  appliedPlacement: { clusterTolerations?: Toleration[] } | undefined,
  settings: Pick<EvictionSettings, 'defaultTolerationSeconds'>,
): Toleration[] {
  return withDefaultTolerations(appliedPlacement?.clusterTolerations, settings.defaultTolerationSeconds);
}

/**
 * Decides, for a binding, which of its clusters it must leave now (NoExecute taints not tolerated, or
 * tolerated for a time that has passed), which of those are held back and why, and how the existing
 * graceful eviction tasks stand.
 *
 * `replacementFits(excluded)` answers whether the binding can be placed when the `excluded`
 * clusters are not available (the scheduler's own filters and estimate, without writing anything):
 * an eviction that would leave the binding without any cluster is held unless it does.
 */
export function decideEviction(args: {
  spec: ResourceBindingSpec;
  aggregatedStatus?: readonly { clusterName: string; status?: unknown; health?: string }[];
  /**
   * The binding's Works on its target clusters, as read now; needed only when `worksDecideTasks`
   * says so (otherwise none). A task ends on its targets' health only where these are applied at their
   * current generation and report Healthy themselves ({@link currentWorkClusters}): a `Healthy` item
   * may predate the Work's last update.
   */
  targetWorks: readonly TargetWork[];
  appliedPlacement: { clusterTolerations?: Toleration[] } | undefined;
  hasScheduled: boolean;
  deleting: boolean;
  clusters: ReadonlyMap<string, ClusterHealthView>;
  nowMs: number;
  settings: EvictionSettings;
  replacementFits: (excluded: readonly string[]) => boolean;
  /**
   * Whether a cluster the binding keeps would stay placed: it exists and the placement still selects
   * it (default: every cluster). A kept cluster the scheduler is about to drop is no copy to rely on.
   */
  stillPlaced?: (cluster: string) => boolean;
  /** The state the binding carries from a failover whose task has ended (see `carriedLabelState`). */
  carried?: CarriedLabelState | undefined;
}): EvictionDecision {
  const { spec, nowMs, settings } = args;
  const recovered = (name: string) => {
    const c = args.clusters.get(name);
    return c !== undefined && c.ready && noExecuteTaints(c.taints).length === 0;
  };
  const assessment = assessEvictionTasks({
    tasks: spec.gracefulEvictionTasks,
    nowMs,
    timeoutMs: settings.gracefulEvictionTimeoutMs,
    clusters: spec.clusters,
    observed: args.aggregatedStatus,
    currentWorks: currentWorkClusters(spec.resource, args.targetWorks),
    hasScheduled: args.hasScheduled,
    recovered,
  });
  let nextMs = assessment.nextMs;
  const due: DueEviction[] = [];
  const held: HeldEviction[] = [];
  if (args.deleting || !settings.enabled) return { due, held, assessment, ...(nextMs ? { nextMs } : {}) };

  const tolerations = effectiveTolerations(args.appliedPlacement, settings);
  const purgeMode = clusterEvictionPurgeMode(spec, settings.purgeModeFlag);
  const rules = settings.statefulFailoverInjection
    ? statePreservationRules((spec.failover as { cluster?: unknown } | undefined)?.cluster)
    : [];
  for (const target of spec.clusters ?? []) {
    const cluster = args.clusters.get(target.name);
    if (!cluster?.exists) continue;
    const need = needEviction(cluster.taints, tolerations, nowMs);
    if (!need.evict) {
      if (need.atMs !== undefined) nextMs = nextMs === undefined ? need.atMs : Math.min(nextMs, need.atMs);
      continue;
    }
    const taints = noExecuteTaints(cluster.taints).map(taintString).join(', ');
    const message =
      need.reason === 'untolerated'
        ? `cluster ${target.name} has taint {${taintString(need.taint!)}}, which the placement does not tolerate`
        : `cluster ${target.name} has had taint(s) {${taints}} for longer than the placement tolerates`;
    const state = stateForEviction({
      rules,
      spec,
      aggregatedStatus: args.aggregatedStatus,
      cluster: target.name,
      carried: args.carried,
    });
    if (!state.ok) {
      held.push({ cluster: target.name, reason: 'StateNotCollected', message: `${message}; ${state.message}` });
      continue;
    }
    due.push({
      cluster: target.name,
      purgeMode,
      message:
        state.carriedFrom !== undefined
          ? `${message}; state preserved from the earlier failover from ${state.carriedFrom} is carried forward`
          : message,
      ...(state.state ? { preservedLabelState: state.state } : {}),
    });
  }

  // The last copy: when the evictions would leave no cluster, they go ahead only if a replacement fits.
  const lastCopy = holdLastCopy(spec, due, args.replacementFits, args.stillPlaced);
  held.push(...lastCopy.held);
  return { due: lastCopy.due, held, assessment, ...(nextMs !== undefined ? { nextMs } : {}) };
}

/**
 * The last-copy rule of both failovers (#7455): evictions that would leave the binding without any
 * cluster go ahead only when `replacementFits` (the scheduler's filters and estimate, run dry) finds
 * another cluster with the leaving clusters and those already evicting excluded; otherwise every one of
 * them is held (`NoReplacementCluster`). `replacementFits` is asked only then. A cluster left in the
 * placement counts only when `stillPlaced` says the scheduler keeps it (found by the deterministic
 * simulation: a copy on a cluster the policy no longer selected was taken for a remaining one).
 */
export function holdLastCopy<D extends { cluster: string; message: string }>(
  spec: Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>,
  due: readonly D[],
  replacementFits: (excluded: readonly string[]) => boolean,
  stillPlaced: (cluster: string) => boolean = () => true,
): { due: D[]; held: HeldEviction[] } {
  if (due.length === 0) return { due: [], held: [] };
  const leaving = new Set(due.map((d) => d.cluster));
  const remaining = (spec.clusters ?? []).filter((c) => !leaving.has(c.name) && stillPlaced(c.name));
  const excluded = [...leaving, ...(spec.gracefulEvictionTasks ?? []).map((t) => t.fromCluster)];
  if (remaining.length > 0 || replacementFits(excluded)) return { due: [...due], held: [] };
  return {
    due: [],
    held: due.map((d) => ({
      cluster: d.cluster,
      reason: 'NoReplacementCluster' as const,
      message: `${d.message}; it is the last copy of the workload and no other cluster can take it, so it stays until one can`,
    })),
  };
}

/**
 * Whether the binder has something to do at once after an eviction write, before the scheduler has
 * re-placed the binding (the scheduler hands every re-placed binding on to it anyway): a copy purged
 * `Directly` goes now (the new copies wait for it), and ended tasks' copies go. A copy evicted
 * `Gracefully` or kept (`Never`) stays where it is until its task ends: the binder would only render
 * the same Works twice, once for the eviction and once for the new placement.
 */
export function binderNeededAtOnce(
  due: readonly Pick<DueEviction, 'purgeMode'>[],
  assessment: Pick<TaskAssessment, 'ended'>,
): boolean {
  return due.length === 0 || assessment.ended.length > 0 || due.some((d) => d.purgeMode === 'Directly');
}

/**
 * The binding spec after the assessment and the evictions: tasks that ended are gone (a cluster that
 * recovered with nothing placed in its stead is back in `spec.clusters`, see `restoredClusters`), tasks
 * stamped, and each due cluster evicted with a `TaintUntolerated` task by the `TaintManager`. Returns
 * `undefined` when nothing changes (no write needed).
 */
export function evictedSpec(
  spec: ResourceBindingSpec,
  decision: Pick<EvictionDecision, 'assessment'>,
  due: readonly DueEviction[],
  now: string,
): ResourceBindingSpec | undefined {
  const before = spec.gracefulEvictionTasks ?? [];
  const kept = decision.assessment.kept;
  const tasksChanged = !sameTasks(before, kept);
  if (!tasksChanged && due.length === 0) return undefined;
  let next: ResourceBindingSpec = { ...spec };
  if (kept.length) next.gracefulEvictionTasks = kept;
  else delete next.gracefulEvictionTasks;
  const restored = restoredClusters(before, decision.assessment).filter(
    (r) => !(spec.clusters ?? []).some((c) => c.name === r.name),
  );
  if (restored.length) next.clusters = [...(spec.clusters ?? []), ...restored];
  for (const d of due) {
    next = gracefulEvictCluster(
      next,
      d.cluster,
      {
        producer: EVICTION_PRODUCER_TAINT_MANAGER,
        reason: EVICTION_REASON_TAINT_UNTOLERATED,
        purgeMode: d.purgeMode,
        message: d.message,
        ...(d.preservedLabelState ? { preservedLabelState: d.preservedLabelState } : {}),
      },
      now,
    );
  }
  return next;
}

/** How often a task kept because its cluster's restore was refused (and nothing else is placed) is looked at again. */
const REFUSED_RESTORE_RECHECK_MS = 60_000;

/**
 * The assessment when the namespace's FederatedResourceQuota refuses to take back the replicas of the
 * clusters that recovered (`recovered` endings): the eviction gave their quota back, and another
 * workload may have taken it since, so restoring them uncharged would put the namespace over its limit
 * (found by the deterministic simulation: seeds 480, 500, 995). Each such task ends as `over-quota`
 * with the quota's `refusal` — its copy is removed, and the scheduler places the missing replicas once
 * the quota allows — unless the binding would then be placed nowhere: that copy is the last one, so its
 * task is kept as it was and looked at again in a minute ({@link REFUSED_RESTORE_RECHECK_MS}).
 */
export function withoutRestore(
  spec: Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>,
  assessment: TaskAssessment,
  due: readonly { cluster: string }[],
  nowMs: number,
  refusal: string,
): TaskAssessment {
  const recovered = new Set(assessment.ended.filter((e) => e.why === 'recovered').map((e) => e.cluster));
  if (recovered.size === 0) return assessment;
  const leaving = new Set(due.map((d) => d.cluster));
  const placedElsewhere = (spec.clusters ?? []).some((c) => !leaving.has(c.name));
  if (placedElsewhere) {
    return {
      ...assessment,
      ended: assessment.ended.map((e) =>
        e.why === 'recovered' ? { cluster: e.cluster, why: 'over-quota', quota: refusal } : e,
      ),
    };
  }
  const kept = new Map(assessment.kept.map((t) => [t.fromCluster, t]));
  const recheck = nowMs + REFUSED_RESTORE_RECHECK_MS;
  return {
    // In the spec's order, the refused ones as they were.
    kept: (spec.gracefulEvictionTasks ?? []).flatMap((t) =>
      recovered.has(t.fromCluster) ? [t] : (kept.get(t.fromCluster) ?? []),
    ),
    ended: assessment.ended.filter((e) => e.why !== 'recovered'),
    nextMs: assessment.nextMs === undefined ? recheck : Math.min(assessment.nextMs, recheck),
  };
}

function sameTasks(a: readonly GracefulEvictionTask[], b: readonly GracefulEvictionTask[]): boolean {
  return a.length === b.length && a.every((t, i) => JSON.stringify(t) === JSON.stringify(b[i]));
}

/**
 * The `FailoverHeld` condition for a binding: True with the first hold's reason and every hold's
 * message while evictions are held; `undefined` when nothing is held (the condition is removed).
 */
export function failoverHeldCondition(held: readonly HeldEviction[], now: string): Condition | undefined {
  if (held.length === 0) return undefined;
  return {
    type: FAILOVER_HELD_CONDITION,
    status: 'True',
    reason: held[0]!.reason,
    message: held.map((h) => h.message).join('; '),
    lastTransitionTime: now,
  };
}
