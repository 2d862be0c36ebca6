/**
 * Lambda: the WorkloadRebalancer controller. Wiring only — lib/controllers/workload-rebalancer.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { WORKLOAD_REBALANCER_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { workloadRebalancerFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(
  WORKLOAD_REBALANCER_CONTROLLER_NAME,
  workloadRebalancerFactory,
  wireRuntime(loadRuntimeConfig()),
);
