/**
 * Overflow cluster affinities (Karmada ≥ 1.18, `clusterAffinities[].overflowAffinities`): a workload fills
 * the term's own clusters first and spills into the overflow groups in order when they lack capacity;
 * on scale-down the last groups shrink first (`assignWorkloadReplicas`, `getClusterOverflowOrder`,
 * `IsOverflowSchedulingAllowed`).
 */
import { clusterMatches } from '../../placement/affinity.ts';
import type {
  Cluster,
  ClusterAffinity,
  ClusterAffinityTerm,
  ReplicaSchedulingStrategy,
  ResourceBindingSpec,
} from '../../model/types.ts';

/** Karmada's order for a cluster that matches no group (never reached: the filter removed it). */
const UNMATCHED_ORDER = 1000;

/** Karmada `IsWorkload`: replicas, replica requirements or components — what takes compute capacity. */
export function isWorkload(spec: ResourceBindingSpec): boolean {
  return (spec.replicas ?? 0) > 0 || spec.replicaRequirements !== undefined || (spec.components?.length ?? 0) >= 1;
}

/** Overflow is allowed with `Divided` + `Aggregated`, or `Divided` + `Weighted` with a dynamic weight. */
export function isOverflowSchedulingAllowed(rs: ReplicaSchedulingStrategy | undefined): boolean {
  if (rs?.replicaSchedulingType !== 'Divided') return false;
  if (rs.replicaDivisionPreference === 'Aggregated') return true;
  return rs.replicaDivisionPreference === 'Weighted' && Boolean(rs.weightPreference?.dynamicWeight);
}

/** The overflow groups of the term being tried, when it has any. */
export function overflowTerms(affinity: ClusterAffinity | undefined): ClusterAffinity[] {
  return (affinity as ClusterAffinityTerm | undefined)?.overflowAffinities ?? [];
}

/** Whether assignment goes group by group (the term has overflow groups and the placement clusterAffinities). */
export function overflowEnabled(spec: ResourceBindingSpec, affinity: ClusterAffinity | undefined): boolean {
  return !spec.placement?.clusterAffinity && overflowTerms(affinity).length > 0;
}

/** 0 for the term's own clusters, 1.. for the overflow group a cluster first matches. */
export function overflowOrder(cluster: Cluster, affinity: ClusterAffinity | undefined): number {
  const overflow = overflowTerms(affinity);
  if (!affinity || overflow.length === 0 || clusterMatches(cluster, affinity)) return 0;
  const index = overflow.findIndex((o) => clusterMatches(cluster, o));
  return index < 0 ? UNMATCHED_ORDER : index + 1;
}
