/**
 * `TaintToleration` filter (Karmada `plugins/tainttoleration`): a cluster with a `NoSchedule` or
 * `NoExecute` taint the placement does not tolerate is filtered out — unless the binding is already
 * scheduled there (eviction, not the scheduler, moves running workloads).
 */
import { taintString, untoleratedTaint } from '../../../placement/tolerations.ts';
import {
  type ClusterInfo,
  type FilterPlugin,
  type ScheduleUnit,
  SUCCESS,
  unschedulable,
} from '../../framework/interface.ts';

export const NAME = 'TaintToleration';

export function create(): FilterPlugin {
  return {
    name: NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      if (unit.scheduled.has(cluster.name)) return SUCCESS;
      const taint = untoleratedTaint(cluster.cluster.spec?.taints ?? [], unit.spec.placement?.clusterTolerations ?? []);
      return taint ? unschedulable(`cluster(s) had untolerated taint {${taintString(taint)}}`) : SUCCESS;
    },
  };
}
