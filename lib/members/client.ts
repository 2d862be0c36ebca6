/**
 * A small HTTPS client for member clusters' Kubernetes APIs, used by the controllers (in Lambda)
 * and the pull agent: health probes, discovery, reads with paging, server-side apply, deletes.
 * Plain `node:https` rather than @kubernetes/client-node, whose bundle (~1.2 MB) would triple a
 * function's cold start for the dozen calls made here (docs/decisions/0006-member-clusters.md).
 */
import { Agent, request } from 'node:https';
import { AGGREGATED_DISCOVERY_ACCEPT, isAggregatedDiscovery } from '../api/aggregated-discovery.ts';
import type { KubeObject } from '../api/object.ts';
import type { ProbeResult } from '../core/clusters/health.ts';

/** How to reach one member cluster's API. */
export interface MemberConnection {
  server: string;
  /** PEM of the CA that signed the server's certificate; absent: the system's trust store. */
  caPem?: string;
  token?: string;
  certPem?: string;
  keyPem?: string;
  insecureSkipTLSVerify?: boolean;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

/** The member answered with an error status. */
export class MemberApiError extends Error {
  override readonly name = 'MemberApiError';
  readonly status: number;
  readonly reason: string;
  constructor(status: number, reason: string, message: string) {
    super(message);
    this.status = status;
    this.reason = reason;
  }

  /** The HTTP status, under the name skctl's client uses. */
  get code(): number {
    return this.status;
  }
}

/** The member could not be reached (connection refused, TLS failure, timeout). */
export class MemberUnreachableError extends Error {
  override readonly name = 'MemberUnreachableError';
}

export type { ProbeResult };

export interface DiscoveredResource {
  group: string;
  version: string;
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

/**
 * The resources of an aggregated discovery answer (apidiscovery.k8s.io APIGroupDiscoveryList, v2 or
 * v2beta1: the same shape), subresources left out. A Stale group version (one the server could not
 * read, such as an unavailable aggregated API) contributes nothing and makes the answer partial, as
 * client-go reports it failed.
 */
function fromAggregatedDiscovery(list: Record<string, unknown>): { resources: DiscoveredResource[]; partial: boolean } {
  type Item = {
    metadata?: { name?: unknown };
    versions?: {
      version?: unknown;
      freshness?: unknown;
      resources?: { resource?: unknown; responseKind?: { kind?: unknown }; scope?: unknown; verbs?: unknown }[];
    }[];
  };
  const resources: DiscoveredResource[] = [];
  let partial = false;
  for (const item of Array.isArray(list.items) ? (list.items as Item[]) : []) {
    const group = typeof item?.metadata?.name === 'string' ? item.metadata.name : '';
    for (const v of Array.isArray(item?.versions) ? item.versions : []) {
      if (typeof v?.version !== 'string') continue;
      if (v.freshness === 'Stale') {
        partial = true;
        continue;
      }
      for (const r of Array.isArray(v.resources) ? v.resources : []) {
        const kind = r?.responseKind?.kind;
        if (typeof r?.resource !== 'string' || typeof kind !== 'string' || r.resource.includes('/')) continue;
        resources.push({
          group,
          version: v.version,
          name: r.resource,
          kind,
          namespaced: r.scope === 'Namespaced',
          verbs: Array.isArray(r.verbs) ? (r.verbs as string[]) : [],
        });
      }
    }
  }
  return { resources, partial };
}

/** Largest answer read from a member (a pod list of a very large cluster is paged well below it). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Discovery is re-read after this, and at once when an object's kind is not found. */
const DISCOVERY_TTL_MS = 5 * 60_000;

/** One answer of a member, as {@link MemberClient.raw} returns it. */
export interface MemberResponse {
  status: number;
  body: string;
  /** The answer's Content-Type, when it had one. */
  contentType?: string;
}
type Raw = MemberResponse;

/**
 * Carries one request to a member in place of HTTPS (the deterministic simulation's in-process
 * members). Throws {@link MemberUnreachableError} for a member that cannot be reached.
 */
export type MemberTransport = (
  method: string,
  path: string,
  options: { body?: string; contentType?: string; accept?: string; token?: string },
) => Promise<MemberResponse>;

export interface MemberClientOptions {
  /** Requests go here instead of over HTTPS. */
  transport?: MemberTransport;
  /** The clock of discovery's cache (default: the wall clock). */
  now?: () => number;
}

export class MemberClient {
  readonly #conn: MemberConnection;
  readonly #agent: Agent | undefined;
  readonly #base: URL;
  readonly #transport: MemberTransport | undefined;
  readonly #now: () => number;
  #discovery: Promise<{ resources: DiscoveredResource[]; partial: boolean }> | undefined;
  #discoveredAt = 0;

  constructor(conn: MemberConnection, options: MemberClientOptions = {}) {
    this.#conn = conn;
    this.#base = new URL(conn.server);
    if (this.#base.protocol !== 'https:') {
      throw new Error(`member API endpoint must be https://, got ${JSON.stringify(conn.server)}`);
    }
    this.#transport = options.transport;
    this.#now = options.now ?? Date.now;
    this.#agent = options.transport
      ? undefined
      : new Agent({
          keepAlive: true,
          maxSockets: 8,
          ...(conn.caPem ? { ca: conn.caPem } : {}),
          ...(conn.certPem && conn.keyPem ? { cert: conn.certPem, key: conn.keyPem } : {}),
          rejectUnauthorized: !conn.insecureSkipTLSVerify,
        });
  }

  close(): void {
    this.#agent?.destroy();
  }

  /** Requests every client of this process has sent to members (benchmarks read it). */
  static readonly sent = { requests: 0, writes: 0 };

  /** One request; network failures become MemberUnreachableError. */
  async raw(
    method: string,
    path: string,
    options: { body?: string; contentType?: string; accept?: string } = {},
  ): Promise<Raw> {
    MemberClient.sent.requests++;
    if (method !== 'GET' && method !== 'HEAD') MemberClient.sent.writes++;
    if (this.#transport) {
      return this.#transport(method, path, { ...options, ...(this.#conn.token ? { token: this.#conn.token } : {}) });
    }
    const url = new URL(`${this.#base.pathname.replace(/\/$/, '')}${path}`, this.#base);
    const headers: Record<string, string> = {
      accept: options.accept ?? 'application/json',
      'user-agent': 'serverless-karmada',
    };
    if (this.#conn.token) headers.authorization = `Bearer ${this.#conn.token}`;
    if (options.body !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const timeoutMs = this.#conn.timeoutMs ?? 10_000;
    return new Promise<Raw>((resolve, reject) => {
      let settled = false;
      const fail = (message: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        reject(new MemberUnreachableError(`${url.host}: ${message}`));
      };
      const req = request(url, { method, headers, agent: this.#agent! }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy();
            fail(`answer larger than ${MAX_RESPONSE_BYTES} bytes`);
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          const contentType = res.headers['content-type'];
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ...(contentType ? { contentType } : {}),
          });
        });
        res.on('error', (err) => fail(err.message));
      });
      // A wall-clock deadline over every phase (DNS, connect, TLS, answer): a member that drops
      // packets must not hold a function past its own timeout.
      const deadline = setTimeout(() => {
        req.destroy();
        fail(`no answer within ${timeoutMs} ms`);
      }, timeoutMs);
      req.on('error', (err) => fail(err.message));
      req.end(options.body);
    });
  }

  /**
   * Karmada's health probe: `GET /readyz`, then `/healthz` when that is 404. Any failure or non-2xx
   * answer: offline; a 2xx other than 200: online but unhealthy; 200: healthy.
   */
  async probe(): Promise<ProbeResult> {
    try {
      let res = await this.raw('GET', '/readyz', { accept: 'text/plain' });
      if (res.status === 404) res = await this.raw('GET', '/healthz', { accept: 'text/plain' });
      if (res.status < 200 || res.status > 299) return { online: false, healthy: false };
      return { online: true, healthy: res.status === 200 };
    } catch (err) {
      if (err instanceof MemberUnreachableError) return { online: false, healthy: false };
      throw err;
    }
  }

  /** A request with a JSON (or `contentType`) body, answering parsed JSON; errors as {@link getJson}. */
  async send(method: string, path: string, body?: unknown, options: { contentType?: string } = {}): Promise<unknown> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return this.#json(
      await this.raw(method, path, {
        ...(payload !== undefined ? { body: payload } : {}),
        ...(options.contentType ? { contentType: options.contentType } : {}),
      }),
    );
  }

  /** GET returning parsed JSON; an error status becomes MemberApiError with the member's message. */
  async getJson<T = unknown>(path: string): Promise<T> {
    return this.#json<T>(await this.raw('GET', path));
  }

  async #json<T>(res: Raw): Promise<T> {
    let parsed: unknown;
    try {
      parsed = res.body ? JSON.parse(res.body) : {};
    } catch {
      throw new MemberApiError(res.status, 'Unknown', `the member answered ${res.status} with a body that is not JSON`);
    }
    if (res.status >= 400) {
      const s = parsed as { reason?: string; message?: string };
      throw new MemberApiError(res.status, s.reason ?? 'Unknown', s.message ?? `HTTP ${res.status}`);
    }
    return parsed as T;
  }

  /** Every item of a collection, paging by 500. */
  async listAll(path: string): Promise<KubeObject[]> {
    const items: KubeObject[] = [];
    let token: string | undefined;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page = await this.getJson<{ items?: KubeObject[]; metadata?: { continue?: string } }>(
        `${path}${sep}limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
      );
      items.push(...(page.items ?? []));
      token = page.metadata?.continue || undefined;
    } while (token);
    return items;
  }

  /** `gitVersion` of `/version`. */
  async kubernetesVersion(): Promise<string> {
    return (await this.getJson<{ gitVersion?: string }>('/version')).gitVersion ?? '';
  }

  /**
   * Every served resource of every served group version (not only preferred ones), subresources
   * left out: two requests against a server with aggregated discovery, one more per group version
   * against one without. Cached for a few minutes; a failure is not cached. `partial` when some group
   * version could not be read.
   */
  discover(): Promise<DiscoveredResource[]> {
    return this.#discoverAll().then((d) => d.resources);
  }

  #discoverAll(refresh = false): Promise<{ resources: DiscoveredResource[]; partial: boolean }> {
    const now = this.#now();
    if (refresh || !this.#discovery || now - this.#discoveredAt > DISCOVERY_TTL_MS) {
      this.#discoveredAt = now;
      const attempt = this.#readDiscovery();
      this.#discovery = attempt;
      attempt.catch(() => {
        if (this.#discovery === attempt) this.#discovery = undefined;
      });
    }
    return this.#discovery!;
  }

  /**
   * Two requests, `GET /api` and `GET /apis`, asking for aggregated discovery (every group version's
   * resources in one answer; kube-apiserver 1.27+). A root answered with the legacy documents
   * (APIVersions, APIGroupList) is followed by one read per group version it names, as before.
   * `/apis` failing fails the read; `/api` or a group version failing (or a Stale one) makes it partial.
   */
  async #readDiscovery(): Promise<{ resources: DiscoveredResource[]; partial: boolean }> {
    const [core, groups] = await Promise.allSettled([this.#discoveryRoot('/api'), this.#discoveryRoot('/apis')]);
    if (groups.status === 'rejected') throw groups.reason;
    const roots = core.status === 'fulfilled' ? [core.value, groups.value] : [groups.value];
    const resources: DiscoveredResource[] = [];
    let partial = core.status === 'rejected';
    const legacy: [string, string][] = [];
    for (const root of roots) {
      if (root.partial) partial = true;
      resources.push(...root.resources);
      legacy.push(...root.groupVersions);
    }
    if (legacy.length === 0) return { resources, partial };
    type List = { resources?: { name: string; kind: string; namespaced: boolean; verbs?: string[] }[] };
    const lists = await Promise.allSettled(
      legacy.map(([group, version]) => this.getJson<List>(group ? `/apis/${group}/${version}` : `/api/${version}`)),
    );
    lists.forEach((r, i) => {
      if (r.status !== 'fulfilled') {
        partial = true;
        return;
      }
      const [group, version] = legacy[i]!;
      for (const res of Array.isArray(r.value.resources) ? r.value.resources : []) {
        if (typeof res?.name !== 'string' || typeof res.kind !== 'string' || res.name.includes('/')) continue;
        resources.push({
          group,
          version,
          name: res.name,
          kind: res.kind,
          namespaced: Boolean(res.namespaced),
          verbs: Array.isArray(res.verbs) ? res.verbs : [],
        });
      }
    });
    return { resources, partial };
  }

  /**
   * `/api` or `/apis`: the resources of an aggregated answer, or the group versions (group, version)
   * a legacy answer names, still to be read one by one.
   */
  async #discoveryRoot(
    path: '/api' | '/apis',
  ): Promise<{ resources: DiscoveredResource[]; partial: boolean; groupVersions: [string, string][] }> {
    const res = await this.raw('GET', path, { accept: AGGREGATED_DISCOVERY_ACCEPT });
    const body = await this.#json<Record<string, unknown>>(res);
    if (isAggregatedDiscovery(res.contentType, body?.kind)) {
      return { ...fromAggregatedDiscovery(body ?? {}), groupVersions: [] };
    }
    const groupVersions: [string, string][] = [];
    if (path === '/api') {
      const versions = Array.isArray(body?.versions) ? body.versions.filter((v) => typeof v === 'string') : [];
      for (const v of versions.length ? versions : ['v1']) groupVersions.push(['', v as string]);
    } else {
      for (const g of Array.isArray(body?.groups) ? (body.groups as { name?: unknown; versions?: unknown }[]) : []) {
        for (const v of Array.isArray(g?.versions) ? (g.versions as { version?: unknown }[]) : []) {
          if (typeof g.name === 'string' && typeof v?.version === 'string') groupVersions.push([g.name, v.version]);
        }
      }
    }
    return { resources: [], partial: false, groupVersions };
  }

  /**
   * Karmada's `status.apiEnablements`: every group version with its resources, sorted; `partial`
   * when a group version could not be read (Karmada's `CompleteAPIEnablements=False/Partial`).
   */
  async apiEnablements(): Promise<{
    enablements: { groupVersion: string; resources: { name: string; kind: string }[] }[];
    partial: boolean;
  }> {
    // Fresh at every status collection (Karmada re-reads discovery each time): a CRD installed on the
    // member must reach the scheduler's APIEnablement filter without waiting out the cache.
    const { resources, partial } = await this.#discoverAll(true);
    const byGv = new Map<string, { name: string; kind: string }[]>();
    for (const r of resources) {
      const gv = r.group ? `${r.group}/${r.version}` : r.version;
      let list = byGv.get(gv);
      if (!list) byGv.set(gv, (list = []));
      list.push({ name: r.name, kind: r.kind });
    }
    const enablements = [...byGv.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([groupVersion, list]) => ({
        groupVersion,
        resources: list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      }));
    return { enablements, partial };
  }

  /** The URL path of an object (or its collection when `name` is undefined), from discovery. */
  async pathOf(apiVersion: string, kind: string, namespace: string | undefined, name?: string): Promise<string> {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const find = (list: DiscoveredResource[]) =>
      list.find((r) => r.group === group && r.version === version && r.kind === kind);
    // A kind installed since the last discovery (a CRD another Work just applied): look again.
    const resource = find(await this.discover()) ?? find((await this.#discoverAll(true)).resources);
    if (!resource) throw new MemberApiError(404, 'NotFound', `the member does not serve ${kind} in ${apiVersion}`);
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const ns = resource.namespaced ? `/namespaces/${encodeURIComponent(namespace ?? 'default')}` : '';
    return `${base}${ns}/${resource.name}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
  }

  /** The collection path of a kind across every namespace (for a cluster-wide list). */
  async collectionPath(apiVersion: string, kind: string): Promise<string> {
    const path = await this.pathOf(apiVersion, kind, undefined);
    return path.replace(/\/namespaces\/[^/]+\//, '/');
  }

  /** Replaces an object (PUT; `metadata.resourceVersion` makes it conditional). */
  async replace(object: KubeObject): Promise<KubeObject> {
    const path = await this.pathOf(
      object.apiVersion,
      object.kind,
      object.metadata.namespace,
      object.metadata.name ?? '',
    );
    return this.send('PUT', path, object) as Promise<KubeObject>;
  }

  /** Server-side apply of a whole manifest (creates or updates it), as `fieldManager`. */
  async apply(manifest: KubeObject, fieldManager: string, force = true): Promise<KubeObject> {
    const path = await this.pathOf(
      manifest.apiVersion,
      manifest.kind,
      manifest.metadata.namespace,
      manifest.metadata.name ?? '',
    );
    const query = `?fieldManager=${encodeURIComponent(fieldManager)}${force ? '&force=true' : ''}`;
    return this.#json<KubeObject>(
      await this.raw('PATCH', path + query, {
        body: JSON.stringify(manifest),
        contentType: 'application/apply-patch+yaml',
      }),
    );
  }

  /** Creates an object (POST) as `fieldManager`; one that exists is a MemberApiError 409 `AlreadyExists`. */
  async create(manifest: KubeObject, fieldManager: string): Promise<KubeObject> {
    const path = await this.pathOf(manifest.apiVersion, manifest.kind, manifest.metadata.namespace);
    return this.#json<KubeObject>(
      await this.raw('POST', `${path}?fieldManager=${encodeURIComponent(fieldManager)}`, {
        body: JSON.stringify(manifest),
      }),
    );
  }

  /** A JSON patch (RFC 6902) of one object. */
  async patchJson(object: KubeObject, operations: readonly unknown[]): Promise<KubeObject> {
    const path = await this.pathOf(
      object.apiVersion,
      object.kind,
      object.metadata.namespace,
      object.metadata.name ?? '',
    );
    return this.#json<KubeObject>(
      await this.raw('PATCH', path, { body: JSON.stringify(operations), contentType: 'application/json-patch+json' }),
    );
  }

  /** Deletes an object; a missing one is not an error. */
  async deleteObject(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<void> {
    const path = await this.pathOf(apiVersion, kind, namespace, name);
    const res = await this.raw('DELETE', path);
    if (res.status === 404) return;
    await this.#json(res);
  }

  async getObject(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): Promise<KubeObject | undefined> {
    const path = await this.pathOf(apiVersion, kind, namespace, name);
    const res = await this.raw('GET', path);
    if (res.status === 404) return undefined;
    return this.#json<KubeObject>(res);
  }
}
