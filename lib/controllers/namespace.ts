/**
 * The namespace lifecycle controller (Kubernetes' namespace controller): a new namespace becomes
 * Active; a deleted one becomes Terminating, every object in it is deleted (controllers hear of each
 * deletion), and once it is empty its finalizer is removed so it disappears.
 */
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { parseKey } from '../api/object.ts';
import type { CatalogProvider } from '../karmada/catalog.ts';
import { NAMESPACE_FINALIZER } from '../kube/builtin/kinds.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import { NotFoundError } from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite, updateLatest } from '../store/write.ts';
import { NAMESPACE_CONTROLLER_NAME } from './specs.ts';
import { enqueueTriggered } from './triggers.ts';

/** How soon to look again while objects in a terminating namespace wait on their finalizers. */
const RECHECK_MS = 2_000;

export interface NamespaceControllerOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  catalog: CatalogProvider;
}

export function createNamespaceController(options: NamespaceControllerOptions): Controller {
  const { store } = options;
  return {
    name: NAMESPACE_CONTROLLER_NAME,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      const ns = await store.get(ref);
      if (!ns) return undefined;
      const phase = (ns.status as { phase?: string } | undefined)?.phase;
      if (!ns.metadata.deletionTimestamp) {
        if (phase !== 'Active') await setPhase(store, ns, 'Active');
        return undefined;
      }
      if (phase !== 'Terminating') await setPhase(store, ns, 'Terminating');
      const remaining = await deleteContent(options, ref.name, context);
      if (remaining > 0) {
        context.logger.info('namespace still has objects waiting on finalizers', { remaining });
        return { requeueAfterMs: RECHECK_MS };
      }
      const removed = await updateLatest(store, ref, (current) => {
        const finalizers = current.metadata.finalizers ?? [];
        if (!finalizers.includes(NAMESPACE_FINALIZER)) return undefined;
        return {
          ...current,
          metadata: { ...current.metadata, finalizers: finalizers.filter((f) => f !== NAMESPACE_FINALIZER) },
        };
      });
      if (removed.status === 'conflict') return { requeueAfterMs: 0 };
      if (removed.status === 'written') context.logger.info('namespace emptied and removed');
      return undefined;
    },
  };
}

async function setPhase(store: ObjectStore, ns: KubeObject, phase: string): Promise<void> {
  // A namespace that changed meanwhile gets its phase on the next reconcile.
  await tryWrite(() => store.updateStatus({ ...ns, status: { ...((ns.status as object) ?? {}), phase } }));
}

/** Deletes every object in the namespace; returns how many are still there (pending finalizers). */
async function deleteContent(
  options: NamespaceControllerOptions,
  namespace: string,
  context: ReconcileContext,
): Promise<number> {
  const catalog = await options.catalog.catalog();
  const kinds = new Map<string, { group: string; kind: string }>();
  for (const d of catalog.defs) if (d.namespaced) kinds.set(`${d.group}/${d.kind}`, { group: d.group, kind: d.kind });
  let remaining = 0;
  for (const gk of kinds.values()) {
    let token: string | undefined;
    do {
      const page = await options.store.listRefs({
        ...gk,
        namespace,
        limit: 500,
        ...(token ? { continue: token } : {}),
      });
      const deleted: ObjectRef[] = [];
      for (const ref of page.items) {
        try {
          const result = await options.store.delete(ref);
          deleted.push(ref);
          if (!result.removed) remaining++;
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
        }
      }
      if (deleted.length) {
        await enqueueTriggered(options.workQueue, gk, deleted, 'namespace-deleted');
        context.logger.debug('deleted objects of a terminating namespace', { kind: gk.kind, count: deleted.length });
      }
      token = page.continue;
    } while (token);
  }
  return remaining;
}
