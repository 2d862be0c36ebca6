/**
 * One page of a member's list into the search cache: the cache's entries over the page's key range
 * are read, compared ({@link cacheSyncPlan}) and made equal to the page — writes only for what
 * changed. Shared by the collector (Push members, which it lists itself) and the agent's webhook
 * (Pull members, whose agent lists and posts the pages).
 */
import type { KubeObject } from '../api/object.ts';
import { cacheSyncPlan, pageRange } from '../core/index.ts';
import type { Logger } from '../observability/logger.ts';
import { forEachLimited } from '../util/concurrency.ts';
import type { CachedKind, SearchCache } from './cache-store.ts';

/** Cache writes of one page in flight at once. */
const WRITE_CONCURRENCY = 16;

export interface PageSync {
  /** Only keys with this prefix (`<namespace>/`) are covered: a collection limited to namespaces. */
  prefix?: string;
  /** The last key of the previous page (absent for the first). */
  after?: string;
  /** The page's objects as the cache stores them (`toCached`). */
  items: KubeObject[];
  /** The list's last page: the range runs to the end. */
  last: boolean;
}

/**
 * Syncs one page; `through` is the `after` of the next page, and `complete` whether every write it
 * needed was made (a write lost to a concurrent one is left to the next sync). `logger` hears of
 * objects too large to cache.
 */
export async function syncPage(
  cache: SearchCache,
  cluster: string,
  kind: CachedKind,
  page: PageSync,
  logger?: Logger,
): Promise<{ through?: string; written: number; removed: number; complete: boolean }> {
  // An empty page that is not the last covers no key range yet.
  if (page.items.length === 0 && !page.last) {
    return { ...(page.after !== undefined ? { through: page.after } : {}), written: 0, removed: 0, complete: true };
  }
  const range = pageRange(page.after, page.items, page.last);
  const entries = await cache.entries(cluster, kind, { ...range, ...(page.prefix ? { prefix: page.prefix } : {}) });
  const plan = cacheSyncPlan(entries, page.items);
  let written = 0;
  let removed = 0;
  await forEachLimited(plan.put, WRITE_CONCURRENCY, async (p) => {
    if (await cache.put(cluster, kind, p.key, p.object, { version: p.version, logger })) written++;
  });
  await forEachLimited(plan.remove, WRITE_CONCURRENCY, async (r) => {
    if (await cache.remove(cluster, kind, r.key, r.version)) removed++;
  });
  return {
    ...(range.through !== undefined ? { through: range.through } : {}),
    written,
    removed,
    complete: written === plan.put.length && removed === plan.remove.length,
  };
}
