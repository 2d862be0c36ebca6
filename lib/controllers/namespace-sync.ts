/**
 * Namespace auto-propagation (Karmada's namespace sync controller): every namespace created on the
 * control plane appears on every member cluster, no policy needed — except reserved ones
 * (`karmada-system`, `karmada-cluster`, `karmada-es-*`), `default`, `kube-*`, and those labelled
 * `namespace.karmada.io/skip-auto-propagation: "true"`. One Work per namespace per cluster, owned by
 * the Namespace; deleting the namespace deletes the Works, and the executor the member namespaces.
 * A new cluster gets every namespace.
 */
import {
  CONFLICT_RESOLUTION_ANNOTATION,
  CONFLICT_RESOLUTION_OVERWRITE,
  EXECUTION_CONTROLLER_FINALIZER,
  MANAGED_BY_KARMADA_LABEL,
  MANAGED_BY_KARMADA_LABEL_VALUE,
  SKIP_AUTO_PROPAGATION_LABEL,
} from '../api/well-known.ts';
import { CLUSTER, EXECUTION_NAMESPACE_PREFIX, executionNamespace, WORK, WORK_GROUP } from '../api/karmada-names.ts';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { formatKey, parseKey } from '../api/object.ts';
import { generateWorkName } from '../core/work/index.ts';
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

/** True when Karmada propagates this namespace to members (`namespaceShouldBeSynced`). */
export function namespaceShouldBeSynced(ns: KubeObject): boolean {
  const name = ns.metadata.name ?? '';
  if (name === 'default' || name === 'karmada-system' || name === 'karmada-cluster') return false;
  if (name.startsWith(EXECUTION_NAMESPACE_PREFIX) || /^kube-.*$/.test(name)) return false;
  return ns.metadata.labels?.[SKIP_AUTO_PROPAGATION_LABEL] !== 'true';
}

/** The Work that carries namespace `ns` to `cluster`. */
function namespaceWork(ns: KubeObject, cluster: string, existing?: KubeObject): KubeObject {
  const name = ns.metadata.name!;
  const manifest: KubeObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: { ...(ns.metadata.labels ?? {}), [MANAGED_BY_KARMADA_LABEL]: MANAGED_BY_KARMADA_LABEL_VALUE },
      // A namespace often exists on a member already: it is adopted.
      annotations: {
        ...(ns.metadata.annotations ?? {}),
        [CONFLICT_RESOLUTION_ANNOTATION]: CONFLICT_RESOLUTION_OVERWRITE,
      },
    },
  };
  delete manifest.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration'];
  const finalizers = [...(existing?.metadata.finalizers ?? [])];
  if (!finalizers.includes(EXECUTION_CONTROLLER_FINALIZER)) finalizers.push(EXECUTION_CONTROLLER_FINALIZER);
  return {
    apiVersion: `${WORK_GROUP}/v1alpha1`,
    kind: 'Work',
    metadata: {
      ...(existing?.metadata ?? {}),
      name: generateWorkName('Namespace', name),
      namespace: executionNamespace(cluster),
      finalizers,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          name,
          uid: ns.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { workload: { manifests: [manifest] } },
    ...(existing?.status ? { status: existing.status } : {}),
  };
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
    const clusters = await listAll(store, CLUSTER);
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
      const desired = namespaceWork(ns, clusterName, existing);
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
