/**
 * Lambda: the cluster health and status controller (probes, thresholds, taints, summaries). Wiring only — lib/controllers/cluster-status.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { CLUSTER_STATUS_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { clusterStatusFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(
  CLUSTER_STATUS_CONTROLLER_NAME,
  clusterStatusFactory,
  wireRuntime(loadRuntimeConfig()),
);
