/**
 * Taints and tolerations as Kubernetes defines them (`k8s.io/api/core/v1` `Toleration.ToleratesTaint`,
 * `Taint.ToString`, `k8s.io/component-helpers/scheduling/corev1` `FindMatchingUntoleratedTaint`), which
 * Karmada applies to clusters: the scheduler's TaintToleration filter
 * (`pkg/scheduler/framework/plugins/tainttoleration`) and the taint manager's eviction
 * (`pkg/util/helper/taint.go`) both decide with these.
 */
import type { Taint, Toleration } from '../model/types.ts';

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
