/**
 * `ClusterAffinity` filter and (zero) score (Karmada `plugins/clusteraffinity`): the cluster must match
 * `placement.clusterAffinity`, or the `clusterAffinities` term being tried (label and field selectors,
 * names, exclusions — `clusterMatches`). No affinity: every cluster passes.
 */
import { clusterMatches } from '../../../placement/affinity.ts';
import {
  type ClusterInfo,
  type FilterPlugin,
  MIN_CLUSTER_SCORE,
  type ScheduleUnit,
  type ScorePlugin,
  SUCCESS,
  unschedulable,
} from '../../framework/interface.ts';

export const NAME = 'ClusterAffinity';

export function create(): FilterPlugin & ScorePlugin {
  return {
    name: NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      if (!unit.affinity || clusterMatches(cluster.cluster, unit.affinity)) return SUCCESS;
      return unschedulable('cluster(s) did not match the placement cluster affinity constraint');
    },
    score() {
      return MIN_CLUSTER_SCORE;
    },
  };
}
