/**
 * Lambda: the resync controller. Triggered by its SQS queues; the EventBridge schedule puts the `*`
 * key on its standard queue. Wiring only — the logic is lib/reconcile/resync.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { resyncFactory } from '../lib/wiring/factories.ts';
import { RESYNC_CONTROLLER } from '../lib/reconcile/resync.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(RESYNC_CONTROLLER, resyncFactory, wireRuntime(loadRuntimeConfig()));
