/**
 * An in-memory {@link RowStore} with DynamoDB's semantics (conditional writes, 400 KB rows, indexes
 * in UTF-8 sort order) for unit tests and the deterministic simulation. Not for local mode, which
 * runs the real adapter against dynalite.
 */
import { compareSortKeys, inRange } from './layout.ts';
import type { IndexPage, IndexQuery, IndexRow, Row, RowStore, WriteCondition, WriteOutcome } from './rows.ts';

/** A row as {@link MemoryRowStore.exportRows} writes it: the body as base64. */
export type ExportedRow = Omit<Row, 'body'> & { body: string };

export class MemoryRowStore implements RowStore {
  readonly maxRowBytes: number;
  readonly #rows = new Map<string, Row>();
  /** Keys of the rows of each index partition, so a query touches its partition only. */
  readonly #partitions = {
    byKind: new Map<string, Set<string>>(),
    byCluster: new Map<string, Set<string>>(),
    byOwner: new Map<string, Set<string>>(),
  };
  /** Counts of calls, for tests that assert how many writes a reconcile makes. */
  readonly calls = { get: 0, put: 0, delete: 0, query: 0 };

  constructor(options: { maxRowBytes?: number } = {}) {
    this.maxRowBytes = options.maxRowBytes ?? 400 * 1024;
  }

  get size(): number {
    return this.#rows.size;
  }

  /** Every row, serialisable (bodies as base64): to keep an in-memory store across restarts. */
  exportRows(): ExportedRow[] {
    return [...this.#rows.values()].map((r) => ({ ...r, body: Buffer.from(r.body).toString('base64') }));
  }

  /** Loads rows written by {@link exportRows} (replacing rows with the same key). */
  importRows(rows: readonly ExportedRow[]): void {
    for (const r of rows) this.#set({ ...r, body: new Uint8Array(Buffer.from(r.body, 'base64')) });
  }

  #index(row: Row, add: boolean): void {
    const entries: [Map<string, Set<string>>, string | undefined][] = [
      [this.#partitions.byKind, row.kindShard],
      [this.#partitions.byCluster, row.clusterKey],
      [this.#partitions.byOwner, row.ownerKey],
    ];
    for (const [index, partition] of entries) {
      if (partition === undefined) continue;
      let keys = index.get(partition);
      if (add) {
        if (!keys) index.set(partition, (keys = new Set()));
        keys.add(row.pk);
      } else if (keys) {
        keys.delete(row.pk);
        if (keys.size === 0) index.delete(partition);
      }
    }
  }

  #set(row: Row): void {
    const current = this.#rows.get(row.pk);
    if (current) this.#index(current, false);
    this.#rows.set(row.pk, row);
    this.#index(row, true);
  }

  async get(pk: string): Promise<Row | undefined> {
    this.calls.get++;
    return this.#rows.get(pk);
  }

  async put(row: Row, condition: WriteCondition): Promise<WriteOutcome> {
    this.calls.put++;
    const current = this.#rows.get(row.pk);
    if (!matches(current, condition)) return { ok: false, current };
    this.#set({ ...row, body: row.body.slice() });
    return { ok: true };
  }

  async delete(pk: string, version: number): Promise<WriteOutcome> {
    this.calls.delete++;
    const current = this.#rows.get(pk);
    if (!matches(current, { kind: 'version', version })) return { ok: false, current };
    this.#rows.delete(pk);
    if (current) this.#index(current, false);
    return { ok: true };
  }

  async query(q: IndexQuery): Promise<IndexPage> {
    this.calls.query++;
    const inPartition = [...(this.#partitions[q.index].get(q.partition) ?? [])].map((pk) => this.#rows.get(pk)!);
    if (q.index === 'byOwner') {
      const owned = inPartition.filter((r) => inRange(r.pk, q.range)).sort((a, b) => compareSortKeys(a.pk, b.pk));
      return {
        rows: owned.slice(0, q.limit).map((r) => ({ sortKey: r.pk })),
        exhausted: owned.length <= q.limit,
      };
    }
    const matching = inPartition
      .filter((r) => inRange(r.sortKey, q.range))
      .sort((a, b) => compareSortKeys(a.sortKey, b.sortKey));
    const page = matching.slice(0, q.limit);
    return {
      rows: page.map((r) => {
        const row: IndexRow = q.keysOnly
          ? { sortKey: r.sortKey, version: r.version }
          : { sortKey: r.sortKey, version: r.version, body: r.body };
        if (r.expiresAt !== undefined) row.expiresAt = r.expiresAt;
        return row;
      }),
      exhausted: matching.length <= q.limit,
    };
  }
}

function matches(current: Row | undefined, condition: WriteCondition): boolean {
  if (condition.kind === 'version') return current?.version === condition.version;
  return (
    current === undefined ||
    (condition.expiredBefore !== undefined &&
      current.expiresAt !== undefined &&
      current.expiresAt < condition.expiredBefore)
  );
}
