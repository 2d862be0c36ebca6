/**
 * The search collector (karmada-search's controller and its informers, without an informer): keeps
 * the search cache (lib/search/cache-store.ts) equal to what the ResourceRegistries select in each
 * member, page by page, so no process holds a cluster's objects.
 *
 * - Key of a Cluster: one sync of that cluster — after each probe of a Push cluster (the
 *   cluster-status controller sends it), when a registry or the cluster changes. Read the cluster,
 *   the registries and the cluster's cache record; decide ({@link clusterSyncPlan}) what to collect
 *   and what to drop; then, for each collected kind, list the member in pages and make each page's
 *   key range of the cache equal to it ({@link cacheSyncPlan}: writes only for what changed). A
 *   member that cannot be read keeps its last objects, and its record says since when.
 * - Key of a ResourceRegistry: its `Synced` condition from the records of the clusters it selects;
 *   when its spec changed (or it is gone), every cluster syncs again.
 *
 * Pull clusters are collected from their agent's reports (webhook `search`), not here.
 */
import { CLUSTER, RESOURCE_REGISTRY } from '../api/karmada-names.ts';
import { formatKey, type KubeObject, parseKey, refOf } from '../api/object.ts';
import {
  type Cluster,
  type ClusterCacheRecord,
  clusterSyncPlan,
  type Collection,
  READY_CONDITION,
  registryCondition,
  type ResourceRegistryLike,
  trustedChunks,
} from '../core/index.ts';
import { findCondition, type Condition } from '../core/clusters/health.ts';
import { type CredentialCipher, SealError } from '../crypto/cipher.ts';
import { CredentialsError } from '../members/credentials.ts';
import type { MemberClient, MemberConnection } from '../members/client.ts';
import { MemberApiError, MemberUnreachableError } from '../members/client.ts';
import { cachedClient, cachedConnection } from '../members/connections.ts';
import type { Logger } from '../observability/logger.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import type { SearchCache } from '../search/cache-store.ts';
import { forEachMemberPage, type MemberKind } from '../search/member-pages.ts';
import { CLUSTER_CACHE, recordChangedForRegistries, writeClusterCacheRecord } from '../search/records.ts';
import { ChunkedSync, SyncBudgetExceeded } from '../search/chunked-sync.ts';
import { syncPage } from '../search/sync.ts';
import { listAll } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { forEachLimited } from '../util/concurrency.ts';
import { SEARCH_CONTROLLER_NAME } from './specs.ts';

export { CLUSTER_CACHE } from '../search/records.ts';

/** A kind's sync cut short: the chunks it finished. */
class PartialSync extends Error {
  readonly kind: Collection;
  readonly chunks: string[];
  constructor(kind: Collection, chunks: string[]) {
    super(`partial sync of ${kind.apiVersion}/${kind.kind}`);
    this.kind = kind;
    this.chunks = chunks;
  }
}

/** Objects per member list page, and per cache page. */
const DEFAULT_PAGE_SIZE = 500;
/** Cache writes of one page in flight at once. */
const WRITE_CONCURRENCY = 16;

export interface SearchControllerOptions {
  store: ObjectStore;
  cache: SearchCache;
  workQueue: WorkQueue;
  cipher?: CredentialCipher;
  /**
   * The client of a Push member (tests); default: its sealed credentials opened with `cipher`, and
   * the cached clients the other member controllers use.
   */
  clientFor?: (cluster: KubeObject, nowMs: number) => Promise<MemberClient>;
  /** How to reach a member from its opened credentials; default: a cached {@link MemberClient}. */
  connect?: (conn: MemberConnection) => MemberClient;
  pageSize?: number;
  /**
   * How long one sync may write before it records what it did and goes on in a new invocation
   * (default 150 s, half the function's timeout).
   */
  syncBudgetMs?: number;
  /**
   * A member-sync request within this long of the cluster's last sync is skipped (the probe
   * cadence may be faster than a large cluster's list). Registry and cluster changes always sync.
   */
  minSyncIntervalMs?: number;
}

/** Counters a benchmark or test can read. */
export interface SearchStats {
  syncs: number;
  pagesRead: number;
  cacheWrites: number;
  cacheRemovals: number;
  /** Chunks found unchanged (not read from the cache), and chunks compared with it. */
  chunksSkipped: number;
  chunksSynced: number;
}

export function createSearchController(options: SearchControllerOptions): Controller & { stats: SearchStats } {
  const { store, cache } = options;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const syncBudgetMs = options.syncBudgetMs ?? 150_000;
  const clientFor =
    options.clientFor ??
    (options.cipher
      ? async (cluster: KubeObject, nowMs: number) =>
          (options.connect ?? cachedClient)(await cachedConnection(store, options.cipher!, cluster, nowMs))
      : undefined);
  const stats: SearchStats = {
    syncs: 0,
    pagesRead: 0,
    cacheWrites: 0,
    cacheRemovals: 0,
    chunksSkipped: 0,
    chunksSynced: 0,
  };

  const enqueue = (keys: string[], lane: ReconcileRequest['lane'], reason: string) =>
    keys.length
      ? options.workQueue.enqueue(keys.map((key) => ({ controller: SEARCH_CONTROLLER_NAME, lane, key, reason })))
      : Promise.resolve();

  /** Deletes every cached object of a kind in a cluster. */
  const dropKind = async (cluster: string, kind: Collection) => {
    for (;;) {
      const entries = await cache.entries(cluster, kind, {}, pageSize);
      if (entries.length === 0) return;
      await forEachLimited(entries, WRITE_CONCURRENCY, async (e) => {
        if (await cache.remove(cluster, kind, e.key, e.version)) stats.cacheRemovals++;
      });
      if (entries.length < pageSize) return;
    }
  };

  /**
   * One kind of one member into the cache, chunk by chunk: chunks unchanged since the last sync are
   * not read from the cache (once an hour every chunk is compared anyway, in case the cache was
   * changed behind the collector's back).
   */
  const collectKind = async (
    client: MemberClient,
    cluster: string,
    kind: Collection,
    previous: ClusterCacheRecord['kinds'][number] | undefined,
    nowMs: number,
    overBudget: () => boolean,
    logger: Logger,
  ): Promise<MemberKind & { chunks: string[]; verifiedAt: string }> => {
    const carried = trustedChunks(previous, nowMs);
    const chunked = new ChunkedSync((chunk) => syncPage(cache, cluster, kind, chunk, logger), carried, overBudget);
    let listed: MemberKind;
    try {
      listed = await forEachMemberPage(client, kind, pageSize, async (page) => {
        stats.pagesRead++;
        await chunked.add(page);
      });
    } catch (err) {
      if (err instanceof SyncBudgetExceeded) throw new PartialSync(kind, chunked.chunks);
      throw err;
    } finally {
      stats.cacheWrites += chunked.stats.written;
      stats.cacheRemovals += chunked.stats.removed;
      stats.chunksSkipped += chunked.stats.chunksSkipped;
      stats.chunksSynced += chunked.stats.chunksSynced;
    }
    return {
      ...listed,
      chunks: chunked.chunks,
      // Compared every chunk (none carried, or only a cut-short sync's): verified now.
      verifiedAt:
        carried && !previous?.partial && previous?.verifiedAt ? previous.verifiedAt : new Date(nowMs).toISOString(),
    };
  };

  const syncCluster = async (
    name: string,
    request: ReconcileRequest,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> => {
    const [clusterObj, registries, recordObj] = await Promise.all([
      store.get({ ...CLUSTER, name }),
      listAll(store, RESOURCE_REGISTRY),
      store.get({ ...CLUSTER_CACHE, name }),
    ]);
    const cluster = clusterObj as Cluster | undefined;
    const previous = recordObj?.spec as ClusterCacheRecord | undefined;
    const plan = clusterSyncPlan(cluster, registries as ResourceRegistryLike[], previous);
    const onlyProbe = request.reasons.every((r) => r === 'member-sync');
    const lastSync = Math.max(0, ...(previous?.kinds ?? []).map((k) => Date.parse(k.syncedAt ?? '') || 0));
    if (
      onlyProbe &&
      plan.drop.length === 0 &&
      previous?.reachable &&
      options.minSyncIntervalMs &&
      context.now - lastSync < options.minSyncIntervalMs
    ) {
      return;
    }
    for (const kind of plan.drop) await dropKind(name, kind);
    if (plan.collect.length === 0) {
      await writeClusterCacheRecord(store, name, recordObj, undefined);
      if (previous)
        await enqueue(
          registries.map((r) => formatKey(refOf(r))),
          'standard',
          'cluster-cache',
        );
      return;
    }
    stats.syncs++;
    const nowText = new Date(context.now).toISOString();
    const before = new Map((previous?.kinds ?? []).map((k) => [`${k.apiVersion}/${k.kind}`, k]));
    const unreachable = (message: string): ClusterCacheRecord => ({
      // Kinds keep what they hold; newly selected ones are recorded as not collected yet.
      kinds: plan.collect.map((c) => ({ ...(before.get(`${c.apiVersion}/${c.kind}`) ?? {}), ...c })),
      reachable: false,
      unreachableSince: previous?.reachable === false ? (previous.unreachableSince ?? nowText) : nowText,
      message,
    });
    const mode = (cluster!.spec as { syncMode?: string } | undefined)?.syncMode;
    const ready = findCondition((cluster!.status?.conditions ?? []) as Condition[], READY_CONDITION)?.status === 'True';
    let record: ClusterCacheRecord;
    if (mode === 'Pull') {
      // Its agent reports the objects (webhook `cache`); here only its silence is judged.
      record = !ready
        ? unreachable('the cluster is not Ready: its agent has stopped reporting')
        : previous?.reachable
          ? {
              ...previous,
              kinds: plan.collect.map((c) => ({ ...(before.get(`${c.apiVersion}/${c.kind}`) ?? {}), ...c })),
            }
          : unreachable('a Pull cluster whose agent has not reported its objects yet');
    } else if (!ready) {
      record = unreachable('the cluster is not Ready');
    } else if (!clientFor) {
      record = unreachable('this control plane has no key to open member credentials');
    } else {
      const budgetEnds = performance.now() + syncBudgetMs;
      const overBudget = () => performance.now() > budgetEnds;
      try {
        const client = await clientFor(cluster!, context.now);
        const kinds: ClusterCacheRecord['kinds'] = [];
        for (const kind of plan.collect) {
          const last = before.get(`${kind.apiVersion}/${kind.kind}`);
          try {
            kinds.push({
              ...kind,
              ...(await collectKind(client, name, kind, last, context.now, overBudget, context.logger)),
              syncedAt: nowText,
            });
          } catch (err) {
            if (err instanceof PartialSync) {
              // Out of time: what was done is recorded, the rest goes on in a new invocation at once.
              const done = kinds.map((k) => `${k.apiVersion}/${k.kind}`);
              const rest = plan.collect
                .filter((c) => c !== kind && !done.includes(`${c.apiVersion}/${c.kind}`))
                .map((c) => ({ ...(before.get(`${c.apiVersion}/${c.kind}`) ?? {}), ...c }));
              const partial: ClusterCacheRecord = {
                kinds: [...kinds, { ...(last ?? {}), ...kind, chunks: err.chunks, partial: true }, ...rest],
                reachable: true,
              };
              await writeClusterCacheRecord(store, name, recordObj, partial);
              context.logger.info('sync cut at its time budget; going on in a new invocation', {
                cluster: name,
                kind: `${kind.apiVersion}/${kind.kind}`,
                chunks: err.chunks.length,
              });
              return { requeueAfterMs: 0, requeueLane: request.lane };
            }
            if (!(err instanceof MemberApiError)) throw err;
            // The member does not serve the kind (yet), or refuses the list: said per kind.
            kinds.push({ ...(before.get(`${kind.apiVersion}/${kind.kind}`) ?? {}), ...kind, error: err.message });
          }
        }
        record = { kinds, reachable: true };
      } catch (err) {
        if (err instanceof SealError || err instanceof CredentialsError) {
          record = unreachable(`its credentials cannot be opened: ${err.message}`);
        } else if (!(err instanceof MemberUnreachableError)) throw err;
        else {
          context.logger.warn('member unreachable; its cached objects stay as last collected', {
            cluster: name,
            reason: err.message,
          });
          record = unreachable(`unreachable: ${err.message}`);
        }
      }
    }
    await writeClusterCacheRecord(store, name, recordObj, record);
    const changed = recordChangedForRegistries(previous, record);
    if (changed)
      await enqueue(
        registries.map((r) => formatKey(refOf(r))),
        'standard',
        'cluster-cache',
      );
  };

  const reconcileRegistry = async (name: string, request: ReconcileRequest, context: ReconcileContext) => {
    const [registry, clusters] = await Promise.all([
      store.get({ ...RESOURCE_REGISTRY, name }),
      listAll(store, CLUSTER),
    ]);
    const stored = ((registry?.status as { conditions?: unknown[] } | undefined)?.conditions ?? []) as (Condition & {
      observedGeneration?: number;
    })[];
    const previous = stored.find((c) => c.type === 'Synced');
    // A new or changed registry (or a deleted one): every cluster works out its collection again.
    if (!registry || previous?.observedGeneration !== registry.metadata.generation) {
      await enqueue(
        clusters.map((c) => formatKey(refOf(c))),
        request.lane,
        'resource-registry',
      );
    }
    if (!registry || registry.metadata.deletionTimestamp) return;
    const records = new Map(
      (await listAll(store, CLUSTER_CACHE)).map((r) => [r.metadata.name!, r.spec as unknown as ClusterCacheRecord]),
    );
    const condition = registryCondition(registry as ResourceRegistryLike, clusters as Cluster[], records);
    const same =
      previous &&
      previous.status === condition.status &&
      previous.reason === condition.reason &&
      previous.message === condition.message &&
      previous.observedGeneration === condition.observedGeneration;
    if (same) return;
    const lastTransitionTime =
      previous && previous.status === condition.status
        ? previous.lastTransitionTime
        : new Date(context.now).toISOString().replace(/\.\d+Z$/, 'Z');
    await tryWrite(() =>
      store.updateStatus({
        ...registry,
        status: {
          ...(registry.status ?? {}),
          conditions: [...stored.filter((c) => c.type !== 'Synced'), { ...condition, lastTransitionTime }],
        },
      }),
    );
  };

  return {
    name: SEARCH_CONTROLLER_NAME,
    stats,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      if (ref.group === RESOURCE_REGISTRY.group && ref.kind === RESOURCE_REGISTRY.kind) {
        await reconcileRegistry(ref.name, request, context);
      } else if (ref.group === CLUSTER.group && ref.kind === CLUSTER.kind) {
        context.logger.appendKeys({ cluster: ref.name });
        return syncCluster(ref.name, request, context);
      }
      return undefined;
    },
  };
}
