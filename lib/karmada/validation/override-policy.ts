/**
 * OverridePolicy and ClusterOverridePolicy admission, as Karmada v1.15 does it:
 * `pkg/util/validation/validation.go` (`ValidateOverrideSpec`, `ValidateOverrideRules`) and
 * `pkg/webhook/overridepolicy/mutating.go`. Overrider operators, components and required fields are
 * the CRD's (schema) business; the webhook checks what a schema cannot.
 */
import type { KubeObject } from '../../api/object.ts';
import { type FieldError, childPath, fieldError } from '../../kube/base/field-errors.ts';
import { cloneJson } from '../../util/json.ts';
import type { KarmadaDefaultingContext } from './context.ts';
import { jsonPointerError, uniqueErrors, validateAnnotations, validateLabels } from './k8s-rules.ts';
import { validateClusterAffinity } from './placement.ts';
import { list, present, record, stringMap, text } from './shape.ts';

/** The deprecated top-level overriders Karmada counts as "set" (it ignores `fieldOverrider` here). */
const COUNTED_OVERRIDERS = [
  'plaintext',
  'imageOverrider',
  'commandOverrider',
  'argsOverrider',
  'labelsOverrider',
  'annotationsOverrider',
];

/** `validateOverrideOperator`: add/replace need a value, remove must not have one (JSON null = none). */
function validateOperatorValue(op: Record<string, unknown>, path: string): FieldError[] {
  const operator = text(op.operator);
  const hasValue = present(op.value);
  if ((operator === 'add' || operator === 'replace') && !hasValue) {
    return [fieldError.invalid(path, null, 'value is required for add or replace operation')];
  }
  if (operator === 'remove' && hasValue) {
    return [fieldError.invalid(path, op.value, 'value is not allowed for remove operation')];
  }
  return [];
}

function validatePatchOperations(ops: unknown[], path: string): FieldError[] {
  return ops.flatMap((item, i) => {
    const op = record(item) ?? {};
    const at = childPath(path, i);
    const subPath = text(op.subPath);
    const pointerError = jsonPointerError(subPath);
    return [
      ...(pointerError ? [fieldError.invalid(childPath(at, 'subPath'), subPath, pointerError)] : []),
      ...validateOperatorValue(op, childPath(at, 'value')),
    ];
  });
}

/**
 * `ValidateOverrideRules`: annotation and label overrider values, image predicate paths, field
 * overriders (json xor yaml, JSON-pointer paths, operator/value pairing) and each rule's target
 * cluster field selector.
 */
export function validateOverrideRules(rules: unknown[], specPath: string): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((item, i) => {
    const rule = record(item) ?? {};
    const rulePath = childPath(childPath(specPath, 'overrideRules'), i);
    const overridersPath = childPath(rulePath, 'overriders');
    const overriders = record(rule.overriders) ?? {};
    list(overriders.annotationsOverrider).forEach((o, j) => {
      const at = childPath(childPath(childPath(overridersPath, 'annotationsOverrider'), j), 'value');
      errs.push(...validateAnnotations(stringMap(record(o)?.value), at));
    });
    list(overriders.labelsOverrider).forEach((o, j) => {
      const at = childPath(childPath(childPath(overridersPath, 'labelsOverrider'), j), 'value');
      errs.push(...validateLabels(stringMap(record(o)?.value), at));
    });
    list(overriders.imageOverrider).forEach((o, j) => {
      const predicate = record(record(o)?.predicate);
      if (!predicate) return;
      const path = text(predicate.path);
      const error = jsonPointerError(path);
      const at = childPath(childPath(childPath(childPath(overridersPath, 'imageOverrider'), j), 'predicate'), 'path');
      if (error) errs.push(fieldError.invalid(at, path, error));
    });
    list(overriders.fieldOverrider).forEach((o, j) => {
      const fo = record(o) ?? {};
      const at = childPath(childPath(overridersPath, 'fieldOverrider'), j);
      const yaml = list(fo.yaml);
      const json = list(fo.json);
      if (yaml.length > 0 && json.length > 0) {
        errs.push(fieldError.invalid(at, fo, 'FieldOverrider has both YAML and JSON set. Only one is allowed'));
      }
      const fieldPath = text(fo.fieldPath);
      const error = jsonPointerError(fieldPath);
      if (error) errs.push(fieldError.invalid(childPath(at, 'fieldPath'), fieldPath, error));
      errs.push(...validatePatchOperations(json, childPath(at, 'json')));
      errs.push(...validatePatchOperations(yaml, childPath(at, 'yaml')));
    });
    errs.push(...validateClusterAffinity(record(rule.targetCluster), childPath(rulePath, 'targetCluster')));
  });
  return errs;
}

/**
 * `ValidateOverrideSpec`: the deprecated `targetCluster`/`overriders` cannot be combined with
 * `overrideRules` (an empty list counts as set), then the rules.
 */
export function validateOverrideSpec(specValue: unknown): FieldError[] {
  const spec = record(specValue) ?? {};
  const errs: FieldError[] = [];
  const targetCluster = record(spec.targetCluster);
  const hasRules = present(spec.overrideRules);
  if (targetCluster) {
    errs.push(...validateClusterAffinity(targetCluster, 'spec.targetCluster'));
    if (hasRules)
      errs.push(
        fieldError.invalid('spec.targetCluster', targetCluster, "overrideRules and targetCluster can't co-exist"),
      );
  }
  const overriders = record(spec.overriders) ?? {};
  if (hasRules && COUNTED_OVERRIDERS.some((k) => list(overriders[k]).length > 0)) {
    errs.push(fieldError.invalid('spec.overriders', overriders, "overrideRules and overriders can't co-exist"));
  }
  errs.push(...validateOverrideRules(list(spec.overrideRules), 'spec'));
  return errs;
}

/** Validates an OverridePolicy (the same rules on create and update). */
export function validateOverridePolicy(obj: KubeObject, _old: KubeObject | undefined): FieldError[] {
  return uniqueErrors(validateOverrideSpec(obj.spec));
}

/** Validates a ClusterOverridePolicy (the same rules as {@link validateOverridePolicy}). */
export function validateClusterOverridePolicy(obj: KubeObject, _old: KubeObject | undefined): FieldError[] {
  return uniqueErrors(validateOverrideSpec(obj.spec));
}

/**
 * The OverridePolicy mutating webhook: resource selectors without a namespace get the policy's.
 * (ClusterOverridePolicy has no mutating webhook.)
 */
export function defaultOverridePolicy(obj: KubeObject, _ctx: KarmadaDefaultingContext): KubeObject {
  const out = cloneJson(obj);
  const namespace = out.metadata?.namespace ?? '';
  for (const item of list(record(out.spec)?.resourceSelectors)) {
    const selector = record(item);
    if (selector && !text(selector.namespace) && namespace) selector.namespace = namespace;
  }
  return out;
}
