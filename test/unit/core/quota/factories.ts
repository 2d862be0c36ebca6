/** Binding-spec and quota factories for the FederatedResourceQuota tables. */
import type { QuotaBindingSpec, QuotaUsageView } from '../../../../lib/core/quota/index.ts';
import type { Component, ResourceList } from '../../../../lib/core/model/types.ts';

/** A single-template binding: per-replica `request`, scheduled `clusters` (`{ m1: 2 }`). */
export function replicaSpec(
  request: ResourceList | undefined,
  clusters: Record<string, number> = {},
): QuotaBindingSpec {
  return {
    ...(request ? { replicaRequirements: { resourceRequest: request } } : {}),
    clusters: Object.entries(clusters).map(([name, replicas]) => ({ name, replicas })),
  };
}

/** One component: `replicas` pods requesting `request` each (no requirements when undefined). */
export function component(name: string, replicas: number, request?: ResourceList): Component {
  return { name, replicas, ...(request ? { replicaRequirements: { resourceRequest: request } } : {}) };
}

/** A multi-template binding scheduled to `clusters` (names; per-cluster replicas unset, as Karmada's tests). */
export function componentSpec(components: Component[], clusters: string[]): QuotaBindingSpec {
  return { components, clusters: clusters.map((name) => ({ name })) };
}

/** A quota of namespace `quota-ns` (Karmada's test namespace). */
export function quota(name: string, overall: ResourceList, overallUsed: ResourceList = {}): QuotaUsageView {
  return { namespace: 'quota-ns', name, overall, overallUsed };
}
