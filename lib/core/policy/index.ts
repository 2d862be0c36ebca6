/**
 * Policy selection for the decision core: selector priorities, choosing and claiming a policy for a
 * resource template, and preemption (Karmada v1.15 detector; shared/reference/karmada-behaviour.md §2.1).
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
  type ClaimMetadata,
  claimMetadata,
  claimedBy,
  CPP_NAME_ANNOTATION,
  permanentIdLabel,
  type PolicyClaim,
  type PolicyKind,
  policyPermanentId,
  PP_NAME_ANNOTATION,
  PP_NAMESPACE_ANNOTATION,
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
} from './binding.ts';
