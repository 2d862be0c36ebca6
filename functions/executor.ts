/**
 * Lambda: the executor (Works applied on Push members). Wiring only — lib/controllers/executor.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { EXECUTOR_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { executorFactory } from '../lib/controllers/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring.ts';

export const handler = controllerHandler(EXECUTOR_CONTROLLER_NAME, executorFactory, wireRuntime(loadRuntimeConfig()));
