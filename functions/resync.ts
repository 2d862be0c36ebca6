/**
 * Lambda: the resync controller. Triggered by its SQS queues; the EventBridge schedule puts the `*`
 * key on its standard queue. Wiring only — see lib/reconcile/resync.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { resyncTargets } from '../lib/controllers/specs.ts';
import { createControllerHandler } from '../lib/reconcile/handler.ts';
import { createResyncController, RESYNC_CONTROLLER } from '../lib/reconcile/resync.ts';
import { batchDependencies, wireRuntime } from '../lib/wiring.ts';

const runtime = wireRuntime(loadRuntimeConfig());

export const handler = createControllerHandler(
  createResyncController({ store: runtime.store, workQueue: runtime.workQueue, targets: resyncTargets() }),
  batchDependencies(RESYNC_CONTROLLER, runtime),
);
