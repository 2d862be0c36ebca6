/**
 * Lambda: the executor (Works applied on Push members). Wiring only — lib/controllers/executor.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { EXECUTOR_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { executorFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(EXECUTOR_CONTROLLER_NAME, executorFactory, wireRuntime(loadRuntimeConfig()));
