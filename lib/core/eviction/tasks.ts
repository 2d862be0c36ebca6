/**
 * Graceful eviction tasks (`spec.gracefulEvictionTasks` of a binding): how one is built when a
 * cluster is evicted (`GracefulEvictCluster`, `NewTaskOptions`), how the graceful-eviction controller
 * assesses them (`pkg/controllers/gracefuleviction/evictiontask.go`), and what each purge mode means
 * for the old cluster's Work.
 *
 * | purge mode | old cluster's Work | new Works |
 * |---|---|---|
 * | `Directly` (v1.12's `Immediately`) | deleted at once | held until the old one is gone |
 * | `Gracefully` (v1.12's `Graciously`) | kept until every new target's Work is applied at its generation and Healthy, or the grace period ends | at once |
 * | `Never` (application failover) | kept until `suppressDeletion` is cleared | at once |
 */
import { rfc3339 } from '../../api/time.ts';
import type { GracefulEvictionTask, KubeObject, ResourceBindingSpec, TargetCluster } from '../model/types.ts';
import { appliedCurrent } from '../status/applied.ts';
import { aggregatedStatusItems } from '../status/work.ts';

export type PurgeMode = 'Directly' | 'Gracefully' | 'Never';

/** Producer names Karmada writes into tasks. */
export const EVICTION_PRODUCER_TAINT_MANAGER = 'TaintManager';
export const EVICTION_PRODUCER_RB_APPLICATION_FAILOVER = 'resource-binding-application-failover-controller';
export const EVICTION_PRODUCER_CRB_APPLICATION_FAILOVER = 'cluster-resource-binding-application-failover-controller';

/** Eviction reasons Karmada writes into tasks. */
export const EVICTION_REASON_TAINT_UNTOLERATED = 'TaintUntolerated';
export const EVICTION_REASON_APPLICATION_FAILURE = 'ApplicationFailure';

/** Karmada's limit on a task message. */
const MAX_TASK_MESSAGE = 1024;

/**
 * The canonical purge mode of a policy or flag value: v1.12's `Immediately` is `Directly`,
 * `Graciously` is `Gracefully` (Karmada v1.19 dropped the old names; both are accepted here).
 * Anything else, or nothing, is `fallback`.
 */
export function canonicalPurgeMode(value: unknown, fallback: PurgeMode = 'Gracefully'): PurgeMode {
  switch (value) {
    case 'Directly':
    case 'Immediately':
      return 'Directly';
    case 'Gracefully':
    case 'Graciously':
      return 'Gracefully';
    case 'Never':
      return 'Never';
    default:
      return fallback;
  }
}

/**
 * The purge mode of a taint-based (cluster) eviction (`getPurgeMode`): the binding's
 * `failover.cluster.purgeMode` when `failover.cluster` is set (empty ⇒ Gracefully), else the
 * `--no-execute-taint-eviction-purge-mode` flag (`Directly`, or anything else ⇒ Gracefully).
 * `Never` is an application-failover mode; for a cluster eviction it counts as Gracefully.
 */
export function clusterEvictionPurgeMode(spec: Pick<ResourceBindingSpec, 'failover'>, flag: string): PurgeMode {
  const cluster = (spec.failover as { cluster?: { purgeMode?: string } } | undefined)?.cluster;
  const mode = cluster ? canonicalPurgeMode(cluster.purgeMode) : canonicalPurgeMode(flag);
  return mode === 'Never' ? 'Gracefully' : mode;
}

/** `TaskOptions`. */
export interface TaskOptions {
  producer: string;
  reason: string;
  purgeMode: PurgeMode;
  message?: string;
  gracePeriodSeconds?: number;
  suppressDeletion?: boolean;
  preservedLabelState?: Record<string, string>;
  clustersBeforeFailover?: string[];
}

/**
 * `GracefulEvictCluster`: `cluster` leaves `spec.clusters` and, unless a task for it exists already,
 * a task is appended recording why, by whom, how to purge, the replicas it had (when > 0), the state
 * to carry over, and `creationTimestamp = now` (Karmada stamps it on the next graceful-eviction pass;
 * stamping it here saves a write and makes the grace period start with the eviction). No-op when the
 * cluster is not a target. Returns a new spec; the input is not modified.
 */
export function gracefulEvictCluster<S extends Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>>(
  spec: S,
  cluster: string,
  options: TaskOptions,
  now: string,
): S {
  const clusters = spec.clusters ?? [];
  const evicted = clusters.find((c) => c.name === cluster);
  if (!evicted) return spec;
  const remaining = clusters.filter((c) => c.name !== cluster);
  const tasks = spec.gracefulEvictionTasks ?? [];
  if (tasks.some((t) => t.fromCluster === cluster)) return { ...spec, clusters: remaining };
  const task: GracefulEvictionTask = {
    fromCluster: cluster,
    purgeMode: options.purgeMode,
    ...(evicted.replicas && evicted.replicas > 0 ? { replicas: evicted.replicas } : {}),
    reason: options.reason,
    ...(options.message ? { message: options.message.slice(0, MAX_TASK_MESSAGE) } : {}),
    producer: options.producer,
    ...(options.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: options.gracePeriodSeconds } : {}),
    ...(options.suppressDeletion !== undefined ? { suppressDeletion: options.suppressDeletion } : {}),
    ...(options.preservedLabelState && Object.keys(options.preservedLabelState).length
      ? { preservedLabelState: options.preservedLabelState }
      : {}),
    ...(options.clustersBeforeFailover?.length ? { clustersBeforeFailover: options.clustersBeforeFailover } : {}),
    creationTimestamp: now,
  };
  return { ...spec, clusters: remaining, gracefulEvictionTasks: [...tasks, task] };
}

/** An aggregated status item as the assessment reads it. */
export interface ObservedHealth {
  clusterName: string;
  health?: string;
}

/** What {@link assessEvictionTasks} decided. */
export interface TaskAssessment {
  kept: GracefulEvictionTask[];
  /**
   * Clusters whose task ended, with why. `timeout`, `healthy` and `suppression-lifted`: the old Works
   * may now be removed. `recovered`: the cluster recovered while nothing was placed in its stead, or
   * while its replacement was still not Healthy at the end of the grace period, so it goes back into
   * `spec.clusters` with the replicas it had ({@link restoredClusters}) and its copy stays.
   * `over-quota`: it recovered so, but the namespace's FederatedResourceQuota refused to take its
   * replicas back (see `withoutRestore`; `quota` is the quota's message): its copy is removed, and the
   * scheduler places the replicas once the quota allows.
   */
  ended: {
    cluster: string;
    why: 'timeout' | 'healthy' | 'suppression-lifted' | 'recovered' | 'over-quota';
    quota?: string;
  }[];
  /** When the next task times out (ms since epoch); undefined: no timer needed. */
  nextMs?: number;
}

/**
 * `assessEvictionTasks`, plus rules Karmada lacks:
 * - a task without `creationTimestamp` is stamped `now` and kept;
 * - `suppressDeletion: true` keeps it forever, `false` ends it now;
 * - **here** (#5803, hysteresis): a task produced by the taint manager whose cluster has recovered
 *   (`recovered(cluster)`: Ready and without NoExecute taints) keeps its copy — the last healthy one —
 *   until a placed replacement is healthy: it ends when the binding has been scheduled and every
 *   target reports `Healthy` (the copy then goes), or as `recovered` — the cluster takes the workload
 *   back and its copy stays — at once when nothing is placed at all, and otherwise once its grace period
 *   has passed with the replacement still not Healthy (a replacement that never becomes Healthy — no
 *   room for its pods, a target unhealthy for its own reasons — must not hold the task forever).
 *   Within the grace period it is kept and the cluster stays out of the placement, so a cluster that
 *   fails, recovers and fails again within the window neither loses its copy early nor pulls the
 *   workload back and forth. Karmada never ends such a task on recovery (#5782, #5803): it times out,
 *   deleting the copy whether or not the replacement is healthy;
 * - past `creationTimestamp + (gracePeriodSeconds ?? timeout)` it ends;
 * - when the binding has been scheduled for its current generation and every target cluster reports
 *   `Healthy`, it ends — but not when there is no target at all (Karmada ends it then, vacuously,
 *   deleting the only copy while nothing replaces it);
 * - **here**: a target counts as `Healthy` only when its Work is also applied at its current generation
 *   and reports Healthy itself (`currentWorks`, see {@link currentWorkClusters}). The aggregated item is
 *   what the member last reported: when the evicted replicas move to a cluster that already ran a copy,
 *   its item still says `Healthy` from before its Work was scaled up, and Karmada ends the task (and
 *   deletes the old copy) before the member has even received its new replica count. Once the Work is
 *   applied at its generation, the member's own health rule (a Deployment's `observedGeneration`,
 *   `updatedReplicas`, …) covers the rest;
 * - **here**: with no target at all it does not end at its timeout either: the copy it holds is the
 *   only one, and removing it with nothing placed elsewhere (the scheduler refused the replacement —
 *   quota, capacity, a cluster state that changed since the eviction was decided) would leave the
 *   workload running nowhere. It is looked at again every minute and ends once a replacement is placed.
 * `nextMs` is the earliest timeout among tasks without `suppressDeletion`.
 */
export function assessEvictionTasks(args: {
  tasks: readonly GracefulEvictionTask[] | undefined;
  nowMs: number;
  timeoutMs: number;
  clusters: readonly TargetCluster[] | undefined;
  observed: readonly ObservedHealth[] | undefined;
  /**
   * The target clusters whose Works are applied at their current generation and report Healthy
   * themselves ({@link currentWorkClusters}).
   */
  currentWorks: ReadonlySet<string>;
  hasScheduled: boolean;
  recovered?: (cluster: string) => boolean;
}): TaskAssessment {
  const now = rfc3339(args.nowMs);
  const kept: GracefulEvictionTask[] = [];
  const ended: TaskAssessment['ended'] = [];
  const targets = args.clusters ?? [];
  const allHealthy =
    targetsReportHealthy(targets, args.observed) && targets.every((t) => args.currentWorks.has(t.name));
  let nextMs: number | undefined;
  for (const task of args.tasks ?? []) {
    if (!task.creationTimestamp) {
      kept.push({ ...task, creationTimestamp: now });
      nextMs = min(nextMs, args.nowMs + timeoutOf(task, args.timeoutMs));
      continue;
    }
    if (task.suppressDeletion !== undefined && task.suppressDeletion !== null) {
      if (task.suppressDeletion) kept.push(task);
      else ended.push({ cluster: task.fromCluster, why: 'suppression-lifted' });
      continue;
    }
    const deadline = Date.parse(task.creationTimestamp) + timeoutOf(task, args.timeoutMs);
    const recovered = task.reason === EVICTION_REASON_TAINT_UNTOLERATED && args.recovered?.(task.fromCluster) === true;
    if (recovered && targets.length === 0) {
      ended.push({ cluster: task.fromCluster, why: 'recovered' });
      continue;
    }
    if (!recovered && args.nowMs > deadline && targets.length > 0) {
      ended.push({ cluster: task.fromCluster, why: 'timeout' });
      continue;
    }
    if (args.hasScheduled && allHealthy) {
      ended.push({ cluster: task.fromCluster, why: 'healthy' });
      continue;
    }
    if (recovered && args.nowMs > deadline) {
      ended.push({ cluster: task.fromCluster, why: 'recovered' });
      continue;
    }
    kept.push(task);
    // Overdue and waiting for a replacement: looked at again in a minute (and whenever the binding
    // changes), not in a loop. A recovered cluster's task is looked at again at its deadline.
    nextMs = min(nextMs, args.nowMs > deadline ? args.nowMs + NO_REPLACEMENT_RECHECK_MS : deadline + 1);
  }
  return { kept, ended, ...(nextMs !== undefined ? { nextMs } : {}) };
}

/** One of the binding's Works, with the cluster it targets. */
export interface TargetWork {
  cluster: string;
  work: KubeObject;
}

/**
 * Whether the binding holds a task that ends once its targets are healthy: one whose deletion is not
 * suppressed (`Never` tasks wait for `suppressDeletion` to be cleared, whatever the health).
 */
export function tasksAwaitHealth(spec: Pick<ResourceBindingSpec, 'gracefulEvictionTasks'>): boolean {
  return (spec.gracefulEvictionTasks ?? []).some(
    (t) => t.suppressDeletion === undefined || t.suppressDeletion === null,
  );
}

/**
 * Whether a task of this binding can end on its targets' health now, by what the binding says: a task
 * awaits health ({@link tasksAwaitHealth}), the binding has been scheduled for its generation, and
 * every target's aggregated item is `Healthy`. Only then do the targets' Works decide (see
 * {@link currentWorkClusters}), so a caller reads them only then.
 */
export function worksDecideTasks(
  spec: Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>,
  observed: readonly ObservedHealth[] | undefined,
  hasScheduled: boolean,
): boolean {
  return tasksAwaitHealth(spec) && hasScheduled && targetsReportHealthy(spec.clusters ?? [], observed);
}

/** There are targets, and the binding's aggregated status reports every one of them `Healthy`. */
function targetsReportHealthy(
  targets: readonly TargetCluster[],
  observed: readonly ObservedHealth[] | undefined,
): boolean {
  return (
    targets.length > 0 &&
    targets.every((t) => observed?.some((o) => o.clusterName === t.name && o.health === 'Healthy'))
  );
}

/**
 * The clusters whose Works of the binding report the spec they hold as Healthy: every Work there is
 * applied at its current generation (`appliedCurrent`) and its own status reports the workload
 * (`resource`, the template's manifest) `Healthy`, and none is being deleted. The Work's status is what
 * the binding's aggregated item is folded from, and it is read fresh: a `Healthy` item written before
 * the Work was updated, or before the binder folded in the Work's latest report, does not count.
 */
export function currentWorkClusters(
  resource: { apiVersion: string; kind: string; namespace?: string; name: string },
  works: readonly TargetWork[],
): Set<string> {
  const template: KubeObject = {
    apiVersion: resource.apiVersion,
    kind: resource.kind,
    metadata: { name: resource.name, ...(resource.namespace ? { namespace: resource.namespace } : {}) },
  };
  const current = new Set<string>();
  const stale = new Set<string>();
  for (const { cluster, work } of works) {
    const healthy =
      !work.metadata.deletionTimestamp &&
      appliedCurrent(work) &&
      aggregatedStatusItems(template, [{ cluster, work }])[0]?.health === 'Healthy';
    (healthy ? current : stale).add(cluster);
  }
  for (const cluster of stale) current.delete(cluster);
  return current;
}

/**
 * The clusters that go back into `spec.clusters` after an assessment: each task that ended as
 * `recovered`, with the replicas its task recorded (none recorded: none set). Its copy was never
 * removed, so the binder keeps it and the scheduler decides from there.
 */
export function restoredClusters(
  tasks: readonly GracefulEvictionTask[] | undefined,
  assessment: Pick<TaskAssessment, 'ended'>,
): TargetCluster[] {
  const back = new Set(assessment.ended.filter((e) => e.why === 'recovered').map((e) => e.cluster));
  return (tasks ?? [])
    .filter((t) => back.has(t.fromCluster))
    .map((t) => ({ name: t.fromCluster, ...(t.replicas !== undefined ? { replicas: t.replicas } : {}) }));
}

/** How often an overdue task that waits for a replacement is looked at again. */
const NO_REPLACEMENT_RECHECK_MS = 60_000;

function timeoutOf(task: GracefulEvictionTask, defaultMs: number): number {
  return task.gracePeriodSeconds !== undefined && task.gracePeriodSeconds !== null
    ? task.gracePeriodSeconds * 1000
    : defaultMs;
}

function min(a: number | undefined, b: number): number {
  return a === undefined ? b : Math.min(a, b);
}

/**
 * Clusters whose Works a binding holds back from: while a `Directly` task's old Work still exists,
 * no Work of the binding is created or updated (Karmada's binding controller requeues until it is
 * gone) — the new copy must not start before the old one is deleted.
 */
export function directlyPurgedClusters(spec: Pick<ResourceBindingSpec, 'gracefulEvictionTasks'>): string[] {
  return (spec.gracefulEvictionTasks ?? [])
    .filter((t) => canonicalPurgeMode(t.purgeMode) === 'Directly')
    .map((t) => t.fromCluster);
}

/**
 * Evicted clusters whose Works stay although their purge mode would remove them at once: while the
 * binding has no cluster placed, a `Directly`/`Immediately` eviction keeps the copy it would purge — it
 * is the only one (the scheduler refused the replacement the eviction expected: found by the
 * deterministic simulation). Once a replacement is placed the purge goes ahead, and the new copies wait
 * for it as {@link directlyPurgedClusters} says.
 */
export function lastCopyClusters(spec: Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>): string[] {
  if ((spec.clusters ?? []).length > 0) return [];
  return (spec.gracefulEvictionTasks ?? [])
    .filter((t) => canonicalPurgeMode(t.purgeMode) === 'Directly')
    .map((t) => t.fromCluster);
}

/** The condition a binding carries while its new copies wait for an evicted copy to be deleted. */
export const HANDOFF_PENDING_CONDITION = 'FailoverHandoffPending';

/** A `Directly`-purged cluster whose old copy the new copies wait for. */
export interface HandoffWait {
  cluster: string;
  why: 'deleting' | 'unreachable';
  message: string;
}

/**
 * The exactly-once handoff of `Directly` purging (the seeds' consistency rule): while a cluster purged
 * `Directly` still holds the binding's Work, the new copies wait.
 * - a Ready old cluster: wait (its member object is being deleted; the Work goes when it is);
 * - an old cluster that is not Ready cannot confirm the deletion:
 *   - evicted by the taint manager: released at once — the cluster has been failing for the whole
 *     toleration already, and its copy is deleted before anything else reaches it when it returns;
 *   - evicted by application failover (the cluster was healthy when it was evicted): wait until the
 *     task's grace period (`gracePeriodSeconds`, else `--graceful-eviction-timeout`) has passed since
 *     the eviction, then release.
 * `nextMs`: when a wait on an unreachable cluster ends; `condition`: what the binding says meanwhile.
 */
export function directlyPurgeHandoff(args: {
  spec: Pick<ResourceBindingSpec, 'gracefulEvictionTasks'>;
  oldCopyExists: (cluster: string) => boolean;
  clusterReady: (cluster: string) => boolean;
  nowMs: number;
  timeoutMs: number;
}): {
  waiting: HandoffWait[];
  released: string[];
  nextMs?: number;
  /** The `FailoverHandoffPending` condition while anything is waited for; undefined otherwise. */
  condition?: { status: 'True'; reason: 'EvictedClusterUnreachable' | 'EvictedCopyDeleting'; message: string };
} {
  const waiting: HandoffWait[] = [];
  const released: string[] = [];
  let nextMs: number | undefined;
  for (const task of args.spec.gracefulEvictionTasks ?? []) {
    if (canonicalPurgeMode(task.purgeMode) !== 'Directly' || !args.oldCopyExists(task.fromCluster)) continue;
    const cluster = task.fromCluster;
    if (args.clusterReady(cluster)) {
      waiting.push({
        cluster,
        why: 'deleting',
        message: `the new copy starts once the evicted copy on cluster ${cluster} is deleted (purge mode Directly)`,
      });
      continue;
    }
    if (task.reason === EVICTION_REASON_TAINT_UNTOLERATED) {
      released.push(cluster);
      continue;
    }
    const created = task.creationTimestamp ? Date.parse(task.creationTimestamp) : args.nowMs;
    const until = created + timeoutOf(task, args.timeoutMs);
    if (args.nowMs >= until) {
      released.push(cluster);
      continue;
    }
    waiting.push({
      cluster,
      why: 'unreachable',
      message: `cluster ${cluster} is not reachable, so the deletion of its evicted copy cannot be confirmed (purge mode Directly): the new copy waits until it is, or until ${rfc3339(until)} when the grace period ends`,
    });
    nextMs = nextMs === undefined ? until : Math.min(nextMs, until);
  }
  const condition = waiting.length
    ? {
        status: 'True' as const,
        reason: waiting.some((w) => w.why === 'unreachable')
          ? ('EvictedClusterUnreachable' as const)
          : ('EvictedCopyDeleting' as const),
        message: waiting.map((w) => w.message).join('; '),
      }
    : undefined;
  return { waiting, released, ...(nextMs !== undefined ? { nextMs } : {}), ...(condition ? { condition } : {}) };
}
