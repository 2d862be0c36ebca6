/**
 * The small Kubernetes client skctl's read commands use: a kubeconfig (loaded and authenticated by
 * @kubernetes/client-node, so tokens, client certificates and exec plugins all work), discovery to
 * resolve what a user types (`deploy`, `pp`, `propagationpolicies.policy.karmada.io`) to a
 * resource, and GETs that return parsed JSON or a Kubernetes Status as an error.
 */
import { existsSync } from 'node:fs';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { resolveResourceName } from '../kube/catalog/resolve-name.ts';
import { UsageError } from './args.ts';
import { useContext } from './member-kubeconfig.ts';

/** A resource as discovery describes it. */
export interface DiscoveredResource {
  group: string;
  version: string;
  name: string;
  singularName: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
}

/** A Kubernetes Status the server answered with. */
export class KubeApiError extends Error {
  override readonly name = 'KubeApiError';
  readonly code: number;
  readonly reason: string;
  constructor(code: number, reason: string, message: string) {
    super(message);
    this.code = code;
    this.reason = reason;
  }
}

/** The server could not be reached at all. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/**
 * Which kubeconfig to use: `--kubeconfig`, then $KUBECONFIG (every file in it, merged, as kubectl
 * does: `undefined` here), then the local control plane's (`.skctl/kubeconfig`, when `skctl up` has
 * run here), then ~/.kube/config.
 */
export function kubeconfigPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (flag) return resolve(flag);
  if (env.KUBECONFIG?.split(':').some((p) => p)) return undefined;
  const local = resolve('.skctl', 'kubeconfig');
  if (existsSync(local)) return local;
  return join(homedir(), '.kube', 'config');
}

export class KubeClient {
  readonly #config: KubeConfig;
  readonly server: URL;
  #discovery: Promise<DiscoveredResource[]> | undefined;

  /** `path` undefined: the files of $KUBECONFIG, merged. */
  constructor(path: string | undefined, context?: string) {
    if (path !== undefined && !existsSync(path)) {
      throw new UsageError(
        `no kubeconfig at ${path}: start the local control plane with "npm start" (it writes .skctl/kubeconfig), or pass --kubeconfig`,
      );
    }
    const config = new KubeConfig();
    try {
      if (path === undefined) config.loadFromDefault();
      else config.loadFromFile(path);
    } catch (err) {
      throw new UsageError(`cannot read kubeconfig ${path ?? '$KUBECONFIG'}: ${(err as Error).message}`);
    }
    path ??= '$KUBECONFIG';
    useContext(config, context, path);
    const cluster = config.getCurrentCluster();
    if (!cluster) throw new UsageError(`kubeconfig ${path} has no current context with a cluster`);
    this.#config = config;
    this.server = new URL(cluster.server);
  }

  /** The namespace of the current context, or `default`. */
  get namespace(): string {
    const context = this.#config.getContextObject(this.#config.getCurrentContext());
    return context?.namespace || 'default';
  }

  /** GETs `path` (with query) and parses the JSON answer; a Status answer becomes a KubeApiError. */
  get(path: string, accept = 'application/json'): Promise<unknown> {
    return this.send('GET', path, undefined, { accept });
  }

  /**
   * Sends a request (JSON body unless `contentType` says otherwise) and parses the JSON answer; a
   * Status answer becomes a KubeApiError carrying the server's message.
   */
  async send(
    method: string,
    path: string,
    body?: unknown,
    options: { accept?: string; contentType?: string } = {},
  ): Promise<unknown> {
    // Relative to the server's own path (e.g. a proxy's /k8s/clusters/c-1), as kubectl does.
    const url = new URL(`${this.server.pathname.replace(/\/$/, '')}${path}`, this.server);
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const requestOptions: RequestOptions = {
      method,
      headers: {
        accept: options.accept ?? 'application/json',
        'user-agent': 'skctl',
        ...(payload !== undefined
          ? { 'content-type': options.contentType ?? 'application/json', 'content-length': Buffer.byteLength(payload) }
          : {}),
      },
    };
    await this.#config.applyToHTTPSOptions(requestOptions);
    const transport = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const { status, text } = await new Promise<{ status: number; text: string }>((done, fail) => {
      const req = transport(url, requestOptions, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', fail);
      });
      req.setTimeout(30_000, () => req.destroy(new Error('timed out after 30 s')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED') {
          fail(
            new UnreachableError(
              `The connection to the server ${url.host} was refused - did you specify the right host or port? (is "npm start" running?)`,
            ),
          );
        } else fail(new UnreachableError(`Unable to connect to the server ${url.host}: ${err.message}`));
      });
      req.end(payload);
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new KubeApiError(status, 'Unknown', `the server answered ${status} with a body that is not JSON`);
    }
    if (status >= 400) {
      const st = parsed as { reason?: string; message?: string };
      throw new KubeApiError(status, st.reason ?? 'Unknown', st.message ?? `HTTP ${status}`);
    }
    return parsed;
  }

  /** Every served resource (preferred versions; subresources left out), core group first. */
  discover(): Promise<DiscoveredResource[]> {
    this.#discovery ??= (async () => {
      type List = {
        resources: {
          name: string;
          singularName?: string;
          kind: string;
          namespaced: boolean;
          shortNames?: string[];
        }[];
      };
      const groups = (await this.get('/apis')) as {
        groups: { name: string; preferredVersion: { version: string } }[];
      };
      const core = { group: '', version: 'v1', list: (await this.get('/api/v1')) as List };
      // One broken aggregated group (a common sight with metrics.k8s.io) must not hide the others.
      const settled = await Promise.allSettled(
        groups.groups.map((g) =>
          this.get(`/apis/${g.name}/${g.preferredVersion.version}`).then((l) => ({
            group: g.name,
            version: g.preferredVersion.version,
            list: l as List,
          })),
        ),
      );
      const lists = [core, ...settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))];
      return lists.flatMap(({ group, version, list }) =>
        list.resources
          .filter((r) => !r.name.includes('/'))
          .map((r) => ({
            group,
            version,
            name: r.name,
            singularName: r.singularName || r.kind.toLowerCase(),
            kind: r.kind,
            namespaced: r.namespaced,
            shortNames: r.shortNames ?? [],
          })),
      );
    })();
    return this.#discovery;
  }

  /**
   * Resolves what a user typed, as kubectl does: plural, singular, short name or kind, optionally
   * qualified with `.group` or `.version.group`; the core group wins a tie (`events`).
   */
  async resolve(text: string): Promise<DiscoveredResource> {
    const hit = resolveResourceName(await this.discover(), text, (r) => ({
      plural: r.name,
      singular: r.singularName,
      shortNames: r.shortNames,
      kind: r.kind,
      group: r.group,
      version: r.version,
    }));
    if (hit) return hit;
    throw new KubeApiError(
      404,
      'NotFound',
      `the server doesn't have a resource type "${text}" (see the served types with: kubectl api-resources --kubeconfig ...)`,
    );
  }
}

/** The collection URL of a resource: `/apis/apps/v1/namespaces/default/deployments`. */
export function collectionPath(r: DiscoveredResource, namespace: string | undefined): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return r.namespaced && namespace
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.name}`
    : `${base}/${r.name}`;
}
