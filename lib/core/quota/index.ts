/**
 * FederatedResourceQuota (Karmada gate `FederatedQuotaEnforcement`): what a ResourceBinding uses, how
 * a quota's keys read it, whether an update is quota-relevant, the admission of a usage change, and the
 * recomputed status — pure functions over resource lists (`ResourceList`, exact canonical quantities).
 * Karmada: `pkg/util/helper/binding.go` (`CalculateResourceUsage`), `pkg/webhook/resourcebinding/validating.go`,
 * `pkg/controllers/federatedresourcequota/federated_resource_quota_enforcement_controller.go`.
 */
/** A resource list: resource name → canonical quantity text (the model's type, re-exported here). */
export type { ResourceList } from '../model/types.ts';
export {
  calculateComponentsUsage,
  calculateResourceUsage,
  isUsageAddition,
  LIMITS_PREFIX,
  POD_COUNT_RESOURCE,
  type QuotaBindingSpec,
  ResourceUsageOptionsError,
  type ResourceUsageOptions,
  withoutUsageAdditions,
} from './usage.ts';
export { isEnforceableQuotaKey, usageForQuotaKeys } from './keys.ts';
export { addResourceLists, nonZeroResources, subtractResourceLists } from './resource-list.ts';
export { quotaRelevantChanged } from './relevance.ts';
export {
  admitUsageChange,
  QUOTA_EXCEEDED_REASON,
  type QuotaAdmission,
  type QuotaDenial,
  type QuotaExceededCondition,
  quotaExceededCondition,
  type QuotaUsageUpdate,
  type QuotaUsageView,
  type UsageChange,
  webhookDenialMessage,
} from './admission.ts';
export { overallUsedFromUsages, type QuotaOverallSpec, quotaStatusOverall } from './status.ts';
export { type ClusterQuotaStatus, quotaAggregatedStatus, staticAssignmentWorks, staticWorkChanged } from './static.ts';
export {
  chargeCovers,
  chargedSurplus,
  chargedUsageOf,
  chargeUntilRendered,
  placementAdmitted,
  quotaUsageView,
  releasableSurplus,
  renderedMark,
  usageOf,
  wasHeldForQuota,
  withChargedUsage,
  withRenderedGeneration,
} from './binding.ts';
export {
  CHARGE_IN_FLIGHT_BOUND_MS,
  type ChargeInFlight,
  chargeInFlight,
  type ChargesInFlight,
  chargesInFlightOf,
  heldUsage,
  type QuotaRecount,
  recountOverallUsed,
  settledChargesInFlight,
  withChargesInFlight,
} from './in-flight.ts';
