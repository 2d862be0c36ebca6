/**
 * What a write enqueues, stated once. An accepted API write, a deletion by the namespace
 * controller, a cluster registered through a webhook, and the garbage collector's own deletes all
 * come here, so the controllers that must hear of a change (ControllerSpec.triggers) and the
 * garbage collector's keys are decided in one place.
 */
import type { GroupKind, KubeObject, ObjectRef } from '../api/object.ts';
import { formatKey, parseKey, refOf } from '../api/object.ts';
import type { WorkQueue } from '../queue/port.ts';
import { type ControllerSpec, controllersTriggeredBy, GARBAGE_COLLECTOR_NAME } from './specs.ts';

/**
 * Enqueues an object's key on the priority queue of every controller its kind triggers
 * (ControllerSpec.triggers): what an accepted API write, or a deletion by the namespace
 * controller, must do so controllers hear about it.
 */
export async function enqueueTriggered(
  workQueue: WorkQueue,
  gk: GroupKind,
  refs: readonly ObjectRef[],
  reason: string,
  specs?: readonly ControllerSpec[],
): Promise<void> {
  const controllers = controllersTriggeredBy(gk, specs);
  if (controllers.length === 0 || refs.length === 0) return;
  await workQueue.enqueue(
    controllers.flatMap((controller) =>
      refs.map((ref) => ({ controller, lane: 'priority' as const, key: formatKey(ref), reason })),
    ),
  );
}

/** An accepted API write, as far as what it enqueues goes. */
export interface AcceptedWrite {
  gk: GroupKind;
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  /** The object as written; for a DELETE, as deleted or as marked for deletion. */
  object: KubeObject;
  /** The object before the write, if there was one. */
  old: KubeObject | undefined;
}

/**
 * What an accepted API write enqueues: its key on every controller its kind triggers and, when a
 * garbage collector runs, the collector's owner key once the object is deleted (or an update
 * removed it by clearing its last finalizer), else a dependent check when its owner references
 * changed, as its owners may be gone already. Reasons read `api-<operation>`.
 */
export async function enqueueAfterWrite(
  workQueue: WorkQueue,
  write: AcceptedWrite,
  options: { garbageCollection: boolean; specs?: readonly ControllerSpec[] | undefined },
): Promise<void> {
  const { gk, object, old, operation } = write;
  const reason = `api-${operation.toLowerCase()}`;
  await enqueueTriggered(workQueue, gk, [refOf(object)], reason, options.specs);
  if (!options.garbageCollection) return;
  const removed =
    operation === 'UPDATE' && object.metadata.deletionTimestamp && (object.metadata.finalizers ?? []).length === 0;
  if (operation === 'DELETE' || removed) {
    await enqueueGarbageCollection(workQueue, [object], reason);
  } else if (
    JSON.stringify(object.metadata.ownerReferences ?? []) !== JSON.stringify(old?.metadata.ownerReferences ?? [])
  ) {
    // Its owners may be gone already: the collector checks.
    await enqueueOwnerCheck(workQueue, [object], reason);
  }
}

/**
 * The garbage collector's key for a deleted (or marked) owner: its key and its uid, which finds
 * its dependents in the byOwner index after it is gone and tells a new object of the same name
 * from it.
 */
export function collectorKey(obj: KubeObject): string {
  return `${formatKey(refOf(obj))}@${obj.metadata.uid ?? ''}`;
}

/**
 * A garbage-collector key read back: an owner key (`…@uid`, from {@link collectorKey}), or a
 * dependent check (a plain object key, from {@link enqueueOwnerCheck}).
 */
export function parseCollectorKey(key: string): { ref: ObjectRef; uid: string | undefined } {
  const at = key.lastIndexOf('@');
  if (at < 0) return { ref: parseKey(key), uid: undefined };
  if (at === key.length - 1) throw new Error(`malformed garbage-collector key ${JSON.stringify(key)}: empty uid`);
  return { ref: parseKey(key.slice(0, at)), uid: key.slice(at + 1) };
}

/** Tells the garbage collector that these objects were deleted (or marked for deletion). */
export async function enqueueGarbageCollection(
  workQueue: WorkQueue,
  objects: readonly KubeObject[],
  reason: string,
): Promise<void> {
  const withUid = objects.filter((o) => o.metadata.uid);
  if (withUid.length === 0) return;
  await workQueue.enqueue(
    withUid.map((o) => ({
      controller: GARBAGE_COLLECTOR_NAME,
      lane: 'priority' as const,
      key: collectorKey(o),
      reason,
    })),
  );
}

/** Asks the garbage collector to check the owners of objects just written with owner references. */
export async function enqueueOwnerCheck(
  workQueue: WorkQueue,
  objects: readonly KubeObject[],
  reason: string,
): Promise<void> {
  const owned = objects.filter((o) => (o.metadata.ownerReferences ?? []).length > 0);
  if (owned.length === 0) return;
  await workQueue.enqueue(
    owned.map((o) => ({
      controller: GARBAGE_COLLECTOR_NAME,
      lane: 'priority' as const,
      key: formatKey(refOf(o)),
      reason,
    })),
  );
}
