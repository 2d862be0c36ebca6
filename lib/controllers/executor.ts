/**
 * The executor (Karmada's execution controller and work status controller, Push clusters): makes each
 * Work real on its member cluster and reports what the member did.
 *
 * - A Work key: apply its manifests by server-side apply (field manager `execution-controller`),
 *   refusing to adopt an object Karmada does not manage under `conflictResolution: Abort`; write the
 *   `Applied` condition (the member's error message when it fails) and the manifests' status and
 *   health. A deleting Work deletes its member objects, or releases them with
 *   `preserveResourcesOnDeletion`, then loses its finalizer. A suspended Work is not dispatched.
 * - A Cluster key (sent by the cluster-status controller after each probe of a Ready cluster): list
 *   the member's Karmada-managed objects once per kind, re-apply what is missing, drifted or not
 *   applied yet (a member that was down gets its updates when it is back), and refresh Work statuses.
 *   A Work the member refused at its generation is left to its own retry, a Work created moments ago
 *   to its own message.
 * - A member that cannot be reached is retried; nothing is dropped and the Work's last known status
 *   is kept. A cluster that is not Ready is not tried at all: its Works wait for the member sync
 *   after its recovery, but for those two, which keep their retry.
 *
 * Pull clusters are left to their agent (lib/agent), which does the same through webhooks.
 */
import {
  EXECUTION_CONTROLLER_FINALIZER,
  FEDERATED_RESOURCE_QUOTA_NAME_LABEL,
  FEDERATED_RESOURCE_QUOTA_NAMESPACE_LABEL,
} from '../api/well-known.ts';
import {
  bindingKeyOf,
  CLUSTER,
  clusterOfExecutionNamespace,
  FEDERATED_RESOURCE_QUOTA,
  WORK,
} from '../api/karmada-names.ts';
import { type Condition, findCondition, rfc3339, setCondition } from '../api/conditions.ts';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { formatKey, parseKey, refOf } from '../api/object.ts';
import { READY_CONDITION } from '../core/clusters/health.ts';
import { SealError } from '../crypto/cipher.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import {
  appliedCurrent,
  dispatchingStarts,
  failedCurrent,
  WORK_DISPATCHING_MESSAGE,
  type WorkStatus,
  workStatusAfter,
  workStatusChanged,
} from '../core/status/index.ts';
import { reportIfStaleCopy } from './stale-copy.ts';
import { leftToItsMessage, manifestsOf, observeWork, retriedWhileNotReady } from '../core/work/index.ts';
import { MemberApiError, type MemberClient, MemberUnreachableError } from '../members/client.ts';
import type { MemberConnection } from '../members/client.ts';
import { cachedClient, cachedConnection } from '../members/connections.ts';
import { applyWork, listManagedKinds, type ManifestKind, manifestKinds, releaseWork } from '../members/work-apply.ts';
import type { Lane, WorkQueue } from '../queue/port.ts';
import type {
  BatchScope,
  Controller,
  ReconcileContext,
  ReconcileRequest,
  ReconcileResult,
} from '../reconcile/controller.ts';
import { listAll, listAllRefs } from '../store/list-all.ts';
import { removeFinalizer } from '../store/finalizers.ts';
import { forEachLimited } from '../util/concurrency.ts';
import { memoize } from '../util/memo.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { writeClusterRecord } from './cluster-record.ts';
import { MEMBER_SYNC, type SettledSync, settledOf, stampOfWorks } from './member-sync.ts';
import { MEMBER_QUOTA_REPORT_REASON } from './federated-resource-quota.ts';
import { BINDER_CONTROLLER_NAME, EXECUTOR_CONTROLLER_NAME, FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME } from './specs.ts';

/** A Work that could not be applied is tried again after 2 s, doubling up to 5 min. */
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 300_000;

/**
 * Exponential backoff per Work key, kept by the warm function (a cold start begins again at the
 * base; the member sync applies at once when a member comes back, whatever the backoff).
 */
export class Backoff {
  readonly #failures = new Map<string, number>();
  next(key: string): number {
    const n = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.delete(key);
    this.#failures.set(key, n);
    if (this.#failures.size > 10_000) this.#failures.delete(this.#failures.keys().next().value as string);
    return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (n - 1));
  }
  reset(key: string): void {
    this.#failures.delete(key);
  }
}
/** Works applied at once during a member sync. */
const SYNC_CONCURRENCY = 8;

export interface ExecutorOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  cipher: CredentialCipher;
  events?: EventRecorder;
  /** How to reach a member (tests inject one); default: a cached client. */
  connect?: (conn: MemberConnection) => MemberClient;
  /** The client of a cluster, replacing credentials and `connect` altogether (unit tests). */
  memberFor?: (cluster: KubeObject) => Promise<MemberClient>;
}

/** What one batch shares: clusters and their clients, opened once; its success events, written at its end. */
interface ExecutorBatch extends BatchScope {
  cluster(name: string): Promise<KubeObject | undefined>;
  client(cluster: KubeObject): Promise<MemberClient>;
  /** A Work of a binding was applied (false: the Work has no binding). */
  succeeded(work: KubeObject, cluster: string): boolean;
  /** A Work of a binding resumed dispatching after a suspension, whatever its apply did. */
  resumed(work: KubeObject, cluster: string): void;
}

/** Per binding, what its Works did in one batch: the clusters whose dispatching resumed, and those applied. */
interface BindingOutcomes {
  resumed: Set<string>;
  applied: Map<string, string>;
}

/** Counters a benchmark or test can read. */
export interface ExecutorStats {
  applied: number;
  failed: number;
  released: number;
  driftCorrected: number;
  statusWrites: number;
  /** Member syncs that found the Works and the member objects as a settled sync left them. */
  syncsUnchanged: number;
}

export function createExecutorController(options: ExecutorOptions): Controller & { stats: ExecutorStats } {
  const { store } = options;
  const events = options.events ?? NO_EVENTS;
  const connect = options.connect ?? cachedClient;
  const stats: ExecutorStats = {
    applied: 0,
    failed: 0,
    released: 0,
    driftCorrected: 0,
    statusWrites: 0,
    syncsUnchanged: 0,
  };
  const backoff = new Backoff();
  const retry = (work: KubeObject): ReconcileResult => ({ requeueAfterMs: backoff.next(keyOfWork(work)) });

  function openBatch(scope: { now: number }): Promise<ExecutorBatch> {
    const outcomes = new Map<string, BindingOutcomes>();
    const outcomesOf = (work: KubeObject): BindingOutcomes | undefined => {
      const binding = bindingKeyOf(work);
      if (!binding) return undefined;
      let o = outcomes.get(binding);
      if (!o) outcomes.set(binding, (o = { resumed: new Set(), applied: new Map() }));
      return o;
    };
    return Promise.resolve({
      succeeded(work: KubeObject, cluster: string): boolean {
        const o = outcomesOf(work);
        if (!o) return false;
        o.applied.set(cluster, appliedResourceOf(work));
        return true;
      },
      resumed(work: KubeObject, cluster: string): void {
        outcomesOf(work)?.resumed.add(cluster);
      },
      close: () => recordOutcomes(outcomes),
      cluster: memoize((name: string) => store.get({ ...CLUSTER, name })),
      client: memoize(
        (cluster: KubeObject) =>
          options.memberFor
            ? options.memberFor(cluster)
            : cachedConnection(store, options.cipher, cluster, scope.now).then(connect),
        (cluster) => cluster.metadata.name,
      ),
    });
  }

  return {
    name: EXECUTOR_CONTROLLER_NAME,
    stats,
    // Each key mostly waits on the member and the store.
    reconcileConcurrency: 16,
    openBatch,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      const own = context.batch ? undefined : await openBatch(context);
      const batch = (context.batch as ExecutorBatch | undefined) ?? own!;
      try {
        if (ref.group === CLUSTER.group && ref.kind === CLUSTER.kind) return await syncMember(ref.name, batch, context);
        if (ref.group !== WORK.group || ref.kind !== WORK.kind) return undefined;
        return await syncWork(ref, batch, request.lane, context);
      } finally {
        await own?.close?.();
      }
    },
  };

  /**
   * The batch's success events on the binding, naming the clusters (Karmada records `WorkDispatching`
   * and `SyncSucceed` on each Work: a fan-out to 1,000 clusters would write 2,000 Events): one
   * `SyncSucceed`, and `WorkDispatching` only for the clusters whose dispatching resumed after a
   * suspension (a first dispatch is what `SyncSucceed` says). Failures stay on their Work, one by one.
   */
  async function recordOutcomes(outcomes: ReadonlyMap<string, BindingOutcomes>): Promise<void> {
    // A member sync's batch holds one Work of each of hundreds of bindings: record them side by side.
    await forEachLimited([...outcomes], SYNC_CONCURRENCY, async ([key, o]) => {
      const binding = await store.get(parseKey(key));
      if (!binding) return;
      const clusters = (set: Iterable<string>) => [...set].sort().join(', ');
      if (o.resumed.size > 0)
        await events.record(
          binding,
          'Normal',
          'WorkDispatching',
          `${WORK_DISPATCHING_MESSAGE} Clusters: ${clusters(o.resumed)}.`,
        );
      // A resumed dispatch whose apply failed has its SyncFailed on the Work, and nothing applied here.
      if (o.applied.size === 0) return;
      const resources = new Set(o.applied.values());
      const resource = resources.size === 1 ? [...resources][0] : undefined;
      await events.record(
        binding,
        'Normal',
        'SyncSucceed',
        `Successfully applied resource${resource !== undefined ? `(${resource})` : 's'} to ${o.applied.size === 1 ? 'cluster' : 'clusters'} ${clusters(o.applied.keys())}`,
      );
    });
  }

  async function syncWork(
    ref: ObjectRef,
    batch: ExecutorBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const work = await store.get(ref);
    if (!work) return undefined;
    const clusterName = clusterOfExecutionNamespace(work.metadata.namespace);
    if (!clusterName) return undefined;
    context.logger.appendKeys({ cluster: clusterName });
    const cluster = await batch.cluster(clusterName);
    const deleting = Boolean(work.metadata.deletionTimestamp);
    if (!cluster || cluster.metadata.deletionTimestamp) {
      // The cluster is gone (or going): there is no member object left to manage.
      if (deleting) await releaseFinalizer(work);
      return undefined;
    }
    if (syncModeOf(cluster) === 'Pull') return undefined; // its agent applies and reports
    if (deleting) return deleteWork(work, cluster, batch, lane, context);
    if (suspended(work)) return suspend(work, context);
    // Applied already (a resync, a repeated message): the member sync watches it for drift.
    if (appliedCurrent(work)) return undefined;
    // Not Ready: nothing is tried; the member sync after its recovery applies the Work, unless it is one
    // the sync leaves to its own retry.
    if (!isReady(cluster)) {
      if (retriedWhileNotReady(work, context.now)) return retry(work);
      context.logger.debug('cluster not ready; the member sync applies the work once it is', {});
      return undefined;
    }
    return apply(work, cluster, batch, lane, context);
  }

  async function apply(
    work: KubeObject,
    cluster: KubeObject,
    batch: ExecutorBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const name = cluster.metadata.name!;
    const called = await onMember(batch, cluster, (client) => applyWork(client, work, name));
    if (!called.ok) {
      context.logger.info('member not reachable; the work is retried', { detail: called.message });
      return retry(work);
    }
    const outcome = called.value;
    const next = workStatusAfter(work, outcome, rfc3339(context.now));
    // Dispatching starts (or starts again after a suspension): workStatusAfter set Dispatching=True, and
    // Karmada's execution controller records WorkDispatching as the condition turns, whatever the apply
    // then does — a Work of no binding on itself; a binding once per batch, and only when it resumes (a
    // first dispatch is said by the batch's SyncSucceed, or by SyncFailed on the Work).
    const starts = dispatchingStarts(work);
    if (starts && !bindingKeyOf(work)) await events.record(work, 'Normal', 'WorkDispatching', WORK_DISPATCHING_MESSAGE);
    else if (starts === 'resumed') batch.resumed(work, name);
    const wasApplied = findCondition((work.status as WorkStatus | undefined)?.conditions, 'Applied');
    if (outcome.failure) {
      stats.failed++;
      if (wasApplied?.status !== 'False' || wasApplied.message !== outcome.failure) {
        context.logger.warn('work not applied', { detail: outcome.failure });
        await events.record(work, 'Warning', 'SyncFailed', `Failed to sync workload: ${outcome.failure}`);
      } else context.logger.debug('work still not applied', { detail: outcome.failure });
    } else {
      stats.applied++;
      const changed = wasApplied?.status !== 'True' || wasApplied.observedGeneration !== work.metadata.generation;
      // A Work of no binding (a namespace's, a quota's) records its own events, as Karmada does.
      if (changed && !batch.succeeded(work, name))
        await events.record(
          work,
          'Normal',
          'SyncSucceed',
          `Successfully applied resource(${appliedResourceOf(work)}) to cluster ${name}`,
        );
    }
    await writeStatus(work, next, lane);
    if (outcome.failure) return retry(work);
    backoff.reset(keyOfWork(work));
    return undefined;
  }

  async function deleteWork(
    work: KubeObject,
    cluster: KubeObject,
    batch: ExecutorBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    if (!(work.metadata.finalizers ?? []).includes(EXECUTION_CONTROLLER_FINALIZER)) return undefined;
    // Not Ready: the member sync removes the copy first thing once it is (see above).
    if (!isReady(cluster)) return undefined;
    const called = await onMember(batch, cluster, (client) => releaseWork(client, work));
    if (!called.ok) {
      context.logger.info('member not reachable; the deletion is retried', { detail: called.message });
      return retry(work);
    }
    stats.released++;
    context.logger.info(
      (work.spec as { preserveResourcesOnDeletion?: boolean }).preserveResourcesOnDeletion
        ? 'work deleted; member objects kept without Karmada markers'
        : 'work deleted; member objects deleted',
      {},
    );
    await releaseFinalizer(work);
    // Deleted while the member was away: a copy that may have kept running there until now.
    await reportIfStaleCopy(store, events, work, cluster);
    await tellBinder(work, lane);
    return undefined;
  }

  async function suspend(work: KubeObject, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const status = (work.status ?? {}) as WorkStatus;
    const conditions = setCondition(
      status.conditions,
      {
        type: 'Dispatching',
        status: 'False',
        reason: 'SuspendDispatching',
        message: 'Work dispatching is in a suspended state.',
      },
      rfc3339(context.now),
    );
    if (conditions === status.conditions) return undefined;
    await events.record(work, 'Normal', 'WorkDispatching', 'Work dispatching is in a suspended state.');
    await writeStatus(work, { ...status, conditions }, undefined);
    return undefined;
  }

  /**
   * A Ready member's periodic sync: one list per kind of what Karmada manages there, then per Work:
   * re-apply when missing, drifted or not applied yet; otherwise refresh its status.
   *
   * A sync that found nothing to do is remembered (stamps of the Works' and the member objects' resource
   * versions); the next one first reads only the Works' names and versions and the member's lists, and
   * when neither side changed it is done without reading a Work — every Work reads and compares the
   * same as last time. Anything that did not settle (a write, a re-apply, a deletion, a Work left to its
   * own message) is not remembered, so the next sync reads everything again. What a settled sync read is
   * stored per cluster ({@link MEMBER_SYNC}), for whichever execution environment the next sync lands
   * on; it is a shortcut, not state: without it a sync is the full one.
   */
  async function syncMember(
    clusterName: string,
    batch: ExecutorBatch,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const cluster = await batch.cluster(clusterName);
    if (!cluster || cluster.metadata.deletionTimestamp || syncModeOf(cluster) === 'Pull' || !isReady(cluster))
      return undefined;
    context.logger.appendKeys({ cluster: clusterName });
    const record = await store.get({ ...MEMBER_SYNC, name: clusterName });
    const settled = settledOf(record, cluster);
    let client: MemberClient | undefined;
    let lookup: Awaited<ReturnType<typeof listManagedKinds>> | undefined;
    if (settled) {
      // Names and versions only; a new Work may name a kind the member check below would not list.
      const refs = await listAllRefs(store, { ...WORK, cluster: clusterName });
      if (stampOfWorks(refs) === settled.works) {
        const opened = await onMember(batch, cluster, async (c) => c);
        if (!opened.ok) return undefined;
        client = opened.value;
        lookup = await listMember(client, settled.kinds, context);
        if (!lookup) return undefined;
        if (lookup.stamp !== undefined && lookup.stamp === settled.member) {
          stats.syncsUnchanged++;
          return undefined;
        }
      }
    }
    const all = await listAll(store, { ...WORK, cluster: clusterName });
    let unsettled = false;
    // Copies deleted while the member could not be reached (a cluster evicted during a partition may
    // still run them) go before anything else is applied there: no two copies of a workload keep running.
    for (const work of all.filter((w) => w.metadata.deletionTimestamp)) {
      if (!(work.metadata.finalizers ?? []).includes(EXECUTION_CONTROLLER_FINALIZER)) continue;
      unsettled = true;
      await deleteWork(work, cluster, batch, 'standard', context);
    }
    const works = all.filter((w) => !w.metadata.deletionTimestamp && !suspended(w));
    if (works.length === 0) return undefined;
    if (!client) {
      const opened = await onMember(batch, cluster, async (c) => c);
      if (!opened.ok) return undefined;
      client = opened.value;
    }
    const kinds = manifestKinds(works);
    // The quick look's lists serve when they were of the same kinds (only versions moved).
    if (!lookup || JSON.stringify(kinds) !== JSON.stringify(settled?.kinds)) {
      lookup = await listMember(client, kinds, context);
      if (!lookup) return undefined;
    }
    const seenLive = lookup.lookup;
    let corrected = 0;
    await forEachLimited(works, SYNC_CONCURRENCY, async (work) => {
      // A Work refused for this generation is retried by its own requeue, not at every sync; a new one
      // is its own message's to apply.
      if (failedCurrent(work)) return;
      if (leftToItsMessage(work, context.now)) {
        unsettled = true;
        return;
      }
      const seen = observeWork(work, seenLive);
      if (!appliedCurrent(work) || seen.apply) {
        unsettled = true;
        if (seen.apply && appliedCurrent(work)) {
          corrected++;
          stats.driftCorrected++;
          context.logger.info('member object changed outside Karmada; applying the work again', {
            work: work.metadata.name,
            detail: seen.reason,
          });
        }
        await apply(work, cluster, batch, 'standard', context);
        return;
      }
      const next = { ...(work.status as WorkStatus), manifestStatuses: seen.manifestStatuses };
      if (workStatusChanged(work, next)) {
        unsettled = true;
        await writeStatus(work, next, 'standard');
      }
    });
    if (corrected > 0) context.logger.info('member sync corrected drift', { works: corrected });
    if (!unsettled) {
      // What this sync read: the Works as listed (not the names read before them) and the member's lists.
      const works = stampOfWorks(all.map((w) => ({ ...refOf(w), resourceVersion: w.metadata.resourceVersion })));
      if (works !== undefined && lookup.stamp !== undefined) {
        if (settled?.works !== works || settled.member !== lookup.stamp)
          await writeClusterRecord(store, { ...MEMBER_SYNC, version: 'v1alpha1' }, cluster, record, {
            works,
            member: lookup.stamp,
            kinds,
          } satisfies SettledSync);
        return undefined;
      }
    }
    // Not settled: the next sync reads everything.
    if (record) await tryWrite(() => store.delete(refOf(record), { preconditions: { uid: record.metadata.uid } }));
    return undefined;
  }

  async function writeStatus(work: KubeObject, next: WorkStatus, lane: Lane | undefined): Promise<void> {
    if (!workStatusChanged(work, next)) return;
    // A newer Work is reconciled by its own message; a deleted one needs nothing.
    // One conditional write against the Work as read (a newer one is a conflict, left to its message).
    if (!(await tryWrite(() => store.updateStatus({ ...work, status: next }, { current: work }))).ok) return;
    stats.statusWrites++;
    if (lane) await tellBinder(work, lane, 'status');
  }

  /** Lets the Work go; a concurrent change or deletion is reconciled by its own message. */
  async function releaseFinalizer(work: KubeObject): Promise<void> {
    await tryWrite(() => removeFinalizer(store, work, EXECUTION_CONTROLLER_FINALIZER));
  }

  /**
   * The binder aggregates Work status into the binding and template: a status report by the Work's key
   * (its status path reads that Work alone), a deleted Work by its binding's (the binding is synced).
   */
  async function tellBinder(work: KubeObject, lane: Lane, what: 'status' | 'deleted' = 'deleted'): Promise<void> {
    const binding = bindingKeyOf(work);
    const quotaNamespace = work.metadata.labels?.[FEDERATED_RESOURCE_QUOTA_NAMESPACE_LABEL];
    const quotaName = work.metadata.labels?.[FEDERATED_RESOURCE_QUOTA_NAME_LABEL];
    if (!binding && quotaNamespace && quotaName) {
      // A static assignment's ResourceQuota reported: the quota's aggregated status follows.
      await options.workQueue.enqueue([
        {
          controller: FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME,
          lane,
          key: formatKey({ ...FEDERATED_RESOURCE_QUOTA, namespace: quotaNamespace, name: quotaName }),
          reason: MEMBER_QUOTA_REPORT_REASON,
        },
      ]);
      return;
    }
    if (!binding) return;
    const key = what === 'status' ? formatKey(refOf(work)) : binding;
    await options.workQueue.enqueue([{ controller: BINDER_CONTROLLER_NAME, lane, key, reason: `work-${what}` }]);
  }
}

/**
 * Runs `call` with the cluster's client. Credentials that cannot be opened and a member that cannot be
 * reached or answers an error come back as a message to retry on; a key service that failed for now,
 * or anything else (a bug), is thrown so the runtime retries the message and reports it.
 */
async function onMember<T>(
  batch: ExecutorBatch,
  cluster: KubeObject,
  call: (client: MemberClient) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  let client: MemberClient;
  try {
    client = await batch.client(cluster);
  } catch (err) {
    if (err instanceof SealError && err.transient) throw err;
    return { ok: false, message: `the cluster credentials could not be used: ${(err as Error).message}` };
  }
  try {
    return { ok: true, value: await call(client) };
  } catch (err) {
    if (err instanceof MemberUnreachableError || err instanceof MemberApiError)
      return { ok: false, message: err.message };
    throw err;
  }
}

/** The member's managed objects of these kinds; undefined (logged) when it cannot be listed now. */
async function listMember(
  client: MemberClient,
  kinds: readonly ManifestKind[],
  context: ReconcileContext,
): Promise<Awaited<ReturnType<typeof listManagedKinds>> | undefined> {
  try {
    return await listManagedKinds(client, kinds);
  } catch (err) {
    context.logger.info('member not reachable; sync skipped', { detail: (err as Error).message });
    return undefined;
  }
}

function keyOfWork(work: KubeObject): string {
  return `${work.metadata.namespace}/${work.metadata.name}`;
}

function syncModeOf(cluster: KubeObject): string | undefined {
  return (cluster.spec as { syncMode?: string } | undefined)?.syncMode;
}

function isReady(cluster: KubeObject): boolean {
  const conditions = (cluster.status as { conditions?: Condition[] } | undefined)?.conditions;
  return findCondition(conditions, READY_CONDITION)?.status === 'True';
}

/** `namespace/name` of the Work's (first) manifest, as `SyncSucceed` names it. */
function appliedResourceOf(work: KubeObject): string {
  const m = manifestsOf(work)[0];
  return `${m?.metadata?.namespace ? `${m.metadata.namespace}/` : ''}${m?.metadata?.name ?? ''}`;
}

function suspended(work: KubeObject): boolean {
  return (work.spec as { suspendDispatching?: boolean } | undefined)?.suspendDispatching === true;
}
