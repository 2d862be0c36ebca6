/**
 * `TaintToleration` filter (Karmada `plugins/tainttoleration`): a cluster with a `NoSchedule` or
 * `NoExecute` taint the placement does not tolerate is filtered out — unless the binding is already
 * scheduled there (eviction, not the scheduler, moves running workloads).
 */
import type { Taint, Toleration } from '../../../model/types.ts';
import {
  type ClusterInfo,
  type FilterPlugin,
  type ScheduleUnit,
  SUCCESS,
  unschedulable,
} from '../../framework/interface.ts';

export const NAME = 'TaintToleration';

/** Kubernetes `Toleration.ToleratesTaint`. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
    case '':
      return (toleration.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** Kubernetes `Taint.ToString()`: `key=value:effect`, or `key:effect` without a value. */
export function taintString(taint: Taint): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}

/** The first NoSchedule/NoExecute taint no toleration matches (Kubernetes `FindMatchingUntoleratedTaint`). */
export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  for (const taint of taints) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerations.some((t) => toleratesTaint(t, taint))) return taint;
  }
  return undefined;
}

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
