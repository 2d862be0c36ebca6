/**
 * One simulated world: the whole control plane — the API's request path, every controller's real
 * handler with its SQS queues (batches, visibility, partial failures, redrive to a DLQ), the
 * resync and sweep schedules — and in-process member clusters, all on one virtual clock in one
 * thread. Nothing here reads the wall clock or an unseeded random source; for a seed, every run is
 * the same run.
 */
import type { KubeObject, ObjectRef } from '../../lib/api/object.ts';
import { VirtualClock } from '../../lib/clock/clock.ts';
import type { RuntimeConfig } from '../../lib/config/runtime.ts';
import { CONTROLLER_SPECS, visibilityTimeoutSeconds } from '../../lib/controllers/specs.ts';
import { LocalKeyCipher } from '../../lib/crypto/local-key.ts';
import { createControlPlaneApi, ensureDefaultNamespaces, issueAdminToken } from '../../lib/apiserver/server.ts';
import type { KubeRequest } from '../../lib/kube/base/http.ts';
import type { MemberClient, MemberConnection } from '../../lib/members/client.ts';
import { forgetMemberConnections } from '../../lib/members/connections.ts';
import { forgetRecentEvents } from '../../lib/events/recorder.ts';
import { joinPushCluster } from '../../lib/members/join.ts';
import { EventSourceRunner, type EventSourceSpec } from '../../lib/queue/event-source.ts';
import { MemoryQueueTransport } from '../../lib/queue/memory-transport.ts';
import { encodeMessage } from '../../lib/queue/messages.ts';
import { deadLetterQueueName, queueName } from '../../lib/queue/naming.ts';
import { LANES, type Lane } from '../../lib/queue/port.ts';
import { TransportWorkQueue } from '../../lib/queue/work-queue.ts';
import { RESYNC_ALL, RESYNC_CONTROLLER } from '../../lib/reconcile/resync.ts';
import { parseSimulation } from '../../lib/sim/config.ts';
import { SimulatedMember } from '../../lib/sim/member.ts';
import { MemoryRowStore } from '../../lib/store/memory-rows.ts';
import type { ObjectStore } from '../../lib/store/port.ts';
import { RowObjectStore } from '../../lib/store/row-object-store.ts';
import { eventTtl } from '../../lib/store/ttl.ts';
import { parseSchedule } from '../../lib/timer/expression.ts';
import { CONTROLLER_FACTORIES } from '../../lib/wiring/all-factories.ts';
import type { Runtime } from '../../lib/wiring/runtime.ts';
import { controllerHandler } from '../../lib/wiring/wire.ts';
import { CrashingStore, FaultTransport, type FaultCounters, breakGuard, type GuardBreak } from './faults.ts';
import type { Rng } from './rng.ts';
import { delegatingStore } from './delegating-store.ts';
import { capacityAware, checkPlacementFits, cpuRequestOf } from './invariants.ts';
import { VersionWatch } from './versions.ts';

const PREFIX = 'sim';
export const SIM_START = Date.UTC(2026, 0, 5, 9, 0, 0);
/** The resync schedule of every environment (EventBridge → the resync queue). */
const RESYNC_EVERY_MS = 5 * 60_000;

/** The settings the simulated control plane runs with: Karmada's, with failover windows shortened. */
export const SIM_CONFIG: RuntimeConfig = {
  region: 'us-east-1',
  environment: 'sim',
  tableName: 'sim',
  queuePrefix: PREFIX,
  queueUrlBase: 'https://sqs.sim.invalid/',
  reconcileConcurrency: 4,
  metrics: 'off',
  eventTtlSeconds: 3600,
  clusterTimings: { statusUpdateFrequencyMs: 10_000 },
  schedulerReservationTtlSeconds: 60,
  failover: {
    failoverEvictionTimeoutMs: 60_000,
    defaultNotReadyTolerationSeconds: 60,
    defaultUnreachableTolerationSeconds: 60,
    gracefulEvictionTimeoutMs: 180_000,
  },
  logFormat: 'text',
  logLevel: 'SILENT',
};

/** Node size of every simulated member: two nodes of 4 CPUs, so placements compete for room. */
export const SIM_NODE = { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
export const SIM_NODES = 2;

export interface ApiResult {
  status: number;
  body: Record<string, unknown>;
}

export interface WorldOptions {
  rng: Rng;
  members: number;
  /** A guard broken on purpose (the harness's own test). */
  broken?: GuardBreak;
  trace?: (line: string) => void;
  /** Settings over {@link SIM_CONFIG} (a benchmark raising the eviction rate); failover merged key by key. */
  config?: Partial<RuntimeConfig>;
}

export class SimWorld {
  readonly clock = new VirtualClock(SIM_START);
  readonly rows = new MemoryRowStore();
  /** The table as it is: what the invariants read (never faulted). */
  readonly truth: ObjectStore;
  readonly versions: VersionWatch;
  readonly members = new Map<string, SimulatedMember>();
  readonly queues: MemoryQueueTransport;
  readonly transport: FaultTransport;
  readonly crashing: CrashingStore;
  readonly counters: FaultCounters;
  readonly runtime: Runtime;
  readonly config: RuntimeConfig;
  readonly #options: WorldOptions;
  #api!: ReturnType<typeof createControlPlaneApi>;
  #token = '';
  #runner!: EventSourceRunner;
  #clients = new Map<string, MemberClient>();
  readonly #batches: Rng;
  #nextResync = SIM_START + RESYNC_EVERY_MS;
  readonly #schedules: { queue: string; key: string; next: number; every: (after: number) => number }[] = [];
  /** Invocations whose handler threw (crash faults aside, a bug). */
  invocationErrors: { source: string; error: string }[] = [];
  invocations = 0;

  private constructor(options: WorldOptions) {
    this.#options = options;
    this.config = {
      ...SIM_CONFIG,
      ...options.config,
      failover: { ...SIM_CONFIG.failover, ...options.config?.failover },
    };
    const { rng } = options;
    const ids = rng.fork('ids');
    const base = new RowObjectStore(this.rows, {
      clock: this.clock,
      newUid: () => ids.uuid(),
      random: () => ids.float(),
      ttlSeconds: eventTtl(this.config.eventTtlSeconds),
    });
    this.versions = new VersionWatch();
    this.truth = base;
    const watched = this.#watchPlacements(this.versions.wrap(base));
    const guarded = options.broken ? breakGuard(watched, options.broken) : watched;
    this.counters = {
      duplicated: 0,
      delayed: 0,
      lost: 0,
      crashes: 0,
      restarts: 0,
      memberFaults: 0,
      slowAnswers: 0,
      drift: 0,
      clockJumps: 0,
      concurrentWrites: 0,
      conflictsSeen: 0,
      unhealthy: 0,
    };
    this.crashing = new CrashingStore(guarded, rng.fork('crash'), this.counters);
    this.#batches = rng.fork('batches');
    this.queues = new MemoryQueueTransport(this.clock);
    this.transport = new FaultTransport(this.queues, rng.fork('messages'), this.counters);
    const queueUrl = (controller: string, lane: Lane) => queueName(PREFIX, controller, lane);
    const key = new Uint8Array(32);
    for (let i = 0; i < key.length; i++) key[i] = rng.int(0, 255);
    this.runtime = {
      config: this.config,
      clock: this.clock,
      store: this.crashing,
      rows: this.rows,
      cipher: new LocalKeyCipher(key),
      transport: this.transport,
      workQueue: new TransportWorkQueue(this.transport, queueUrl, this.clock),
      queueUrl,
      memberClient: (conn) => this.#memberClient(conn),
      close() {},
    };
    for (const spec of CONTROLLER_SPECS) {
      const dlq = deadLetterQueueName(PREFIX, spec.name);
      this.queues.createQueue(dlq, { visibilityTimeoutSeconds: visibilityTimeoutSeconds(spec) });
      for (const lane of LANES) {
        this.queues.createQueue(queueUrl(spec.name, lane), {
          visibilityTimeoutSeconds: visibilityTimeoutSeconds(spec),
          redrive: { deadLetterQueue: dlq, maxReceiveCount: spec.maxReceiveCount },
        });
      }
      for (const schedule of spec.schedules ?? []) {
        const parsed = parseSchedule(schedule.expression, SIM_START);
        this.#schedules.push({
          queue: queueUrl(spec.name, 'standard'),
          key: schedule.key,
          next: parsed.next(SIM_START) ?? Number.POSITIVE_INFINITY,
          every: (after) => parsed.next(after) ?? Number.POSITIVE_INFINITY,
        });
      }
    }
  }

  /** Over-commits seen when placements were written (the no-over-commit invariant). */
  readonly overCommits: string[] = [];
  /**
   * Every binding's placement as it was decided: per cluster, the replicas and the per-replica CPUs
   * they were given with. A binding whose requests grow keeps its placement (no decision is made, in
   * Karmada as here), so the room it was judged to take stays what it was when it was placed.
   */
  readonly placements = new Map<
    string,
    { capacityAware: boolean; clusters: Map<string, { replicas: number; cpu: number }> }
  >();

  /** Checks every write that gives a binding's placement more replicas against the clusters' room. */
  #watchPlacements(inner: ObjectStore): ObjectStore {
    const after = async (o: KubeObject): Promise<KubeObject> => {
      if (o.kind !== 'ResourceBinding') return o;
      const key = `${o.metadata.namespace}/${o.metadata.name}/${o.metadata.uid}`;
      const spec = o.spec as {
        clusters?: { name: string; replicas?: number }[];
        replicaRequirements?: { resourceRequest?: Record<string, string> };
      };
      const cpu = cpuRequestOf(spec.replicaRequirements?.resourceRequest);
      const before = this.placements.get(key)?.clusters ?? new Map<string, { replicas: number; cpu: number }>();
      const now = new Map<string, { replicas: number; cpu: number }>();
      const grown: string[] = [];
      for (const c of spec.clusters ?? []) {
        const replicas = c.replicas ?? 0;
        const previous = before.get(c.name);
        if (!previous || replicas > previous.replicas) {
          now.set(c.name, { replicas, cpu });
          grown.push(c.name);
        } else {
          now.set(c.name, { replicas, cpu: previous.cpu });
        }
      }
      this.placements.set(key, { capacityAware: capacityAware(o), clusters: now });
      // Only clusters given more than they had: a placement kept as it was (scale-stable) is not a
      // new decision, and its pods are already in the summary the estimate reads.
      if (grown.length === 0 || !capacityAware(o)) return o;
      for (const message of await checkPlacementFits(this, o, grown)) {
        if (this.overCommits.length < 20) this.overCommits.push(message);
      }
      return o;
    };
    return delegatingStore(inner, {
      create: async (obj, o) => after(await inner.create(obj, o)),
      update: async (obj, o) => after(await inner.update(obj, o)),
      updateWithStatus: async (obj, o) => after(await inner.updateWithStatus(obj, o)),
    });
  }

  /** A world with its members joined through the API and every cluster Ready. */
  static async create(options: WorldOptions): Promise<SimWorld> {
    const world = new SimWorld(options);
    await world.#boot();
    return world;
  }

  trace(line: string): void {
    this.#options.trace?.(`${new Date(this.clock.now()).toISOString().slice(11, 19)} ${line}`);
  }

  async #boot(): Promise<void> {
    const { rng } = this.#options;
    await ensureDefaultNamespaces(this.truth);
    this.#token = (await issueAdminToken(this.truth, 'simulation')).token;
    this.#startControlPlane();
    const simulation = parseSimulation({
      podStartupMs: 3_000,
      jobDurationMs: 10_000,
      members: Array.from({ length: this.#options.members }, (_, i) => ({
        name: `member${i + 1}`,
        region: 'us-east-1',
        zones: [`us-east-1${String.fromCharCode(97 + i)}`],
        nodes: SIM_NODES,
        node: SIM_NODE,
      })),
    });
    const tokens = rng.fork('member-tokens');
    for (const config of simulation.members) {
      const member = await SimulatedMember.inProcess({
        config,
        timings: { podStartupMs: simulation.podStartupMs, jobDurationMs: simulation.jobDurationMs },
        clock: this.clock,
        token: tokens.uuid(),
      });
      this.members.set(config.name, member);
    }
    for (const member of this.members.values()) {
      await joinPushCluster(this.#controlPlaneClient(), {
        name: member.name,
        member: { server: `https://${member.name}.sim.invalid`, token: member.token },
        provider: member.config.provider,
        region: member.config.region,
        zones: member.config.zones,
        connect: (conn) => this.#memberClient(conn),
      });
    }
    await this.run(60_000);
  }

  /** API, handlers and their caches: what a cold start (or a redeploy) builds anew. */
  #startControlPlane(): void {
    this.#api = createControlPlaneApi({
      store: this.crashing.passThrough,
      workQueue: this.runtime.workQueue,
      clock: this.clock,
      cipher: this.runtime.cipher,
      failover: this.config.failover!,
    });
    const sources: EventSourceSpec[] = LANES.flatMap((lane) =>
      CONTROLLER_SPECS.map((spec) => {
        const factory = CONTROLLER_FACTORIES[spec.name]!;
        const queue = this.runtime.queueUrl(spec.name, lane);
        return {
          name: `${spec.name}/${lane}`,
          functionName: `${PREFIX}-${spec.name}`,
          queue,
          queueArn: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
          batchSize: Math.min(spec.lanes[lane].batchSize, 10),
          maximumBatchingWindowSeconds: 0,
          maxConcurrency: Math.min(spec.lanes[lane].maxConcurrency, 2),
          visibilityTimeoutSeconds: visibilityTimeoutSeconds(spec),
          timeoutSeconds: spec.timeoutSeconds,
          createHandler: () =>
            controllerHandler(spec.name, factory, this.runtime, { logWrite: () => {}, metricsSink: () => {} }),
        };
      }),
    );
    this.#runner = new EventSourceRunner({
      transport: this.transport,
      clock: this.clock,
      sources,
      onInvocation: (report) => {
        this.invocations++;
        if (report.error !== undefined) {
          this.invocationErrors.push({
            source: report.source,
            error: String((report.error as Error).stack ?? report.error),
          });
        }
      },
    });
  }

  /**
   * A control-plane restart: every function's execution environment, the API's caches and the
   * member clients are dropped; what is in the table and the queues stays, as in AWS.
   */
  restart(): void {
    this.counters.restarts++;
    forgetMemberConnections();
    forgetRecentEvents();
    this.#clients.clear();
    this.#startControlPlane();
  }

  #memberClient(conn: MemberConnection): MemberClient {
    const host = new URL(conn.server).hostname;
    const name = host.split('.')[0]!;
    const member = this.members.get(name);
    if (!member) throw new Error(`no simulated member at ${conn.server}`);
    const key = `${name}|${conn.token ?? ''}`;
    let client = this.#clients.get(key);
    if (!client) {
      client = member.client(conn, () => this.clock.now(), {
        // A slow answer that arrives: the control plane's time moves on to it (concurrent requests
        // that started together overlap; a handler's requests one after another add up).
        wait: async (until) => {
          this.counters.slowAnswers++;
          await this.clock.advanceTo(Math.max(until, this.clock.now()));
        },
      });
      this.#clients.set(key, client);
    }
    return client;
  }

  #controlPlaneClient() {
    return {
      send: async (method: string, path: string, body?: unknown, options: { contentType?: string } = {}) => {
        const result = await this.api(method, path, body, options.contentType);
        if (result.status >= 400) {
          throw Object.assign(new Error(String(result.body['message'] ?? result.status)), { code: result.status });
        }
        return result.body;
      },
    };
  }

  /** One request to the control plane's API as the admin, through the same path kubectl's take. */
  async api(method: string, pathAndQuery: string, body?: unknown, contentType?: string): Promise<ApiResult> {
    const [path, query = ''] = pathAndQuery.split('?', 2) as [string, string?];
    const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const req: KubeRequest = {
      method,
      path,
      query: new URLSearchParams(query),
      headers: {
        authorization: `Bearer ${this.#token}`,
        accept: 'application/json',
        ...(payload ? { 'content-type': contentType ?? 'application/json' } : {}),
      },
      body: Buffer.from(payload, 'utf8'),
    };
    const res = await this.#api.handler.handle(req);
    let parsed: Record<string, unknown>;
    try {
      parsed = res.body ? (JSON.parse(res.body) as Record<string, unknown>) : {};
    } catch {
      parsed = { raw: res.body };
    }
    return { status: res.status, body: parsed };
  }

  /** Reads the table directly (invariants). */
  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.truth.get(ref);
  }

  async list(group: string, kind: string, namespace?: string): Promise<KubeObject[]> {
    const out: KubeObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.truth.list({
        group,
        kind,
        ...(namespace ? { namespace } : {}),
        limit: 500,
        ...(token ? { continue: token } : {}),
      });
      out.push(...page.items);
      token = page.continue;
    } while (token);
    return out;
  }

  /** Delivers every visible message and lets the members' controllers act, until nothing moves. */
  async deliver(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      // Pollers take what SQS hands them — any number up to the batch size — so keys that arrived
      // together are often decided by invocations running side by side.
      const delivered = await this.#runner.runUntilIdle(10_000, {
        concurrent: true,
        batchLimit: (spec) => this.#batches.int(1, spec.batchSize),
      });
      for (const member of this.members.values()) await member.settle();
      if (delivered === 0) return;
    }
    throw new Error('the control plane did not come to rest after 200 rounds of deliveries');
  }

  /** When the next thing is due: a hidden message, a member's timed transition, a schedule. */
  #nextDue(): number {
    let next = this.#nextResync;
    for (const s of this.#schedules) next = Math.min(next, s.next);
    const visible = this.queues.nextVisibleAt();
    if (visible !== undefined) next = Math.min(next, visible);
    for (const m of this.members.values()) {
      const due = m.nextDue;
      if (due !== undefined && due > this.clock.now()) next = Math.min(next, due);
    }
    return next;
  }

  async #fireSchedules(): Promise<void> {
    const now = this.clock.now();
    if (now >= this.#nextResync) {
      this.#nextResync = now + RESYNC_EVERY_MS;
      const message = encodeMessage({ key: RESYNC_ALL, lane: 'standard', reason: 'schedule' }, now);
      // EventBridge's delivery is not subject to the simulated SQS faults of our own sends.
      await this.queues.send(this.runtime.queueUrl(RESYNC_CONTROLLER, 'standard'), [{ body: message.body }]);
    }
    for (const s of this.#schedules) {
      if (now < s.next) continue;
      s.next = s.every(now);
      const message = encodeMessage({ key: s.key, lane: 'standard', reason: 'schedule' }, now);
      await this.queues.send(s.queue, [{ body: message.body }]);
    }
  }

  /** Runs `ms` of virtual time, handling everything due on the way in time order. */
  async run(ms: number): Promise<void> {
    const until = this.clock.now() + ms;
    await this.deliver();
    for (;;) {
      const next = this.#nextDue();
      if (next > until) break;
      await this.clock.advanceTo(Math.max(next, this.clock.now()));
      await this.#fireSchedules();
      await this.deliver();
    }
    await this.clock.advanceTo(until);
    await this.#fireSchedules();
    await this.deliver();
  }

  /** A clock jump: time moves at once (a frozen function, a paused host); what fell due runs late. */
  async jump(ms: number): Promise<void> {
    this.counters.clockJumps++;
    await this.clock.advance(ms);
    await this.#fireSchedules();
    await this.deliver();
  }

  /** Messages in every dead-letter queue, by queue. */
  deadLetters(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const spec of CONTROLLER_SPECS) {
      const name = deadLetterQueueName(PREFIX, spec.name);
      const depth = this.queues.depth(name);
      if (depth > 0) out[name] = depth;
    }
    return out;
  }

  /** Messages waiting in the controllers' queues (visible, delayed or in flight). */
  backlog(): number {
    let n = 0;
    for (const spec of CONTROLLER_SPECS)
      for (const lane of LANES) n += this.queues.depth(this.runtime.queueUrl(spec.name, lane));
    return n;
  }
}
