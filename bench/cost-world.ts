/**
 * A metered control plane for the cost bench: the API's Lambda handler and every controller's real
 * Lambda handler over the in-memory table and queues, with in-process simulated members, on a virtual
 * clock — as the deterministic simulation runs them (test/sim/world.ts), without faults, with
 * production settings (infra/config's prod environment), and with every port wrapped by a counter:
 * DynamoDB requests and request units (items sized as DynamoDB sizes them, indexes included), SQS
 * requests, member requests, KMS calls, Lambda invocations with their CPU time, log and EMF bytes.
 * The wrappers sit outside the code they measure, so a change to the controllers or the store shows
 * up in the counts when the bench is re-run.
 */
import type { APIGatewayProxyEventV2, Context, SQSEvent } from 'aws-lambda';
import { ENVIRONMENTS } from '../infra/config/environments.ts';
import { createApiHandler } from '../lib/apiserver/lambda.ts';
import { ensureDefaultNamespaces, issueAdminToken } from '../lib/apiserver/server.ts';
import { VirtualClock } from '../lib/clock/clock.ts';
import { failoverSettingsFromFlags } from '../lib/config/failover.ts';
import { clusterTimingsFromFlags, type RuntimeConfig } from '../lib/config/runtime.ts';
import { scheduleExpression } from '../lib/config/schedule-periods.ts';
import { CONTROLLER_SPECS, visibilityTimeoutSeconds } from '../lib/controllers/specs.ts';
import { LocalKeyCipher } from '../lib/crypto/local-key.ts';
import type { MemberClient, MemberConnection } from '../lib/members/client.ts';
import { forgetMemberConnections } from '../lib/members/connections.ts';
import { joinPushCluster } from '../lib/members/join.ts';
import type { EmfDocument } from '../lib/observability/metrics.ts';
import { EventSourceRunner, type EventSourceSpec } from '../lib/queue/event-source.ts';
import { MemoryQueueTransport } from '../lib/queue/memory-transport.ts';
import { encodeMessage } from '../lib/queue/messages.ts';
import { deadLetterQueueName, queueName } from '../lib/queue/naming.ts';
import { LANES, type Lane } from '../lib/queue/port.ts';
import { TransportWorkQueue } from '../lib/queue/work-queue.ts';
import { RESYNC_ALL, RESYNC_CONTROLLER } from '../lib/reconcile/resync.ts';
import { parseSimulation } from '../lib/sim/config.ts';
import { SimulatedMember } from '../lib/sim/member.ts';
import { MemoryRowStore } from '../lib/store/memory-rows.ts';
import { RowObjectStore } from '../lib/store/row-object-store.ts';
import { eventTtl } from '../lib/store/ttl.ts';
import { parseSchedule } from '../lib/timer/expression.ts';
import { CONTROLLER_FACTORIES } from '../lib/wiring/all-factories.ts';
import type { Runtime } from '../lib/wiring/runtime.ts';
import { controllerHandler, observabilityFor } from '../lib/wiring/wire.ts';
import {
  API_ACCESS_LOG_BYTES,
  gbSeconds,
  invocationMs,
  IO_LATENCY_MS,
  LAMBDA_PLATFORM_LOG_BYTES,
  LOG_EVENT_OVERHEAD_BYTES,
  MEMBER_REQUEST_OVERHEAD_BYTES,
} from './cost-model.ts';
import { IoClock, Meter, MeteredRows, MeteredTransport, meteredCipher } from './cost-meter.ts';

/** The environment whose settings the functions run with. */
export const ENV = ENVIRONMENTS.prod!;
/** SK_RECONCILE_CONCURRENCY as infra/constructs/service-function.ts sets it for every function. */
export const RECONCILE_CONCURRENCY = 8;
/** The api function's memory (infra/constructs/control-plane-api.ts). */
export const API_MEMORY_MB = 1024;
const START = Date.UTC(2026, 0, 5, 9, 0, 0);
/** Headers and framing of an API answer (estimated). */
const API_RESPONSE_HEADER_BYTES = 300;
const ACCOUNT_QUEUE_BASE = 'https://sqs.us-east-1.amazonaws.com/000000000000/';

export const CONFIG: RuntimeConfig = {
  region: 'us-east-1',
  environment: ENV.name,
  tableName: `${ENV.prefix}-objects`,
  queuePrefix: ENV.prefix,
  queueUrlBase: ACCOUNT_QUEUE_BASE,
  reconcileConcurrency: RECONCILE_CONCURRENCY,
  metrics: 'emf',
  eventTtlSeconds: ENV.eventTtlSeconds,
  ...(ENV.clusterFlags ? { clusterTimings: clusterTimingsFromFlags(ENV.clusterFlags) } : {}),
  ...(ENV.failoverFlags ? { failover: failoverSettingsFromFlags(ENV.failoverFlags as Record<string, string>) } : {}),
  logFormat: 'json',
  logLevel: ENV.logLevel,
};

interface ScheduleState {
  name: string;
  queue: string;
  key: string;
  next: number;
  every: (after: number) => number;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Member node size: room for every workload the bench creates. */
const NODE = { cpu: '64', memory: '256Gi', pods: '1000', 'ephemeral-storage': '100Gi' };

export class CostWorld {
  readonly clock = new VirtualClock(START);
  readonly meter = new Meter();
  readonly rows: MeteredRows;
  readonly queues: MemoryQueueTransport;
  readonly runtime: Runtime;
  readonly members = new Map<string, SimulatedMember>();
  /** Schedules that fire (all by default); the change windows leave out the slow ones. */
  scheduleFilter: (name: string) => boolean = () => true;
  readonly schedules: ScheduleState[] = [];
  #api!: (event: APIGatewayProxyEventV2, context: Context) => Promise<{ statusCode?: number; body?: string }>;
  #runner!: EventSourceRunner;
  #token = '';
  #requests = 0;
  readonly #clients = new Map<string, MemberClient>();

  private constructor() {
    const meter = this.meter;
    const memory = new MemoryRowStore();
    this.rows = new MeteredRows(memory, meter);
    const owners = new Map<string, string>();
    for (const spec of CONTROLLER_SPECS)
      for (const lane of LANES) owners.set(queueName(ENV.prefix, spec.name, lane), spec.name);
    this.queues = new MemoryQueueTransport(this.clock);
    const transport = new MeteredTransport(this.queues, meter, (q) => owners.get(q) ?? q);
    const queueUrl = (controller: string, lane: Lane) => queueName(ENV.prefix, controller, lane);
    let uid = 0;
    this.runtime = {
      config: CONFIG,
      clock: this.clock,
      store: new RowObjectStore(this.rows, {
        clock: this.clock,
        newUid: () => `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`,
        ttlSeconds: eventTtl(CONFIG.eventTtlSeconds),
      }),
      rows: this.rows,
      cipher: meteredCipher(new LocalKeyCipher(new Uint8Array(32).fill(7)), meter),
      transport,
      workQueue: new TransportWorkQueue(transport, queueUrl, this.clock),
      queueUrl,
      memberClient: (conn) => this.#memberClient(conn),
      close() {},
    };
    // As infra/constructs/controller-queues.ts lays them out: both lanes redrive to one DLQ.
    for (const spec of CONTROLLER_SPECS) {
      const dlq = deadLetterQueueName(ENV.prefix, spec.name);
      this.queues.createQueue(dlq, { visibilityTimeoutSeconds: visibilityTimeoutSeconds(spec) });
      for (const lane of LANES) {
        this.queues.createQueue(queueUrl(spec.name, lane), {
          visibilityTimeoutSeconds: visibilityTimeoutSeconds(spec),
          redrive: { deadLetterQueue: dlq, maxReceiveCount: spec.maxReceiveCount },
        });
      }
    }
    // EventBridge Scheduler, as infra/stacks/stateless-stack.ts creates it for this environment.
    const schedule = (scheduleName: string, expression: string, queue: string, key: string) => {
      const parsed = parseSchedule(expression, START);
      this.schedules.push({
        name: scheduleName,
        queue,
        key,
        next: parsed.next(START) ?? Number.POSITIVE_INFINITY,
        every: (after) => parsed.next(after) ?? Number.POSITIVE_INFINITY,
      });
    };
    schedule('resync', ENV.resyncSchedule, queueUrl(RESYNC_CONTROLLER, 'standard'), RESYNC_ALL);
    for (const spec of CONTROLLER_SPECS)
      for (const s of spec.schedules ?? [])
        schedule(s.name, scheduleExpression(s, ENV.schedulePeriods), queueUrl(spec.name, 'standard'), s.key);
  }

  /** A control plane with `members` joined through the API and Ready. */
  static async create(members: number): Promise<CostWorld> {
    forgetMemberConnections();
    const world = new CostWorld();
    await world.#boot(members);
    return world;
  }

  async #boot(count: number): Promise<void> {
    const store = this.runtime.store;
    await ensureDefaultNamespaces(store);
    this.#token = (await issueAdminToken(store, 'cost bench')).token;
    this.#startFunctions();
    const simulation = parseSimulation({
      podStartupMs: 3_000,
      jobDurationMs: 10_000,
      members: Array.from({ length: count }, (_, i) => ({
        name: `member${i + 1}`,
        region: 'us-east-1',
        zones: [`us-east-1${String.fromCharCode(97 + (i % 6))}`],
        nodes: 1,
        node: NODE,
      })),
    });
    for (const config of simulation.members) {
      const member = await SimulatedMember.inProcess({
        config,
        timings: { podStartupMs: simulation.podStartupMs, jobDurationMs: simulation.jobDurationMs },
        clock: this.clock,
        token: `token-${config.name}`,
      });
      this.members.set(config.name, member);
    }
    const client = {
      send: async (method: string, path: string, body?: unknown, options: { contentType?: string } = {}) => {
        const answer = await this.api(method, path, body, options.contentType);
        if (answer.status >= 400) {
          throw Object.assign(new Error(String(answer.body['message'] ?? answer.status)), { code: answer.status });
        }
        return answer.body;
      },
    };
    for (const member of this.members.values()) {
      await joinPushCluster(client, {
        name: member.name,
        member: { server: `https://${member.name}.cost.invalid`, token: member.token },
        provider: member.config.provider,
        region: member.config.region,
        zones: member.config.zones,
        connect: (conn) => this.#memberClient(conn),
      });
    }
    await this.run(60_000);
  }

  /** The api function and one execution environment per controller lane, each metered. */
  #startFunctions(): void {
    const meter = this.meter;
    const observe = {
      logWrite: (line: string) => {
        meter.add('logs.bytes', Buffer.byteLength(line) + LOG_EVENT_OVERHEAD_BYTES);
        meter.add('logs.lines');
      },
      metricsSink: (doc: EmfDocument) => {
        meter.add('logs.bytes', Buffer.byteLength(JSON.stringify(doc)) + LOG_EVENT_OVERHEAD_BYTES);
        meter.add('emf.documents');
        const fields = doc as unknown as Record<string, unknown> & {
          _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
        };
        for (const directive of fields._aws.CloudWatchMetrics) {
          for (const dims of directive.Dimensions) {
            const at = dims.map((d) => `${d}=${String(fields[d])}`).join(',');
            for (const m of directive.Metrics) meter.metricKeys.add(`${m.Name}|${at}`);
          }
        }
      },
    };
    const api = createApiHandler(this.runtime, observabilityFor('api', CONFIG, observe));
    this.#api = (event, context) =>
      this.#invoke('api', API_MEMORY_MB, async () => {
        meter.add('api.requests');
        meter.add('logs.bytes', API_ACCESS_LOG_BYTES);
        return api(event, context);
      });
    const sources: EventSourceSpec[] = LANES.flatMap((lane) =>
      CONTROLLER_SPECS.map((spec) => {
        const factory = CONTROLLER_FACTORIES[spec.name]!;
        const queue = this.runtime.queueUrl(spec.name, lane);
        return {
          name: `${spec.name}/${lane}`,
          functionName: `${ENV.prefix}-${spec.name}`,
          queue,
          queueArn: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
          batchSize: spec.lanes[lane].batchSize,
          maximumBatchingWindowSeconds: spec.lanes[lane].maximumBatchingWindowSeconds,
          maxConcurrency: spec.lanes[lane].maxConcurrency,
          visibilityTimeoutSeconds: visibilityTimeoutSeconds(spec),
          timeoutSeconds: spec.timeoutSeconds,
          createHandler: () => {
            const handler = controllerHandler(spec.name, factory, this.runtime, observe);
            return (event: SQSEvent, context: Context) =>
              this.#invoke(spec.name, spec.memoryMB, () => {
                this.meter.add('lambda.messages', event.Records.length, spec.name);
                this.meter.add('lambda.keys', distinctKeys(event), spec.name);
                return handler(event, context);
              });
          },
        };
      }),
    );
    this.#runner = new EventSourceRunner({ transport: this.runtime.transport, clock: this.clock, sources });
  }

  /**
   * One Lambda invocation, metered: its CPU time (less what in-process members spent answering it),
   * the critical path of its calls' modelled round trips, and the billed duration and GB-seconds they
   * make.
   */
  async #invoke<T>(fn: string, memoryMB: number, run: () => Promise<T>): Promise<T> {
    const meter = this.meter;
    const previous = meter.current;
    const io = new IoClock();
    meter.current = fn;
    meter.io = io;
    meter.memberCpuMs = 0;
    const start = process.cpuUsage();
    let settledAt: number | undefined;
    const outcome = run().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    void outcome.then(() => {
      settledAt = io.now;
    });
    try {
      // Every call's round trip is a sleeper on the I/O clock: let whatever can run run, then wake the
      // earliest sleeper, until the handler has returned.
      for (let idle = 0; settledAt === undefined;) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (settledAt !== undefined) break;
        if (io.wakeNext()) idle = 0;
        else if (++idle > 10_000) throw new Error(`${fn}: the handler waits on something that never comes`);
      }
      const result = await outcome;
      if ('error' in result) throw result.error;
      return result.value;
    } finally {
      const used = process.cpuUsage(start);
      const cpuMs = Math.max(0, (used.user + used.system) / 1000 - meter.memberCpuMs);
      const ioMs = settledAt ?? 0;
      const ms = invocationMs({ cpuMs, ioMs, memoryMB });
      meter.add('lambda.invocations');
      if (fn === 'api') meter.add('lambda.keys');
      meter.add('lambda.cpuMs', cpuMs);
      meter.add('lambda.ioMs', ioMs);
      meter.add('lambda.billedMs', ms);
      meter.add('lambda.gbSeconds', gbSeconds(ms, memoryMB));
      meter.add('member.cpuMs', meter.memberCpuMs);
      meter.add('logs.bytes', LAMBDA_PLATFORM_LOG_BYTES);
      let times = meter.invocationTimes.get(fn);
      if (!times) meter.invocationTimes.set(fn, (times = []));
      times.push(this.clock.now());
      meter.io = undefined;
      meter.current = previous;
    }
  }

  #memberClient(conn: MemberConnection): MemberClient {
    const host = new URL(conn.server).hostname;
    const memberName = host.split('.')[0]!;
    const member = this.members.get(memberName);
    if (!member) throw new Error(`no simulated member at ${conn.server}`);
    const key = `${memberName}|${conn.token ?? ''}`;
    let client = this.#clients.get(key);
    if (client) return client;
    client = member.client(conn, () => this.clock.now());
    const raw = client.raw.bind(client);
    const meter = this.meter;
    client.raw = async (...args: Parameters<MemberClient['raw']>) => {
      const [, path, options] = args;
      meter.add('member.requests');
      meter.add(
        'member.bytesOut',
        MEMBER_REQUEST_OVERHEAD_BYTES + Buffer.byteLength(path) + Buffer.byteLength(options?.body ?? ''),
      );
      await meter.wait(IO_LATENCY_MS.memberRequest);
      if (meter.memberDepth++ === 0) meter.memberMark = process.cpuUsage();
      try {
        const answer = await raw(...args);
        meter.add('member.bytesIn', Buffer.byteLength(answer.body));
        return answer;
      } finally {
        if (--meter.memberDepth === 0) {
          const used = process.cpuUsage(meter.memberMark);
          meter.memberCpuMs += (used.user + used.system) / 1000;
        }
      }
    };
    this.#clients.set(key, client);
    return client;
  }

  /** One request through API Gateway to the api function, as the admin. */
  async api(method: string, pathAndQuery: string, body?: unknown, contentType?: string): Promise<ApiAnswer> {
    const [rawPath, rawQueryString = ''] = pathAndQuery.split('?', 2) as [string, string?];
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const id = `req-${++this.#requests}`;
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath,
      rawQueryString,
      headers: {
        authorization: `Bearer ${this.#token}`,
        accept: 'application/json',
        'user-agent': 'kubectl/v1.31.0 (linux/amd64) kubernetes/0000000',
        ...(payload !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
      },
      requestContext: {
        accountId: '000000000000',
        apiId: 'cost',
        domainName: 'cost.execute-api.us-east-1.amazonaws.com',
        domainPrefix: 'cost',
        http: {
          method,
          path: rawPath,
          protocol: 'HTTP/1.1',
          sourceIp: '192.0.2.10',
          userAgent: 'kubectl/v1.31.0',
        },
        requestId: id,
        routeKey: '$default',
        stage: '$default',
        time: new Date(this.clock.now()).toUTCString(),
        timeEpoch: this.clock.now(),
      },
      ...(payload !== undefined ? { body: payload } : {}),
      isBase64Encoded: false,
    } as APIGatewayProxyEventV2;
    const result = await this.#api(event, lambdaContext(`${ENV.prefix}-api`, id, API_MEMORY_MB));
    // The answer leaves AWS (API Gateway's data transfer out): its body and about as much again in headers.
    this.meter.add('api.bytesOut', Buffer.byteLength(result.body ?? '') + API_RESPONSE_HEADER_BYTES, 'api');
    let parsed: Record<string, unknown>;
    try {
      parsed = result.body ? (JSON.parse(result.body) as Record<string, unknown>) : {};
    } catch {
      parsed = { raw: result.body };
    }
    return { status: result.statusCode ?? 0, body: parsed };
  }

  /** Delivers every visible message, one invocation at a time, and lets members act, until nothing moves. */
  async deliver(): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const delivered = await this.#runner.runUntilIdle(10_000);
      for (const member of this.members.values()) await member.settle();
      if (delivered === 0) return;
    }
    throw new Error('the control plane did not come to rest after 500 rounds of deliveries');
  }

  #nextDue(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const s of this.schedules) if (this.scheduleFilter(s.name)) next = Math.min(next, s.next);
    const visible = this.queues.nextVisibleAt();
    if (visible !== undefined) next = Math.min(next, visible);
    for (const m of this.members.values()) {
      const due = m.nextDue;
      if (due !== undefined && due > this.clock.now()) next = Math.min(next, due);
    }
    return next;
  }

  /** EventBridge Scheduler: each due schedule sends its key to its queue (an invocation and a SendMessage). */
  async #fireSchedules(): Promise<void> {
    const now = this.clock.now();
    const previous = this.meter.current;
    this.meter.current = 'eventbridge';
    try {
      for (const s of this.schedules) {
        if (now < s.next) continue;
        const due = this.scheduleFilter(s.name);
        s.next = s.every(now);
        if (!due) continue;
        this.meter.add('scheduler.invocations');
        this.meter.add('scheduler.runs', 1, s.name);
        const message = encodeMessage({ key: s.key, lane: 'standard', reason: 'schedule' }, now);
        await this.runtime.transport.send(s.queue, [{ body: message.body }]);
      }
    } finally {
      this.meter.current = previous;
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

  /** Runs until the clock is at a multiple of `periodMs` since the start (so measured windows line up). */
  async align(periodMs: number): Promise<void> {
    const into = (this.clock.now() - START) % periodMs;
    if (into !== 0) await this.run(periodMs - into);
  }

  /** Table bytes (items and index entries). */
  storedBytes(): number {
    return this.rows.storedBytes();
  }
}

/** Keys of an SQS batch (messages for the same key are folded into one reconcile). */
function distinctKeys(event: SQSEvent): number {
  const keys = new Set<string>();
  for (const r of event.Records) {
    try {
      keys.add(String((JSON.parse(r.body) as { key?: unknown }).key));
    } catch {
      keys.add(r.messageId);
    }
  }
  return keys.size;
}

function lambdaContext(functionName: string, requestId: string, memoryMB: number): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMB),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'cost',
    getRemainingTimeInMillis: () => 29_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
