/**
 * The garbage collector (kube-controller-manager's, which Karmada's control plane runs): when an
 * owner is deleted, its dependents — objects whose ownerReferences name its uid — follow it.
 *
 * - Background (the default): once the owner is gone, each dependent is deleted, unless another of
 *   its owners still exists, in which case only the dangling reference is removed.
 * - Foreground: the API marks the owner with the `foregroundDeletion` finalizer; the collector
 *   deletes the dependents and removes the finalizer once no dependent with `blockOwnerDeletion`
 *   is left, so the owner goes last.
 * - Orphan: the API marks the owner with the `orphan` finalizer; the collector removes the owner's
 *   references from its dependents, then the finalizer.
 *
 * A key is `<object key>@<uid>`: the uid finds the dependents (the store's byOwner index) even after
 * the owner is gone, and tells a new object of the same name from the deleted one. Keys arrive from
 * accepted API deletes and from the collector's own deletes (so deletion cascades down the tree).
 * An owner still waiting on other finalizers is looked at again until it is gone.
 */
import type { KubeObject, ObjectRef, OwnerReference } from '../api/object.ts';
import { formatKey, parseApiVersion, parseKey, refOf } from '../api/object.ts';
import type { WorkQueue } from '../queue/port.ts';
import { GARBAGE_COLLECTOR_NAME } from './specs.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import { ConflictError, NotFoundError } from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';

export const GARBAGE_COLLECTOR = GARBAGE_COLLECTOR_NAME;
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const ORPHAN_FINALIZER = 'orphan';

/** How soon to look again at an owner that is not gone yet, or whose dependents are not. */
const RECHECK_MS = 2_000;
const WRITE_ATTEMPTS = 5;

/** The collector's key for an object: its key and its uid. */
export function collectorKey(obj: KubeObject): string {
  return `${formatKey(refOf(obj))}@${obj.metadata.uid ?? ''}`;
}

export function parseCollectorKey(key: string): { ref: ObjectRef; uid: string } {
  const at = key.lastIndexOf('@');
  if (at < 0 || at === key.length - 1) {
    throw new Error(`malformed garbage-collector key ${JSON.stringify(key)}: expected <object key>@<uid>`);
  }
  return { ref: parseKey(key.slice(0, at)), uid: key.slice(at + 1) };
}

/** Tells the collector that these objects were deleted (or marked for deletion). */
export async function enqueueGarbageCollection(
  workQueue: WorkQueue,
  objects: readonly KubeObject[],
  reason: string,
): Promise<void> {
  const withUid = objects.filter((o) => o.metadata.uid);
  if (withUid.length === 0) return;
  await workQueue.enqueue(
    withUid.map((o) => ({ controller: GARBAGE_COLLECTOR, lane: 'priority' as const, key: collectorKey(o), reason })),
  );
}

export interface GarbageCollectorOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
}

export function createGarbageCollector(options: GarbageCollectorOptions): Controller {
  const { store } = options;
  return {
    name: GARBAGE_COLLECTOR,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const { ref, uid } = parseCollectorKey(request.key);
      const owner = await store.get(ref);
      if (owner && owner.metadata.uid === uid) {
        if (!owner.metadata.deletionTimestamp) return undefined;
        const finalizers = owner.metadata.finalizers ?? [];
        if (finalizers.includes(ORPHAN_FINALIZER)) {
          const orphaned = await orphanDependents(store, uid);
          context.logger.info('orphaned the dependents of a deleted owner', { dependents: orphaned });
          return (await removeFinalizer(store, ref, uid, ORPHAN_FINALIZER)) ? undefined : { requeueAfterMs: 0 };
        }
        if (finalizers.includes(FOREGROUND_FINALIZER)) {
          const { blocking, deleted } = await deleteDependents(options, uid, context);
          if (blocking > 0) {
            context.logger.info('waiting for dependents before removing the owner', { blocking, deleted });
            return { requeueAfterMs: RECHECK_MS };
          }
          return (await removeFinalizer(store, ref, uid, FOREGROUND_FINALIZER)) ? undefined : { requeueAfterMs: 0 };
        }
        // Other finalizers hold the owner: its dependents go once it is gone.
        return { requeueAfterMs: RECHECK_MS };
      }
      const { deleted, kept } = await deleteDependents(options, uid, context);
      if (deleted + kept > 0) context.logger.info('collected the dependents of a deleted owner', { deleted, kept });
      return undefined;
    },
  };
}

/** The owner references of `dependent` that name `uid`. */
function referencesTo(dependent: KubeObject, uid: string): OwnerReference[] {
  return (dependent.metadata.ownerReferences ?? []).filter((r) => r.uid === uid);
}

async function* dependentsOf(store: ObjectStore, uid: string): AsyncGenerator<KubeObject> {
  let token: string | undefined;
  do {
    const page = await store.listDependents(uid, { limit: 500, ...(token ? { continue: token } : {}) });
    for (const ref of page.items) {
      const dependent = await store.get(ref);
      // The index is eventually consistent: trust only the object itself.
      if (dependent && referencesTo(dependent, uid).length > 0) yield dependent;
    }
    token = page.continue;
  } while (token);
}

/** True when the owner a reference names still exists (same uid), in the dependent's namespace or cluster-wide. */
async function ownerExists(store: ObjectStore, dependent: KubeObject, ref: OwnerReference): Promise<boolean> {
  const { group } = parseApiVersion(ref.apiVersion);
  const candidates: ObjectRef[] = [{ group, kind: ref.kind, name: ref.name }];
  if (dependent.metadata.namespace)
    candidates.unshift({ group, kind: ref.kind, namespace: dependent.metadata.namespace, name: ref.name });
  for (const candidate of candidates) {
    const found = await store.get(candidate);
    if (found?.metadata.uid === ref.uid) return true;
  }
  return false;
}

/**
 * Deletes the dependents of `uid`, except those another live owner still holds (which only lose
 * the dangling reference). Returns how many were deleted or kept, and how many dependents with
 * `blockOwnerDeletion` still exist (marked, waiting on their own finalizers).
 */
async function deleteDependents(
  options: GarbageCollectorOptions,
  uid: string,
  context: ReconcileContext,
): Promise<{ deleted: number; kept: number; blocking: number }> {
  const { store } = options;
  let deleted = 0;
  let kept = 0;
  let blocking = 0;
  for await (const dependent of dependentsOf(store, uid)) {
    const others = (dependent.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
    let solid = false;
    for (const other of others) if (await ownerExists(store, dependent, other)) solid = true;
    if (solid) {
      await dropReferences(store, refOf(dependent), uid);
      kept++;
      continue;
    }
    const blocks = referencesTo(dependent, uid).some((r) => r.blockOwnerDeletion);
    if (dependent.metadata.deletionTimestamp) {
      if (blocks) blocking++;
      continue;
    }
    try {
      const result = await store.delete(refOf(dependent), { preconditions: { uid: dependent.metadata.uid! } });
      deleted++;
      if (!result.removed && blocks) blocking++;
      await enqueueGarbageCollection(options.workQueue, [result.object], 'owner-deleted');
    } catch (err) {
      if (err instanceof NotFoundError) continue;
      if (err instanceof ConflictError) {
        // Replaced by a new object of the same name: not a dependent any more.
        context.logger.debug('dependent changed while being collected', { dependent: formatKey(refOf(dependent)) });
        continue;
      }
      throw err;
    }
  }
  return { deleted, kept, blocking };
}

/** Removes `uid`'s references from every dependent. */
async function orphanDependents(store: ObjectStore, uid: string): Promise<number> {
  let count = 0;
  for await (const dependent of dependentsOf(store, uid)) {
    await dropReferences(store, refOf(dependent), uid);
    count++;
  }
  return count;
}

async function dropReferences(store: ObjectStore, ref: ObjectRef, uid: string): Promise<void> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await store.get(ref);
    if (!current || referencesTo(current, uid).length === 0) return;
    const ownerReferences = (current.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
    const metadata = { ...current.metadata, ownerReferences };
    if (ownerReferences.length === 0) delete (metadata as { ownerReferences?: unknown }).ownerReferences;
    try {
      await store.update({ ...current, metadata });
      return;
    } catch (err) {
      if (err instanceof NotFoundError) return;
      if (!(err instanceof ConflictError) || attempt === WRITE_ATTEMPTS) throw err;
    }
  }
}

/** Removes one finalizer from the owner; false when it kept changing (try again). */
async function removeFinalizer(store: ObjectStore, ref: ObjectRef, uid: string, finalizer: string): Promise<boolean> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await store.get(ref);
    if (!current || current.metadata.uid !== uid) return true;
    const finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    try {
      await store.update({ ...current, metadata: { ...current.metadata, finalizers } });
      return true;
    } catch (err) {
      if (err instanceof NotFoundError) return true;
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  return false;
}
