/**
 * The last-copy rule both failovers share (#7455): before a binding's last cluster is evicted, the
 * scheduler's own filters and estimate decide — dry, nothing written — whether another cluster can take
 * the workload with the leaving clusters unavailable — and, with quota enforcement, the namespace's
 * FederatedResourceQuota whether it may (found by the deterministic simulation: a taint eviction of a
 * binding whose scale-up the quota had refused left it with no cluster at all).
 */
import {
  applyDelta,
  type Cluster,
  type Framework,
  type ResourceBinding,
  scheduleBinding,
  type Snapshot,
} from '../core/index.ts';
import { clusterMatches } from '../core/placement/affinity.ts';

/**
 * Whether a cluster `binding` keeps stays placed: it exists, is not being deleted, and the placement's
 * affinity (the term being observed, with `clusterAffinities`) still selects it. A kept cluster that
 * fails this is one the scheduler is about to drop — no copy an eviction can count on.
 */
export function stillPlacedIn(binding: ResourceBinding, clusters: readonly Cluster[]): (cluster: string) => boolean {
  const byName = new Map(clusters.map((c) => [c.metadata.name ?? '', c]));
  const placement = binding.spec.placement ?? {};
  const terms = placement.clusterAffinities ?? [];
  const observed = binding.status?.schedulerObservingAffinityName;
  const affinity = placement.clusterAffinity ?? terms.find((t) => t.affinityName === observed) ?? terms[0];
  return (name) => {
    const cluster = byName.get(name);
    return !!cluster && !cluster.metadata.deletionTimestamp && (!affinity || clusterMatches(cluster, affinity));
  };
}

/**
 * Whether `binding` can be placed with `excluded` unavailable (what it reserves is taken from `snapshot`)
 * and, with `admits`, whether that placement would pass the namespace's quota as well.
 */
export function replacementFits(
  binding: ResourceBinding,
  excluded: readonly string[],
  snapshot: Snapshot,
  framework: Framework,
  admits?: (clusters: ResourceBinding['spec']['clusters']) => boolean,
): boolean {
  const trial: ResourceBinding = {
    ...binding,
    spec: {
      ...binding.spec,
      clusters: [],
      gracefulEvictionTasks: excluded.map((c) => ({
        fromCluster: c,
        reason: 'TaintUntolerated',
        producer: 'TaintManager',
      })),
    },
  };
  const result = scheduleBinding(trial, snapshot, framework);
  if (!result.outcome.ok) return false;
  const clusters = result.outcome.value.clusters;
  if (!clusters.some((c) => !excluded.includes(c.name))) return false;
  if (admits && !admits(clusters)) return false;
  for (const d of result.outcome.value.reserved) applyDelta(snapshot, d, -1);
  return true;
}
