/**
 * How each controller is built from the runtime's ports. A function imports only its own factory
 * (the bundler drops the rest); local mode runs them all through {@link CONTROLLER_FACTORIES}.
 */
import { StoredCrdCatalog, staticControlPlaneDefs } from '../apiserver/catalog.ts';
import type { Controller } from '../reconcile/controller.ts';
import { createResyncController, RESYNC_CONTROLLER } from '../reconcile/resync.ts';
import { clusterTimings } from '../config/runtime.ts';
import { eventRecorder, type Runtime } from '../wiring.ts';
import { createClusterController } from './cluster.ts';
import { createClusterStatusController } from './cluster-status.ts';
import { parsePluginsFlag } from '../core/scheduler/framework/registry.ts';
import { createDetectorController } from './detector.ts';
import { createSchedulerController } from './scheduler.ts';
import { createGarbageCollector, GARBAGE_COLLECTOR } from './garbage-collector.ts';
import { createNamespaceController } from './namespace.ts';
import { createBinderController } from './binder.ts';
import { createExecutorController } from './executor.ts';
import { createNamespaceSyncController } from './namespace-sync.ts';
import {
  BINDER_CONTROLLER_NAME,
  CLUSTER_CONTROLLER_NAME,
  CLUSTER_STATUS_CONTROLLER_NAME,
  DETECTOR_CONTROLLER_NAME,
  EXECUTOR_CONTROLLER_NAME,
  NAMESPACE_CONTROLLER_NAME,
  NAMESPACE_SYNC_CONTROLLER_NAME,
  resyncTargets,
  SCHEDULER_CONTROLLER_NAME,
} from './specs.ts';

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
    timings: clusterTimings(runtime.config),
    events: eventRecorder(runtime, 'cluster-controller'),
  });

export const detectorFactory: ControllerFactory = (runtime) =>
  createDetectorController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'resource-detector'),
  });

export const schedulerFactory: ControllerFactory = (runtime) =>
  createSchedulerController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'default-scheduler'),
    plugins: parsePluginsFlag(runtime.config.schedulerPlugins),
    reservationTtlMs: (runtime.config.schedulerReservationTtlSeconds ?? 60) * 1000,
    now: () => runtime.clock.now(),
  });

export const binderFactory: ControllerFactory = (runtime) =>
  createBinderController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    events: eventRecorder(runtime, 'binding-controller'),
  });

export const executorFactory: ControllerFactory = (runtime) =>
  createExecutorController({
    store: runtime.store,
    workQueue: runtime.workQueue,
    cipher: runtime.cipher,
    events: eventRecorder(runtime, 'execution-controller'),
  });

export const namespaceSyncFactory: ControllerFactory = (runtime) =>
  createNamespaceSyncController({ store: runtime.store, workQueue: runtime.workQueue });

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
  [NAMESPACE_SYNC_CONTROLLER_NAME]: namespaceSyncFactory,
};
