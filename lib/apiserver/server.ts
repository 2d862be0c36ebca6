/**
 * Assembles the control-plane API: catalog, backend, REST handler, and the bootstrap every start
 * runs (default namespaces, first admin token).
 */
import type { Clock } from '../clock/clock.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import type { ControllerSpec } from '../controllers/specs.ts';
import { fieldManager, patchEngine } from '../kube/engines.ts';
import type { ResourceStrategy } from '../kube/catalog/resources.ts';
import type { KubeRequest, KubeResponse } from '../kube/base/http.ts';
import { RestHandler } from '../kube/rest/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { WorkQueue } from '../queue/port.ts';
import { AlreadyExistsError } from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';
import type { ChangeFeed } from '../store/watch.ts';
import { PRODUCT_VERSION } from '../version.ts';
import { ADMIN_GROUP, type IssuedToken, issueToken } from './auth.ts';
import { ControlPlaneBackend } from './backend.ts';
import { StoredCrdCatalog, staticControlPlaneDefs } from '../karmada/catalog.ts';
import { karmadaStrategy } from '../karmada/kinds.ts';
import type { KarmadaAdmissionOptions } from '../karmada/validation/index.ts';
import { type FailoverSettings, failoverSettings } from '../config/failover.ts';
import { WebhookHandler } from './webhooks.ts';
import type { SearchCache } from '../search/cache-store.ts';
import { SearchProxy } from '../search/proxy.ts';

/** Namespaces that exist from the start, as on a fresh Karmada control plane. */
export const DEFAULT_NAMESPACES = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'karmada-system',
  'karmada-cluster',
];

export interface ControlPlaneApi {
  /** Every request: member-cluster webhooks, and the Kubernetes API. */
  handler: { handle(req: KubeRequest): Promise<KubeResponse> };
  rest: RestHandler;
  backend: ControlPlaneBackend;
}

export function createControlPlaneApi(options: {
  store: ObjectStore;
  workQueue: WorkQueue;
  clock: Clock;
  logger?: Logger;
  specs?: readonly ControllerSpec[];
  karmadaStrategy?: ResourceStrategy;
  changes?: ChangeFeed;
  cipher?: CredentialCipher;
  /** `--cluster-lease-duration` for Pull agents' leases. */
  leaseDurationSeconds?: number;
  /** Failover flags Karmada's admission reads (default tolerations, NoExecute taint policies). */
  failover?: Partial<FailoverSettings>;
  /** The search cache: with it, the global proxy, cache search and cluster proxy are served. */
  searchCache?: SearchCache;
}): ControlPlaneApi {
  const strategy = options.karmadaStrategy ?? karmadaStrategy(admissionOptions(failoverSettings(options.failover)));
  const catalog = new StoredCrdCatalog(options.store, options.clock, staticControlPlaneDefs(strategy));
  const backend = new ControlPlaneBackend({
    store: options.store,
    workQueue: options.workQueue,
    clock: options.clock,
    catalog,
    productVersion: PRODUCT_VERSION,
    ...(options.specs ? { specs: options.specs } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.changes ? { changes: options.changes } : {}),
    ...(options.cipher ? { cipher: options.cipher } : {}),
  });
  const rest = new RestHandler(backend, {
    patch: patchEngine,
    fields: fieldManager,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const webhooks = new WebhookHandler({
    store: options.store,
    clock: options.clock,
    cipher: options.cipher,
    workQueue: options.workQueue,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.leaseDurationSeconds ? { leaseDurationSeconds: options.leaseDurationSeconds } : {}),
    ...(options.searchCache ? { searchCache: options.searchCache } : {}),
  });
  const proxy = options.searchCache
    ? new SearchProxy({
        store: options.store,
        cache: options.searchCache,
        clock: options.clock,
        rest,
        backend,
        engines: { patch: patchEngine, fields: fieldManager },
        ...(options.cipher ? { cipher: options.cipher } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
        streaming: options.changes !== undefined,
      })
    : undefined;
  const handler = {
    handle: (req: KubeRequest) =>
      WebhookHandler.matches(req.path)
        ? webhooks.handle(req)
        : proxy && SearchProxy.matches(req.path)
          ? proxy.handle(req)
          : rest.handle(req),
  };
  return { handler, rest, backend };
}

/**
 * What Karmada's admission takes from the failover flags: with the `Failover` gate, the seeds' default
 * NoExecute tolerations; and whether a ClusterTaintPolicy may add NoExecute taints.
 */
export function admissionOptions(settings: FailoverSettings): KarmadaAdmissionOptions {
  return {
    ...(settings.featureGates.Failover
      ? {
          defaultTolerationSeconds: {
            notReady: settings.defaultNotReadyTolerationSeconds,
            unreachable: settings.defaultUnreachableTolerationSeconds,
          },
        }
      : {}),
    allowNoExecuteTaintPolicy: settings.allowNoExecuteTaintPolicy,
  };
}

/** Creates the default namespaces if missing (idempotent, safe to run at every start). */
export async function ensureDefaultNamespaces(store: ObjectStore): Promise<void> {
  for (const name of DEFAULT_NAMESPACES) {
    if (await store.get({ group: '', kind: 'Namespace', name })) continue;
    try {
      const created = await store.create({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name, finalizers: ['kubernetes'] },
        spec: { finalizers: ['kubernetes'] },
      });
      await store.updateStatus({ ...created, status: { phase: 'Active' } });
    } catch (err) {
      if (!(err instanceof AlreadyExistsError)) throw err;
    }
  }
}

/** Issues a new admin token (the plaintext is returned once; only its hash is stored). */
export function issueAdminToken(store: ObjectStore, description: string): Promise<IssuedToken> {
  return issueToken(store, { user: 'admin', groups: [ADMIN_GROUP], description });
}
