/**
 * The garbage collector (kube-controller-manager's, which Karmada's control plane runs): when an
 * owner is deleted, its dependents — objects whose ownerReferences name its uid — follow it.
 *
 * - Background (the default): once the owner is gone, each dependent is deleted, unless another of
 *   its owners still exists, in which case only the dangling reference is removed.
 * - Foreground: the API marks the owner with the `foregroundDeletion` finalizer; the collector
 *   deletes the dependents — those with `blockOwnerDeletion` in the foreground too, so their own
 *   dependents go first — and removes the finalizer once no blocking dependent is left.
 * - Orphan: the API marks the owner with the `orphan` finalizer; the collector removes the owner's
 *   references from its dependents, then the finalizer.
 *
 * Two kinds of key:
 * - `<object key>@<uid>`: an owner was deleted (or marked). The uid finds the dependents in the
 *   store's byOwner index even after the owner is gone, and tells a new object of the same name from
 *   the deleted one. Enqueued by accepted API deletes, by updates that remove an object, and by the
 *   collector's own deletes (so deletion cascades down the tree). The index is eventually consistent,
 *   so a background collection looks once more a few seconds later.
 * - `<object key>`: an object with owner references was written; if its owners are gone it is
 *   collected (a dependent created after, or just before, its owner's deletion).
 *
 * Deletion-protected objects (`resourcetemplate.karmada.io/deletion-protected: Always`) are not
 * deleted, as Karmada's webhook would refuse the collector's delete; they keep their reference.
 */
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../api/finalizers.ts';
import type { KubeObject, ObjectRef, OwnerReference } from '../api/object.ts';
import { formatKey, parseApiVersion, refOf } from '../api/object.ts';
import { DELETION_PROTECTED_LABEL, DELETION_PROTECTION_ALWAYS } from '../api/well-known.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite, updateLatest } from '../store/write.ts';
import { GARBAGE_COLLECTOR_NAME } from './specs.ts';
import { enqueueGarbageCollection, enqueueTriggered, parseCollectorKey } from './triggers.ts';

export { FOREGROUND_FINALIZER, ORPHAN_FINALIZER };
export const GARBAGE_COLLECTOR = GARBAGE_COLLECTOR_NAME;

/** How long the index may lag a write: a background collection looks again after this. */
const INDEX_LAG_RECHECK_MS = 5_000;
/** Waiting on an owner (or blocking dependents): first recheck, doubling up to the cap. */
const WAIT_FIRST_MS = 2_000;
const WAIT_MAX_MS = 300_000;
const WRITE_ATTEMPTS = 5;
const RECHECK_REASON = 'gc-recheck';
const WAIT_REASON = 'gc-wait-';

export interface GarbageCollectorOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
}

export function createGarbageCollector(options: GarbageCollectorOptions): Controller {
  const { store, workQueue } = options;

  /** Looks at this owner key again later, each wait twice the last (reasons carry the count). */
  async function waitAndRetry(request: ReconcileRequest): Promise<undefined> {
    const waits = Math.max(
      0,
      ...request.reasons.filter((r) => r.startsWith(WAIT_REASON)).map((r) => Number(r.slice(WAIT_REASON.length)) || 0),
    );
    await workQueue.enqueue([
      {
        controller: GARBAGE_COLLECTOR,
        lane: 'standard',
        key: request.key,
        delayMs: Math.min(WAIT_MAX_MS, WAIT_FIRST_MS * 2 ** waits),
        reason: `${WAIT_REASON}${waits + 1}`,
      },
    ]);
    return undefined;
  }

  return {
    name: GARBAGE_COLLECTOR,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const { ref, uid } = parseCollectorKey(request.key);
      if (uid === undefined) {
        await checkOwners(options, ref, context);
        return undefined;
      }
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
          const { blocking, deleted, protectedCount } = await deleteDependents(options, uid, context, true);
          if (blocking > 0) {
            context.logger.info('waiting for dependents before removing the owner', {
              blocking,
              deleted,
              deletionProtected: protectedCount,
            });
            return waitAndRetry(request);
          }
          if (!(await removeFinalizer(store, ref, uid, FOREGROUND_FINALIZER))) return { requeueAfterMs: 0 };
          // Its own owners may be waiting on it (a foreground cascade): tell them now, not at their next wait.
          await notifyOwners(options, owner);
          return undefined;
        }
        // Other finalizers hold the owner: its dependents go once it is gone (an update that removes
        // it enqueues this key too; the backed-off wait is the safety net).
        return waitAndRetry(request);
      }
      const { deleted, kept, protectedCount } = await deleteDependents(options, uid, context, false);
      if (deleted + kept + protectedCount > 0)
        context.logger.info('collected the dependents of a deleted owner', {
          deleted,
          kept,
          deletionProtected: protectedCount,
        });
      if (!request.reasons.includes(RECHECK_REASON)) {
        // A dependent written just before the owner went may not have reached the index yet.
        await workQueue.enqueue([
          {
            controller: GARBAGE_COLLECTOR,
            lane: 'standard',
            key: request.key,
            delayMs: INDEX_LAG_RECHECK_MS,
            reason: RECHECK_REASON,
          },
        ]);
      }
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

/** The owner a reference names, if it exists with that uid (in the dependent's namespace or cluster-wide). */
async function findOwner(
  store: ObjectStore,
  dependent: KubeObject,
  ref: OwnerReference,
): Promise<KubeObject | undefined> {
  const { group } = parseApiVersion(ref.apiVersion);
  const candidates: ObjectRef[] = [{ group, kind: ref.kind, name: ref.name }];
  if (dependent.metadata.namespace)
    candidates.unshift({ group, kind: ref.kind, namespace: dependent.metadata.namespace, name: ref.name });
  for (const candidate of candidates) {
    const found = await store.get(candidate);
    if (found?.metadata.uid === ref.uid) return found;
  }
  return undefined;
}

/** Enqueues the owners that `dependent` blocks, so a foreground deletion waiting on it moves on. */
async function notifyOwners(options: GarbageCollectorOptions, dependent: KubeObject): Promise<void> {
  const owners: KubeObject[] = [];
  for (const ref of dependent.metadata.ownerReferences ?? []) {
    if (!ref.blockOwnerDeletion) continue;
    const owner = await findOwner(options.store, dependent, ref);
    if (owner?.metadata.deletionTimestamp) owners.push(owner);
  }
  await enqueueGarbageCollection(options.workQueue, owners, 'dependent-deleted');
}

/** True when the owner still holds its dependents: it exists and is not being deleted in the foreground. */
async function ownerHolds(store: ObjectStore, dependent: KubeObject, ref: OwnerReference): Promise<boolean> {
  const owner = await findOwner(store, dependent, ref);
  if (!owner) return false;
  return !(owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER));
}

function isDeletionProtected(obj: KubeObject): boolean {
  return obj.metadata.labels?.[DELETION_PROTECTED_LABEL] === DELETION_PROTECTION_ALWAYS;
}

/**
 * Deletes a dependent (in the foreground when asked: marked first so its own dependents go
 * before it), tells the controllers its kind triggers and the collector. Returns the object as it
 * now stands, or undefined when it was gone or replaced.
 */
async function deleteDependent(
  options: GarbageCollectorOptions,
  dependent: KubeObject,
  foreground: boolean,
): Promise<{ object: KubeObject; removed: boolean } | undefined> {
  const { store, workQueue } = options;
  const ref = refOf(dependent);
  const uid = dependent.metadata.uid!;
  // Whatever loses a race here — gone, or replaced by a new object of the same name (not a dependent
  // any more), or still changing — is left to the next pass.
  if (foreground && !(dependent.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) {
    const finalizers = [...(dependent.metadata.finalizers ?? []), FOREGROUND_FINALIZER];
    const marked = await tryWrite(() =>
      store.update({ ...dependent, metadata: { ...dependent.metadata, finalizers } }),
    );
    if (!marked.ok) return undefined;
  }
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const deleted = await tryWrite(() => store.delete(ref, { preconditions: { uid } }));
    if (deleted.ok) {
      await enqueueGarbageCollection(workQueue, [deleted.object.object], 'owner-deleted');
      await enqueueTriggered(workQueue, ref, [ref], 'garbage-collected');
      return deleted.object;
    }
    // A writer raced the delete: retry while it is still the same object.
    if (deleted.reason !== 'conflict' || deleted.current?.metadata.uid !== uid) return undefined;
  }
  return undefined;
}

/**
 * Deletes the dependents of `uid`, except those another live owner still holds (which only lose
 * the dangling reference) and deletion-protected ones. Returns the counts, and how many dependents
 * with `blockOwnerDeletion` still exist (marked, waiting on their own finalizers or dependents).
 */
async function deleteDependents(
  options: GarbageCollectorOptions,
  uid: string,
  context: ReconcileContext,
  foreground: boolean,
): Promise<{ deleted: number; kept: number; blocking: number; protectedCount: number }> {
  const { store } = options;
  let deleted = 0;
  let kept = 0;
  let blocking = 0;
  let protectedCount = 0;
  for await (const dependent of dependentsOf(store, uid)) {
    const blocks = referencesTo(dependent, uid).some((r) => r.blockOwnerDeletion);
    let held = false;
    for (const other of (dependent.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid)) {
      if (await ownerHolds(store, dependent, other)) held = true;
    }
    if (held) {
      await dropReferences(store, refOf(dependent), uid);
      kept++;
      continue;
    }
    if (isDeletionProtected(dependent)) {
      context.logger.warn('not collecting a deletion-protected dependent', { dependent: formatKey(refOf(dependent)) });
      protectedCount++;
      if (blocks) blocking++;
      continue;
    }
    if (dependent.metadata.deletionTimestamp) {
      if (blocks) blocking++;
      continue;
    }
    const result = await deleteDependent(options, dependent, foreground && blocks);
    if (!result) continue;
    deleted++;
    if (!result.removed && blocks) blocking++;
  }
  return { deleted, kept, blocking, protectedCount };
}

/**
 * A dependent check: an object written with owner references whose owners may be gone already.
 * All gone → collect it; some gone → drop those references.
 */
async function checkOwners(options: GarbageCollectorOptions, ref: ObjectRef, context: ReconcileContext): Promise<void> {
  const { store } = options;
  const dependent = await store.get(ref);
  const refs = dependent?.metadata.ownerReferences ?? [];
  if (!dependent || refs.length === 0 || dependent.metadata.deletionTimestamp) return;
  const gone: string[] = [];
  for (const owner of refs) {
    if (!(await findOwner(store, dependent, owner))) gone.push(owner.uid);
  }
  if (gone.length === 0) return;
  if (gone.length < refs.length) {
    for (const uid of gone) await dropReferences(store, ref, uid);
    return;
  }
  if (isDeletionProtected(dependent)) {
    context.logger.warn('not collecting a deletion-protected object whose owners are gone', {
      object: formatKey(ref),
    });
    return;
  }
  if (await deleteDependent(options, dependent, false))
    context.logger.info('collected an object whose owners are gone', { object: formatKey(ref) });
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
  const result = await updateLatest(
    store,
    ref,
    (current) => {
      if (referencesTo(current, uid).length === 0) return undefined;
      const ownerReferences = (current.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      const metadata = { ...current.metadata, ownerReferences };
      if (ownerReferences.length === 0) delete (metadata as { ownerReferences?: unknown }).ownerReferences;
      return { ...current, metadata };
    },
    { attempts: WRITE_ATTEMPTS },
  );
  // Still racing after every attempt: the message is retried.
  if (result.status === 'conflict')
    throw new Error(`${formatKey(ref)} kept changing while its owner reference was dropped`);
}

/** Removes one finalizer from the owner; false when it kept changing (try again). */
async function removeFinalizer(store: ObjectStore, ref: ObjectRef, uid: string, finalizer: string): Promise<boolean> {
  const result = await updateLatest(
    store,
    ref,
    (current) =>
      current.metadata.uid !== uid
        ? undefined
        : {
            ...current,
            metadata: {
              ...current.metadata,
              finalizers: (current.metadata.finalizers ?? []).filter((f) => f !== finalizer),
            },
          },
    { attempts: WRITE_ATTEMPTS },
  );
  return result.status !== 'conflict';
}
