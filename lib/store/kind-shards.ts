/**
 * The one re-index of the table's `byKind` index: the kinds of {@link kindShardsOf} that used to be
 * spread over eight partitions are written to one, and a list of them reads that one partition once
 * every entry is there (docs/decisions/0020-single-shard-kinds.md).
 *
 * A table written by an earlier version holds entries of those kinds in partitions 1–7. Until a marker
 * row says the re-index is complete, lists keep reading all eight partitions (which include the new
 * one), so nothing is missed at any moment:
 *
 * 1. The first store that finds no marker moves every such entry to its partition (a conditional
 *    re-write of the row, same version: a concurrent write wins and is already in the new place) and
 *    writes the marker with the time.
 * 2. Where code of the earlier version may still be running (AWS, for the length of a function's
 *    timeout after a deploy), it may still write an entry in the old place: after that grace the first
 *    store to look moves those too and confirms the marker. Where nothing else writes (local mode, a
 *    simulation, a test) there is no grace and step 1 confirms at once.
 */
import type { KubeObject } from '../api/object.ts';
import { formatKey } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import { decodeBody, encodeBody } from './codec.ts';
import { KIND_SHARDS, kindShardKey, refFromSortKey, singleShardKinds } from './layout.ts';
import type { Row, RowStore, WriteCondition } from './rows.ts';

/** The marker row (no object key contains `|`). A later re-index of other kinds takes a new name. */
export const KIND_SHARDS_MARKER_PK = 'layout|single-shard-kinds-1';

/** The longest a Lambda function runs: how long a deploy's previous version may still write. */
export const PREVIOUS_VERSION_GRACE_MS = 15 * 60_000;

/** How long an answer of "not yet" is kept before the marker is read again. */
const RECHECK_MS = 60_000;

interface MarkerState {
  reindexedAt?: string;
  confirmedAt?: string;
}

export interface KindShardLayoutOptions {
  clock: Clock;
  /** How long after the first re-index code of an earlier version may still write (0: none runs). */
  graceMs: number;
}

/** Whether lists of the single-shard kinds may read only their one partition, found out once per store. */
export class KindShardLayout {
  readonly #rows: RowStore;
  readonly #clock: Clock;
  readonly #graceMs: number;
  #confirmed = false;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #checking: Promise<boolean> | undefined;

  constructor(rows: RowStore, options: KindShardLayoutOptions) {
    this.#rows = rows;
    this.#clock = options.clock;
    this.#graceMs = options.graceMs;
  }

  /** True once every entry of those kinds is in its one partition; until then lists read all eight. */
  async singlePartition(): Promise<boolean> {
    if (this.#confirmed) return true;
    if (this.#clock.now() - this.#checkedAt < RECHECK_MS) return false;
    this.#checking ??= this.#check().finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  async #check(): Promise<boolean> {
    const now = this.#clock.now();
    this.#checkedAt = now;
    const current = await this.#rows.get(KIND_SHARDS_MARKER_PK);
    const state = ((current ? decodeBody(current.body).spec : undefined) as MarkerState | undefined) ?? {};
    if (state.confirmedAt !== undefined) return (this.#confirmed = true);
    const stamp = new Date(now).toISOString();
    if (state.reindexedAt === undefined) {
      await reindexSingleShardKinds(this.#rows);
      const next: MarkerState = this.#graceMs > 0 ? { reindexedAt: stamp } : { reindexedAt: stamp, confirmedAt: stamp };
      const written = await this.#writeMarker(current, next);
      return (this.#confirmed = written && next.confirmedAt !== undefined);
    }
    if (now - Date.parse(state.reindexedAt) < this.#graceMs) return false;
    // The earlier version can no longer be writing: move what it wrote after step 1, then confirm.
    await reindexSingleShardKinds(this.#rows);
    return (this.#confirmed = await this.#writeMarker(current, { ...state, confirmedAt: stamp }));
  }

  /** Writes the marker unless another store changed it first (it is read again at the next check). */
  async #writeMarker(current: Row | undefined, state: MarkerState): Promise<boolean> {
    const object: KubeObject = {
      apiVersion: 'v1',
      kind: 'StoreLayout',
      metadata: { name: 'single-shard-kinds-1' },
      spec: { ...state },
    };
    const row: Row = {
      pk: KIND_SHARDS_MARKER_PK,
      kindShard: 'layout|',
      sortKey: 'single-shard-kinds-1',
      version: (current?.version ?? 0) + 1,
      body: encodeBody(object).bytes,
    };
    const condition: WriteCondition = current ? { kind: 'version', version: current.version } : { kind: 'absent' };
    return (await this.#rows.put(row, condition)).ok;
  }
}

/**
 * Moves every entry of the single-shard kinds found in partitions 1–7 to partition 0: the row is
 * re-written as it is with its new `kindShard`, on condition that its version did not change (a
 * newer write already put it there; a deleted row stays deleted). Returns how many rows moved.
 */
export async function reindexSingleShardKinds(rows: RowStore): Promise<number> {
  let moved = 0;
  for (const gk of singleShardKinds()) {
    const target = kindShardKey(gk, 0);
    for (let shard = 1; shard < KIND_SHARDS; shard++) {
      let after: string | undefined;
      for (;;) {
        const page = await rows.query({
          index: 'byKind',
          partition: kindShardKey(gk, shard),
          range: after !== undefined ? { after } : {},
          limit: 500,
          keysOnly: true,
        });
        for (const entry of page.rows) {
          const row = await rows.get(formatKey(refFromSortKey(gk, entry.sortKey)));
          if (!row || row.kindShard === target) continue;
          if ((await rows.put({ ...row, kindShard: target }, { kind: 'version', version: row.version })).ok) moved++;
        }
        after = page.rows.at(-1)?.sortKey;
        if (page.exhausted || after === undefined) break;
      }
    }
  }
  return moved;
}
