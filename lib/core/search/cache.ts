/**
 * The objects the search cache keeps and serves, and how a collected page of a member's list
 * reconciles the cache (the decisions of karmada-search's informer cache, without an informer):
 *
 * - a cached object is the member's object without `managedFields` (bulk nobody reads through a
 *   proxy), served with the annotation `resource.karmada.io/cached-from-cluster`; a GET serves its
 *   resourceVersion as a one-cluster multi-cluster version, a LIST the member's own (as Karmada);
 * - an update through the proxy takes both back before it reaches the member;
 * - a page of the member's list, with the cache's entries over the same key range, yields the
 *   writes that make the cache equal the page — nothing for an object whose resourceVersion is
 *   unchanged, so a quiet cluster costs reads only.
 */
import type { KubeObject } from '../../api/object.ts';
import { CACHED_FROM_CLUSTER_ANNOTATION } from '../../api/well-known.ts';
import { decodeMultiClusterResourceVersion, encodeMultiClusterResourceVersion } from './tokens.ts';

/** The cache's key of an object: `namespace/name`, or `name` for a cluster-scoped one. */
export function cacheKeyOf(obj: { metadata: { namespace?: string; name?: string } }): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ''}` : (obj.metadata.name ?? '');
}

/** Orders cache keys as the store and a Kubernetes list do: by UTF-8 bytes. */
export function compareCacheKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** What is stored of a member object. */
export function toCached(obj: KubeObject, apiVersion: string, kind: string): KubeObject {
  const { managedFields: _dropped, ...metadata } = obj.metadata as KubeObject['metadata'] & { managedFields?: unknown };
  return { ...obj, apiVersion, kind, metadata };
}

/**
 * A cached object as the proxy serves it: annotated with its cluster; with `singleGet`, its
 * resourceVersion as the multi-cluster version `{cluster: rv}` (Karmada rewrites it on GET only).
 */
export function servedFromCache(obj: KubeObject, cluster: string, options: { singleGet?: boolean } = {}): KubeObject {
  const rv = obj.metadata.resourceVersion;
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      annotations: { ...(obj.metadata.annotations ?? {}), [CACHED_FROM_CLUSTER_ANNOTATION]: cluster },
      ...(options.singleGet && rv ? { resourceVersion: encodeMultiClusterResourceVersion({ [cluster]: rv }) } : {}),
    },
  };
}

/**
 * A body sent through the proxy to `cluster`, with what the cache added taken back
 * (`RemoveCacheSourceAnnotation`, `RecoverClusterResourceVersion`). Other bodies pass unchanged.
 */
export function towardMember(obj: KubeObject, cluster: string): KubeObject {
  const annotations = { ...(obj.metadata?.annotations ?? {}) };
  const hadAnnotation = CACHED_FROM_CLUSTER_ANNOTATION in annotations;
  delete annotations[CACHED_FROM_CLUSTER_ANNOTATION];
  const rvs = decodeMultiClusterResourceVersion(obj.metadata?.resourceVersion ?? '');
  if (!hadAnnotation && !rvs) return obj;
  const metadata: KubeObject['metadata'] = { ...obj.metadata };
  if (hadAnnotation) {
    if (Object.keys(annotations).length) metadata.annotations = annotations;
    else delete metadata.annotations;
  }
  if (rvs && rvs[cluster] !== undefined) metadata.resourceVersion = rvs[cluster];
  return { ...obj, metadata };
}

/** One cache entry as the sync reads it. */
export interface CacheEntry {
  key: string;
  /** The member's resourceVersion of the cached copy. */
  resourceVersion: string;
  /** The row's own version (conditional writes). */
  version: number;
}

export interface CacheSyncPlan {
  /** New objects (`version` absent) and changed ones (`version` of the row they replace). */
  put: { key: string; object: KubeObject; version?: number }[];
  /** Cached objects the member no longer has. */
  remove: { key: string; version: number }[];
}

/**
 * The writes that make the cache's entries over a key range equal a member's objects over it.
 * `entries` are every cache entry in the range; `objects` every member object in it (already as
 * {@link toCached} stores them).
 */
export function cacheSyncPlan(entries: readonly CacheEntry[], objects: readonly KubeObject[]): CacheSyncPlan {
  const cached = new Map(entries.map((e) => [e.key, e]));
  const plan: CacheSyncPlan = { put: [], remove: [] };
  const seen = new Set<string>();
  for (const object of objects) {
    const key = cacheKeyOf(object);
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = cached.get(key);
    if (!entry) plan.put.push({ key, object });
    else if (entry.resourceVersion !== (object.metadata.resourceVersion ?? '') || !object.metadata.resourceVersion) {
      plan.put.push({ key, object, version: entry.version });
    }
  }
  for (const entry of entries) if (!seen.has(entry.key)) plan.remove.push({ key: entry.key, version: entry.version });
  return plan;
}

/**
 * The key range a page of a member's list covers, in cache-key order: after the previous page's last
 * key, up to and including this page's last key — or to the end when it is the list's last page.
 */
export function pageRange(
  after: string | undefined,
  objects: readonly KubeObject[],
  last: boolean,
): { after?: string; through?: string } {
  const keys = objects.map(cacheKeyOf).sort(compareCacheKeys);
  const through = last ? undefined : keys[keys.length - 1];
  return { ...(after !== undefined ? { after } : {}), ...(through !== undefined ? { through } : {}) };
}
