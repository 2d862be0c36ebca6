/**
 * `APIEnablement` filter (Karmada `plugins/apienablement`): a cluster must serve the binding's kind
 * (its `status.apiEnablements` lists the group/version and kind). Clusters the binding is already
 * scheduled to pass, so a member losing an API does not move a running workload.
 */
import {
  type ClusterInfo,
  type FilterPlugin,
  type ScheduleUnit,
  SUCCESS,
  unschedulable,
} from '../../framework/interface.ts';

export const NAME = 'APIEnablement';

export function create(): FilterPlugin {
  return {
    name: NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      if (unit.scheduled.has(cluster.name)) return SUCCESS;
      if (cluster.gvks.has(unit.gvk)) return SUCCESS;
      if (!cluster.apiEnablementsComplete) {
        return unschedulable('cluster(s) API enablements are incomplete and do not list the API resource');
      }
      return unschedulable('cluster(s) did not have the API resource');
    },
  };
}
