/** Factories for the assignment tests: candidates, placements, bindings' specs. */
import type {
  Cluster,
  ClusterPreferences,
  Placement,
  ReplicaSchedulingStrategy,
  TargetCluster,
} from '../../../../../lib/core/model/types.ts';
import type { ClusterDetail } from '../../../../../lib/core/scheduler/framework/types.ts';

/** A selected cluster that can take `allocatable` more replicas and already runs `already`. */
export function candidate(
  name: string,
  allocatable = 0,
  options: { labels?: Record<string, string>; already?: number; score?: number } = {},
): ClusterDetail {
  const cluster: Cluster = {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, labels: options.labels ?? {} },
    spec: {},
  };
  return {
    name,
    cluster,
    score: options.score ?? 0,
    allocatableReplicas: allocatable,
    availableReplicas: allocatable + (options.already ?? 0),
  };
}

/** Candidates from `name: allocatable` pairs, in the given order. */
export function candidates(allocatable: Record<string, number>): ClusterDetail[] {
  return Object.entries(allocatable).map(([name, n]) => candidate(name, n));
}

/** Targets from `name: replicas` pairs. */
export function targets(replicas: Record<string, number>): TargetCluster[] {
  return Object.entries(replicas).map(([name, n]) => ({ name, replicas: n }));
}

export const duplicated: ReplicaSchedulingStrategy = { replicaSchedulingType: 'Duplicated' };
export const aggregated: ReplicaSchedulingStrategy = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Aggregated',
};
export const dynamicWeight: ReplicaSchedulingStrategy = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { dynamicWeight: 'AvailableReplicas' },
};

/** Divided + Weighted with the given preference (undefined: no `weightPreference`). */
export function weighted(weightPreference?: ClusterPreferences): ReplicaSchedulingStrategy {
  return weightPreference
    ? { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference }
    : { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' };
}

/** A static weight list from `clusterName: weight` pairs, one rule per cluster name. */
export function staticByName(weights: Record<string, number>): ClusterPreferences {
  return {
    staticWeightList: Object.entries(weights).map(([name, weight]) => ({
      targetCluster: { clusterNames: [name] },
      weight,
    })),
  };
}

export function placement(replicaScheduling?: ReplicaSchedulingStrategy): Placement {
  return replicaScheduling ? { replicaScheduling } : {};
}

/** A result as `name: replicas` (undefined replicas as 0), for order-insensitive comparison. */
export function asRecord(list: readonly TargetCluster[]): Record<string, number> {
  return Object.fromEntries(list.map((t) => [t.name, t.replicas ?? 0]));
}
