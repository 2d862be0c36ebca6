/**
 * A member's list into the search cache chunk by chunk (core `chunks.ts`): pages from the member are
 * cut into content-defined chunks; a chunk whose fingerprint the last sync recorded for the same key
 * range is skipped, any other is handed to `sync` — the collector syncs it into the cache like a page
 * ({@link syncPage}), a Pull agent posts it. So a member whose objects did not change costs its list
 * and no cache read; one changed object costs one chunk (~256 entries) read and one write.
 */
import type { KubeObject } from '../api/object.ts';
import { cacheKeyOf, chunkFingerprint, chunkRecord, isChunkBoundary, MAX_CHUNK } from '../core/index.ts';
import type { MemberPage } from './member-pages.ts';
import type { PageSync } from './sync.ts';

/** Syncs one chunk's key range; `complete` when the cache now equals it. */
export type ChunkSink = (chunk: PageSync) => Promise<{ complete: boolean; written?: number; removed?: number }>;

/** The sync ran out of its time budget: what it did is kept (chunks recorded so far), the rest is next. */
export class SyncBudgetExceeded extends Error {
  override readonly name = 'SyncBudgetExceeded';
}

export class ChunkedSync {
  readonly #sink: ChunkSink;
  readonly #previous: ReadonlySet<string>;
  /** The chunks of this sync, to record. */
  readonly chunks: string[] = [];
  readonly stats = { chunksSkipped: 0, chunksSynced: 0, written: 0, removed: 0 };
  #prefix: string | undefined;
  #after: string | undefined;
  #items: KubeObject[] = [];

  readonly #overBudget: () => boolean;

  /**
   * `overBudget` is asked after each chunk that had to be synced: when it says yes, the sync stops
   * with {@link SyncBudgetExceeded} and `chunks` holds what was done, so the next sync (which lists
   * the member again) skips it.
   */
  constructor(sink: ChunkSink, previousChunks: readonly string[] | undefined, overBudget: () => boolean = () => false) {
    this.#sink = sink;
    this.#previous = new Set(previousChunks ?? []);
    this.#overBudget = overBudget;
  }

  /** One page of the member's list, in list order. */
  async add(page: MemberPage): Promise<void> {
    if (page.first) {
      this.#prefix = page.prefix;
      this.#after = undefined;
      this.#items = [];
    }
    for (const item of page.items) {
      this.#items.push(item);
      if (isChunkBoundary(cacheKeyOf(item)) || this.#items.length >= MAX_CHUNK) await this.#close(false);
    }
    if (page.last) await this.#close(true);
  }

  async #close(last: boolean): Promise<void> {
    const items = this.#items;
    this.#items = [];
    const through = last ? undefined : cacheKeyOf(items[items.length - 1]!);
    const range = {
      ...(this.#prefix ? { prefix: this.#prefix } : {}),
      ...(this.#after !== undefined ? { after: this.#after } : {}),
      ...(through !== undefined ? { through } : {}),
    };
    const record = chunkRecord(
      range,
      chunkFingerprint(items.map((o) => ({ key: cacheKeyOf(o), resourceVersion: o.metadata.resourceVersion ?? '' }))),
    );
    if (this.#previous.has(record)) {
      this.stats.chunksSkipped++;
      this.chunks.push(record);
    } else {
      this.stats.chunksSynced++;
      const synced = await this.#sink({
        ...(this.#prefix ? { prefix: this.#prefix } : {}),
        ...(this.#after !== undefined ? { after: this.#after } : {}),
        items,
        last,
      });
      this.stats.written += synced.written ?? 0;
      this.stats.removed += synced.removed ?? 0;
      // Only a chunk the cache now equals is recorded: one with a lost write is compared again next time.
      if (synced.complete) this.chunks.push(record);
      if (this.#overBudget()) throw new SyncBudgetExceeded(`synced ${this.stats.chunksSynced} chunks`);
    }
    if (through !== undefined) this.#after = through;
  }
}
