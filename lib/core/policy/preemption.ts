/**
 * Policy preemption (`preemption: Always`, feature gate `PropagationPolicyPreemption`) — Karmada v1.15
 * `pkg/detector/preemption.go`. The rule: a higher-priority PP > a lower-priority PP > any CPP; a
 * higher-priority CPP > a lower-priority CPP. Only explicit priorities count. Checking the feature gate
 * is the caller's job.
 */
import { compareGoStrings, explicitPriority, isDeleting } from './selector.ts';
import type { KubeObject, PropagationPolicy } from '../model/types.ts';

/** A template a preempting policy names (Karmada `helper.ConstructObjectReference(rs)`). */
export interface PreemptionTarget {
  apiVersion: string;
  kind: string;
  /** Absent for cluster-scoped templates. */
  namespace?: string;
  name: string;
}

/**
 * The templates `policy` tries to take over when it is created or updated: one per resource
 * selector with a `name` (validation requires a name on every selector of an `Always` policy); empty
 * unless `spec.preemption` is `Always`. A PropagationPolicy's selector without a namespace means its
 * own namespace (what its webhook fills in).
 */
export function preemptionTargets(policy: PropagationPolicy): PreemptionTarget[] {
  if (policy.spec.preemption !== 'Always') return [];
  const defaultNamespace = policy.kind === 'PropagationPolicy' ? policy.metadata.namespace : undefined;
  const out: PreemptionTarget[] = [];
  for (const rs of policy.spec.resourceSelectors ?? []) {
    if (!rs.name) continue;
    const namespace = rs.namespace || defaultNamespace;
    out.push({ apiVersion: rs.apiVersion, kind: rs.kind, ...(namespace ? { namespace } : {}), name: rs.name });
  }
  return out;
}

function samePolicy(a: PropagationPolicy, b: PropagationPolicy): boolean {
  return (
    a.kind === b.kind &&
    a.metadata.name === b.metadata.name &&
    (a.kind === 'ClusterPropagationPolicy' || a.metadata.namespace === b.metadata.namespace)
  );
}

/**
 * Whether `preemptor` takes a template away from the policy that claims it (`claimant`). Only an
 * `Always` policy that is not being deleted preempts, and never itself. A PropagationPolicy preempts
 * a PropagationPolicy of strictly lower explicit priority and any ClusterPropagationPolicy regardless
 * of priority (`preemptClusterPropagationPolicyDirectly`); a ClusterPropagationPolicy preempts only a
 * ClusterPropagationPolicy of strictly lower explicit priority, never a PropagationPolicy.
 */
export function canPreempt(preemptor: PropagationPolicy, claimant: PropagationPolicy): boolean {
  if (preemptor.spec.preemption !== 'Always' || isDeleting(preemptor) || samePolicy(preemptor, claimant)) return false;
  if (preemptor.kind === 'PropagationPolicy' && claimant.kind === 'ClusterPropagationPolicy') return true;
  if (preemptor.kind !== claimant.kind) return false;
  return explicitPriority(preemptor) > explicitPriority(claimant);
}

/**
 * The policy that takes `template` from its current `claimant`, if any: among `policies`, those that
 * {@link canPreempt} the claimant and name the template in a selector ({@link preemptionTargets}),
 * PropagationPolicies first, then the highest explicit priority, then by name.
 */
export function preemptingPolicy(
  template: KubeObject,
  claimant: PropagationPolicy,
  policies: readonly PropagationPolicy[],
): PropagationPolicy | undefined {
  const candidates = policies.filter(
    (p) =>
      canPreempt(p, claimant) &&
      preemptionTargets(p).some(
        (t) =>
          t.apiVersion === template.apiVersion &&
          t.kind === template.kind &&
          t.name === template.metadata.name &&
          (t.namespace ?? '') === (template.metadata.namespace ?? ''),
      ),
  );
  candidates.sort(
    (a, b) =>
      Number(b.kind === 'PropagationPolicy') - Number(a.kind === 'PropagationPolicy') ||
      explicitPriority(b) - explicitPriority(a) ||
      compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? ''),
  );
  return candidates[0];
}

/**
 * When `newPolicy` lowers the explicit priority of `oldPolicy`, the other policies that may now
 * preempt what it claims and must be re-enqueued (Karmada `HandleDeprioritized(Cluster)PropagationPolicy`):
 * same kind (PropagationPolicies: same namespace), `spec.priority` set, `preemption: Always`, and
 * explicit priority strictly between the new and the old one. Highest priority first (Karmada's
 * priority queue; ties, which Karmada leaves unordered, go by name). Empty unless the priority dropped.
 */
export function policiesToReenqueueOnPriorityLowered(
  oldPolicy: PropagationPolicy,
  newPolicy: PropagationPolicy,
  policies: readonly PropagationPolicy[],
): PropagationPolicy[] {
  const low = explicitPriority(newPolicy);
  const high = explicitPriority(oldPolicy);
  if (low >= high) return [];
  return policies
    .filter(
      (p) =>
        p.kind === newPolicy.kind &&
        (p.kind === 'ClusterPropagationPolicy' || p.metadata.namespace === newPolicy.metadata.namespace) &&
        !samePolicy(p, newPolicy) &&
        p.spec.priority !== undefined &&
        p.spec.priority !== null &&
        p.spec.preemption === 'Always' &&
        explicitPriority(p) > low &&
        explicitPriority(p) < high,
    )
    .sort(
      (a, b) =>
        explicitPriority(b) - explicitPriority(a) || compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? ''),
    );
}
