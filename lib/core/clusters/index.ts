/**
 * Member cluster status for the decision core: Karmada v1.15's cluster health (probe → Ready
 * condition, threshold smoothing, taints, the Pull-cluster monitor) and resource modeling (node and
 * resource summaries, allocatable modelings, the general estimator), as pure functions — time is a
 * parameter and the member's Nodes and Pods are inputs.
 *
 * The condition helpers these functions are used with (`setCondition`, `findCondition`, `rfc3339`) and
 * the `Taint`, `ResourceSummary` and `EstimatorOptions` shapes are the ones `lib/api/conditions.ts`,
 * `core/types` and `core/scheduler` already name; they are not exported twice.
 *
 * @example
 * import { observedReady, taintsForReady, thresholdAdjustedReady, DEFAULT_HEALTH_SETTINGS } from './clusters/index.ts';
 * const { ready, state } = thresholdAdjustedReady(current, observedReady(probe), cached, nowMs, DEFAULT_HEALTH_SETTINGS);
 */
export {
  DEFAULT_HEALTH_SETTINGS,
  type HealthSettings,
  NOT_READY_TAINT_KEY,
  type ObservedCondition,
  observedReady,
  type ProbeResult,
  pullClusterStaleness,
  READY_CONDITION,
  type StaleReady,
  statusCollectionFailed,
  taintsForReady,
  type TaintTemplate,
  thresholdAdjustedReady,
  type ThresholdState,
  UNREACHABLE_TAINT_KEY,
  updateTaints,
  ZERO_TIME_MS,
} from './health.ts';
export { probeDelays, probeSlotsPerMinute } from './probes.ts';
export {
  type AllocatableModeling,
  allocatableModelings,
  maxAvailableReplicas,
  nodeSummary,
  podRequests,
  resourceSummary,
} from './resources.ts';
