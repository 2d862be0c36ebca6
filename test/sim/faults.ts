/**
 * The faults the simulation injects below the controllers: SQS that duplicates, delays, reorders and
 * (rarely) loses messages; a function that dies right after one of its writes; and, for the harness's
 * own test, a guard of the control plane broken on purpose.
 */
import type { KubeObject } from '../../lib/api/object.ts';
import { BINDING_CONTROLLER_FINALIZER } from '../../lib/api/well-known.ts';
import { CLUSTER_RESERVATION } from '../../lib/controllers/reservations.ts';
import type { OutgoingMessage, QueueTransport, ReceiveOptions, ReceivedMessage } from '../../lib/queue/port.ts';
import { AlreadyExistsError } from '../../lib/store/errors.ts';
import type { ObjectStore } from '../../lib/store/port.ts';
import { delegatingStore } from './delegating-store.ts';
import type { Rng } from './rng.ts';

/** What the faults did in one run, by kind. */
export interface FaultCounters {
  duplicated: number;
  delayed: number;
  lost: number;
  crashes: number;
  restarts: number;
  memberFaults: number;
  /** Answers of a slow member that arrived within the client's timeout, late. */
  slowAnswers: number;
  drift: number;
  clockJumps: number;
  concurrentWrites: number;
  conflictsSeen: number;
  unhealthy: number;
}

/** Message fault rates while a window of message faults is open (0 otherwise). */
export interface MessageFaultRates {
  duplicate: number;
  delay: number;
  lose: number;
  reorder: boolean;
}

const NO_MESSAGE_FAULTS: MessageFaultRates = { duplicate: 0, delay: 0, lose: 0, reorder: false };

/** SQS as the simulation's schedule makes it misbehave: at-least-once, any order, late, or lost. */
export class FaultTransport implements QueueTransport {
  readonly #inner: QueueTransport;
  readonly #rng: Rng;
  readonly #counters: FaultCounters;
  rates: MessageFaultRates = NO_MESSAGE_FAULTS;

  constructor(inner: QueueTransport, rng: Rng, counters: FaultCounters) {
    this.#inner = inner;
    this.#rng = rng;
    this.#counters = counters;
  }

  heal(): void {
    this.rates = NO_MESSAGE_FAULTS;
  }

  async send(queue: string, messages: readonly OutgoingMessage[]): Promise<void> {
    const out: OutgoingMessage[] = [];
    for (const m of messages) {
      if (this.rates.lose > 0 && this.#rng.chance(this.rates.lose)) {
        this.#counters.lost++;
        continue;
      }
      let sent = m;
      if (this.rates.delay > 0 && this.#rng.chance(this.rates.delay)) {
        this.#counters.delayed++;
        sent = { ...m, delaySeconds: Math.min(900, (m.delaySeconds ?? 0) + this.#rng.int(1, 45)) };
      }
      out.push(sent);
      if (this.rates.duplicate > 0 && this.#rng.chance(this.rates.duplicate)) {
        this.#counters.duplicated++;
        out.push({ ...m, delaySeconds: Math.min(900, (m.delaySeconds ?? 0) + this.#rng.int(0, 20)) });
      }
    }
    if (this.rates.reorder) {
      for (let i = out.length - 1; i > 0; i--) {
        const j = this.#rng.int(0, i);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
    }
    if (out.length > 0) await this.#inner.send(queue, out);
  }

  receive(queue: string, options: ReceiveOptions): Promise<ReceivedMessage[]> {
    return this.#inner.receive(queue, options);
  }

  delete(queue: string, receiptHandles: readonly string[]): Promise<void> {
    return this.#inner.delete(queue, receiptHandles);
  }

  changeVisibility(queue: string, receiptHandle: string, seconds: number): Promise<void> {
    return this.#inner.changeVisibility(queue, receiptHandle, seconds);
  }
}

/** Thrown by {@link CrashingStore}: the function died right after a write that did land. */
export class InjectedCrash extends Error {
  override readonly name = 'InjectedCrash';
}

const WRITES = new Set(['create', 'update', 'updateStatus', 'updateWithStatus', 'delete']);

/**
 * The controllers' store: while `rate` > 0, a write that succeeded is followed, with that chance, by
 * the function dying (the reconcile throws before its next write). `passThrough` is the same store
 * without the fault (the API's).
 */
export class CrashingStore implements ObjectStore {
  readonly passThrough: ObjectStore;
  rate = 0;
  readonly #rng: Rng;
  readonly #counters: FaultCounters;

  constructor(inner: ObjectStore, rng: Rng, counters: FaultCounters) {
    this.passThrough = inner;
    this.#rng = rng;
    this.#counters = counters;
    for (const method of ['get', 'list', 'listRefs', 'listDependents'] as const) {
      (this as unknown as Record<string, unknown>)[method] = (inner[method] as (...a: unknown[]) => unknown).bind(
        inner,
      );
    }
    for (const method of WRITES) {
      (this as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        const result = await (inner[method as keyof ObjectStore] as (...a: unknown[]) => Promise<unknown>).apply(
          inner,
          args,
        );
        if (this.rate > 0 && this.#rng.chance(this.rate)) {
          this.#counters.crashes++;
          throw new InjectedCrash(`injected: the function died after its ${method}`);
        }
        return result;
      };
    }
  }

  declare create: ObjectStore['create'];
  declare get: ObjectStore['get'];
  declare list: ObjectStore['list'];
  declare listRefs: ObjectStore['listRefs'];
  declare listDependents: ObjectStore['listDependents'];
  declare update: ObjectStore['update'];
  declare updateStatus: ObjectStore['updateStatus'];
  declare updateWithStatus: ObjectStore['updateWithStatus'];
  declare delete: ObjectStore['delete'];
}

/** Guards the harness's own test breaks, to show the simulation notices. */
export type GuardBreak = 'ledger-unconditional' | 'binding-finalizer';
export const GUARD_BREAKS: readonly GuardBreak[] = ['ledger-unconditional', 'binding-finalizer'];

const isLedger = (o: { group?: string; kind?: string; apiVersion?: string }) =>
  o.kind === CLUSTER_RESERVATION.kind && (o.group ?? o.apiVersion?.split('/')[0]) === CLUSTER_RESERVATION.group;

/**
 * The store with one guard removed: `ledger-unconditional` makes the scheduler's reservation ledger
 * last-writer-wins (its conditional write dropped); `binding-finalizer` strips the finalizer that
 * holds a ResourceBinding until its Works are gone.
 */
export function breakGuard(inner: ObjectStore, broken: GuardBreak): ObjectStore {
  const strip = (obj: KubeObject): KubeObject => {
    if (broken !== 'binding-finalizer' || obj.kind !== 'ResourceBinding') return obj;
    const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== BINDING_CONTROLLER_FINALIZER);
    return { ...obj, metadata: { ...obj.metadata, finalizers } };
  };
  const blind = async (
    write: 'update' | 'updateStatus' | 'updateWithStatus',
    obj: KubeObject,
    options: unknown,
  ): Promise<KubeObject> => {
    const current = await inner.get({
      group: CLUSTER_RESERVATION.group,
      kind: CLUSTER_RESERVATION.kind,
      name: obj.metadata.name ?? '',
    });
    const rv = current?.metadata.resourceVersion ?? obj.metadata.resourceVersion;
    return (inner[write] as (o: KubeObject, p: unknown) => Promise<KubeObject>)(
      { ...obj, metadata: { ...obj.metadata, ...(rv ? { resourceVersion: rv } : {}) } },
      options,
    );
  };
  return delegatingStore(inner, {
    async create(obj, o) {
      if (broken === 'ledger-unconditional' && isLedger(obj)) {
        try {
          return await inner.create(obj, o);
        } catch (err) {
          if (err instanceof AlreadyExistsError) return blind('update', obj, o);
          throw err;
        }
      }
      return inner.create(strip(obj), o);
    },
    update: (obj, o) =>
      broken === 'ledger-unconditional' && isLedger(obj) ? blind('update', obj, o) : inner.update(strip(obj), o),
    updateStatus: (obj, o) =>
      broken === 'ledger-unconditional' && isLedger(obj)
        ? blind('updateStatus', obj, o)
        : inner.updateStatus(strip(obj), o),
    updateWithStatus: (obj, o) =>
      broken === 'ledger-unconditional' && isLedger(obj)
        ? blind('updateWithStatus', obj, o)
        : inner.updateWithStatus(strip(obj), o),
  });
}
