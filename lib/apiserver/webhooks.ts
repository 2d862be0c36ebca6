/**
 * Member-cluster webhooks (docs/decisions/0006-member-clusters.md), served next to the Kubernetes API:
 *
 * - `POST /webhooks/v1/register`, with a bootstrap token as bearer: a Pull cluster registers
 *   (`skctl register`). The Cluster is created with `syncMode: Pull` and a per-cluster credential is
 *   issued — returned once, stored only sealed (Secret `karmada-cluster/<name>-agent`).
 * - `POST /webhooks/v1/clusters/{name}/{heartbeat|status|works|workstatus}`: the agent renews its
 *   lease, reports status, pulls its Works and reports their status; `search` and `cache` ask what
 *   ResourceRegistries select there and report those objects a page at a time (lib/search/agent-reports.ts). Each request is signed with
 *   the cluster's credential over method, path, body, timestamp and nonce; stale timestamps, replays
 *   (a nonce seen in the last 10 minutes), unknown clusters and one cluster posting for another are
 *   refused (401/403) and change nothing. Retrying with a fresh signature is harmless: every
 *   action is a level-triggered write.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { CLUSTER_NAME_LABEL, EXECUTION_CONTROLLER_FINALIZER } from '../api/well-known.ts';
import { bindingKeyOf, CLUSTER_GROUP, executionNamespace, WORK, WORK_GROUP } from '../api/karmada-names.ts';
import { listAll } from '../store/list-all.ts';
import { withoutFinalizer } from '../store/finalizers.ts';
import { tryWrite, updateLatest } from '../store/write.ts';
import { deepEqual } from '../util/json.ts';
import { BINDER_CONTROLLER_NAME, SEARCH_CONTROLLER_NAME } from '../controllers/specs.ts';
import { formatKey, type KubeObject, refOf } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import { defaultCluster, validateClusterName } from '../karmada/validation/index.ts';
import { ApiError, apiErrors } from '../kube/base/errors.ts';
import { checkRequestPath, decodeJson } from '../kube/base/request-guard.ts';
import {
  bearerToken,
  jsonResponse,
  type KubeRequest,
  type KubeResponse,
  MAX_REQUEST_BYTES,
} from '../kube/base/http.ts';
import {
  agentCredentialSecretName,
  CREDENTIALS_NAMESPACE,
  openCredentialSecret,
  sealCredentialSecret,
} from '../members/credentials.ts';
import type { Logger } from '../observability/logger.ts';
import type { WorkQueue } from '../queue/port.ts';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  bootstrapTokenSecretName,
  parseBootstrapToken,
  readBootstrapTokenSecret,
} from '../registration/bootstrap-token.ts';
import { generateClusterCredential, verifyWebhookRequest } from '../registration/webhook-signing.ts';
import { AlreadyExistsError } from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';
import { enqueueTriggered } from '../controllers/triggers.ts';
import { reportIfStaleCopy } from '../controllers/stale-copy.ts';
import { StoreEventRecorder } from '../events/recorder.ts';
import { acceptCachePage, collectionsForAgent, parseCachePageReport } from '../search/agent-reports.ts';
import type { SearchCache } from '../search/cache-store.ts';

export const WEBHOOK_PREFIX = '/webhooks/v1/';
/** Replay protection: nonces are remembered this long (longer than the accepted clock skew both ways). */
export const NONCE_TTL_SECONDS = 600;
export const NONCE_KIND = { group: 'auth.serverless-karmada.io', kind: 'WebhookNonce' };
/** The Lease a Pull cluster's agent renews (Karmada: `karmada-cluster/<cluster>`). */
const LEASE_NAMESPACE = CREDENTIALS_NAMESPACE;
const DEFAULT_LEASE_DURATION_SECONDS = 40;
const CLUSTER = { group: CLUSTER_GROUP, kind: 'Cluster' };
const ACTIONS = new Set(['heartbeat', 'status', 'works', 'workstatus', 'search', 'cache']);

/** Marks a Secret as a Pull agent's credential and binds it to one Cluster incarnation. */
export const AGENT_CREDENTIAL_LABEL = 'cluster.serverless-karmada.io/agent-credential';
export const AGENT_CLUSTER_UID_ANNOTATION = 'cluster.serverless-karmada.io/cluster-uid';

export interface WebhookHandlerOptions {
  store: ObjectStore;
  clock: Clock;
  cipher: CredentialCipher | undefined;
  workQueue: WorkQueue;
  logger?: Logger;
  /** `--cluster-lease-duration` written on the agent's Lease (default 40 s). */
  leaseDurationSeconds?: number;
  /** The search cache the agent's `cache` reports go to (without it they are refused). */
  searchCache?: SearchCache;
}

/** Opened agent credentials by Secret version: a Decrypt per webhook call would be wasteful. */
const openedCredentials = new Map<string, string>();

export class WebhookHandler {
  readonly #o: WebhookHandlerOptions;

  constructor(options: WebhookHandlerOptions) {
    this.#o = options;
  }

  static matches(path: string): boolean {
    return path.startsWith(WEBHOOK_PREFIX);
  }

  async handle(req: KubeRequest): Promise<KubeResponse> {
    try {
      if (req.method !== 'POST') throw apiErrors.methodNotAllowed(req.method, req.path);
      if (req.body.length > MAX_REQUEST_BYTES) {
        throw new ApiError(413, 'RequestEntityTooLarge', `the request body is larger than ${MAX_REQUEST_BYTES} bytes`);
      }
      const pathError = checkRequestPath(req.path);
      if (pathError) throw pathError;
      if (!this.#o.cipher)
        throw new ApiError(503, 'ServiceUnavailable', 'member-cluster credentials are not configured');
      const rest = req.path.slice(WEBHOOK_PREFIX.length);
      if (rest === 'register') return await this.#register(req);
      const m = /^clusters\/([^/]+)\/([a-z]+)$/.exec(rest);
      if (!m || !ACTIONS.has(m[2]!)) throw apiErrors.routeNotFound(req.path);
      return await this.#clusterAction(req, m[1]!, m[2]!);
    } catch (err) {
      if (err instanceof ApiError) return jsonResponse(err.code, err.toStatus());
      this.#o.logger?.error('webhook failed', { path: req.path, error: err as Error });
      return jsonResponse(500, apiErrors.internal('the webhook failed; see the server logs').toStatus());
    }
  }

  // ---------------------------------------------------------------------------------- register

  async #register(req: KubeRequest): Promise<KubeResponse> {
    const { store, clock } = this.#o;
    const token = bearerToken(req.headers.authorization);
    const parsed = token === undefined ? undefined : parseBootstrapToken(token);
    const unauthorized = () =>
      new ApiError(401, 'Unauthorized', 'the bootstrap token is unknown, expired or not allowed to authenticate');
    if (!parsed) throw unauthorized();
    const secret = await store.get({
      group: '',
      kind: 'Secret',
      namespace: BOOTSTRAP_TOKEN_NAMESPACE,
      name: bootstrapTokenSecretName(parsed.id),
    });
    const info = secret ? readBootstrapTokenSecret(secret, clock.now()) : undefined;
    const matches =
      info !== undefined &&
      info.secret.length === parsed.secret.length &&
      timingSafeEqual(Buffer.from(info.secret), Buffer.from(parsed.secret));
    if (!info || !matches || info.expired || !info.usages.includes('authentication')) throw unauthorized();

    const body = parseBody(req) as {
      clusterName?: unknown;
      provider?: unknown;
      region?: unknown;
      zones?: unknown;
    };
    const name = typeof body.clusterName === 'string' ? body.clusterName : '';
    const nameErrors = validateClusterName(name);
    if (nameErrors.length) {
      throw new ApiError(422, 'Invalid', `clusterName ${JSON.stringify(name)} is invalid: ${nameErrors.join('; ')}`);
    }
    // The Cluster first; an existing one may only be taken over when it is a Pull cluster left
    // without its agent credential (a registration that failed half-way).
    let cluster = await store.get({ ...CLUSTER, name });
    const credentialRef = {
      group: '',
      kind: 'Secret',
      namespace: CREDENTIALS_NAMESPACE,
      name: agentCredentialSecretName(name),
    };
    const existingCredential = await store.get(credentialRef);
    if (cluster) {
      const pull = (cluster.spec as { syncMode?: string } | undefined)?.syncMode === 'Pull';
      const bound = existingCredential?.metadata.annotations?.[AGENT_CLUSTER_UID_ANNOTATION] === cluster.metadata.uid;
      if (!pull || bound || cluster.metadata.deletionTimestamp) {
        throw new ApiError(
          409,
          'AlreadyExists',
          `cluster ${name} already exists: unregister it (skctl unjoin ${name}) or pass another --cluster-name`,
        );
      }
    } else {
      const spec: Record<string, unknown> = { syncMode: 'Pull' };
      if (typeof body.provider === 'string' && body.provider) spec.provider = body.provider;
      if (typeof body.region === 'string' && body.region) spec.region = body.region;
      if (Array.isArray(body.zones) && body.zones.every((z) => typeof z === 'string') && body.zones.length)
        spec.zones = body.zones;
      try {
        cluster = await store.create(
          defaultCluster(
            { apiVersion: `${CLUSTER_GROUP}/v1alpha1`, kind: 'Cluster', metadata: { name }, spec },
            { operation: 'CREATE', now: new Date(clock.now()).toISOString(), newUid: randomUUID },
          ),
        );
      } catch (err) {
        if (err instanceof AlreadyExistsError)
          throw new ApiError(409, 'AlreadyExists', `cluster ${name} already exists`);
        throw err;
      }
    }
    if (existingCredential && existingCredential.metadata.labels?.[AGENT_CREDENTIAL_LABEL] !== 'true') {
      throw new ApiError(
        409,
        'AlreadyExists',
        `Secret ${CREDENTIALS_NAMESPACE}/${credentialRef.name} exists and is not an agent credential: remove it first`,
      );
    }
    const credential = generateClusterCredential();
    const sealed = await sealCredentialSecret(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: credentialRef.name,
          namespace: CREDENTIALS_NAMESPACE,
          labels: { [CLUSTER_NAME_LABEL]: name, [AGENT_CREDENTIAL_LABEL]: 'true' },
          annotations: { [AGENT_CLUSTER_UID_ANNOTATION]: cluster.metadata.uid! },
          // Collected with its Cluster (the cluster controller also deletes it).
          ownerReferences: [{ apiVersion: cluster.apiVersion, kind: 'Cluster', name, uid: cluster.metadata.uid! }],
        },
        type: 'Opaque',
        data: { 'webhook-secret': Buffer.from(credential, 'utf8').toString('base64') },
      },
      undefined,
      this.#o.cipher!,
    );
    if (existingCredential) {
      await store.update({
        ...sealed,
        metadata: { ...sealed.metadata, resourceVersion: existingCredential.metadata.resourceVersion },
      });
    } else {
      await store.create(sealed);
    }
    const created = cluster;
    try {
      await enqueueTriggered(this.#o.workQueue, CLUSTER, [{ ...CLUSTER, name }], 'cluster-registered');
    } catch (err) {
      // Registered all the same: the sweep and the resync pick the cluster up.
      this.#o.logger?.error('could not enqueue the controllers of a registered cluster', {
        cluster: name,
        error: err as Error,
      });
    }
    this.#o.logger?.info('pull cluster registered', { cluster: name, tokenId: parsed.id });
    return jsonResponse(201, { kind: 'ClusterRegistration', cluster: name, uid: created.metadata.uid, credential });
  }

  // ------------------------------------------------------------------------------ cluster actions

  async #clusterAction(req: KubeRequest, name: string, action: string): Promise<KubeResponse> {
    const { store, clock } = this.#o;
    // The Cluster read while checking the signature (a verified request names the path's cluster).
    let registered: KubeObject | undefined;
    const verdict = await verifyWebhookRequest({
      method: req.method,
      path: req.path + (req.query.toString() ? `?${req.query.toString()}` : ''),
      pathCluster: name,
      body: req.body,
      headers: req.headers,
      nowMs: clock.now(),
      secretFor: async (cluster) => {
        const found = await this.#credentialOf(cluster);
        if (found && cluster === name) registered = found.cluster;
        return found?.credential;
      },
    });
    if (!verdict.ok) {
      // An unknown cluster and a wrong signature look the same from outside: names are not probed.
      const reason = /^unknown cluster|^signature mismatch/.test(verdict.reason)
        ? 'the request is not signed with the credential of a registered cluster'
        : verdict.reason;
      throw new ApiError(verdict.status, verdict.status === 401 ? 'Unauthorized' : 'Forbidden', reason);
    }
    // Replays: the nonce can be used once.
    try {
      await store.create({
        apiVersion: `${NONCE_KIND.group}/v1`,
        kind: NONCE_KIND.kind,
        metadata: { name: `${name}.${verdict.nonce}` },
      });
    } catch (err) {
      if (err instanceof AlreadyExistsError)
        throw new ApiError(401, 'Unauthorized', 'replayed request: this nonce was already used');
      throw err;
    }
    const cluster = registered;
    if (!cluster) throw new ApiError(401, 'Unauthorized', `cluster ${name} is not registered`);
    if ((cluster.spec as { syncMode?: string } | undefined)?.syncMode !== 'Pull') {
      throw new ApiError(
        403,
        'Forbidden',
        `cluster ${name} is a Push cluster: only Pull clusters report through webhooks`,
      );
    }
    const body = req.body.length ? parseBody(req) : {};
    switch (action) {
      case 'heartbeat':
        await this.#renewLease(cluster);
        return jsonResponse(200, {
          kind: 'Heartbeat',
          renewTime: new Date(clock.now()).toISOString(),
          resourceModels: (cluster.spec as { resourceModels?: unknown } | undefined)?.resourceModels ?? [],
          // The agent updates these rather than its own copy (the control plane may have set Unknown).
          conditions: (cluster.status as { conditions?: unknown } | undefined)?.conditions ?? [],
        });
      case 'status':
        return this.#status(cluster, body);
      case 'works':
        return this.#works(name);
      case 'search':
        return jsonResponse(200, {
          kind: 'SearchCollections',
          collections: await collectionsForAgent(this.#o.store, cluster, clock.now()),
        });
      case 'cache': {
        if (!this.#o.searchCache) throw new ApiError(503, 'ServiceUnavailable', 'the search cache is not configured');
        const { through, complete, registriesToRefresh } = await acceptCachePage(
          {
            store: this.#o.store,
            cache: this.#o.searchCache,
            nowMs: clock.now(),
            ...(this.#o.logger ? { logger: this.#o.logger } : {}),
          },
          cluster,
          parseCachePageReport(body),
        );
        // The cluster's reachability or kinds changed: its registries' conditions follow.
        await this.#o.workQueue.enqueue(
          registriesToRefresh.map((key) => ({
            controller: SEARCH_CONTROLLER_NAME,
            lane: 'standard' as const,
            key,
            reason: 'agent-report',
          })),
        );
        return jsonResponse(200, {
          kind: 'CachePageAccepted',
          ...(through !== undefined ? { through } : {}),
          ...(complete !== undefined ? { complete } : {}),
        });
      }
      default:
        return this.#workStatus(name, body);
    }
  }

  /** The webhook credential of a registered Pull cluster (bound to its current incarnation), and the Cluster. */
  async #credentialOf(name: string): Promise<{ cluster: KubeObject; credential: string } | undefined> {
    const [cluster, secret] = await Promise.all([
      this.#o.store.get({ ...CLUSTER, name }),
      this.#o.store.get({
        group: '',
        kind: 'Secret',
        namespace: CREDENTIALS_NAMESPACE,
        name: agentCredentialSecretName(name),
      }),
    ]);
    if (!cluster || !secret) return undefined;
    // A credential of a deleted-and-recreated Cluster of the same name does not carry over.
    if (secret.metadata.annotations?.[AGENT_CLUSTER_UID_ANNOTATION] !== cluster.metadata.uid) return undefined;
    const key = `${secret.metadata.uid}@${secret.metadata.resourceVersion}`;
    const cached = openedCredentials.get(key);
    if (cached !== undefined) return { cluster, credential: cached };
    const value = (await openCredentialSecret(secret, this.#o.cipher!))['webhook-secret']?.toString('utf8');
    if (value === undefined) return undefined;
    if (openedCredentials.size >= 1000) openedCredentials.delete(openedCredentials.keys().next().value as string);
    openedCredentials.set(key, value);
    return { cluster, credential: value };
  }

  async #renewLease(cluster: KubeObject): Promise<void> {
    const { store, clock } = this.#o;
    const name = cluster.metadata.name!;
    const ref = { group: 'coordination.k8s.io', kind: 'Lease', namespace: LEASE_NAMESPACE, name };
    const renewTime = new Date(clock.now()).toISOString().replace('Z', '000Z');
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await store.get(ref);
      // Another heartbeat of the same agent may race this one: the later one reads it again.
      const written = await tryWrite(() =>
        current
          ? store.update({ ...current, spec: { ...(current.spec as object), renewTime } })
          : store.create({
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: {
                name,
                namespace: LEASE_NAMESPACE,
                ownerReferences: [
                  { apiVersion: cluster.apiVersion, kind: 'Cluster', name, uid: cluster.metadata.uid! },
                ],
              },
              spec: {
                holderIdentity: name,
                leaseDurationSeconds: this.#o.leaseDurationSeconds ?? DEFAULT_LEASE_DURATION_SECONDS,
                renewTime,
              },
            }),
      );
      if (written.ok) return;
    }
  }

  /** The agent's status report: the fields Karmada's agent writes, nothing else. */
  async #status(cluster: KubeObject, body: Record<string, unknown>): Promise<KubeResponse> {
    const allowed = ['conditions', 'kubernetesVersion', 'apiEnablements', 'nodeSummary', 'resourceSummary'];
    const report: Record<string, unknown> = {};
    for (const key of allowed) if (body[key] !== undefined) report[key] = body[key];
    if (report.conditions !== undefined) {
      const valid =
        Array.isArray(report.conditions) &&
        report.conditions.every(
          (c: unknown) =>
            typeof c === 'object' &&
            c !== null &&
            typeof (c as { type?: unknown }).type === 'string' &&
            ['True', 'False', 'Unknown'].includes((c as { status?: unknown }).status as string),
        );
      if (!valid) throw apiErrors.badRequest('conditions must be a list of {type, status: True|False|Unknown, ...}');
    }
    const result = await updateLatest(
      this.#o.store,
      cluster,
      (current) => {
        const status = { ...((current.status as object) ?? {}), ...report };
        return JSON.stringify(status) === JSON.stringify(current.status ?? {}) ? undefined : { ...current, status };
      },
      { attempts: 3, write: 'updateStatus' },
    );
    if (result.status === 'gone') {
      throw new ApiError(401, 'Unauthorized', `cluster ${cluster.metadata.name} is not registered`);
    }
    // The Ready condition may have changed: taints follow (cluster-status controller).
    if (result.status === 'written') {
      await enqueueTriggered(this.#o.workQueue, CLUSTER, [refOf(cluster)], 'agent-status');
    }
    return jsonResponse(200, { kind: 'StatusAccepted' });
  }

  async #works(cluster: string): Promise<KubeResponse> {
    const items = await listAll(this.#o.store, { ...WORK, cluster });
    return jsonResponse(200, { kind: 'WorkList', apiVersion: `${WORK_GROUP}/v1alpha1`, metadata: {}, items });
  }

  /**
   * The agent reports a Work's status, or (`released: true`) that a deleting Work's member objects are
   * deleted or released, so its finalizer can go. Either way the binder hears of it.
   */
  async #workStatus(cluster: string, body: Record<string, unknown>): Promise<KubeResponse> {
    const name = typeof body.name === 'string' ? body.name : '';
    const status = body.status;
    const released = body.released === true;
    if (!name || (!released && (typeof status !== 'object' || status === null || Array.isArray(status)))) {
      throw apiErrors.badRequest('a work status report needs the Work name and its status (or released: true)');
    }
    const ref = { group: WORK_GROUP, kind: 'Work', namespace: executionNamespace(cluster), name };
    const result = released
      ? // Its member objects are deleted or released: a deleting Work loses the executor's finalizer.
        await updateLatest(this.#o.store, ref, (work) =>
          work.metadata.deletionTimestamp ? withoutFinalizer(work, EXECUTION_CONTROLLER_FINALIZER) : undefined,
        )
      : await updateLatest(
          this.#o.store,
          ref,
          (work) =>
            deepEqual(work.status ?? {}, status) ? undefined : { ...work, status: status as Record<string, unknown> },
          { attempts: 3, write: 'updateStatus' },
        );
    if (result.status === 'gone' && !released) throw apiErrors.notFound('works', WORK_GROUP, name);
    if (result.status === 'written') {
      const binding = bindingKeyOf(result.object);
      // A report goes to the binder's status path (that Work alone); a released Work syncs its binding.
      if (binding)
        await this.#o.workQueue.enqueue([
          {
            controller: BINDER_CONTROLLER_NAME,
            lane: 'priority',
            key: released ? binding : formatKey(ref),
            reason: released ? 'work-deleted' : 'work-status',
          },
        ]);
      // Last, and never failing the report: the binder has heard of the release whatever happens here.
      if (released)
        await this.#staleCopyRemoved(cluster, result.object).catch((err: unknown) =>
          this.#o.logger?.warn('could not record StaleCopyRemoved', { cluster, work: name, error: err as Error }),
        );
    }
    return jsonResponse(200, { kind: 'StatusAccepted' });
  }

  /**
   * A Work deleted while its Pull cluster was away is a copy that may have kept running there: the
   * agent's release confirms it is gone, and the binding says so, as the executor does for a Push
   * cluster (the agent deletes a deleting Work's objects before it applies anything else).
   */
  async #staleCopyRemoved(cluster: string, work: KubeObject): Promise<void> {
    const record = await this.#o.store.get({ ...CLUSTER, name: cluster });
    if (!record) return;
    const events = new StoreEventRecorder({
      store: this.#o.store,
      clock: this.#o.clock,
      component: 'karmada-agent',
      instance: cluster,
      ...(this.#o.logger ? { logger: this.#o.logger } : {}),
    });
    await reportIfStaleCopy(this.#o.store, events, work, record);
  }
}

function parseBody(req: KubeRequest): Record<string, unknown> {
  const { value } = decodeJson(req.body, 'the body', { decodeError: (message) => `the body is not JSON: ${message}` });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw apiErrors.badRequest('the body must be a JSON object');
  return value as Record<string, unknown>;
}
