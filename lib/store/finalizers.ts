/**
 * Finalizer removal as controllers do it: one update conditional on the version read, so a concurrent
 * write is the caller's ConflictError (retry or requeue) rather than a lost change.
 */
import type { KubeObject } from '../api/object.ts';
import type { ObjectStore } from './port.ts';

/** `obj` without `finalizer`, or undefined when it does not carry it (nothing to write). */
export function withoutFinalizer(obj: KubeObject, finalizer: string): KubeObject | undefined {
  const finalizers = obj.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) return undefined;
  return { ...obj, metadata: { ...obj.metadata, finalizers: finalizers.filter((f) => f !== finalizer) } };
}

/**
 * Removes `finalizer` from `obj` (as read). Resolves to the stored object, or undefined when `obj` did
 * not carry it (nothing written). ConflictError and NotFoundError propagate.
 */
export async function removeFinalizer(
  store: ObjectStore,
  obj: KubeObject,
  finalizer: string,
): Promise<KubeObject | undefined> {
  const next = withoutFinalizer(obj, finalizer);
  return next ? store.update(next) : undefined;
}
