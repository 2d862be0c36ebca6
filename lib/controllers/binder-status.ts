/**
 * The binder's status write-back (Karmada's binding status controller): a binding's
 * `aggregatedStatus` and `FullyApplied`, and its template's status, each written only when it changed.
 */
import { rfc3339, setCondition, type Condition } from '../api/conditions.ts';
import type { KubeObject } from '../api/object.ts';
import { type AggregatedStatusItem, aggregateStatus, fullyAppliedCondition } from '../core/status/index.ts';
import type { ResourceBinding } from '../core/model/types.ts';
import { withoutConditionTimes } from '../core/work/index.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { ReconcileContext } from '../reconcile/controller.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { deepEqual } from '../util/json.ts';

/** What the write-back writes with, and the counter it adds its writes to. */
export interface StatusWriter {
  store: ObjectStore;
  events: EventRecorder;
  stats: { statusWrites: number };
}

/**
 * Writes the binding's `aggregatedStatus` and `FullyApplied`, and the template's status, when they
 * changed — each one conditional write against the copy the caller holds. Returns what was written,
 * and whether a write lost a race (the caller decides how to retry).
 */
export async function writeAggregatedStatus(
  writer: StatusWriter,
  binding: ResourceBinding,
  template: KubeObject,
  targets: readonly string[],
  items: readonly AggregatedStatusItem[],
  context: ReconcileContext,
): Promise<{ bindingWritten?: ResourceBinding; templateWritten?: KubeObject; conflict: boolean }> {
  const { store, events, stats } = writer;
  const fully = fullyAppliedCondition(targets, items);
  const nowText = rfc3339(context.now);
  const status = { ...binding.status };
  status.aggregatedStatus = items as unknown as Record<string, unknown>[];
  status.conditions = setCondition(binding.status?.conditions as Condition[] | undefined, fully, nowText);
  const out: { bindingWritten?: ResourceBinding; templateWritten?: KubeObject; conflict: boolean } = {
    conflict: false,
  };
  if (!deepEqual(status, binding.status ?? {})) {
    const written = await tryWrite(() => store.updateStatus({ ...binding, status }, { current: binding }));
    if (written.ok) {
      stats.statusWrites++;
      out.bindingWritten = written.object as ResourceBinding;
    } else if (written.reason === 'conflict') out.conflict = true;
  }
  const next = aggregateStatus(template, items, { now: nowText });
  if (
    next === undefined ||
    deepEqual(withoutConditionTimes(next), withoutConditionTimes((template.status ?? {}) as Record<string, unknown>))
  )
    return out;
  const written = await tryWrite(() => store.updateStatus({ ...template, status: next }, { current: template }));
  if (written.ok) {
    stats.statusWrites++;
    out.templateWritten = written.object;
    await events.record(
      template,
      'Normal',
      'AggregateStatusSucceed',
      `Update resourceBinding(${binding.metadata.namespace ? `${binding.metadata.namespace}/` : ''}${binding.metadata.name}) with AggregatedStatus successfully.`,
    );
  } else if (written.reason === 'conflict') out.conflict = true;
  return out;
}
