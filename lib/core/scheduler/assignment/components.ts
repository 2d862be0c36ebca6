/**
 * Multi-template workloads (`spec.components`, e.g. FlinkDeployment, RayJob, PyTorchJob) are placed
 * as whole component sets: one set is the workload with every component at its declared replicas,
 * and a cluster's capacity for the binding is the number of sets it can host (Karmada ≥ 1.16
 * estimator `MaxAvailableComponentSets`, computed by the caller into `allocatableReplicas`).
 *
 * What Karmada master does (`pkg/scheduler/core/common.go AssignReplicas`, `estimation.go`): component
 * bindings skip replica assignment entirely and go to EVERY selected cluster with no `replicas`,
 * whatever the replica scheduling strategy says; a single-cluster placement happens only when the
 * policy has a `cluster` spread constraint with minGroups = maxGroups = 1, in which case selection
 * (not assignment) needs one available set. Karmada v1.19 also writes `components` (name and replicas of
 * each component) into each target of a workload with several components, in that single-cluster mode;
 * here every target of such a workload holds a whole set, so every target carries them.
 *
 * Here, deliberately (docs/decisions/0007-scheduler.md, "Components are scheduled"):
 * - Duplicated (or no `replicaScheduling`) ⇒ every candidate gets the whole workload, no capacity
 *   check (as Duplicated replicas and as master);
 * - Divided (any division preference) ⇒ the whole set goes to ONE cluster, Aggregated-style: a
 *   previous cluster still among the candidates is kept (Steady mode; it already runs the set, so its
 *   free capacity is not asked for), otherwise the candidate that can host the most sets wins (ties
 *   by the candidates' order: score, then available, then name); `Unschedulable` when no candidate
 *   can host one set. Fresh mode ignores the previous choice but counts the set a cluster already
 *   runs as capacity (like Karmada's Fresh mode does for replicas).
 * Targets carry no `replicas`, as in Karmada: the binding controller renders the template unchanged.
 */
import type { ResourceBindingSpec, TargetCluster } from '../../model/types.ts';
import { type ClusterDetail, fail, ok, type Outcome } from '../framework/types.ts';

/** True when the binding is scheduled as component sets: `spec.components` is non-empty. */
export function isComponentBinding(spec: Pick<ResourceBindingSpec, 'components'>): boolean {
  return (spec.components?.length ?? 0) > 0;
}

/**
 * Places a component binding on `candidates` (see the module comment): `Duplicated` ⇒ all of them,
 * `Divided` ⇒ the best single one. The result is unsorted; every target has no `replicas`.
 *
 * @example
 * assignComponentSets([m1 (0 sets), m2 (2 sets)], { components }, false, 'Divided') // [{ name: 'm2' }]
 */
export function assignComponentSets(
  candidates: readonly ClusterDetail[],
  spec: Pick<ResourceBindingSpec, 'clusters' | 'components'>,
  fresh: boolean,
  type: 'Duplicated' | 'Divided',
): Outcome<TargetCluster[]> {
  const target = (name: string): TargetCluster => withComponents(name, spec.components);
  if (type === 'Duplicated') return ok(candidates.map((c) => target(c.name)));

  const previous = new Set((spec.clusters ?? []).map((t) => t.name));
  if (!fresh) {
    const kept = candidates.find((c) => previous.has(c.name));
    if (kept) return ok([target(kept.name)]);
  }
  let best: ClusterDetail | undefined;
  let bestSets = 0;
  let totalSets = 0;
  for (const c of candidates) {
    const sets = c.allocatableReplicas + (fresh && previous.has(c.name) ? 1 : 0);
    totalSets += sets;
    if (sets >= 1 && sets > bestSets) {
      best = c;
      bestSets = sets;
    }
  }
  if (!best) return fail('Unschedulable', `Clusters available replicas ${totalSets} are not enough to schedule.`);
  return ok([target(best.name)]);
}

/** A target holding one whole set: its per-component replicas when the workload has several (v1.19). */
function withComponents(name: string, components: ResourceBindingSpec['components']): TargetCluster {
  if (!components || components.length <= 1) return { name };
  return { name, components: components.map((c) => ({ name: c.name, replicas: c.replicas })) };
}
