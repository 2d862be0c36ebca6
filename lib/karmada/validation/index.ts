/**
 * Karmada's admission for its own kinds: the semantic validation and the defaulting that
 * karmada-webhook (and, for Cluster, karmada-aggregated-apiserver) apply on top of the CRD schema,
 * as of Karmada v1.15. Expected order, as in kube-apiserver: schema check and schema defaults, then
 * {@link defaultKarmadaObject} (the mutating webhooks), then {@link validateKarmadaObject}.
 *
 * @example
 * const defaulted = defaultKarmadaObject(pp, { newUid: randomUUID, now, operation: 'CREATE' });
 * const errors = validateKarmadaObject(defaulted, undefined);
 * if (errors.length) throw apiErrors.invalid('PropagationPolicy', 'policy.karmada.io', name, errors);
 */
import { type KubeObject, parseApiVersion } from '../../api/object.ts';
import { CLUSTER_GROUP, CONFIG_GROUP, POLICY_GROUP, SEARCH_GROUP, WORK_GROUP } from '../../api/karmada-names.ts';
import type { FieldError } from '../../kube/base/field-errors.ts';
import { cloneJson } from '../../util/json.ts';
import { defaultCluster, validateCluster } from './cluster.ts';
import { validateClusterTaintPolicy } from './cluster-taint-policy.ts';
import type { KarmadaAdmissionOptions, KarmadaDefaultingContext } from './context.ts';
import { validateFederatedResourceQuota } from './federated-resource-quota.ts';
import { defaultOverridePolicy, validateClusterOverridePolicy, validateOverridePolicy } from './override-policy.ts';
import {
  defaultClusterPropagationPolicy,
  defaultPropagationPolicy,
  validateClusterPropagationPolicy,
  validatePropagationPolicy,
} from './propagation-policy.ts';
import { validateResourceInterpreterCustomization } from './resource-interpreter-customization.ts';
import { validateResourceRegistry } from './resource-registry.ts';
import { defaultClusterResourceBinding, defaultResourceBinding, defaultWork, validateWork } from './work.ts';

export * from './cluster.ts';
export * from './cluster-name.ts';
export * from './cluster-taint-policy.ts';
export * from './context.ts';
export * from './federated-resource-quota.ts';
export * from './override-policy.ts';
export * from './placement.ts';
export * from './propagation-policy.ts';
export * from './resource-interpreter-customization.ts';
export * from './resource-registry.ts';
export * from './work.ts';

type Validator = (obj: KubeObject, old: KubeObject | undefined, options: KarmadaAdmissionOptions) => FieldError[];
type Defaulter = (obj: KubeObject, ctx: KarmadaDefaultingContext) => KubeObject;

const VALIDATORS: Record<string, Validator> = {
  [`${POLICY_GROUP}/PropagationPolicy`]: validatePropagationPolicy,
  [`${POLICY_GROUP}/ClusterPropagationPolicy`]: validateClusterPropagationPolicy,
  [`${POLICY_GROUP}/OverridePolicy`]: validateOverridePolicy,
  [`${POLICY_GROUP}/ClusterOverridePolicy`]: validateClusterOverridePolicy,
  [`${POLICY_GROUP}/FederatedResourceQuota`]: validateFederatedResourceQuota,
  [`${POLICY_GROUP}/ClusterTaintPolicy`]: (obj, old, options) =>
    validateClusterTaintPolicy(obj, old, { allowNoExecute: options.allowNoExecuteTaintPolicy ?? false }),
  [`${CONFIG_GROUP}/ResourceInterpreterCustomization`]: (obj, old) =>
    validateResourceInterpreterCustomization(obj, old),
  [`${CLUSTER_GROUP}/Cluster`]: validateCluster,
  [`${WORK_GROUP}/Work`]: validateWork,
  [`${SEARCH_GROUP}/ResourceRegistry`]: validateResourceRegistry,
};

const DEFAULTERS: Record<string, Defaulter> = {
  [`${POLICY_GROUP}/PropagationPolicy`]: defaultPropagationPolicy,
  [`${POLICY_GROUP}/ClusterPropagationPolicy`]: defaultClusterPropagationPolicy,
  [`${POLICY_GROUP}/OverridePolicy`]: defaultOverridePolicy,
  [`${CLUSTER_GROUP}/Cluster`]: defaultCluster,
  [`${WORK_GROUP}/Work`]: defaultWork,
  [`${WORK_GROUP}/ResourceBinding`]: defaultResourceBinding,
  [`${WORK_GROUP}/ClusterResourceBinding`]: defaultClusterResourceBinding,
};

function kindKey(obj: KubeObject): string {
  return `${parseApiVersion(typeof obj.apiVersion === 'string' ? obj.apiVersion : '').group}/${obj.kind}`;
}

/**
 * Validates a Karmada object as Karmada's admission would on create (`old` undefined) or update,
 * dispatching on API group and kind. Kinds Karmada does not validate return `[]`.
 */
export function validateKarmadaObject(
  obj: KubeObject,
  old: KubeObject | undefined,
  options: KarmadaAdmissionOptions = {},
): FieldError[] {
  const validate = VALIDATORS[kindKey(obj)];
  return validate ? validate(obj, old, options) : [];
}

/**
 * Applies Karmada's defaulting (mutating webhooks, Cluster strategy) for the object's kind and
 * returns a new object; other kinds come back as an unchanged copy.
 */
export function defaultKarmadaObject(obj: KubeObject, ctx: KarmadaDefaultingContext): KubeObject {
  const apply = DEFAULTERS[kindKey(obj)];
  return apply ? apply(obj, ctx) : cloneJson(obj);
}
