/**
 * The control plane behind the REST handler: the DynamoDB object store, the catalog (built-ins,
 * Karmada, stored CRDs), token auth, admission (CRD checks, Karmada's deletion protection), and the
 * consequences of a write (controllers enqueued, CRD status, catalog refresh).
 */
import { formatKey, type KubeObject, refOf } from '../api/object.ts';
import { DELETION_PROTECTED_LABEL, DELETION_PROTECTION_ALWAYS } from '../api/well-known.ts';
import type { Clock } from '../clock/clock.ts';
import { CONTROLLER_SPECS, type ControllerSpec } from '../controllers/specs.ts';
import { enqueueAfterWrite } from '../controllers/triggers.ts';
import { type CredentialCipher, SealError } from '../crypto/cipher.ts';
import { CRD_GROUP, CRD_KIND, type CatalogProvider } from '../karmada/catalog.ts';
import { establishCrd, validateCrd } from '../kube/crd.ts';
import { isCredentialSecret, sealCredentialSecret } from '../members/credentials.ts';
import { ApiError, apiErrors } from '../kube/base/errors.ts';
import type { KubeRequest } from '../kube/base/http.ts';
import type { Catalog } from '../kube/catalog/resources.ts';
import type { AdmissionInput, RequestAttributes, RestBackend, UserInfo, WriteEvent } from '../kube/rest/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { ObjectStore } from '../store/port.ts';
import type { ChangeFeed } from '../store/watch.ts';
import { authorize, TokenAuthenticator } from './auth.ts';
import { CLUSTER_INFO_REF, isBootstrapTokenSecret, refreshClusterInfo } from './cluster-info.ts';

const CLUSTER_INFO_PATH = `/api/v1/namespaces/${CLUSTER_INFO_REF.namespace}/configmaps/${CLUSTER_INFO_REF.name}`;
const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

export interface ControlPlaneBackendOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  clock: Clock;
  catalog: CatalogProvider;
  productVersion: string;
  /** Controller specs consulted for triggers (default: all). */
  specs?: readonly ControllerSpec[];
  logger?: Logger;
  /** Writes of this process, for watches (local mode); absent in AWS. */
  changes?: ChangeFeed;
  /** Seals member-cluster credentials (Secrets in `karmada-cluster`); without it they are refused. */
  cipher?: CredentialCipher;
}

export class ControlPlaneBackend implements RestBackend {
  readonly productVersion: string;
  readonly store: ObjectStore;
  readonly clock: Clock;
  readonly namespaceLifecycle = true;
  readonly changes: ChangeFeed | undefined;
  readonly #options: ControlPlaneBackendOptions;
  readonly #auth: TokenAuthenticator;
  /** A garbage collector runs: Foreground and Orphan deletes get their finalizers. */
  readonly garbageCollection: boolean;

  constructor(options: ControlPlaneBackendOptions) {
    this.#options = options;
    this.garbageCollection = (options.specs ?? CONTROLLER_SPECS).some((s) => s.triggers?.deletions);
    this.productVersion = options.productVersion;
    this.store = options.store;
    this.clock = options.clock;
    this.changes = options.changes;
    this.#auth = new TokenAuthenticator(options.store, options.clock);
  }

  catalog(): Promise<Catalog> {
    return this.#options.catalog.catalog();
  }

  authenticate(req: KubeRequest): Promise<UserInfo | undefined> {
    // Token discovery reads cluster-info before it has any credential (kubeadm's public ConfigMap).
    if (!req.headers.authorization && req.method === 'GET' && req.path === CLUSTER_INFO_PATH) {
      return Promise.resolve(ANONYMOUS);
    }
    return this.#auth.authenticate(req);
  }

  async authorize(user: UserInfo, attrs: RequestAttributes): Promise<true | string> {
    if (user.name === ANONYMOUS.name) {
      const clusterInfo =
        attrs.verb === 'get' &&
        attrs.resource === 'configmaps' &&
        attrs.namespace === CLUSTER_INFO_REF.namespace &&
        attrs.name === CLUSTER_INFO_REF.name;
      return clusterInfo ? true : 'anonymous users may only read kube-public/cluster-info';
    }
    return authorize(user, attrs);
  }

  async admit(input: AdmissionInput): Promise<KubeObject> {
    const { def, object, operation } = input;
    if (operation !== 'DELETE' && isCredentialSecret(object)) {
      if (!this.#options.cipher) {
        throw new ApiError(
          503,
          'ServiceUnavailable',
          'member-cluster credentials cannot be stored: no key is configured',
        );
      }
      try {
        return await sealCredentialSecret(object, input.old, this.#options.cipher);
      } catch (err) {
        if (err instanceof SealError) {
          this.#options.logger?.error('could not seal member-cluster credentials', { error: err });
          throw new ApiError(500, 'InternalError', `the credentials could not be sealed: ${err.message}`);
        }
        throw err;
      }
    }
    if (def.group === CRD_GROUP && def.kind === CRD_KIND && operation !== 'DELETE') {
      const errors = validateCrd(object);
      if (errors.length) throw apiErrors.invalid(def.kind, def.group, object.metadata.name ?? '', errors);
    }
    if (operation === 'DELETE' && object.metadata.labels?.[DELETION_PROTECTED_LABEL] === DELETION_PROTECTION_ALWAYS) {
      throw new ApiError(
        403,
        'Forbidden',
        `This resource is protected, please make sure to remove the label: ${DELETION_PROTECTED_LABEL}`,
        { name: object.metadata.name ?? '', group: def.group, kind: def.plural },
      );
    }
    return object;
  }

  async written(event: WriteEvent): Promise<void> {
    const { def, object, operation } = event;
    if (def.group === CRD_GROUP && def.kind === CRD_KIND) {
      this.#options.catalog.invalidate();
      if (operation !== 'DELETE' && event.subresource !== 'status')
        await establishCrd(this.store, object, this.clock.now());
    }
    // Status writes are the controllers' own; they trigger nothing.
    if (event.subresource === 'status') return;
    if (isBootstrapTokenSecret(object)) {
      try {
        await refreshClusterInfo(this.store, this.clock);
      } catch (err) {
        this.#options.logger?.error('could not re-sign cluster-info after a bootstrap token change', {
          error: err as Error,
        });
      }
    }
    try {
      await enqueueAfterWrite(
        this.#options.workQueue,
        { gk: { group: def.group, kind: def.kind }, operation, object, old: event.old },
        { garbageCollection: this.garbageCollection, specs: this.#options.specs },
      );
    } catch (err) {
      // The write stands; the periodic resync will enqueue the key if this send was lost.
      this.#options.logger?.error('could not enqueue controllers for an accepted write; resync will catch up', {
        key: formatKey(refOf(object)),
        error: err as Error,
      });
    }
  }
}
