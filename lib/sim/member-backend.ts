/**
 * The REST backend of a simulated member: one admin token (compared in constant time), every caller
 * authorised, CRDs validated and established, Services given a cluster IP — what a member's
 * kube-apiserver does that the shared REST layer does not.
 */
import { timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import type { StoredCrdCatalog } from '../karmada/catalog.ts';
import { apiErrors } from '../kube/base/errors.ts';
import { bearerToken, type KubeRequest } from '../kube/base/http.ts';
import type { Catalog } from '../kube/catalog/resources.ts';
import { establishCrd, validateCrd } from '../kube/crd.ts';
import type { AdmissionInput, RestBackend, UserInfo, WriteEvent } from '../kube/rest/index.ts';
import type { ObjectStore } from '../store/port.ts';
import type { ChangeFeed } from '../store/watch.ts';
import { PRODUCT_VERSION } from '../version.ts';

export class MemberBackend implements RestBackend {
  /** The Kubernetes version the member plays (its `/version`). */
  productVersion = PRODUCT_VERSION;
  readonly namespaceLifecycle = true;
  readonly store: ObjectStore;
  readonly clock: Clock;
  readonly changes: ChangeFeed;
  readonly #catalog: StoredCrdCatalog;
  readonly #token: Buffer;
  #clusterIps = 0;

  constructor(store: ObjectStore, clock: Clock, changes: ChangeFeed, catalog: StoredCrdCatalog, token: string) {
    this.store = store;
    this.clock = clock;
    this.changes = changes;
    this.#catalog = catalog;
    this.#token = Buffer.from(token);
  }

  catalog(): Promise<Catalog> {
    return this.#catalog.catalog();
  }

  async authenticate(req: KubeRequest): Promise<UserInfo | undefined> {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return undefined;
    const given = Buffer.from(token);
    if (given.length !== this.#token.length || !timingSafeEqual(given, this.#token)) return undefined;
    return { name: 'cluster-admin', groups: ['system:masters', 'system:authenticated'] };
  }

  async authorize(): Promise<true> {
    return true;
  }

  async admit(input: AdmissionInput): Promise<KubeObject> {
    const { def, object, operation } = input;
    if (def.group === 'apiextensions.k8s.io' && operation !== 'DELETE') {
      const errors = validateCrd(object);
      if (errors.length) throw apiErrors.invalid(def.kind, def.group, object.metadata.name ?? '', errors);
    }
    // Services get a cluster IP on creation, as the API server allocates one.
    if (def.group === '' && def.kind === 'Service' && operation === 'CREATE') {
      const spec = (object.spec ?? {}) as Record<string, unknown>;
      if (spec.type !== 'ExternalName' && spec.clusterIP === undefined) {
        this.#clusterIps++;
        spec.clusterIP = `10.96.${Math.floor(this.#clusterIps / 254) % 254}.${(this.#clusterIps % 254) + 1}`;
        spec.clusterIPs = [spec.clusterIP];
        return { ...object, spec };
      }
    }
    return object;
  }

  async written(event: WriteEvent): Promise<void> {
    if (event.def.group === 'apiextensions.k8s.io') {
      this.#catalog.invalidate();
      if (event.operation !== 'DELETE' && event.subresource !== 'status')
        await establishCrd(this.store, event.object, this.clock.now());
    }
  }
}
