/**
 * Applying override rules to a resource template for one cluster, all or nothing (Karmada v1.15.9
 * `pkg/util/overridemanager/overridemanager.go` `applyClusterOverrides` / `applyNamespacedOverrides`).
 * Karmada aborts the Work rendering for the cluster at the first overrider that fails; here the caller
 * gets that failure as a value and the input is never touched.
 */
import { APPLIED_CLUSTER_OVERRIDES_ANNOTATION, APPLIED_OVERRIDES_ANNOTATION } from '../../api/well-known.ts';
import { cloneJson, isJsonObject } from '../../util/json-value.ts';
import type { KubeObject } from '../model/types.ts';
import { applyRuleOverriders, OverriderError } from './overriders.ts';
import { type ApplicablePoliciesInput, applicablePolicies } from './select.ts';
import type { OverridePolicyRef, Overriders, PolicyOverriders } from './types.ts';

/** The result of {@link applyOverrides}. */
export type ApplyOverridesResult<T extends KubeObject = KubeObject> =
  | {
      ok: true;
      /** A new object with every rule applied; shares nothing with the input. */
      object: T;
      /** The rules applied, in order (all of them: a failure applies none). */
      applied: PolicyOverriders[];
    }
  | {
      ok: false;
      /** What failed and why, e.g. `OverridePolicy default/web (rule 0): imageOverrider[0]: failed to parse image value(...)`. */
      error: string;
      /** The policy whose rule failed. */
      policy: OverridePolicyRef;
      /** Index of the failing rule in `spec.overrideRules` (absent for the deprecated single-rule form). */
      rule?: number;
    };

/** `Kind ns/name` or `Kind name`, for messages. */
export function describePolicy(policy: OverridePolicyRef): string {
  return policy.namespace ? `${policy.kind} ${policy.namespace}/${policy.name}` : `${policy.kind} ${policy.name}`;
}

/**
 * Applies `overriders` (as {@link applicablePolicies} orders them) to a deep copy of `template`, each
 * rule's overriders in Karmada's order: image, command, args, labels, annotations, field, plaintext.
 * Returns the whole new object, or the first failure — never a half-applied object; `template` is
 * never modified.
 *
 * @example
 * const result = applyOverrides(deploy, applicablePolicies({ template: deploy, cluster, overridePolicies }));
 * if (result.ok) render(result.object); else recordWarning('ApplyOverridePolicyFailed', result.error);
 */
export function applyOverrides<T extends KubeObject>(
  template: T,
  overriders: readonly PolicyOverriders[],
): ApplyOverridesResult<T> {
  let current: Record<string, unknown> = cloneJson(template) as unknown as Record<string, unknown>;
  for (const entry of overriders) {
    try {
      current = applyRuleOverriders(current, entry.overriders ?? {});
    } catch (err) {
      if (!(err instanceof OverriderError)) throw err;
      const rule = entry.rule === undefined ? '' : ` (rule ${entry.rule})`;
      const failure: ApplyOverridesResult<T> = {
        ok: false,
        error: `${describePolicy(entry.policy)}${rule}: ${err.message}`,
        policy: entry.policy,
      };
      if (entry.rule !== undefined) failure.rule = entry.rule;
      return failure;
    }
  }
  if (!isJsonObject(current)) throw new Error('unreachable: overrides produced a non-object');
  return { ok: true, object: current as unknown as T, applied: overriders.map((o) => ({ ...o })) };
}

/**
 * {@link applicablePolicies} then {@link applyOverrides}: the object to render for one cluster.
 *
 * @example overrideForCluster({ template, cluster, overridePolicies, clusterOverridePolicies })
 */
export function overrideForCluster<T extends KubeObject>(
  input: ApplicablePoliciesInput & { template: T },
): ApplyOverridesResult<T> {
  return applyOverrides(input.template, applicablePolicies(input));
}

/** A struct field as Go's encoding/json writes it: `omitempty` drops "", empty lists/maps and absent values. */
type GoField = [name: string, omitEmpty: 'omitempty' | 'null-if-absent' | 'always'];

function goStruct(value: unknown, fields: readonly GoField[], nested: Record<string, (v: unknown) => unknown> = {}) {
  const source = (value ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, mode] of fields) {
    let v = source[name];
    const empty =
      v === undefined ||
      v === null ||
      v === '' ||
      (Array.isArray(v) && v.length === 0) ||
      (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
    if (mode === 'omitempty' && empty) continue;
    if (v === undefined) {
      if (mode === 'null-if-absent') v = null;
      else if (mode === 'always') v = '';
    }
    out[name] = nested[name] && v !== null && v !== undefined ? nested[name](v) : v;
  }
  return out;
}

const list = (fields: readonly GoField[], nested?: Record<string, (v: unknown) => unknown>) => (v: unknown) =>
  (v as unknown[]).map((item) => goStruct(item, fields, nested));

// `apiextensionsv1.JSON` is a struct, so `omitempty` never drops it and an empty one marshals as null.
const SUB_PATCH: readonly GoField[] = [
  ['subPath', 'always'],
  ['operator', 'always'],
  ['value', 'null-if-absent'],
];
const OVERRIDER_FIELDS: Record<string, (v: unknown) => unknown> = {
  plaintext: list([
    ['path', 'always'],
    ['operator', 'always'],
    ['value', 'null-if-absent'],
  ]),
  imageOverrider: list(
    [
      ['predicate', 'omitempty'],
      ['component', 'always'],
      ['operator', 'always'],
      ['value', 'omitempty'],
    ],
    {
      predicate: (p) => goStruct(p, [['path', 'always']]),
    },
  ),
  commandOverrider: list([
    ['containerName', 'always'],
    ['operator', 'always'],
    ['value', 'omitempty'],
  ]),
  argsOverrider: list([
    ['containerName', 'always'],
    ['operator', 'always'],
    ['value', 'omitempty'],
  ]),
  labelsOverrider: list([
    ['operator', 'always'],
    ['value', 'omitempty'],
  ]),
  annotationsOverrider: list([
    ['operator', 'always'],
    ['value', 'omitempty'],
  ]),
  fieldOverrider: list(
    [
      ['fieldPath', 'always'],
      ['json', 'omitempty'],
      ['yaml', 'omitempty'],
    ],
    {
      json: list(SUB_PATCH),
      yaml: list(SUB_PATCH),
    },
  ),
};

/** `Overriders` as Go marshals it: Karmada's field order, `omitempty` honoured, empty JSON values as null. */
function goOverriders(overriders: Overriders): unknown {
  return goStruct(
    overriders,
    Object.keys(OVERRIDER_FIELDS).map((name): GoField => [name, 'omitempty']),
    OVERRIDER_FIELDS,
  );
}

/**
 * The Work annotations recording applied overrides (Karmada `RecordAppliedOverrides`): for each kind
 * with at least one applied rule, the JSON list `[{policyName, overriders}]` sorted by policy name.
 * Kinds with nothing applied get no annotation.
 *
 * @example appliedOverridesAnnotations(result.applied) // { 'policy.karmada.io/applied-overrides': '[{"policyName":"web",...}]' }
 */
export function appliedOverridesAnnotations(applied: readonly PolicyOverriders[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [kind, key] of [
    ['ClusterOverridePolicy', APPLIED_CLUSTER_OVERRIDES_ANNOTATION],
    ['OverridePolicy', APPLIED_OVERRIDES_ANNOTATION],
  ] as const) {
    const items = applied
      .filter((a) => a.policy.kind === kind)
      .map((a) => ({ policyName: a.policy.name, overriders: goOverriders(a.overriders ?? {}) }))
      .sort((a, b) => (a.policyName < b.policyName ? -1 : a.policyName > b.policyName ? 1 : 0));
    if (items.length > 0) out[key] = JSON.stringify(items);
  }
  return out;
}
