/**
 * Lambda: the FederatedResourceQuota controller. Wiring only — lib/controllers/federated-resource-quota.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { federatedResourceQuotaFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(
  FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME,
  federatedResourceQuotaFactory,
  wireRuntime(loadRuntimeConfig()),
);
