/**
 * The row store: the few primitive operations the object store needs from a database. The DynamoDB
 * adapter implements it in ~150 lines of marshalling; the in-memory fake implements it for unit tests.
 * Everything Kubernetes-specific lives above it, in {@link RowObjectStore}.
 */
import type { RowKeys, SortKeyRange } from './layout.ts';

/** One stored object. */
export interface Row extends RowKeys {
  version: number;
  /** The encoded object (see codec.ts). */
  body: Uint8Array;
  /**
   * Epoch seconds after which the row is dead (DynamoDB's TTL attribute): reads treat it as absent
   * at once, and the database deletes it later (DynamoDB within days; local mode by a sweep).
   */
  expiresAt?: number;
  /** `byOwner` index partition: the uid of the object's controller (or first) owner, if any. */
  ownerKey?: string;
}

/**
 * The condition a write must meet. `absent` also holds over a row that expired before
 * `expiredBefore` (epoch seconds), which a create may replace.
 */
export type WriteCondition = { kind: 'absent'; expiredBefore?: number } | { kind: 'version'; version: number };

/** A conditional write either succeeded or found something else stored (returned when known). */
export type WriteOutcome = { ok: true } | { ok: false; current: Row | undefined };

/** Which secondary index to read. */
export type IndexName = 'byKind' | 'byCluster' | 'byOwner';

export interface IndexQuery {
  index: IndexName;
  /**
   * `kindShard` for byKind, `clusterKey` for byCluster, the owner's uid for byOwner (whose rows are
   * sorted by, and return as `sortKey`, the object key `pk`; always keys only).
   */
  partition: string;
  range: SortKeyRange;
  limit: number;
  /** Return only sort keys, versions and expiry (no bodies). */
  keysOnly?: boolean;
}

/** A row as an index returns it. `body` is absent for keys-only queries (and `version` for `byOwner`'s). */
export interface IndexRow {
  sortKey: string;
  version?: number;
  body?: Uint8Array;
  expiresAt?: number;
}

export interface IndexPage {
  /** In ascending sort-key order (UTF-8 byte order). */
  rows: IndexRow[];
  /** True when the range holds nothing after the last row returned. */
  exhausted: boolean;
}

export interface RowStore {
  /** Largest row the database accepts, in bytes (DynamoDB: 400 KB). */
  readonly maxRowBytes: number;
  get(pk: string): Promise<Row | undefined>;
  put(row: Row, condition: WriteCondition): Promise<WriteOutcome>;
  /** Deletes the row if it still has `version`. */
  delete(pk: string, version: number): Promise<WriteOutcome>;
  query(query: IndexQuery): Promise<IndexPage>;
}

/** True when the row has expired at `nowMs`. */
export function isExpired(row: { expiresAt?: number }, nowMs: number): boolean {
  return row.expiresAt !== undefined && row.expiresAt * 1000 <= nowMs;
}

/**
 * Bytes a row occupies as DynamoDB counts them (attribute names plus values). Adapters use the same
 * short attribute names, so one estimate serves all.
 */
export function rowBytes(row: Row): number {
  const str = (name: string, value: string | undefined) =>
    value === undefined ? 0 : name.length + Buffer.byteLength(value, 'utf8');
  return (
    str('pk', row.pk) +
    str('ks', row.kindShard) +
    str('sk', row.sortKey) +
    str('ck', row.clusterKey) +
    str('ow', row.ownerKey) +
    2 +
    21 + // "v" + number
    1 +
    row.body.length + // "b" + binary
    (row.expiresAt === undefined ? 0 : 23) // "xa" + number
  );
}
