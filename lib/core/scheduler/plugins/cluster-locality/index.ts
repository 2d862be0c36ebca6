/**
 * `ClusterLocality` score (Karmada `plugins/clusterlocality`): clusters the binding already runs on
 * score the maximum, so a reschedule prefers to stay where it is.
 */
import {
  type ClusterInfo,
  MAX_CLUSTER_SCORE,
  MIN_CLUSTER_SCORE,
  type ScheduleUnit,
  type ScorePlugin,
} from '../../framework/interface.ts';

export const NAME = 'ClusterLocality';

export function create(): ScorePlugin {
  return {
    name: NAME,
    score(unit: ScheduleUnit, cluster: ClusterInfo) {
      return unit.scheduled.has(cluster.name) ? MAX_CLUSTER_SCORE : MIN_CLUSTER_SCORE;
    },
  };
}
