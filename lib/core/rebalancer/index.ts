/**
 * WorkloadRebalancer: Karmada's way to re-place workloads from scratch (a Fresh reschedule), e.g. to
 * move replicas back after a failover (Karmada `pkg/controllers/workloadrebalancer`).
 *
 * @example
 * import { decideRebalance, rebalancerBindingRefs } from './rebalancer/index.ts';
 * const bindings = await readAll(rebalancerBindingRefs(rebalancer));   // Map formatKey(ref) → binding
 * const d = decideRebalance({ rebalancer, bindings, nowMs });
 * // write d.bindingUpdates, enqueue them to the scheduler, write d.status if d.statusChanged, act on d.cleanup
 */
export {
  decideRebalance,
  needTriggerReschedule,
  type RebalanceDecision,
  type RebalanceInput,
  type RebalancerCleanup,
  rebalancerBindingRefs,
  type WorkloadOutcome,
} from './decision.ts';
export { canonicalWorkload, syncObservedWorkloads, workloadBindingRef, workloadSortKey } from './workloads.ts';
export {
  type ObservedWorkload,
  REBALANCE_FAILED,
  REBALANCE_OBJECT_NOT_FOUND,
  REBALANCE_SUCCESSFUL,
  type RebalanceFailedReason,
  type RebalanceResult,
  type WorkloadRebalancer,
  type WorkloadRebalancerSpec,
  type WorkloadRebalancerStatus,
  type WorkloadReference,
} from './types.ts';
