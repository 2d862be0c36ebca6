/** Reads every page of a list. */
import type { KubeObject, ObjectRef } from '../api/object.ts';
import type { ListedRef, ListQuery, ObjectStore } from './port.ts';

export async function listAll(store: ObjectStore, query: ListQuery): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  let token: string | undefined;
  do {
    const page = await store.list({ ...query, ...(token ? { continue: token } : {}) });
    out.push(...page.items);
    token = page.continue;
  } while (token);
  return out;
}

/** Reads every page of a names-only list (fan-outs that only need keys). */
export async function listAllRefs(store: ObjectStore, query: Omit<ListQuery, 'labelSelector'>): Promise<ListedRef[]> {
  const out: ListedRef[] = [];
  let token: string | undefined;
  do {
    const page = await store.listRefs({ ...query, ...(token ? { continue: token } : {}) });
    out.push(...page.items);
    token = page.continue;
  } while (token);
  return out;
}

/** Reads every page of the dependents index: the refs of the objects whose owner references name `uid`. */
export async function listAllDependents(store: ObjectStore, uid: string): Promise<ObjectRef[]> {
  const out: ObjectRef[] = [];
  let token: string | undefined;
  do {
    const page = await store.listDependents(uid, { limit: 500, ...(token ? { continue: token } : {}) });
    out.push(...page.items);
    token = page.continue;
  } while (token);
  return out;
}
