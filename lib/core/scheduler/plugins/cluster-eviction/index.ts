/**
 * `ClusterEviction` filter (Karmada `plugins/clustereviction`): a cluster the binding is being evicted
 * from (a `gracefulEvictionTasks[].fromCluster`) cannot take it back while the eviction is under way.
 */
import {
  type ClusterInfo,
  type FilterPlugin,
  type ScheduleUnit,
  SUCCESS,
  unschedulable,
} from '../../framework/interface.ts';

export const NAME = 'ClusterEviction';

export function create(): FilterPlugin {
  return {
    name: NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      const evicting = unit.spec.gracefulEvictionTasks?.some((t) => t.fromCluster === cluster.name);
      return evicting ? unschedulable('cluster(s) is in the process of eviction') : SUCCESS;
    },
  };
}
