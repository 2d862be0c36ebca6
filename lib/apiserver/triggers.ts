import type { GroupKind, ObjectRef } from '../api/object.ts';
import { formatKey } from '../api/object.ts';
import { type ControllerSpec, controllersTriggeredBy } from '../controllers/specs.ts';
import type { WorkQueue } from '../queue/port.ts';

/**
 * Enqueues an object's key on the priority queue of every controller its kind triggers
 * (ControllerSpec.triggers): what an accepted API write, or a deletion by the namespace
 * controller, must do so controllers hear about it.
 */
export async function enqueueTriggered(
  workQueue: WorkQueue,
  gk: GroupKind,
  refs: readonly ObjectRef[],
  reason: string,
  specs?: readonly ControllerSpec[],
): Promise<void> {
  const controllers = controllersTriggeredBy(gk, specs);
  if (controllers.length === 0 || refs.length === 0) return;
  await workQueue.enqueue(
    controllers.flatMap((controller) =>
      refs.map((ref) => ({ controller, lane: 'priority' as const, key: formatKey(ref), reason })),
    ),
  );
}
