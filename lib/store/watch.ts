/**
 * Watch support for a process that owns all writes to its store (local mode, the member simulator):
 * a {@link WatchingStore} decorates an ObjectStore and publishes every successful write to a
 * {@link ChangeFeed}, which keeps a bounded history so a watch can start from a list's
 * resourceVersion (or learn that it is too old and must re-list, as Kubernetes answers with 410).
 * In AWS, writes happen in many Lambdas; there the API does not serve watches (docs/decisions/0005).
 */
import type { GroupKind, KubeObject, ObjectRef } from '../api/object.ts';
import { groupKindOf } from '../api/object.ts';
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

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeEvent {
  type: WatchEventType;
  object: KubeObject;
  /** The object's version after the change (for DELETED: a version newer than its last). */
  version: number;
}

export interface Subscription {
  /** Events after the requested version that were already in the history. */
  backlog: ChangeEvent[];
  /** Resolves with the next event(s), or `[]` when the subscription is closed. */
  next(signal?: AbortSignal): Promise<ChangeEvent[]>;
  close(): void;
}

/** The requested version is older than the history kept: re-list (Kubernetes' 410 Gone). */
export class HistoryExpiredError extends Error {
  override readonly name = 'HistoryExpiredError';
}

interface Subscriber {
  gk: GroupKind;
  queue: ChangeEvent[];
  wake: (() => void) | undefined;
  closed: boolean;
}

/** Publishes changes to subscribers and keeps the last `historySize` of them. */
export class ChangeFeed {
  readonly #history: ChangeEvent[] = [];
  readonly #historySize: number;
  readonly #subscribers = new Set<Subscriber>();
  readonly #listeners = new Set<(event: ChangeEvent) => void>();
  /** Versions at or below this may have fallen out of the history. */
  #horizon: number;

  constructor(options: { historySize?: number; startVersion: number }) {
    this.#historySize = options.historySize ?? 20_000;
    this.#horizon = options.startVersion;
  }

  /** Calls `listener` after every change (of any kind); returns the function that stops it. */
  onChange(listener: (event: ChangeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(event: ChangeEvent): void {
    for (const l of this.#listeners) l(event);
    this.#history.push(event);
    if (this.#history.length > this.#historySize)
      this.#horizon = Math.max(this.#horizon, this.#history.shift()!.version);
    const gk = groupKindOf(event.object);
    for (const s of this.#subscribers) {
      if (s.closed || s.gk.group !== gk.group || s.gk.kind !== gk.kind) continue;
      s.queue.push(event);
      s.wake?.();
    }
  }

  /**
   * Subscribes to changes of one kind after `sinceVersion`. Throws HistoryExpiredError when changes
   * after that version may already have been forgotten.
   */
  subscribe(gk: GroupKind, sinceVersion: number): Subscription {
    if (sinceVersion < this.#horizon) {
      throw new HistoryExpiredError(`too old resource version: ${sinceVersion} (${this.#horizon})`);
    }
    const backlog = this.#history.filter((e) => e.version > sinceVersion && sameKind(e.object, gk));
    const sub: Subscriber = { gk, queue: [], wake: undefined, closed: false };
    this.#subscribers.add(sub);
    return {
      backlog,
      next: (signal) =>
        new Promise<ChangeEvent[]>((resolve) => {
          const drain = () => {
            sub.wake = undefined;
            signal?.removeEventListener('abort', onAbort);
            resolve(sub.queue.splice(0));
          };
          const onAbort = () => drain();
          if (sub.queue.length > 0 || sub.closed || signal?.aborted) return drain();
          sub.wake = drain;
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      close: () => {
        sub.closed = true;
        this.#subscribers.delete(sub);
        sub.wake?.();
      },
    };
  }
}

function sameKind(obj: KubeObject, gk: GroupKind): boolean {
  const k = groupKindOf(obj);
  return k.group === gk.group && k.kind === gk.kind;
}

/** An ObjectStore that reports every successful (non-dry-run) write to a ChangeFeed. */
export class WatchingStore implements ObjectStore {
  readonly #inner: ObjectStore;
  readonly feed: ChangeFeed;

  constructor(inner: ObjectStore, feed: ChangeFeed) {
    this.#inner = inner;
    this.feed = feed;
  }

  async create(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    const created = await this.#inner.create(obj, options);
    if (!options?.dryRun) this.#publish('ADDED', created);
    return created;
  }

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.#inner.get(ref);
  }

  list(query: ListQuery): Promise<ListPage> {
    return this.#inner.list(query);
  }

  listRefs(query: Omit<ListQuery, 'labelSelector'>): Promise<ListPage<ListedRef>> {
    return this.#inner.listRefs(query);
  }

  listDependents(ownerUid: string, query?: DependentsQuery): Promise<ListPage<ObjectRef>> {
    return this.#inner.listDependents(ownerUid, query);
  }

  async update(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    const before = obj.metadata.resourceVersion;
    const updated = await this.#inner.update(obj, options);
    if (!options?.dryRun) this.#publishUpdate(before, updated);
    return updated;
  }

  async updateStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    const before = obj.metadata.resourceVersion;
    const updated = await this.#inner.updateStatus(obj, options);
    if (!options?.dryRun) this.#publishUpdate(before, updated);
    return updated;
  }

  async updateWithStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject> {
    const before = obj.metadata.resourceVersion;
    const updated = await this.#inner.updateWithStatus(obj, options);
    if (!options?.dryRun) this.#publishUpdate(before, updated);
    return updated;
  }

  async delete(ref: ObjectRef, options?: DeleteOptions): Promise<DeleteResult> {
    const result = await this.#inner.delete(ref, options);
    if (!options?.dryRun) {
      if (result.removed) this.#publish('DELETED', result.object, Number(result.object.metadata.resourceVersion) + 1);
      else this.#publish('MODIFIED', result.object);
    }
    return result;
  }

  #publishUpdate(before: string | undefined, updated: KubeObject): void {
    // The last finalizer removed: the store deleted the object and returned it as it was.
    if (updated.metadata.deletionTimestamp && (updated.metadata.finalizers ?? []).length === 0) {
      this.#publish('DELETED', updated, Number(updated.metadata.resourceVersion) + 1);
      return;
    }
    if (updated.metadata.resourceVersion !== before) this.#publish('MODIFIED', updated);
  }

  #publish(type: WatchEventType, object: KubeObject, version = Number(object.metadata.resourceVersion)): void {
    this.feed.publish({ type, object, version });
  }
}
