/**
 * Namespace auto-propagation (Karmada's namespace sync controller): every namespace created on the
 * control plane appears on every member cluster, no policy needed — except reserved ones
 * (`karmada-system`, `karmada-cluster`, `karmada-es-*`), `default`, `kube-*`, and those labelled
 * `namespace.karmada.io/skip-auto-propagation: "true"`. One Work per namespace per cluster, owned by
 * the Namespace; deleting the namespace deletes the Works, and the executor the member namespaces.
 * A new cluster gets every namespace. ClusterOverridePolicies that select a namespace apply to it per
 * cluster (lib/core/work/namespace.ts), and a change of one re-renders the namespaces it selects.
 */
import { CLUSTER, CLUSTER_OVERRIDE_POLICY, executionNamespace, WORK } from '../api/karmada-names.ts';
import type { ObjectRef } from '../api/object.ts';
import { formatKey, parseKey } from '../api/object.ts';
import type { Cluster } from '../core/model/types.ts';
import type { OverridePolicy } from '../core/overrides/index.ts';
import { generateWorkName, namespacesSelectedBy, namespaceShouldBeSynced, namespaceWork } from '../core/work/index.ts';
import type { Lane, WorkQueue } from '../queue/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import { listAll } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { deepEqual } from '../util/json.ts';
import { EXECUTOR_CONTROLLER_NAME, NAMESPACE_SYNC_CONTROLLER_NAME } from './specs.ts';

const NAMESPACE = { group: '', kind: 'Namespace' } as const;

export interface NamespaceSyncOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
}

export function createNamespaceSyncController(options: NamespaceSyncOptions): Controller {
  const { store } = options;
  return {
    name: NAMESPACE_SYNC_CONTROLLER_NAME,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      if (ref.group === CLUSTER.group && ref.kind === CLUSTER.kind) {
        // A cluster joined or changed: every namespace is checked against it.
        const namespaces = await listAll(store, NAMESPACE);
        await options.workQueue.enqueue(
          namespaces.filter(namespaceShouldBeSynced).map((ns) => ({
            controller: NAMESPACE_SYNC_CONTROLLER_NAME,
            lane: 'standard' as const,
            key: formatKey({ ...NAMESPACE, name: ns.metadata.name! }),
            reason: `cluster:${ref.name}`,
          })),
        );
        return undefined;
      }
      if (ref.group === CLUSTER_OVERRIDE_POLICY.group && ref.kind === CLUSTER_OVERRIDE_POLICY.kind) {
        // Overrides of namespaces changed: the namespaces it selects (all of them when it is gone).
        const cop = (await store.get(ref)) as OverridePolicy | undefined;
        const selected = cop ? namespacesSelectedBy(cop) : 'all';
        const names =
          selected === 'all'
            ? (await listAll(store, NAMESPACE)).filter(namespaceShouldBeSynced).map((ns) => ns.metadata.name!)
            : selected;
        await options.workQueue.enqueue(
          names.map((name) => ({
            controller: NAMESPACE_SYNC_CONTROLLER_NAME,
            lane: request.lane,
            key: formatKey({ ...NAMESPACE, name }),
            reason: 'cluster-override-policy',
          })),
        );
        return undefined;
      }
      if (ref.group !== '' || ref.kind !== 'Namespace') return undefined;
      return syncNamespace(ref.name, request.lane, context);
    },
  };

  async function syncNamespace(
    name: string,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<ReconcileResult | undefined> {
    const ns = await store.get({ ...NAMESPACE, name });
    const [clusters, clusterOverridePolicies] = await Promise.all([
      listAll(store, CLUSTER) as Promise<Cluster[]>,
      listAll(store, CLUSTER_OVERRIDE_POLICY) as Promise<OverridePolicy[]>,
    ]);
    const wanted = ns && !ns.metadata.deletionTimestamp && namespaceShouldBeSynced(ns);
    const touched: ObjectRef[] = [];
    let retry = false;
    for (const cluster of clusters) {
      const clusterName = cluster.metadata.name!;
      const ref: ObjectRef = {
        ...WORK,
        namespace: executionNamespace(clusterName),
        name: generateWorkName('Namespace', name),
      };
      const existing = await store.get(ref);
      if (!wanted || cluster.metadata.deletionTimestamp) {
        if (existing && !existing.metadata.deletionTimestamp) {
          const deleted = await tryWrite(() => store.delete(ref));
          if (deleted.ok) touched.push(ref);
          else if (deleted.reason !== 'gone') retry = true;
        }
        continue;
      }
      if (existing?.metadata.deletionTimestamp) {
        retry = true;
        continue;
      }
      const built = namespaceWork({ namespace: ns, cluster, existing, clusterOverridePolicies });
      if (!built.ok) {
        context.logger.warn('overrides of the namespace could not apply; retried', {
          cluster: clusterName,
          detail: built.error,
        });
        retry = true;
        continue;
      }
      const desired = built.work;
      if (existing && deepEqual(existing.spec, desired.spec) && deepEqual(existing.metadata, desired.metadata))
        continue;
      // A lost race is retried; a Work (or its execution namespace) gone meanwhile is the cluster's deletion.
      const written = await tryWrite(() => (existing ? store.update(desired) : store.create(desired)));
      if (written.ok) touched.push(ref);
      else if (written.reason !== 'gone') retry = true;
    }
    if (touched.length > 0) {
      context.logger.info(wanted ? 'namespace propagated' : 'namespace withdrawn', { works: touched.length });
      await options.workQueue.enqueue(
        touched.map((r) => ({ controller: EXECUTOR_CONTROLLER_NAME, lane, key: formatKey(r), reason: 'namespace' })),
      );
    }
    return retry ? { requeueAfterMs: 1_000 } : undefined;
  }
}
