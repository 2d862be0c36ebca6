/**
 * Selection under a `region` spread constraint (Karmada v1.15
 * `core/spreadconstraint/select_clusters_by_region.go`).
 */
import type { SpreadConstraint } from '../../model/types.ts';
import { fail, ok, type ClusterDetail, type Outcome } from '../framework/types.ts';
import type { ClusterGroup } from './group.ts';
import { selectGroups } from './select-groups.ts';
import { compareClusters, maxGroupsOf, minGroupsOf, SPREAD_ERRORS } from './util.ts';

interface RegionChoice {
  name: string;
  value: number;
  weight: number;
  region: ClusterGroup;
}

/**
 * Karmada `selectBestClustersByRegion`:
 * 1. fewer regions than the region constraint's minGroups ⇒
 *    `the number of feasible region is less than spreadConstraint.MinGroups`;
 * 2. choose regions with `selectGroups` (value = #clusters, weight = region score, between the
 *    region constraint's minGroups and maxGroups, Σclusters ≥ the cluster constraint's minGroups);
 *    none ⇒ `the number of clusters is less than the cluster spreadConstraint.MinGroups`;
 * 3. take the first (best) cluster of each chosen region, in the chosen order;
 * 4. fill up to `min(#clusters of the chosen regions, cluster maxGroups)` with their other clusters
 *    by (score desc, availableReplicas desc, name asc).
 * Available capacity is not checked here (only through the region scores). A missing cluster
 * constraint reads as minGroups = maxGroups = 0, like Karmada's map lookup.
 *
 * @param regions region groups with their clusters in `compareClusters` order and their scores.
 */
export function selectByRegion(
  regions: readonly ClusterGroup[],
  regionConstraint: SpreadConstraint | undefined,
  clusterConstraint: SpreadConstraint | undefined,
): Outcome<ClusterDetail[]> {
  if (regions.length < minGroupsOf(regionConstraint)) return fail('SchedulerError', SPREAD_ERRORS.regionMinGroups);

  const choices = new Array<RegionChoice>(regions.length);
  for (let i = 0; i < regions.length; i++) {
    const region = regions[i]!;
    choices[i] = { name: region.name, value: region.clusters.length, weight: region.score, region };
  }
  const chosen = selectGroups(
    choices,
    minGroupsOf(regionConstraint),
    maxGroupsOf(regionConstraint),
    minGroupsOf(clusterConstraint),
  );
  if (chosen.length === 0) return fail('SchedulerError', SPREAD_ERRORS.regionClusterMinGroups);

  const selected: ClusterDetail[] = [];
  const candidates: ClusterDetail[] = [];
  for (const { region } of chosen) {
    const clusters = region.clusters;
    if (clusters.length === 0) continue; // never built by groupClusters (Karmada would panic)
    selected.push(clusters[0]!);
    for (let i = 1; i < clusters.length; i++) candidates.push(clusters[i]!);
  }

  const needCnt = Math.min(selected.length + candidates.length, maxGroupsOf(clusterConstraint));
  const restCnt = needCnt - selected.length;
  if (restCnt > 0) {
    candidates.sort(compareClusters);
    for (let i = 0; i < restCnt; i++) selected.push(candidates[i]!);
  }
  return ok(selected);
}
