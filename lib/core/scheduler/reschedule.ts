/**
 * Whether a binding needs a scheduling pass, and why (Karmada `pkg/scheduler/scheduler.go`
 * `doScheduleBinding`), plus which bindings the scheduler owns.
 */
import {
  APPLIED_PLACEMENT_ANNOTATION,
  CPP_PERMANENT_ID_LABEL,
  OBSERVED_RESCHEDULE_TRIGGER_ANNOTATION,
  PP_PERMANENT_ID_LABEL,
} from '../../api/well-known.ts';
import { deepEqual } from '../../util/json.ts';
import type { Placement, ResourceBinding } from '../model/types.ts';
import { isFreshReschedule } from './assignment/dynamic.ts';
import type { Snapshot } from './snapshot.ts';

/** `spec.schedulerName` empty means this scheduler's default name. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export type ScheduleTrigger =
  /** Never scheduled (no `Scheduled` condition yet). */
  | 'FirstSchedule'
  /** The placement differs from the applied-placement annotation. */
  | 'PlacementChanged'
  /** `spec.replicas` differs from what `spec.clusters` holds. */
  | 'ReplicasChanged'
  /** `spec.rescheduleTriggeredAt` not answered yet (WorkloadRebalancer; see `isFreshReschedule`). */
  | 'RescheduleTriggered'
  /** Duplicated or replica-less bindings are rescheduled on every pass, as in Karmada. */
  | 'AlwaysReschedule'
  /** A cluster in `spec.clusters` is being deleted or is gone. */
  | 'TargetClusterRemoved'
  /** The last attempt failed (`Scheduled=False`): try again, capacity or clusters may have changed (#3112). */
  | 'RetryFailed'
  /** The spec of a multi-template binding changed since it was scheduled (components may need more room). */
  | 'ComponentsChanged';

/**
 * The `rescheduleTriggeredAt` the binding's last successful schedule saw ('' for none), or undefined
 * when no schedule recorded it (see `isFreshReschedule`).
 */
export function observedTriggerOf(binding: ResourceBinding): string | undefined {
  return binding.metadata.annotations?.[OBSERVED_RESCHEDULE_TRIGGER_ANNOTATION];
}

/**
 * Whether this scheduler owns the binding (`spec.schedulerName`) and scheduling is not suspended. An
 * attached binding — one that exists only because other bindings require its object (`propagateDeps`):
 * `requiredBy` entries, no placement and no policy's claim — is never scheduled; the binder renders it to the clusters of the
 * bindings that require it (Karmada's scheduler event filter admits only bindings a policy claims).
 * Scheduled once (by a resync that enqueued every binding), it went to every cluster and outlived
 * the workload that brought it.
 */
export function isSchedulable(binding: ResourceBinding, schedulerName = DEFAULT_SCHEDULER_NAME): boolean {
  if (binding.metadata.deletionTimestamp) return false;
  const labels = binding.metadata.labels ?? {};
  const attached =
    Boolean(binding.spec.requiredBy?.length) &&
    !binding.spec.placement &&
    !labels[PP_PERMANENT_ID_LABEL] &&
    !labels[CPP_PERMANENT_ID_LABEL];
  if (attached) return false;
  if (binding.spec.suspension?.scheduling === true) return false;
  return (binding.spec.schedulerName || DEFAULT_SCHEDULER_NAME) === schedulerName;
}

/**
 * Why `binding` must be (re)scheduled now, or undefined when its current result stands (then only
 * `status.schedulerObservedGeneration` is brought up to date).
 */
export function scheduleTrigger(binding: ResourceBinding, snapshot: Snapshot): ScheduleTrigger | undefined {
  const spec = binding.spec;
  const status = binding.status ?? {};
  const scheduled = status.conditions?.find((c) => c.type === 'Scheduled');
  if (!scheduled) return 'FirstSchedule';
  const applied = binding.metadata.annotations?.[APPLIED_PLACEMENT_ANNOTATION];
  if (placementChanged(spec.placement ?? {}, applied, status.schedulerObservingAffinityName)) return 'PlacementChanged';
  const clusters = spec.clusters ?? [];
  const replicas = spec.replicas ?? 0;
  const duplicated = (spec.placement?.replicaScheduling?.replicaSchedulingType ?? 'Duplicated') === 'Duplicated';
  // Karmada `IsBindingReplicasChanged`: for Divided an empty `spec.clusters` (e.g. its only cluster
  // was evicted) sums to 0 and so differs from a positive `spec.replicas`.
  if (!spec.components?.length) {
    if (duplicated ? clusters.some((c) => (c.replicas ?? 0) !== replicas) : sumReplicas(clusters) !== replicas) {
      return 'ReplicasChanged';
    }
  }
  // Karmada `RescheduleRequired`: compared as instants (not as text), and never before a first
  // successful schedule (no lastScheduledTime) — the same test as assignment's Fresh mode.
  if (isFreshReschedule(spec.rescheduleTriggeredAt, status.lastScheduledTime, observedTriggerOf(binding)))
    return 'RescheduleTriggered';
  if (scheduled.status !== 'True') return 'RetryFailed';
  if (spec.components?.length && status.schedulerObservedGeneration !== binding.metadata.generation) {
    return 'ComponentsChanged';
  }
  if (replicas === 0 || duplicated) return 'AlwaysReschedule';
  for (const t of clusters) {
    if (snapshot.deleting.has(t.name) || !snapshot.byName.has(t.name)) return 'TargetClusterRemoved';
  }
  return undefined;
}

function sumReplicas(clusters: readonly { replicas?: number }[]): number {
  let n = 0;
  for (const c of clusters) n += c.replicas ?? 0;
  return n;
}

/**
 * Karmada `placementChanged`: no annotation ⇒ changed; identical ⇒ not; with `clusterAffinities`, only
 * the term being observed matters (adding a later fallback term does not move a placed workload).
 */
export function placementChanged(
  placement: Placement,
  appliedJson: string | undefined,
  observedAffinity?: string,
): boolean {
  if (!appliedJson) return true;
  let applied: Placement;
  try {
    applied = JSON.parse(appliedJson) as Placement;
  } catch {
    return true;
  }
  if (deepEqual(placement, applied)) return false;
  const { clusterAffinities: nowTerms, ...nowRest } = placement;
  const { clusterAffinities: thenTerms, ...thenRest } = applied;
  if (!nowTerms?.length || !thenTerms?.length || !deepEqual(nowRest, thenRest)) return true;
  const name = observedAffinity ?? nowTerms[0]!.affinityName;
  const now = nowTerms.find((t) => t.affinityName === name);
  const then = thenTerms.find((t) => t.affinityName === name);
  return !now || !then || !deepEqual(now, then);
}

/** JSON with sorted keys, so field order in the stored annotation does not matter. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = (v as Record<string, unknown>)[k];
      return out;
    }
    return v;
  });
}
