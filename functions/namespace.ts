/**
 * Lambda: the namespace lifecycle controller. Wiring only — the logic is lib/controllers/namespace.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { NAMESPACE_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { namespaceFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(NAMESPACE_CONTROLLER_NAME, namespaceFactory, wireRuntime(loadRuntimeConfig()));
