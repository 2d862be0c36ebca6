/**
 * The override engine: OverridePolicy / ClusterOverridePolicy selection and ordering, and every
 * overrider (plaintext, image, command, args, labels, annotations, field) as pure functions over
 * plain Karmada-shaped objects (Karmada `pkg/util/overridemanager`).
 *
 * @example
 * import { applicablePolicies, applyOverrides } from './overrides/index.ts';
 * const rules = applicablePolicies({ template, cluster, overridePolicies, clusterOverridePolicies });
 * const result = applyOverrides(template, rules);
 * if (result.ok) workManifest = result.object; else console.error(result.error);
 */
export {
  appliedOverridesAnnotations,
  applyOverrides,
  type ApplyOverridesResult,
  describePolicy,
  overrideForCluster,
} from './apply.ts';
export { ImageComponents, type ParsedImage, parseImage, splitHostname } from './image-reference.ts';
export { applyRuleOverriders, overrideImage, OverriderError, type OverrideOption } from './overriders.ts';
export { type ApplicablePoliciesInput, applicablePolicies, overridePolicyPriority } from './select.ts';
export { patchJsonText, patchYamlText, type StructuredResult } from './structured.ts';
export type * from './types.ts';
