/**
 * Local mode's simulated members in a worker thread of their own, as real members run on other
 * machines: the control plane's latency is then its own pipeline's, not the simulator's. One thread
 * holds every member (each still on its own loopback HTTPS port); the main thread holds a
 * {@link RemoteMember} per member, with the surface local mode, its tests and `skctl sim` use.
 *
 * @example
 *   const thread = MemberThread.spawn({ logFormat: 'text', logLevel: 'INFO', logWrite: stderrWrite, logger });
 *   const member = await thread.start({ config, timings, tls, caCertPem, port: 0, kubeconfigPath });
 *   member.setFault({ mode: 'unreachable' });
 *   await thread.close();
 */
import { Worker } from 'node:worker_threads';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import type { Logger } from '../observability/logger.ts';
import type {
  DeleteOptions,
  DeleteResult,
  DependentsQuery,
  ListPage,
  ListQuery,
  ObjectStore,
  WriteOptions,
} from '../store/port.ts';
import type { MemberConfig } from './config.ts';
import { UnhealthyWorkloads, type WorkloadRef } from './controllers/index.ts';
import type { Fault, RunningMember, WorkloadResolution } from './member.ts';
import {
  decodeError,
  type MemberMethod,
  type MemberReply,
  type MemberRequest,
  type StartedMember,
  type StoreMethod,
  type WorkerMemberOptions,
} from './member-wire.ts';
import type { MemberWorkerData } from './member-worker.ts';

/** The members' thread stopped without being asked to: its members are gone. */
export class MemberThreadCrashedError extends Error {
  override readonly name = 'MemberThreadCrashedError';
  constructor(reason: string, options?: ErrorOptions) {
    super(`the simulated members' worker thread crashed: ${reason}; its members no longer answer`, options);
  }
}

export interface MemberThreadOptions extends MemberWorkerData {
  /** Where the members' log lines are written (those of the main thread's logger go there too). */
  logWrite: (line: string) => void;
  /** Says that the thread crashed. */
  logger: Logger;
  /** The worker's entry (default member-worker.mjs; tests pass one that fails). */
  entry?: URL;
}

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };

export class MemberThread {
  readonly #worker: Worker;
  readonly #logger: Logger;
  readonly #pending = new Map<number, Pending>();
  readonly #members = new Set<RemoteMember>();
  #nextId = 1;
  #closing = false;
  #crash: MemberThreadCrashedError | undefined;
  #uncaught: Error | undefined;
  #crashed!: (err: MemberThreadCrashedError) => void;
  /**
   * Resolves with the error when the thread stops without {@link close} (an uncaught error in a
   * member, a failed start of the thread); never otherwise. Pending and later calls fail with it.
   */
  readonly crashed: Promise<MemberThreadCrashedError>;

  private constructor(options: MemberThreadOptions) {
    this.#logger = options.logger;
    this.crashed = new Promise((resolve) => (this.#crashed = resolve));
    const workerData: MemberWorkerData = { logFormat: options.logFormat, logLevel: options.logLevel };
    this.#worker = new Worker(options.entry ?? new URL('./member-worker.mjs', import.meta.url), {
      workerData,
      // The entry registers the TypeScript loader itself; the parent's flags (`--test`, ...) are not the worker's.
      execArgv: [],
    });
    this.#worker.on('message', (reply: MemberReply) => {
      if ('log' in reply) return options.logWrite(reply.log);
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(decodeError(reply.error));
    });
    this.#worker.on('error', (err) => {
      this.#uncaught = err;
    });
    this.#worker.on('exit', (code) => {
      if (this.#closing) return;
      const reason = this.#uncaught ? this.#uncaught.message : `it exited with code ${code}`;
      this.#fail(new MemberThreadCrashedError(reason, this.#uncaught ? { cause: this.#uncaught } : undefined));
    });
  }

  /** Starts the thread (members are started in it with {@link start}). */
  static spawn(options: MemberThreadOptions): MemberThread {
    return new MemberThread(options);
  }

  /** Starts a member in the thread; rejects as `SimulatedMember.start` would (e.g. `EADDRINUSE`). */
  async start(options: WorkerMemberOptions): Promise<RemoteMember> {
    const started = (await this.#request({ op: 'start', options })) as StartedMember;
    const member = new RemoteMember(options.config, started, this);
    this.#members.add(member);
    return member;
  }

  /** Stops the members still running (writing their snapshots), then the thread. */
  async close(): Promise<void> {
    if (this.#closing) return;
    for (const member of this.#members) await member.stop();
    this.#closing = true;
    await this.#worker.terminate();
  }

  /** @internal A request to the thread; its answer. */
  request(req: DistributiveOmit<MemberRequest, 'id'>): Promise<unknown> {
    return this.#request(req);
  }

  /** @internal Throws when the thread has crashed (a setter must not seem to work). */
  assertRunning(): void {
    if (this.#crash) throw this.#crash;
  }

  /** @internal Whether the thread has crashed (a stop then has nothing left to do). */
  get hasCrashed(): boolean {
    return this.#crash !== undefined;
  }

  /** @internal */
  forget(member: RemoteMember): void {
    this.#members.delete(member);
  }

  /** @internal Logs a failure of a call nobody awaits. */
  logFailure(message: string, err: unknown, member: string): void {
    this.#logger.error(message, { cluster: member, error: err as Error });
  }

  #request(req: DistributiveOmit<MemberRequest, 'id'>): Promise<unknown> {
    if (this.#crash) return Promise.reject(this.#crash);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...req, id });
    });
  }

  #fail(err: MemberThreadCrashedError): void {
    this.#crash = err;
    this.#logger.error("the simulated members' worker thread crashed; the control plane cannot reach them", {
      error: err.cause instanceof Error ? err.cause : err,
    });
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
    this.#crashed(err);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A member running in the {@link MemberThread}. Its address, token and configuration are known from
 * its start; its fault and unhealthy marks are set only through this handle, so the handle keeps them
 * and answers their getters and setters at once, forwarding each change to the member.
 */
export class RemoteMember implements RunningMember {
  readonly name: string;
  readonly config: MemberConfig;
  readonly kubeconfig: string;
  readonly url: string;
  readonly token: string;
  /** The member's store, each call answered by the member's thread (errors rebuilt as the store's own classes). */
  readonly store: ObjectStore;
  readonly #thread: MemberThread;
  readonly #unhealthy = new UnhealthyWorkloads();
  #fault: Fault | undefined;
  #stopping: Promise<void> | undefined;

  constructor(config: MemberConfig, started: StartedMember, thread: MemberThread) {
    this.name = config.name;
    this.config = config;
    this.kubeconfig = started.kubeconfig;
    this.url = started.url;
    this.token = started.token;
    this.#thread = thread;
    for (const ref of started.unhealthy) this.#unhealthy.mark(ref);
    this.store = new RemoteObjectStore((method, args) =>
      thread.request({ op: 'store', member: this.name, method, args }),
    );
  }

  get fault(): Fault | undefined {
    return this.#fault;
  }

  get unhealthyWorkloads(): WorkloadRef[] {
    return this.#unhealthy.list();
  }

  setFault(fault: Fault): void {
    this.#thread.assertRunning();
    this.#fault = { ...fault };
    this.#send('setFault', [fault]);
  }

  recover(): void {
    this.#thread.assertRunning();
    this.#fault = undefined;
    this.#send('recover', []);
  }

  markUnhealthy(ref: WorkloadRef): boolean {
    this.#thread.assertRunning();
    this.#send('markUnhealthy', [ref]);
    return this.#unhealthy.mark(ref);
  }

  markHealthy(ref: WorkloadRef): boolean {
    this.#thread.assertRunning();
    this.#send('markHealthy', [ref]);
    return this.#unhealthy.unmark(ref);
  }

  async resolveWorkload(target: string, namespace = 'default'): Promise<WorkloadResolution> {
    return (await this.#call('resolveWorkload', [target, namespace])) as WorkloadResolution;
  }

  async settle(): Promise<void> {
    await this.#call('settle', []);
  }

  /** Stops the member and writes its snapshot; nothing to do once the thread has crashed. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      if (!this.#thread.hasCrashed) await this.#call('stop', []);
      this.#thread.forget(this);
    })();
    return this.#stopping;
  }

  #call(method: MemberMethod, args: unknown[]): Promise<unknown> {
    return this.#thread.request({ op: 'member', member: this.name, method, args });
  }

  /** A change whose answer nobody waits for (it cannot fail short of a crash, which is reported). */
  #send(method: MemberMethod, args: unknown[]): void {
    this.#call(method, args).catch((err: unknown) => {
      if (!this.#thread.hasCrashed) this.#thread.logFailure(`simulated member ${method} failed`, err, this.name);
    });
  }
}

/** An {@link ObjectStore} whose every call is answered elsewhere. */
class RemoteObjectStore implements ObjectStore {
  readonly #call: (method: StoreMethod, args: unknown[]) => Promise<unknown>;

  constructor(call: (method: StoreMethod, args: unknown[]) => Promise<unknown>) {
    this.#call = call;
  }

  create(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#call('create', [obj, options]) as Promise<KubeObject>;
  }

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.#call('get', [ref]) as Promise<KubeObject | undefined>;
  }

  list(query: ListQuery): Promise<ListPage> {
    return this.#call('list', [query]) as Promise<ListPage>;
  }

  listRefs(query: Omit<ListQuery, 'labelSelector'>): Promise<ListPage<ObjectRef>> {
    return this.#call('listRefs', [query]) as Promise<ListPage<ObjectRef>>;
  }

  listDependents(ownerUid: string, query?: DependentsQuery): Promise<ListPage<ObjectRef>> {
    return this.#call('listDependents', [ownerUid, query]) as Promise<ListPage<ObjectRef>>;
  }

  update(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#call('update', [obj, options]) as Promise<KubeObject>;
  }

  updateStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#call('updateStatus', [obj, options]) as Promise<KubeObject>;
  }

  updateWithStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    return this.#call('updateWithStatus', [obj, options]) as Promise<KubeObject>;
  }

  delete(ref: ObjectRef, options?: DeleteOptions): Promise<DeleteResult> {
    return this.#call('delete', [ref, options]) as Promise<DeleteResult>;
  }
}
