/**
 * The cost bench's meters: counters keyed by metric and function, a clock of modelled round trips,
 * and the wrappers that count every DynamoDB request and request unit (items and index entries sized
 * as DynamoDB sizes them), every SQS request and every KMS call, outside the code they measure.
 */
import type { CredentialCipher } from '../lib/crypto/cipher.ts';
import { type MemoryQueueTransport } from '../lib/queue/memory-transport.ts';
import type { OutgoingMessage, QueueTransport, ReceiveOptions } from '../lib/queue/port.ts';
import { type MemoryRowStore } from '../lib/store/memory-rows.ts';
import {
  type IndexPage,
  type IndexQuery,
  type Row,
  type RowStore,
  rowBytes,
  type WriteCondition,
} from '../lib/store/rows.ts';
import { IO_LATENCY_MS, readUnits, sqsRequestsFor, writeUnits } from './cost-model.ts';

/** Counters keyed `metric|function` (function: a controller, `api`, `eventbridge`, `setup`). */
export type Counts = Map<string, number>;

/** `after - before`, key by key. */
export function diffCounts(after: Counts, before: Counts): Counts {
  const out: Counts = new Map();
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    if (d !== 0) out.set(k, d);
  }
  return out;
}

/** The sum of a metric over every function (or one function). */
export function metric(counts: Counts, name: string, fn?: string): number {
  if (fn !== undefined) return counts.get(`${name}|${fn}`) ?? 0;
  let n = 0;
  for (const [k, v] of counts) if (k.startsWith(`${name}|`)) n += v;
  return n;
}

/** The functions a metric has counts for. */
export function functionsOf(counts: Counts, name: string): string[] {
  const out = new Set<string>();
  for (const k of counts.keys()) if (k.startsWith(`${name}|`)) out.add(k.slice(name.length + 1));
  return [...out].sort();
}

/** What is being counted, and who is running. */
export class Meter {
  readonly counts: Counts = new Map();
  /** The function whose code runs now (invocations run one at a time). */
  current = 'setup';
  /**
   * The current invocation's I/O clock: each metered call sleeps its assumed round trip on it, so the
   * time it reaches when the handler returns is the critical path of the calls as the handler made
   * them (side by side where it awaits them together).
   */
  io: IoClock | undefined;
  /** CPU the current invocation spent inside member requests (the member's work, not the function's). */
  memberCpuMs = 0;
  memberDepth = 0;
  memberMark: NodeJS.CpuUsage | undefined;
  /** Custom metrics (name and dimension values) published since the last reset. */
  readonly metricKeys = new Set<string>();
  /** When each function was invoked (cold-start estimate). */
  readonly invocationTimes = new Map<string, number[]>();

  /** One call's round trip, on the current invocation's I/O clock (outside an invocation: none). */
  async wait(ms: number): Promise<void> {
    if (this.io) await this.io.sleep(ms);
  }

  add(name: string, n = 1, fn = this.current): void {
    if (n === 0) return;
    const key = `${name}|${fn}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  snapshot(): Counts {
    return new Map(this.counts);
  }
}

/** A clock of modelled round trips, moved by the invocation that owns it (see {@link CostWorld}). */
export class IoClock {
  now = 0;
  #seq = 0;
  #sleepers: { at: number; seq: number; resolve: () => void }[] = [];

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.#sleepers.push({ at: this.now + ms, seq: this.#seq++, resolve }));
  }

  /** Moves to the earliest sleeper and wakes it; false when none is waiting. */
  wakeNext(): boolean {
    if (this.#sleepers.length === 0) return false;
    let best = 0;
    for (let i = 1; i < this.#sleepers.length; i++) {
      const s = this.#sleepers[i]!;
      const b = this.#sleepers[best]!;
      if (s.at < b.at || (s.at === b.at && s.seq < b.seq)) best = i;
    }
    const [next] = this.#sleepers.splice(best, 1);
    this.now = Math.max(this.now, next!.at);
    next!.resolve();
    return true;
  }
}

interface Shadow {
  bytes: number;
  pk: string;
  kindShard: string;
  sortKey: string;
  clusterKey: string | undefined;
  ownerKey: string | undefined;
}

interface IndexDef {
  name: 'byKind' | 'byCluster' | 'byOwner';
  partition(s: Shadow): string | undefined;
  sortKey(s: Shadow): string;
  /** Bytes of the index entry (ALL: the item; KEYS_ONLY: the table and index keys). */
  projected(s: Shadow): number;
}

const attr = (name: string, value: string) => name.length + Buffer.byteLength(value, 'utf8');
/** The three indexes of lib/adapters/dynamodb/table.ts, as DynamoDB sizes their entries. */
const INDEXES: readonly IndexDef[] = [
  { name: 'byKind', partition: (s) => s.kindShard, sortKey: (s) => s.sortKey, projected: (s) => s.bytes },
  { name: 'byCluster', partition: (s) => s.clusterKey, sortKey: (s) => s.sortKey, projected: (s) => s.bytes },
  {
    name: 'byOwner',
    partition: (s) => s.ownerKey,
    sortKey: (s) => s.pk,
    projected: (s) => attr('pk', s.pk) + attr('ow', s.ownerKey ?? ''),
  },
];

/** An index partition's class: the kind for byKind and byCluster (`Work.work.karmada.io`), `owner` for byOwner. */
function partitionClass(index: IndexDef['name'], partition: string): string {
  return index === 'byOwner' ? 'owner' : partition.slice(0, partition.lastIndexOf('#'));
}

/**
 * The in-memory table, metered as DynamoDB would bill it: a consistent GetItem reads the item's size in
 * 4 KB units; a Query on an index reads the entries it returns, eventually consistent; a PutItem or
 * DeleteItem writes the larger of the old and new item in 1 KB units, and once more in every index the
 * item enters, stays in or leaves (twice when its index key changes).
 */
export class MeteredRows implements RowStore {
  readonly maxRowBytes: number;
  readonly #inner: MemoryRowStore;
  readonly #meter: Meter;
  readonly #rows = new Map<string, Shadow>();
  readonly #entries = new Map<string, number>();

  constructor(inner: MemoryRowStore, meter: Meter) {
    this.#inner = inner;
    this.#meter = meter;
    this.maxRowBytes = inner.maxRowBytes;
  }

  /** Bytes stored: items plus index entries. */
  storedBytes(): number {
    let n = 0;
    for (const s of this.#rows.values()) n += s.bytes;
    for (const b of this.#entries.values()) n += b;
    return n;
  }

  async get(pk: string): Promise<Row | undefined> {
    await this.#meter.wait(IO_LATENCY_MS.dynamoGet);
    const row = await this.#inner.get(pk);
    this.#meter.add('ddb.get');
    this.#meter.add('ddb.rru', readUnits(row ? rowBytes(row) : 0, true));
    return row;
  }

  async query(q: IndexQuery): Promise<IndexPage> {
    await this.#meter.wait(IO_LATENCY_MS.dynamoQuery);
    const page = await this.#inner.query(q);
    let bytes = 0;
    for (const r of page.rows) bytes += this.#entries.get(entryKey(q.index, q.partition, r.sortKey)) ?? 0;
    this.#meter.add('ddb.query');
    this.#meter.add('ddb.rru', readUnits(bytes, false));
    return page;
  }

  async put(row: Row, condition: WriteCondition) {
    await this.#meter.wait(IO_LATENCY_MS.dynamoWrite);
    const outcome = await this.#inner.put(row, condition);
    const before = this.#rows.get(row.pk);
    const after: Shadow = {
      bytes: rowBytes(row),
      pk: row.pk,
      kindShard: row.kindShard,
      sortKey: row.sortKey,
      clusterKey: row.clusterKey,
      ownerKey: row.ownerKey,
    };
    const kind = partitionClass('byKind', row.kindShard);
    const tableUnits = writeUnits(Math.max(before?.bytes ?? 0, after.bytes));
    this.#meter.add('ddb.put');
    this.#meter.add('ddb.wru.table', tableUnits);
    this.#meter.add('ddb.kind.writes', 1, kind);
    this.#meter.add('ddb.kind.wru', tableUnits, kind);
    this.#meter.add('ddb.bytesWritten', after.bytes);
    if (!outcome.ok) {
      this.#meter.add('ddb.conflicts');
      return outcome;
    }
    this.#indexWrites(before, after, kind);
    this.#rows.set(row.pk, after);
    return outcome;
  }

  async delete(pk: string, version: number) {
    await this.#meter.wait(IO_LATENCY_MS.dynamoWrite);
    const outcome = await this.#inner.delete(pk, version);
    const before = this.#rows.get(pk);
    const kind = before ? partitionClass('byKind', before.kindShard) : 'unknown';
    this.#meter.add('ddb.delete');
    this.#meter.add('ddb.wru.table', writeUnits(before?.bytes ?? 0));
    this.#meter.add('ddb.kind.writes', 1, kind);
    this.#meter.add('ddb.kind.wru', writeUnits(before?.bytes ?? 0), kind);
    if (!outcome.ok) {
      this.#meter.add('ddb.conflicts');
      return outcome;
    }
    this.#indexWrites(before, undefined, kind);
    this.#rows.delete(pk);
    return outcome;
  }

  /** Charges every index the item enters, stays in or leaves; `kind` is the item's (for the by-kind tally). */
  #indexWrites(before: Shadow | undefined, after: Shadow | undefined, kind: string): void {
    for (const ix of INDEXES) {
      const oldPartition = before ? ix.partition(before) : undefined;
      const newPartition = after ? ix.partition(after) : undefined;
      const oldKey =
        before && oldPartition !== undefined ? entryKey(ix.name, oldPartition, ix.sortKey(before)) : undefined;
      const newKey =
        after && newPartition !== undefined ? entryKey(ix.name, newPartition, ix.sortKey(after)) : undefined;
      const charge = (partition: string, bytes: number) => {
        const units = writeUnits(bytes);
        this.#meter.add(`ddb.wru.${ix.name}`, units);
        this.#meter.add(`ddb.partition.${ix.name}`, units, partitionClass(ix.name, partition));
        this.#meter.add('ddb.kind.wru', units, kind);
      };
      if (oldKey !== undefined && oldKey === newKey) {
        // Same entry: rewritten when what it projects changed (an ALL index always: the body did).
        const bytes = ix.projected(after!);
        if (ix.name !== 'byOwner') charge(newPartition!, bytes);
        this.#entries.set(newKey, bytes);
        continue;
      }
      if (oldKey !== undefined) {
        charge(oldPartition!, ix.projected(before!));
        this.#entries.delete(oldKey);
      }
      if (newKey !== undefined) {
        const bytes = ix.projected(after!);
        charge(newPartition!, bytes);
        this.#entries.set(newKey, bytes);
      }
    }
  }
}

function entryKey(index: string, partition: string, sortKey: string): string {
  return `${index}\u0000${partition}\u0000${sortKey}`;
}

/**
 * The in-memory queues, metered as SQS bills them: each SendMessageBatch of up to ten messages is a
 * request per 64 KB; Lambda's poller makes one ReceiveMessage per (up to) ten messages it delivers and
 * one DeleteMessageBatch per (up to) ten it deletes; each ChangeMessageVisibility is a request. Queue
 * ids may be URLs (the batch framework's visibility changes): the name after the last `/` is used.
 */
export class MeteredTransport implements QueueTransport {
  readonly #inner: MemoryQueueTransport;
  readonly #meter: Meter;
  readonly #owner: (queue: string) => string;

  constructor(inner: MemoryQueueTransport, meter: Meter, owner: (queue: string) => string) {
    this.#inner = inner;
    this.#meter = meter;
    this.#owner = owner;
  }

  async send(queue: string, messages: readonly OutgoingMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 10) {
      let bytes = 0;
      for (const m of messages.slice(i, i + 10)) {
        bytes += Buffer.byteLength(m.body);
        for (const [k, v] of Object.entries(m.attributes ?? {})) bytes += k.length + v.length + 'String'.length;
      }
      this.#meter.add('sqs.send', sqsRequestsFor(bytes));
    }
    this.#meter.add('sqs.messages', messages.length);
    // One round trip per send: SqsTransport sends a call's batches side by side.
    if (messages.length > 0) await this.#meter.wait(IO_LATENCY_MS.sqsSend);
    await this.#inner.send(name(queue), messages);
  }

  async receive(queue: string, options: ReceiveOptions) {
    const got = await this.#inner.receive(name(queue), options);
    if (got.length > 0) this.#meter.add('sqs.receive', 1, this.#owner(name(queue)));
    return got;
  }

  async delete(queue: string, receiptHandles: readonly string[]): Promise<void> {
    if (receiptHandles.length > 0)
      this.#meter.add('sqs.delete', Math.ceil(receiptHandles.length / 10), this.#owner(name(queue)));
    await this.#inner.delete(name(queue), receiptHandles);
  }

  async changeVisibility(queue: string, receiptHandle: string, seconds: number): Promise<void> {
    this.#meter.add('sqs.visibility');
    await this.#meter.wait(IO_LATENCY_MS.sqsChangeVisibility);
    await this.#inner.changeVisibility(name(queue), receiptHandle, seconds);
  }
}

const name = (queue: string) => queue.slice(queue.lastIndexOf('/') + 1);

/** KMS in AWS: every seal and open of member credentials is a KMS request. */
export function meteredCipher(inner: CredentialCipher, meter: Meter): CredentialCipher {
  return {
    seal: async (plaintext, context) => {
      meter.add('kms.requests');
      await meter.wait(IO_LATENCY_MS.kms);
      return inner.seal(plaintext, context);
    },
    open: async (sealed, context) => {
      meter.add('kms.requests');
      await meter.wait(IO_LATENCY_MS.kms);
      return inner.open(sealed, context);
    },
  };
}
