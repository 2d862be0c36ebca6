/**
 * The local control plane (`skctl up`): the production code paths against local endpoints, in one
 * process — dynalite for DynamoDB, fauxqs for SQS, the Lambda event-source runner driving every
 * controller's real handler, and an EventBridge-style timer for the schedules. Data lives under the
 * data directory (`.skctl/` by default) and survives restarts, queued messages included.
 */
import { SearchCache } from '../search/cache-store.ts';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ensureAdminKubeconfig } from '../apiserver/bootstrap.ts';
import { refreshClusterInfo } from '../apiserver/cluster-info.ts';
import { MemberClient } from '../members/client.ts';
import { joinPushCluster } from '../members/join.ts';
import { createControlPlaneApi, ensureDefaultNamespaces } from '../apiserver/server.ts';
import { startKubeServer, type RunningKubeServer } from '../kube/node-server.ts';
import { ChangeFeed, WatchingStore } from '../store/watch.ts';
import type { SimulationConfig } from '../sim/config.ts';
import { startControlServer } from '../sim/control.ts';
import { type RunningMember, SimulatedMember } from '../sim/member.ts';
import { MemberThread } from '../sim/member-thread.ts';
import type { WorkerMemberOptions } from '../sim/member-wire.ts';
import { ensureLocalPki, tlsServerOptions, writeKubeconfigText } from '../pki/index.ts';
import { createDynamoClient } from '../adapters/dynamodb/client.ts';
import { ensureLocalTable } from '../adapters/dynamodb/migrate-table.ts';
import { SqsQueueAdmin } from '../adapters/sqs/queue-admin.ts';
import { createSqsClient } from '../adapters/sqs/transport.ts';
import { type Clock, systemClock } from '../clock/clock.ts';
import { type ClusterTimings, clusterTimings, type RuntimeConfig } from '../config/runtime.ts';
import type { FailoverSettings } from '../config/failover.ts';
import { scheduleExpression } from '../config/schedule-periods.ts';
import { ConfigError } from '../config/validate.ts';
import { CONTROLLER_FACTORIES } from '../wiring/all-factories.ts';
import { CONTROLLER_SPECS } from '../controllers/specs.ts';
import { createLogger, type LogFormat, type LogLevelName, stderrWrite } from '../observability/logger.ts';
import { EventSourceRunner, type EventSourceSpec } from '../queue/event-source.ts';
import { encodeMessage } from '../queue/messages.ts';
import { deadLetterQueueName, queueName } from '../queue/naming.ts';
import { LANES } from '../queue/port.ts';
import { RESYNC_ALL, RESYNC_CONTROLLER } from '../reconcile/resync.ts';
import { parseSchedule, ScheduleExpressionError } from '../timer/expression.ts';
import type { Runtime } from '../wiring/runtime.ts';
import { controllerHandler, wireRuntime } from '../wiring/wire.ts';
import { acquireDataDirLock } from './lock.ts';
import { restoreSnapshot, snapshotQueues, writeSnapshot } from './queue-snapshot.ts';
import { eventSourcesFor, type ProvisionedQueue, provisionControllerQueues, queueUrlBase } from './queues.ts';
import { startEmulators } from './emulators.ts';
import { RowObjectStore } from '../store/row-object-store.ts';
import { type RunningTimer, startTimer } from './timer.ts';

export const LOCAL_ENVIRONMENT = 'local';
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_QUEUE_PREFIX = 'sk-local';
export const LOCAL_TABLE = 'sk-local-objects';
export const DEFAULT_RESYNC_SCHEDULE = 'rate(10 minutes)';
export const DEFAULT_API_PORT = 7070;
export const KUBECONFIG_CONTEXT = 'karmada-local';

export interface LocalRuntimeOptions {
  /** Where data lives (default `.skctl` in the working directory). Ignored with `inMemory`. */
  dataDir?: string;
  /** Keep nothing on disk. */
  inMemory?: boolean;
  logFormat?: LogFormat;
  logLevel?: LogLevelName;
  /** EventBridge expression of the resync rule. */
  resyncSchedule?: string;
  /** Karmada's period flags of controllers' sweeps (`federated-resource-quota-sync-period: 5m`). */
  schedulePeriods?: Partial<Record<string, string>>;
  dynamodbPort?: number;
  sqsPort?: number;
  /** Port of the Kubernetes-compatible API on 127.0.0.1 (default 7070; 0 picks a free one). */
  apiPort?: number;
  /** Simulated member clusters to run (none when absent). */
  simulation?: SimulationConfig;
  /** Seconds an Event lives after its last write (default 3600, like kube-apiserver). */
  eventTtlSeconds?: number;
  /** Karmada's cluster health timings (`--cluster-failure-threshold`, ...), overriding the defaults. */
  clusterTimings?: Partial<ClusterTimings>;
  /** Failover flags (`--failover-eviction-timeout`, `--feature-gates`, ...), overriding the defaults. */
  failover?: Partial<FailoverSettings>;
  clock?: Clock;
  /**
   * Run the simulated members in a worker thread of their own, as real members run elsewhere, so
   * they do not take the control plane's event loop (default: yes, unless `clock` is not the system
   * clock: the thread keeps wall-clock time, so members on another clock stay in this thread).
   */
  membersInWorker?: boolean;
  /** Where log lines go (default stderr). */
  logWrite?: (line: string) => void;
}

export interface LocalRuntimeStats {
  invocations: number;
  messages: number;
  retried: number;
  failedInvocations: number;
  /** Messages handled, by event source (the queue a controller polls). */
  messagesBySource: Record<string, number>;
}

export interface LocalRuntime {
  config: RuntimeConfig;
  runtime: Runtime;
  dataDir: string | undefined;
  endpoints: { dynamodb: string; sqs: string; api: string };
  /** The process running dynalite and fauxqs (decision 0022). */
  emulatorsPid: number;
  /** The admin kubeconfig (context `karmada-local`). */
  kubeconfig: string;
  /** Simulated member clusters, by name (handles on the members' thread, or the members themselves). */
  members: ReadonlyMap<string, RunningMember>;
  /** Every write of this process (API and controllers), as watches see them. */
  changes: ChangeFeed;
  /** Unix socket of the control channel (`skctl sim`). */
  controlSocket: string;
  /**
   * Resolves with the reason when part of the runtime dies while it runs (the members' thread, the
   * DynamoDB and SQS emulators' process); never
   * otherwise. `skctl up` then stops and exits with an error.
   */
  failed: Promise<Error>;
  queues: readonly ProvisionedQueue[];
  schedules: readonly { name: string; expression: string; target: string }[];
  /** Messages restored from the previous run's shutdown. */
  restoredMessages: number;
  stats(): LocalRuntimeStats;
  /** Stops everything in order, saving queued messages; resolves with how many were saved. */
  stop(): Promise<{ savedMessages: number }>;
}

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const clock = options.clock ?? systemClock;
  const membersInWorker = options.membersInWorker ?? clock === systemClock;
  if (membersInWorker && clock !== systemClock) {
    throw new ConfigError('local runtime options', [
      'membersInWorker needs the system clock (the members’ thread keeps wall-clock time); pass membersInWorker: false with another clock',
    ]);
  }
  const inMemory = options.inMemory ?? false;
  const dataDir = inMemory ? undefined : resolve(options.dataDir ?? '.skctl');
  const logFormat = options.logFormat ?? 'text';
  const logLevel = options.logLevel ?? 'INFO';
  const resyncSchedule = options.resyncSchedule ?? DEFAULT_RESYNC_SCHEDULE;
  try {
    parseSchedule(resyncSchedule);
  } catch (err) {
    if (err instanceof ScheduleExpressionError) throw new ConfigError('--resync-schedule', [err.message]);
    throw err;
  }
  const logWrite = options.logWrite ?? stderrWrite;
  const log = createLogger({ format: logFormat, level: logLevel, service: 'skctl', write: logWrite });

  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn();
  };
  try {
    if (dataDir) {
      mkdirSync(dataDir, { recursive: true });
      cleanups.push(acquireDataDirLock(dataDir));
    }
    // The members' thread loads its modules (~1.3 s) on the other core while this one starts the rest.
    let thread: MemberThread | undefined;
    if (membersInWorker && options.simulation?.members.length) {
      const spawned = MemberThread.spawn({ logFormat, logLevel, logWrite, logger: log });
      thread = spawned;
      cleanups.push(() => spawned.close());
    }

    // DynamoDB and SQS stand-ins in a process of their own (decision 0022), as the services are
    // elsewhere in AWS: this thread keeps its core for the pipeline.
    const emulators = await startEmulators({
      ...(dataDir ? { dynamodbPath: join(dataDir, 'dynamodb') } : {}),
      ...(options.dynamodbPort !== undefined ? { dynamodbPort: options.dynamodbPort } : {}),
      ...(options.sqsPort !== undefined ? { sqsPort: options.sqsPort } : {}),
    });
    cleanups.push(() => emulators.stop());
    const ddb = createDynamoClient({ region: LOCAL_REGION, endpoint: emulators.endpoints.dynamodb });
    const migrated = await ensureLocalTable(
      ddb,
      LOCAL_TABLE,
      dataDir ? join(dataDir, 'dynamodb-upgrade-backup.json') : undefined,
    );
    if (migrated > 0) log.info('object table upgraded to this version’s indexes', { items: migrated });
    ddb.destroy();

    const sqsClient = createSqsClient({ region: LOCAL_REGION, endpoint: emulators.endpoints.sqs });
    const queues = await provisionControllerQueues(new SqsQueueAdmin(sqsClient), LOCAL_QUEUE_PREFIX, CONTROLLER_SPECS);
    sqsClient.destroy();
    const urlBase = queueUrlBase(queues);

    const secretsDir = dataDir ?? mkdtempSync(join(tmpdir(), 'skctl-'));
    if (!dataDir) cleanups.push(() => rmSync(secretsDir, { recursive: true, force: true }));
    const config: RuntimeConfig = {
      region: LOCAL_REGION,
      environment: LOCAL_ENVIRONMENT,
      tableName: LOCAL_TABLE,
      queuePrefix: LOCAL_QUEUE_PREFIX,
      queueUrlBase: urlBase,
      dynamodbEndpoint: emulators.endpoints.dynamodb,
      sqsEndpoint: emulators.endpoints.sqs,
      reconcileConcurrency: 8,
      metrics: 'off',
      eventTtlSeconds: options.eventTtlSeconds ?? 3600,
      credentialsKeyFile: join(secretsDir, 'pki', 'credentials.key'),
      ...(options.clusterTimings ? { clusterTimings: options.clusterTimings } : {}),
      ...(options.failover ? { failover: options.failover } : {}),
      logFormat,
      logLevel,
    };
    const wired = wireRuntime(config, clock);
    cleanups.push(() => wired.close());
    // Every write of this process (API and controllers) goes through one watching store, so kubectl
    // watches see them all.
    const changes = new ChangeFeed({ startVersion: clock.now() * 1000 });
    const runtime: Runtime = { ...wired, store: new WatchingStore(wired.store, changes) };

    const restore = dataDir
      ? await restoreSnapshot(dataDir, runtime.transport, (name) => urlBase + name)
      : { restored: 0, commit: () => {} };
    const restoredMessages = restore.restored;

    // The Kubernetes-compatible API over HTTPS (kubectl sends bearer tokens only over TLS).
    await ensureDefaultNamespaces(runtime.store);
    const pki = await ensureLocalPki(join(secretsDir, 'pki'), { now: clock.now() });
    const api = createControlPlaneApi({
      store: runtime.store,
      workQueue: runtime.workQueue,
      clock,
      logger: log,
      changes,
      cipher: runtime.cipher,
      searchCache: new SearchCache(runtime.rows),
      leaseDurationSeconds: Math.round(clusterTimings(config).leaseDurationMs / 1000),
      ...(options.failover ? { failover: options.failover } : {}),
    });
    const apiServer: RunningKubeServer = await startKubeServer({
      handler: (req) => api.handler.handle(req),
      tls: tlsServerOptions(pki),
      port: options.apiPort ?? DEFAULT_API_PORT,
      onRequest: (req, res, ms) =>
        log.debug('api request', { method: req.method, path: req.path, status: res.status, durationMs: ms }),
    }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        throw new ConfigError('--port', [
          `port ${options.apiPort ?? DEFAULT_API_PORT} is in use on 127.0.0.1: stop what uses it or pass --port <other>`,
        ]);
      }
      throw err;
    });
    cleanups.push(() => apiServer.close());
    const kubeconfig = join(secretsDir, 'kubeconfig');
    await writeAdminKubeconfig(runtime, kubeconfig, apiServer.url, pki.ca.certPem, clock);
    // What `skctl register` discovers this control plane from (address, CA, token signatures).
    await refreshClusterInfo(runtime.store, clock, { server: apiServer.url, caPem: pki.ca.certPem });

    // Simulated member clusters, each on its own loopback port (next to the API's when it is fixed),
    // in a thread of their own unless told otherwise (docs/decisions/0015-members-in-a-worker.md).
    const members = new Map<string, RunningMember>();
    const simulation = options.simulation;
    for (const [i, config] of (simulation?.members ?? []).entries()) {
      const apiPort = options.apiPort ?? DEFAULT_API_PORT;
      const memberOptions: WorkerMemberOptions = {
        config,
        timings: { podStartupMs: simulation!.podStartupMs, jobDurationMs: simulation!.jobDurationMs },
        tls: tlsServerOptions(pki),
        caCertPem: pki.ca.certPem,
        port: apiPort === 0 ? 0 : apiPort + 1 + i,
        kubeconfigPath: join(secretsDir, 'members', `${config.name}.kubeconfig`),
        ...(dataDir ? { snapshotPath: join(dataDir, 'members', `${config.name}.state.json`) } : {}),
      };
      const member = await (
        thread ? thread.start(memberOptions) : SimulatedMember.start({ ...memberOptions, clock, logger: log })
      ).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRINUSE') {
          throw new ConfigError('--port', [
            `port ${apiPort + 1 + i} (member ${config.name}) is in use: stop what uses it or pass --port <other>`,
          ]);
        }
        throw err;
      });
      members.set(config.name, member);
      cleanups.push(() => member.stop());
    }
    // Join them as Push clusters through the API, as `skctl join` does (re-joining on every start
    // keeps their endpoints current when ports change).
    const adminToken = (parseYaml(readFileSync(kubeconfig, 'utf8')) as { users: { user: { token: string } }[] })
      .users[0]!.user.token;
    const controlPlane = new MemberClient({ server: apiServer.url, caPem: pki.ca.certPem, token: adminToken });
    cleanups.push(() => controlPlane.close());
    for (const member of members.values()) {
      await joinPushCluster(controlPlane, {
        name: member.name,
        member: { server: member.url, caPem: pki.ca.certPem, token: member.token },
        provider: member.config.provider,
        region: member.config.region,
        zones: member.config.zones,
        update: true,
      });
    }
    let emulatorsGone = false;
    void emulators.crashed.then((err) => {
      emulatorsGone = true;
      log.error('the local DynamoDB and SQS process ended; stopping', { error: err });
    });
    const failed: Promise<Error> = Promise.race([emulators.crashed, ...(thread ? [thread.crashed] : [])]);
    const controlSocket = join(secretsDir, 'skctl.sock');
    const control = await startControlServer(controlSocket, members);
    cleanups.push(() => new Promise<void>((resolve) => control.close(() => resolve())));

    const stats: LocalRuntimeStats = {
      invocations: 0,
      messages: 0,
      retried: 0,
      failedInvocations: 0,
      messagesBySource: {},
    };
    const sources: EventSourceSpec[] = CONTROLLER_SPECS.flatMap((spec) => {
      const factory = CONTROLLER_FACTORIES[spec.name];
      if (!factory) throw new Error(`controller ${spec.name} has a spec but no factory`);
      return eventSourcesFor(spec, queues, () => controllerHandler(spec.name, factory, runtime, { logWrite }), {
        functionName: `${LOCAL_QUEUE_PREFIX}-${spec.name}`,
      });
    });
    const runner = new EventSourceRunner({
      transport: runtime.transport,
      clock,
      sources,
      region: LOCAL_REGION,
      onInvocation: (r) => {
        stats.invocations++;
        stats.messages += r.messages;
        stats.messagesBySource[r.source] = (stats.messagesBySource[r.source] ?? 0) + r.messages;
        stats.retried += r.retried;
        if (r.error !== undefined) {
          stats.failedInvocations++;
          log.error('invocation failed; its whole batch will be retried', {
            source: r.source,
            error: r.error as Error,
          });
        }
      },
      onPollError: (source, error) => log.warn('polling failed; retrying in 1 s', { source, error: error as Error }),
    });
    runner.start();
    let runnerStopped = false;
    cleanups.push(async () => {
      if (!runnerStopped) await runner.stop();
    });

    // EventBridge → SQS target, as in AWS: the rule sends its constant input to resync's standard queue.
    const resyncQueue = runtime.queueUrl(RESYNC_CONTROLLER, 'standard');
    const resyncTick = async () => {
      const message = encodeMessage({ key: RESYNC_ALL, lane: 'standard', reason: 'schedule' }, clock.now());
      await runtime.transport.send(resyncQueue, [{ body: message.body }]);
    };
    // Controllers' own schedules (sweeps), as EventBridge Scheduler sends them in AWS.
    const controllerSchedules = CONTROLLER_SPECS.flatMap((spec) =>
      (spec.schedules ?? []).map((schedule) => {
        const target = runtime.queueUrl(spec.name, 'standard');
        return {
          ...schedule,
          expression: scheduleExpression(schedule, options.schedulePeriods),
          target: queueName(LOCAL_QUEUE_PREFIX, spec.name, 'standard'),
          fire: async () => {
            const message = encodeMessage({ key: schedule.key, lane: 'standard', reason: 'schedule' }, clock.now());
            await runtime.transport.send(target, [{ body: message.body }]);
          },
        };
      }),
    );
    const purgeExpiredEvents = async () => {
      if (!(wired.store instanceof RowObjectStore)) return;
      const removed = await wired.store.purgeExpired({ group: '', kind: 'Event' });
      // As etcd's lease expiry does, an expired Event is a deletion watchers see.
      for (const object of removed)
        changes.publish({ type: 'DELETED', object, version: Number(object.metadata.resourceVersion) + 1 });
      if (removed.length > 0) log.debug('expired events removed', { count: removed.length });
    };
    const timer: RunningTimer = startTimer({
      clock,
      rules: [
        { name: 'resync', expression: resyncSchedule, fire: resyncTick },
        ...controllerSchedules.map((r) => ({ name: r.name, expression: r.expression, fire: r.fire })),
        // DynamoDB deletes expired Events itself (the table's TTL); dynalite does not, so sweep here.
        { name: 'expire-events', expression: 'rate(1 minute)', fire: purgeExpiredEvents },
      ],
      onFire: (rule) => log.debug('schedule fired', { rule }),
      onError: (rule, error) => log.error('schedule target failed', { rule, error: error as Error }),
    });
    let timerStopped = false;
    cleanups.push(async () => {
      if (!timerStopped) await timer.stop();
    });
    // Like controllers relisting at start: whatever a crash lost, a resync re-enqueues.
    await resyncTick();
    // The sweeps too, so member clusters are probed from the start, not from the first full minute.
    for (const schedule of controllerSchedules) await schedule.fire();
    restore.commit();

    if (dataDir) {
      writeFileSync(
        join(dataDir, 'runtime.json'),
        JSON.stringify(
          {
            pid: process.pid,
            startedAt: new Date(clock.now()).toISOString(),
            dynamodb: emulators.endpoints.dynamodb,
            sqs: emulators.endpoints.sqs,
            api: apiServer.url,
            kubeconfig,
            control: controlSocket,
            members: [...members.values()].map((m) => ({ name: m.name, url: m.url, kubeconfig: m.kubeconfig })),
          },
          null,
          2,
        ),
      );
      cleanups.push(() => rmSync(join(dataDir, 'runtime.json'), { force: true }));
    }

    const allQueueNames = CONTROLLER_SPECS.flatMap((s) => [
      ...LANES.map((lane) => queueName(LOCAL_QUEUE_PREFIX, s.name, lane)),
      deadLetterQueueName(LOCAL_QUEUE_PREFIX, s.name),
    ]);
    let stopping: Promise<{ savedMessages: number }> | undefined;
    return {
      config,
      runtime,
      dataDir,
      endpoints: { ...emulators.endpoints, api: apiServer.url },
      emulatorsPid: emulators.pid,
      kubeconfig,
      members,
      changes,
      controlSocket,
      failed,
      queues,
      schedules: [
        {
          name: 'resync',
          expression: resyncSchedule,
          target: queueName(LOCAL_QUEUE_PREFIX, RESYNC_CONTROLLER, 'standard'),
        },
        ...controllerSchedules.map(({ name, expression, target }) => ({ name, expression, target })),
      ],
      restoredMessages,
      stats: () => ({ ...stats, messagesBySource: { ...stats.messagesBySource } }),
      stop() {
        stopping ??= (async () => {
          await timer.stop();
          timerStopped = true;
          await runner.stop();
          runnerStopped = true;
          let savedMessages = 0;
          try {
            // With the emulators gone there is nothing to read: their queued messages are lost.
            if (dataDir && !emulatorsGone) {
              const saved = await snapshotQueues(emulators, allQueueNames, clock.now());
              writeSnapshot(dataDir, saved, clock.now());
              savedMessages = saved.length;
            }
          } catch (err) {
            // Stopping goes on: the next start's resync heals what the lost messages would have done.
            log.error('could not save the queued messages; they are lost', { error: err as Error });
          } finally {
            await cleanup();
          }
          return { savedMessages };
        })();
        return stopping;
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * Keeps `.skctl/kubeconfig` working: reuses its admin token while the store still knows it,
 * otherwise issues a new one (first start, or data discarded) and rewrites the file. The server
 * address is always refreshed (the port may differ between runs).
 */
async function writeAdminKubeconfig(
  runtime: Runtime,
  path: string,
  server: string,
  caCertPem: string,
  clock: Clock,
): Promise<void> {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const { kubeconfig, changed } = await ensureAdminKubeconfig({
    store: runtime.store,
    clock,
    existing,
    server,
    caCertPem,
    clusterName: 'serverless-karmada-local',
    contextName: KUBECONFIG_CONTEXT,
    description: 'skctl up local admin',
  });
  if (changed) await writeKubeconfigText(path, kubeconfig);
}
