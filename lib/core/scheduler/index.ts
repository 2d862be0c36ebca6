/**
 * The scheduler of the decision core: snapshot → filter → score → estimate → select → assign, as pure
 * functions over Karmada-shaped objects (Karmada `pkg/scheduler`, `pkg/estimator/client/general.go`).
 */
export * from './framework/types.ts';
export {
  clusterCapacity,
  compileRequest,
  type ClusterCapacity,
  type CompiledRequest,
  type EstimatorOptions,
  estimateReplicas,
  type Reservation,
  summaryUsage,
} from './estimate.ts';
export * from './framework/interface.ts';
export {
  buildFramework,
  type Framework,
  IN_TREE_PLUGINS,
  parsePluginsFlag,
  PluginConfigError,
  type PluginFactory,
} from './plugins/registry.ts';
export { schedulingOrder, schedulingPriority } from './priority.ts';
export { isOverflowSchedulingAllowed, isWorkload } from './framework/overflow.ts';
export { workloadPeersOf } from './workload-peers.ts';
export {
  applyDelta,
  buildSnapshot,
  estimateOn,
  replicaDelta,
  type ReservationDelta,
  type Snapshot,
  type SnapshotCluster,
} from './snapshot.ts';
export { keptGrowth, recordReservedRequest } from './growth.ts';
export {
  bindingGvk,
  componentSets,
  fitErrorMessage,
  keptByPlacement,
  keepPlacement,
  keptOnNoFit,
  scheduleBinding,
  type ScheduleDecision,
  type ScheduleOptions,
  type ScheduleResult,
} from './schedule.ts';
export {
  canonical,
  DEFAULT_SCHEDULER_NAME,
  isSchedulable,
  placementChanged,
  scheduleTrigger,
  type ScheduleTrigger,
} from './reschedule.ts';
export {
  affectedByCluster,
  reservationBeyond,
  resultBinding,
  SCHEDULE_SUCCESS_MESSAGE,
  SCHEDULED_CONDITION,
  schedulingFailed,
  templateStubOf,
} from './result.ts';
export { assignReplicas, type AssignmentInput, assignmentStrategy, websterAllocate } from './assignment/index.ts';
export { selectBestClusters, sortClusters } from './spread/index.ts';
