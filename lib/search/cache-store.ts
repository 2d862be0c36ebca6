/**
 * The search cache: member objects a ResourceRegistry selects, one row per object in the control
 * plane's table (docs/decisions/0013-global-proxy.md). Rows of one kind in one cluster share a
 * `byCluster` index partition sorted by `namespace/name`, so a list reads one page at a time and a
 * sync compares one page of a member's list with one range of rows — nothing holds a cluster's
 * objects in memory. The row's own version is the member's resourceVersion when that is a number
 * (as every kube-apiserver's is), so a sync sees what changed without decoding bodies; otherwise it
 * is a negative counter and the body says.
 */
import type { KubeObject } from '../api/object.ts';
import { type CacheEntry, compareCacheKeys, resourceKeyOf } from '../core/index.ts';
import { decodeBody, encodeBody } from '../store/codec.ts';
import { fnv1a, KIND_SHARDS, SEARCH_CACHE_PREFIX } from '../store/layout.ts';
import type { Logger } from '../observability/logger.ts';
import type { Row, RowStore } from '../store/rows.ts';

/** One kind, as the cache is partitioned by. */
export interface CachedKind {
  apiVersion: string;
  kind: string;
}

export interface CachedItem {
  key: string;
  object: KubeObject;
}

/** The row version that stands for a member resourceVersion: the number itself when it is one. */
function rowVersionOf(resourceVersion: string | undefined): number | undefined {
  if (resourceVersion && /^[1-9][0-9]{0,14}$/.test(resourceVersion)) return Number(resourceVersion);
  return undefined;
}

export class SearchCache {
  readonly #rows: RowStore;

  constructor(rows: RowStore) {
    this.#rows = rows;
  }

  #pk(cluster: string, kind: CachedKind, key: string): string {
    return `${SEARCH_CACHE_PREFIX}${cluster}|${resourceKeyOf(kind)}|${key}`;
  }

  #partition(cluster: string, kind: CachedKind): string {
    return `${SEARCH_CACHE_PREFIX}${resourceKeyOf(kind)}|${cluster}`;
  }

  async get(cluster: string, kind: CachedKind, key: string): Promise<KubeObject | undefined> {
    const row = await this.#rows.get(this.#pk(cluster, kind, key));
    return row ? decodeBody(row.body) : undefined;
  }

  /**
   * One page of a cluster's cached objects of a kind, in key order: after `after`, within
   * `namespace` when given. `exhausted` when nothing follows.
   */
  async page(
    cluster: string,
    kind: CachedKind,
    options: { namespace?: string; after?: string; limit: number },
  ): Promise<{ items: CachedItem[]; exhausted: boolean }> {
    const page = await this.#rows.query({
      index: 'byCluster',
      partition: this.#partition(cluster, kind),
      range: {
        ...(options.namespace ? { prefix: `${options.namespace}/` } : {}),
        ...(options.after !== undefined ? { after: options.after } : {}),
      },
      limit: options.limit,
    });
    return {
      items: page.rows.map((r) => ({ key: r.sortKey, object: decodeBody(r.body!) })),
      exhausted: page.exhausted,
    };
  }

  /**
   * Every entry of a cluster's kind after `after` up to and including `through` (to the end without
   * one), within `prefix` when given, read in pages of `chunk`; bodies are decoded only when the row version is not the
   * member's resourceVersion.
   */
  async entries(
    cluster: string,
    kind: CachedKind,
    range: { prefix?: string; after?: string; through?: string },
    chunk = 500,
  ): Promise<CacheEntry[]> {
    const out: CacheEntry[] = [];
    let after = range.after;
    for (;;) {
      const page = await this.#rows.query({
        index: 'byCluster',
        partition: this.#partition(cluster, kind),
        range: { ...(range.prefix ? { prefix: range.prefix } : {}), ...(after !== undefined ? { after } : {}) },
        limit: chunk,
      });
      for (const row of page.rows) {
        if (range.through !== undefined && compareCacheKeys(row.sortKey, range.through) > 0) return out;
        const version = row.version ?? 0;
        const resourceVersion = version > 0 ? String(version) : (decodeBody(row.body!).metadata.resourceVersion ?? '');
        out.push({ key: row.sortKey, resourceVersion, version });
      }
      if (page.exhausted || page.rows.length === 0) return out;
      after = page.rows[page.rows.length - 1]!.sortKey;
    }
  }

  /**
   * Stores `object` under `key`: a new row when `version` is undefined, else over the row with that
   * version. False when something else was there (another sync won; the next one settles it), or
   * when the object is too large for a row: it is then left out of the cache, and `logger` told so.
   */
  async put(
    cluster: string,
    kind: CachedKind,
    key: string,
    object: KubeObject,
    options: { version?: number | undefined; logger?: Logger | undefined } = {},
  ): Promise<boolean> {
    const { version } = options;
    const encoded = encodeBody(object);
    // A resourceVersion that is not a number: the row counts its own versions below zero.
    const rowVersion =
      rowVersionOf(object.metadata.resourceVersion) ?? (version !== undefined && version < 0 ? version - 1 : -1);
    const row: Row = {
      pk: this.#pk(cluster, kind, key),
      kindShard: `${SEARCH_CACHE_PREFIX}${resourceKeyOf(kind)}#${fnv1a(key) % KIND_SHARDS}`,
      sortKey: key,
      clusterKey: this.#partition(cluster, kind),
      version: rowVersion,
      body: encoded.bytes,
    };
    if (encoded.bytes.length > this.#rows.maxRowBytes - 4096) {
      // Said once per sync that meets it: the object is missing from every read through the proxy.
      // Its name and sizes only — never its content (it may be a Secret).
      options.logger?.warn('object too large for the search cache; reads through the proxy leave it out', {
        cluster,
        kind: resourceKeyOf(kind),
        ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
        name: object.metadata.name,
        bytes: encoded.jsonBytes,
        storedBytes: encoded.bytes.length,
        maxStoredBytes: this.#rows.maxRowBytes - 4096,
      });
      return false;
    }
    const outcome = await this.#rows.put(
      row,
      version === undefined ? { kind: 'absent' } : { kind: 'version', version },
    );
    return outcome.ok;
  }

  /**
   * Makes one entry what the member now says — the object, or gone (`undefined`) — whatever the row
   * held: the proxy's own writes show at once instead of at the next sync.
   */
  async refresh(
    cluster: string,
    kind: CachedKind,
    key: string,
    object: KubeObject | undefined,
    logger?: Logger,
  ): Promise<void> {
    const row = await this.#rows.get(this.#pk(cluster, kind, key));
    if (object) {
      await this.put(cluster, kind, key, object, { version: row?.version, logger });
    } else if (row) await this.remove(cluster, kind, key, row.version);
  }

  async remove(cluster: string, kind: CachedKind, key: string, version: number): Promise<boolean> {
    return (await this.#rows.delete(this.#pk(cluster, kind, key), version)).ok;
  }
}
