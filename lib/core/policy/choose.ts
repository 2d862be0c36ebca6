/**
 * Which policy a resource template should follow — Karmada v1.15 `propagateResource`,
 * `getAndApplyPolicy` / `getAndApplyClusterPolicy` and `LookForMatched(Cluster)Policy`
 * (`pkg/detector/policy.go`, `pkg/detector/detector.go`).
 */
import { claimedBy, type PolicyClaim } from './claim.ts';
import { highestPriorityPolicy, ImplicitPriority, isDeleting, policyImplicitPriority } from './selector.ts';
import type { KubeObject, PropagationPolicy } from '../model/types.ts';

/** What `choosePolicy` decided. */
export type PolicyChoice =
  /**
   * The template is claimed and its policy exists, is not being deleted and still selects it: apply
   * that policy (sticky — no other policy is considered, whatever its priority). The policy is looked
   * up by namespace/name; if it was recreated under the same name its permanent id differs from
   * `claim.permanentId`, and `applyClaim` rewrites the claim, as Karmada does.
   */
  | { outcome: 'claimed'; policy: PropagationPolicy; claim: PolicyClaim }
  /**
   * The claimed policy exists but no longer selects the template (e.g. an Ingress seen through another
   * API group): Karmada does nothing — neither applies nor unclaims.
   */
  | { outcome: 'claimed-mismatch'; policy: PropagationPolicy; claim: PolicyClaim }
  /**
   * The claimed policy no longer exists: remove the claim from the template and its binding (only if
   * the claim id is `claim.permanentId`, see `removeClaim`), then choose again.
   */
  | { outcome: 'claimed-gone'; claim: PolicyClaim }
  /** The claimed policy is being deleted: retry later (its deletion will unclaim the template). */
  | { outcome: 'claimed-deleting'; policy: PropagationPolicy; claim: PolicyClaim }
  /** Unclaimed template: the winning PropagationPolicy, or ClusterPropagationPolicy if no PP selects it. */
  | { outcome: 'matched'; policy: PropagationPolicy }
  /** Unclaimed and no policy selects it (Karmada: waiting list, retried once). */
  | { outcome: 'none' };

export interface ChoosePolicyInput {
  template: KubeObject;
  /** PropagationPolicies; only those in the template's namespace are candidates for a new match. */
  propagationPolicies: readonly PropagationPolicy[];
  clusterPropagationPolicies: readonly PropagationPolicy[];
}

/**
 * Decides the policy for `template`: an existing claim (PropagationPolicy claim first, then
 * ClusterPropagationPolicy claim) is sticky; otherwise the highest-priority PropagationPolicy in the
 * template's namespace, else the highest-priority ClusterPropagationPolicy (a PP always beats a CPP,
 * whatever their priorities; cluster-scoped templates only consider CPPs).
 */
export function choosePolicy({
  template,
  propagationPolicies,
  clusterPropagationPolicies,
}: ChoosePolicyInput): PolicyChoice {
  const claim = claimedBy(template);
  if (claim) {
    const policy =
      claim.kind === 'PropagationPolicy'
        ? propagationPolicies.find((p) => p.metadata.namespace === claim.namespace && p.metadata.name === claim.name)
        : clusterPropagationPolicies.find((p) => p.metadata.name === claim.name);
    if (!policy) return { outcome: 'claimed-gone', claim };
    if (isDeleting(policy)) return { outcome: 'claimed-deleting', policy, claim };
    if (policyImplicitPriority(template, policy) === ImplicitPriority.MisMatch) {
      return { outcome: 'claimed-mismatch', policy, claim };
    }
    return { outcome: 'claimed', policy, claim };
  }
  const namespace = template.metadata.namespace ?? '';
  if (namespace !== '') {
    const local = propagationPolicies.filter((p) => p.metadata.namespace === namespace);
    const pp = highestPriorityPolicy(local, template);
    if (pp) return { outcome: 'matched', policy: pp };
  }
  const cpp = highestPriorityPolicy(clusterPropagationPolicies, template);
  return cpp ? { outcome: 'matched', policy: cpp } : { outcome: 'none' };
}
