/**
 * Lambda: the scheduler controller. Wiring only — lib/controllers/scheduler.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { SCHEDULER_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { schedulerFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(SCHEDULER_CONTROLLER_NAME, schedulerFactory, wireRuntime(loadRuntimeConfig()));
