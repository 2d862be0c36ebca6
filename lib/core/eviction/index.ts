/**
 * Eviction: Karmada's taint manager, ClusterTaintPolicy, graceful eviction and state preservation
 * decisions (docs/failover.md).
 */
export {
  applyClusterTaintPolicies,
  type ClusterTaintPolicySpec,
  conditionMatches,
  evictionTime,
  type EvictionNeed,
  matchingTolerations,
  type MatchCondition,
  needEviction,
  type NoExecuteByCondition,
  noExecuteTaints,
  noExecuteTaintsByCondition,
  withDefaultTolerations,
} from './taints.ts';
export {
  assessEvictionTasks,
  canonicalPurgeMode,
  clusterEvictionPurgeMode,
  directlyPurgedClusters,
  directlyPurgeHandoff,
  lastCopyClusters,
  HANDOFF_PENDING_CONDITION,
  type HandoffWait,
  EVICTION_PRODUCER_CRB_APPLICATION_FAILOVER,
  EVICTION_PRODUCER_RB_APPLICATION_FAILOVER,
  EVICTION_PRODUCER_TAINT_MANAGER,
  EVICTION_REASON_APPLICATION_FAILURE,
  EVICTION_REASON_TAINT_UNTOLERATED,
  gracefulEvictCluster,
  type ObservedHealth,
  type PurgeMode,
  type TaskAssessment,
  type TaskOptions,
} from './tasks.ts';
export {
  buildPreservedLabelState,
  labelsToInject,
  preservedLabelsFor,
  type StateExtraction,
  stateForEviction,
  type StatePreservationRule,
  statePreservationRules,
} from './state.ts';
export { executeJsonPath, JsonPathError, parseJsonPathTemplate } from './jsonpath.ts';
export {
  DEFAULT_EVICTION_RATE,
  type EvictionRateMode,
  type EvictionRateSettings,
  type FleetEvictionRate,
  fleetEvictionRate,
  takeTokens,
  type TokenBucket,
} from './rate.ts';
export {
  type ClusterHealthView,
  decideEviction,
  type DueEviction,
  effectiveTolerations,
  type EvictionDecision,
  type EvictionSettings,
  evictedSpec,
  FAILOVER_HELD_CONDITION,
  failoverHeldCondition,
  type HeldEviction,
  holdLastCopy,
} from './decision.ts';
export {
  APPLICATION_FAILOVER_CONDITION,
  applicationEvictedSpec,
  type ApplicationFailoverBehavior,
  applicationFailoverCondition,
  type ApplicationFailoverDecision,
  applicationFailoverInactive,
  applicationFailoverOf,
  type ApplicationFailoverPass,
  applicationFailoverPass,
  lastCopyAtStake,
  decideApplicationFailover,
  DEFAULT_APPLICATION_TOLERATION_SECONDS,
  type DueApplicationEviction,
  type FailoverInactive,
} from './application.ts';
