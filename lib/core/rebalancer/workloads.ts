/**
 * The workload list of a WorkloadRebalancer (Karmada `workloadrebalancer_controller.go`
 * `syncWorkloadsFromSpecToStatus`): which workloads `status.observedWorkloads` holds after an edit of
 * `spec.workloads`, in which order, and which binding each workload maps to.
 */
import type { ObjectRef } from '../../api/object.ts';
import { bindingRefOf } from '../work/names.ts';
import { type ObservedWorkload, REBALANCE_SUCCESSFUL, type WorkloadReference } from './types.ts';

/**
 * A workload as Karmada's Go struct compares and serializes it: the four fields, an empty namespace
 * left out (`omitempty`), nothing else.
 */
export function canonicalWorkload(workload: WorkloadReference): WorkloadReference {
  return {
    apiVersion: workload.apiVersion,
    kind: workload.kind,
    name: workload.name,
    ...(workload.namespace ? { namespace: workload.namespace } : {}),
  };
}

/**
 * The sort key of a workload: `"<apiVersion> <kind> <namespace> <name>"` (Karmada sorts
 * `observedWorkloads` by this string, so the status reads the same whatever the spec's order).
 */
export function workloadSortKey(workload: WorkloadReference): string {
  return `${workload.apiVersion} ${workload.kind} ${workload.namespace ?? ''} ${workload.name}`;
}

/** Identity of a workload: equal for references Go's `==` on `ObjectReference` finds equal. */
function identity(workload: WorkloadReference): string {
  return JSON.stringify([workload.apiVersion, workload.kind, workload.namespace ?? '', workload.name]);
}

/**
 * The binding a workload's rebalance acts on: named `lower(<name>-<kind>)` (Karmada
 * `names.GenerateBindingName`, `:` in the name as `.`), a ResourceBinding in the workload's namespace,
 * or a ClusterResourceBinding when it has none. The API version plays no part, as in Karmada.
 *
 * @example workloadBindingRef({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' })
 * // { group: 'work.karmada.io', kind: 'ResourceBinding', namespace: 'default', name: 'web-deployment' }
 */
export function workloadBindingRef(workload: WorkloadReference): ObjectRef {
  return bindingRefOf({
    apiVersion: workload.apiVersion,
    kind: workload.kind,
    metadata: { name: workload.name, ...(workload.namespace ? { namespace: workload.namespace } : {}) },
  });
}

/**
 * `status.observedWorkloads` refreshed from `spec.workloads` (Karmada `syncWorkloadsFromSpecToStatus`):
 *
 * 1. a workload still in the spec keeps its entry, result and all (a Successful one is not triggered
 *    again, a Failed one is not retried);
 * 2. a workload gone from the spec keeps its entry only if it was Successful (its rescheduling
 *    happened and is worth reporting); a Failed or pending one drops out;
 * 3. a workload new to the spec gets an entry without a result (to be rebalanced);
 * 4. a modified workload is an old one removed and a new one added; duplicates count once;
 *
 * and the list is sorted by {@link workloadSortKey}, so reordering the spec changes nothing.
 */
export function syncObservedWorkloads(
  specWorkloads: readonly WorkloadReference[],
  observed: readonly ObservedWorkload[],
): ObservedWorkload[] {
  const pending = new Map(specWorkloads.map((w) => [identity(w), canonicalWorkload(w)]));
  const out: ObservedWorkload[] = [];
  for (const item of observed) {
    const id = identity(item.workload);
    if (pending.has(id)) {
      out.push(canonicalObserved(item));
      pending.delete(id);
    } else if (item.result === REBALANCE_SUCCESSFUL) {
      out.push(canonicalObserved(item));
    }
  }
  for (const workload of pending.values()) out.push({ workload });
  const keyed = out.map((item) => ({ item, key: workloadSortKey(item.workload) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.item);
}

/** An entry with the empty fields left out, as Karmada's `omitempty` serializes it. */
export function canonicalObserved(item: ObservedWorkload): ObservedWorkload {
  return {
    workload: canonicalWorkload(item.workload),
    ...(item.result ? { result: item.result } : {}),
    ...(item.reason ? { reason: item.reason } : {}),
  };
}
