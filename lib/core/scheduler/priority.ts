/**
 * Priority-based scheduling (Karmada gate `PriorityBasedScheduling`, Beta and on since v1.19): bindings
 * with a higher `spec.schedulePriority.priority` are decided first; equal priorities keep their
 * arrival order (Karmada's priority queue: priority descending, then enqueue time).
 */
import type { ResourceBinding } from '../model/types.ts';

/** A binding's scheduling priority: `spec.schedulePriority.priority`, 0 when it has none. */
export function schedulingPriority(binding: Pick<ResourceBinding, 'spec'> | undefined): number {
  const priority = binding?.spec.schedulePriority?.priority;
  return typeof priority === 'number' && Number.isFinite(priority) ? priority : 0;
}

/**
 * The order in which keys of one batch are decided: highest priority first, arrival order within a
 * priority (a stable sort). Keys without a priority (not bindings) count as 0.
 */
export function schedulingOrder(keys: readonly string[], priorityOf: (key: string) => number): string[] {
  return keys
    .map((key, index) => ({ key, index, priority: priorityOf(key) }))
    .sort((a, b) => b.priority - a.priority || a.index - b.index)
    .map((e) => e.key);
}
