/**
 * Which policy selects a resource template and how strongly — Karmada v1.15 `pkg/util/selector.go`
 * (`ResourceSelectorPriority`, `ResourceMatchSelectorsPriority`) and `pkg/detector/compare.go`
 * (`getHighestPriorityPropagationPolicy`).
 */
import { matchesRequirements } from '../../api/labels.ts';
import { compareGoStrings } from '../../util/strings.ts';
import { compileLabelSelector } from '../placement/affinity.ts';
import type { KubeObject, PropagationPolicy, ResourceSelector } from '../model/types.ts';

/** How specifically a resource selector matches a template (Karmada `util.ImplicitPriority`). */
export const ImplicitPriority = {
  /** The selector does not select the template. */
  MisMatch: 0,
  /** Neither `name` nor `labelSelector` is set: every object of the kind (in the namespace). */
  MatchAll: 1,
  /** The `labelSelector` matches the template's labels. */
  MatchLabelSelector: 2,
  /** The `name` equals the template's name. */
  MatchName: 3,
} as const;
export type ImplicitPriority = (typeof ImplicitPriority)[keyof typeof ImplicitPriority];

/** Go's `math.MinInt32`: the explicit priority no policy can be below. */
const MIN_INT32 = -2147483648;

/**
 * How `selector` matches `template` (Karmada `ResourceSelectorPriority`): MisMatch when apiVersion or
 * kind differ or a non-empty `selector.namespace` differs; with `name` set, MatchName or MisMatch (the
 * `labelSelector` is then ignored); no `labelSelector`: MatchAll; else MatchLabelSelector when it
 * matches. An invalid label selector matches nothing.
 */
export function selectorPriority(template: KubeObject, selector: ResourceSelector): ImplicitPriority {
  if (template.apiVersion !== selector.apiVersion || template.kind !== selector.kind) return ImplicitPriority.MisMatch;
  if (selector.namespace && (template.metadata.namespace ?? '') !== selector.namespace) {
    return ImplicitPriority.MisMatch;
  }
  if (selector.name) {
    return selector.name === template.metadata.name ? ImplicitPriority.MatchName : ImplicitPriority.MisMatch;
  }
  if (selector.labelSelector === undefined || selector.labelSelector === null) return ImplicitPriority.MatchAll;
  const requirements = compileLabelSelector(selector.labelSelector);
  if (requirements === null) return ImplicitPriority.MisMatch;
  return matchesRequirements(requirements, template.metadata.labels ?? {})
    ? ImplicitPriority.MatchLabelSelector
    : ImplicitPriority.MisMatch;
}

/** The best match of any of the policy's selectors (Karmada `ResourceMatchSelectorsPriority`). */
export function policyImplicitPriority(template: KubeObject, policy: PropagationPolicy): ImplicitPriority {
  let best: ImplicitPriority = ImplicitPriority.MisMatch;
  for (const selector of policy.spec.resourceSelectors ?? []) {
    const priority = selectorPriority(template, selector);
    if (priority > best) best = priority;
  }
  return best;
}

/** `spec.priority`, absent meaning 0 (Karmada `ExplicitPriority()`). */
export function explicitPriority(policy: PropagationPolicy): number {
  return policy.spec.priority ?? 0;
}

/** True when the policy has a deletion timestamp (Karmada skips it when matching). */
export function isDeleting(object: KubeObject): boolean {
  return Boolean(object.metadata.deletionTimestamp);
}

/**
 * The policy that wins `template` among `policies` (all of one kind; Karmada
 * `getHighestPriority(Cluster)PropagationPolicy`): highest explicit priority, then highest implicit
 * priority, then the smallest name in Go byte order. Policies being deleted and policies that do
 * not select the template are skipped. `undefined` when none selects it.
 */
export function highestPriorityPolicy<P extends PropagationPolicy>(
  policies: readonly P[],
  template: KubeObject,
): P | undefined {
  let best: P | undefined;
  let bestExplicit = MIN_INT32;
  let bestImplicit: ImplicitPriority = ImplicitPriority.MisMatch;
  for (const policy of policies) {
    if (isDeleting(policy)) continue;
    const implicit = policyImplicitPriority(template, policy);
    if (implicit <= ImplicitPriority.MisMatch) continue;
    const explicit = explicitPriority(policy);
    if (bestExplicit < explicit) {
      [best, bestExplicit, bestImplicit] = [policy, explicit, implicit];
    } else if (bestExplicit === explicit) {
      if (implicit > bestImplicit) {
        [best, bestImplicit] = [policy, implicit];
      } else if (
        implicit === bestImplicit &&
        compareGoStrings(best!.metadata.name ?? '', policy.metadata.name ?? '') >= 0
      ) {
        best = policy;
      }
    }
  }
  return best;
}

/**
 * The templates among `templates` that the policy's selectors select, for fanning a policy change
 * out. A PropagationPolicy only selects templates in its own namespace (its webhook fills empty
 * selector namespaces with it); a ClusterPropagationPolicy selects cluster-scoped and namespaced
 * templates alike. Deletion of the policy is not considered (that is a separate, unclaiming path).
 */
export function matchingTemplates<T extends KubeObject>(policy: PropagationPolicy, templates: readonly T[]): T[] {
  const ownNamespace = policy.kind === 'PropagationPolicy' ? (policy.metadata.namespace ?? '') : undefined;
  return templates.filter(
    (t) =>
      (ownNamespace === undefined || (t.metadata.namespace ?? '') === ownNamespace) &&
      policyImplicitPriority(t, policy) > ImplicitPriority.MisMatch,
  );
}

export { compareGoStrings };
