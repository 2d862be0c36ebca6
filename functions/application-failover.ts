/**
 * Lambda: the application failover controller. Wiring only — lib/controllers/application-failover.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { APPLICATION_FAILOVER_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { applicationFailoverFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(
  APPLICATION_FAILOVER_CONTROLLER_NAME,
  applicationFailoverFactory,
  wireRuntime(loadRuntimeConfig()),
);
