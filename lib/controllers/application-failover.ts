/**
 * The application failover controller (Karmada's `resource-binding-application-failover-controller`
 * and its cluster-resource-binding twin): a binding with `failover.application` leaves a cluster whose
 * copy stayed Unhealthy longer than the policy tolerates, through the same eviction tasks, state
 * preservation and last-copy rule as cluster failover (docs/failover.md).
 *
 * One reconcile of a binding key: read the binding and its stored health timers → one core decision
 * (`decideApplicationFailover`) → write the timers (an internal object per binding, so a restart or a
 * redeploy does not restart a toleration window, as it does in Karmada), then the binding (evictions
 * and the `ApplicationFailover` condition in one write) → enqueue the scheduler, binder and eviction
 * controller for an evicted binding → a delayed message for the end of the next window, so the
 * eviction happens on time even when no status event arrives.
 *
 * Keys arrive from the binder (whenever it wrote the status of a binding with `failover.application`),
 * from API writes of bindings, from its own timers, and from the resync.
 */
import { formatKey, type KubeObject, type ObjectRef, parseKey, refOf } from '../api/object.ts';
import { CLUSTER, CLUSTER_RESOURCE_BINDING, RESOURCE_BINDING } from '../api/karmada-names.ts';
import { type Condition as ApiCondition, findCondition, putCondition, rfc3339 } from '../api/conditions.ts';
import type { FailoverSettings } from '../config/failover.ts';
import {
  APPLICATION_FAILOVER_CONDITION,
  applicationFailoverOf,
  type ApplicationFailoverPass,
  applicationFailoverPass,
  buildFramework,
  carriedLabelStateOf,
  type Cluster,
  type Condition,
  type EstimatorOptions,
  hasHealthHook,
  keptByPlacement,
  type ResourceBinding,
  type Snapshot,
  templateStubOf,
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
import { listAll } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { once } from '../util/memo.ts';
import { BatchQuotas } from './quota.ts';
import { replacementFits } from './replacement.ts';
import { fleetSnapshot, loadLedger } from './reservations.ts';
import {
  APPLICATION_FAILOVER_CONTROLLER_NAME,
  BINDER_CONTROLLER_NAME,
  EVICTION_CONTROLLER_NAME,
  SCHEDULER_CONTROLLER_NAME,
} from './specs.ts';

/** Internal bookkeeping (not served by the API): a binding's first-unhealthy times, per cluster. */
export const APPLICATION_HEALTH_TIMER = { group: 'work.serverless-karmada.io', kind: 'ApplicationHealthTimer' };

/** Where a binding's timers are stored: same namespace, the binding's kind in the name. */
export function healthTimerRefOf(binding: ObjectRef): ObjectRef {
  const prefix = binding.kind === CLUSTER_RESOURCE_BINDING.kind ? 'crb' : 'rb';
  return {
    ...APPLICATION_HEALTH_TIMER,
    ...(binding.namespace ? { namespace: binding.namespace } : {}),
    name: `${prefix}.${binding.name}`,
  };
}

export interface ApplicationFailoverControllerOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  events?: EventRecorder;
  settings: FailoverSettings;
  /** The scheduler's `--plugins`, for the replacement check (default `*`). */
  plugins?: readonly string[];
  estimator?: EstimatorOptions;
}

/** What one batch shares: the clusters, read once when a replacement check needs them. */
interface FailoverBatch extends BatchScope {
  snapshot(): Promise<Snapshot>;
  /** The namespaces' FederatedResourceQuotas, read when a last copy's replacement is weighed. */
  readonly quotas: BatchQuotas;
}

/** Counters a benchmark or test can read. */
export interface ApplicationFailoverStats {
  evicted: number;
  held: number;
  windowsStarted: number;
  windowsCleared: number;
  bindingWrites: number;
  timerWrites: number;
}

export function createApplicationFailoverController(
  options: ApplicationFailoverControllerOptions,
): Controller & { stats: ApplicationFailoverStats } {
  const { store, settings } = options;
  const events = options.events ?? NO_EVENTS;
  const framework = buildFramework(options.plugins ?? ['*']);
  const stats: ApplicationFailoverStats = {
    evicted: 0,
    held: 0,
    windowsStarted: 0,
    windowsCleared: 0,
    bindingWrites: 0,
    timerWrites: 0,
  };

  function openBatch(scope: { now: number }): Promise<FailoverBatch> {
    return Promise.resolve({
      quotas: new BatchQuotas(store),
      snapshot: once(async () => {
        const [clusters, ledger] = await Promise.all([listAll(store, CLUSTER), loadLedger(store)]);
        return fleetSnapshot(clusters as Cluster[], ledger, {
          now: scope.now,
          ...(options.estimator ? { estimator: options.estimator } : {}),
        }).snapshot;
      }),
    });
  }

  return {
    name: APPLICATION_FAILOVER_CONTROLLER_NAME,
    stats,
    reconcileConcurrency: 16,
    openBatch: (scope) => openBatch(scope),
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      if (
        ref.group !== RESOURCE_BINDING.group ||
        (ref.kind !== RESOURCE_BINDING.kind && ref.kind !== CLUSTER_RESOURCE_BINDING.kind)
      )
        return undefined;
      const batch = (context.batch as FailoverBatch | undefined) ?? (await openBatch(context));
      return syncBinding(ref, batch, request.lane, context);
    },
  };

  async function syncBinding(
    ref: ObjectRef,
    batch: FailoverBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const binding = (await store.get(ref)) as ResourceBinding | undefined;
    const timerRef = healthTimerRefOf(ref);
    const behavior = binding && !binding.metadata.deletionTimestamp ? applicationFailoverOf(binding.spec) : undefined;
    // Never opted in (the resync sends every binding): nothing stored, nothing to say.
    if (
      binding &&
      !behavior &&
      !findCondition(binding.status?.conditions as ApiCondition[], APPLICATION_FAILOVER_CONDITION)
    )
      return undefined;
    const timerObject = await store.get(timerRef);
    const stored = timersOf(timerObject?.spec);
    if (!binding || !behavior) {
      // Gone, deleting, or no longer opted in: its windows end and its condition goes.
      if (timerObject) await tryWrite(() => store.delete(timerRef));
      if (binding && !binding.metadata.deletionTimestamp) await writeBinding(binding, undefined, undefined, context);
      return undefined;
    }

    const nowMs = context.now;
    const aggregatedStatus = (binding.status?.aggregatedStatus ?? []) as {
      clusterName: string;
      status?: unknown;
      health?: string;
    }[];
    // The clusters are read only when the decision may ask whether the last copy can go elsewhere.
    // The fleet and the quota are read only when some copy is Unhealthy — only then may an eviction
    // follow, and the last-copy rule needs them (which kept clusters stay placed, whether a replacement
    // fits, on the capacity the scheduler sees and within the namespace's quota).
    const atStake = aggregatedStatus.some((s) => s.health === 'Unhealthy');
    const snapshot = atStake ? await batch.snapshot() : undefined;
    const quotas =
      atStake && settings.featureGates.FederatedQuotaEnforcement && binding.metadata.namespace
        ? await batch.quotas.quotas(binding.metadata.namespace)
        : [];
    const pass = applicationFailoverPass({
      spec: binding.spec,
      clusterScoped: binding.kind === CLUSTER_RESOURCE_BINDING.kind,
      aggregatedStatus,
      timers: stored,
      nowMs,
      statefulFailoverInjection: settings.featureGates.StatefulFailoverInjection,
      hasHealthRule: hasHealthHook(binding.spec.resource),
      replacementFits: (excluded) =>
        snapshot !== undefined && replacementFits(binding, excluded, snapshot, framework, quotas),
      ...(snapshot ? { stillPlaced: keptByPlacement(binding, snapshot) } : {}),
      carried: carriedLabelStateOf(binding.metadata.annotations),
    })!;

    // The timers first: a window must be stored before anything relies on it. The window of a cluster
    // being evicted stays stored until the eviction is in the binding, so a lost race on the binding
    // does not start that window again.
    let timerNow = timerObject;
    if (!sameTimers(stored, pass.timersUntilEvicted)) {
      const written = await tryWrite(() => writeTimers(timerObject, timerRef, binding, pass.timersUntilEvicted));
      if (!written.ok && written.reason !== 'gone') return { requeueAfterMs: 0 };
      timerNow = written.ok ? written.object : undefined;
      stats.timerWrites++;
    }

    const written = await writeBinding(binding, pass.nextSpec, pass.condition, context);
    if (written === 'conflict') return { requeueAfterMs: 0 };
    if (written === 'gone') return undefined;
    if (!sameTimers(pass.timersUntilEvicted, pass.timers)) {
      // The evictions are written: their windows are over. A lost race here leaves a window of a cluster
      // that is being evicted, which the next pass clears.
      const dropped = await tryWrite(() => writeTimers(timerNow, timerRef, binding, pass.timers));
      if (dropped.ok) stats.timerWrites++;
      else if (dropped.reason !== 'gone') return { requeueAfterMs: 0 };
    }
    await report(binding, pass, written === 'written-condition', context);
    if (pass.nextSpec) {
      const key = formatKey(ref);
      await options.workQueue.enqueue([
        { controller: SCHEDULER_CONTROLLER_NAME, lane, key, reason: 'application-failover' },
        { controller: BINDER_CONTROLLER_NAME, lane, key, reason: 'application-failover' },
        { controller: EVICTION_CONTROLLER_NAME, lane, key, reason: 'application-failover' },
      ]);
    }
    // The end of a toleration window is a timer a user waits on: the priority lane.
    return pass.nextMs === undefined
      ? undefined
      : { requeueAfterMs: Math.max(0, pass.nextMs - nowMs), requeueLane: 'priority' };
  }

  /** One write of the binding: evictions in the spec and the condition, or nothing when unchanged. */
  async function writeBinding(
    binding: ResourceBinding,
    nextSpec: ResourceBinding['spec'] | undefined,
    wanted: { status: 'True' | 'False'; reason: string; message: string } | undefined,
    context: ReconcileContext,
  ): Promise<'unchanged' | 'written' | 'written-condition' | 'conflict' | 'gone'> {
    const current = (binding.status?.conditions ?? []) as ApiCondition[];
    const conditions = putCondition(current, APPLICATION_FAILOVER_CONDITION, wanted, rfc3339(context.now));
    const conditionChanged = conditions !== current;
    if (!nextSpec && !conditionChanged) return 'unchanged';
    const next: ResourceBinding = {
      ...binding,
      spec: nextSpec ?? binding.spec,
      status: { ...binding.status, conditions: conditions as Condition[] },
    };
    const written = await tryWrite(() => (nextSpec ? store.updateWithStatus(next) : store.updateStatus(next)));
    if (!written.ok) return written.reason === 'gone' ? 'gone' : 'conflict';
    stats.bindingWrites++;
    return conditionChanged ? 'written-condition' : 'written';
  }

  function writeTimers(
    existing: KubeObject | undefined,
    ref: ObjectRef,
    binding: ResourceBinding,
    timers: Readonly<Record<string, number>>,
  ): Promise<KubeObject | undefined> {
    if (Object.keys(timers).length === 0) {
      return existing ? store.delete(ref).then(() => undefined) : Promise.resolve(undefined);
    }
    const spec = {
      binding: { kind: binding.kind, name: binding.metadata.name, uid: binding.metadata.uid },
      // Millisecond precision: the window ends when it should, not up to a second early.
      unhealthySince: Object.fromEntries(Object.entries(timers).map(([c, ms]) => [c, new Date(ms).toISOString()])),
    };
    return existing
      ? store.update({ ...existing, spec })
      : store.create({
          apiVersion: `${APPLICATION_HEALTH_TIMER.group}/v1`,
          kind: APPLICATION_HEALTH_TIMER.kind,
          metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
          spec,
        });
  }

  async function report(
    binding: ResourceBinding,
    pass: ApplicationFailoverPass,
    conditionChanged: boolean,
    context: ReconcileContext,
  ): Promise<void> {
    const template = templateStubOf(binding);
    const key = formatKey(refOf(binding));
    const record = async (type: 'Normal' | 'Warning', reason: string, message: string) => {
      await events.record(binding, type, reason, message);
      if (template) await events.record(template, type, reason, message);
    };
    const { behavior } = pass;
    if (pass.inactive && conditionChanged) {
      context.logger.warn('application failover inactive', { binding: key, detail: pass.inactive.message });
      await record('Warning', 'ApplicationFailoverInactive', `${capitalize(pass.inactive.message)}.`);
    }
    for (const cluster of pass.started) {
      stats.windowsStarted++;
      context.count?.(METRIC.applicationWindowsStarted);
      const since = pass.timers[cluster];
      const at = since !== undefined ? rfc3339(since + behavior.tolerationSeconds * 1000) : 'once due';
      context.logger.info('workload unhealthy: toleration window started', { cluster, binding: key });
      await record(
        'Warning',
        'ApplicationUnhealthy',
        `The workload on cluster ${cluster} is Unhealthy: it is evicted at ${at} (tolerationSeconds ${behavior.tolerationSeconds}) unless it becomes Healthy.`,
      );
    }
    for (const cluster of pass.cleared) {
      stats.windowsCleared++;
      context.count?.(METRIC.applicationWindowsCleared);
      context.logger.info('workload no longer unhealthy: toleration window ended', { cluster, binding: key });
      await record(
        'Normal',
        'ApplicationRecovered',
        `The workload on cluster ${cluster} is no longer Unhealthy: it is not evicted.`,
      );
    }
    for (const d of pass.due) {
      stats.evicted++;
      context.count?.(METRIC.evictions);
      context.logger.info('evicted', {
        cluster: d.cluster,
        binding: key,
        reason: d.options.reason,
        purgeMode: d.options.purgeMode,
      });
      await record(
        'Normal',
        'EvictWorkloadFromClusterSucceed',
        `Evict from cluster ${d.cluster} succeed: ${d.message} (reason ApplicationFailure, purge mode ${d.options.purgeMode}).`,
      );
    }
    if (conditionChanged) {
      for (const h of pass.held) {
        stats.held++;
        context.count?.(METRIC.evictionsHeld);
        context.logger.warn('eviction held', { cluster: h.cluster, binding: key, reason: h.reason });
        await record('Warning', 'EvictionHeld', `Eviction from cluster ${h.cluster} held: ${h.message}.`);
      }
    }
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The stored first-unhealthy times (ms since epoch); anything unreadable is dropped. */
function timersOf(spec: unknown): Record<string, number> {
  const since = (spec as { unhealthySince?: unknown } | undefined)?.unhealthySince;
  const out: Record<string, number> = {};
  if (since === null || typeof since !== 'object') return out;
  for (const [cluster, text] of Object.entries(since as Record<string, unknown>)) {
    const ms = typeof text === 'string' ? Date.parse(text) : NaN;
    if (Number.isFinite(ms)) out[cluster] = ms;
  }
  return out;
}

function sameTimers(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
