/**
 * How each controller is built from the runtime's ports. A function imports only its own factory
 * (the bundler drops the rest); local mode runs them all through {@link CONTROLLER_FACTORIES}.
 */
import { failoverSettings } from '../config/failover.ts';
import { clusterTimings } from '../config/runtime.ts';
import { createBinderController } from '../controllers/binder.ts';
import { createClusterController } from '../controllers/cluster.ts';
import { createClusterStatusController } from '../controllers/cluster-status.ts';
import { createDetectorController } from '../controllers/detector.ts';
import { createApplicationFailoverController } from '../controllers/application-failover.ts';
import { createEvictionController } from '../controllers/eviction.ts';
import { createFederatedResourceQuotaController } from '../controllers/federated-resource-quota.ts';
import { createExecutorController } from '../controllers/executor.ts';
import { createGarbageCollector } from '../controllers/garbage-collector.ts';
import { createNamespaceController } from '../controllers/namespace.ts';
import { createNamespaceSyncController } from '../controllers/namespace-sync.ts';
import { createSchedulerController } from '../controllers/scheduler.ts';
import { createWorkloadRebalancerController } from '../controllers/workload-rebalancer.ts';
import { createSearchController } from '../controllers/search.ts';
import { SearchCache } from '../search/cache-store.ts';
import { resyncTargets } from '../controllers/specs.ts';
import { parsePluginsFlag } from '../core/scheduler/plugins/registry.ts';
import { StoredCrdCatalog, staticControlPlaneDefs } from '../karmada/catalog.ts';
import type { Controller } from '../reconcile/controller.ts';
import { createResyncController } from '../reconcile/resync.ts';
import type { Runtime } from './runtime.ts';
import { eventRecorder } from './wire.ts';

/** Builds one controller from the runtime's ports (what a function's handler and local mode run). */
export type ControllerFactory = (runtime: Runtime) => Controller;

export const resyncFactory: ControllerFactory = (runtime) =>
  createResyncController({ store: runtime.store, workQueue: runtime.workQueue, targets: resyncTargets() });

export const namespaceFactory: ControllerFactory = (runtime) =>
  createNamespaceController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    catalog: new StoredCrdCatalog(runtime.store, runtime.clock, staticControlPlaneDefs()),
  });

export const garbageCollectorFactory: ControllerFactory = (runtime) =>
  createGarbageCollector({ store: runtime.store, workQueue: runtime.workQueue });

export const clusterFactory: ControllerFactory = (runtime) =>
  createClusterController({ store: runtime.store, workQueue: runtime.workQueue });

export const clusterStatusFactory: ControllerFactory = (runtime) =>
  createClusterStatusController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    cipher: runtime.cipher,
    ...(runtime.memberClient ? { connect: runtime.memberClient } : {}),
    timings: clusterTimings(runtime.config),
    events: eventRecorder(runtime, 'cluster-controller'),
    failover: failoverSettings(runtime.config.failover),
  });

export const detectorFactory: ControllerFactory = (runtime) =>
  createDetectorController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'resource-detector'),
    priorityBasedScheduling: failoverSettings(runtime.config.failover).featureGates.PriorityBasedScheduling,
    workloadAffinity: failoverSettings(runtime.config.failover).featureGates.WorkloadAffinity,
  });

export const schedulerFactory: ControllerFactory = (runtime) =>
  createSchedulerController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'default-scheduler'),
    plugins: parsePluginsFlag(runtime.config.schedulerPlugins),
    quotaEnforcement: failoverSettings(runtime.config.failover).featureGates.FederatedQuotaEnforcement,
    reservationTtlMs: (runtime.config.schedulerReservationTtlSeconds ?? 60) * 1000,
    now: () => runtime.clock.now(),
  });

export const binderFactory: ControllerFactory = (runtime) => {
  const failover = failoverSettings(runtime.config.failover);
  return createBinderController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'binding-controller'),
    statefulFailoverInjection: failover.featureGates.StatefulFailoverInjection,
    gracefulEvictionTimeoutMs: failover.gracefulEvictionTimeoutMs,
    quotaEnforcement: failover.featureGates.FederatedQuotaEnforcement,
  });
};

export const executorFactory: ControllerFactory = (runtime) =>
  createExecutorController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    cipher: runtime.cipher,
    ...(runtime.memberClient ? { connect: runtime.memberClient } : {}),
    events: eventRecorder(runtime, 'execution-controller'),
  });

export const evictionFactory: ControllerFactory = (runtime) =>
  createEvictionController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'taint-manager'),
    settings: failoverSettings(runtime.config.failover),
    plugins: parsePluginsFlag(runtime.config.schedulerPlugins),
    now: () => runtime.clock.now(),
  });

export const applicationFailoverFactory: ControllerFactory = (runtime) =>
  createApplicationFailoverController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'application-failover-controller'),
    settings: failoverSettings(runtime.config.failover),
    plugins: parsePluginsFlag(runtime.config.schedulerPlugins),
  });

export const federatedResourceQuotaFactory: ControllerFactory = (runtime) =>
  createFederatedResourceQuotaController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'federated-resource-quota-controller'),
    enforcement: failoverSettings(runtime.config.failover).featureGates.FederatedQuotaEnforcement,
  });

export const namespaceSyncFactory: ControllerFactory = (runtime) =>
  createNamespaceSyncController({ store: runtime.store, workQueue: runtime.workQueue });

export const workloadRebalancerFactory: ControllerFactory = (runtime) =>
  createWorkloadRebalancerController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'workload-rebalancer'),
  });

export const searchFactory: ControllerFactory = (runtime) =>
  createSearchController({
    store: runtime.store,
    cache: new SearchCache(runtime.rows),
    workQueue: runtime.workQueue,
    cipher: runtime.cipher,
    ...(runtime.memberClient ? { connect: runtime.memberClient } : {}),
    // At most one full list of a member per status period, however often probes ask.
    minSyncIntervalMs: clusterTimings(runtime.config).statusUpdateFrequencyMs,
  });
