/**
 * Names Karmada gives to things, shared by every layer (shared/reference/karmada-behaviour.md §1.1).
 */

/** Works for cluster `X` live in namespace `karmada-es-X`. */
export const EXECUTION_NAMESPACE_PREFIX = 'karmada-es-';

/** The execution namespace of a member cluster. */
export function executionNamespace(cluster: string): string {
  return EXECUTION_NAMESPACE_PREFIX + cluster;
}

/** The member cluster an execution namespace belongs to, or `undefined` for any other namespace. */
export function clusterOfExecutionNamespace(namespace: string | undefined): string | undefined {
  if (!namespace?.startsWith(EXECUTION_NAMESPACE_PREFIX)) return undefined;
  const cluster = namespace.slice(EXECUTION_NAMESPACE_PREFIX.length);
  return cluster === '' ? undefined : cluster;
}

/** API group of Work, ResourceBinding and ClusterResourceBinding. */
export const WORK_GROUP = 'work.karmada.io';

/** API group of Cluster. */
export const CLUSTER_GROUP = 'cluster.karmada.io';

/** The kinds the scheduler and the detector work on. */
export const RESOURCE_BINDING = { group: WORK_GROUP, kind: 'ResourceBinding' } as const;
export const CLUSTER_RESOURCE_BINDING = { group: WORK_GROUP, kind: 'ClusterResourceBinding' } as const;
export const CLUSTER = { group: CLUSTER_GROUP, kind: 'Cluster' } as const;
export const PROPAGATION_POLICY = { group: 'policy.karmada.io', kind: 'PropagationPolicy' } as const;
export const CLUSTER_PROPAGATION_POLICY = { group: 'policy.karmada.io', kind: 'ClusterPropagationPolicy' } as const;

/** Label carrying a ResourceBinding's permanent id (on the binding, its Works and their manifests). */
export const RESOURCE_BINDING_PERMANENT_ID_LABEL = 'resourcebinding.karmada.io/permanent-id';
/** Label carrying a ClusterResourceBinding's permanent id. */
export const CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL = 'clusterresourcebinding.karmada.io/permanent-id';

/** The permanent id of the (Cluster)ResourceBinding a Work (or manifest) was rendered from, if any. */
export function bindingIdOf(labels: Readonly<Record<string, string>> | undefined): string | undefined {
  return (
    labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL] || labels?.[CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL] || undefined
  );
}
