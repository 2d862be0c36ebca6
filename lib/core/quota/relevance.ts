/**
 * Whether a ResourceBinding update can change what it charges to quotas: Karmada's
 * `isQuotaRelevantFieldChanged` (`pkg/webhook/resourcebinding/validating.go`), which gates the
 * webhook's quota check on UPDATE.
 */
import { compareQuantities } from '../../api/quantity.ts';
import type { ResourceList } from '../model/types.ts';
import { quantityOf } from './resource-list.ts';
import type { QuotaBindingSpec } from './usage.ts';

/** Karmada's `areResourceListsEqual`: same names, equal amounts (`1` equals `1000m`); absent = empty. */
function sameResourceList(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  const names = Object.keys(x);
  if (names.length !== Object.keys(y).length) return false;
  return names.every((n) => n in y && compareQuantities(quantityOf(n, x[n]), quantityOf(n, y[n])) === 0);
}

function scheduledReplicas(spec: QuotaBindingSpec): number {
  return (spec.clusters ?? []).reduce((sum, c) => sum + (c.replicas ?? 0), 0);
}

/** Karmada's `isScheduledClusterChanged`: a different count, or a name the old list lacks. */
function scheduledClustersChanged(oldSpec: QuotaBindingSpec, newSpec: QuotaBindingSpec): boolean {
  const before = oldSpec.clusters ?? [];
  const after = newSpec.clusters ?? [];
  if (before.length !== after.length) return true;
  const names = new Set(before.map((c) => c.name));
  return after.some((c) => !names.has(c.name));
}

/** Karmada's `isComponentsChanged`: count, then by index replicas, requirements presence and requests. */
function componentsChanged(oldSpec: QuotaBindingSpec, newSpec: QuotaBindingSpec): boolean {
  const before = oldSpec.components ?? [];
  const after = newSpec.components ?? [];
  if (before.length !== after.length) return true;
  return before.some((o, i) => {
    const n = after[i]!;
    if (o.replicas !== n.replicas) return true;
    if ((o.replicaRequirements === undefined) !== (n.replicaRequirements === undefined)) return true;
    return (
      o.replicaRequirements !== undefined &&
      !sameResourceList(o.replicaRequirements.resourceRequest, n.replicaRequirements?.resourceRequest)
    );
  });
}

/**
 * Karmada's `isQuotaRelevantFieldChanged(old, new)`: true when there is no old spec (a create), the
 * per-replica requests changed (by amount: `1` and `1000m` are equal), the sum of scheduled replicas
 * changed (a move between clusters that keeps the sum is not relevant), the scheduled cluster set
 * changed while either side has components (a component binding charges one set per cluster), or the
 * components changed (count; per index: replicas, requirements present or not, requests — component
 * names are not compared). Everything else (resource reference, placement, …) is irrelevant.
 *
 * Limits are not in the binding: a caller that charges `limits.*` (our addition) must treat a change of
 * the workload's limits as relevant itself. Throws `QuantityError` on a value that is not a quantity.
 */
export function quotaRelevantChanged(oldSpec: QuotaBindingSpec | undefined, newSpec: QuotaBindingSpec): boolean {
  if (!oldSpec) return true;
  if (!sameResourceList(oldSpec.replicaRequirements?.resourceRequest, newSpec.replicaRequirements?.resourceRequest)) {
    return true;
  }
  if (scheduledReplicas(oldSpec) !== scheduledReplicas(newSpec)) return true;
  const hasComponents = (oldSpec.components?.length ?? 0) > 0 || (newSpec.components?.length ?? 0) > 0;
  if (hasComponents && scheduledClustersChanged(oldSpec, newSpec)) return true;
  return componentsChanged(oldSpec, newSpec);
}
