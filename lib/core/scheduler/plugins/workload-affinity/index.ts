/**
 * `WorkloadAffinity` and `WorkloadAntiAffinity` filters (Karmada ≥ 1.17, gate `WorkloadAffinity`;
 * `plugins/workloadaffinity`, `plugins/workloadantiaffinity`): bindings of one namespace whose templates
 * share a `placement.workloadAffinity` label value (`spec.workloadAffinityGroups`) go where the others of
 * their affinity group are, and away from the others of their anti-affinity group. A cluster the binding
 * is already on always passes, so these filters never remove a placed copy. The first binding of a group
 * (no peer placed yet) is not blocked.
 */
import {
  type ClusterInfo,
  type FilterPlugin,
  type ScheduleUnit,
  SUCCESS,
  unschedulable,
} from '../../framework/interface.ts';

export const AFFINITY_NAME = 'WorkloadAffinity';
export const ANTI_AFFINITY_NAME = 'WorkloadAntiAffinity';

export function createAffinity(): FilterPlugin {
  return {
    name: AFFINITY_NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      if (unit.scheduled.has(cluster.name) || !unit.spec.workloadAffinityGroups?.affinityGroup) return SUCCESS;
      for (const peer of unit.workloadPeers?.affinity ?? []) {
        if (peer.clusters.length > 0 && !peer.clusters.includes(cluster.name)) {
          return unschedulable('ResourceBinding with the same affinity group does not target this cluster');
        }
      }
      return SUCCESS;
    },
  };
}

export function createAntiAffinity(): FilterPlugin {
  return {
    name: ANTI_AFFINITY_NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      if (unit.scheduled.has(cluster.name) || !unit.spec.workloadAffinityGroups?.antiAffinityGroup) return SUCCESS;
      for (const peer of unit.workloadPeers?.antiAffinity ?? []) {
        if (peer.clusters.includes(cluster.name)) {
          return unschedulable('cluster already has workload with the same anti-affinity group');
        }
      }
      return SUCCESS;
    },
  };
}
