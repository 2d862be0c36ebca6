/**
 * The eviction controller: Karmada's NoExecuteTaintManager and graceful-eviction controller on one
 * key, so a binding's eviction and the assessment of its eviction tasks are one decision and one
 * write (docs/failover.md).
 *
 * - A Cluster key (its taints changed, an API write, or the sweep): the bindings placed there are
 *   enqueued while it has NoExecute taints; once it is healthy and untainted, the bindings still
 *   holding an eviction task from it are, so the task ends (#5803) — once the replacements are healthy,
 *   or with the cluster taking the workload back: at once when nothing was placed in its stead, at the
 *   end of the grace period when the replacement is still not healthy.
 * - A binding key: the core decides which clusters it must leave (NoExecute taints not tolerated, or
 *   tolerated for a time that has passed), holds the last copy while no other cluster can take it
 *   (#7455), extracts the state to carry; the fleet's eviction rate applies; one write records the
 *   evictions and the assessed tasks; the scheduler re-places the binding and the binder removes the
 *   old copies as their purge mode says. The next toleration or task deadline is a delayed message,
 *   and the sweep (every minute) re-enqueues every tainted cluster, so no eviction lives only in a
 *   process's memory.
 * - A task ends on its targets' health only where their Works are applied at their current generation
 *   and report Healthy themselves (read only while that can decide: tasks, scheduled, every target
 *   Healthy); the binder passes on every Work report of a binding with tasks, so it ends as soon as the
 *   last one is current and Healthy.
 */
import { formatKey, type KubeObject, parseKey, refOf } from '../api/object.ts';
import {
  bindingIdOf,
  bindingKeyOf,
  CLUSTER,
  CLUSTER_RESOURCE_BINDING,
  RESOURCE_BINDING,
  WORK,
} from '../api/karmada-names.ts';
import { APPLIED_PLACEMENT_ANNOTATION } from '../api/well-known.ts';
import { type Condition as ApiCondition, putCondition, rfc3339 } from '../api/conditions.ts';
import type { FailoverSettings } from '../config/failover.ts';
import {
  binderNeededAtOnce,
  buildFramework,
  carriedLabelState,
  carriedLabelStateOf,
  chargedUsageOf,
  chargeUntilRendered,
  type Cluster,
  type ClusterHealthView,
  type Condition,
  decideEviction,
  type EstimatorOptions,
  evictedSpec,
  FAILOVER_HELD_CONDITION,
  failoverHeldCondition,
  fleetEvictionRate,
  keptByPlacement,
  noExecuteTaints,
  READY_CONDITION,
  type ResourceBinding,
  type ResourceList,
  type Snapshot,
  type TargetWork,
  type TaskAssessment,
  templateStubOf,
  type Toleration,
  usageOf,
  withCarriedLabelState,
  withChargedUsage,
  withoutRestore,
  worksDecideTasks,
} from '../core/index.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import { METRIC } from '../observability/metrics.ts';
import type { Lane, WorkQueue } from '../queue/port.ts';
import type {
  BatchScope,
  Controller,
  ReconcileContext,
  ReconcileRequest,
  ReconcileResult,
} from '../reconcile/controller.ts';
import { listAll, listDependentWorks } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite, type WriteAttempt } from '../store/write.ts';
import { once } from '../util/memo.ts';
import { BatchEvictionTokens } from './eviction-limiter.ts';
import { BatchQuotas, type ChargedQuota, releaseWaiters } from './quota.ts';
import { replacementFits } from './replacement.ts';
import { fleetSnapshot, loadLedger } from './reservations.ts';
import { BINDER_CONTROLLER_NAME, EVICTION_CONTROLLER_NAME, SCHEDULER_CONTROLLER_NAME, SWEEP_KEY } from './specs.ts';

/** Bindings of a tainted cluster enqueued on the caller's lane at most; a larger fan-out goes standard. */
const PRIORITY_FAN_OUT = 100;
/** Without a timer of its own, a binding held by the rate comes back after this long. */
const RATE_RETRY_MS = 10_000;
/** When a restore's quota charge kept meeting concurrent quota writes: decide again this soon. */
const QUOTA_BUSY_RETRY_MS = 1_000;

export interface EvictionControllerOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  events?: EventRecorder;
  settings: FailoverSettings;
  /** The scheduler's `--plugins`, for the replacement check (default `*`). */
  plugins?: readonly string[];
  estimator?: EstimatorOptions;
  /** Wall clock of the stored limiter (defaults to Date.now). */
  now?: () => number;
}

/** What one batch shares: the clusters as read once, the fleet's rate, the tokens taken. */
interface EvictionBatch extends BatchScope {
  readonly clusters: ReadonlyMap<string, ClusterHealthView>;
  readonly clusterObjects: readonly Cluster[];
  readonly tokens: BatchEvictionTokens;
  /** The namespaces' FederatedResourceQuotas, read when a last copy's replacement is weighed. */
  readonly quotas: BatchQuotas;
  /** The fleet as the scheduler sees it (its ledger included), read when a replacement is weighed. */
  snapshot(): Promise<Snapshot>;
}

/** Counters a benchmark or test can read. */
export interface EvictionStats {
  evicted: number;
  held: number;
  rateLimited: number;
  tasksEnded: number;
  bindingWrites: number;
}

export function createEvictionController(options: EvictionControllerOptions): Controller & { stats: EvictionStats } {
  const { store, settings } = options;
  const events = options.events ?? NO_EVENTS;
  const now = options.now ?? Date.now;
  const framework = buildFramework(options.plugins ?? ['*']);
  const enabled = settings.featureGates.Failover && settings.enableNoExecuteTaintEviction;
  const stats: EvictionStats = { evicted: 0, held: 0, rateLimited: 0, tasksEnded: 0, bindingWrites: 0 };

  async function openBatch(context: { keys: readonly string[] }): Promise<EvictionBatch> {
    const clusterObjects = (await listAll(store, CLUSTER)) as Cluster[];
    const clusters = new Map(clusterObjects.map((c) => [c.metadata.name!, healthView(c)]));
    const rate = fleetEvictionRate(
      [...clusters.values()].map((c) => c.ready),
      {
        ratePerSecond: settings.resourceEvictionRate,
        burst: settings.resourceEvictionBurst,
        secondaryRatePerSecond: settings.secondaryResourceEvictionRate,
        unhealthyThreshold: settings.unhealthyClusterThreshold,
      },
    );
    const tokens = new BatchEvictionTokens({
      store,
      rate: { ratePerSecond: rate.ratePerSecond, burst: settings.resourceEvictionBurst },
      now,
      ahead: context.keys.length,
    });
    return {
      clusters,
      clusterObjects,
      tokens,
      quotas: new BatchQuotas(store),
      snapshot: once(
        async () =>
          fleetSnapshot(clusterObjects, await loadLedger(store), {
            now: now(),
            ...(options.estimator ? { estimator: options.estimator } : {}),
          }).snapshot,
      ),
      close: () => tokens.close(),
    };
  }

  return {
    name: EVICTION_CONTROLLER_NAME,
    stats,
    reconcileConcurrency: 16,
    openBatch: (context) => openBatch(context),
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      if (!settings.featureGates.Failover) return undefined;
      const batch = (context.batch as EvictionBatch | undefined) ?? (await openBatch({ keys: [request.key] }));
      if (request.key === SWEEP_KEY) return sweep(batch, context);
      const ref = parseKey(request.key);
      if (ref.group === CLUSTER.group && ref.kind === CLUSTER.kind)
        return syncCluster(ref.name, batch, request.lane, context);
      if (ref.group !== RESOURCE_BINDING.group) return undefined;
      const binding = (await store.get(ref)) as ResourceBinding | undefined;
      if (!binding) return undefined;
      return syncBinding(binding, batch, request.lane, context);
    },
  };

  /** Every tainted cluster fans out again: a lost message delays an eviction by one sweep at most. */
  async function sweep(batch: EvictionBatch, context: ReconcileContext): Promise<undefined> {
    const tainted = batch.clusterObjects.filter((c) => noExecuteTaints(c.spec?.taints).length > 0);
    if (tainted.length > 0) {
      await options.workQueue.enqueue(
        tainted.map((c) => ({
          controller: EVICTION_CONTROLLER_NAME,
          lane: 'standard' as Lane,
          key: formatKey(refOf(c)),
          reason: 'sweep',
        })),
      );
      context.logger.debug('sweep: tainted clusters re-examined', { clusters: tainted.length });
    }
    return undefined;
  }

  /** The bindings a cluster's taints (or its recovery) concern. */
  async function syncCluster(
    name: string,
    batch: EvictionBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<undefined> {
    const cluster = batch.clusters.get(name);
    if (!cluster) return undefined;
    let keys: Set<string>;
    let why: string;
    if (enabled && noExecuteTaints(cluster.taints).length > 0) {
      // The bindings with a Work there: placed there, or still holding a graceful copy there.
      keys = new Set();
      for (const work of await listAll(store, { ...WORK, cluster: name })) {
        const key = bindingKeyOf(work);
        if (key) keys.add(key);
      }
      why = 'cluster-tainted';
    } else if (cluster.ready) {
      // Bindings still holding a task from it (the task ends), and bindings whose eviction was held
      // (the hold is lifted now that there is nothing to evict).
      keys = new Set(
        (await allBindings())
          .filter(
            (b) =>
              b.spec.gracefulEvictionTasks?.some((t) => t.fromCluster === name) ||
              b.status?.conditions?.some((c) => c.type === FAILOVER_HELD_CONDITION && c.status === 'True'),
          )
          .map((b) => formatKey(refOf(b))),
      );
      why = 'cluster-recovered';
    } else {
      return undefined;
    }
    if (keys.size === 0) return undefined;
    const fanLane: Lane = keys.size <= PRIORITY_FAN_OUT ? lane : 'standard';
    await options.workQueue.enqueue(
      [...keys].map((key) => ({ controller: EVICTION_CONTROLLER_NAME, lane: fanLane, key, reason: why })),
    );
    context.logger.info(
      why === 'cluster-tainted'
        ? 'tainted cluster: its bindings are examined'
        : 'cluster recovered: its eviction tasks are examined',
      {
        cluster: name,
        bindings: keys.size,
      },
    );
    return undefined;
  }

  async function allBindings(): Promise<ResourceBinding[]> {
    const [rbs, crbs] = await Promise.all([listAll(store, RESOURCE_BINDING), listAll(store, CLUSTER_RESOURCE_BINDING)]);
    return [...rbs, ...crbs] as ResourceBinding[];
  }

  async function syncBinding(
    binding: ResourceBinding,
    batch: EvictionBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const nowMs = context.now;
    const nowText = rfc3339(nowMs);
    const key = formatKey(refOf(binding));
    const aggregatedStatus = (binding.status?.aggregatedStatus ?? []) as {
      clusterName: string;
      status?: unknown;
      health?: string;
    }[];
    const carried = carriedLabelStateOf(binding.metadata.annotations);
    // Only a placed cluster with a NoExecute taint can be evicted from: only then are the fleet and the
    // namespace's quotas read, which the last-copy rule weighs a replacement on.
    const atStake = (binding.spec.clusters ?? []).some((c) =>
      batch.clusters.get(c.name)?.taints.some((t) => t.effect === 'NoExecute'),
    );
    const snapshot = atStake ? await batch.snapshot() : undefined;
    const namespace = binding.metadata.namespace;
    const quotas =
      atStake && settings.featureGates.FederatedQuotaEnforcement && namespace
        ? await batch.quotas.quotas(namespace)
        : [];
    const hasScheduled = binding.status?.schedulerObservedGeneration === binding.metadata.generation;
    const decision = decideEviction({
      spec: binding.spec,
      aggregatedStatus,
      targetWorks: await targetWorks(binding, aggregatedStatus, hasScheduled),
      appliedPlacement: appliedPlacement(binding),
      hasScheduled,
      deleting: Boolean(binding.metadata.deletionTimestamp),
      clusters: batch.clusters,
      nowMs,
      settings: {
        enabled,
        purgeModeFlag: settings.noExecuteTaintEvictionPurgeMode,
        defaultTolerationSeconds: {
          notReady: settings.defaultNotReadyTolerationSeconds,
          unreachable: settings.defaultUnreachableTolerationSeconds,
        },
        statefulFailoverInjection: settings.featureGates.StatefulFailoverInjection,
        gracefulEvictionTimeoutMs: settings.gracefulEvictionTimeoutMs,
      },
      replacementFits: (excluded) =>
        snapshot !== undefined && replacementFits(binding, excluded, snapshot, framework, quotas),
      ...(snapshot ? { stillPlaced: keptByPlacement(binding, snapshot) } : {}),
      carried,
    });

    let due = decision.due;
    let retryAtMs = decision.nextMs;
    if (due.length > 0 && !(await batch.tokens.acquire())) {
      // The fleet's eviction rate: this one waits for its turn (or, halted, for the fleet to recover).
      stats.rateLimited++;
      context.count?.(METRIC.evictionsRateLimited);
      context.logger.info('eviction waits for the fleet eviction rate', {
        binding: key,
        clusters: due.map((d) => d.cluster).join(','),
      });
      const at = batch.tokens.retryAtMs ?? nowMs + RATE_RETRY_MS;
      retryAtMs = retryAtMs === undefined ? at : Math.min(retryAtMs, at);
      due = [];
    }

    let assessment = decision.assessment;
    let nextSpec = evictedSpec(binding.spec, decision, due, nowText);
    // A recovered cluster takes its replicas back only within the namespace's quota.
    const restore = nextSpec && (await chargeRestore(binding, assessment, nextSpec, batch));
    if (restore === 'busy') return { requeueAfterMs: QUOTA_BUSY_RETRY_MS };
    if (restore && 'refused' in restore) {
      assessment = withoutRestore(binding.spec, assessment, due, nowMs, restore.refused);
      nextSpec = evictedSpec(binding.spec, { assessment }, due, nowText);
      if (assessment.nextMs !== undefined) retryAtMs = Math.min(retryAtMs ?? assessment.nextMs, assessment.nextMs);
    }
    const charged = restore && 'charged' in restore ? restore : undefined;
    const conditions = heldConditions(binding, decision.held, nowText);
    // The state a failover gave a copy outlives its task until that copy is healthy (#6232).
    const annotations = withCarriedLabelState(
      binding.metadata.annotations,
      carriedLabelState({
        before: binding.spec,
        after: nextSpec ?? binding.spec,
        carried,
        observed: aggregatedStatus,
      }),
    );
    const metadataChanged = annotations !== binding.metadata.annotations;
    if (nextSpec || conditions || metadataChanged) {
      let next: ResourceBinding = {
        ...binding,
        metadata: { ...binding.metadata, ...(annotations ? { annotations: { ...annotations } } : {}) },
        spec: nextSpec ?? binding.spec,
        status: { ...binding.status, ...(conditions ? { conditions } : {}) },
      };
      if (!annotations) delete next.metadata.annotations;
      if (charged) next = withChargedUsage(next, charged.to);
      const giveBack = () => (charged ? batch.quotas.revert(namespace ?? '', charged.charged) : Promise.resolve());
      let written: WriteAttempt<KubeObject>;
      try {
        written = await tryWrite(() =>
          nextSpec || metadataChanged
            ? store.updateWithStatus(next, { current: binding })
            : store.updateStatus(next, { current: binding }),
        );
      } catch (err) {
        await giveBack();
        // Not a lost race (that is retried at once, as the next pass may decide otherwise): say so.
        await reportFailed(binding, due, err as Error, context);
        throw err;
      }
      if (!written.ok) {
        await giveBack();
        return written.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
      }
      stats.bindingWrites++;
      if (charged?.freed && namespace) await releaseWaiters(store, options.workQueue, namespace);
      await report(binding, { ...decision, assessment }, due, conditions !== undefined, context);
      if (nextSpec) {
        // Evicted clusters are re-placed by the scheduler (which hands the binding on to the binder), and
        // so is a binding a recovered cluster took back (or was refused by the quota: its missing
        // replicas wait there for room); ended tasks and copies purged Directly let the binder remove
        // the old copies at once.
        const restored = assessment.ended.some((e) => e.why === 'recovered' || e.why === 'over-quota');
        await options.workQueue.enqueue([
          ...(due.length || restored
            ? [
                {
                  controller: SCHEDULER_CONTROLLER_NAME,
                  lane,
                  key,
                  reason: due.length ? 'evicted' : 'cluster-recovered',
                },
              ]
            : []),
          ...(binderNeededAtOnce(due, assessment)
            ? [{ controller: BINDER_CONTROLLER_NAME, lane, key, reason: due.length ? 'evicted' : 'eviction-tasks' }]
            : []),
        ]);
      }
    }
    // The end of a toleration or a grace period is a timer a user waits on: the priority lane.
    return retryAtMs === undefined
      ? undefined
      : { requeueAfterMs: Math.max(0, retryAtMs - nowMs), requeueLane: 'priority' };
  }

  /**
   * With quota enforcement, the charge for the replicas of clusters that recovered and go back into
   * `spec.clusters` (`restoredClusters`, in `restored`): their eviction gave the quota back, so taking
   * them back is charged like any placement, before the binding is written. Refused: the quota's
   * message (the caller decides without the restore, the core's `withoutRestore`); `'busy'`: the quota
   * kept changing, decide again. Undefined: nothing restored, or no quota to charge.
   */
  async function chargeRestore(
    binding: ResourceBinding,
    assessment: TaskAssessment,
    restored: ResourceBinding['spec'],
    batch: EvictionBatch,
  ): Promise<{ charged: ChargedQuota[]; to: ResourceList; freed: boolean } | { refused: string } | 'busy' | undefined> {
    const namespace = binding.metadata.namespace;
    if (!settings.featureGates.FederatedQuotaEnforcement || binding.kind !== RESOURCE_BINDING.kind || !namespace)
      return undefined;
    if (!assessment.ended.some((e) => e.why === 'recovered')) return undefined;
    if ((await batch.quotas.quotas(namespace)).length === 0) return undefined;
    const from = chargedUsageOf(binding);
    const to = chargeUntilRendered(from, usageOf(binding, restored));
    const charge = await batch.quotas.charge(namespace, from, to, binding.metadata.name ?? '');
    if (charge.ok) return { charged: charge.charged, to, freed: charge.freed };
    return charge.busy ? 'busy' : { refused: charge.message };
  }

  /**
   * The binding's Works on its target clusters, read only when they can end a task (the core's
   * `worksDecideTasks`: tasks, scheduled, every target Healthy) — a binding without a failover in
   * progress costs no read. Found through the binding's permanent id, as the binder finds them.
   */
  async function targetWorks(
    binding: ResourceBinding,
    aggregatedStatus: readonly { clusterName: string; health?: string }[],
    hasScheduled: boolean,
  ): Promise<TargetWork[]> {
    const id = bindingIdOf(binding.metadata.labels);
    if (!id || !worksDecideTasks(binding.spec, aggregatedStatus, hasScheduled)) return [];
    const targets = new Set((binding.spec.clusters ?? []).map((c) => c.name));
    return listDependentWorks(store, id, (cluster) => targets.has(cluster));
  }

  /** An eviction write that failed for a reason other than a lost race (Karmada records the same). */
  async function reportFailed(
    binding: ResourceBinding,
    due: ReturnType<typeof decideEviction>['due'],
    err: Error,
    context: ReconcileContext,
  ): Promise<void> {
    const template = templateStubOf(binding);
    for (const d of due) {
      const message = `Evict from cluster ${d.cluster} failed: ${err.message}`;
      context.logger.warn('eviction not written', {
        cluster: d.cluster,
        binding: formatKey(refOf(binding)),
        reason: 'TaintUntolerated',
        error: err.message,
      });
      await events.record(binding, 'Warning', 'EvictWorkloadFromClusterFailed', message);
      if (template) await events.record(template, 'Warning', 'EvictWorkloadFromClusterFailed', message);
    }
  }

  async function report(
    binding: ResourceBinding,
    decision: ReturnType<typeof decideEviction>,
    due: ReturnType<typeof decideEviction>['due'],
    heldChanged: boolean,
    context: ReconcileContext,
  ): Promise<void> {
    const template = templateStubOf(binding);
    const bindingKey = formatKey(refOf(binding));
    for (const d of due) {
      stats.evicted++;
      context.count?.(METRIC.evictions);
      const message = `Evict from cluster ${d.cluster} succeed: ${d.message} (purge mode ${d.purgeMode}).`;
      context.logger.info('evicted', {
        cluster: d.cluster,
        binding: bindingKey,
        reason: 'TaintUntolerated',
        purgeMode: d.purgeMode,
      });
      await events.record(binding, 'Normal', 'EvictWorkloadFromClusterSucceed', message);
      if (template) await events.record(template, 'Normal', 'EvictWorkloadFromClusterSucceed', message);
    }
    if (heldChanged) {
      for (const h of decision.held) {
        stats.held++;
        context.count?.(METRIC.evictionsHeld);
        context.logger.warn('eviction held', { cluster: h.cluster, binding: bindingKey, reason: h.reason });
        await events.record(
          binding,
          'Warning',
          'EvictionHeld',
          `Eviction from cluster ${h.cluster} held: ${h.message}.`,
        );
        if (template) {
          await events.record(
            template,
            'Warning',
            'EvictionHeld',
            `Eviction from cluster ${h.cluster} held: ${h.message}.`,
          );
        }
      }
    }
    for (const e of decision.assessment.ended) {
      stats.tasksEnded++;
      context.count?.(METRIC.evictionTasksEnded);
      const why = {
        healthy: 'every new target is healthy, so its copy there is removed',
        timeout: 'the grace period passed, so its copy there is removed',
        'suppression-lifted': 'suppressDeletion was cleared, so its copy there is removed',
        recovered: `cluster ${e.cluster} recovered while nothing healthy was placed in its stead, so it takes the workload back and keeps its copy`,
        'over-quota': `cluster ${e.cluster} recovered, but taking its replicas back would exceed the namespace's quota (${e.quota ?? 'quota exceeded'}), so its copy there is removed and the replicas are placed when the quota allows`,
      }[e.why];
      context.logger.info('eviction task ended', { cluster: e.cluster, binding: bindingKey, reason: e.why });
      const message = `Graceful eviction from cluster ${e.cluster} ended: ${why}.`;
      await events.record(binding, 'Normal', 'EvictionTaskEnded', message);
      if (template) await events.record(template, 'Normal', 'EvictionTaskEnded', message);
    }
  }
}

/** The tolerations the binding was scheduled with (Karmada reads the applied placement). */
function appliedPlacement(binding: ResourceBinding): { clusterTolerations?: Toleration[] } | undefined {
  const text = binding.metadata.annotations?.[APPLIED_PLACEMENT_ANNOTATION];
  if (text) {
    try {
      return JSON.parse(text) as { clusterTolerations?: Toleration[] };
    } catch {
      // A mangled annotation: the placement in the spec is the next best.
    }
  }
  return binding.spec.placement;
}

/** The binding's conditions with FailoverHeld set or removed, or undefined when unchanged. */
function heldConditions(
  binding: ResourceBinding,
  held: ReturnType<typeof decideEviction>['held'],
  now: string,
): Condition[] | undefined {
  const current = (binding.status?.conditions ?? []) as ApiCondition[];
  const wanted = failoverHeldCondition(held, now);
  const next = putCondition(
    current,
    FAILOVER_HELD_CONDITION,
    wanted && { status: wanted.status, reason: wanted.reason ?? '', message: wanted.message ?? '' },
    now,
  );
  return next === current ? undefined : (next as Condition[]);
}

/** What the eviction decision needs of a cluster. */
function healthView(cluster: Cluster): ClusterHealthView {
  const ready = cluster.status?.conditions?.find((c) => c.type === READY_CONDITION)?.status === 'True';
  return {
    exists: !cluster.metadata.deletionTimestamp,
    ready,
    taints: cluster.spec?.taints ?? [],
  };
}
