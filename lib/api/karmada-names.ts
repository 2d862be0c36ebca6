/**
 * Names Karmada gives to things, shared by every layer (Karmada `pkg/util/names/names.go` and each API
 * group's `register.go`): API groups, kinds, execution namespaces and the binding a Work came from. The
 * labels, annotations and finalizers themselves are in well-known.ts.
 */
import { formatKey, parseApiVersion } from './object.ts';
import {
  CLUSTER_RESOURCE_BINDING_NAME_ANNOTATION,
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  RESOURCE_BINDING_NAME_ANNOTATION,
  RESOURCE_BINDING_NAMESPACE_ANNOTATION,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
} from './well-known.ts';

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

/** API group of PropagationPolicy, OverridePolicy, FederatedResourceQuota and their cluster-scoped kin. */
export const POLICY_GROUP = 'policy.karmada.io';

/** API group of ResourceInterpreterCustomization. */
export const CONFIG_GROUP = 'config.karmada.io';

/** API group of WorkloadRebalancer. */
export const APPS_GROUP = 'apps.karmada.io';

/** karmada-search's API group (ResourceRegistry, the proxy and the cache search). */
export const SEARCH_GROUP = 'search.karmada.io';

/** The kinds the scheduler and the detector work on. */
export const RESOURCE_BINDING = { group: WORK_GROUP, kind: 'ResourceBinding' } as const;
export const CLUSTER_RESOURCE_BINDING = { group: WORK_GROUP, kind: 'ClusterResourceBinding' } as const;
export const CLUSTER = { group: CLUSTER_GROUP, kind: 'Cluster' } as const;
export const PROPAGATION_POLICY = { group: POLICY_GROUP, kind: 'PropagationPolicy' } as const;
export const CLUSTER_PROPAGATION_POLICY = { group: POLICY_GROUP, kind: 'ClusterPropagationPolicy' } as const;
export const OVERRIDE_POLICY = { group: POLICY_GROUP, kind: 'OverridePolicy' } as const;
export const CLUSTER_OVERRIDE_POLICY = { group: POLICY_GROUP, kind: 'ClusterOverridePolicy' } as const;
export const CLUSTER_TAINT_POLICY = { group: POLICY_GROUP, kind: 'ClusterTaintPolicy' } as const;
export const WORK = { group: WORK_GROUP, kind: 'Work' } as const;
/** The kind the workload-rebalancer controller works on (cluster-scoped). */
export const WORKLOAD_REBALANCER = { group: APPS_GROUP, kind: 'WorkloadRebalancer' } as const;
export const FEDERATED_RESOURCE_QUOTA = { group: POLICY_GROUP, kind: 'FederatedResourceQuota' } as const;
export const RESOURCE_REGISTRY = { group: SEARCH_GROUP, kind: 'ResourceRegistry' } as const;

/** The permanent id of the (Cluster)ResourceBinding a Work (or manifest) was rendered from, if any. */
export function bindingIdOf(labels: Readonly<Record<string, string>> | undefined): string | undefined {
  return (
    labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL] || labels?.[CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL] || undefined
  );
}

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
  const namespace = a[RESOURCE_BINDING_NAMESPACE_ANNOTATION];
  const name = a[RESOURCE_BINDING_NAME_ANNOTATION];
  if (namespace && name) return formatKey({ ...RESOURCE_BINDING, namespace, name });
  const crb = a[CLUSTER_RESOURCE_BINDING_NAME_ANNOTATION];
  if (crb) return formatKey({ ...CLUSTER_RESOURCE_BINDING, name: crb });
  return undefined;
}
