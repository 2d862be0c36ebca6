/**
 * Cluster selection with spread constraints — Karmada v1.15 `GroupClustersWithScore` +
 * `SelectBestClusters` (`pkg/scheduler/core/spreadconstraint`). Pure: failures are `SchedulerError`
 * outcomes carrying Karmada's message (the generic scheduler prefixes it with
 * `failed to select clusters: `).
 */
import type { Placement, ResourceBindingSpec, SpreadConstraint } from '../../model/types.ts';
import { fail, ok, type ClusterDetail, type Outcome } from '../framework/types.ts';
import { selectByCluster } from './by-cluster.ts';
import { selectByRegion } from './by-region.ts';
import { groupClusters } from './group.ts';
import { isStaticWeight, minGroupsOf, needReplicas, sortClusters, SPREAD_ERRORS } from './util.ts';

export { selectByCluster } from './by-cluster.ts';
export { selectByRegion } from './by-region.ts';
export { groupClusters, groupScore, groupScoreForDuplicate, type ClusterGroup, type GroupField } from './group.ts';
export { selectGroups, type GroupInfo } from './select-groups.ts';
export {
  compareClusters,
  INVALID_REPLICAS,
  isStaticWeight,
  needReplicas,
  notEnoughResourceMessage,
  sortClusters,
  SPREAD_ERRORS,
} from './util.ts';

export interface SelectBestClustersInput {
  /** The placement being scheduled; defaults to `spec.placement` (they are the same object in v1.15). */
  placement?: Placement | undefined;
  spec: ResourceBindingSpec;
  /** Feasible clusters with score and capacity, in any order. Not modified. */
  clusters: readonly ClusterDetail[];
}

/**
 * Selects the clusters replicas may be assigned to (Karmada `SelectClusters`), returned in Karmada's
 * order (sorted by score desc, availableReplicas desc, name asc, except as the algorithms reorder):
 * - no spread constraints, or static weight ({@link isStaticWeight}) ⇒ every cluster;
 * - a `region` constraint ⇒ the region algorithm ({@link selectByRegion}), regions scored with
 *   `groupScore` using the region constraint's minGroups;
 * - else a `cluster` constraint ⇒ {@link selectByCluster} with {@link needReplicas};
 * - else (zone / provider / label only) ⇒ `just support cluster and region spread constraint`.
 * When a field has several constraints the last one counts, as in Karmada's map.
 *
 * @example selectBestClusters({ spec, clusters }) // ok(all clusters, sorted) when spec.placement has no constraints
 */
export function selectBestClusters(input: SelectBestClustersInput): Outcome<ClusterDetail[]> {
  const { spec } = input;
  const placement = input.placement ?? spec.placement;
  const sorted = sortClusters(input.clusters.slice());
  const constraints = placement?.spreadConstraints;
  if (!constraints || constraints.length === 0 || isStaticWeight(placement)) return ok(sorted);

  let region: SpreadConstraint | undefined;
  let cluster: SpreadConstraint | undefined;
  for (const sc of constraints) {
    if (sc.spreadByField === 'region') region = sc;
    else if (sc.spreadByField === 'cluster') cluster = sc;
  }
  if (region) {
    const regions = groupClusters('region', sorted, placement, spec.replicas ?? 0, minGroupsOf(region));
    return selectByRegion(regions, region, cluster);
  }
  if (cluster) return selectByCluster(cluster, sorted, needReplicas(spec, placement));
  return fail('SchedulerError', SPREAD_ERRORS.unsupported);
}
