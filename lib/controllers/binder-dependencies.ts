/**
 * The binder's dependency distribution (Karmada's `propagateDeps`): a workload's binding keeps one
 * attached binding per object its template depends on (ConfigMaps, Secrets, …), and releases the ones
 * it no longer needs. Karmada: pkg/dependenciesdistributor.
 */
import { RESOURCE_BINDING_PERMANENT_ID_LABEL as RB_ID_LABEL } from '../api/well-known.ts';
import { RESOURCE_BINDING } from '../api/karmada-names.ts';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { formatKey, parseApiVersion, refOf } from '../api/object.ts';
import {
  attachedBinding,
  dependedByLabelKey,
  interpretDependencies,
  withoutRequirement,
} from '../core/dependencies/index.ts';
import type { ResourceBinding } from '../core/model/types.ts';
import { generateBindingName } from '../core/work/index.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { Lane, WorkQueue } from '../queue/port.ts';
import type { ReconcileContext } from '../reconcile/controller.ts';
import { listAll } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite, updateLatest } from '../store/write.ts';
import { deepEqual } from '../util/json.ts';
import { BINDER_CONTROLLER_NAME } from './specs.ts';

export interface DependencySync {
  /** Writes the attached bindings `template`'s dependencies need and releases the rest. */
  sync(binding: ResourceBinding, template: KubeObject, lane: Lane, context: ReconcileContext): Promise<void>;
  /** Removes `binding`'s requirement from attached bindings not in `keep`; false when one must be retried. */
  release(binding: ResourceBinding, keep: ReadonlySet<string>, lane: Lane): Promise<boolean>;
}

export function dependencySync(deps: {
  store: ObjectStore;
  workQueue: WorkQueue;
  events: EventRecorder;
  newUid: () => string;
}): DependencySync {
  const { store, workQueue, events, newUid } = deps;
  return { sync, release };

  async function sync(
    binding: ResourceBinding,
    template: KubeObject,
    lane: Lane,
    context: ReconcileContext,
  ): Promise<void> {
    const wanted = new Set<string>();
    let deps: ReturnType<typeof interpretDependencies>;
    try {
      deps = interpretDependencies(template);
    } catch (err) {
      await events.record(template, 'Warning', 'GetDependenciesFailed', (err as Error).message);
      return;
    }
    for (const dep of deps) {
      const { group } = parseApiVersion(dep.apiVersion);
      const object = await store.get({ group, kind: dep.kind, namespace: dep.namespace, name: dep.name });
      if (!object) continue; // Karmada skips a dependency that does not exist (yet).
      const existingRef: ObjectRef = {
        ...RESOURCE_BINDING,
        namespace: object.metadata.namespace!,
        name: generateBindingName(object.kind, object.metadata.name!),
      };
      wanted.add(existingRef.name);
      const existing = (await store.get(existingRef)) as ResourceBinding | undefined;
      if (existing?.metadata.deletionTimestamp) continue;
      let desired: ResourceBinding;
      try {
        desired = attachedBinding({ dependency: object, independent: binding, ...(existing ? { existing } : {}) });
      } catch (err) {
        // The attached binding belongs to another object of the same name (Karmada #6034): leave it.
        await events.record(binding, 'Warning', 'GetDependenciesFailed', (err as Error).message);
        continue;
      }
      if (existing && deepEqual(existing, desired)) continue;
      if (!desired.metadata.labels?.[RB_ID_LABEL])
        desired.metadata.labels = { ...desired.metadata.labels, [RB_ID_LABEL]: newUid() };
      const written = await tryWrite(() => (existing ? store.update(desired) : store.create(desired)));
      if (written.ok) {
        context.logger.info('dependency follows its workload', { dependency: `${dep.kind}/${dep.name}` });
        await workQueue.enqueue([
          { controller: BINDER_CONTROLLER_NAME, lane, key: formatKey(existingRef), reason: 'dependency' },
        ]);
      } else if (written.reason !== 'gone') {
        await workQueue.enqueue([
          { controller: BINDER_CONTROLLER_NAME, lane: 'standard', key: formatKey(refOf(binding)), delayMs: 1_000 },
        ]);
      }
    }
    await release(binding, wanted, lane);
  }

  /**
   * Removes this binding's requirement from attached bindings it no longer depends on (all, when
   * `keep` is empty). Each is read again and retried on a conflict (the binder writes their status
   * too); false when one could not be updated, so the caller tries again rather than lose the release.
   */
  async function release(binding: ResourceBinding, keep: ReadonlySet<string>, lane: Lane): Promise<boolean> {
    const namespace = binding.metadata.namespace;
    if (!namespace) return true;
    const independent = { namespace, name: binding.metadata.name! };
    const attached = (await listAll(store, {
      ...RESOURCE_BINDING,
      namespace,
      labelSelector: dependedByLabelKey(independent),
    })) as ResourceBinding[];
    let complete = true;
    for (const listed of attached) {
      if (keep.has(listed.metadata.name!)) continue;
      const ref = refOf(listed);
      // Karmada keeps an attached binding nobody requires (no targets: its Works go); the garbage
      // collector removes it with its dependency object.
      const released = await updateLatest(store, ref, (current) =>
        withoutRequirement(current as ResourceBinding, independent),
      );
      if (released.status === 'written') {
        await workQueue.enqueue([
          { controller: BINDER_CONTROLLER_NAME, lane, key: formatKey(ref), reason: 'dependency-released' },
        ]);
      }
      if (released.status === 'conflict') complete = false;
    }
    return complete;
  }
}
