/**
 * The {@link ObjectStore} over any {@link RowStore}: Kubernetes semantics (semantics.ts), encoding
 * (codec.ts), keys and pagination (layout.ts). One conditional write per object write; a stale
 * version becomes a {@link ConflictError} carrying the current object.
 */
import { SAFE_ALPHABET } from '../util/strings.ts';
import { randomUUID } from 'node:crypto';
import type { Requirement } from '../api/labels.ts';
import { fromLabelSelector, InvalidSelectorError, matchesRequirements, parseSelector } from '../api/labels.ts';
import type { GroupKind, KubeObject, ObjectRef } from '../api/object.ts';
import { parseKey, refOf } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import { decodeBody, encodeBody } from './codec.ts';
import { AlreadyExistsError, BadRequestError, ConflictError, NotFoundError, TooLargeError } from './errors.ts';
import type { SortKeyRange } from './layout.ts';
import {
  clusterIndexKey,
  compareSortKeys,
  decodeContinue,
  decodeDependentsContinue,
  encodeContinue,
  encodeDependentsContinue,
  KIND_SHARDS,
  kindShardKey,
  kindShardsOf,
  ownerKeyOf,
  rangeFor,
  refFromSortKey,
  rowKeysOf,
} from './layout.ts';
import type {
  DeleteOptions,
  DeleteResult,
  DependentsQuery,
  ListedRef,
  ListPage,
  ListQuery,
  ObjectStore,
  WriteOptions,
} from './port.ts';
import { KindShardLayout } from './kind-shards.ts';
import type { IndexName, IndexRow, Row, RowStore } from './rows.ts';
import { isExpired, rowBytes } from './rows.ts';
import type { Stamp } from './semantics.ts';
import { nextVersion, prepareCreate, prepareDelete, prepareStatusUpdate, prepareUpdate } from './semantics.ts';

export interface RowObjectStoreOptions {
  clock: Clock;
  /** Source of uids (default: random UUIDs). */
  newUid?: () => string;
  /** Source of randomness for `generateName` suffixes (default: Math.random). */
  random?: () => number;
  /**
   * Seconds objects of a kind live after their last write (Kubernetes' `--event-ttl` for Events);
   * undefined keeps them until deleted. Expired objects read as absent at once.
   */
  ttlSeconds?: (gk: GroupKind) => number | undefined;
  /**
   * How long after the store's re-index of the single-shard kinds an earlier version of the code may
   * still write to the table (lib/store/kind-shards.ts): the function timeout in AWS, 0 (the default)
   * where nothing else writes it.
   */
  previousVersionGraceMs?: number;
}

/** Characters Kubernetes uses for `generateName` suffixes (no vowels, no look-alikes). */
const MAX_GENERATED_BASE = 58;
/** Attempts of a delete without preconditions that keeps racing with writers. */
const DELETE_ATTEMPTS = 5;

export class RowObjectStore implements ObjectStore {
  readonly #rows: RowStore;
  readonly #clock: Clock;
  readonly #newUid: () => string;
  readonly #random: () => number;
  readonly #ttlSeconds: (gk: GroupKind) => number | undefined;
  readonly #layout: KindShardLayout;

  constructor(rows: RowStore, options: RowObjectStoreOptions) {
    this.#rows = rows;
    this.#clock = options.clock;
    this.#newUid = options.newUid ?? randomUUID;
    this.#random = options.random ?? Math.random;
    this.#ttlSeconds = options.ttlSeconds ?? (() => undefined);
    this.#layout = new KindShardLayout(rows, { clock: options.clock, graceMs: options.previousVersionGraceMs ?? 0 });
  }

  async create(obj: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    const generate = !obj.metadata?.name && Boolean(obj.metadata?.generateName);
    for (let attempt = 0; ; attempt++) {
      const candidate = generate ? this.#withGeneratedName(obj) : obj;
      const ref = refOf(candidate);
      const nowMs = this.#clock.now();
      // A create cannot see the version of an earlier incarnation of the name (its row is gone), so
      // the sub-millisecond digits are random: a delete and re-create within one millisecond still
      // gets a new version, except with probability 1/1000.
      const stamp = this.#stamp(nowMs, undefined);
      stamp.version += Math.floor(this.#random() * 1000);
      const created = prepareCreate(ref, candidate, stamp);
      const row = this.#toRow(ref, created);
      if (options.dryRun) return created;
      const outcome = await this.#rows.put(row, { kind: 'absent', expiredBefore: Math.floor(nowMs / 1000) + 1 });
      if (outcome.ok) return created;
      // A generated name collided: draw another, as the API server's callers would.
      if (generate && attempt < 4) continue;
      throw new AlreadyExistsError(ref, await this.#currentObject(ref, outcome.current));
    }
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const row = await this.#live(ref);
    return row ? decodeBody(row.body) : undefined;
  }

  /**
   * Deletes the rows of a kind that have expired (DynamoDB's TTL does this in AWS, eventually; local
   * mode and tests call it). Returns the objects it removed (as they were), for watchers.
   */
  async purgeExpired(gk: GroupKind): Promise<KubeObject[]> {
    const expired: IndexRow[] = [];
    await this.#scan(
      { ...gk },
      true,
      (row) => {
        if (isExpired(row, this.#clock.now())) expired.push(row);
        return 0;
      },
      true,
    );
    const removed: KubeObject[] = [];
    for (const row of expired) {
      const pk = rowKeysOf(refFromSortKey(gk, row.sortKey)).pk;
      const current = await this.#rows.get(pk);
      if (current && isExpired(current, this.#clock.now()) && (await this.#rows.delete(pk, current.version)).ok)
        removed.push(decodeBody(current.body));
    }
    return removed;
  }

  /** The row of `ref` unless it is absent or expired. */
  async #live(ref: ObjectRef): Promise<Row | undefined> {
    const row = await this.#rows.get(rowKeysOf(ref).pk);
    return row && !isExpired(row, this.#clock.now()) ? row : undefined;
  }

  async update(obj: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    const ref = refOf(obj);
    return this.#modify(ref, obj, options, (current, stamp) => prepareUpdate(ref, current, obj, stamp));
  }

  async updateStatus(obj: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    const ref = refOf(obj);
    return this.#modify(ref, obj, options, (current, stamp) => prepareStatusUpdate(ref, current, obj, stamp));
  }

  async updateWithStatus(obj: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    const ref = refOf(obj);
    return this.#modify(ref, obj, options, (current, stamp) => prepareUpdate(ref, current, obj, stamp, true));
  }

  /**
   * Deletes (or marks for deletion) an object. Without preconditions a delete is not tied to the
   * version read, so a write that lands in between is retried here, as the API server retries its
   * etcd conditional delete; with preconditions such a race is the caller's conflict.
   */
  async delete(ref: ObjectRef, options: DeleteOptions = {}): Promise<DeleteResult> {
    for (let attempt = 1; ; attempt++) {
      const row = await this.#live(ref);
      if (!row) throw new NotFoundError(ref);
      const current = decodeBody(row.body);
      const decision = prepareDelete(ref, current, options.preconditions, this.#stamp(this.#clock.now(), row.version));
      if (decision.action === 'none') return { object: current, removed: false };
      if (options.dryRun) return { object: decision.object, removed: decision.action === 'remove' };
      const outcome =
        decision.action === 'remove'
          ? await this.#rows.delete(row.pk, row.version)
          : await this.#rows.put(this.#toRow(ref, decision.object), { kind: 'version', version: row.version });
      if (outcome.ok)
        return {
          object: decision.action === 'remove' ? current : decision.object,
          removed: decision.action === 'remove',
        };
      const unconditional = !options.preconditions?.resourceVersion && !options.preconditions?.uid;
      if (!unconditional || attempt >= DELETE_ATTEMPTS) throw await this.#conflict(ref, outcome.current);
    }
  }

  async list(query: ListQuery): Promise<ListPage> {
    const requirements = compileSelector(query.labelSelector);
    const items: KubeObject[] = [];
    const page = await this.#scan(query, false, (row) => {
      const obj = decodeBody(row.body!);
      if (matchesRequirements(requirements, obj.metadata.labels)) items.push(obj);
      return items.length;
    });
    return { items, ...page };
  }

  async listDependents(ownerUid: string, options: DependentsQuery = {}): Promise<ListPage<ObjectRef>> {
    const after = options.continue ? decodeDependentsContinue(options.continue, ownerUid) : undefined;
    const limit = options.limit && options.limit > 0 ? options.limit : 500;
    const page = await this.#rows.query({
      index: 'byOwner',
      partition: ownerUid,
      range: after !== undefined ? { after } : {},
      limit,
      keysOnly: true,
    });
    const items = page.rows.map((r) => parseKey(r.sortKey));
    const last = page.rows[page.rows.length - 1]?.sortKey;
    return {
      items,
      resourceVersion: String(nextVersion(undefined, this.#clock.now())),
      ...(!page.exhausted && last !== undefined ? { continue: encodeDependentsContinue(ownerUid, last) } : {}),
    };
  }

  async listRefs(query: Omit<ListQuery, 'labelSelector'>): Promise<ListPage<ListedRef>> {
    const items: ListedRef[] = [];
    const page = await this.#scan(query, true, (row) => {
      const ref: ListedRef = refFromSortKey(query, row.sortKey);
      if (row.version !== undefined) ref.resourceVersion = String(row.version);
      items.push(ref);
      return items.length;
    });
    return { items, ...page };
  }

  /**
   * Walks the list's index partitions in merged sort order, handing each row to `take` (which returns
   * how many items the page now holds) until the limit is reached or the range is exhausted.
   */
  async #scan(
    query: Omit<ListQuery, 'labelSelector'>,
    keysOnly: boolean,
    take: (row: IndexRow) => number,
    includeExpired = false,
  ): Promise<{ continue?: string; resourceVersion: string }> {
    const limit = query.limit && query.limit > 0 ? query.limit : undefined;
    const after = query.continue ? decodeContinue(query.continue, query, query.namespace, query.cluster) : undefined;
    const range = rangeFor(query.namespace, after);
    // A kind written to one partition is read from it once the table's re-index is confirmed.
    const shards =
      kindShardsOf(query) < KIND_SHARDS && (await this.#layout.singlePartition()) ? kindShardsOf(query) : KIND_SHARDS;
    const partitions: { index: IndexName; partition: string }[] = query.cluster
      ? [{ index: 'byCluster', partition: clusterIndexKey(query, query.cluster) }]
      : Array.from({ length: shards }, (_, shard) => ({
          index: 'byKind',
          partition: kindShardKey(query, shard),
        }));
    const pageSize = limit ? Math.min(500, Math.max(16, Math.ceil(limit / partitions.length) + 8)) : 500;
    const merge = new MergedIndexScan(this.#rows, partitions, range, pageSize, keysOnly);

    let last: string | undefined;
    let count = 0;
    for (;;) {
      if (limit !== undefined && count >= limit) break;
      const row = await merge.next();
      if (!row) break;
      last = row.sortKey;
      if (!includeExpired && isExpired(row, this.#clock.now())) continue;
      count = take(row);
    }
    const resourceVersion = String(nextVersion(undefined, this.#clock.now()));
    if (last !== undefined && limit !== undefined && (await merge.hasMore())) {
      return { continue: encodeContinue(query, query.namespace, query.cluster, last), resourceVersion };
    }
    return { resourceVersion };
  }

  async #modify(
    ref: ObjectRef,
    incoming: KubeObject,
    options: WriteOptions,
    decide: (current: KubeObject, stamp: Stamp) => { object: KubeObject; changed: boolean; remove: boolean },
  ): Promise<KubeObject> {
    const held = this.#held(ref, incoming, options);
    const live = held ? undefined : await this.#live(ref);
    const row = held ?? (live && { pk: live.pk, version: live.version, object: decodeBody(live.body) });
    if (!row) throw new NotFoundError(ref);
    const current = row.object;
    const decision = decide(current, this.#stamp(this.#clock.now(), row.version));
    if (!decision.changed) return decision.object;
    // Encoding checks the size limit, so a dry run reports "too large" exactly as a real write would.
    const next = decision.remove ? undefined : this.#toRow(ref, decision.object);
    // Nothing is written, so the version stays what it is (as the API server answers a dry run).
    if (options.dryRun)
      return {
        ...decision.object,
        metadata: { ...decision.object.metadata, resourceVersion: current.metadata.resourceVersion },
      };
    const outcome = next
      ? await this.#rows.put(next, { kind: 'version', version: row.version })
      : await this.#rows.delete(row.pk, row.version);
    if (!outcome.ok) throw await this.#conflict(ref, outcome.current);
    return decision.object;
  }

  /**
   * The caller's copy of the object as the row to write against (`WriteOptions.current`), when it is
   * usable: same object, the version the write is made against, and — for a kind whose objects expire —
   * written recently enough that its row cannot have expired (an expired row must read as absent).
   */
  #held(
    ref: ObjectRef,
    incoming: KubeObject,
    options: WriteOptions,
  ): { pk: string; version: number; object: KubeObject } | undefined {
    const held = options.current;
    const version = Number(held?.metadata.resourceVersion);
    if (!held || !Number.isSafeInteger(version)) return undefined;
    const ttl = this.#ttlSeconds(ref);
    // A row expires at the whole second after its last write plus the TTL (`#toRow`): a copy written
    // more recently than that, less the second, cannot be of an expired row.
    if (ttl !== undefined) {
      const at = options.currentWrittenAt;
      if (at === undefined || this.#clock.now() >= at + (ttl - 1) * 1000) return undefined;
    }
    if (held.metadata.resourceVersion !== incoming.metadata?.resourceVersion) return undefined;
    const { pk } = rowKeysOf(ref);
    if (rowKeysOf(refOf(held)).pk !== pk) return undefined;
    return { pk, version, object: held };
  }

  #stamp(nowMs: number, previousVersion: number | undefined): Stamp {
    return { nowMs, version: nextVersion(previousVersion, nowMs), uid: this.#newUid() };
  }

  #toRow(ref: ObjectRef, object: KubeObject): Row {
    const { bytes, jsonBytes } = encodeBody(object);
    const row: Row = { ...rowKeysOf(ref), version: Number(object.metadata.resourceVersion), body: bytes };
    const ttl = this.#ttlSeconds(ref);
    if (ttl !== undefined) row.expiresAt = Math.floor(this.#clock.now() / 1000) + ttl;
    const owner = ownerKeyOf(object);
    if (owner) row.ownerKey = owner;
    const size = rowBytes(row);
    if (size > this.#rows.maxRowBytes) throw new TooLargeError(ref, jsonBytes, size, this.#rows.maxRowBytes);
    return row;
  }

  /** The conflict error for a failed conditional write, with the current object (read if not returned). */
  async #conflict(ref: ObjectRef, current: Row | undefined): Promise<ConflictError> {
    const obj = await this.#currentObject(ref, current);
    return new ConflictError(ref, obj, obj ? 'the object has been modified' : 'the object has been deleted');
  }

  async #currentObject(ref: ObjectRef, current: Row | undefined): Promise<KubeObject | undefined> {
    if (current && !isExpired(current, this.#clock.now())) return decodeBody(current.body);
    if (current) return undefined;
    return this.get(ref);
  }

  #withGeneratedName(obj: KubeObject): KubeObject {
    const base = (obj.metadata.generateName ?? '').slice(0, MAX_GENERATED_BASE);
    let suffix = '';
    for (let i = 0; i < 5; i++) suffix += SAFE_ALPHABET[Math.floor(this.#random() * SAFE_ALPHABET.length)];
    return { ...obj, metadata: { ...obj.metadata, name: base + suffix } };
  }
}

function compileSelector(selector: ListQuery['labelSelector']): readonly Requirement[] {
  try {
    if (selector === undefined) return [];
    if (typeof selector === 'string') return parseSelector(selector);
    if (Array.isArray(selector)) return selector as readonly Requirement[];
    return fromLabelSelector(selector as Exclude<typeof selector, string | readonly Requirement[]>);
  } catch (err) {
    if (err instanceof InvalidSelectorError) throw new BadRequestError(`invalid labelSelector: ${err.message}`);
    throw err;
  }
}

interface Cursor {
  index: IndexName;
  partition: string;
  buffer: IndexRow[];
  after: string | undefined;
  exhausted: boolean;
}

/**
 * A k-way merge over several index partitions, each read lazily one page at a time, yielding rows in
 * global sort-key order. Only partitions whose buffer runs dry are read again.
 */
class MergedIndexScan {
  readonly #cursors: Cursor[];
  readonly #rows: RowStore;
  readonly #range: SortKeyRange;
  readonly #pageSize: number;
  readonly #keysOnly: boolean;

  constructor(
    rows: RowStore,
    partitions: { index: IndexName; partition: string }[],
    range: SortKeyRange,
    pageSize: number,
    keysOnly: boolean,
  ) {
    this.#rows = rows;
    this.#range = range;
    this.#pageSize = pageSize;
    this.#keysOnly = keysOnly;
    this.#cursors = partitions.map((p) => ({ ...p, buffer: [], after: range.after, exhausted: false }));
  }

  async next(): Promise<IndexRow | undefined> {
    await this.#refill();
    let best: Cursor | undefined;
    for (const c of this.#cursors) {
      const head = c.buffer[0];
      if (head && (!best || compareSortKeys(head.sortKey, best.buffer[0]!.sortKey) < 0)) best = c;
    }
    return best?.buffer.shift();
  }

  async hasMore(): Promise<boolean> {
    await this.#refill();
    return this.#cursors.some((c) => c.buffer.length > 0);
  }

  /** Reads the next page of every partition whose buffer is empty, in parallel. */
  async #refill(): Promise<void> {
    for (;;) {
      const dry = this.#cursors.filter((c) => c.buffer.length === 0 && !c.exhausted);
      if (dry.length === 0) return;
      await Promise.all(
        dry.map(async (c) => {
          const range: SortKeyRange = { ...this.#range };
          if (c.after !== undefined) range.after = c.after;
          const page = await this.#rows.query({
            index: c.index,
            partition: c.partition,
            range,
            limit: this.#pageSize,
            keysOnly: this.#keysOnly,
          });
          c.buffer = page.rows;
          c.exhausted = page.exhausted || page.rows.length === 0;
          if (page.rows.length > 0) c.after = page.rows[page.rows.length - 1]!.sortKey;
        }),
      );
    }
  }
}
