/**
 * The `StaleCopyRemoved` event, from whichever path confirms a stale copy's removal: the executor's
 * member sync for a Push cluster, the agent's report (through its webhook) for a Pull cluster. A copy
 * is stale when its Work was deleted while the cluster was away (core `removedWhileAway`): it may have
 * kept running there until now, and the binding and its template say when it is gone.
 */
import { bindingKeyOf } from '../api/karmada-names.ts';
import { type KubeObject, parseKey } from '../api/object.ts';
import type { ResourceBinding } from '../core/model/types.ts';
import { templateStubOf } from '../core/scheduler/index.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { ObjectStore } from '../store/port.ts';

/** Says on the binding, and on its resource template, that `work`'s copy on `clusterName` is gone. */
export async function reportStaleCopyRemoved(
  store: ObjectStore,
  events: EventRecorder,
  work: KubeObject,
  clusterName: string,
): Promise<void> {
  const key = bindingKeyOf(work);
  const binding = key ? await store.get(parseKey(key)) : undefined;
  if (!binding) return;
  const message = `Cluster ${clusterName} is reachable again: the copy of ${work.metadata.name} deleted while it was away is removed from it before anything new is applied there.`;
  await events.record(binding, 'Normal', 'StaleCopyRemoved', message);
  // …and on its resource template, as the eviction controller records its stale-copy events.
  const template = templateStubOf(binding as ResourceBinding);
  if (template) await events.record(template, 'Normal', 'StaleCopyRemoved', message);
}
