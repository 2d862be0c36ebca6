import type { LabelSelector, Requirement } from '../api/labels.ts';
import type { GroupKind, KubeObject, ObjectRef } from '../api/object.ts';

/** Options common to writes. */
export interface WriteOptions {
  /** Validate and compute the result without storing it (`?dryRun=All`). */
  dryRun?: boolean;
  /**
   * The object as the caller read it from this store, unchanged. An update whose `resourceVersion` is
   * this object's is decided against it and written conditionally on that version, without reading the
   * object again: one round trip instead of two. A stale copy is still a {@link ConflictError} (the
   * conditional write fails), never a lost update.
   */
  current?: KubeObject;
  /**
   * When `current` was returned by a write of this store (ms on the store's clock). Required for a copy
   * of a kind whose objects expire (Events): such a copy is used only while its row cannot have expired
   * since that write — an expired object reads as absent, and a bump must not revive it. Otherwise the
   * object is read first, as without `current`.
   */
  currentWrittenAt?: number;
}

/** Preconditions a delete must meet (`DeleteOptions.preconditions`). */
export interface DeleteOptions extends WriteOptions {
  preconditions?: { resourceVersion?: string; uid?: string };
}

/** Outcome of a delete. */
export interface DeleteResult {
  /** The object as it was removed, or as it now stands marked for deletion. */
  object: KubeObject;
  /**
   * `true` when the object is gone. `false` when it has finalizers: it now carries a
   * `deletionTimestamp` and disappears when the last finalizer is removed by an update.
   */
  removed: boolean;
}

/** What to list. One group/kind at a time, as a Kubernetes LIST is one resource. */
export interface ListQuery extends GroupKind {
  /** Restrict to one namespace; absent lists every namespace (or a cluster-scoped kind). */
  namespace?: string;
  /** Only objects whose member cluster is this one (Works: from `karmada-es-<cluster>`), via the index. */
  cluster?: string;
  /** String form (`app=web,!canary`), structured form, or compiled requirements. */
  labelSelector?: string | LabelSelector | readonly Requirement[];
  /** At most this many items (a page may hold fewer and still have a continue token). */
  limit?: number;
  /** The token a previous page returned. */
  continue?: string;
}

/** A page of the objects one owner owns (`byOwner`). */
export interface DependentsQuery {
  limit?: number;
  continue?: string;
}

/** One page of a list. */
export interface ListPage<T = KubeObject> {
  items: T[];
  /** Present when more items may follow. */
  continue?: string;
  /** A version newer than any item returned (the store has no global revision; see docs/decisions). */
  resourceVersion: string;
}

/** A name as `listRefs` returns it: the object's resource version too when the store keeps it in its index. */
export interface ListedRef extends ObjectRef {
  resourceVersion?: string;
}

/**
 * The object store: Kubernetes-style objects with optimistic concurrency.
 *
 * - `metadata.uid`, `creationTimestamp`, `resourceVersion` and `generation` are owned by the store.
 * - Every write is one conditional write of one object. No transactions.
 * - A stale `resourceVersion` is a {@link ConflictError} carrying the current object.
 * - `update` never changes `status`; `updateStatus` changes only `status` and never `generation`.
 * - Objects with finalizers are marked (`deletionTimestamp`) on delete and removed when the last
 *   finalizer goes.
 * - `get` is strongly consistent; `list` reads an index and is eventually consistent (milliseconds).
 */
export interface ObjectStore {
  create(obj: KubeObject, options?: WriteOptions): Promise<KubeObject>;
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  /**
   * Every object a name names, for a list selecting `metadata.name=<name>`: a store that merges
   * several clusters (the search cache) may hold one per cluster, where `get` answers only when one
   * does. Stores without it hold at most one.
   */
  getAll?(ref: ObjectRef): Promise<KubeObject[]>;
  list(query: ListQuery): Promise<ListPage>;
  /**
   * Like `list` but returns only the names (and, where the store has them, resource versions) without
   * transferring or decoding bodies (resync, the member sync's check for change). The index projects
   * whole items, so DynamoDB still bills reads by item size.
   */
  listRefs(query: Omit<ListQuery, 'labelSelector'>): Promise<ListPage<ListedRef>>;
  /**
   * The objects whose controller owner reference (or, without one, first owner reference) has this
   * uid: what the garbage collector deletes or orphans. Eventually consistent, like `list`.
   */
  listDependents(ownerUid: string, query?: DependentsQuery): Promise<ListPage<ObjectRef>>;
  /** Replaces everything but `status`; requires `metadata.resourceVersion`. */
  update(obj: KubeObject, options?: WriteOptions): Promise<KubeObject>;
  /** Replaces only `status`; requires `metadata.resourceVersion`. */
  updateStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject>;
  /**
   * Replaces spec, metadata and `status` in one conditional write (a controller that decides both,
   * like the scheduler, writes once). `generation` is bumped as by `update` when the spec changes;
   * requires `metadata.resourceVersion`, so a caller can predict the generation it will get.
   */
  updateWithStatus(obj: KubeObject, options?: WriteOptions): Promise<KubeObject>;
  delete(ref: ObjectRef, options?: DeleteOptions): Promise<DeleteResult>;
}
