/**
 * Lambda: namespace auto-propagation. Wiring only — lib/controllers/namespace-sync.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { NAMESPACE_SYNC_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { namespaceSyncFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(
  NAMESPACE_SYNC_CONTROLLER_NAME,
  namespaceSyncFactory,
  wireRuntime(loadRuntimeConfig()),
);
