/**
 * The scheduler controller (Karmada's `karmada-scheduler`): places ResourceBindings and
 * ClusterResourceBindings on member clusters.
 *
 * - A batch of binding keys is decided on **one snapshot** of the clusters and the reservation ledger
 *   (read once per batch); no member is called — estimates come from stored cluster status.
 * - Each scheduled binding is written **once** (`spec.clusters`, the applied-placement annotation and
 *   the `Scheduled` condition, `schedulerObservedGeneration`, `lastScheduledTime` together).
 * - Capacity a result takes is reserved in the ledger (lib/controllers/reservations.ts) before the
 *   binding is written, so concurrent batches cannot over-commit a cluster (Karmada #6783).
 * - Bindings that failed (`Scheduled=False`) are retried when capacity or clusters change (a cluster
 *   key or the `unschedulable` key fans out to them) and by a sweep every minute (Karmada #3112).
 * - Events `ScheduleBindingSucceed` / `ScheduleBindingFailed` are recorded on the binding and on its
 *   resource template, as Karmada does.
 */
import { CLUSTER, CLUSTER_RESOURCE_BINDING, RESOURCE_BINDING } from '../api/karmada-names.ts';
import {
  chargeCovers,
  chargedUsageOf,
  chargeUntilRendered,
  QUOTA_EXCEEDED_REASON,
  releasableSurplus,
  type ResourceList,
  usageOf,
  wasHeldForQuota,
  withChargedUsage,
} from '../core/quota/index.ts';
import type { ObjectRef } from '../api/object.ts';
import { formatKey, parseKey, refOf } from '../api/object.ts';
import type { EstimatorOptions } from '../core/scheduler/estimate.ts';
import { buildFramework } from '../core/scheduler/plugins/registry.ts';
import { DEFAULT_SCHEDULER_NAME, isSchedulable, scheduleTrigger } from '../core/scheduler/reschedule.ts';
import {
  affectedByCluster,
  reservationBeyond,
  resultBinding,
  SCHEDULE_SUCCESS_MESSAGE,
  schedulingFailed,
  templateStubOf,
} from '../core/scheduler/result.ts';
import { schedulingOrder, schedulingPriority } from '../core/scheduler/priority.ts';
import { workloadPeersOf } from '../core/scheduler/workload-peers.ts';
import { keepPlacement, scheduleBinding, type ScheduleResult } from '../core/scheduler/schedule.ts';
import { keptGrowth, recordReservedRequest } from '../core/scheduler/growth.ts';
import { applyDelta, type ReservationDelta, type Snapshot } from '../core/scheduler/snapshot.ts';
import type { Cluster, ResourceBinding } from '../core/model/types.ts';
import { noExecuteTaints } from '../core/eviction/index.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import type { WorkQueue } from '../queue/port.ts';
import type {
  BatchScope,
  Controller,
  ReconcileContext,
  ReconcileRequest,
  ReconcileResult,
} from '../reconcile/controller.ts';
import { listAll } from '../store/list-all.ts';
import { memoize } from '../util/memo.ts';
import { PriorityGate } from '../util/priority-gate.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { BatchLedger, DEFAULT_RESERVATION_TTL_MS, fleetSnapshot, loadLedger } from './reservations.ts';
import { addWaiter, BatchQuotas, type ChargedQuota, releaseWaiters, removeWaiter } from './quota.ts';
import {
  BINDER_CONTROLLER_NAME,
  EVICTION_CONTROLLER_NAME,
  SCHEDULER_CONTROLLER_NAME,
  SWEEP_KEY,
  UNSCHEDULABLE_KEY,
} from './specs.ts';

/** How many times a binding is decided again when the ledger refuses its reservation. */
const LEDGER_ATTEMPTS = 3;

export interface SchedulerOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  events?: EventRecorder;
  /** Karmada `--scheduler-name` (default `default-scheduler`). */
  schedulerName?: string;
  /** Karmada `--plugins` (default `*`). */
  plugins?: readonly string[];
  estimator?: EstimatorOptions;
  /** Karmada `--enable-empty-workload-propagation`. */
  enableEmptyWorkloadPropagation?: boolean;
  reservationTtlMs?: number;
  /** Wall clock for the ledger's expiry (defaults to Date.now). */
  now?: () => number;
  /** The `FederatedQuotaEnforcement` gate: placements are charged to the namespace's quotas (default on). */
  quotaEnforcement?: boolean;
}

/** What one scheduler batch shares (the batch scope `context.batch`). */
export interface SchedulerBatch extends BatchScope {
  readonly snapshot: Snapshot;
  /** The namespaces' FederatedResourceQuotas, as this batch's charges leave them. */
  readonly quotas: BatchQuotas;
  readonly ledger: BatchLedger;
  /** The batch's bindings as read when it opened (used by each key's first attempt). */
  readonly prefetched?: Map<string, ResourceBinding | undefined>;
  /** Higher `schedulePriority` decides (and takes capacity) before lower, within the batch. */
  readonly gate?: PriorityGate;
  /**
   * Results decided in this batch for bindings in a workload (anti-)affinity group, by `namespace/name`:
   * a peer decided a moment ago counts before its write is read back (Karmada's assigning bindings).
   */
  readonly assigning: Map<string, ResourceBinding>;
  /** The ResourceBindings of a namespace, listed once per batch for the workload affinity filters. */
  readonly namespaceBindings: (namespace: string) => Promise<ResourceBinding[]>;
}

/** Counters a benchmark or test can read. */
export interface SchedulerStats {
  scheduled: number;
  failed: number;
  bindingWrites: number;
  ledgerWrites: number;
  ledgerConflicts: number;
  batches: number;
}

export function createSchedulerController(options: SchedulerOptions): Controller & { stats: SchedulerStats } {
  const { store } = options;
  const framework = buildFramework(options.plugins ?? ['*']);
  const events = options.events ?? NO_EVENTS;
  const now = options.now ?? Date.now;
  const schedulerName = options.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  const quotaEnforcement = options.quotaEnforcement ?? true;
  const stats: SchedulerStats = {
    scheduled: 0,
    failed: 0,
    bindingWrites: 0,
    ledgerWrites: 0,
    ledgerConflicts: 0,
    batches: 0,
  };

  async function openBatch(batch?: { keys: readonly string[] }): Promise<SchedulerBatch> {
    const at = now();
    const ttlMs = options.reservationTtlMs ?? DEFAULT_RESERVATION_TTL_MS;
    // Binding keys only: the batch may also hold the sweep and unschedulable keys, and cluster keys.
    const bindingKeys = (batch?.keys ?? []).filter(
      (k) => k !== SWEEP_KEY && k !== UNSCHEDULABLE_KEY && isBindingKey(k),
    );
    const [clusters, item, bindings] = await Promise.all([
      listAll(store, CLUSTER),
      loadLedger(store),
      Promise.all(bindingKeys.map(async (k) => (await store.get(parseKey(k))) as ResourceBinding | undefined)),
    ]);
    const prefetched = new Map(bindingKeys.map((k, i) => [k, bindings[i]]));
    const priorityOf = (key: string) => schedulingPriority(prefetched.get(key));
    const { snapshot, shown } = fleetSnapshot(clusters as Cluster[], item, {
      now: at,
      ttlMs,
      ...(options.estimator ? { estimator: options.estimator } : {}),
    });
    const ledger = new BatchLedger({
      store,
      snapshot,
      item,
      ttlMs,
      now,
      shown,
    });
    stats.batches++;
    const mixed = new Set(bindingKeys.map(priorityOf)).size > 1;
    return {
      snapshot,
      ledger,
      prefetched,
      assigning: new Map(),
      namespaceBindings: memoize(
        (namespace) => listAll(store, { ...RESOURCE_BINDING, namespace }) as Promise<ResourceBinding[]>,
      ),
      quotas: new BatchQuotas(store, now),
      ...(mixed
        ? { order: schedulingOrder(batch!.keys, priorityOf), gate: new PriorityGate(bindingKeys.map(priorityOf)) }
        : {}),
      async close() {
        stats.ledgerWrites += ledger.writes;
        stats.ledgerConflicts += ledger.conflicts;
      },
    };
  }

  return {
    name: SCHEDULER_CONTROLLER_NAME,
    stats,
    // Decisions take microseconds; a key waits on one read and one write. More keys in flight per batch
    // also coalesce more reservations into each ledger write.
    reconcileConcurrency: 32,
    openBatch,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      if (request.key === SWEEP_KEY || request.key === UNSCHEDULABLE_KEY) {
        await retryFailed(options, request.key, context);
        return undefined;
      }
      const ref = parseKey(request.key);
      if (ref.group === CLUSTER.group && ref.kind === CLUSTER.kind) {
        await fanOutForCluster(options, ref.name, context);
        return undefined;
      }
      if (ref.group !== RESOURCE_BINDING.group) return undefined;
      const scope = (context.batch as SchedulerBatch | undefined) ?? (await openBatch());
      const handOn = { binder: false };
      const priority = schedulingPriority(scope.prefetched?.get(request.key));
      let result: ReconcileResult | undefined;
      await scope.gate?.wait(priority);
      try {
        result = await scheduleKey(ref, scope, request, context, handOn);
      } finally {
        scope.gate?.release(priority);
      }
      // A new result (placed, or the reason it could not be), or a binding whose generation moved with
      // the placement kept (a template edit), is the binder's to render: every edit goes detector →
      // scheduler → binder, once. Nothing to hand on for a repeated message.
      if (handOn.binder)
        await options.workQueue.enqueue([
          { controller: BINDER_CONTROLLER_NAME, lane: request.lane, key: request.key, reason: 'scheduled' },
        ]);
      return result;
    },
  };

  async function scheduleKey(
    ref: ObjectRef,
    scope: SchedulerBatch,
    request: ReconcileRequest,
    context: ReconcileContext,
    handOn: { binder: boolean },
  ): Promise<ReconcileResult | undefined> {
    // What earlier attempts of this key put in the ledger before their binding write conflicted.
    let held: ReservationDelta[] = [];
    for (let attempt = 1; attempt <= LEDGER_ATTEMPTS; attempt++) {
      const first = attempt === 1 && scope.prefetched?.has(request.key);
      const binding = first
        ? scope.prefetched!.get(request.key)
        : ((await store.get(ref)) as ResourceBinding | undefined);
      if (!binding) return undefined;
      if (!isSchedulable(binding, schedulerName)) {
        // Placed by another scheduler (or not at all): the binder still renders what the edit changed.
        handOn.binder = (binding.spec.clusters?.length ?? 0) > 0;
        return undefined;
      }
      // A decrease the binder has now rendered: the quota gets the room back first.
      const released = await releaseRendered(binding, scope, context);
      if (released === 'busy') return { requeueAfterMs: 1_000 };
      if (released === 'gone') return undefined;
      if (released !== undefined) continue; // written, or a lost race: on with the binding as it now is
      const trigger = scheduleTrigger(binding, scope.snapshot);
      // Requests raised on a kept placement (no trigger of Karmada's) still need their usage charged:
      // the binder does not roll out what the quota was not charged for.
      const uncharged =
        !trigger &&
        quotaEnforcement &&
        binding.kind === RESOURCE_BINDING.kind &&
        (binding.spec.clusters?.length ?? 0) > 0 &&
        !chargeCovers(binding);
      if (!trigger && !uncharged) {
        if (binding.status?.schedulerObservedGeneration === binding.metadata.generation) return undefined;
        // The placement stands. Requests raised by the edit take more room on its clusters once rolled
        // out: that growth is reserved before the binder is handed the edit.
        const growth = keptGrowth(binding);
        if (growth.length > 0) {
          for (const d of growth) applyDelta(scope.snapshot, d);
          const more = reservationBeyond(growth, held);
          if (!(await scope.ledger.commit(more))) {
            context.logger.info('capacity taken by a concurrent scheduler; reserving again', { attempt });
            continue;
          }
          held = [...held, ...more];
        }
        const recorded = recordReservedRequest(binding);
        const next = {
          ...recorded,
          status: { ...binding.status, schedulerObservedGeneration: binding.metadata.generation },
        };
        const observed = await tryWrite(() =>
          recorded === binding
            ? store.updateStatus(next, { current: binding })
            : store.updateWithStatus(next, { current: binding }),
        );
        // What changed (the template) is the binder's to render.
        handOn.binder = observed.ok;
        if (!observed.ok && observed.reason === 'conflict') {
          for (const d of growth) applyDelta(scope.snapshot, d, -1);
          continue;
        }
        return undefined;
      }
      // Workload affinity: the namespace's bindings (listed once per batch), this batch's decisions over them.
      const workloadPeers = binding.spec.workloadAffinityGroups
        ? workloadPeersOf(binding, await scope.namespaceBindings(binding.metadata.namespace ?? ''), scope.assigning)
        : undefined;
      const result: ScheduleResult = uncharged
        ? keepPlacement(binding, scope.snapshot)
        : scheduleBinding(binding, scope.snapshot, framework, {
            enableEmptyWorkloadPropagation: options.enableEmptyWorkloadPropagation ?? false,
            ...(workloadPeers ? { workloadPeers } : {}),
          });
      if (result.outcome.ok && binding.spec.workloadAffinityGroups) {
        // Recorded before any await, so a peer decided next in this batch sees it.
        scope.assigning.set(`${binding.metadata.namespace ?? ''}/${binding.metadata.name ?? ''}`, {
          ...binding,
          spec: { ...binding.spec, clusters: result.outcome.value.clusters },
        });
      }
      // FederatedResourceQuota: the placement's usage is charged before anything else is written.
      const quota = await chargePlacement(binding, result, scope, context);
      if (quota === 'held') return undefined;
      if (quota === 'busy') return { requeueAfterMs: 1_000 };
      const reserved = result.outcome.ok ? result.outcome.value.reserved : (result.reservedOnFailure ?? []);
      if (reserved.length > 0) {
        const more = reservationBeyond(reserved, held);
        const accepted = await scope.ledger.commit(more);
        if (!accepted) {
          context.logger.info('capacity taken by a concurrent scheduler; deciding again', { attempt });
          if (quota) await scope.quotas.revert(binding.metadata.namespace ?? '', quota.charged);
          continue;
        }
        held = [...held, ...more];
      }
      const decided = resultBinding(binding, result, context.now);
      const next = quota && decided ? withChargedUsage(decided, quota.to) : decided;
      if (!next) {
        // Nothing to write: whatever was charged for this decision goes back.
        if (quota) await scope.quotas.revert(binding.metadata.namespace ?? '', quota.charged);
        return undefined;
      }
      const stored = await tryWrite(() => store.updateWithStatus(next, { current: binding }));
      if (!stored.ok) {
        if (quota) await scope.quotas.revert(binding.metadata.namespace ?? '', quota.charged);
        if (stored.reason === 'gone') return undefined;
        // Decide again on the binding as it now is, with this attempt's capacity free again in the
        // snapshot (it stays in the ledger: the next attempt reserves only what it needs beyond it).
        for (const d of reserved) applyDelta(scope.snapshot, d, -1);
        continue;
      }
      stats.bindingWrites++;
      handOn.binder = true;
      if (quota?.freed && binding.metadata.namespace)
        await releaseWaiters(store, options.workQueue, binding.metadata.namespace);
      if (wasHeldForQuota(binding) && result.outcome.ok)
        await removeWaiter(store, binding.metadata.namespace ?? '', formatKey(refOf(binding)));
      // Placed on a cluster with a NoExecute taint it tolerates for a while: the eviction controller
      // sets the timer that moves it when the toleration ends.
      const tainted = (next.spec.clusters ?? []).some(
        (c) => noExecuteTaints(scope.snapshot.byName.get(c.name)?.cluster.spec?.taints).length > 0,
      );
      if (tainted) {
        await options.workQueue.enqueue([
          { controller: EVICTION_CONTROLLER_NAME, lane: request.lane, key: request.key, reason: 'placed-on-tainted' },
        ]);
      }
      await report(binding, result, trigger ?? 'QuotaCharge', context);
      return undefined;
    }
    return { requeueAfterMs: 1_000 };
  }

  /**
   * Charges a successful placement's usage change to the namespace's quotas (Karmada's RB validating
   * webhook under `FederatedQuotaEnforcement`). Over a limit: the binding keeps its placement and gets
   * `Scheduled=False`/`QuotaExceeded` with Karmada's message, an event on it, its template and the quota,
   * and waits in the namespace's waitlist — `'held'`. Nothing to charge: undefined.
   */
  async function chargePlacement(
    binding: ResourceBinding,
    result: ScheduleResult,
    scope: SchedulerBatch,
    context: ReconcileContext,
  ): Promise<{ charged: ChargedQuota[]; to: ResourceList; freed: boolean } | 'held' | 'busy' | undefined> {
    const namespace = binding.metadata.namespace;
    if (!quotaEnforcement || binding.kind !== RESOURCE_BINDING.kind || !namespace) return undefined;
    // A failed decision keeps the placement, but the binding's new per-replica requests are rendered
    // onto it all the same: that usage is charged too (found by the deterministic simulation: a
    // request raised while the scale-up did not fit reached the members uncharged).
    const clusters = result.outcome.ok ? result.outcome.value.clusters : binding.spec.clusters;
    if (!result.outcome.ok && !clusters?.length) return undefined;
    const quotas = await scope.quotas.quotas(namespace);
    if (quotas.length === 0) return undefined;
    const from = chargedUsageOf(binding);
    // A decrease stays charged until the binder has rendered it (releaseRendered gives it back then).
    const to = chargeUntilRendered(from, usageOf(binding, { ...binding.spec, clusters }));
    const charge = await scope.quotas.charge(namespace, from, to, binding.metadata.name ?? '');
    if (charge.ok) return { charged: charge.charged, to, freed: charge.freed };
    if (charge.busy) return 'busy';
    // Held: nothing is rolled out, so nothing is recorded as reserved (no reservedOnFailure).
    const failed = resultBinding(
      binding,
      {
        ...result,
        reservedOnFailure: undefined,
        outcome: { ok: false, failure: { reason: QUOTA_EXCEEDED_REASON, message: charge.message } },
      } as ScheduleResult,
      context.now,
    );
    if (failed) await tryWrite(() => store.updateWithStatus(failed, { current: binding }));
    await addWaiter(store, namespace, formatKey(refOf(binding)));
    stats.failed++;
    context.logger.info('placement held for quota', { quota: formatKey(charge.quota), detail: charge.message });
    const template = templateStubOf(binding);
    await events.record(binding, 'Warning', 'ScheduleBindingFailed', charge.message);
    if (template) await events.record(template, 'Warning', 'ScheduleBindingFailed', charge.message);
    const frq = quotas.find((q) => q.metadata.name === charge.quota.name);
    if (frq) {
      await events.record(
        frq,
        'Warning',
        QUOTA_EXCEEDED_REASON,
        `ResourceBinding(${namespace}/${binding.metadata.name}) is held: ${charge.message}`,
      );
    }
    return 'held';
  }

  /**
   * Gives a binding's quotas back what it is charged beyond its spec's usage, once the binder has
   * rendered its Works for this generation (the core's `releasableSurplus`): the quotas first (a
   * decrease, always admitted), then the binding's record, conditional on the copy read; a lost race
   * gives the quotas their charge back. Waiters of the namespace are released when room was freed.
   * Undefined: nothing to give back.
   */
  async function releaseRendered(
    binding: ResourceBinding,
    scope: SchedulerBatch,
    context: ReconcileContext,
  ): Promise<'released' | 'conflict' | 'gone' | 'busy' | undefined> {
    const namespace = binding.metadata.namespace;
    if (!quotaEnforcement || binding.kind !== RESOURCE_BINDING.kind || !namespace) return undefined;
    const to = releasableSurplus(binding);
    if (!to) return undefined;
    const quotas = await scope.quotas.quotas(namespace);
    let charged: ChargedQuota[] = [];
    let freed = false;
    if (quotas.length > 0) {
      const charge = await scope.quotas.charge(namespace, chargedUsageOf(binding), to, binding.metadata.name ?? '');
      if (!charge.ok) return 'busy';
      charged = charge.charged;
      freed = charge.freed;
    }
    const written = await tryWrite(() => store.update(withChargedUsage(binding, to), { current: binding }));
    if (!written.ok) {
      await scope.quotas.revert(namespace, charged);
      return written.reason === 'gone' ? 'gone' : 'conflict';
    }
    context.logger.info('rendered decrease given back to the quota', { usage: JSON.stringify(to) });
    if (freed) await releaseWaiters(store, options.workQueue, namespace);
    return 'released';
  }

  async function report(
    binding: ResourceBinding,
    result: ScheduleResult,
    trigger: string,
    context: ReconcileContext,
  ): Promise<void> {
    const template = templateStubOf(binding);
    if (result.outcome.ok) {
      stats.scheduled++;
      const targets = result.outcome.value.clusters
        .map((t) => (t.replicas === undefined ? t.name : `${t.name}:${t.replicas}`))
        .join(', ');
      context.logger.info('binding scheduled', { trigger, clusters: targets });
      await events.record(binding, 'Normal', 'ScheduleBindingSucceed', SCHEDULE_SUCCESS_MESSAGE);
      if (template) await events.record(template, 'Normal', 'ScheduleBindingSucceed', SCHEDULE_SUCCESS_MESSAGE);
      return;
    }
    stats.failed++;
    const { reason, message } = result.outcome.failure;
    context.logger.info('binding not schedulable', { trigger, reason, detail: message });
    await events.record(binding, 'Warning', 'ScheduleBindingFailed', message);
    if (template) await events.record(template, 'Warning', 'ScheduleBindingFailed', message);
  }
}

async function allBindings(store: ObjectStore): Promise<ResourceBinding[]> {
  const [rbs, crbs] = await Promise.all([listAll(store, RESOURCE_BINDING), listAll(store, CLUSTER_RESOURCE_BINDING)]);
  return [...rbs, ...crbs] as ResourceBinding[];
}

/** Capacity may have appeared (sweep, or a cluster's summary changed): retry every failed binding. */
async function retryFailed(options: SchedulerOptions, key: string, context: ReconcileContext): Promise<void> {
  const failed = (await allBindings(options.store)).filter(schedulingFailed);
  if (failed.length === 0) return;
  context.logger.info('retrying bindings that could not be scheduled', { bindings: failed.length, via: key });
  await requeue(options.workQueue, failed, 'retry-unschedulable');
}

/**
 * Sends bindings back to the scheduler's standard queue, highest `schedulePriority` first (Karmada #7814:
 * bindings whose backoff expired re-enter the queue in priority order).
 */
function requeue(workQueue: WorkQueue, bindings: readonly ResourceBinding[], reason: string): Promise<void> {
  const byKey = new Map(bindings.map((b) => [formatKey(refOf(b)), b]));
  const order = schedulingOrder([...byKey.keys()], (k) => schedulingPriority(byKey.get(k)));
  return workQueue.enqueue(
    order
      .map((k) => byKey.get(k)!)
      .map((b) => ({
        controller: SCHEDULER_CONTROLLER_NAME,
        lane: 'standard' as const,
        key: formatKey(refOf(b)),
        reason,
      })),
  );
}

/** A cluster was added, changed or is being deleted: the bindings it may matter to are decided again. */
async function fanOutForCluster(options: SchedulerOptions, cluster: string, context: ReconcileContext): Promise<void> {
  const affected = (await allBindings(options.store)).filter((b) => affectedByCluster(b, cluster));
  if (affected.length === 0) return;
  context.logger.info('cluster changed; re-examining bindings', { cluster, bindings: affected.length });
  await requeue(options.workQueue, affected, `cluster:${cluster}`);
}

/** True for a ResourceBinding or ClusterResourceBinding key; false for anything else, malformed included. */
function isBindingKey(key: string): boolean {
  try {
    const ref = parseKey(key);
    return (
      ref.group === RESOURCE_BINDING.group &&
      (ref.kind === RESOURCE_BINDING.kind || ref.kind === CLUSTER_RESOURCE_BINDING.kind)
    );
  } catch {
    return false;
  }
}
