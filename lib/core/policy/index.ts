/**
 * Policy selection for the decision core: selector priorities, choosing and claiming a policy for a
 * resource template, and preemption (Karmada v1.15 `pkg/detector`).
 * Pure functions over plain objects.
 */
export {
  compareGoStrings,
  explicitPriority,
  highestPriorityPolicy,
  ImplicitPriority,
  isDeleting,
  matchingTemplates,
  policyImplicitPriority,
  selectorPriority,
} from './selector.ts';
export {
  applyClaim,
  claimedBy,
  type ClaimMetadata,
  claimMetadata,
  permanentIdLabel,
  type PolicyClaim,
  type PolicyKind,
  policyPermanentId,
  removeClaim,
} from './claim.ts';
export { type ChoosePolicyInput, choosePolicy, type PolicyChoice } from './choose.ts';
export {
  canPreempt,
  policiesToReenqueueOnPriorityLowered,
  type PreemptionTarget,
  preemptingPolicy,
  preemptionTargets,
} from './preemption.ts';
export {
  type BindingInput,
  type BindingPlan,
  bindingChanged,
  describePropagationPolicy,
  desiredBinding,
  inSkippedNamespace,
  planBinding,
  POLICY_FIELDS,
  priorityClassValue,
  type SchedulePriorityNeed,
  schedulePriorityNeed,
  schedulePriorityOf,
  workloadAffinityGroupsOf,
} from './binding.ts';
