/**
 * Every controller's factory by name, for local mode (which runs them all) and the registry test. Kept
 * apart from factories.ts: an object literal keyed by imported names cannot be tree-shaken, so a
 * function's bundle that imported it would carry every controller.
 */
import {
  APPLICATION_FAILOVER_CONTROLLER_NAME,
  BINDER_CONTROLLER_NAME,
  CLUSTER_CONTROLLER_NAME,
  CLUSTER_STATUS_CONTROLLER_NAME,
  DETECTOR_CONTROLLER_NAME,
  EVICTION_CONTROLLER_NAME,
  EXECUTOR_CONTROLLER_NAME,
  FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME,
  NAMESPACE_CONTROLLER_NAME,
  NAMESPACE_SYNC_CONTROLLER_NAME,
  SCHEDULER_CONTROLLER_NAME,
  SEARCH_CONTROLLER_NAME,
  WORKLOAD_REBALANCER_CONTROLLER_NAME,
} from '../controllers/specs.ts';
import { GARBAGE_COLLECTOR } from '../controllers/garbage-collector.ts';
import { RESYNC_CONTROLLER } from '../reconcile/resync.ts';
import {
  type ControllerFactory,
  applicationFailoverFactory,
  binderFactory,
  clusterFactory,
  clusterStatusFactory,
  detectorFactory,
  evictionFactory,
  executorFactory,
  federatedResourceQuotaFactory,
  garbageCollectorFactory,
  namespaceFactory,
  namespaceSyncFactory,
  resyncFactory,
  schedulerFactory,
  searchFactory,
  workloadRebalancerFactory,
} from './factories.ts';

/** Every controller by name; must cover every entry of CONTROLLER_SPECS (a test checks). */
export const CONTROLLER_FACTORIES: Readonly<Record<string, ControllerFactory>> = {
  [RESYNC_CONTROLLER]: resyncFactory,
  [NAMESPACE_CONTROLLER_NAME]: namespaceFactory,
  [GARBAGE_COLLECTOR]: garbageCollectorFactory,
  [CLUSTER_CONTROLLER_NAME]: clusterFactory,
  [CLUSTER_STATUS_CONTROLLER_NAME]: clusterStatusFactory,
  [DETECTOR_CONTROLLER_NAME]: detectorFactory,
  [SCHEDULER_CONTROLLER_NAME]: schedulerFactory,
  [BINDER_CONTROLLER_NAME]: binderFactory,
  [EXECUTOR_CONTROLLER_NAME]: executorFactory,
  [EVICTION_CONTROLLER_NAME]: evictionFactory,
  [APPLICATION_FAILOVER_CONTROLLER_NAME]: applicationFailoverFactory,
  [FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME]: federatedResourceQuotaFactory,
  [NAMESPACE_SYNC_CONTROLLER_NAME]: namespaceSyncFactory,
  [WORKLOAD_REBALANCER_CONTROLLER_NAME]: workloadRebalancerFactory,
  [SEARCH_CONTROLLER_NAME]: searchFactory,
};
