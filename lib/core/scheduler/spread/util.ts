/**
 * Shared pieces of cluster selection (Karmada v1.15 `pkg/scheduler/core/spreadconstraint/util.go`,
 * `select_clusters.go`): cluster order, the static-weight and "ignore capacity" tests, and the exact
 * error messages Karmada returns.
 */
import type { Placement, ResourceBindingSpec, SpreadConstraint } from '../../model/types.ts';
import type { ClusterDetail } from '../framework/types.ts';

/** Karmada `InvalidReplicas`: "don't care about available resources". */
export const INVALID_REPLICAS = -1;

/**
 * Karmada's selection error messages, verbatim. The generic scheduler wraps them as
 * `failed to select clusters: <message>`; that prefix is the caller's.
 */
export const SPREAD_ERRORS = {
  /** `select_clusters_by_cluster.go`: fewer feasible clusters than the cluster constraint's minGroups. */
  clusterMinGroups: 'the number of feasible clusters is less than spreadConstraint.MinGroups',
  /** `select_clusters_by_region.go`: fewer regions than the region constraint's minGroups. */
  regionMinGroups: 'the number of feasible region is less than spreadConstraint.MinGroups',
  /** `select_clusters_by_region.go`: no region combination satisfies both constraints. */
  regionClusterMinGroups: 'the number of clusters is less than the cluster spreadConstraint.MinGroups',
  /** `select_clusters.go`: only zone/provider/label constraints. */
  unsupported: 'just support cluster and region spread constraint',
} as const;

/** `no enough resource when selecting %d clusters` (`select_clusters_by_cluster.go`). */
export function notEnoughResourceMessage(count: number): string {
  return `no enough resource when selecting ${count} clusters`;
}

/**
 * Karmada's cluster order: overflow group asc (≥ 1.18; 0 without overflow), score desc, then
 * availableReplicas desc, then name asc (Go string order, which equals JS `<` for ASCII names).
 */
export function compareClusters(a: ClusterDetail, b: ClusterDetail): number {
  const overflow = (a.overflowOrder ?? 0) - (b.overflowOrder ?? 0);
  if (overflow !== 0) return overflow;
  if (a.score !== b.score) return b.score - a.score;
  if (a.availableReplicas !== b.availableReplicas) return b.availableReplicas - a.availableReplicas;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Sorts `details` in place by {@link compareClusters} (stable: equal entries keep their order) and
 * returns the same array — Karmada `sortClusters` with the availableReplicas tie-breaker, as used
 * by `generateClustersInfo` and the region fill-up step.
 *
 * @example sortClusters([{ name: 'a', score: 0, ... }, { name: 'b', score: 100, ... }]) // b, a
 */
export function sortClusters(details: ClusterDetail[]): ClusterDetail[] {
  return details.sort(compareClusters);
}

/**
 * True for the static-weight strategy, for which spread constraints are ignored and every feasible
 * cluster is selected (Karmada `shouldIgnoreSpreadConstraint`): `Divided` + `Weighted` with no
 * `weightPreference`, or with a non-empty `staticWeightList` and no `dynamicWeight`.
 */
export function isStaticWeight(placement: Placement | undefined): boolean {
  const strategy = placement?.replicaScheduling;
  if (!strategy || strategy.replicaSchedulingType !== 'Divided' || strategy.replicaDivisionPreference !== 'Weighted') {
    return false;
  }
  const pref = strategy.weightPreference;
  return !pref || ((pref.staticWeightList?.length ?? 0) !== 0 && !pref.dynamicWeight);
}

/**
 * Replicas the selected clusters must be able to hold: `spec.replicas`, or
 * {@link INVALID_REPLICAS} (-1, capacity ignored) when `replicaScheduling` is absent or `Duplicated`
 * (Karmada `shouldIgnoreAvailableResource`). `placement` defaults to `spec.placement`.
 */
export function needReplicas(spec: ResourceBindingSpec, placement: Placement | undefined = spec.placement): number {
  const strategy = placement?.replicaScheduling;
  if (!strategy || strategy.replicaSchedulingType === 'Duplicated') return INVALID_REPLICAS;
  return spec.replicas ?? 0;
}

/** `minGroups` as Karmada's `int` field: absent ⇒ 0 (the webhook, not the scheduler, defaults it to 1). */
export function minGroupsOf(sc: SpreadConstraint | undefined): number {
  return sc?.minGroups ?? 0;
}

/** `maxGroups` as Karmada's `int` field: absent ⇒ 0 (never defaulted). */
export function maxGroupsOf(sc: SpreadConstraint | undefined): number {
  return sc?.maxGroups ?? 0;
}
