/**
 * What Karmada's cluster status controller collects from a healthy member — Kubernetes version, API
 * enablements, node and resource summaries with the resource models' counts — through a
 * {@link MemberClient}. Used for Push clusters by the cluster-status controller and for Pull
 * clusters by the agent, so both report the same shape.
 */
import type { KubeObject } from '../api/object.ts';
import { allocatableModelings, nodeSummary, type ResourceModel, resourceSummary } from '../core/clusters/resources.ts';
import type { MemberClient } from './client.ts';

export interface CollectedStatus {
  kubernetesVersion: string;
  apiEnablements: { groupVersion: string; resources: { name: string; kind: string }[] }[];
  /** Karmada's `CompleteAPIEnablements` condition (without its transition time). */
  apiEnablementsCondition: {
    type: 'CompleteAPIEnablements';
    status: 'True' | 'False';
    reason: string;
    message: string;
  };
  nodeSummary: { totalNum: number; readyNum: number };
  resourceSummary: ReturnType<typeof resourceSummary> & { allocatableModelings?: { grade: number; count: number }[] };
}

/** Collects the status of a member; `models` from `Cluster.spec.resourceModels` (empty: no modelings). */
export async function collectStatus(client: MemberClient, models: readonly ResourceModel[]): Promise<CollectedStatus> {
  const [kubernetesVersion, apis, nodes, pods] = await Promise.all([
    client.kubernetesVersion(),
    collectApiEnablements(client),
    client.listAll('/api/v1/nodes'),
    // Finished pods hold no resources: not worth transferring.
    client.listAll(`/api/v1/pods?fieldSelector=${encodeURIComponent('status.phase!=Succeeded,status.phase!=Failed')}`),
  ]);
  const summary: CollectedStatus['resourceSummary'] = resourceSummary(nodes, pods);
  if (models.length > 0) summary.allocatableModelings = allocatableModelings(models, nodes, pods);
  return { kubernetesVersion, ...apis, nodeSummary: nodeSummary(nodes), resourceSummary: summary };
}

/**
 * The member's API enablements and Karmada's `CompleteAPIEnablements` condition: discovery only (two
 * requests, `/api` and `/apis`, against an aggregated-discovery server — kube-apiserver 1.27+ and the
 * simulated members; one more per group version against an older one), cheap enough for every status
 * update, as Karmada refreshes them — so a CRD installed on a member is schedulable within one status
 * period. A group version the member could not read (a Stale one) makes the condition `Partial`.
 */
export async function collectApiEnablements(
  client: MemberClient,
): Promise<Pick<CollectedStatus, 'apiEnablements' | 'apiEnablementsCondition'>> {
  const { enablements: apiEnablements, partial } = await client.apiEnablements();
  return {
    apiEnablements,
    apiEnablementsCondition: partial
      ? {
          type: 'CompleteAPIEnablements',
          status: 'False',
          reason: 'Partial',
          message: 'collected partial APIs from member cluster',
        }
      : apiEnablements.length
        ? {
            type: 'CompleteAPIEnablements',
            status: 'True',
            reason: 'Complete',
            message: 'collected complete APIs from member cluster',
          }
        : {
            type: 'CompleteAPIEnablements',
            status: 'False',
            reason: 'Empty',
            message: 'collected empty APIs from member cluster',
          },
  };
}

/** The resource models of a Cluster's spec. */
export function resourceModelsOf(cluster: KubeObject): ResourceModel[] {
  return ((cluster.spec as { resourceModels?: ResourceModel[] } | undefined)?.resourceModels ?? []).filter((m) =>
    Array.isArray(m.ranges),
  );
}
