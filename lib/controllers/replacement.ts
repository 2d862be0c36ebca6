/**
 * The last-copy rule both failovers share (#7455): before a binding's last cluster is evicted, the
 * scheduler's own filters and estimate decide — dry, nothing written — whether another cluster can take
 * the workload with the leaving clusters unavailable.
 */
import { applyDelta, type Framework, type ResourceBinding, scheduleBinding, type Snapshot } from '../core/index.ts';

/** Whether `binding` can be placed with `excluded` unavailable (what it reserves is taken from `snapshot`). */
export function replacementFits(
  binding: ResourceBinding,
  excluded: readonly string[],
  snapshot: Snapshot,
  framework: Framework,
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
  for (const d of result.outcome.value.reserved) applyDelta(snapshot, d, -1);
  return result.outcome.value.clusters.some((c) => !excluded.includes(c.name));
}
