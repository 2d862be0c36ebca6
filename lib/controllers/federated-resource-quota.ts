/**
 * The FederatedResourceQuota controller (Karmada's federated-resource-quota sync, status and
 * enforcement controllers, on one key):
 * - `status.overall` = `spec.overall`;
 * - `status.overallUsed`: with `FederatedQuotaEnforcement` (on by default here), recomputed from the
 *   namespace's bindings — what each has been charged (the scheduler charges placements as they are
 *   written, see quota.ts) — on quota create/change and every sync period (the sweep), and kept as
 *   stored when only a member's ResourceQuota reported (no namespace listing per report, Karmada
 *   #6836); without it, the sum of the members' ResourceQuota usage, as Karmada does;
 * - `spec.staticAssignments` become a ResourceQuota in each named member through Works, and the
 *   members' ResourceQuota status comes back as `status.aggregatedStatus`;
 * - when a limit rises or usage drops, the bindings held for quota go to the scheduler at once.
 */
import { FEDERATED_RESOURCE_QUOTA, RESOURCE_BINDING } from '../api/karmada-names.ts';
import { clusterOfExecutionNamespace } from '../api/karmada-names.ts';
import { formatKey, type KubeObject, type ObjectRef, parseKey, refOf } from '../api/object.ts';
import {
  addResourceLists,
  chargedUsageOf,
  chargesInFlightOf,
  type ClusterQuotaStatus,
  quotaAggregatedStatus,
  recountOverallUsed,
  type ResourceBinding,
  type ResourceList,
  staticAssignmentWorks,
  staticWorkChanged,
  withChargesInFlight,
} from '../core/index.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import { listAll, listDependentWorks } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite, updateLatest } from '../store/write.ts';
import { deepEqual } from '../util/json.ts';
import { releaseWaiters } from './quota.ts';
import { EXECUTOR_CONTROLLER_NAME, FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME, SWEEP_KEY } from './specs.ts';

/**
 * The reason the executor gives when a static assignment's Work reports its member ResourceQuota: on
 * its own, it changes `aggregatedStatus` only.
 */
export const MEMBER_QUOTA_REPORT_REASON = 'work-status';

/** Only members' ResourceQuota reports brought the key (not a quota change, the sweep or a retry). */
function memberReportsOnly(request: ReconcileRequest): boolean {
  return request.reasons.length > 0 && request.reasons.every((r) => r === MEMBER_QUOTA_REPORT_REASON);
}

/** Conflicting writes a status refresh re-reads the quota after before it leaves the key to a retry. */
const REFRESH_ATTEMPTS = 8;

export interface FederatedResourceQuotaControllerOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  events?: EventRecorder;
  /** The `FederatedQuotaEnforcement` gate (default on). */
  enforcement?: boolean;
}

/** The status fields this controller writes. */
interface QuotaStatus {
  overall?: ResourceList;
  overallUsed?: ResourceList;
  aggregatedStatus?: unknown[];
}

export function createFederatedResourceQuotaController(options: FederatedResourceQuotaControllerOptions): Controller {
  const { store } = options;
  const events = options.events ?? NO_EVENTS;
  const enforcement = options.enforcement ?? true;

  return {
    name: FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME,
    reconcileConcurrency: 8,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      if (request.key === SWEEP_KEY) {
        // The sync period: every quota is recomputed (a charge whose binding write never came, a
        // binding deleted while the control plane was down).
        const quotas = await listAll(store, FEDERATED_RESOURCE_QUOTA);
        await options.workQueue.enqueue(
          quotas.map((q) => ({
            controller: FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME,
            lane: 'standard' as const,
            key: formatKey(refOf(q)),
            reason: 'sync-period',
          })),
        );
        return undefined;
      }
      const ref = parseKey(request.key);
      if (ref.group !== FEDERATED_RESOURCE_QUOTA.group || ref.kind !== FEDERATED_RESOURCE_QUOTA.kind) return undefined;
      return syncQuota(ref, request, context);
    },
  };

  async function syncQuota(
    ref: ObjectRef,
    request: ReconcileRequest,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const namespace = ref.namespace ?? '';
    const frq = await store.get(ref);
    if (!frq || frq.metadata.deletionTimestamp) {
      // Gone: its limits are gone too (its Works follow it through their owner reference).
      await releaseWaiters(store, options.workQueue, namespace);
      return undefined;
    }
    const works = await syncStaticAssignments(frq, request, context);
    const aggregatedStatus = quotaAggregatedStatus(works);
    if (enforcement && memberReportsOnly(request) && (frq.status as QuotaStatus | undefined)?.overallUsed) {
      return refreshAggregatedStatus(frq, aggregatedStatus, context);
    }
    const overall = ((frq.spec as { overall?: ResourceList } | undefined)?.overall ?? {}) as ResourceList;
    let overallUsed: ResourceList;
    let inFlight = chargesInFlightOf(frq);
    if (enforcement) {
      // Every binding still holds its charge until the binder gives it back, deleting or not; a charge
      // in flight (read with the quota, before the listing) counts until its binding shows it.
      const bindings = (await listAll(store, { ...RESOURCE_BINDING, namespace })) as ResourceBinding[];
      ({ overallUsed, inFlight } = recountOverallUsed({
        overall,
        bindings: bindings.map((b) => ({ name: b.metadata.name ?? '', charged: chargedUsageOf(b) })),
        inFlight,
        now: context.now,
      }));
    } else {
      overallUsed = aggregatedStatus.reduce<ResourceList>((sum, s) => addResourceLists(sum, s.used ?? {}), {});
    }
    const previous = (frq.status ?? {}) as QuotaStatus;
    const { aggregatedStatus: _stale, ...kept } = previous;
    const status = { ...kept, overall, overallUsed, ...(aggregatedStatus.length ? { aggregatedStatus } : {}) };
    const settled = !deepEqual(inFlight, chargesInFlightOf(frq));
    if (!deepEqual(status, previous) || settled) {
      // One conditional write of the quota as read: a charge made since conflicts, and is recounted.
      const written = await tryWrite(() => store.updateWithStatus(withChargesInFlight({ ...frq, status }, inFlight)));
      if (!written.ok) return written.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
      context.logger.info('quota status updated', {
        quota: formatKey(ref),
        overallUsed: JSON.stringify(overallUsed),
      });
    }
    // A limit raised or usage lowered: what waits for quota in the namespace may fit now.
    if (!deepEqual(previous.overall ?? {}, overall) || !deepEqual(previous.overallUsed ?? {}, overallUsed)) {
      const released = await releaseWaiters(store, options.workQueue, namespace);
      if (released > 0) context.logger.info('quota changed: held bindings retried', { bindings: released });
    }
    return undefined;
  }

  /**
   * A member's ResourceQuota reported, nothing else: `aggregatedStatus` (and `overall`) follow, and
   * `overallUsed` stays what the charges left it — the namespace's bindings are not listed. A
   * concurrent charge is re-read, not left to a retry (which would recount).
   */
  async function refreshAggregatedStatus(
    frq: KubeObject,
    aggregatedStatus: ClusterQuotaStatus[],
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    let raised = false;
    const written = await updateLatest(
      store,
      frq,
      (current) => {
        const previous = (current.status ?? {}) as QuotaStatus;
        const overall = ((current.spec as { overall?: ResourceList } | undefined)?.overall ?? {}) as ResourceList;
        const { aggregatedStatus: _stale, ...kept } = previous;
        const status = { ...kept, overall, ...(aggregatedStatus.length ? { aggregatedStatus } : {}) };
        raised = !deepEqual(previous.overall ?? {}, overall);
        return deepEqual(status, previous) ? undefined : { ...current, status };
      },
      { write: 'updateStatus', attempts: REFRESH_ATTEMPTS },
    );
    if (written.status === 'conflict') return { requeueAfterMs: 0 };
    if (written.status === 'written')
      context.logger.info('quota aggregated status updated', { quota: formatKey(refOf(frq)) });
    if (raised && written.status === 'written') {
      const released = await releaseWaiters(store, options.workQueue, frq.metadata.namespace ?? '');
      if (released > 0) context.logger.info('quota changed: held bindings retried', { bindings: released });
    }
    return undefined;
  }

  /** Creates, updates and deletes the quota's static-assignment Works; returns the current ones. */
  async function syncStaticAssignments(
    frq: KubeObject,
    request: ReconcileRequest,
    context: ReconcileContext,
  ): Promise<{ cluster: string; work: KubeObject }[]> {
    const wanted = staticAssignmentWorks(frq);
    const existing = frq.metadata.uid ? (await listDependentWorks(store, frq.metadata.uid)).map((w) => w.work) : [];
    const changed: ObjectRef[] = [];
    const current: { cluster: string; work: KubeObject }[] = [];
    for (const want of wanted) {
      const cluster = clusterOfExecutionNamespace(want.metadata.namespace)!;
      const have = existing.find((w) => w.metadata.namespace === want.metadata.namespace);
      if (!staticWorkChanged(want, have)) {
        current.push({ cluster, work: have! });
        continue;
      }
      const written = await tryWrite(() =>
        have
          ? store.update({
              ...have,
              metadata: { ...have.metadata, labels: want.metadata.labels },
              spec: want['spec'],
            } as KubeObject)
          : store.create(want),
      );
      if (written.ok) {
        changed.push(refOf(written.object));
        current.push({ cluster, work: written.object });
      } else if (have) current.push({ cluster, work: have });
    }
    for (const have of existing) {
      if (wanted.some((w) => w.metadata.namespace === have.metadata.namespace)) continue;
      if (have.metadata.deletionTimestamp) continue;
      if ((await tryWrite(() => store.delete(refOf(have)))).ok) changed.push(refOf(have));
    }
    if (changed.length > 0) {
      await options.workQueue.enqueue(
        changed.map((r) => ({
          controller: EXECUTOR_CONTROLLER_NAME,
          lane: request.lane,
          key: formatKey(r),
          reason: 'quota',
        })),
      );
      context.logger.info('static assignments synced', { works: changed.length });
      await events.record(
        frq,
        'Normal',
        'SyncWorkSucceed',
        `Sync the ResourceQuota of FederatedResourceQuota(${frq.metadata.namespace}/${frq.metadata.name}) to ${wanted.length} cluster(s).`,
      );
    }
    return current;
  }
}
