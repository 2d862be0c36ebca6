/**
 * karmada-search's proxy and cache search, and karmada-aggregated-apiserver's cluster proxy, served by
 * the control-plane API (docs/proxy.md, docs/decisions/0013-global-proxy.md):
 *
 * - `/apis/search.karmada.io/v1alpha1/proxying/karmada/proxy/<path>` — Karmada's plugin order:
 *   1. cache: get/list of a kind some ResourceRegistry selects, merged over the clusters it selects,
 *      read page by page from the search cache ({@link CacheBackend});
 *   2. cluster: every other verb and subresource (update, patch, delete, `status`, `scale`, `log`)
 *      of a selected kind goes to the one member holding the object, after the control plane's own
 *      authorization of the caller (create has no cluster to go to and is refused, as in Karmada);
 *   3. karmada: everything else is the control plane's own API.
 * - `/apis/search.karmada.io/v1alpha1/search/cache/<path>`: GET of selected kinds from the cache
 *   (with a name: every cluster's copy, as Karmada answers it).
 * - `/apis/cluster.karmada.io/v1alpha1/clusters/<name>/proxy/<path>`: one member's API, for a caller
 *   allowed `clusters/proxy` with the request's verb and the inner request itself, as the member's
 *   kube-apiserver reads it ({@link requestAttributes}).
 *
 * Members are reached with the cluster's own sealed credentials, opened here; neither they nor the
 * caller's token ever cross to the other side, and answers carry only the member's status, body and
 * content type.
 */
import { CLUSTER, CLUSTER_GROUP, RESOURCE_REGISTRY } from '../api/karmada-names.ts';
import { type KubeObject, parseApiVersion } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import {
  type Cluster,
  type ClusterCacheRecord,
  type ResourceRegistryLike,
  servedFromCache,
  servingClusters,
  towardMember,
} from '../core/index.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import { ApiError, apiErrors } from '../kube/base/errors.ts';
import { jsonResponse, type KubeRequest, type KubeResponse, mediaType } from '../kube/base/http.ts';
import { parsePath, type Route } from '../kube/base/paths.ts';
import { methodVerb, requestAttributes } from '../kube/base/request-info.ts';
import { checkRequestPath, decodeJson } from '../kube/base/request-guard.ts';
import { nodeDef } from '../kube/builtin/kinds.ts';
import { ALL_VERBS, apiVersionOf, Catalog, type ResourceDef } from '../kube/catalog/resources.ts';
import { AGE_COLUMN } from '../kube/catalog/table.ts';
import {
  type FieldManager,
  forbidden,
  type PatchEngine,
  type RequestAttributes,
  type RestBackend,
  RestHandler,
  type UserInfo,
  verbOf,
} from '../kube/rest/index.ts';
import type { MemberClient, MemberConnection } from '../members/client.ts';
import type { Logger } from '../observability/logger.ts';
import { listAll } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import { CLUSTER_CACHE } from './records.ts';
import { CACHE_SEARCH_PREFIX, CLUSTER_PROXY_PATH as CLUSTER_PROXY, GLOBAL_PROXY_PREFIX } from './proxy-paths.ts';
import { cacheWatch } from './cache-watch.ts';
import { MemberForwarder } from './member-forward.ts';
import { CacheBackend, CacheReadStore, type CacheScope } from './cache-backend.ts';
import type { SearchCache } from './cache-store.ts';

export { CACHE_SEARCH_PREFIX, GLOBAL_PROXY_PREFIX } from './proxy-paths.ts';

/** Registries, clusters and cache records are read at most this often per API instance. */
const STATE_TTL_MS = 2_000;

export interface SearchProxyOptions {
  store: ObjectStore;
  cache: SearchCache;
  clock: Clock;
  /** The control plane's own API (plugin 3) and its backend (users, rules, catalog). */
  rest: RestHandler;
  backend: RestBackend;
  engines: { patch: PatchEngine; fields: FieldManager };
  cipher?: CredentialCipher;
  connect?: (conn: MemberConnection) => MemberClient;
  logger?: Logger;
  /** The server streams answers (local mode): watches through the proxy are served by polling the cache. */
  streaming?: boolean;
}

interface State {
  registries: ResourceRegistryLike[];
  clusters: (Cluster & KubeObject)[];
  records: Map<string, ClusterCacheRecord>;
}

export class SearchProxy {
  readonly #o: SearchProxyOptions;
  readonly #members: MemberForwarder;
  #state: { value: Promise<State>; until: number } | undefined;
  #merged: { own: Catalog; records: State['records']; catalog: Catalog } | undefined;

  constructor(options: SearchProxyOptions) {
    this.#o = options;
    this.#members = new MemberForwarder(options);
  }

  /** True for the paths this proxy answers. */
  static matches(path: string): boolean {
    return (
      path === GLOBAL_PROXY_PREFIX ||
      path.startsWith(`${GLOBAL_PROXY_PREFIX}/`) ||
      path === CACHE_SEARCH_PREFIX ||
      path.startsWith(`${CACHE_SEARCH_PREFIX}/`) ||
      CLUSTER_PROXY.test(path)
    );
  }

  async handle(req: KubeRequest): Promise<KubeResponse> {
    try {
      const pathError = checkRequestPath(req.path);
      if (pathError) throw pathError;
      const cluster = CLUSTER_PROXY.exec(req.path);
      if (cluster) return await this.#clusterProxy(req, decodeURIComponent(cluster[1]!), cluster[2] ?? '/');
      if (req.path.startsWith(CACHE_SEARCH_PREFIX)) {
        return await this.#search(req, req.path.slice(CACHE_SEARCH_PREFIX.length) || '/');
      }
      return await this.#proxy(req, req.path.slice(GLOBAL_PROXY_PREFIX.length) || '/');
    } catch (err) {
      return this.#o.rest.errorResponse(err, req);
    }
  }

  async #stateNow(): Promise<State> {
    const now = this.#o.clock.now();
    if (this.#state && this.#state.until > now) return this.#state.value;
    const { store } = this.#o;
    const value = Promise.all([
      listAll(store, RESOURCE_REGISTRY),
      listAll(store, CLUSTER),
      listAll(store, CLUSTER_CACHE),
    ]).then(([registries, clusters, records]) => ({
      registries: registries as ResourceRegistryLike[],
      clusters: clusters as (Cluster & KubeObject)[],
      records: new Map(records.map((r) => [r.metadata.name!, r.spec as unknown as ClusterCacheRecord])),
    }));
    this.#state = { value, until: now + STATE_TTL_MS };
    value.catch(() => (this.#state = undefined));
    return value;
  }

  /**
   * The control plane's catalog, plus Node and every collected kind the control plane does not serve
   * (a custom resource only the members know), as the members' discovery names them.
   */
  async #catalog(): Promise<{ catalog: Catalog; own: Catalog }> {
    const own = await this.#o.backend.catalog();
    const { records } = await this.#stateNow();
    // Both inputs are cached for a couple of seconds: the merged catalog is rebuilt only when one changes.
    if (this.#merged?.own === own && this.#merged.records === records) return this.#merged;
    this.#merged = { own, records, catalog: mergedCatalog(own, records) };
    return this.#merged;
  }

  /** A REST handler over the cache for one kind's scope (or none: discovery only). */
  #cacheRest(catalog: Catalog, scope: CacheScope | undefined): RestHandler {
    const store = new CacheReadStore(
      this.#o.cache,
      scope ?? { kind: { apiVersion: 'v1', kind: '', group: '', plural: '' }, clusters: [], records: new Map() },
    );
    const backend = new CacheBackend({
      productVersion: this.#o.backend.productVersion,
      store,
      clock: this.#o.clock,
      catalog,
      auth: this.#o.backend,
    });
    return new RestHandler(backend, { ...this.#o.engines, ...(this.#o.logger ? { logger: this.#o.logger } : {}) });
  }

  /** The selected kind a resource route names, and the clusters it is served from; undefined when none selects it. */
  async #selected(
    route: Extract<Route, { type: 'resource' }>,
    catalog: Catalog,
  ): Promise<{ def: ResourceDef; scope: CacheScope } | undefined> {
    const def = catalog.byPlural(route.group, route.version, route.plural);
    if (!def) return undefined;
    const state = await this.#stateNow();
    const apiVersion = apiVersionOf({ group: route.group, version: route.version });
    const clusters = servingClusters(state.registries, state.clusters, { apiVersion, kind: def.kind }, route.namespace);
    if (clusters.length === 0) return undefined;
    return {
      def,
      scope: {
        kind: { apiVersion, kind: def.kind, group: def.group, plural: def.plural },
        clusters,
        records: state.records,
      },
    };
  }

  async #proxy(req: KubeRequest, inner: string): Promise<KubeResponse> {
    const innerReq: KubeRequest = { ...req, path: inner };
    const route = parsePath(inner);
    const { catalog, own } = await this.#catalog();
    if (route.type !== 'resource') {
      // Discovery through the proxy lists what it serves: the control plane's kinds and Node.
      const discovery = [
        'legacy-versions',
        'groups',
        'group',
        'resource-list',
        'openapi-root',
        'openapi-group-version',
      ];
      return discovery.includes(route.type)
        ? this.#cacheRest(catalog, undefined).handle(innerReq)
        : this.#o.rest.handle(innerReq);
    }
    const selected = await this.#selected(route, catalog);
    if (!selected) {
      if (own.byPlural(route.group, route.version, route.plural)) return this.#o.rest.handle(innerReq);
      throw notSelected(route);
    }
    const verb = verbOf(req.method, route.name !== undefined, req.query);
    if (route.subresource === undefined && (verb === 'get' || verb === 'list')) {
      return withStaleWarnings(await this.#cacheRest(catalog, selected.scope).handle(innerReq), selected.scope);
    }
    if (route.subresource === undefined && verb === 'watch' && this.#o.streaming) {
      const user = await this.#authenticate(req);
      await this.#authorize(user, {
        verb: 'watch',
        group: selected.def.group,
        resource: selected.def.plural,
        ...(route.namespace !== undefined ? { namespace: route.namespace } : {}),
        ...(route.name !== undefined ? { name: route.name } : {}),
      });
      return cacheWatch({
        store: new CacheReadStore(this.#o.cache, selected.scope),
        def: selected.def,
        req,
        clock: this.#o.clock,
        namespace: route.namespace,
        name: route.name,
      });
    }
    if (route.subresource === undefined && verb === 'watch') {
      throw new ApiError(
        405,
        'MethodNotAllowed',
        'watch is not available on this server (the AWS API has no streaming): list again to see changes, and pass --wait=false to kubectl delete',
      );
    }
    return this.#toMember(req, route, selected);
  }

  /** Plugin 2: a write or subresource of a selected kind, to the one member that holds the object. */
  async #toMember(
    req: KubeRequest,
    route: Extract<Route, { type: 'resource' }>,
    selected: { def: ResourceDef; scope: CacheScope },
  ): Promise<KubeResponse> {
    const { def, scope } = selected;
    const user = await this.#authenticate(req);
    // Authorized as the member reads the path it is sent (for every path that gets here, the same
    // attributes as this route's; a subresource takes the method's verb, as kube-apiserver's do).
    const inner = req.path.slice(GLOBAL_PROXY_PREFIX.length);
    const attrs = requestAttributes(req.method, inner, req.query);
    await this.#authorize(user, attrs);
    const { verb } = attrs;
    if (route.name === undefined) {
      throw new ApiError(
        405,
        'MethodNotAllowed',
        verb === 'create'
          ? `create is not supported on resources of kind "${def.plural}": the proxy cannot tell which member cluster to create it in; create it through /apis/cluster.karmada.io/v1alpha1/clusters/<cluster>/proxy${inner}, or propagate it with a PropagationPolicy`
          : `${verb} of a whole collection is not supported through the proxy: name the object, and the proxy sends the request to the cluster that holds it`,
      );
    }
    const found = await new CacheReadStore(this.#o.cache, scope).locate({
      group: def.group,
      kind: def.kind,
      ...(route.namespace !== undefined ? { namespace: route.namespace } : {}),
      name: route.name,
    });
    if (found.length === 0) {
      const e = apiErrors.notFound(def.plural, def.group, route.name);
      throw new ApiError(
        404,
        'NotFound',
        `${e.message} in the clusters the ResourceRegistries select for it (${scope.clusters.join(', ')})`,
        e.details,
      );
    }
    if (found.length > 1) {
      throw apiErrors.conflict(
        def.plural,
        def.group,
        route.name,
        `ambiguous objects in clusters [${found.map((f) => f.cluster).join(', ')}]`,
      );
    }
    const clusterName = found[0]!.cluster;
    const state = await this.#stateNow();
    const cluster = state.clusters.find((c) => c.metadata.name === clusterName);
    if (!cluster) throw apiErrors.notFound('clusters', CLUSTER_GROUP, clusterName);
    let body = req.body;
    if (verb === 'update' && mediaType(req.headers['content-type']) === 'application/json' && body.length) {
      // What the cache added (the annotation, the multi-cluster resourceVersion) goes back as the member had it.
      const { value } = decodeJson(body, 'the body', { decodeError: (m) => `the body is not JSON: ${m}` });
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        body = Buffer.from(JSON.stringify(towardMember(value as KubeObject, clusterName)), 'utf8');
      }
    }
    const response = await this.#members.forward(cluster, req, inner, body);
    if (response.status < 300 && req.method !== 'GET' && req.method !== 'HEAD') {
      await this.#members.refresh(cluster, selected.def, selected.scope.kind, route.namespace, route.name);
    }
    return response;
  }

  async #search(req: KubeRequest, inner: string): Promise<KubeResponse> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw apiErrors.methodNotAllowed(req.method, `${CACHE_SEARCH_PREFIX}: the cache search answers GET only`);
    }
    const route = parsePath(inner);
    if (route.type !== 'resource' || route.subresource !== undefined) {
      throw apiErrors.badRequest(`k8s native Request URL(${inner}) is not a resource request`);
    }
    const { catalog } = await this.#catalog();
    const selected = await this.#selected(route, catalog);
    if (!selected) throw notSelected(route);
    if (route.name === undefined) {
      return withStaleWarnings(
        await this.#cacheRest(catalog, selected.scope).handle({ ...req, path: inner }),
        selected.scope,
      );
    }
    // A name: every cluster's copy, as a list (Karmada's cache search).
    const user = await this.#authenticate(req);
    await this.#authorize(user, {
      verb: 'get',
      group: selected.def.group,
      resource: selected.def.plural,
      ...(route.namespace !== undefined ? { namespace: route.namespace } : {}),
      name: route.name,
    });
    const found = await new CacheReadStore(this.#o.cache, selected.scope).locate({
      group: selected.def.group,
      kind: selected.def.kind,
      ...(route.namespace !== undefined ? { namespace: route.namespace } : {}),
      name: route.name,
    });
    return jsonResponse(200, {
      apiVersion: apiVersionOf(selected.def),
      kind: selected.def.listKind,
      metadata: {},
      items: found.map((f) => servedFromCache(f.object, f.cluster)),
    });
  }

  async #clusterProxy(req: KubeRequest, name: string, inner: string): Promise<KubeResponse> {
    const user = await this.#authenticate(req);
    const verb = methodVerb(req.method);
    if (!verb) throw apiErrors.methodNotAllowed(req.method, req.path);
    // The cluster proxy itself (Karmada: RBAC on clusters/proxy with the method's verb)...
    await this.#authorize(user, { verb, group: CLUSTER_GROUP, resource: 'clusters', subresource: 'proxy', name });
    // ...and the request it carries, read as the member's kube-apiserver reads it (legacy watch paths,
    // `pods/<name>/proxy/…`, non-resource paths), so a proxy never grants what the control plane's
    // rules do not: what this server's own routing does not know is still authorized for what it is.
    await this.#authorize(user, requestAttributes(req.method, inner, req.query));
    const cluster = (await this.#o.store.get({ ...CLUSTER, name })) as (Cluster & KubeObject) | undefined;
    if (!cluster) throw apiErrors.notFound('clusters', CLUSTER_GROUP, name);
    return this.#members.forward(cluster, req, inner, req.body);
  }

  async #authenticate(req: KubeRequest): Promise<UserInfo> {
    const user = await this.#o.backend.authenticate(req);
    if (!user) throw apiErrors.unauthorized();
    return user;
  }

  async #authorize(user: UserInfo, attrs: RequestAttributes): Promise<void> {
    const allowed = await this.#o.backend.authorize(user, attrs);
    if (allowed !== true) throw forbidden(user, attrs, allowed);
  }
}

/** The control plane's catalog, plus Node and every collected kind it does not serve. */
function mergedCatalog(own: Catalog, records: ReadonlyMap<string, ClusterCacheRecord>): Catalog {
  const extra: ResourceDef[] = own.byKind('', 'v1', 'Node') ? [] : [nodeDef()];
  const seen = new Set(extra.map((d) => `${apiVersionOf(d)}/${d.kind}`));
  for (const record of records.values()) {
    for (const k of record.kinds) {
      const key = `${k.apiVersion}/${k.kind}`;
      if (!k.plural || seen.has(key)) continue;
      const { group, version } = parseApiVersion(k.apiVersion);
      if (own.byKind(group, version, k.kind) || own.byPlural(group, version, k.plural)) continue;
      seen.add(key);
      extra.push(memberKindDef({ group, version, kind: k.kind, plural: k.plural, namespaced: k.namespaced ?? true }));
    }
  }
  return extra.length ? new Catalog([...own.defs, ...extra]) : own;
}

/** A kind only members serve, as the proxy serves it: no schema, NAME and AGE columns. */
function memberKindDef(k: {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}): ResourceDef {
  return {
    ...k,
    listKind: `${k.kind}List`,
    singular: k.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    verbs: [...ALL_VERBS],
    statusSubresource: true,
    schema: undefined,
    printerColumns: [AGE_COLUMN],
    strategicMergePatch: false,
    nameRule: 'subdomain',
    preferred: true,
    origin: 'member clusters (search cache)',
  };
}

/**
 * A read that includes clusters the collector cannot reach says so in `Warning` headers (kubectl
 * prints them): their objects are served as last collected.
 */
function withStaleWarnings(response: KubeResponse, scope: CacheScope): KubeResponse {
  if (response.status >= 300) return response;
  const stale = scope.clusters
    .map((c) => ({ cluster: c, record: scope.records.get(c) }))
    .filter((s) => s.record && !s.record.reachable);
  if (stale.length === 0) return response;
  const text = stale
    .map(
      (s) =>
        `299 - ${JSON.stringify(`cluster ${s.cluster} cannot be read since ${s.record!.unreachableSince ?? 'its last sync'} (${(s.record!.message ?? 'unreachable').replace(/[^\x20-\x7e]/g, '?')}): its objects are as last collected`)}`,
    )
    .join(', ');
  const existing = response.headers.warning;
  return { ...response, headers: { ...response.headers, warning: existing ? `${existing}, ${text}` : text } };
}

function notSelected(route: Extract<Route, { type: 'resource' }>): ApiError {
  const apiVersion = apiVersionOf({ group: route.group, version: route.version });
  return new ApiError(
    404,
    'NotFound',
    `no ResourceRegistry selects ${route.plural} (${apiVersion}) in ${route.namespace ? `namespace ${route.namespace} of ` : ''}any cluster: add it to a ResourceRegistry's resourceSelectors to reach it through the proxy`,
  );
}
