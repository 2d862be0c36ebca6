/**
 * Lambda: the namespace lifecycle controller. Wiring only — the logic is lib/controllers/namespace.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { namespaceFactory } from '../lib/controllers/factories.ts';
import { NAMESPACE_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring.ts';

export const handler = controllerHandler(NAMESPACE_CONTROLLER_NAME, namespaceFactory, wireRuntime(loadRuntimeConfig()));
