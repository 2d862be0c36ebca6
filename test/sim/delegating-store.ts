/**
 * An ObjectStore that passes every call to `inner` except those `overrides` replaces: how the
 * simulation puts a watch or a fault in front of the store without restating the whole port.
 */
import type { ObjectStore } from '../../lib/store/port.ts';

export function delegatingStore(inner: ObjectStore, overrides: Partial<ObjectStore>): ObjectStore {
  return {
    create: (obj, o) => inner.create(obj, o),
    get: (ref) => inner.get(ref),
    list: (q) => inner.list(q),
    listRefs: (q) => inner.listRefs(q),
    listDependents: (uid, q) => inner.listDependents(uid, q),
    update: (obj, o) => inner.update(obj, o),
    updateStatus: (obj, o) => inner.updateStatus(obj, o),
    updateWithStatus: (obj, o) => inner.updateWithStatus(obj, o),
    delete: (ref, o) => inner.delete(ref, o),
    ...overrides,
  };
}
