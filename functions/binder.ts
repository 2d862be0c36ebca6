/**
 * Lambda: the binder (Works from bindings, status back). Wiring only — lib/controllers/binder.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { BINDER_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { binderFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(BINDER_CONTROLLER_NAME, binderFactory, wireRuntime(loadRuntimeConfig()));
