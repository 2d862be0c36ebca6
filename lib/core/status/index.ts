/**
 * Status interpretation and aggregation (Karmada v1.15.9 `pkg/resourceinterpreter/default/native`,
 * `pkg/controllers/status`, `pkg/util/helper/workstatus.go`): the resource interpreter's
 * `ReflectStatus`, `InterpretHealth` and `AggregateStatus` native hooks, the manifest status a member
 * agent writes into a Work, and the binding's `status.aggregatedStatus` + `FullyApplied` condition
 * assembled from its Works — pure functions over plain JSON objects.
 *
 * @example
 * import { aggregateStatus, aggregatedStatusItems, bindingExistingClusters, fullyAppliedCondition, manifestStatusOf } from './status/index.ts';
 * // member side: what the agent reports for the object it applied as manifest 0
 * const manifestStatus = manifestStatusOf(0, liveDeployment);
 * // control plane: binding status, then the template's status
 * const items = aggregatedStatusItems(template, works.map((work) => ({ cluster, work })));
 * const condition = fullyAppliedCondition(bindingExistingClusters(binding.spec), items);
 * const status = aggregateStatus(template, items, { now: '2025-01-01T00:00:00Z' }); // undefined: no hook
 */
export { aggregateStatus, hasAggregateStatusHook, jobFinishedType } from './aggregate.ts';
export {
  appliedFailureMessage,
  APPLIED_CONDITION,
  appliedCurrent,
  DISPATCHING_CONDITION,
  dispatchingStarts,
  failedCurrent,
  WORK_DISPATCHING_MESSAGE,
  type WorkStatus,
  workStatusAfter,
  workStatusChanged,
} from './applied.ts';
export { hasHealthHook, interpretHealth } from './health.ts';
export { hasReflectStatusHook, reflectStatus, tryReflectStatus } from './reflect.ts';
export type {
  AggregateStatusOptions,
  AggregatedStatusItem,
  FullyAppliedCondition,
  ManifestIdentifier,
  ManifestStatus,
  ReflectStatusResult,
  ResourceHealth,
} from './types.ts';
export {
  FULLY_APPLIED_CONDITION,
  FULLY_APPLIED_FAILED_MESSAGE,
  FULLY_APPLIED_FAILED_REASON,
  FULLY_APPLIED_SUCCESS_MESSAGE,
  FULLY_APPLIED_SUCCESS_REASON,
  aggregatedStatusItems,
  bindingExistingClusters,
  fullyAppliedCondition,
  manifestStatusOf,
  REPORT_FILL_LIMIT,
  unreportedTargets,
  withClusterItem,
  withReportedWorks,
} from './work.ts';
