/**
 * The `StaleCopyRemoved` event, from whichever path confirms that a deleted Work's copy is gone: the
 * executor for a Push cluster, the agent's report (through its webhook) for a Pull cluster. A copy is
 * stale when its Work was deleted while the cluster was away (core `removedWhileAway`): it may have
 * kept running there until now, and the binding and its template say when it is gone.
 */
import { bindingKeyOf } from '../api/karmada-names.ts';
import { type KubeObject, parseKey } from '../api/object.ts';
import type { ResourceBinding } from '../core/model/types.ts';
import { READY_CONDITION } from '../core/clusters/health.ts';
import { templateStubOf } from '../core/scheduler/index.ts';
import { removedWhileAway } from '../core/work/index.ts';
import { type Condition, findCondition } from '../api/conditions.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { ObjectStore } from '../store/port.ts';

/**
 * `work`'s copy on `cluster` is gone: when it was a stale copy (the Work deleted while `cluster`, as
 * stored now, was away), says so on the binding and on its resource template.
 */
export async function reportIfStaleCopy(
  store: ObjectStore,
  events: EventRecorder,
  work: KubeObject,
  cluster: KubeObject,
): Promise<void> {
  const ready = findCondition(
    (cluster.status as { conditions?: Condition[] } | undefined)?.conditions,
    READY_CONDITION,
  );
  if (!removedWhileAway(ready, work.metadata.deletionTimestamp)) return;
  const clusterName = cluster.metadata.name!;
  const key = bindingKeyOf(work);
  const binding = key ? await store.get(parseKey(key)) : undefined;
  if (!binding) return;
  const message = `Cluster ${clusterName} is reachable again: the copy of ${work.metadata.name} deleted while it was away is removed from it before anything new is applied there.`;
  await events.record(binding, 'Normal', 'StaleCopyRemoved', message);
  // …and on its resource template, as the eviction controller records its stale-copy events.
  const template = templateStubOf(binding as ResourceBinding);
  if (template) await events.record(template, 'Normal', 'StaleCopyRemoved', message);
}
