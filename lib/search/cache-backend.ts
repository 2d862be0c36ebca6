/**
 * The search cache as a read-only {@link RestBackend}, so the REST handler answers the proxy's
 * get and list of a selected kind exactly as it answers the control plane's own — label and field
 * selectors, `limit`/`continue`, server-side tables — over the clusters the registries select.
 *
 * A list walks the clusters in name order (karmada-search's order), each page by page from the
 * cache; its continue token is Karmada's multi-cluster token, whose per-cluster part is the last key
 * read. A page holds at most {@link MAX_PAGE_ITEMS} objects and reads at most {@link scanBudget}
 * rows, so neither memory nor time grows with the fleet; a list without `limit` is answered whole up
 * to {@link UNPAGED_LIST_LIMIT} objects and {@link MAX_SCANNED_ROWS} rows read, and refused beyond
 * (kubectl always pages).
 */
import { matchesRequirements, parseSelector, type Requirement } from '../api/labels.ts';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import {
  type ClusterCacheRecord,
  decodeMultiClusterContinue,
  encodeMultiClusterContinue,
  encodeMultiClusterResourceVersion,
  resourceKeyOf,
  servedFromCache,
} from '../core/index.ts';
import { ApiError, apiErrors } from '../kube/base/errors.ts';
import type { KubeRequest } from '../kube/base/http.ts';
import type { Catalog } from '../kube/catalog/resources.ts';
import type { RequestAttributes, RestBackend, UserInfo } from '../kube/rest/index.ts';
import type { DeleteResult, ListPage, ListQuery, ObjectStore } from '../store/port.ts';
import { sortKeyOf } from '../store/layout.ts';
import type { CachedKind, SearchCache } from './cache-store.ts';

/** Objects a list without `limit` may hold before it is refused (ask for pages instead). */
export const UNPAGED_LIST_LIMIT = 5_000;

/**
 * Most objects one page holds, whatever `limit` asks (`?limit=10000000` would otherwise gather the
 * fleet in one process): a shorter page with a continue token is one Kubernetes clients follow.
 */
export const MAX_PAGE_ITEMS = UNPAGED_LIST_LIMIT;

/** Cache rows one list request reads at most (about a second of reads; the API's timeout is 29 s). */
export const MAX_SCANNED_ROWS = 20_000;

/**
 * Cache rows a page of `limit` reads at most: ten per object asked for, at least 1,000. A selective
 * label selector answers a short page — even an empty one — with a continue token at the last row
 * read, rather than reading millions of rows in one request.
 */
export function scanBudget(limit: number): number {
  return Math.min(MAX_SCANNED_ROWS, Math.max(1_000, 10 * limit));
}

/** What a read of one kind through the proxy covers. */
export interface CacheScope {
  kind: CachedKind & { group: string; plural: string };
  /** Sorted by name. */
  clusters: string[];
  records: ReadonlyMap<string, ClusterCacheRecord>;
}

function refuse(): never {
  throw new ApiError(405, 'MethodNotAllowed', 'the search cache is read-only');
}

/** The cache of one kind over the selected clusters, as an {@link ObjectStore} that only reads. */
export class CacheReadStore implements ObjectStore {
  readonly #cache: SearchCache;
  readonly #scope: CacheScope;

  constructor(cache: SearchCache, scope: CacheScope) {
    this.#cache = cache;
    this.#scope = scope;
  }

  /** The one cluster holding the object; 409 when several do (karmada-search's "ambiguous objects"). */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const found = await this.locate(ref);
    if (found.length === 0) return undefined;
    if (found.length > 1) {
      throw apiErrors.conflict(
        this.#scope.kind.plural,
        this.#scope.kind.group,
        ref.name,
        `ambiguous objects in clusters [${found.map((f) => f.cluster).join(', ')}]`,
      );
    }
    return servedFromCache(found[0]!.object, found[0]!.cluster, { singleGet: true });
  }

  /** Every selected cluster's copy, as a list serves them (a list selecting `metadata.name`). */
  async getAll(ref: ObjectRef): Promise<KubeObject[]> {
    return (await this.locate(ref)).map((f) => servedFromCache(f.object, f.cluster));
  }

  /** Every selected cluster's copy of an object, in cluster order. */
  async locate(ref: ObjectRef): Promise<{ cluster: string; object: KubeObject }[]> {
    const key = sortKeyOf(ref);
    const copies = await Promise.all(
      this.#scope.clusters.map(async (cluster) => ({
        cluster,
        object: await this.#cache.get(cluster, this.#scope.kind, key),
      })),
    );
    return copies.filter((c): c is { cluster: string; object: KubeObject } => c.object !== undefined);
  }

  async list(query: ListQuery): Promise<ListPage> {
    const { clusters } = this.#scope;
    const requirements = requirementsOf(query.labelSelector);
    const rv = encodeMultiClusterResourceVersion(
      Object.fromEntries(
        clusters.map((c) => [
          c,
          this.#scope.records.get(c)?.kinds.find((k) => resourceKeyOf(k) === resourceKeyOf(this.#scope.kind))
            ?.resourceVersion ?? '0',
        ]),
      ),
    );
    let start = 0;
    let after: string | undefined;
    if (query.continue) {
      const token = decodeMultiClusterContinue(query.continue);
      if (typeof token === 'string') throw apiErrors.badRequest(token);
      start = clusters.indexOf(token.cluster);
      if (start < 0) {
        throw apiErrors.badRequest(
          `the continue token goes on in cluster ${JSON.stringify(token.cluster)}, which no ResourceRegistry selects for ${resourceKeyOf(this.#scope.kind)} now; list again from the start`,
        );
      }
      after = token.continue || undefined;
    }
    const limit = query.limit && query.limit > 0 ? Math.min(query.limit, MAX_PAGE_ITEMS) : undefined;
    const budget = limit ? scanBudget(limit) : MAX_SCANNED_ROWS;
    const items: KubeObject[] = [];
    let scanned = 0;
    for (let i = start; i < clusters.length; i++) {
      const cluster = clusters[i]!;
      for (;;) {
        // Without a selector every row read is served: read what the page still needs. With one,
        // read larger pages (the rows after the page's last match are read again by the next request).
        const want = limit ? limit - items.length : 500;
        const read = Math.min(budget - scanned, requirements.length ? Math.max(want, 500) : want);
        const page = await this.#cache.page(cluster, this.#scope.kind, {
          ...(query.namespace ? { namespace: query.namespace } : {}),
          ...(after !== undefined ? { after } : {}),
          limit: Math.max(read, 1),
        });
        let consumed = 0;
        for (const item of page.items) {
          consumed++;
          scanned++;
          after = item.key;
          if (matchesRequirements(requirements, item.object.metadata.labels)) {
            items.push(servedFromCache(item.object, cluster));
          }
          if ((limit && items.length >= limit) || scanned >= budget) break;
        }
        if (!limit && items.length > UNPAGED_LIST_LIMIT) {
          throw new ApiError(
            413,
            'RequestEntityTooLarge',
            `the list holds more than ${UNPAGED_LIST_LIMIT} objects across clusters; ask for pages with limit (kubectl does so with --chunk-size, 500 by default)`,
          );
        }
        const clusterDone = consumed === page.items.length && (page.exhausted || page.items.length === 0);
        const full = limit !== undefined && items.length >= limit;
        if (!full && scanned < budget) {
          if (clusterDone) break;
          continue;
        }
        // A full page, or as many rows as one request reads: the page ends here, at the last row read.
        // (A page cut by the budget may be short, even empty: Kubernetes clients follow its token.)
        const next = clusterDone ? clusters[i + 1] : cluster;
        if (!limit && next !== undefined) {
          throw new ApiError(
            413,
            'RequestEntityTooLarge',
            `the list reads more than ${MAX_SCANNED_ROWS} objects across clusters to find its matches; ask for pages with limit (kubectl does so with --chunk-size, 500 by default)`,
          );
        }
        return {
          items,
          resourceVersion: rv,
          // This cluster done, the next one may hold more (or nothing: Karmada's page may come back empty too).
          ...(next !== undefined
            ? { continue: encodeMultiClusterContinue({ rv, cluster: next, continue: clusterDone ? '' : after! }) }
            : {}),
        };
      }
      after = undefined;
    }
    return { items, resourceVersion: rv };
  }

  listRefs(): Promise<ListPage<ObjectRef>> {
    refuse();
  }
  listDependents(): Promise<ListPage<ObjectRef>> {
    refuse();
  }
  create(): Promise<KubeObject> {
    refuse();
  }
  update(): Promise<KubeObject> {
    refuse();
  }
  updateStatus(): Promise<KubeObject> {
    refuse();
  }
  updateWithStatus(): Promise<KubeObject> {
    refuse();
  }
  delete(): Promise<DeleteResult> {
    refuse();
  }
}

function requirementsOf(selector: ListQuery['labelSelector']): readonly Requirement[] {
  if (!selector) return [];
  if (typeof selector === 'string') return parseSelector(selector);
  if (Array.isArray(selector)) return selector as readonly Requirement[];
  throw new Error('a structured label selector is not expected here');
}

/** The REST backend of one proxy read: the cache of its kind, the control plane's users and rules. */
export class CacheBackend implements RestBackend {
  readonly productVersion: string;
  readonly store: CacheReadStore;
  readonly clock: Clock;
  readonly namespaceLifecycle = false;
  readonly #catalog: Catalog;
  readonly #auth: Pick<RestBackend, 'authenticate' | 'authorize'>;

  constructor(options: {
    productVersion: string;
    store: CacheReadStore;
    clock: Clock;
    catalog: Catalog;
    auth: Pick<RestBackend, 'authenticate' | 'authorize'>;
  }) {
    this.productVersion = options.productVersion;
    this.store = options.store;
    this.clock = options.clock;
    this.#catalog = options.catalog;
    this.#auth = options.auth;
  }

  catalog(): Promise<Catalog> {
    return Promise.resolve(this.#catalog);
  }
  authenticate(req: KubeRequest): Promise<UserInfo | undefined> {
    return this.#auth.authenticate(req);
  }
  authorize(user: UserInfo, attrs: RequestAttributes): Promise<true | string> {
    return this.#auth.authorize(user, attrs);
  }
}
