/**
 * FederatedResourceQuota static assignments (Karmada's `federated-resource-quota-sync-controller` and
 * `-status-controller`): each `spec.staticAssignments[]` entry becomes a `v1/ResourceQuota` named like
 * the quota, in the quota's namespace of the named member, through a Work; the members' ResourceQuota
 * status comes back as `status.aggregatedStatus[]` (sorted by cluster).
 */
import {
  CONFLICT_RESOLUTION_ANNOTATION,
  CONFLICT_RESOLUTION_OVERWRITE,
  EXECUTION_CONTROLLER_FINALIZER,
  MANAGED_BY_KARMADA_LABEL,
  MANAGED_BY_KARMADA_LABEL_VALUE,
  FEDERATED_RESOURCE_QUOTA_NAME_LABEL,
  FEDERATED_RESOURCE_QUOTA_NAMESPACE_LABEL,
} from '../../api/well-known.ts';
import type { KubeObject } from '../model/types.ts';
import { executionNamespace } from '../../api/karmada-names.ts';
import { generateWorkName } from '../work/names.ts';
import { deepEqual } from '../../util/json.ts';

type ResourceList = Record<string, string>;

/** One member's share of a quota, as `status.aggregatedStatus[]` holds it. */
export interface ClusterQuotaStatus {
  clusterName: string;
  hard?: ResourceList;
  used?: ResourceList;
}

/** The Works a quota's static assignments want, one per named cluster (later duplicates win). */
export function staticAssignmentWorks(frq: KubeObject): KubeObject[] {
  const namespace = frq.metadata.namespace ?? '';
  const name = frq.metadata.name ?? '';
  const assignments = (frq.spec as { staticAssignments?: { clusterName?: string; hard?: ResourceList }[] } | undefined)
    ?.staticAssignments;
  const byCluster = new Map<string, ResourceList>();
  for (const a of assignments ?? []) if (a.clusterName) byCluster.set(a.clusterName, { ...(a.hard ?? {}) });
  const labels = {
    [FEDERATED_RESOURCE_QUOTA_NAMESPACE_LABEL]: namespace,
    [FEDERATED_RESOURCE_QUOTA_NAME_LABEL]: name,
  };
  return [...byCluster.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([cluster, hard]) => ({
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: {
        name: generateWorkName('ResourceQuota', name, namespace),
        namespace: executionNamespace(cluster),
        labels: { ...labels },
        finalizers: [EXECUTION_CONTROLLER_FINALIZER],
        ...(frq.metadata.uid
          ? {
              ownerReferences: [
                {
                  apiVersion: frq.apiVersion,
                  kind: frq.kind,
                  name,
                  uid: frq.metadata.uid,
                  controller: true,
                  blockOwnerDeletion: true,
                },
              ],
            }
          : {}),
      },
      spec: {
        workload: {
          manifests: [
            {
              apiVersion: 'v1',
              kind: 'ResourceQuota',
              metadata: {
                name,
                namespace,
                labels: { ...labels, [MANAGED_BY_KARMADA_LABEL]: MANAGED_BY_KARMADA_LABEL_VALUE },
                // The administrator assigned this quota: a ResourceQuota of that name is taken over.
                annotations: { [CONFLICT_RESOLUTION_ANNOTATION]: CONFLICT_RESOLUTION_OVERWRITE },
              },
              spec: { hard },
            },
          ],
        },
      },
    }));
}

/**
 * `status.aggregatedStatus`: per cluster whose Work is applied and reports the ResourceQuota's status,
 * its `hard` and `used` (Karmada: only Applied Works with a manifest status), sorted by cluster.
 */
export function quotaAggregatedStatus(works: readonly { cluster: string; work: KubeObject }[]): ClusterQuotaStatus[] {
  const out: ClusterQuotaStatus[] = [];
  for (const { cluster, work } of works) {
    const status = work['status'] as
      { conditions?: { type: string; status: string }[]; manifestStatuses?: { status?: unknown }[] } | undefined;
    if (!status?.conditions?.some((c) => c.type === 'Applied' && c.status === 'True')) continue;
    const reported = status.manifestStatuses?.[0]?.status as { hard?: ResourceList; used?: ResourceList } | undefined;
    if (!reported) continue;
    out.push({
      clusterName: cluster,
      ...(reported.hard ? { hard: { ...reported.hard } } : {}),
      ...(reported.used ? { used: { ...reported.used } } : {}),
    });
  }
  return out.sort((a, b) => (a.clusterName < b.clusterName ? -1 : a.clusterName > b.clusterName ? 1 : 0));
}

/** Whether a rendered static-assignment Work differs from the stored one (spec and labels). */
export function staticWorkChanged(want: KubeObject, have: KubeObject | undefined): boolean {
  if (!have) return true;
  return !deepEqual(want['spec'], have['spec']) || !deepEqual(want.metadata.labels ?? {}, have.metadata.labels ?? {});
}
