/**
 * The cluster controller (Karmada's `cluster` controller, lifecycle half): a new Cluster gets the
 * `karmada.io/cluster-controller` finalizer and its execution namespace `karmada-es-<name>`
 * (labelled `karmada.io/system: "true"`), where its Works live. A deleted Cluster has that namespace
 * deleted (the namespace controller empties it), and keeps its finalizer until the namespace is gone
 * and no ResourceBinding or ClusterResourceBinding still places workload on it. Health, status and
 * taints are the cluster-status controller's.
 */
import { executionNamespace, WORK_GROUP } from '../api/karmada-names.ts';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { CLUSTER_CONTROLLER_FINALIZER, KARMADA_SYSTEM_LABEL } from '../api/well-known.ts';
import { formatKey, parseKey } from '../api/object.ts';
import { agentCredentialSecretName, CREDENTIALS_NAMESPACE } from '../members/credentials.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import { AlreadyExistsError, NotFoundError } from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';
import { updateLatest } from '../store/write.ts';
import { CLUSTER_CONTROLLER_NAME, NAMESPACE_CONTROLLER_NAME } from './specs.ts';

/** How soon to look again while a deleted cluster's namespace or bindings remain (Karmada: 10 s). */
const DELETION_RECHECK_MS = 10_000;

export interface ClusterControllerOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
}

export function createClusterController(options: ClusterControllerOptions): Controller {
  const { store } = options;
  return {
    name: CLUSTER_CONTROLLER_NAME,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      const cluster = await store.get(ref);
      if (!cluster) return undefined;
      const name = cluster.metadata.name!;
      const finalizers = cluster.metadata.finalizers ?? [];
      if (cluster.metadata.deletionTimestamp) {
        if (!finalizers.includes(CLUSTER_CONTROLLER_FINALIZER)) return undefined;
        const remaining = await cleanUp(options, name, context);
        if (remaining) {
          context.logger.info('cluster deletion waits', { waitingFor: remaining });
          return { requeueAfterMs: DELETION_RECHECK_MS };
        }
        return (await setFinalizers(
          store,
          ref,
          finalizers.filter((f) => f !== CLUSTER_CONTROLLER_FINALIZER),
        ))
          ? undefined
          : { requeueAfterMs: 0 };
      }
      if (!finalizers.includes(CLUSTER_CONTROLLER_FINALIZER)) {
        if (!(await setFinalizers(store, ref, [...finalizers, CLUSTER_CONTROLLER_FINALIZER])))
          return { requeueAfterMs: 0 };
      }
      // A namespace of an earlier incarnation still terminating: look again soon.
      return (await ensureExecutionNamespace(options, name, context))
        ? undefined
        : { requeueAfterMs: DELETION_RECHECK_MS };
    },
  };
}

/** Creates the execution namespace if missing; false while an old one is still terminating. */
async function ensureExecutionNamespace(
  options: ClusterControllerOptions,
  cluster: string,
  context: ReconcileContext,
): Promise<boolean> {
  const name = executionNamespace(cluster);
  const ns = await options.store.get({ group: '', kind: 'Namespace', name });
  if (ns) return !ns.metadata.deletionTimestamp;
  try {
    const created = await options.store.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { [KARMADA_SYSTEM_LABEL]: 'true' }, finalizers: ['kubernetes'] },
      spec: { finalizers: ['kubernetes'] },
    });
    await tellNamespaceController(options.workQueue, refOfNs(created), 'cluster-joined');
    context.logger.info('created the execution namespace', { namespace: name });
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
  }
  return true;
}

/** The namespace controller makes it Active, or empties and removes it (its own queue only). */
function tellNamespaceController(workQueue: WorkQueue, ref: ObjectRef, reason: string): Promise<void> {
  return workQueue.enqueue([{ controller: NAMESPACE_CONTROLLER_NAME, lane: 'priority', key: formatKey(ref), reason }]);
}

function refOfNs(ns: KubeObject): ObjectRef {
  return { group: '', kind: 'Namespace', name: ns.metadata.name! };
}

/** Deletes the execution namespace; returns what is still in the way, or undefined when done. */
async function cleanUp(
  options: ClusterControllerOptions,
  cluster: string,
  context: ReconcileContext,
): Promise<string | undefined> {
  const { store } = options;
  const nsRef: ObjectRef = { group: '', kind: 'Namespace', name: executionNamespace(cluster) };
  const ns = await store.get(nsRef);
  if (ns) {
    if (!ns.metadata.deletionTimestamp) {
      try {
        await store.delete(nsRef);
        await tellNamespaceController(options.workQueue, nsRef, 'cluster-deleted');
        context.logger.info('deleting the execution namespace', { namespace: nsRef.name });
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    return `namespace ${nsRef.name}`;
  }
  const binding = await bindingOn(store, cluster);
  if (binding) return `${binding} still places workload on it`;
  // A Pull cluster's agent credential goes with it (a new Cluster of the same name gets its own).
  try {
    await store.delete({
      group: '',
      kind: 'Secret',
      namespace: CREDENTIALS_NAMESPACE,
      name: agentCredentialSecretName(cluster),
    });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  return undefined;
}

/** A (Cluster)ResourceBinding whose `spec.clusters` names the cluster, if any. */
async function bindingOn(store: ObjectStore, cluster: string): Promise<string | undefined> {
  for (const kind of ['ResourceBinding', 'ClusterResourceBinding']) {
    let token: string | undefined;
    do {
      const page = await store.list({ group: WORK_GROUP, kind, limit: 500, ...(token ? { continue: token } : {}) });
      for (const b of page.items) {
        const targets = ((b.spec as { clusters?: { name?: string }[] } | undefined)?.clusters ?? []).map((c) => c.name);
        if (targets.includes(cluster)) {
          return `${kind} ${b.metadata.namespace ? `${b.metadata.namespace}/` : ''}${b.metadata.name}`;
        }
      }
      token = page.continue;
    } while (token);
  }
  return undefined;
}

/** Sets the Cluster's finalizers; false when it kept changing under us. */
async function setFinalizers(store: ObjectStore, ref: ObjectRef, finalizers: string[]): Promise<boolean> {
  // Re-apply our one change to what is there now (others may have changed the list meanwhile).
  const result = await updateLatest(store, ref, (current) => ({
    ...current,
    metadata: { ...current.metadata, finalizers: adjust(current.metadata.finalizers ?? [], finalizers) },
  }));
  return result.status !== 'conflict';
}

/** Re-applies our one change (adding or removing the cluster finalizer) to a newer list. */
function adjust(current: string[], wanted: string[]): string[] {
  const add = wanted.includes(CLUSTER_CONTROLLER_FINALIZER);
  const rest = current.filter((f) => f !== CLUSTER_CONTROLLER_FINALIZER);
  return add ? [...rest, CLUSTER_CONTROLLER_FINALIZER] : rest;
}
