/**
 * The cluster status controller (Karmada's cluster-status controller for Push clusters, and the
 * cluster controller's health monitor and taints): one reconcile per probe.
 *
 * - Push: probe `/readyz` (fallback `/healthz`) with the cluster's sealed credentials; smooth the
 *   observed Ready condition with the success/failure thresholds (the per-cluster threshold state
 *   Karmada keeps in memory is persisted in an internal ClusterHealth object); while Ready, collect
 *   version, API enablements, node and resource summaries and model counts (at most once a minute).
 * - Pull: the agent posts its own status; here only its silence is judged — when the lease the
 *   agent renews is older than the grace period, Ready becomes Unknown.
 * - Both: the not-ready / unreachable NoSchedule taints follow the Ready condition.
 *
 * It writes only when something changed. The sweep key `*` (an EventBridge schedule, every minute)
 * fans out one probe per cluster per `--cluster-status-update-frequency`.
 */
import { CLUSTER, CLUSTER_TAINT_POLICY, RESOURCE_REGISTRY } from '../api/karmada-names.ts';
import type { KubeObject } from '../api/object.ts';
import { formatKey, parseKey, refOf } from '../api/object.ts';
import type { FailoverSettings } from '../config/failover.ts';
import {
  applyClusterTaintPolicies,
  type Cluster,
  clusterMatches,
  type ClusterTaintPolicySpec,
  noExecuteTaints,
  noExecuteTaintsByCondition,
  probeDelays,
  probeSlotsPerMinute,
} from '../core/index.ts';
import {
  type Condition,
  findCondition,
  type HealthSettings,
  observedReady,
  type ObservedCondition,
  pullClusterStaleness,
  READY_CONDITION,
  rfc3339,
  setCondition,
  statusCollectionFailed,
  type Taint,
  taintsForReady,
  type ThresholdState,
  thresholdAdjustedReady,
} from '../core/clusters/health.ts';
import type { ClusterTimings } from '../config/runtime.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import { SealError } from '../crypto/cipher.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import type { MemberClient, MemberConnection } from '../members/client.ts';
import { cachedClient, cachedConnection } from '../members/connections.ts';
import { CREDENTIALS_NAMESPACE, CredentialsError } from '../members/credentials.ts';
import { collectApiEnablements, collectStatus, resourceModelsOf } from '../members/status.ts';
import type { WorkQueue } from '../queue/port.ts';
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
import { clusterRecordSpec, writeClusterRecord } from './cluster-record.ts';
import { deepEqual } from '../util/json.ts';
import { once } from '../util/memo.ts';
import {
  CLUSTER_STATUS_CONTROLLER_NAME,
  EVICTION_CONTROLLER_NAME,
  EXECUTOR_CONTROLLER_NAME,
  SCHEDULER_CONTROLLER_NAME,
  SEARCH_CONTROLLER_NAME,
  SWEEP_KEY,
  UNSCHEDULABLE_KEY,
} from './specs.ts';

/** Internal bookkeeping per cluster (not served by the API). */
export const CLUSTER_HEALTH = { group: 'cluster.serverless-karmada.io', kind: 'ClusterHealth' };
/**
 * Node and resource summaries are collected at most every six status updates, and at least every minute
 * (probes and API enablements stay at the update frequency): Karmada collects everything at every
 * update; listing nodes and pods is the expensive part.
 */
const collectEveryMs = (timings: ClusterTimings) => Math.min(60_000, 6 * timings.statusUpdateFrequencyMs);

export interface ClusterStatusOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  cipher: CredentialCipher;
  timings: ClusterTimings;
  /** Records TaintClusterSucceed/Failed, as Karmada's cluster controller does. */
  events?: EventRecorder;
  /** How to reach a member (tests inject one); default: a cached {@link MemberClient}. */
  connect?: (conn: MemberConnection) => MemberClient;
  /**
   * NoExecute taints (the `Failover` gate): the seeds' `--failover-eviction-timeout` rule and
   * ClusterTaintPolicies. Without it, only the Ready condition's NoSchedule taints are kept.
   */
  failover?: Pick<FailoverSettings, 'featureGates' | 'failoverEvictionTimeoutMs'>;
}

/** What one batch shares: the ClusterTaintPolicies, read once when a cluster needs them. */
interface ClusterStatusBatch extends BatchScope {
  readonly policies: () => Promise<KubeObject[]>;
  /**
   * Whether any ResourceRegistry exists (read once per batch): without one the search collector has
   * nothing to collect, so probes do not wake it (a deleted last registry syncs every cluster itself).
   */
  readonly searchWanted: () => Promise<boolean>;
}

interface HealthState {
  threshold?: ThresholdState;
  lastCollectedMs?: number;
}

export function createClusterStatusController(options: ClusterStatusOptions): Controller {
  const { store, timings } = options;
  const settings: HealthSettings = {
    successThresholdMs: timings.successThresholdMs,
    failureThresholdMs: timings.failureThresholdMs,
    monitorGracePeriodMs: timings.monitorGracePeriodMs,
    startupGracePeriodMs: timings.startupGracePeriodMs,
  };
  const events = options.events ?? NO_EVENTS;
  const connect = options.connect ?? cachedClient;

  const openBatch = async (): Promise<ClusterStatusBatch> => ({
    policies: once(() => listAll(store, CLUSTER_TAINT_POLICY)),
    searchWanted: once(async () => (await store.listRefs({ ...RESOURCE_REGISTRY, limit: 1 })).items.length > 0),
  });

  return {
    name: CLUSTER_STATUS_CONTROLLER_NAME,
    openBatch,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      if (request.key === SWEEP_KEY) {
        await sweep(options, context);
        return undefined;
      }
      const ref = parseKey(request.key);
      if (ref.group === CLUSTER_TAINT_POLICY.group && ref.kind === CLUSTER_TAINT_POLICY.kind) {
        // A ClusterTaintPolicy changed: every cluster's taints are worked out again.
        const clusters = await listAll(store, CLUSTER);
        await options.workQueue.enqueue(
          clusters.map((c) => ({
            controller: CLUSTER_STATUS_CONTROLLER_NAME,
            lane: request.lane,
            key: formatKey(refOf(c)),
            reason: 'cluster-taint-policy',
          })),
        );
        return undefined;
      }
      const batch = (context.batch as ClusterStatusBatch | undefined) ?? (await openBatch());
      const cluster = await store.get(ref);
      if (!cluster || cluster.metadata.deletionTimestamp) return undefined;
      // A new cluster joins the probe rotation now rather than at the next minute's sweep.
      if (request.reasons.some((r) => NEW_CLUSTER_REASONS.has(r))) await scheduleProbes(options, [ref.name], 1);
      const now = context.now;
      const nowText = rfc3339(now);
      const status = (cluster.status ?? {}) as Record<string, unknown>;
      const conditions = (status.conditions ?? []) as Condition[];
      const mode = (cluster.spec as { syncMode?: string } | undefined)?.syncMode;
      let nextStatus: Record<string, unknown> = status;

      if (mode === 'Pull') {
        const stale = await pullStaleness(store, cluster, conditions, now, settings);
        if (stale)
          nextStatus = {
            ...status,
            conditions: setCondition(conditions, { type: READY_CONDITION, ...stale }, nowText),
          };
      } else {
        const { stored: healthObject, state: health } = await readHealth(store, cluster);
        let observed: ObservedCondition = statusCollectionFailed('no client');
        let client: MemberClient | undefined;
        try {
          client = connect(await cachedConnection(store, options.cipher, cluster, now));
        } catch (err) {
          // The key service failing is the control plane's problem, not the member's: retry.
          if (err instanceof SealError && err.transient) throw err;
          context.logger.warn('cannot build a client for the cluster', { error: (err as Error).message });
          observed = statusCollectionFailed(
            err instanceof CredentialsError
              ? err.message
              : err instanceof SealError
                ? 'the cluster credentials could not be opened (see the cluster-status logs)'
                : `invalid cluster endpoint: ${(err as Error).message}`,
          );
        }
        if (client) observed = observedReady(await client.probe());
        const current = findCondition(conditions, READY_CONDITION);
        const { ready, state } = thresholdAdjustedReady(current, observed, health.threshold, now, settings);
        let nextConditions = setCondition(conditions, { type: READY_CONDITION, ...ready }, nowText);
        const nextHealth: HealthState = { ...health, threshold: state };
        const becameReady = ready.status === 'True' && current?.status !== 'True';
        const due = health.lastCollectedMs === undefined || now - health.lastCollectedMs >= collectEveryMs(timings);
        let collected: Record<string, unknown> = {};
        if (client && ready.status === 'True' && observed.status === 'True') {
          // Summaries when due; between them the API enablements alone, at every status update.
          const full = becameReady || due;
          try {
            const { apiEnablementsCondition, ...c } = full
              ? await collectStatus(client, resourceModelsOf(cluster))
              : await collectApiEnablements(client);
            nextConditions = setCondition(nextConditions, apiEnablementsCondition, nowText);
            collected = c;
            if (full) nextHealth.lastCollectedMs = now;
          } catch (err) {
            // Whatever the member answered (errors, malformed discovery): keep the last summaries.
            context.logger.warn('could not collect the cluster status; keeping the last one', {
              error: (err as Error).message,
            });
          }
        }
        nextStatus = { ...status, ...collected, conditions: nextConditions };
        await writeHealth(store, cluster, healthObject, health, nextHealth);
      }

      let latest = cluster;
      if (JSON.stringify(nextStatus) !== JSON.stringify(status)) {
        const written = await tryWrite(() =>
          store.updateStatus({ ...cluster, status: nextStatus }, { current: cluster }),
        );
        if (!written.ok) return written.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
        latest = written.object;
        if (schedulingInputsChanged(status, nextStatus)) await tellScheduler(options.workQueue, 'cluster-status');
        context.logger.debug('cluster status updated', {
          ready: findCondition(nextStatus.conditions as Condition[], READY_CONDITION)?.status,
        });
      }
      // A Ready Push member is synced by the executor at the probe's cadence: drift corrected, Work
      // status refreshed, and Works that could not be applied while it was down applied now.
      // The search cache follows the member at the same cadence when any registry exists (the collector
      // skips a cluster no registry selects); not Ready, it marks the member's objects as last collected.
      const search =
        mode !== 'Pull' && (await batch.searchWanted())
          ? [{ controller: SEARCH_CONTROLLER_NAME, lane: 'standard' as const, key: request.key, reason: 'member-sync' }]
          : [];
      if (mode !== 'Pull' && findCondition(nextStatus.conditions as Condition[], READY_CONDITION)?.status === 'True') {
        await options.workQueue.enqueue([
          { controller: EXECUTOR_CONTROLLER_NAME, lane: 'standard', key: request.key, reason: 'member-sync' },
          ...search,
        ]);
      } else await options.workQueue.enqueue(search);
      return syncTaints(options, latest, events, nextStatus.conditions as Condition[], batch, now, context);
    },
  };
}

/** The agent's silence, for a Pull cluster: the Unknown condition to set, or undefined. */
async function pullStaleness(
  store: ObjectStore,
  cluster: KubeObject,
  conditions: Condition[],
  now: number,
  settings: HealthSettings,
): Promise<ReturnType<typeof pullClusterStaleness>> {
  const lease = await store.get({
    group: 'coordination.k8s.io',
    kind: 'Lease',
    namespace: CREDENTIALS_NAMESPACE,
    name: cluster.metadata.name!,
  });
  const renewTime = (lease?.spec as { renewTime?: string } | undefined)?.renewTime;
  const renewed = renewTime ? Date.parse(renewTime) : Number.NaN;
  return pullClusterStaleness({
    createdMs: Date.parse(cluster.metadata.creationTimestamp ?? '') || now,
    ready: findCondition(conditions, READY_CONDITION),
    lastHeardMs: Number.isNaN(renewed) ? undefined : renewed,
    nowMs: now,
    settings,
  });
}

/**
 * Taints follow the conditions, in one write when they change: the Ready condition's NoSchedule taints
 * (Karmada's `taintClusterByCondition`); with the `Failover` gate, the seeds' NoExecute taints after
 * `--failover-eviction-timeout` of NotReady/Unknown, and every ClusterTaintPolicy that targets the
 * cluster. A timeout still running comes back when it ends (a delayed message, not a memory).
 */
async function syncTaints(
  options: ClusterStatusOptions,
  cluster: KubeObject,
  events: EventRecorder,
  conditions: Condition[] | undefined,
  batch: ClusterStatusBatch,
  nowMs: number,
  context: ReconcileContext,
): Promise<ReconcileResult | undefined> {
  const nowText = rfc3339(nowMs);
  const spec = (cluster.spec ?? {}) as { taints?: Taint[] };
  const ready = findCondition(conditions, READY_CONDITION);
  let taints = taintsForReady(spec.taints, ready, nowText);
  let nextCheckMs: number | undefined;
  const failover = options.failover;
  if (failover?.featureGates.Failover) {
    const byCondition = noExecuteTaintsByCondition({
      taints,
      ready,
      nowMs,
      timeoutMs: failover.failoverEvictionTimeoutMs,
    });
    taints = byCondition.taints;
    nextCheckMs = byCondition.nextCheckMs;
    taints = applyClusterTaintPolicies({
      taints,
      conditions,
      policies: (await batch.policies()).map((p) => ({
        name: p.metadata.name!,
        ...(p.metadata.creationTimestamp ? { creationTimestamp: p.metadata.creationTimestamp } : {}),
        spec: p.spec as ClusterTaintPolicySpec,
      })),
      targets: (affinity) => !affinity || clusterMatches(cluster as Cluster, affinity),
      now: nowText,
    });
  }
  const requeue = nextCheckMs !== undefined ? { requeueAfterMs: Math.max(0, nextCheckMs - nowMs) } : undefined;
  if (deepEqual(taints, spec.taints ?? [])) return requeue;
  let written;
  try {
    written = await tryWrite(() => options.store.update({ ...cluster, spec: { ...spec, taints } }));
  } catch (err) {
    await events.record(cluster, 'Warning', 'TaintClusterFailed', `Taint cluster failed: ${(err as Error).message}`);
    throw err;
  }
  if (!written.ok) return written.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
  const keys = taints.map((t) => `${t.key}:${t.effect}`).join(', ') || 'none';
  context.logger.info('cluster taints changed', { taints: keys });
  await tellScheduler(options.workQueue, 'cluster-taints');
  if (!deepEqual(noExecuteTaints(taints), noExecuteTaints(spec.taints))) {
    // The bindings placed there are examined now (or, the taints gone, their eviction tasks end).
    await options.workQueue.enqueue([
      {
        controller: EVICTION_CONTROLLER_NAME,
        lane: 'priority',
        key: formatKey(refOf(cluster)),
        reason: 'taints-changed',
      },
    ]);
  }
  await events.record(cluster, 'Normal', 'TaintClusterSucceed', `Taint cluster succeed: taints now ${keys}.`);
  return requeue;
}

/** What the scheduler reads from a cluster's status: capacity and served APIs. */
function schedulingInputsChanged(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return (
    JSON.stringify(before.resourceSummary) !== JSON.stringify(after.resourceSummary) ||
    JSON.stringify(before.apiEnablements) !== JSON.stringify(after.apiEnablements)
  );
}

/** Capacity, taints or APIs changed: bindings that could not be scheduled get another chance (#3112). */
function tellScheduler(workQueue: WorkQueue, reason: string): Promise<void> {
  return workQueue.enqueue([
    { controller: SCHEDULER_CONTROLLER_NAME, lane: 'standard', key: UNSCHEDULABLE_KEY, reason },
  ]);
}

/** Keys enqueued for these reasons are new clusters (API create, Pull registration). */
const NEW_CLUSTER_REASONS = new Set(['api-create', 'cluster-registered']);

/** Probe slots in a minute: one per `--cluster-status-update-frequency` (at least 1 s apart). */
/** Enqueues probes of `clusters` for the update-frequency slots of the coming minute, from slot `first`. */
async function scheduleProbes(options: ClusterStatusOptions, clusters: readonly string[], first = 0): Promise<void> {
  const delays = probeDelays(options.timings.statusUpdateFrequencyMs, first);
  await options.workQueue.enqueue(
    clusters.flatMap((name) =>
      delays.map((delayMs) => ({
        controller: CLUSTER_STATUS_CONTROLLER_NAME,
        lane: 'standard' as const,
        key: formatKey({ ...CLUSTER, name }),
        delayMs,
        reason: 'sweep',
      })),
    ),
  );
}

/** Enqueues one probe per cluster per update-frequency slot of the coming minute. */
async function sweep(options: ClusterStatusOptions, context: ReconcileContext): Promise<void> {
  let token: string | undefined;
  let clusters = 0;
  do {
    const page = await options.store.listRefs({ ...CLUSTER, limit: 500, ...(token ? { continue: token } : {}) });
    await scheduleProbes(
      options,
      page.items.map((ref) => ref.name),
    );
    clusters += page.items.length;
    token = page.continue;
  } while (token);
  context.logger.debug('cluster sweep scheduled', {
    clusters,
    probesEach: probeSlotsPerMinute(options.timings.statusUpdateFrequencyMs),
  });
}

/** The cluster's ClusterHealth object (kept for the write) and the state it holds. */
async function readHealth(
  store: ObjectStore,
  cluster: KubeObject,
): Promise<{ stored: KubeObject | undefined; state: HealthState }> {
  const stored = await store.get({ ...CLUSTER_HEALTH, name: cluster.metadata.name! });
  // A ClusterHealth left from an earlier cluster of the same name does not carry over.
  return { stored, state: clusterRecordSpec<{ state?: HealthState }>(stored, cluster)?.state ?? {} };
}

async function writeHealth(
  store: ObjectStore,
  cluster: KubeObject,
  current: KubeObject | undefined,
  before: HealthState,
  after: HealthState,
): Promise<void> {
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  await writeClusterRecord(store, { ...CLUSTER_HEALTH, version: 'v1' }, cluster, current, { state: after });
}
