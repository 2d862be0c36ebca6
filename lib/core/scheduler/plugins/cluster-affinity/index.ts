/**
 * `ClusterAffinity` filter and (zero) score (Karmada `plugins/clusteraffinity`): the cluster must match
 * `placement.clusterAffinity`, or the `clusterAffinities` term being tried (label and field selectors,
 * names, exclusions — `clusterMatches`). No affinity: every cluster passes.
 */
import { clusterMatches } from '../../../placement/affinity.ts';
import { isWorkload, overflowTerms } from '../../framework/overflow.ts';
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

/** Its filter reason: the cluster is outside the placement (what a failed schedule still drops). */
export const AFFINITY_MISMATCH_REASON = 'cluster(s) did not match the placement cluster affinity constraint';

export function create(): FilterPlugin & ScorePlugin {
  return {
    name: NAME,
    filter(unit: ScheduleUnit, cluster: ClusterInfo) {
      if (!unit.affinity || clusterMatches(cluster.cluster, unit.affinity)) return SUCCESS;
      // Karmada ≥ 1.18: a workload may also go to the term's overflow groups (other kinds take no capacity).
      if (isWorkload(unit.spec) && overflowTerms(unit.affinity).some((o) => clusterMatches(cluster.cluster, o))) {
        return SUCCESS;
      }
      return unschedulable(AFFINITY_MISMATCH_REASON);
    },
    score() {
      return MIN_CLUSTER_SCORE;
    },
  };
}
