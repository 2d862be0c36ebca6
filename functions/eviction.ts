/**
 * Lambda: the eviction controller (taint manager, graceful eviction). Wiring only — lib/controllers/eviction.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { EVICTION_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { evictionFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(EVICTION_CONTROLLER_NAME, evictionFactory, wireRuntime(loadRuntimeConfig()));
