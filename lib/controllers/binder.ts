/**
 * The binder (Karmada's binding controllers, with the binding status controller and the dependencies
 * distributor folded in): turns a scheduled (Cluster)ResourceBinding into one Work per target cluster
 * and reports what the members did back onto the binding and its resource template.
 *
 * One reconcile of a binding key:
 * 1. A deleting binding: its Works are deleted (the executor then deletes or releases the member
 *    objects), its dependencies released, then its finalizer removed.
 * 2. Per target cluster (`spec.clusters` ∪ `spec.requiredBy[*].clusters`): the Work is rendered by the
 *    pure core (replicas revised, Job completions divided, overrides last, Karmada's labels and
 *    annotations) and written only when it differs. A cluster whose overrides fail gets no new Work;
 *    the failure is recorded (ApplyOverridePolicyFailed) and retried.
 * 3. Works of clusters no longer targeted (nor evicting) are deleted.
 * 4. With `propagateDeps`, the ConfigMaps, Secrets, ServiceAccounts and PVCs the workload references
 *    follow it through attached bindings (`spec.requiredBy`).
 * 5. The Works' status becomes the binding's `aggregatedStatus` and `FullyApplied` condition, and the
 *    template's status (Deployment ready replicas summed, Job succeeded, …).
 *
 * Override policy and cluster changes fan out to the bindings they may affect, on the standard lane.
 */
import { WORK_PERMANENT_ID_LABEL } from '../api/well-known.ts';
import { releaseBindingQuota } from './quota.ts';
import {
  bindingIdOf,
  bindingKeyOf,
  CLUSTER,
  CLUSTER_OVERRIDE_POLICY,
  CLUSTER_RESOURCE_BINDING,
  clusterOfExecutionNamespace,
  executionNamespace,
  OVERRIDE_POLICY,
  RESOURCE_BINDING,
  templateRefOf,
  WORK,
  WORK_GROUP,
} from '../api/karmada-names.ts';
import { putCondition, rfc3339, type Condition } from '../api/conditions.ts';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { formatKey, parseKey, refOf } from '../api/object.ts';
import { targetClusters } from '../core/dependencies/index.ts';
import type { OverridePolicy } from '../core/overrides/index.ts';
import { chargeCovers, renderedMark } from '../core/quota/index.ts';
import {
  type AggregatedStatusItem,
  aggregatedStatusItems,
  bindingExistingClusters,
  unreportedTargets,
  withClusterItem,
  withReportedWorks,
} from '../core/status/index.ts';
import type { Cluster, ResourceBinding } from '../core/model/types.ts';
import {
  APPLICATION_FAILOVER_CONDITION,
  applicationFailoverOf,
  carriedLabelStateOf,
  directlyPurgedClusters,
  lastCopyClusters,
  directlyPurgeHandoff,
  HANDOFF_PENDING_CONDITION,
  preservedLabelsFor,
  tasksAwaitHealth,
} from '../core/eviction/index.ts';
import {
  bindingFinalizerOf,
  generateWorkName,
  manifestsOf,
  planWork,
  renderWork,
  type RenderedWork,
  withPermanentIdAndFinalizer,
} from '../core/work/index.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import type { Lane, WorkQueue } from '../queue/port.ts';
import type {
  BatchScope,
  Controller,
  ReconcileContext,
  ReconcileRequest,
  ReconcileResult,
} from '../reconcile/controller.ts';
import { NotFoundError } from '../store/errors.ts';
import { listAll, listAllRefs } from '../store/list-all.ts';
import { removeFinalizer } from '../store/finalizers.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { InFlight } from '../util/concurrency.ts';
import { once } from '../util/memo.ts';
import { randomUUID } from 'node:crypto';
import {
  APPLICATION_FAILOVER_CONTROLLER_NAME,
  BINDER_CONTROLLER_NAME,
  EVICTION_CONTROLLER_NAME,
  EXECUTOR_CONTROLLER_NAME,
  SCHEDULER_CONTROLLER_NAME,
} from './specs.ts';
import { dependencySync } from './binder-dependencies.ts';
import { writeAggregatedStatus } from './binder-status.ts';

/** How soon a binding waiting for a Directly-purged copy to go looks again (Karmada: 5 s). */
const PURGE_WAIT_MS = 2_000;
/** How soon a cluster whose overrides failed is tried again. */
const OVERRIDE_RETRY_MS = 10_000;

export interface BinderOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  events?: EventRecorder;
  /** Permanent ids for bindings and Works that have none (default: random UUIDs; tests pass a deterministic one). */
  newUid?: () => string;
  /** The `StatefulFailoverInjection` gate: preserved state becomes labels on the new cluster (default on). */
  statefulFailoverInjection?: boolean;
  /** `--graceful-eviction-timeout` (ms, default 10 m): the grace of a task without `gracePeriodSeconds`. */
  gracefulEvictionTimeoutMs?: number;
  /** The `FederatedQuotaEnforcement` gate: deleted bindings give their usage back (default on). */
  quotaEnforcement?: boolean;
}

/** What one batch shares: clusters and override policies, read once. */
export interface BinderBatch extends BatchScope {
  clusters(): Promise<Map<string, Cluster>>;
  overridePolicies(): Promise<OverridePolicy[]>;
  clusterOverridePolicies(): Promise<OverridePolicy[]>;
  /**
   * The Work reports of one binding within the batch: their aggregations run one after another, each
   * starting from the binding and template as the previous one wrote them (no conflict among
   * themselves, no re-read), and the reports that arrive while one runs are folded into the next —
   * one binding write for all of them (group commit).
   */
  statusOf: Map<string, BindingReports>;
  /** Work reads of this batch's reports still in flight: an aggregation waits for them to land first. */
  reportReads: InFlight;
}

/** A binding's Work reports within one batch (see {@link BinderBatch.statusOf}). */
interface BindingReports {
  chain: Promise<unknown>;
  binding?: ResourceBinding;
  template?: KubeObject;
  /** Reports waiting for the next aggregation, by cluster (a later report of a cluster replaces its earlier one). */
  waiting: Map<string, KubeObject>;
  /** Whether one of the waiting reports came on the priority lane (its follow-ups go there too). */
  priority: boolean;
  /** The next aggregation, while it has not started: a report joins it. */
  next?: Promise<ReconcileResult | undefined>;
}

/** Counters a benchmark or test can read. */
export interface BinderStats {
  worksWritten: number;
  worksDeleted: number;
  statusWrites: number;
}

export function createBinderController(options: BinderOptions): Controller & { stats: BinderStats } {
  const { store } = options;
  const events = options.events ?? NO_EVENTS;
  const newUid = options.newUid ?? randomUUID;
  const statefulFailoverInjection = options.statefulFailoverInjection ?? true;
  const gracefulEvictionTimeoutMs = options.gracefulEvictionTimeoutMs ?? 10 * 60_000;
  const quotaEnforcement = options.quotaEnforcement ?? true;
  const stats: BinderStats = { worksWritten: 0, worksDeleted: 0, statusWrites: 0 };
  const dependencies = dependencySync({ store, workQueue: options.workQueue, events, newUid });
  const statusWriter = { store, events, stats };

  function openBatch(): Promise<BinderBatch> {
    return Promise.resolve({
      clusters: once(
        async () => new Map((await listAll(store, CLUSTER)).map((c) => [c.metadata.name!, c as Cluster] as const)),
      ),
      overridePolicies: once(async () => (await listAll(store, OVERRIDE_POLICY)) as OverridePolicy[]),
      clusterOverridePolicies: once(async () => (await listAll(store, CLUSTER_OVERRIDE_POLICY)) as OverridePolicy[]),
      statusOf: new Map(),
      reportReads: new InFlight(),
    });
  }

  return {
    name: BINDER_CONTROLLER_NAME,
    stats,
    // Rendering is CPU-cheap; a key waits on a handful of reads and writes.
    reconcileConcurrency: 16,
    openBatch,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      if (ref.group === OVERRIDE_POLICY.group) {
        await fanOutForOverridePolicy(ref, context);
        return undefined;
      }
      if (ref.group === WORK_GROUP && ref.kind === WORK.kind) {
        const batch = (context.batch as BinderBatch | undefined) ?? (await openBatch());
        return syncWorkStatus(ref, batch, request.lane, context);
      }
      if (
        ref.group !== WORK_GROUP ||
        (ref.kind !== RESOURCE_BINDING.kind && ref.kind !== CLUSTER_RESOURCE_BINDING.kind)
      )
        return undefined;
      const batch = (context.batch as BinderBatch | undefined) ?? (await openBatch());
      return syncBinding(ref, batch, request.lane, context);
    },
  };

  async function syncBinding(
    ref: ObjectRef,
    batch: BinderBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    let binding = (await store.get(ref)) as ResourceBinding | undefined;
    if (!binding) return undefined;
    const finalizer = bindingFinalizerOf(binding);
    if (binding.metadata.deletionTimestamp) return removeBinding(binding, finalizer, lane, context);
    const identified = withPermanentIdAndFinalizer(binding, newUid);
    if (identified) {
      const written = await tryWrite(() => store.update(identified));
      if (!written.ok) return written.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
      binding = written.object as ResourceBinding;
    }
    const template = await store.get(templateRefOf(binding.spec.resource));
    // The template is gone (or replaced): the garbage collector deletes the binding.
    if (!template || (binding.spec.resource.uid && template.metadata.uid !== binding.spec.resource.uid))
      return undefined;

    const targets = targetClusters(binding);
    const clusters = await batch.clusters();
    const [overridePolicies, clusterOverridePolicies] = await Promise.all([
      batch.overridePolicies(),
      batch.clusterOverridePolicies(),
    ]);
    let retry: ReconcileResult | undefined;
    const changed: string[] = [];
    const works: { cluster: string; work: KubeObject }[] = [];
    const workName = workNameOf(template);

    // Works of clusters no longer targeted go first (Karmada's "existing clusters": an evicting cluster
    // keeps its Work until the task ends, unless it is purged at once).
    const keep = new Set([...bindingExistingClusters(binding.spec), ...lastCopyClusters(binding.spec)]);
    const removed = await deleteWorks(binding, (cluster) => !keep.has(cluster));
    // The executor deletes the member objects now, whatever this pass comes to (a lost race, a hold):
    // a Work found deleting on the next pass is not handed to it again.
    if (removed.length > 0) await enqueueExecutor(removed, lane);
    // Purged Directly: the new copies wait until the old ones are gone (the seeds' consistency rule).
    const hold = await purgeHold(binding, template, workName, clusters, context);
    if (hold.result) return hold.result;
    binding = hold.binding;
    // FederatedResourceQuota: a spec using more than its quotas were charged (requests or replicas
    // raised) waits for the scheduler's charge, which hands it back here; refused, it is not rolled out
    // and the members keep what the quota admitted (Scheduled=False/QuotaExceeded says why).
    if (quotaEnforcement && binding.kind === RESOURCE_BINDING.kind && !chargeCovers(binding)) {
      context.logger.info('rollout waits for the quota to admit the binding’s new usage', {
        binding: formatKey(ref),
      });
      return undefined;
    }

    await Promise.all(
      targets.map(async (target) => {
        const cluster = clusters.get(target.name);
        if (!cluster) return; // Unknown cluster: nothing to render to (the scheduler re-places).
        const ref = workRefOf(target.name, workName);
        const existing = await store.get(ref);
        const workPermanentId = existing?.metadata.labels?.[WORK_PERMANENT_ID_LABEL] ?? newUid();
        const preservedLabels = statefulFailoverInjection
          ? preservedLabelsFor(
              binding!.spec,
              target.name,
              targets.length,
              existing ? manifestsOf(existing)[0]?.metadata.labels : undefined,
            )
          : {};
        const result = renderWork({
          template,
          binding: binding!,
          cluster,
          overridePolicies,
          clusterOverridePolicies,
          workPermanentId,
          ...(Object.keys(preservedLabels).length ? { preservedLabels } : {}),
        });
        if (!result.ok) {
          const message = `Apply override policy failed on cluster ${target.name}: ${result.error}`;
          context.logger.warn('overrides could not be applied; the cluster keeps its current Work', {
            cluster: target.name,
            detail: result.error,
          });
          await Promise.all([
            events.record(template, 'Warning', 'ApplyOverridePolicyFailed', message),
            events.record(binding!, 'Warning', 'SyncWorkFailed', message),
          ]);
          retry = { requeueAfterMs: OVERRIDE_RETRY_MS };
          if (existing) works.push({ cluster: target.name, work: existing });
          return;
        }
        result.work.labels[WORK_PERMANENT_ID_LABEL] = workPermanentId;
        const outcome = await ensureWork(result.work, existing);
        if (outcome === 'retry') {
          retry ??= { requeueAfterMs: 1_000 };
          return;
        }
        if (outcome.changed) changed.push(target.name);
        works.push({ cluster: target.name, work: outcome.work });
      }),
    );

    if (changed.length > 0 || removed.length > 0) {
      await enqueueExecutor(
        changed.map((c) => workRefOf(c, workName)),
        lane,
      );
      stats.worksWritten += changed.length;
      stats.worksDeleted += removed.length;
      context.logger.info('works synced', { updated: changed.join(',') || '-', deleted: removed.length });
      await events.record(
        binding,
        'Normal',
        'SyncWorkSucceed',
        `Sync work of ${binding.kind === 'ResourceBinding' ? `resourceBinding(${binding.metadata.namespace}/${binding.metadata.name})` : `clusterResourceBinding(${binding.metadata.name})`} successful.`,
      );
    }

    // Rendered in full at a generation its quotas are charged more than it uses (a decrease): said on the
    // binding, conditional on the copy rendered, and the scheduler gives the quota the room back.
    const mark =
      !retry && quotaEnforcement && binding.kind === RESOURCE_BINDING.kind ? renderedMark(binding) : undefined;
    if (mark) {
      const marked = await tryWrite(() => store.update(mark, { current: binding! }));
      if (marked.ok) {
        binding = marked.object as ResourceBinding;
        await options.workQueue.enqueue([
          { controller: SCHEDULER_CONTROLLER_NAME, lane, key: formatKey(ref), reason: 'decrease-rendered' },
        ]);
      }
    }

    if (binding.spec.propagateDeps && !(binding.spec.requiredBy?.length && !binding.spec.placement)) {
      await dependencies.sync(binding, template, lane, context);
    }
    const aggregated = await writeAggregatedStatus(
      statusWriter,
      binding,
      template,
      targets.map((t) => t.name),
      aggregatedStatusItems(template, works),
      context,
    );
    if (aggregated.conflict) await requeueOnConflict(binding);
    await afterStatus(binding, aggregated.bindingWritten !== undefined, lane);
    return retry;
  }

  /**
   * Eviction tasks end on the new copies' health, and so does the state a failover's copy carries;
   * application failover watches a binding that opted in. A task ends only once its targets' Works are
   * applied at their generation too, which need not change the aggregated status (an applied Work
   * whose member status reads the same): a Work's report on a binding with a task awaiting its
   * targets' health is always passed on.
   */
  async function afterStatus(
    binding: ResourceBinding,
    statusWritten: boolean,
    lane: Lane,
    workReported = false,
  ): Promise<void> {
    const key = formatKey(refOf(binding));
    const watched = applicationFailoverOf(binding.spec) !== undefined;
    const observed = (binding.status?.conditions ?? []).some((c) => c.type === APPLICATION_FAILOVER_CONDITION);
    const evictionConcerned =
      Boolean(binding.spec.gracefulEvictionTasks?.length) || carriedLabelStateOf(binding.metadata.annotations);
    await options.workQueue.enqueue([
      ...((statusWritten && evictionConcerned) || (workReported && tasksAwaitHealth(binding.spec))
        ? [{ controller: EVICTION_CONTROLLER_NAME, lane, key, reason: 'status' }]
        : []),
      ...((watched && (statusWritten || !observed)) || (!watched && observed)
        ? [{ controller: APPLICATION_FAILOVER_CONTROLLER_NAME, lane, key, reason: 'status' }]
        : []),
    ]);
  }

  /**
   * A Work reported (the executor or a Pull agent wrote its status): Karmada's binding status
   * controller for that one Work. Its item of the binding's `aggregatedStatus` is computed again and
   * `FullyApplied` and the template's status follow — the Work, its binding and its template are read
   * (once per batch for the binding and template), no other Work, nothing rendered. A rollout to N
   * clusters costs O(N) reads, not O(N²). An aggregation starts once the batch's Work reads in flight
   * have landed, and takes every report of its binding that arrived until then, as do the reports
   * that arrive while it is written for the next one: one aggregation and one write for all of them.
   * A lost race retries the reports of that aggregation.
   */
  async function syncWorkStatus(
    ref: ObjectRef,
    batch: BinderBatch,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const cluster = clusterOfExecutionNamespace(ref.namespace);
    const work = await batch.reportReads.around(() => store.get(ref));
    const bindingKey = work ? bindingKeyOf(work) : undefined;
    if (!cluster || !work || !bindingKey) return undefined;
    const reports: BindingReports = batch.statusOf.get(bindingKey) ?? {
      chain: Promise.resolve(),
      waiting: new Map(),
      priority: false,
    };
    batch.statusOf.set(bindingKey, reports);
    reports.waiting.set(cluster, work);
    if (lane === 'priority') reports.priority = true;
    if (reports.next) return reports.next;
    const run = reports.chain.then(async (): Promise<ReconcileResult | undefined> => {
      // The batch's reports being read now may be this binding's too: they join this aggregation.
      await batch.reportReads.idle();
      reports.next = undefined;
      const works = [...reports.waiting];
      const foldedLane: Lane = reports.priority ? 'priority' : 'standard';
      reports.waiting.clear();
      reports.priority = false;
      const binding = reports.binding ?? ((await store.get(parseKey(bindingKey))) as ResourceBinding | undefined);
      if (!binding || binding.metadata.deletionTimestamp) return undefined;
      const template = reports.template ?? (await store.get(templateRefOf(binding.spec.resource)));
      if (!template || (binding.spec.resource.uid && template.metadata.uid !== binding.spec.resource.uid))
        return undefined;
      const targets = targetClusters(binding).map((t) => t.name);
      const stored = (binding.status?.aggregatedStatus ?? []) as unknown as AggregatedStatusItem[];
      let items = stored;
      for (const [name, reported] of works) items = withClusterItem(template, items, name, reported, targets);
      items = await withUnreported(template, bindingKey, targets, stored, items);
      const aggregated = await writeAggregatedStatus(statusWriter, binding, template, targets, items, context);
      if (aggregated.conflict) {
        reports.binding = undefined;
        reports.template = undefined;
        return { requeueAfterMs: 0 };
      }
      reports.binding = aggregated.bindingWritten ?? binding;
      reports.template = aggregated.templateWritten ?? template;
      await afterStatus(reports.binding, aggregated.bindingWritten !== undefined, foldedLane, true);
      return undefined;
    });
    reports.next = run;
    reports.chain = run.catch(() => undefined);
    return run;
  }

  /**
   * A rollout whose reports came in other batches too: the Works of the few targets that have not
   * reported yet (the core's `unreportedTargets`) are read, and those that have join this aggregation.
   * Their own reports then find their items written and write nothing.
   */
  async function withUnreported(
    template: KubeObject,
    bindingKey: string,
    targets: readonly string[],
    stored: readonly AggregatedStatusItem[],
    items: AggregatedStatusItem[],
  ): Promise<AggregatedStatusItem[]> {
    const missing = unreportedTargets(targets, stored, items);
    if (missing.length === 0) return items;
    const workName = workNameOf(template);
    const found = await Promise.all(
      missing.map(async (cluster) => ({ cluster, work: await store.get(workRefOf(cluster, workName)) })),
    );
    const ours = found.filter(
      (f): f is { cluster: string; work: KubeObject } => f.work !== undefined && bindingKeyOf(f.work) === bindingKey,
    );
    return withReportedWorks(template, items, targets, ours);
  }

  /**
   * While a cluster purged `Directly` still holds the binding's Work, no other Work of the binding is
   * created or updated (Karmada's binding controller waits the same way): the new copy must not start
   * before the old one is deleted. What is waited for is said in the `FailoverHandoffPending`
   * condition. An old cluster that is not Ready cannot confirm the deletion: after a cluster failover
   * the hold is released at once (the cluster has been failing for its whole toleration), after an
   * application failover when the task's grace period ends (the core's `directlyPurgeHandoff`); its
   * copy is deleted when it is reachable again, before anything new is applied there (the executor's
   * member sync deletes first).
   */
  async function purgeHold(
    binding: ResourceBinding,
    template: KubeObject,
    workName: string,
    clusters: ReadonlyMap<string, Cluster>,
    context: ReconcileContext,
  ): Promise<{ result?: ReconcileResult; binding: ResourceBinding }> {
    const purged = directlyPurgedClusters(binding.spec);
    const present = new Set<string>();
    await Promise.all(
      purged.map(async (name) => {
        if (await store.get(workRefOf(name, workName))) present.add(name);
      }),
    );
    const handoff = directlyPurgeHandoff({
      spec: binding.spec,
      oldCopyExists: (name) => present.has(name),
      clusterReady: (name) =>
        (clusters.get(name)?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
      nowMs: context.now,
      timeoutMs: gracefulEvictionTimeoutMs,
    });
    for (const name of handoff.released) {
      const message = `Cluster ${name} is not reachable, so its evicted copy cannot be deleted yet: the workload starts on its new cluster now, and the copy on ${name} is deleted when ${name} is reachable again, before anything else is sent to it.`;
      await events.record(binding, 'Warning', 'StaleCopyPending', message);
      await events.record(template, 'Warning', 'StaleCopyPending', message);
    }
    const nowText = rfc3339(context.now);
    const current = (binding.status?.conditions ?? []) as Condition[];
    const conditions = putCondition(current, HANDOFF_PENDING_CONDITION, handoff.condition, nowText);
    if (conditions !== current) {
      const written = await tryWrite(() =>
        store.updateStatus({ ...binding, status: { ...binding.status, conditions } }),
      );
      if (written.ok) {
        stats.statusWrites++;
        binding = written.object as ResourceBinding;
      } else if (written.reason === 'conflict') return { result: { requeueAfterMs: 0 }, binding };
    }
    if (handoff.waiting.length === 0) return { binding };
    context.logger.info('new works wait for the old copies to be deleted (purge mode Directly)', {
      clusters: handoff.waiting.map((w) => w.cluster).join(','),
    });
    const retryMs =
      handoff.nextMs === undefined ? PURGE_WAIT_MS : Math.min(PURGE_WAIT_MS, handoff.nextMs - context.now);
    return { result: { requeueAfterMs: Math.max(0, retryMs) }, binding };
  }

  /** Creates or updates one Work; `changed` when something was written. */
  async function ensureWork(
    rendered: RenderedWork,
    existing: KubeObject | undefined,
  ): Promise<{ changed: boolean; work: KubeObject } | 'retry'> {
    const plan = planWork(rendered, existing);
    if (plan.action === 'wait') return 'retry';
    if (plan.action === 'keep') return { changed: false, work: plan.work };
    // Every lost race is a retry; gone means its execution namespace is not there yet.
    const written = await tryWrite(() =>
      plan.action === 'create' ? store.create(plan.work) : store.update(plan.work, existing && { current: existing }),
    );
    return written.ok ? { changed: true, work: written.object } : 'retry';
  }

  /** Deletes the binding's Works in the clusters `select` picks; returns their refs. */
  async function deleteWorks(binding: ResourceBinding, select: (cluster: string) => boolean): Promise<ObjectRef[]> {
    const id = bindingIdOf(binding.metadata.labels);
    if (!id) return [];
    const removed: ObjectRef[] = [];
    let token: string | undefined;
    do {
      const page = await store.listDependents(id, { limit: 500, ...(token ? { continue: token } : {}) });
      for (const ref of page.items) {
        if (ref.group !== WORK_GROUP || ref.kind !== 'Work') continue;
        const cluster = clusterOfExecutionNamespace(ref.namespace);
        if (!cluster || !select(cluster)) continue;
        try {
          // Already being deleted: the executor has it (and retries it itself).
          if ((await store.get(ref))?.metadata.deletionTimestamp !== undefined) continue;
          await store.delete(ref);
          removed.push(ref);
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
        }
      }
      token = page.continue;
    } while (token);
    return removed;
  }

  async function removeBinding(
    binding: ResourceBinding,
    finalizer: string,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const removed = await deleteWorks(binding, () => true);
    if (removed.length > 0) {
      await enqueueExecutor(removed, lane);
      stats.worksDeleted += removed.length;
      context.logger.info('binding deleted; its works are being removed', { works: removed.length });
    }
    if (binding.spec.propagateDeps && !(await dependencies.release(binding, new Set(), lane)))
      return { requeueAfterMs: 1_000 };
    const released = quotaEnforcement
      ? await releaseBindingQuota(store, options.workQueue, binding, context.now)
      : binding;
    if (!released) return { requeueAfterMs: 0 };
    const removedFinalizer = await tryWrite(() => removeFinalizer(store, released, finalizer));
    if (!removedFinalizer.ok && removedFinalizer.reason === 'conflict') return { requeueAfterMs: 0 };
    // Its application failover windows go with it.
    if (applicationFailoverOf(binding.spec)) {
      await options.workQueue.enqueue([
        { controller: APPLICATION_FAILOVER_CONTROLLER_NAME, lane, key: formatKey(refOf(binding)), reason: 'deleted' },
      ]);
    }
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------------
  // Status

  /** A status write lost a race: aggregate again from the latest version, on the standard lane. */
  function requeueOnConflict(binding: ResourceBinding): Promise<void> {
    return options.workQueue.enqueue([
      { controller: BINDER_CONTROLLER_NAME, lane: 'standard', key: formatKey(refOf(binding)), reason: 'conflict' },
    ]);
  }

  // ---------------------------------------------------------------------------------------------------
  // Fan-out

  /** An (Cluster)OverridePolicy changed: every binding it may touch is rendered again. */
  async function fanOutForOverridePolicy(ref: ObjectRef, context: ReconcileContext): Promise<void> {
    const bindings =
      ref.kind === OVERRIDE_POLICY.kind
        ? await listAllRefs(store, { ...RESOURCE_BINDING, namespace: ref.namespace! })
        : [...(await listAllRefs(store, RESOURCE_BINDING)), ...(await listAllRefs(store, CLUSTER_RESOURCE_BINDING))];
    if (bindings.length === 0) return;
    context.logger.info('override policy changed; rendering bindings again', { bindings: bindings.length });
    await options.workQueue.enqueue(
      bindings.map((b) => ({
        controller: BINDER_CONTROLLER_NAME,
        lane: 'standard' as const,
        key: formatKey(b),
        reason: `override-policy:${ref.name}`,
      })),
    );
  }

  function enqueueExecutor(refs: readonly ObjectRef[], lane: Lane): Promise<void> {
    return options.workQueue.enqueue(
      refs.map((r) => ({ controller: EXECUTOR_CONTROLLER_NAME, lane, key: formatKey(r), reason: 'work-changed' })),
    );
  }
}

function workNameOf(template: KubeObject): string {
  return generateWorkName(template.kind, template.metadata.name!, template.metadata.namespace);
}

function workRefOf(cluster: string, name: string): ObjectRef {
  return { ...WORK, namespace: executionNamespace(cluster), name };
}
