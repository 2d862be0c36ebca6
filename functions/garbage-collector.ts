/**
 * Lambda: the garbage collector. Triggered by its SQS queues (accepted deletes, its own cascading
 * deletes). Wiring only — the logic is lib/controllers/garbage-collector.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { garbageCollectorFactory } from '../lib/wiring/factories.ts';
import { GARBAGE_COLLECTOR } from '../lib/controllers/garbage-collector.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(GARBAGE_COLLECTOR, garbageCollectorFactory, wireRuntime(loadRuntimeConfig()));
