/**
 * Names Karmada gives to things, shared by every layer (shared/reference/karmada-behaviour.md §1.1).
 */
import { formatKey, parseApiVersion } from './object.ts';

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
export const OVERRIDE_POLICY = { group: 'policy.karmada.io', kind: 'OverridePolicy' } as const;
export const CLUSTER_OVERRIDE_POLICY = { group: 'policy.karmada.io', kind: 'ClusterOverridePolicy' } as const;
export const WORK = { group: WORK_GROUP, kind: 'Work' } as const;

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

/** Karmada's binding controller finalizer (on ResourceBindings): their Works are deleted first. */
export const BINDING_CONTROLLER_FINALIZER = 'karmada.io/binding-controller';
/** The same for ClusterResourceBindings. */
export const CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER = 'karmada.io/cluster-resource-binding-controller';
/** Karmada's execution controller finalizer (on Works): the member object is deleted (or released) first. */
export const EXECUTION_CONTROLLER_FINALIZER = 'karmada.io/execution-controller';

/** The resource template a binding's `spec.resource` names. */
export function templateRefOf(resource: { apiVersion: string; kind: string; namespace?: string; name: string }): {
  group: string;
  kind: string;
  namespace?: string;
  name: string;
} {
  const { group } = parseApiVersion(resource.apiVersion);
  return {
    group,
    kind: resource.kind,
    name: resource.name,
    ...(resource.namespace ? { namespace: resource.namespace } : {}),
  };
}

/** The key of the binding a Work was rendered from (its `resourcebinding.karmada.io/*` annotations), if any. */
export function bindingKeyOf(work: { metadata: { annotations?: Record<string, string> } }): string | undefined {
  const a = work.metadata.annotations ?? {};
  const namespace = a['resourcebinding.karmada.io/namespace'];
  const name = a['resourcebinding.karmada.io/name'];
  if (namespace && name) return formatKey({ ...RESOURCE_BINDING, namespace, name });
  const crb = a['clusterresourcebinding.karmada.io/name'];
  if (crb) return formatKey({ ...CLUSTER_RESOURCE_BINDING, name: crb });
  return undefined;
}
