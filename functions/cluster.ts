/**
 * Lambda: the cluster lifecycle controller. Wiring only — lib/controllers/cluster.ts.
 */
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { CLUSTER_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import { clusterFactory } from '../lib/wiring/factories.ts';
import { controllerHandler, wireRuntime } from '../lib/wiring/wire.ts';

export const handler = controllerHandler(CLUSTER_CONTROLLER_NAME, clusterFactory, wireRuntime(loadRuntimeConfig()));
