/**
 * A Work's `Applied` condition and manifest statuses, as the execution controller (Push) and the agent
 * (Pull) write them after applying a Work on its member (Karmada v1.15.9
 * `pkg/controllers/execution/execution_controller.go` `updateAppliedCondition`,
 * `pkg/controllers/status/work_status_controller.go`). Time is a parameter: the caller stamps `now`.
 */
import { type Condition, findCondition, setCondition } from '../../api/conditions.ts';
import { deepEqual } from '../../util/json.ts';
import type { KubeObject } from '../model/types.ts';
import type { ManifestStatus } from './types.ts';

/** `workv1alpha1.WorkApplied`: the Work condition type. */

/** The Work condition type Karmada sets when dispatching starts (`WorkDispatching`). */
export const DISPATCHING_CONDITION = 'Dispatching';
/** Karmada `WorkDispatchingConditionMessage`, also the message of the `WorkDispatching` event. */
export const WORK_DISPATCHING_MESSAGE = 'Work is being dispatched to member clusters.';
export const APPLIED_CONDITION = 'Applied';

/** A Work's status: its conditions and one status per manifest applied. */
export interface WorkStatus {
  conditions?: Condition[];
  manifestStatuses?: ManifestStatus[];
  [field: string]: unknown;
}

/** True when the Work's spec (this generation) was applied successfully. */
export function appliedCurrent(work: KubeObject): boolean {
  const status = work.status as WorkStatus | undefined;
  const applied = status?.conditions?.find((c) => c.type === APPLIED_CONDITION);
  return applied?.status === 'True' && (applied.observedGeneration ?? 0) === (work.metadata.generation ?? 0);
}

/** True when applying this generation of the Work failed (the member refused it). */
export function failedCurrent(work: KubeObject): boolean {
  const status = work.status as WorkStatus | undefined;
  const applied = status?.conditions?.find((c) => c.type === APPLIED_CONDITION);
  return applied?.status === 'False' && (applied.observedGeneration ?? 0) === (work.metadata.generation ?? 0);
}

/**
 * The Work's next status given an apply outcome (the same array objects when nothing changed). A failure
 * that produced no manifest status keeps the previous ones: what the member last reported stays known.
 */
export function workStatusAfter(
  work: KubeObject,
  outcome: { failure?: string; manifestStatuses: ManifestStatus[] },
  now: string,
): WorkStatus {
  const previous = (work.status ?? {}) as WorkStatus;
  const conditions = setCondition(
    previous.conditions,
    outcome.failure
      ? {
          type: APPLIED_CONDITION,
          status: 'False',
          reason: 'AppliedFailed',
          message: outcome.failure,
          observedGeneration: work.metadata.generation,
        }
      : {
          type: APPLIED_CONDITION,
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
          observedGeneration: work.metadata.generation,
        },
    now,
  );
  // Karmada's execution controller: Dispatching=True whenever a Work is dispatched and it is not already
  // (the first dispatch, or the first after a suspension).
  const dispatching = conditions.find((c) => c.type === DISPATCHING_CONDITION);
  const withDispatching =
    dispatching?.status === 'True'
      ? conditions
      : setCondition(
          conditions,
          {
            type: DISPATCHING_CONDITION,
            status: 'True',
            reason: 'Dispatching',
            message: WORK_DISPATCHING_MESSAGE,
          },
          now,
        );
  const manifestStatuses =
    outcome.failure && outcome.manifestStatuses.length === 0
      ? (previous.manifestStatuses ?? [])
      : outcome.manifestStatuses;
  return { ...previous, conditions: withDispatching, manifestStatuses };
}

/**
 * Whether applying this Work starts its dispatching (Karmada's execution controller turns `Dispatching`
 * True and records `WorkDispatching`): `first` for a Work never dispatched, `resumed` for one a
 * suspension stopped (`Dispatching=False`, as the executor leaves a suspended Work), none while it is
 * dispatching already. A binding's `WorkDispatching` event is recorded for `resumed` only: a first
 * dispatch is said by the same batch's `SyncSucceed`, which names the same clusters (decision 0016).
 */
export function dispatchingStarts(work: KubeObject): 'first' | 'resumed' | undefined {
  const status = findCondition((work.status as WorkStatus | undefined)?.conditions, DISPATCHING_CONDITION)?.status;
  if (status === 'True') return undefined;
  return status === 'False' ? 'resumed' : 'first';
}

/** True when `next` says something `work.status` does not (so the status is worth writing). */
export function workStatusChanged(work: KubeObject, next: WorkStatus): boolean {
  return !deepEqual(work.status ?? {}, next);
}

/**
 * The Applied=False message of a Work whose manifests did not all apply, as Karmada's execution
 * controller words it: `Failed to apply all manifests (1/2): <error>` (several errors as Go's
 * `errors.NewAggregate` prints them, `[a, b]`).
 */
export function appliedFailureMessage(succeeded: number, total: number, errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  const aggregate = unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
  return `Failed to apply all manifests (${succeeded}/${total}): ${aggregate}`;
}
