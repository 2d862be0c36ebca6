/**
 * What a Pull cluster's agent tells the search cache, through its signed webhooks (it lists its
 * member itself: nothing connects in):
 *
 * - `search`: which kinds to collect (and in which namespaces) — what the registries select for it;
 * - `cache`: one page of one kind, synced into the cache as the collector syncs a Push member's page;
 *   after the kind's last page, a report with only a summary (object count, list resourceVersion,
 *   resource name) updates the cluster's record.
 *
 * A page of a kind no registry selects for the cluster, outside its namespaces, or out of key order
 * is refused (403/400) and changes nothing.
 */
import { RESOURCE_REGISTRY } from '../api/karmada-names.ts';
import { formatKey, type KubeObject, refOf } from '../api/object.ts';
import {
  cacheKeyOf,
  type Cluster,
  type ClusterCacheRecord,
  type Collection,
  collectionsFor,
  compareCacheKeys,
  resourceKeyOf,
  type ResourceRegistryLike,
  toCached,
  trustedChunks,
} from '../core/index.ts';
import { ApiError, apiErrors } from '../kube/base/errors.ts';
import type { Logger } from '../observability/logger.ts';
import { listAll } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import type { SearchCache } from './cache-store.ts';
import { CLUSTER_CACHE, recordChangedForRegistries, writeClusterCacheRecord } from './records.ts';
import { syncPage } from './sync.ts';

/** Objects one `cache` report may carry (the agent sends pages of 100: request bodies are capped at 3 MiB). */
export const MAX_REPORTED_OBJECTS = 500;

/**
 * The kinds a Pull cluster's agent is to collect, each with the chunks it may skip (those recorded at
 * its last report, while they are trusted): the agent posts only chunks whose fingerprint changed.
 */
export async function collectionsForAgent(
  store: ObjectStore,
  cluster: KubeObject,
  nowMs: number,
): Promise<(Collection & { chunks?: string[] })[]> {
  const [registries, record] = await Promise.all([
    listAll(store, RESOURCE_REGISTRY),
    store.get({ ...CLUSTER_CACHE, name: cluster.metadata.name! }),
  ]);
  const kinds = (record?.spec as ClusterCacheRecord | undefined)?.kinds ?? [];
  return collectionsFor(registries as ResourceRegistryLike[], cluster as Cluster).map((c) => {
    const chunks = trustedChunks(
      kinds.find((k) => resourceKeyOf(k) === resourceKeyOf(c)),
      nowMs,
    );
    return chunks ? { ...c, chunks } : c;
  });
}

export interface CachePageReport {
  apiVersion: string;
  kind: string;
  prefix?: string;
  after?: string;
  /** Absent in a summary-only report. */
  items?: KubeObject[];
  last?: boolean;
  /**
   * After the kind's last page: what was listed, the chunks of this report (`chunks`), and whether
   * every chunk was posted (`comparedAll`: none skipped as unchanged).
   */
  summary?: {
    objects: number;
    resourceVersion?: string;
    plural: string;
    namespaced: boolean;
    chunks?: string[];
    comparedAll?: boolean;
  };
}

/** Checks a `cache` report's shape; a 400 saying what is wrong otherwise. */
export function parseCachePageReport(body: Record<string, unknown>): CachePageReport {
  const str = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 512;
  if (!str(body.apiVersion) || !str(body.kind)) throw apiErrors.badRequest('a cache report needs apiVersion and kind');
  if (body.prefix !== undefined && (!str(body.prefix) || !(body.prefix as string).endsWith('/'))) {
    throw apiErrors.badRequest('prefix must be "<namespace>/"');
  }
  if (body.after !== undefined && !str(body.after)) throw apiErrors.badRequest('after must be a non-empty key');
  if (body.items === undefined && body.summary === undefined) {
    throw apiErrors.badRequest('a cache report carries items (a page) or a summary');
  }
  if (body.items !== undefined && typeof body.last !== 'boolean') {
    throw apiErrors.badRequest('last must be true or false');
  }
  if (body.items !== undefined && (!Array.isArray(body.items) || body.items.length > MAX_REPORTED_OBJECTS)) {
    throw apiErrors.badRequest(`items must be a list of at most ${MAX_REPORTED_OBJECTS} objects`);
  }
  for (const item of (body.items ?? []) as unknown[]) {
    const name = (item as { metadata?: { name?: unknown } } | null)?.metadata?.name;
    if (typeof item !== 'object' || item === null || typeof name !== 'string' || name === '') {
      throw apiErrors.badRequest('every item must be an object with metadata.name');
    }
  }
  const summary = body.summary as CachePageReport['summary'] | undefined;
  if (
    summary !== undefined &&
    (typeof summary !== 'object' ||
      summary === null ||
      typeof summary.objects !== 'number' ||
      !str(summary.plural) ||
      typeof summary.namespaced !== 'boolean')
  ) {
    throw apiErrors.badRequest(
      'summary must be {objects, plural, namespaced, resourceVersion?, chunks?, comparedAll?}',
    );
  }
  if (
    summary?.chunks !== undefined &&
    (!Array.isArray(summary.chunks) ||
      summary.chunks.length > 100_000 ||
      summary.chunks.some((c) => typeof c !== 'string' || c.length > 4096))
  ) {
    throw apiErrors.badRequest('summary.chunks must be a list of chunk records');
  }
  return body as unknown as CachePageReport;
}

/**
 * Syncs one reported page into the cache; a summary updates the cluster's record. Answers the next
 * page's `after`, and the registries whose condition the record changed (for the caller to enqueue).
 */
export async function acceptCachePage(
  options: { store: ObjectStore; cache: SearchCache; nowMs: number; logger?: Logger },
  cluster: KubeObject,
  report: CachePageReport,
): Promise<{ through?: string; complete?: boolean; registriesToRefresh: string[] }> {
  const name = cluster.metadata.name!;
  const registries = (await listAll(options.store, RESOURCE_REGISTRY)) as ResourceRegistryLike[];
  const collection = collectionsFor(registries, cluster as Cluster).find(
    (c) => resourceKeyOf(c) === resourceKeyOf(report),
  );
  if (!collection) {
    throw new ApiError(403, 'Forbidden', `no ResourceRegistry selects ${resourceKeyOf(report)} in cluster ${name}`);
  }
  const namespace = report.prefix?.slice(0, -1);
  if (collection.namespaces && (namespace === undefined || !collection.namespaces.includes(namespace))) {
    throw new ApiError(
      403,
      'Forbidden',
      `${resourceKeyOf(report)} is collected in cluster ${name} only in namespaces ${collection.namespaces.join(', ')}`,
    );
  }
  let through: string | undefined;
  let complete: boolean | undefined;
  if (report.items) {
    const items = report.items.map((o) => toCached(o, report.apiVersion, report.kind));
    for (const item of items) {
      const key = cacheKeyOf(item);
      if (report.prefix && !key.startsWith(report.prefix)) {
        throw apiErrors.badRequest(`${key} is outside ${report.prefix}`);
      }
      if (report.after !== undefined && compareCacheKeys(key, report.after) <= 0) {
        throw apiErrors.badRequest(`${key} does not come after ${report.after}: pages must follow the list's order`);
      }
    }
    const synced = await syncPage(
      options.cache,
      name,
      collection,
      {
        ...(report.prefix ? { prefix: report.prefix } : {}),
        ...(report.after !== undefined ? { after: report.after } : {}),
        items,
        last: report.last ?? false,
      },
      options.logger,
    );
    through = synced.through;
    complete = synced.complete;
  }
  if (report.summary) {
    const current = await options.store.get({ ...CLUSTER_CACHE, name });
    const previous = current?.spec as ClusterCacheRecord | undefined;
    const kinds = (previous?.reachable ? previous.kinds : []).filter(
      (k) => resourceKeyOf(k) !== resourceKeyOf(collection),
    );
    const before = previous?.kinds.find((k) => resourceKeyOf(k) === resourceKeyOf(collection));
    const now = new Date(options.nowMs).toISOString();
    const { comparedAll, ...summary } = report.summary;
    const next: ClusterCacheRecord = {
      kinds: [
        ...kinds,
        {
          ...collection,
          ...summary,
          syncedAt: now,
          verifiedAt: comparedAll || !before?.verifiedAt ? now : before.verifiedAt,
        },
      ].sort((a, b) => (resourceKeyOf(a) < resourceKeyOf(b) ? -1 : 1)),
      reachable: true,
    };
    await writeClusterCacheRecord(options.store, name, current, next);
    if (recordChangedForRegistries(previous, next)) {
      return {
        ...(through !== undefined ? { through } : {}),
        ...(complete !== undefined ? { complete } : {}),
        registriesToRefresh: registries.map((r) => formatKey(refOf(r as KubeObject))),
      };
    }
  }
  return {
    ...(through !== undefined ? { through } : {}),
    ...(complete !== undefined ? { complete } : {}),
    registriesToRefresh: [],
  };
}
