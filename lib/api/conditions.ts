/**
 * `metav1.Condition` and apimachinery's condition helpers (`meta.SetStatusCondition`,
 * `meta.FindStatusCondition`), and `metav1.Time`'s text form: shared by every controller that
 * writes conditions (cluster health, scheduling, ...). Pure; time is a parameter.
 */
import { rfc3339 } from './time.ts';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** `metav1.Condition`. */
export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/**
 * `meta.SetStatusCondition`: adds the condition, or updates the one of the same type in place
 * (position kept). `lastTransitionTime` is `now` for a new condition and changes only when the status
 * changes; reason, message and observedGeneration are overwritten (an absent observedGeneration is
 * Go's 0, so it clears a previous value). Returns a new array (input untouched), or the SAME array
 * object when nothing changed, so callers can skip the write.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  next: {
    type: string;
    status: ConditionStatus;
    reason: string;
    message: string;
    observedGeneration?: number | undefined;
  },
  now: string,
): Condition[] {
  const list = (conditions ?? []) as Condition[];
  const generation = next.observedGeneration ?? 0;
  const index = list.findIndex((c) => c.type === next.type);
  if (index < 0) {
    const added: Condition = {
      type: next.type,
      status: next.status,
      reason: next.reason,
      message: next.message,
      lastTransitionTime: now,
    };
    if (generation !== 0) added.observedGeneration = generation;
    return [...list, added];
  }
  const existing = list[index]!;
  if (
    existing.status === next.status &&
    existing.reason === next.reason &&
    existing.message === next.message &&
    (existing.observedGeneration ?? 0) === generation
  ) {
    return list;
  }
  const updated: Condition = {
    ...existing,
    status: next.status,
    reason: next.reason,
    message: next.message,
    lastTransitionTime: existing.status === next.status ? existing.lastTransitionTime : now,
  };
  if (generation !== 0) updated.observedGeneration = generation;
  else delete updated.observedGeneration;
  const out = [...list];
  out[index] = updated;
  return out;
}

/** `meta.FindStatusCondition`. */
export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export { rfc3339 };

/**
 * {@link setCondition} for a condition that exists only while something holds: `next` sets it,
 * `undefined` removes the condition of that type. Returns the SAME array object when nothing changed.
 */
export function putCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
  next: { status: ConditionStatus; reason: string; message: string } | undefined,
  now: string,
): Condition[] {
  const list = (conditions ?? []) as Condition[];
  if (next) return setCondition(list, { type, ...next }, now);
  return list.some((c) => c.type === type) ? list.filter((c) => c.type !== type) : list;
}
