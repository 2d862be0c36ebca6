/**
 * A simulated member cluster: a Kubernetes API (the same REST layer as the control plane) over an
 * in-memory store, with nodes, the cluster controllers of controllers/, `/readyz` and
 * `/healthz`, and fault injection. It listens on its own loopback HTTPS port with a certificate from
 * the local CA, writes its own kubeconfig, and keeps its state across restarts in a snapshot file.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { StoredCrdCatalog } from '../karmada/catalog.ts';
import { parseApiVersion } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import { createNamespaceController } from '../controllers/namespace.ts';
import { StoreEventRecorder } from '../events/recorder.ts';
import { eventTtl } from '../store/ttl.ts';
import { controlPlaneBuiltins, nodeDef } from '../kube/builtin/kinds.ts';
import { fieldManager, patchEngine } from '../kube/engines.ts';
import { ApiError, apiErrors } from '../kube/base/errors.ts';
import { bearerToken, jsonResponse, type KubeRequest, type KubeResponse } from '../kube/base/http.ts';
import { type RunningKubeServer, startKubeServer } from '../kube/node-server.ts';
import { RestHandler } from '../kube/rest/index.ts';
import type { Logger } from '../observability/logger.ts';
import { writeKubeconfig } from '../pki/index.ts';
import { MemberClient, type MemberConnection, MemberUnreachableError } from '../members/client.ts';
import { MemoryRowStore } from '../store/memory-rows.ts';
import type { ObjectStore } from '../store/port.ts';
import { RowObjectStore } from '../store/row-object-store.ts';
import { ChangeFeed, WatchingStore } from '../store/watch.ts';
import { ClusterControllers, type SimTimings, UnhealthyWorkloads, type WorkloadRef } from './controllers/index.ts';
import { DEFAULT_CRD_STATUS, type MemberConfig } from './config.ts';
import { parseWorkloadTarget, resolveWorkloadKind } from './workload-target.ts';
import { bootstrapMember } from './bootstrap.ts';
import { MemberBackend } from './member-backend.ts';

/** `/api/v1/namespaces/<ns>/pods/<name>/log`. */
const POD_LOG_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log\/?$/;

export type FaultMode = 'unreachable' | 'not-ready' | 'slow' | 'errors';
export const FAULT_MODES: readonly FaultMode[] = ['unreachable', 'not-ready', 'slow', 'errors'];

export interface Fault {
  mode: FaultMode;
  /** For `slow`: how long each response is held back. */
  delayMs?: number;
}

/** `kind/name` resolved against what a member serves, or why it cannot be. */
export type WorkloadResolution =
  { code: 'Resolved'; ref: WorkloadRef } | { code: 'Malformed' | 'UnknownKind' | 'NotAWorkload'; reason: string };

/** What a member needs with or without a server of its own. */
export interface MemberCoreOptions {
  config: MemberConfig;
  timings: SimTimings;
  clock: Clock;
  logger?: Logger;
}

export interface MemberOptions extends MemberCoreOptions {
  tls: { cert: string; key: string };
  caCertPem: string;
  /** 0 picks a free port. */
  port: number;
  kubeconfigPath: string;
  /** Where the member's state is kept across restarts (absent: in memory only). */
  snapshotPath?: string;
}

interface Snapshot {
  version: 1;
  token: string;
  rows: ReturnType<MemoryRowStore['exportRows']>;
  /** Workloads marked unhealthy (`skctl sim unhealthy`): an application does not heal because the control plane restarted. */
  unhealthy?: WorkloadRef[];
}

/** How often the member's controllers run a pass with nothing announced (their resync). */
const RESYNC_MS = 5_000;
/** Core kinds whose creation or update no simulated controller acts on. */
const PASSIVE_KINDS = new Set(['ConfigMap', 'Secret', 'Event', 'ServiceAccount', 'Service', 'Endpoints', 'Lease']);

/** Events live an hour after their last update, as with kube-apiserver's default `--event-ttl`. */
const EVENT_TTL_SECONDS = 3600;

/**
 * What local mode, its tests and `skctl sim` use of a member that serves its API: a
 * {@link SimulatedMember} in this thread, or a handle on one in the members' worker thread
 * (`RemoteMember`, member-thread.ts). Fault and unhealthy-mark setters return at once; on a handle
 * they take effect when the member's thread receives them, before any later call on the handle.
 */
export interface RunningMember {
  readonly name: string;
  readonly config: MemberConfig;
  /** Path of the member's kubeconfig. */
  readonly kubeconfig: string;
  readonly url: string;
  readonly token: string;
  readonly fault: Fault | undefined;
  /** The member's own store, behind its API (tests read and edit member objects through it). */
  readonly store: ObjectStore;
  readonly unhealthyWorkloads: WorkloadRef[];
  setFault(fault: Fault): void;
  recover(): void;
  markUnhealthy(ref: WorkloadRef): boolean;
  markHealthy(ref: WorkloadRef): boolean;
  resolveWorkload(target: string, namespace?: string): Promise<WorkloadResolution>;
  settle(): Promise<void>;
  /** Stops serving and writes the snapshot, if the member keeps one. */
  stop(): Promise<void>;
}

export class SimulatedMember implements RunningMember {
  readonly name: string;
  readonly config: MemberConfig;
  readonly store: ObjectStore;
  readonly kubeconfig: string;
  readonly #rows: MemoryRowStore;
  readonly #options: MemberCoreOptions & Partial<MemberOptions>;
  /** In-process (the deterministic simulation): no server, no timers; passes run when told. */
  readonly #manual: boolean;
  readonly #controllers: ClusterControllers;
  readonly #catalog: StoredCrdCatalog;
  readonly #unhealthy = new UnhealthyWorkloads();
  readonly #token: string;
  readonly #stopListening: () => void;
  #server: RunningKubeServer | undefined;
  #fault: Fault | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  /** Whether a ResourceQuota existed at the last pass (quotas count ConfigMaps, Secrets, Services). */
  #quotas = true;
  #timerAt = 0;
  readonly #objects: RowObjectStore;
  readonly #changes: ChangeFeed;
  #purgedAt = 0;
  #dirty = true;
  #stopped = false;

  private constructor(
    options: MemberCoreOptions & Partial<MemberOptions>,
    rows: MemoryRowStore,
    token: string,
    manual = false,
  ) {
    this.#options = options;
    this.#manual = manual;
    this.name = options.config.name;
    this.config = options.config;
    this.kubeconfig = options.kubeconfigPath ?? '';
    this.#rows = rows;
    this.#token = token;
    const changes = new ChangeFeed({ startVersion: options.clock.now() * 1000 });
    this.#changes = changes;
    this.#objects = new RowObjectStore(rows, { clock: options.clock, ttlSeconds: eventTtl(EVENT_TTL_SECONDS) });
    this.store = new WatchingStore(this.#objects, changes);
    const catalog = new StoredCrdCatalog(this.store, options.clock, [...controlPlaneBuiltins(), nodeDef()]);
    this.#catalog = catalog;
    const backend = new MemberBackend(this.store, options.clock, changes, catalog, token);
    backend.productVersion = options.config.kubernetesVersion;
    this.#handler = new RestHandler(backend, {
      patch: patchEngine,
      fields: fieldManager,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    this.#namespaces = createNamespaceController({
      store: this.store,
      workQueue: { enqueue: async () => {} },
      catalog,
    });
    this.#controllers = new ClusterControllers({
      store: this.store,
      now: () => options.clock.now(),
      timings: options.timings,
      crdStatus: { ...DEFAULT_CRD_STATUS, ...(options.config.crdStatus ?? {}) },
      crdKinds: async () =>
        (await catalog.catalog()).defs
          .filter((d) => d.origin !== 'built-in')
          .map((d) => ({ group: d.group, kind: d.kind })),
      events: (component) =>
        new StoreEventRecorder({ store: this.store, clock: options.clock, component, instance: options.config.name }),
      unhealthy: this.#unhealthy,
    });
    // A new or changed object of a kind no controller here reads (a ConfigMap, a Secret, an Event) needs
    // no pass unless a ResourceQuota counts it — a fan-out of ConfigMaps would otherwise run every
    // controller once per batch of creates. Deletions always wake: a terminating namespace's controller
    // waits for its objects to go.
    this.#stopListening = changes.onChange((e) => {
      const { group } = parseApiVersion(e.object.apiVersion ?? '');
      if (group === '' && e.object.kind === 'ResourceQuota') this.#quotas = true;
      if (e.type !== 'DELETED' && group === '' && PASSIVE_KINDS.has(e.object.kind) && !this.#quotas) return;
      this.#wake();
    });
  }

  readonly #handler: RestHandler;
  readonly #namespaces: ReturnType<typeof createNamespaceController>;

  /** Starts a member: loads or creates its state, serves its API, writes its kubeconfig. */
  static async start(options: MemberOptions): Promise<SimulatedMember> {
    const rows = new MemoryRowStore();
    let token = randomBytes(32).toString('base64url');
    let unhealthy: WorkloadRef[] = [];
    if (options.snapshotPath && existsSync(options.snapshotPath)) {
      const snapshot = JSON.parse(readFileSync(options.snapshotPath, 'utf8')) as Snapshot;
      if (snapshot.version !== 1)
        throw new Error(`${options.snapshotPath}: unknown snapshot version ${snapshot.version}`);
      rows.importRows(snapshot.rows);
      token = snapshot.token;
      unhealthy = snapshot.unhealthy ?? [];
    }
    const member = new SimulatedMember(options, rows, token);
    for (const ref of unhealthy) member.#unhealthy.mark(ref);
    await bootstrapMember(member.store, member.config, options.clock.now());
    member.#server = await startKubeServer({
      handler: (req) => member.handle(req),
      tls: options.tls,
      port: options.port,
      acceptConnection: () => member.#fault?.mode !== 'unreachable',
    });
    await writeKubeconfig(options.kubeconfigPath, {
      clusterName: member.name,
      contextName: member.name,
      userName: `${member.name}-admin`,
      server: member.#server.url,
      caCertPem: options.caCertPem,
      token,
    });
    member.#wake();
    return member;
  }

  /**
   * A member in this process with no server and no timers (the deterministic simulation): reached
   * through {@link client}, its controllers run only in {@link settle}. `token` is its bearer token.
   */
  static async inProcess(options: MemberCoreOptions & { token: string }): Promise<SimulatedMember> {
    const member = new SimulatedMember(options, new MemoryRowStore(), options.token, true);
    await bootstrapMember(member.store, member.config, options.clock.now());
    return member;
  }

  /**
   * A client of an in-process member, as the controllers' HTTPS client would reach it: the member's
   * faults apply. An unreachable member, and a slow one slower than the client waits, fail as a
   * timed-out request does. A slow answer within the client's timeout arrives: the request reaches the
   * member once `wait` has let the caller's clock move to `now() + delayMs` (an in-process request
   * takes no time of its own; without `wait` it arrives at once).
   */
  client(
    conn: MemberConnection,
    now: () => number,
    timing: { wait?: (until: number) => Promise<void> } = {},
  ): MemberClient {
    const timeoutMs = conn.timeoutMs ?? 10_000;
    return new MemberClient(conn, {
      now,
      transport: async (method, path, options) => {
        const fault = this.#fault;
        if (fault?.mode === 'unreachable') throw new MemberUnreachableError(`${this.name}: connection refused`);
        if (fault?.mode === 'slow') {
          const delayMs = fault.delayMs ?? 5_000;
          if (delayMs >= timeoutMs) throw new MemberUnreachableError(`${this.name}: no answer within ${timeoutMs} ms`);
          await timing.wait?.(now() + delayMs);
        }
        const [pathOnly, query = ''] = path.split('?', 2) as [string, string?];
        const response = await this.handle(
          {
            method,
            path: pathOnly,
            query: new URLSearchParams(query),
            headers: {
              accept: options.accept ?? 'application/json',
              ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
              ...(options.body !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}),
            },
            body: Buffer.from(options.body ?? '', 'utf8'),
          },
          { holdSlowAnswers: false },
        );
        return {
          status: response.status,
          body: response.body,
          ...(response.headers['content-type'] ? { contentType: response.headers['content-type'] } : {}),
        };
      },
    });
  }

  /** When the member's controllers next have a timed transition (ms since epoch), if any. */
  get nextDue(): number | undefined {
    return this.#controllers.nextDue;
  }

  get url(): string {
    return this.#server?.url ?? '';
  }

  get token(): string {
    return this.#token;
  }

  get fault(): Fault | undefined {
    return this.#fault;
  }

  /** Makes the member misbehave until {@link recover}. */
  setFault(fault: Fault): void {
    this.#fault = fault;
    if (fault.mode === 'unreachable') this.#server?.dropConnections();
  }

  recover(): void {
    this.#fault = undefined;
  }

  /**
   * Resolves `kind/name` (`deploy/web`, `flinkdeployments.flink.apache.org/job`) in `namespace`
   * against the kinds the member serves; the object itself need not exist.
   */
  async resolveWorkload(target: string, namespace = 'default'): Promise<WorkloadResolution> {
    const parsed = parseWorkloadTarget(target);
    if (!parsed.ok) return { code: 'Malformed', reason: parsed.reason };
    const kind = resolveWorkloadKind((await this.#catalog.catalog()).defs, parsed.value.kind);
    if (kind.code !== 'Resolved') return kind;
    return {
      code: 'Resolved',
      ref: {
        group: kind.group,
        kind: kind.kind,
        namespace: kind.namespaced ? namespace : '',
        name: parsed.value.name,
      },
    };
  }

  /** The workloads marked unhealthy, sorted. */
  get unhealthyWorkloads(): WorkloadRef[] {
    return this.#unhealthy.list();
  }

  /**
   * Marks a workload unhealthy until {@link markHealthy}: its pods crash-loop, or a custom resource
   * reports its kind's failed state. Held by group/kind/namespace/name, so it applies to an object
   * created later and holds through updates and re-creation. False when it already was marked.
   */
  markUnhealthy(ref: WorkloadRef): boolean {
    const changed = this.#unhealthy.mark(ref);
    // The controllers act on the next pass, not at the next resync.
    this.#wake();
    return changed;
  }

  /** Clears the mark of {@link markUnhealthy}; false when there was none. */
  markHealthy(ref: WorkloadRef): boolean {
    const changed = this.#unhealthy.unmark(ref);
    this.#wake();
    return changed;
  }

  /** Runs the cluster controllers until nothing is left to do (tests). */
  async settle(): Promise<void> {
    this.#dirty = true;
    await this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopListening();
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
    await this.#server?.close();
    if (this.#options.snapshotPath) {
      const snapshot: Snapshot = {
        version: 1,
        token: this.#token,
        rows: this.#rows.exportRows(),
        ...(this.#unhealthy.size > 0 ? { unhealthy: this.#unhealthy.list() } : {}),
      };
      writeFileSync(`${this.#options.snapshotPath}.tmp`, JSON.stringify(snapshot), { mode: 0o600 });
      renameSync(`${this.#options.snapshotPath}.tmp`, this.#options.snapshotPath);
    }
  }

  /** Serves one request of the member's API (faults applied), as its server does. */
  async handle(req: KubeRequest, options: { holdSlowAnswers?: boolean } = {}): Promise<KubeResponse> {
    const fault = this.#fault;
    if (fault?.mode === 'errors') {
      const err = new ApiError(
        500,
        'InternalError',
        `Internal error occurred: simulated failure of member ${this.name}`,
      );
      return jsonResponse(500, err.toStatus());
    }
    if (fault?.mode === 'slow' && options.holdSlowAnswers !== false)
      await new Promise((r) => setTimeout(r, fault.delayMs ?? 5_000));
    if (fault?.mode === 'not-ready' && /^\/(readyz|healthz|livez)\/?$/.test(req.path)) {
      return {
        status: 500,
        headers: { 'content-type': 'text/plain' },
        body: '[-]etcd failed: reason withheld\nreadyz check failed\n',
      };
    }
    const log = POD_LOG_PATH.exec(req.path);
    if (log && (req.method === 'GET' || req.method === 'HEAD')) return this.#podLog(req, log[1]!, log[2]!);
    return this.#handler.handle(req);
  }

  /**
   * `GET .../pods/<name>/log`: a simulated pod has no process, so its log is one fixed line naming
   * the pod, its container and this member (what `kubectl logs` through a proxy needs to show).
   */
  async #podLog(req: KubeRequest, namespace: string, name: string): Promise<KubeResponse> {
    const token = bearerToken(req.headers.authorization);
    const given = Buffer.from(token ?? '');
    const expected = Buffer.from(this.#token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return jsonResponse(401, apiErrors.unauthorized().toStatus());
    }
    const pod = await this.store.get({
      group: '',
      kind: 'Pod',
      namespace: decodeURIComponent(namespace),
      name: decodeURIComponent(name),
    });
    if (!pod) return jsonResponse(404, apiErrors.notFound('pods', '', decodeURIComponent(name)).toStatus());
    const containers = ((pod.spec as { containers?: { name?: string }[] } | undefined)?.containers ?? []).map(
      (c) => c.name ?? '',
    );
    const container = req.query.get('container') ?? containers[0] ?? '';
    if (!containers.includes(container)) {
      return jsonResponse(
        400,
        apiErrors.badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`).toStatus(),
      );
    }
    return {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: `simulated log: pod ${pod.metadata.namespace}/${pod.metadata.name} container ${container} running on member ${this.name}\n`,
    };
  }

  /** Schedules a controller pass soon (changes arrive in bursts: coalesce them). */
  #wake(delayMs = 20): void {
    this.#dirty = true;
    if (this.#stopped || this.#manual) return;
    const at = Date.now() + delayMs;
    // An earlier wake-up replaces a later one (a change arriving while the resync timer waits).
    if (this.#timer) {
      if (this.#timerAt <= at) return;
      clearTimeout(this.#timer);
    }
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#run();
    }, delayMs);
  }

  /** Runs passes while something changed, then arms a timer for the next timed transition. */
  #run(): Promise<void> {
    // `finally` runs in a later microtask, after the assignment, even when there is nothing to do.
    this.#running ??= this.#passes().finally(() => {
      this.#running = undefined;
      const due = this.#controllers.nextDue;
      if (this.#stopped || this.#manual) return;
      if (this.#dirty || due !== undefined) {
        this.#wake(this.#dirty ? 200 : Math.max(10, (due ?? 0) - this.#options.clock.now()));
      } else {
        // A resync, as controllers' informers do: picks up what no change announced (a CRD the
        // cached catalog did not know yet, a write made straight to the store).
        this.#wake(RESYNC_MS);
      }
    });
    return this.#running;
  }

  async #passes(): Promise<void> {
    try {
      for (let pass = 0; this.#dirty && pass < 20 && !this.#stopped; pass++) {
        this.#dirty = false;
        await this.#controllers.tick();
        await this.#terminateNamespaces();
        this.#quotas = this.#controllers.hasQuotas;
        if (this.#options.clock.now() - this.#purgedAt > 60_000) {
          this.#purgedAt = this.#options.clock.now();
          for (const object of await this.#objects.purgeExpired({ group: '', kind: 'Event' }))
            this.#changes.publish({ type: 'DELETED', object, version: Number(object.metadata.resourceVersion) + 1 });
        }
      }
    } catch (err) {
      this.#options.logger?.error('simulated cluster controllers failed; retrying', {
        cluster: this.name,
        error: err as Error,
      });
      this.#dirty = true;
    }
  }

  async #terminateNamespaces(): Promise<void> {
    const page = await this.store.list({ group: '', kind: 'Namespace' });
    for (const ns of page.items.filter((n) => n.metadata.deletionTimestamp)) {
      const log = this.#options.logger;
      await this.#namespaces.reconcile(
        { key: `Namespace/${ns.metadata.name}`, lane: 'priority', reasons: [] },
        {
          logger: log ?? (silentLogger as unknown as Logger),
          reconcileId: 'sim',
          now: this.#options.clock.now(),
        },
      );
    }
  }
}

const silentLogger = { info() {}, debug() {}, warn() {}, error() {}, appendKeys() {} };
