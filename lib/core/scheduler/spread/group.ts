/**
 * Topology groups and their scores (Karmada v1.15 `core/spreadconstraint/group_clusters.go`).
 *
 * Only region groups influence selection in v1.15; zone and provider groups are built by Karmada
 * but never read by `SelectBestClusters`, so `selectBestClusters` does not build them.
 * {@link groupClusters} can still build them (for diagnostics and parity tests).
 */
import type { Cluster, Placement } from '../../model/types.ts';
import type { ClusterDetail } from '../framework/types.ts';

/** A topology group: a region, zone or provider and its clusters (Karmada `RegionInfo`/`ZoneInfo`/`ProviderInfo`). */
export interface ClusterGroup {
  name: string;
  /** {@link groupScore} of the group's clusters. */
  score: number;
  /** Sum of the clusters' availableReplicas. */
  availableReplicas: number;
  /** The group's clusters, in the order of the (sorted) input. */
  clusters: ClusterDetail[];
}

/** The topology fields clusters are grouped by. */
export type GroupField = 'region' | 'zone' | 'provider';

/** Karmada `weightUnit`: keeps replica counts ahead of the average cluster score (0..100) in group scores. */
const WEIGHT_UNIT = 1000;

/**
 * Duplicated group score (Karmada `calcGroupScoreForDuplicate`): the clusters that can hold all
 * `replicas` count 1000 each, plus the truncated average score of those clusters; 0 when none can.
 */
export function groupScoreForDuplicate(clusters: readonly ClusterDetail[], replicas: number): number {
  let valid = 0;
  let sumScore = 0;
  for (const c of clusters) {
    if (c.availableReplicas >= replicas) {
      valid++;
      sumScore += c.score;
    }
  }
  return valid === 0 ? 0 : valid * WEIGHT_UNIT + Math.trunc(sumScore / valid);
}

/** The last `cluster` constraint's minGroups (Karmada loops and keeps the last), 0 without one. */
function clusterMinGroups(placement: Placement | undefined): number {
  let min = 0;
  for (const sc of placement?.spreadConstraints ?? []) if (sc.spreadByField === 'cluster') min = sc.minGroups ?? 0;
  return min;
}

function isDuplicatedScoring(placement: Placement | undefined): boolean {
  // `rbSpec.Placement == nil || Placement.ReplicaSchedulingType() == Duplicated`, where a nil
  // `replicaScheduling` reads as Duplicated; an empty type string falls through to Divided.
  const strategy = placement?.replicaScheduling;
  return !strategy || strategy.replicaSchedulingType === 'Duplicated';
}

function dividedScore(
  clusters: readonly ClusterDetail[],
  replicas: number,
  minGroups: number,
  clusterMin: number,
): number {
  if (clusters.length === 0) return 0; // never happens for a group; Go would divide by zero
  const need = Math.max(clusterMin, minGroups);
  // Go: int64(math.Ceil(float64(replicas) / float64(minGroups))). With minGroups 0 the quotient is
  // +Inf (or NaN for 0 replicas), which amd64 converts to MinInt64; MinInt64*1000 then wraps to 0.
  // Reproduced: every prefix meets the target, and the replica term of the score is 0.
  const unbounded = minGroups === 0;
  const target = unbounded ? -Infinity : Math.ceil(replicas / minGroups);
  let sumAvailable = 0;
  let sumScore = 0;
  let walked = 0;
  for (const c of clusters) {
    sumAvailable += c.availableReplicas;
    sumScore += c.score;
    walked++;
    if (walked >= need && sumAvailable >= target) break;
  }
  if (sumAvailable < target) return sumAvailable * WEIGHT_UNIT + Math.trunc(sumScore / clusters.length);
  return (unbounded ? 0 : target * WEIGHT_UNIT) + Math.trunc(sumScore / walked);
}

/**
 * A group's score (Karmada `calcGroupScore`), `minGroups` being the group constraint's minGroups.
 * - Duplicated (or no `replicaScheduling`): {@link groupScoreForDuplicate}.
 * - Otherwise: `target = ceil(replicas / minGroups)`; walk the (sorted) clusters accumulating
 *   availableReplicas and score until at least `max(cluster minGroups, minGroups)` clusters are taken
 *   and the sum reaches `target`; score = `min(Σavailable, target) * 1000 + Σscore / taken`
 *   (dividing by all clusters when the target is not reached).
 *
 * @param placement the binding's placement (spread constraints and replica scheduling).
 */
export function groupScore(
  clusters: readonly ClusterDetail[],
  placement: Placement | undefined,
  replicas: number,
  minGroups: number,
): number {
  if (isDuplicatedScoring(placement)) return groupScoreForDuplicate(clusters, replicas);
  return dividedScore(clusters, replicas, minGroups, clusterMinGroups(placement));
}

/**
 * Groups `sorted` (already in `compareClusters` order) by `field` and scores each group with
 * {@link groupScore} (Karmada `generateRegionInfo` / `generateZoneInfo` / `generateProviderInfo`).
 * Clusters without the field are left out; a cluster joins every zone of `spec.zones` (Karmada v1.15
 * reads `spec.zones` only, not the deprecated `spec.zone`). Groups come in order of first appearance.
 *
 * @param minGroups the minGroups of the constraint on `field` (the last one, as Karmada keeps).
 */
export function groupClusters(
  field: GroupField,
  sorted: readonly ClusterDetail[],
  placement: Placement | undefined,
  replicas: number,
  minGroups: number,
): ClusterGroup[] {
  const byName = new Map<string, ClusterGroup>();
  const groups: ClusterGroup[] = [];
  const add = (name: string, c: ClusterDetail) => {
    let g = byName.get(name);
    if (!g) {
      g = { name, score: 0, availableReplicas: 0, clusters: [] };
      byName.set(name, g);
      groups.push(g);
    }
    g.clusters.push(c);
    g.availableReplicas += c.availableReplicas;
  };
  for (const c of sorted) {
    const spec: Cluster['spec'] | undefined = c.cluster?.spec;
    if (field === 'zone') {
      for (const zone of spec?.zones ?? []) add(zone, c);
    } else {
      const name = field === 'region' ? spec?.region : spec?.provider;
      if (name) add(name, c);
    }
  }
  if (groups.length === 0) return groups;
  if (isDuplicatedScoring(placement)) {
    for (const g of groups) g.score = groupScoreForDuplicate(g.clusters, replicas);
  } else {
    const clusterMin = clusterMinGroups(placement);
    for (const g of groups) g.score = dividedScore(g.clusters, replicas, minGroups, clusterMin);
  }
  return groups;
}
