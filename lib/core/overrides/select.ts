/**
 * Which override rules apply to a resource template on one cluster, in Karmada's order
 * (v1.15.9 `pkg/util/overridemanager/overridemanager.go` `ApplyOverridePolicies` /
 * `getOverridersFromOverridePolicies`).
 */
import { clusterMatches } from '../placement/affinity.ts';
import { compareGoStrings, ImplicitPriority, selectorPriority } from '../policy/selector.ts';
import type { Cluster, KubeObject } from '../model/types.ts';
import type { OverridePolicy, OverridePolicyRef, PolicyOverriders, RuleWithCluster } from './types.ts';

/** Inputs of {@link applicablePolicies}. */
export interface ApplicablePoliciesInput {
  /** The resource template (after replica revision, before overrides). */
  template: KubeObject;
  /** The target cluster. */
  cluster: Cluster;
  /** OverridePolicies; only those in the template's namespace are considered. */
  overridePolicies?: readonly OverridePolicy[];
  /** ClusterOverridePolicies. */
  clusterOverridePolicies?: readonly OverridePolicy[];
}

/**
 * How specifically a policy selects `template` (`ResourceMatchSelectorsPriority`); a policy without
 * resource selectors selects everything with `MatchAll`.
 */
export function overridePolicyPriority(template: KubeObject, policy: OverridePolicy): ImplicitPriority {
  const selectors = policy.spec?.resourceSelectors ?? [];
  if (selectors.length === 0) return ImplicitPriority.MatchAll;
  let best: ImplicitPriority = ImplicitPriority.MisMatch;
  for (const selector of selectors) {
    const priority = selectorPriority(template, selector);
    if (priority > best) best = priority;
  }
  return best;
}

/** The rules of a policy: `overrideRules`, or the deprecated `targetCluster` + `overriders` as one rule. */
function rulesOf(policy: OverridePolicy): { rule: RuleWithCluster; index?: number }[] {
  const rules = policy.spec?.overrideRules ?? [];
  if (rules.length > 0) return rules.map((rule, index) => ({ rule, index }));
  return [{ rule: { targetCluster: policy.spec?.targetCluster, overriders: policy.spec?.overriders ?? {} } }];
}

function fromPolicies(
  kind: OverridePolicyRef['kind'],
  policies: readonly OverridePolicy[],
  template: KubeObject,
  cluster: Cluster,
): PolicyOverriders[] {
  const matching = policies
    .map((policy) => ({ policy, priority: overridePolicyPriority(template, policy) }))
    .filter((p) => p.priority > ImplicitPriority.MisMatch);
  // Array.prototype.sort is stable, like Go's sort.SliceStable.
  matching.sort(
    (a, b) => a.priority - b.priority || compareGoStrings(a.policy.metadata.name ?? '', b.policy.metadata.name ?? ''),
  );
  const out: PolicyOverriders[] = [];
  for (const { policy } of matching) {
    const ref: OverridePolicyRef = { kind, name: policy.metadata.name ?? '' };
    if (kind === 'OverridePolicy') ref.namespace = policy.metadata.namespace ?? '';
    for (const { rule, index } of rulesOf(policy)) {
      if (rule.targetCluster && !clusterMatches(cluster, rule.targetCluster)) continue;
      const entry: PolicyOverriders = { policy: ref, overriders: rule.overriders ?? {} };
      if (index !== undefined) entry.rule = index;
      out.push(entry);
    }
  }
  return out;
}

/**
 * The override rules to apply to `template` for `cluster`, in application order: every matching
 * ClusterOverridePolicy first, then (namespaced templates only) the OverridePolicies of the
 * template's namespace. Within each kind, policies are sorted by implicit priority ascending (no
 * resource selectors counts as MatchAll) then name ascending — so the most specific policy is
 * applied last and wins — and each contributes its rules whose `targetCluster` is absent or matches
 * the cluster, in spec order.
 *
 * @example applicablePolicies({ template: deploy, cluster: member1, overridePolicies: ops, clusterOverridePolicies: cops })
 * // [{ policy: { kind: 'ClusterOverridePolicy', name: 'registry' }, overriders: {...} }, { policy: { kind: 'OverridePolicy', ... }, rule: 0, ... }]
 */
export function applicablePolicies(input: ApplicablePoliciesInput): PolicyOverriders[] {
  const { template, cluster } = input;
  const out = fromPolicies('ClusterOverridePolicy', input.clusterOverridePolicies ?? [], template, cluster);
  const namespace = template.metadata?.namespace ?? '';
  if (namespace !== '') {
    const ops = (input.overridePolicies ?? []).filter((p) => (p.metadata.namespace ?? '') === namespace);
    out.push(...fromPolicies('OverridePolicy', ops, template, cluster));
  }
  return out;
}
