/**
 * Requests the proxies send to a member (karmada-search's cluster plugin and the cluster proxy): one
 * request with the cluster's own sealed credentials, opened here — never the caller's token — and
 * only the member's status, body and content type back. After a write through the global proxy, the
 * search cache takes the member's object as it now is (write-through), so the next read shows it.
 */
import type { KubeObject } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import { type Cluster, toCached } from '../core/index.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import { ApiError } from '../kube/base/errors.ts';
import type { KubeRequest, KubeResponse } from '../kube/base/http.ts';
import { resourcePath } from '../kube/base/paths.ts';
import type { ResourceDef } from '../kube/catalog/resources.ts';
import { type MemberClient, type MemberConnection, MemberUnreachableError } from '../members/client.ts';
import { cachedClient, cachedConnection } from '../members/connections.ts';
import type { Logger } from '../observability/logger.ts';
import { sortKeyOf } from '../store/layout.ts';
import type { ObjectStore } from '../store/port.ts';
import type { CachedKind, SearchCache } from './cache-store.ts';

export interface MemberForwarderOptions {
  store: ObjectStore;
  cache: SearchCache;
  clock: Clock;
  cipher?: CredentialCipher;
  connect?: (conn: MemberConnection) => MemberClient;
  logger?: Logger;
}

export class MemberForwarder {
  readonly #o: MemberForwarderOptions;

  constructor(options: MemberForwarderOptions) {
    this.#o = options;
  }

  async #client(cluster: Cluster & KubeObject): Promise<MemberClient> {
    if (!this.#o.cipher) {
      throw new ApiError(503, 'ServiceUnavailable', 'this control plane has no key to open member-cluster credentials');
    }
    return (this.#o.connect ?? cachedClient)(
      await cachedConnection(this.#o.store, this.#o.cipher, cluster, this.#o.clock.now()),
    );
  }

  /** One request to a member; its status, body and content type back. A Pull cluster is a 501. */
  async forward(cluster: Cluster & KubeObject, req: KubeRequest, path: string, body: Buffer): Promise<KubeResponse> {
    const name = cluster.metadata.name!;
    if ((cluster.spec as { syncMode?: string } | undefined)?.syncMode === 'Pull') {
      throw new ApiError(
        501,
        'NotImplemented',
        `cluster ${name} is a Pull cluster: the control plane has no route to its API (its agent connects out, nothing connects in), so requests cannot be proxied to it; use kubectl against the cluster itself`,
      );
    }
    const client = await this.#client(cluster);
    const query = req.query.toString();
    const contentType = req.headers['content-type'];
    try {
      const res = await client.raw(req.method, `${path}${query ? `?${query}` : ''}`, {
        ...(body.length || req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH'
          ? { body: body.toString('utf8') }
          : {}),
        ...(contentType ? { contentType } : {}),
        ...(req.headers.accept ? { accept: req.headers.accept } : {}),
      });
      return { status: res.status, headers: { 'content-type': res.contentType ?? 'application/json' }, body: res.body };
    } catch (err) {
      if (!(err instanceof MemberUnreachableError)) throw err;
      throw new ApiError(503, 'ServiceUnavailable', `cluster ${name} is unreachable: ${err.message}`);
    }
  }

  /** After a write through the proxy: the cache takes the member's object as it now is (or its absence). */
  async refresh(
    cluster: Cluster & KubeObject,
    def: ResourceDef,
    kind: CachedKind,
    namespace: string | undefined,
    name: string,
  ): Promise<void> {
    try {
      const client = await this.#client(cluster);
      const current = await client.raw('GET', resourcePath(def, def.namespaced ? namespace : undefined, name));
      const key = sortKeyOf({ ...(def.namespaced && namespace ? { namespace } : {}), name });
      if (current.status === 404) await this.#o.cache.refresh(cluster.metadata.name!, kind, key, undefined);
      else if (current.status === 200) {
        const object = toCached(JSON.parse(current.body) as KubeObject, kind.apiVersion, kind.kind);
        await this.#o.cache.refresh(cluster.metadata.name!, kind, key, object, this.#o.logger);
      }
    } catch (err) {
      // The next sync settles it.
      this.#o.logger?.warn('search cache not refreshed after a proxied write', {
        cluster: cluster.metadata.name,
        reason: (err as Error).message,
      });
    }
  }
}
