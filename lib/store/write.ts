/**
 * The expected ways a conditional write loses, as values. Controllers write with optimistic
 * concurrency: another writer may have moved the object on (a conflict), it may be gone, or a create
 * may find the name taken. Those are outcomes a level-triggered reconcile handles (requeue, skip,
 * retry on the latest version); anything else is a bug or an I/O failure and throws.
 */
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { AlreadyExistsError, ConflictError, NotFoundError } from './errors.ts';
import type { ObjectStore } from './port.ts';

/** What one conditional write came to. */
export type WriteAttempt<T> =
  | { ok: true; object: T }
  | { ok: false; reason: 'conflict'; current: KubeObject | undefined }
  | { ok: false; reason: 'gone' }
  | { ok: false; reason: 'exists'; current: KubeObject | undefined };

/** Runs one write; a conflict, a missing object or a taken name is returned, anything else thrown. */
export async function tryWrite<T>(write: () => Promise<T>): Promise<WriteAttempt<T>> {
  try {
    return { ok: true, object: await write() };
  } catch (err) {
    if (err instanceof ConflictError) return { ok: false, reason: 'conflict', current: err.current };
    if (err instanceof NotFoundError) return { ok: false, reason: 'gone' };
    if (err instanceof AlreadyExistsError) return { ok: false, reason: 'exists', current: err.current };
    throw err;
  }
}

/** What {@link updateLatest} came to. */
export type LatestUpdate =
  | { status: 'written'; object: KubeObject }
  | { status: 'unchanged'; object: KubeObject }
  | { status: 'gone' }
  /** Still losing after every attempt: the object keeps changing; try again later. */
  | { status: 'conflict' };

/**
 * Applies one change to the latest version of an object until it sticks: `change` gets the object
 * as stored and returns what to write, or undefined when there is nothing to do. A conflict retries
 * from the version the conflict carried (no re-read); a vanished object ends it.
 */
export async function updateLatest(
  store: ObjectStore,
  start: KubeObject | ObjectRef,
  change: (current: KubeObject) => KubeObject | undefined,
  options: { attempts?: number; write?: 'update' | 'updateStatus' | 'updateWithStatus' } = {},
): Promise<LatestUpdate> {
  const attempts = options.attempts ?? 5;
  let current: KubeObject | undefined = 'metadata' in start ? start : await store.get(start);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (!current) return { status: 'gone' };
    const next = change(current);
    if (!next) return { status: 'unchanged', object: current };
    const result = await tryWrite(() => store[options.write ?? 'update'](next));
    if (result.ok) return { status: 'written', object: result.object };
    if (result.reason === 'gone') return { status: 'gone' };
    current = result.reason === 'conflict' ? result.current : undefined;
  }
  return { status: 'conflict' };
}
