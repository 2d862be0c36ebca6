/**
 * The WorkloadRebalancer decision (Karmada `pkg/controllers/workloadrebalancer`): given a rebalancer,
 * the bindings its pending workloads reference and the time, which bindings get the rescheduling
 * trigger, the status to write and when the rebalancer is due for deletion. The scheduler then
 * treats a binding whose `spec.rescheduleTriggeredAt` is newer than its `status.lastScheduledTime`
 * as a Fresh reschedule: its replicas are divided again from scratch (see
 * `scheduler/assignment/dynamic.ts` `isFreshReschedule`).
 */
import { formatKey, type ObjectRef } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import { deepEqual } from '../../util/json.ts';
import type { ResourceBinding } from '../model/types.ts';
import {
  type ObservedWorkload,
  REBALANCE_FAILED,
  REBALANCE_OBJECT_NOT_FOUND,
  REBALANCE_SUCCESSFUL,
  type WorkloadRebalancer,
  type WorkloadRebalancerStatus,
  type WorkloadReference,
} from './types.ts';
import { canonicalObserved, syncObservedWorkloads, workloadBindingRef } from './workloads.ts';

/**
 * Whether a binding still needs this rebalancer's trigger (Karmada `needTriggerReschedule`): it has
 * none, or one older than the rebalancer's creation. Compared as instants; a trigger that does not
 * parse is replaced. A newer trigger (a later rebalancer's) is left as it is.
 *
 * @example needTriggerReschedule('2026-05-01T10:00:00Z', '2026-05-01T09:00:00Z') // true
 */
export function needTriggerReschedule(creationTimestamp: string, rescheduleTriggeredAt: string | undefined): boolean {
  if (!rescheduleTriggeredAt) return true;
  const triggered = Date.parse(rescheduleTriggeredAt);
  if (Number.isNaN(triggered)) return true;
  return Date.parse(creationTimestamp) > triggered;
}

/**
 * The bindings to read before {@link decideRebalance}: those of the workloads without a result once
 * `status.observedWorkloads` is refreshed from the spec (a finished rebalancer needs none).
 */
export function rebalancerBindingRefs(rebalancer: WorkloadRebalancer): ObjectRef[] {
  const refs = new Map<string, ObjectRef>();
  for (const item of pendingWorkloads(rebalancer)) {
    const ref = workloadBindingRef(item.workload);
    refs.set(formatKey(ref), ref);
  }
  return [...refs.values()];
}

export interface RebalanceInput {
  rebalancer: WorkloadRebalancer;
  /**
   * The bindings of {@link rebalancerBindingRefs} as read, by `formatKey` of their ref; a ref with no
   * entry was not found.
   */
  bindings: ReadonlyMap<string, ResourceBinding>;
  nowMs: number;
}

/** What happened to one pending workload in this pass. */
export interface WorkloadOutcome {
  workload: WorkloadReference;
  binding: ObjectRef;
  /**
   * `Triggered`: its binding gets `spec.rescheduleTriggeredAt` now (Successful once written);
   * `AlreadyTriggered`: the binding carries this rebalancer's trigger or a newer one (Successful);
   * `BindingNotFound`: Failed, reason `ReferencedBindingNotFound`, not retried.
   */
  outcome: 'Triggered' | 'AlreadyTriggered' | 'BindingNotFound';
}

/** What becomes of the rebalancer itself (`spec.ttlSecondsAfterFinished`). */
export type RebalancerCleanup =
  /** No TTL: it stays until someone deletes it. */
  | { action: 'Keep' }
  /** `finishTime + ttl` has come: delete it. */
  | { action: 'Delete' }
  /** Delete it at `atMs` (come back then). */
  | { action: 'Wait'; atMs: number };

export interface RebalanceDecision {
  /**
   * The bindings to write (spec only), each with `spec.rescheduleTriggeredAt` set to the rebalancer's
   * `creationTimestamp`; the scheduler must see each of them next.
   */
  bindingUpdates: ResourceBinding[];
  /** One entry per workload acted on in this pass (none when it had already finished). */
  outcomes: WorkloadOutcome[];
  /** The whole new status. */
  status: WorkloadRebalancerStatus;
  /** False when `status` equals the stored one: no status write. */
  statusChanged: boolean;
  /** Assuming the status write (if any) succeeds. */
  cleanup: RebalancerCleanup;
}

/**
 * One pass of Karmada's `RebalancerController.Reconcile`:
 *
 * - `status.observedWorkloads` is refreshed from the spec ({@link syncObservedWorkloads});
 * - each workload without a result: its binding not found ⇒ `Failed`/`ReferencedBindingNotFound`
 *   (final, as in Karmada: the workload is not retried); found ⇒ `Successful`, and the binding gets
 *   `spec.rescheduleTriggeredAt = metadata.creationTimestamp` when {@link needTriggerReschedule};
 * - `observedGeneration` is the rebalancer's generation;
 * - when the status differs from the stored one, `finishTime` is now (every workload has a result
 *   after a pass); when it does not, the stored `finishTime` stays;
 * - with `ttlSecondsAfterFinished`, the rebalancer is deleted at `finishTime + ttl`.
 *
 * Throws when the rebalancer has no `creationTimestamp` (the store always sets one).
 */
export function decideRebalance(input: RebalanceInput): RebalanceDecision {
  const { rebalancer, bindings, nowMs } = input;
  const createdAt = rebalancer.metadata.creationTimestamp;
  if (!createdAt) throw new Error(`WorkloadRebalancer ${rebalancer.metadata.name} has no creationTimestamp`);

  const observed = syncObservedWorkloads(rebalancer.spec?.workloads ?? [], rebalancer.status?.observedWorkloads ?? []);
  const bindingUpdates: ResourceBinding[] = [];
  const outcomes: WorkloadOutcome[] = [];
  // Two references to one binding (e.g. apps/v1 and apps/v1beta1 of a Deployment) write it once.
  const written = new Set<string>();
  const results = observed.map((item): ObservedWorkload => {
    if (item.result === REBALANCE_SUCCESSFUL || item.result === REBALANCE_FAILED) return item;
    const ref = workloadBindingRef(item.workload);
    const key = formatKey(ref);
    const binding = bindings.get(key);
    if (!binding) {
      outcomes.push({ workload: item.workload, binding: ref, outcome: 'BindingNotFound' });
      return { workload: item.workload, result: REBALANCE_FAILED, reason: REBALANCE_OBJECT_NOT_FOUND };
    }
    if (!written.has(key) && needTriggerReschedule(createdAt, binding.spec.rescheduleTriggeredAt)) {
      written.add(key);
      bindingUpdates.push({ ...binding, spec: { ...binding.spec, rescheduleTriggeredAt: createdAt } });
      outcomes.push({ workload: item.workload, binding: ref, outcome: 'Triggered' });
    } else {
      outcomes.push({ workload: item.workload, binding: ref, outcome: 'AlreadyTriggered' });
    }
    return { workload: item.workload, result: REBALANCE_SUCCESSFUL };
  });

  const stored = canonicalStatus(rebalancer.status ?? {});
  let status = canonicalStatus({
    observedWorkloads: results,
    observedGeneration: rebalancer.metadata.generation ?? 0,
    ...(stored.finishTime ? { finishTime: stored.finishTime } : {}),
  });
  const statusChanged = !deepEqual(stored, status) || !status.finishTime;
  // Every workload has a result now, so a changed status is a finished one. (Karmada leaves a stored
  // status without finishTime as it is and then fails its TTL check forever; such a status is given
  // one here.)
  if (statusChanged) status = { ...status, finishTime: rfc3339(nowMs) };

  return { bindingUpdates, outcomes, status, statusChanged, cleanup: cleanupOf(rebalancer, status, nowMs) };
}

/** The workloads still without a result once the status is refreshed from the spec. */
function pendingWorkloads(rebalancer: WorkloadRebalancer): ObservedWorkload[] {
  return syncObservedWorkloads(rebalancer.spec?.workloads ?? [], rebalancer.status?.observedWorkloads ?? []).filter(
    (item) => item.result !== REBALANCE_SUCCESSFUL && item.result !== REBALANCE_FAILED,
  );
}

/** Karmada's `timeLeft`: the rebalancer is deleted once `finishTime + ttlSecondsAfterFinished` has come. */
function cleanupOf(rebalancer: WorkloadRebalancer, status: WorkloadRebalancerStatus, nowMs: number): RebalancerCleanup {
  const ttl = rebalancer.spec?.ttlSecondsAfterFinished;
  if (typeof ttl !== 'number') return { action: 'Keep' };
  const finished = Date.parse(status.finishTime ?? '');
  // Unreachable after a pass (the status always has a finishTime then); keep rather than guess.
  if (Number.isNaN(finished)) return { action: 'Keep' };
  const atMs = finished + ttl * 1000;
  return atMs > nowMs ? { action: 'Wait', atMs } : { action: 'Delete' };
}

/** A status with the empty fields left out (Karmada's `omitempty`), so stored and new compare fairly. */
function canonicalStatus(status: WorkloadRebalancerStatus): WorkloadRebalancerStatus {
  const observed = (status.observedWorkloads ?? []).map(canonicalObserved);
  return {
    ...(observed.length > 0 ? { observedWorkloads: observed } : {}),
    ...(status.observedGeneration ? { observedGeneration: status.observedGeneration } : {}),
    ...(status.finishTime ? { finishTime: status.finishTime } : {}),
  };
}
