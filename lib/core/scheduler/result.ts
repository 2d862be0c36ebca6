/**
 * What a scheduling attempt writes, and which bindings a change may concern (Karmada v1.15
 * `pkg/scheduler/scheduler.go` `patchScheduleResultForResourceBinding`; the fan-out stands in for
 * `pkg/scheduler/event_handler.go` `enqueueAffectedBindings`): the binding with its placement and
 * `Scheduled` condition, the capacity still to reserve, and which bindings a cluster change concerns.
 * Pure: time is a parameter.
 */
import { type Condition, rfc3339, setCondition } from '../../api/conditions.ts';
import { deepEqual } from '../../util/json.ts';
import type { KubeObject, ResourceBinding, ResourceBindingStatus } from '../model/types.ts';
import { APPLIED_PLACEMENT_ANNOTATION, OBSERVED_RESCHEDULE_TRIGGER_ANNOTATION } from '../../api/well-known.ts';
import { canonical } from './reschedule.ts';
import { recordReservedRequest } from './growth.ts';
import type { ScheduleResult } from './schedule.ts';
import type { ReservationDelta } from './snapshot.ts';

/** Karmada's condition type for a scheduling result. */
export const SCHEDULED_CONDITION = 'Scheduled';
/** Karmada's message for a successful result (condition and `ScheduleBindingSucceed` event). */
export const SCHEDULE_SUCCESS_MESSAGE = 'Binding has been scheduled successfully.';

/**
 * The binding after a scheduling attempt, or undefined when nothing would change. The generation the
 * write will produce is predicted (the write is conditional on the version read), so
 * `schedulerObservedGeneration` matches it.
 */
export function resultBinding(
  binding: ResourceBinding,
  result: ScheduleResult,
  now: number,
): ResourceBinding | undefined {
  const nowText = rfc3339(now);
  const spec = { ...binding.spec };
  const annotations = { ...binding.metadata.annotations };
  const status: ResourceBindingStatus = { ...binding.status };
  let condition: Omit<Condition, 'lastTransitionTime'>;
  if (result.outcome.ok) {
    const decision = result.outcome.value;
    spec.clusters = decision.clusters;
    annotations[APPLIED_PLACEMENT_ANNOTATION] = canonical(spec.placement ?? {});
    if (decision.affinityName !== undefined) status.schedulerObservingAffinityName = decision.affinityName;
    status.lastScheduledTime = nowText;
    // The trigger this schedule answered (or none): a later one is fresh whatever its second.
    annotations[OBSERVED_RESCHEDULE_TRIGGER_ANNOTATION] = spec.rescheduleTriggeredAt ?? '';
    condition = { type: SCHEDULED_CONDITION, status: 'True', reason: 'Success', message: SCHEDULE_SUCCESS_MESSAGE };
  } else {
    if (result.clustersOnFailure) spec.clusters = result.clustersOnFailure;
    if (result.affinityNameOnFailure !== undefined) {
      status.schedulerObservingAffinityName = result.affinityNameOnFailure;
    }
    const f = result.outcome.failure;
    condition = { type: SCHEDULED_CONDITION, status: 'False', reason: f.reason, message: f.message };
  }
  if (spec.clusters?.length === 0 && !binding.spec.clusters) delete spec.clusters;
  const specChanged = !deepEqual(spec, binding.spec);
  const generation = (binding.metadata.generation ?? 1) + (specChanged ? 1 : 0);
  status.schedulerObservedGeneration = generation;
  status.conditions = setCondition(
    binding.status?.conditions as Condition[] | undefined,
    { ...condition, observedGeneration: generation },
    nowText,
  );
  let next: ResourceBinding = {
    ...binding,
    metadata: { ...binding.metadata, annotations },
    spec,
    status,
  };
  // What the result reserved (a placement's replicas; a failure's kept ones, their requests' growth) is
  // recorded as reserved at the binding's requests. A failure that reserved nothing (the quota held it:
  // nothing is rolled out) leaves the record as it was.
  if (result.outcome.ok || result.reservedOnFailure) next = recordReservedRequest(next);
  const recorded = next.metadata.annotations ?? {};
  const unchanged =
    !specChanged &&
    deepEqual(recorded, binding.metadata.annotations ?? {}) &&
    deepEqual({ ...status, lastScheduledTime: undefined }, { ...binding.status, lastScheduledTime: undefined });
  return unchanged ? undefined : next;
}

/** What `wanted` reserves beyond `held` (per cluster: pods and each resource, never negative). */
export function reservationBeyond(
  wanted: readonly ReservationDelta[],
  held: readonly ReservationDelta[],
): ReservationDelta[] {
  if (held.length === 0) return [...wanted];
  return wanted.map((d) => {
    let pods = d.pods;
    const units = new Map(d.units);
    for (const h of held) {
      if (h.cluster !== d.cluster) continue;
      pods -= h.pods;
      for (const [name, n] of h.units) if (units.has(name)) units.set(name, units.get(name)! - n);
    }
    for (const [name, n] of units) units.set(name, Math.max(0, n));
    return { cluster: d.cluster, pods: Math.max(0, pods), units };
  });
}

/**
 * The binding's resource template as an event target (no read needed): what `spec.resource` names,
 * since Karmada records scheduling events on the template as well as on the binding.
 */
export function templateStubOf(binding: ResourceBinding): KubeObject | undefined {
  const r = binding.spec.resource;
  if (!r?.kind || !r.name) return undefined;
  return {
    apiVersion: r.apiVersion,
    kind: r.kind,
    metadata: {
      name: r.name,
      ...(r.namespace ? { namespace: r.namespace } : {}),
      ...(r.uid ? { uid: r.uid } : {}),
    },
  };
}

/**
 * True when the last scheduling attempt failed (`Scheduled=False`): such bindings are retried when
 * capacity may have appeared.
 */
export function schedulingFailed(binding: ResourceBinding): boolean {
  return binding.status?.conditions?.some((c) => c.type === SCHEDULED_CONDITION && c.status === 'False') ?? false;
}

/**
 * Whether a change to `cluster` (added, changed, being deleted) may change `binding`'s placement:
 * it failed before, it is placed on that cluster, or it is Duplicated or replica-less (those are
 * rescheduled on every pass, so a new matching cluster gets them, as in Karmada).
 */
export function affectedByCluster(binding: ResourceBinding, cluster: string): boolean {
  if (schedulingFailed(binding)) return true;
  if (binding.spec.clusters?.some((t) => t.name === cluster)) return true;
  const type = binding.spec.placement?.replicaScheduling?.replicaSchedulingType ?? 'Duplicated';
  return type === 'Duplicated' || !binding.spec.replicas;
}
