/**
 * Shared by the detector and scheduler tests: an in-memory object store that records every write, a
 * recording work queue and event recorder, and a reconcile context on a virtual clock.
 */
import type { KubeObject, ObjectRef } from '../../../lib/api/object.ts';
import { formatKey, parseApiVersion } from '../../../lib/api/object.ts';
import { VirtualClock } from '../../../lib/clock/index.ts';
import { MemoryEventRecorder } from '../../../lib/events/recorder.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import type { EnqueueItem, WorkQueue } from '../../../lib/queue/port.ts';
import type { BatchScope, ReconcileContext } from '../../../lib/reconcile/controller.ts';
import { MemoryRowStore, type ObjectStore, RowObjectStore } from '../../../lib/store/index.ts';

export type WriteOp = 'create' | 'update' | 'updateStatus' | 'updateWithStatus' | 'delete';

/** One write that reached the store (`key` as `formatKey`). */
export interface Write {
  op: WriteOp;
  key: string;
  object?: KubeObject;
}

/** The key of an object (`Deployment.apps/default/web`). */
export function keyOf(obj: KubeObject): string {
  return formatKey(refOf(obj));
}

export function refOf(obj: KubeObject): ObjectRef {
  const { group } = parseApiVersion(obj.apiVersion);
  return {
    group,
    kind: obj.kind,
    name: obj.metadata.name!,
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
  };
}

/** An ObjectStore that records the writes made through it (reads pass straight through). */
export interface RecordingStore extends ObjectStore {
  readonly writes: Write[];
  /** Forgets the writes recorded so far. */
  reset(): void;
  /** Writes recorded to the object with this key. */
  writesTo(key: string): Write[];
}

export function recordingStore(inner: ObjectStore): RecordingStore {
  const writes: Write[] = [];
  const record = async (op: WriteOp, obj: KubeObject, run: () => Promise<KubeObject>) => {
    const out = await run();
    writes.push({ op, key: keyOf(obj), object: out });
    return out;
  };
  return {
    writes,
    reset: () => void writes.splice(0),
    writesTo: (key) => writes.filter((w) => w.key === key),
    create: (obj, o) => record('create', obj, () => inner.create(obj, o)),
    update: (obj, o) => record('update', obj, () => inner.update(obj, o)),
    updateStatus: (obj, o) => record('updateStatus', obj, () => inner.updateStatus(obj, o)),
    updateWithStatus: (obj, o) => record('updateWithStatus', obj, () => inner.updateWithStatus(obj, o)),
    async delete(ref, o) {
      const out = await inner.delete(ref, o);
      writes.push({ op: 'delete', key: formatKey(ref), object: out.object });
      return out;
    },
    get: (ref) => inner.get(ref),
    list: (q) => inner.list(q),
    listRefs: (q) => inner.listRefs(q),
    listDependents: (uid, q) => inner.listDependents(uid, q),
  };
}

export function recordingQueue(): WorkQueue & { items: EnqueueItem[] } {
  const items: EnqueueItem[] = [];
  return {
    items,
    async enqueue(batch) {
      items.push(...batch);
    },
  };
}

const logger = createLogger({ format: 'json', level: 'SILENT', service: 'test', write: () => {} });

/** A fresh store (writes recorded), queue and event recorder on a virtual clock. */
export function world() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
  const store = recordingStore(new RowObjectStore(new MemoryRowStore(), { clock }));
  const queue = recordingQueue();
  const events = new MemoryEventRecorder();
  return {
    clock,
    store,
    queue,
    events,
    /** A reconcile context at the clock's time, in `batch` when given. */
    context(batch?: BatchScope): ReconcileContext {
      return { logger, reconcileId: 'r', now: clock.now(), ...(batch ? { batch } : {}) };
    },
    /** Creates `obj`, then writes its `status` (the store drops status on create). */
    async seed<T extends KubeObject>(obj: T): Promise<T> {
      const created = await store.create(obj);
      if (obj.status === undefined) return created as T;
      return (await store.updateStatus({ ...created, status: obj.status })) as T;
    },
  };
}
