/**
 * The dynamic strategies, Divided + Aggregated and Divided + Weighted by `AvailableReplicas`
 * (Karmada v1.15 `assignment.go assignByDynamicStrategy`, `division_algorithm.go`), which divide by
 * what the clusters can still take and disturb the previous result as little as possible:
 *
 * - Steady mode (default), with `scheduled` = the previous `spec.clusters` entries still among the
 *   candidates and `assigned` = their sum:
 *   - `assigned < replicas` (first schedule included) ⇒ scale up: only the extra
 *     `replicas − assigned` are divided, by each candidate's `allocatableReplicas`, and added to
 *     `scheduled`;
 *   - `assigned > replicas` ⇒ scale down: `replicas` are divided in proportion to `scheduled`,
 *     capacity ignored. Karmada v1.15 divided by the WHOLE previous `spec.clusters`, non-candidates
 *     included, which can put replicas on a cluster the placement no longer allows (found here by the
 *     deterministic simulation: a policy narrowed to two clusters and a scale-down in one pass left
 *     replicas on the third); later Karmada divides by the filtered list, as here;
 *   - equal ⇒ `scheduled` is kept as it is.
 * - Fresh mode (`rescheduleTriggeredAt` later than `lastScheduledTime`): everything is divided again
 *   by `allocatableReplicas` + what each candidate already runs.
 *
 * Aggregated first keeps the clusters that already have replicas in front, then only the shortest
 * prefix of the (capacity-descending) list whose capacity covers the target.
 */
import type { ResourceBindingSpec, TargetCluster } from '../../model/types.ts';
import { type ClusterDetail, fail, ok, type Outcome } from '../framework/types.ts';
import { spreadByTargetClusters } from './dispenser.ts';

/** The two dynamic strategies (Karmada `AggregatedStrategy`, `DynamicWeightStrategy`). */
export type DynamicStrategy = 'Aggregated' | 'DynamicWeight';

/**
 * True when the user asked for a complete recalculation (Karmada `util.RescheduleRequired`): a
 * `rescheduleTriggeredAt` the last successful schedule has not answered. False when either it or
 * `lastScheduledTime` is missing (no finished schedule yet: that first schedule is already fresh) or
 * unparsable.
 *
 * Karmada's test is `rescheduleTriggeredAt` strictly later than `lastScheduledTime`, both in whole
 * seconds: a WorkloadRebalancer created in the same second as the binding's last schedule, or one
 * whose stamp landed after a schedule that came between its creation and the stamp, is silently never
 * answered. Here a binding scheduled by this scheduler carries the trigger its last successful
 * schedule saw (`observedTrigger`, annotation `resourcebinding.serverless-karmada.io/observed-reschedule-trigger`;
 * empty when there was none), and any other trigger is fresh; without that record, Karmada's test.
 */
export function isFreshReschedule(
  rescheduleTriggeredAt?: string,
  lastScheduledTime?: string,
  observedTrigger?: string,
): boolean {
  if (!rescheduleTriggeredAt || !lastScheduledTime) return false;
  const triggered = Date.parse(rescheduleTriggeredAt);
  const last = Date.parse(lastScheduledTime);
  if (!Number.isFinite(triggered) || !Number.isFinite(last)) return false;
  if (observedTrigger !== undefined) return observedTrigger !== rescheduleTriggeredAt;
  return triggered > last;
}

/**
 * Divides `spec.replicas` among `candidates` with a dynamic strategy. Fails with `Unschedulable`
 * (`Clusters available replicas N are not enough to schedule.`) when the weights cannot hold the
 * replicas to place. The result may hold entries with 0 replicas; order is not significant.
 */
export function assignByDynamic(
  candidates: readonly ClusterDetail[],
  spec: Pick<ResourceBindingSpec, 'replicas' | 'clusters'>,
  fresh: boolean,
  strategy: DynamicStrategy,
): Outcome<TargetCluster[]> {
  const replicas = spec.replicas ?? 0;
  const previous = (spec.clusters ?? []).map((t) => ({ name: t.name, replicas: t.replicas ?? 0 }));
  const candidateNames = new Set(candidates.map((c) => c.name));
  const scheduled = previous.filter((t) => candidateNames.has(t.name));
  const assigned = sum(scheduled);

  let target: number;
  let available: TargetCluster[];
  let init: TargetCluster[];
  if (fresh) {
    target = replicas;
    init = [];
    available = byReplicasDesc(
      candidates.map((c) => ({
        name: c.name,
        replicas: c.allocatableReplicas + (scheduled.find((s) => s.name === c.name)?.replicas ?? 0),
      })),
    );
  } else if (assigned > replicas) {
    target = replicas;
    init = [];
    available = byReplicasDesc(scheduled);
  } else if (assigned < replicas) {
    target = replicas - assigned;
    init = scheduled;
    available = byReplicasDesc(candidates.map((c) => ({ name: c.name, replicas: c.allocatableReplicas })));
  } else {
    return ok(scheduled);
  }

  const availableReplicas = sum(available);
  if (availableReplicas < target) {
    return fail('Unschedulable', `Clusters available replicas ${availableReplicas} are not enough to schedule.`);
  }
  if (strategy === 'Aggregated') available = aggregate(available, init, target);
  return ok(spreadByTargetClusters(target, available, init));
}

/**
 * Karmada `resortAvailableClusters` + the Aggregated cut: clusters that already run replicas move to
 * the front (keeping their order), then the list is cut after the first cluster at which the running
 * capacity total reaches `target`.
 */
function aggregate(available: TargetCluster[], init: readonly TargetCluster[], target: number): TargetCluster[] {
  const prior = new Set(init.filter((t) => (t.replicas ?? 0) > 0).map((t) => t.name));
  const ordered =
    prior.size === 0
      ? available
      : [...available.filter((a) => prior.has(a.name)), ...available.filter((a) => !prior.has(a.name))];
  let total = 0;
  for (let i = 0; i < ordered.length; i++) {
    total += ordered[i]!.replicas ?? 0;
    if (total >= target) return ordered.slice(0, i + 1);
  }
  return ordered;
}

/** Stable sort by replicas descending (Go's `sort.Sort` on ≤ 12 items is an insertion sort). */
function byReplicasDesc(list: TargetCluster[]): TargetCluster[] {
  return [...list].sort((a, b) => (b.replicas ?? 0) - (a.replicas ?? 0));
}

function sum(list: readonly TargetCluster[]): number {
  return list.reduce((s, t) => s + (t.replicas ?? 0), 0);
}
