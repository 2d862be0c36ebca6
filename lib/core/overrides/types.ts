/**
 * OverridePolicy / ClusterOverridePolicy shapes (`policy.karmada.io/v1alpha1`, Karmada v1.15
 * `pkg/apis/policy/v1alpha1/override_types.go`). Objects are plain JSON as the API returns them; every
 * interface tolerates fields it does not name.
 */
import type { ClusterAffinity, KubeObject, ResourceSelector } from '../model/types.ts';

/** `OverriderOperator`. The CRD restricts command/args overriders to `add` and `remove`. */
export type OverriderOperator = 'add' | 'remove' | 'replace';

/** `PlaintextOverrider`: one RFC 6902 operation on the whole object. */
export interface PlaintextOverrider {
  /** JSON pointer into the object. */
  path: string;
  operator: OverriderOperator;
  /** Any JSON; absent is sent as `null` (Karmada's `apiextensionsv1.JSON` marshals empty as null). */
  value?: unknown;
}

/** `ImageComponent`: the part of `[registry/]repository[:tag|@digest]` an image overrider edits. */
export type ImageComponent = 'Registry' | 'Repository' | 'Tag';

/** `ImageOverrider`. */
export interface ImageOverrider {
  /** Only the image at this path; absent = every container of a known workload kind. */
  predicate?: { path: string } | null;
  component: ImageComponent;
  operator: OverriderOperator;
  value?: string;
}

/** `CommandArgsOverrider` (commandOverrider / argsOverrider). */
export interface CommandArgsOverrider {
  containerName: string;
  operator: OverriderOperator;
  value?: string[];
}

/** `LabelAnnotationOverrider` (labelsOverrider / annotationsOverrider). */
export interface LabelAnnotationOverrider {
  operator: OverriderOperator;
  value?: Record<string, string>;
}

/** `JSONPatchOperation` / `YAMLPatchOperation`: one operation inside a structured string field. */
export interface SubPatchOperation {
  /** JSON pointer inside the parsed sub-document. */
  subPath: string;
  operator: OverriderOperator;
  value?: unknown;
}

/** `FieldOverrider`: patches a JSON or YAML document held in a string field of the object. */
export interface FieldOverrider {
  /** JSON pointer to a string field, e.g. `/data/config.yaml`. */
  fieldPath: string;
  json?: SubPatchOperation[];
  yaml?: SubPatchOperation[];
}

/** `Overriders`, in Karmada's JSON field order. Applied image → command → args → labels → annotations → field → plaintext. */
export interface Overriders {
  plaintext?: PlaintextOverrider[];
  imageOverrider?: ImageOverrider[];
  commandOverrider?: CommandArgsOverrider[];
  argsOverrider?: CommandArgsOverrider[];
  labelsOverrider?: LabelAnnotationOverrider[];
  annotationsOverrider?: LabelAnnotationOverrider[];
  fieldOverrider?: FieldOverrider[];
}

/** `RuleWithCluster`: overriders for the clusters `targetCluster` selects (absent/null = all). */
export interface RuleWithCluster {
  targetCluster?: ClusterAffinity | null;
  overriders: Overriders;
}

/** `OverrideSpec`. `targetCluster` + `overriders` is the deprecated single-rule form. */
export interface OverrideSpec {
  /** Empty or absent = every resource (in the namespace, for an OverridePolicy). */
  resourceSelectors?: ResourceSelector[];
  overrideRules?: RuleWithCluster[];
  /** @deprecated used only when `overrideRules` is empty. */
  targetCluster?: ClusterAffinity | null;
  /** @deprecated used only when `overrideRules` is empty. */
  overriders?: Overriders;
}

/** An OverridePolicy (namespaced) or ClusterOverridePolicy (cluster-scoped). */
export interface OverridePolicy extends KubeObject {
  spec: OverrideSpec;
}

/** Which policy an overrider set comes from. */
export interface OverridePolicyRef {
  kind: 'ClusterOverridePolicy' | 'OverridePolicy';
  name: string;
  /** The OverridePolicy's namespace; absent for a ClusterOverridePolicy. */
  namespace?: string;
}

/**
 * One matching rule of one policy, in application order (Karmada `policyOverriders`). A policy with
 * several rules matching the cluster contributes one entry per rule, in spec order.
 */
export interface PolicyOverriders {
  policy: OverridePolicyRef;
  /** Index in `spec.overrideRules`; absent for the deprecated `spec.targetCluster`/`spec.overriders` form. */
  rule?: number;
  overriders: Overriders;
}
