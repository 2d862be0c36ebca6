/** Reads every page of a list. */
import { clusterOfExecutionNamespace, WORK } from '../api/karmada-names.ts';
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

/**
 * The Works indexed under `ownerId` (a binding's permanent id, a quota's uid), each with the cluster of
 * its execution namespace —
 * only those on clusters `select` keeps (all by default), so a caller reads no Work it does not want.
 */
export async function listDependentWorks(
  store: ObjectStore,
  ownerId: string,
  select: (cluster: string) => boolean = () => true,
): Promise<{ cluster: string; work: KubeObject }[]> {
  const refs = (await listAllDependents(store, ownerId)).filter((r) => {
    const cluster = clusterOfExecutionNamespace(r.namespace);
    return r.group === WORK.group && r.kind === WORK.kind && cluster !== undefined && select(cluster);
  });
  const works = await Promise.all(refs.map((r) => store.get(r)));
  return works.flatMap((work) => {
    const cluster = work && clusterOfExecutionNamespace(work.metadata.namespace);
    return work && cluster ? [{ cluster, work }] : [];
  });
}
