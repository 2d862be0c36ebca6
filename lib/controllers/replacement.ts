/**
 * The last-copy rule both failovers share (#7455): before a binding's last cluster is evicted, the
 * scheduler's own filters and estimate decide — dry, nothing written — whether another cluster can take
 * the workload with the leaving clusters unavailable — and, with quota enforcement, the namespace's
 * FederatedResourceQuota whether it may (found by the deterministic simulation: a taint eviction of a
 * binding whose scale-up the quota had refused left it with no cluster at all).
 */
import type { KubeObject } from '../api/object.ts';
import {
  applyDelta,
  type Framework,
  placementAdmitted,
  type ResourceBinding,
  scheduleBinding,
  type Snapshot,
} from '../core/index.ts';

/**
 * Whether `binding` can be placed with `excluded` unavailable (what it reserves is taken from `snapshot`)
 * and whether that placement would pass the namespace's `quotas` (none: no quota to pass).
 */
export function replacementFits(
  binding: ResourceBinding,
  excluded: readonly string[],
  snapshot: Snapshot,
  framework: Framework,
  quotas: readonly KubeObject[] = [],
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
  if (!placementAdmitted(binding, clusters, quotas)) return false;
  for (const d of result.outcome.value.reserved) applyDelta(snapshot, d, -1);
  return true;
}
