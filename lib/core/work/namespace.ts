/**
 * Namespace auto-propagation (Karmada's namespace sync controller, `buildWorks`): which namespaces go
 * to every member, and the Work that carries one to one cluster, with the ClusterOverridePolicies that
 * select it applied (Karmada: "namespace only care about ClusterOverridePolicy").
 */
import {
  APPLIED_CLUSTER_OVERRIDES_ANNOTATION,
  CONFLICT_RESOLUTION_ANNOTATION,
  CONFLICT_RESOLUTION_OVERWRITE,
  EXECUTION_CONTROLLER_FINALIZER,
  MANAGED_BY_KARMADA_LABEL,
  MANAGED_BY_KARMADA_LABEL_VALUE,
  SKIP_AUTO_PROPAGATION_LABEL,
} from '../../api/well-known.ts';
import { EXECUTION_NAMESPACE_PREFIX, executionNamespace, WORK_GROUP } from '../../api/karmada-names.ts';
import { appliedOverridesAnnotations, applyOverrides } from '../overrides/apply.ts';
import { applicablePolicies } from '../overrides/select.ts';
import type { OverridePolicy } from '../overrides/types.ts';
import type { Cluster, KubeObject } from '../model/types.ts';
import { generateWorkName } from './names.ts';

/** True when Karmada propagates this namespace to members (`namespaceShouldBeSynced`). */
export function namespaceShouldBeSynced(ns: KubeObject): boolean {
  const name = ns.metadata.name ?? '';
  if (name === 'default' || name === 'karmada-system' || name === 'karmada-cluster') return false;
  if (name.startsWith(EXECUTION_NAMESPACE_PREFIX) || /^kube-.*$/.test(name)) return false;
  return ns.metadata.labels?.[SKIP_AUTO_PROPAGATION_LABEL] !== 'true';
}

/**
 * The namespaces a ClusterOverridePolicy change concerns (Karmada's `clusterOverridePolicyNamespaceFn`):
 * `'all'` when a `v1/Namespace` selector has no name, else the names it selects (none: not about namespaces).
 */
export function namespacesSelectedBy(policy: OverridePolicy): 'all' | string[] {
  const names: string[] = [];
  for (const s of policy.spec?.resourceSelectors ?? []) {
    if (s.apiVersion !== 'v1' || s.kind !== 'Namespace') continue;
    if (!s.name) return 'all';
    names.push(s.name);
  }
  return names;
}

export interface NamespaceWorkInput {
  namespace: KubeObject;
  cluster: Cluster;
  /** The Work already stored for it, if any (its metadata and status are kept). */
  existing?: KubeObject | undefined;
  clusterOverridePolicies?: readonly OverridePolicy[];
}

/** The Work carrying a namespace to a cluster, or why the overrides could not apply. */
export type NamespaceWorkResult = { ok: true; work: KubeObject } | { ok: false; error: string };

/**
 * The Work that carries `namespace` to `cluster`: the namespace's labels and annotations, with every
 * ClusterOverridePolicy that selects it for this cluster applied (recorded in
 * `policy.karmada.io/applied-cluster-overrides` on the Work), marked managed by Karmada and adopting a
 * namespace the member already has (`conflict-resolution: overwrite`).
 */
export function namespaceWork({
  namespace,
  cluster,
  existing,
  clusterOverridePolicies = [],
}: NamespaceWorkInput): NamespaceWorkResult {
  const name = namespace.metadata.name!;
  const annotations = { ...(namespace.metadata.annotations ?? {}) };
  delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
  const base: KubeObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      ...(namespace.metadata.labels ? { labels: { ...namespace.metadata.labels } } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
  };
  const overridden = applyOverrides(base, applicablePolicies({ template: base, cluster, clusterOverridePolicies }));
  if (!overridden.ok) return { ok: false, error: overridden.error };
  const manifest = overridden.object;
  manifest.metadata = {
    ...manifest.metadata,
    name,
    labels: { ...(manifest.metadata.labels ?? {}), [MANAGED_BY_KARMADA_LABEL]: MANAGED_BY_KARMADA_LABEL_VALUE },
    // A namespace often exists on a member already: it is adopted.
    annotations: {
      ...(manifest.metadata.annotations ?? {}),
      [CONFLICT_RESOLUTION_ANNOTATION]: CONFLICT_RESOLUTION_OVERWRITE,
    },
  };
  const finalizers = [...(existing?.metadata.finalizers ?? [])];
  if (!finalizers.includes(EXECUTION_CONTROLLER_FINALIZER)) finalizers.push(EXECUTION_CONTROLLER_FINALIZER);
  const workAnnotations = { ...(existing?.metadata.annotations ?? {}) };
  delete workAnnotations[APPLIED_CLUSTER_OVERRIDES_ANNOTATION];
  Object.assign(workAnnotations, appliedOverridesAnnotations(overridden.applied));
  const metadata: KubeObject['metadata'] = {
    ...(existing?.metadata ?? {}),
    name: generateWorkName('Namespace', name),
    namespace: executionNamespace(cluster.metadata.name!),
    finalizers,
    ownerReferences: [
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        name,
        uid: namespace.metadata.uid!,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
  if (Object.keys(workAnnotations).length > 0) metadata.annotations = workAnnotations;
  else delete metadata.annotations;
  return {
    ok: true,
    work: {
      apiVersion: `${WORK_GROUP}/v1alpha1`,
      kind: 'Work',
      metadata,
      spec: { workload: { manifests: [manifest] } },
      ...(existing?.status ? { status: existing.status } : {}),
    },
  };
}
