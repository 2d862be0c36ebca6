/**
 * Validation as the Kubernetes API server does it, in two parts:
 * - object metadata: names by kind rule (DNS-1123 subdomain or label), namespace, labels,
 *   annotations, finalizers, owner references;
 * - the body against the kind's structural schema: types, required fields, enums, bounds, patterns,
 *   unknown fields (reported for `fieldValidation`, then pruned), `nullable`, and schema defaults.
 */
import type { KubeObject } from '../../api/object.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../util/validation.ts';
import { childPath, type FieldError, fieldError } from '../base/field-errors.ts';
import type { NameRule } from './resources.ts';
import { propertySchema, type Schema } from '../base/schema.ts';

const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** Why `name` is not valid under `rule` (Kubernetes' reasons, empty when it is). `prefix` checks a generateName. */
function nameErrors(name: string, rule: NameRule, prefix = false): string[] {
  const candidate = prefix ? name.replace(/-+$/, '') || 'a' : name;
  if (rule === 'path-segment' || rule === 'subdomain' || rule === 'label') {
    if (name === '.' || name === '..') return [`may not be '${name}'`];
    if (/[/%]/.test(name)) return ["may not contain '/' or '%'"];
  }
  if (rule === 'subdomain') return isDNS1123Subdomain(candidate);
  if (rule === 'label') return isDNS1123Label(candidate);
  return [];
}

/** Validates ObjectMeta. `namespaced` says whether the kind lives in namespaces. */
export function validateObjectMeta(obj: KubeObject, rule: NameRule, namespaced: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const meta = obj.metadata;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return [fieldError.required('metadata')];
  if (meta.name !== undefined && typeof meta.name !== 'string') {
    errors.push(fieldError.invalid('metadata.name', meta.name, 'must be a string'));
  } else if (meta.name) {
    for (const e of nameErrors(meta.name, rule)) errors.push(fieldError.invalid('metadata.name', meta.name, e));
  } else if (meta.generateName) {
    for (const e of nameErrors(meta.generateName, rule, true))
      errors.push(fieldError.invalid('metadata.generateName', meta.generateName, e));
  } else {
    errors.push(fieldError.required('metadata.name', 'name or generateName is required'));
  }
  if (namespaced && meta.namespace) {
    for (const e of nameErrors(meta.namespace, 'label'))
      errors.push(fieldError.invalid('metadata.namespace', meta.namespace, e));
  }
  for (const [field, map] of [
    ['metadata.labels', meta.labels],
    ['metadata.annotations', meta.annotations],
  ] as const) {
    if (map === undefined || map === null) continue;
    if (typeof map !== 'object' || Array.isArray(map)) {
      errors.push(fieldError.invalid(field, map, 'must be a map of string keys to string values'));
      continue;
    }
    let bytes = 0;
    for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
      // Kubernetes checks annotation keys lower-cased (`ValidateAnnotations`), label keys as written.
      const keyErrs = isQualifiedName(field === 'metadata.annotations' ? k.toLowerCase() : k);
      for (const e of keyErrs) errors.push(fieldError.invalid(field, k, e));
      if (typeof v !== 'string') {
        errors.push(fieldError.invalid(childPath(field, k), v, 'must be a string'));
        continue;
      }
      if (field === 'metadata.labels') {
        for (const e of isValidLabelValue(v)) errors.push(fieldError.invalid(childPath(field, k), v, e));
      }
      bytes += k.length + v.length;
    }
    if (field === 'metadata.annotations' && bytes > MAX_ANNOTATIONS_BYTES) {
      errors.push(fieldError.tooLong(field, `must have at most ${MAX_ANNOTATIONS_BYTES} bytes`));
    }
  }
  if (meta.finalizers !== undefined) {
    if (!Array.isArray(meta.finalizers)) {
      errors.push(fieldError.invalid('metadata.finalizers', meta.finalizers, 'must be a list of strings'));
    } else {
      meta.finalizers.forEach((f, i) => {
        const errs = typeof f === 'string' ? isQualifiedName(f) : ['must be a string'];
        for (const e of errs) errors.push(fieldError.invalid(childPath('metadata.finalizers', i), f, e));
      });
    }
  }
  if (meta.ownerReferences !== undefined) {
    if (!Array.isArray(meta.ownerReferences)) {
      errors.push(fieldError.invalid('metadata.ownerReferences', meta.ownerReferences, 'must be a list'));
    } else {
      meta.ownerReferences.forEach((ref, i) => {
        const path = childPath('metadata.ownerReferences', i);
        for (const key of ['apiVersion', 'kind', 'name', 'uid'] as const) {
          if (!ref || typeof ref !== 'object' || !(ref as unknown as Record<string, unknown>)[key]) {
            errors.push(fieldError.required(childPath(path, key)));
          }
        }
      });
    }
  }
  return errors;
}

/** What a schema walk found and produced. */
export interface SchemaCheck {
  /** The value with unknown fields pruned, non-nullable nulls dropped and defaults applied. */
  value: unknown;
  errors: FieldError[];
  /** Paths of fields the schema does not declare (in document order). */
  unknown: string[];
}

const JSON_TYPE = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function typeMatches(value: unknown, schema: Schema): boolean {
  if (schema['x-kubernetes-int-or-string'])
    return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'string';
  switch (schema.type) {
    case undefined:
      return true;
    case 'object':
      return JSON_TYPE(value) === 'object';
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}

function checkScalar(value: unknown, schema: Schema, path: string, errors: FieldError[]): void {
  if (schema.enum && !schema.enum.some((e) => e === value)) {
    errors.push(
      fieldError.notSupported(
        path,
        value,
        schema.enum.map((e) => String(e)),
      ),
    );
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
      errors.push(
        fieldError.invalid(
          path,
          value,
          `${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`,
        ),
      );
    }
    if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
      errors.push(
        fieldError.invalid(
          path,
          value,
          `${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`,
        ),
      );
    }
    if (schema.format === 'int32' && (value > 2147483647 || value < -2147483648)) {
      errors.push(fieldError.invalid(path, value, `${path} in body must be a 32-bit integer`));
    }
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) {
      errors.push(fieldError.invalid(path, value, `${path} in body should be at least ${schema.minLength} chars long`));
    }
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) {
      errors.push(fieldError.tooLong(path, `may not be more than ${schema.maxLength} bytes`));
    }
    if (schema.pattern !== undefined) {
      let re: RegExp | undefined;
      try {
        re = new RegExp(schema.pattern, 'u');
      } catch {
        re = undefined;
      }
      if (re && !re.test(value))
        errors.push(fieldError.invalid(path, value, `${path} in body should match '${schema.pattern}'`));
    }
  }
}

/**
 * Walks `value` against `schema`: reports errors and unknown fields, and returns the value pruned
 * and defaulted. `path` is the field path of `value` (empty for the object root).
 */
export function checkSchema(value: unknown, schema: Schema | undefined, path = ''): SchemaCheck {
  const errors: FieldError[] = [];
  const unknown: string[] = [];
  const out = walk(value, schema, path, errors, unknown);
  return { value: out, errors, unknown };
}

function walk(
  value: unknown,
  schema: Schema | undefined,
  path: string,
  errors: FieldError[],
  unknown: string[],
): unknown {
  if (!schema) return value;
  if (value === null && schema.nullable) return null;
  if (!typeMatches(value, schema)) {
    const expected = schema['x-kubernetes-int-or-string'] ? 'integer or string' : schema.type;
    errors.push(
      fieldError.invalid(path, value, `${path || 'body'} in body must be of type ${expected}: "${JSON_TYPE(value)}"`),
    );
    return value;
  }
  for (const sub of schema.allOf ?? []) walk(value, sub, path, errors, unknown);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      errors.push(fieldError.invalid(path, value, `${path} in body should have at least ${schema.minItems} items`));
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      errors.push(fieldError.tooMany(path, `must have at most ${schema.maxItems} items`));
    }
    const listType = schema['x-kubernetes-list-type'];
    if (listType === 'set' && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) {
      errors.push(
        fieldError.duplicate(
          path,
          value.find((v, i) => value.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)) !== i),
        ),
      );
    }
    if (listType === 'map') {
      const keys = schema['x-kubernetes-list-map-keys'] ?? [];
      const seen = new Set<string>();
      value.forEach((item, i) => {
        const id = JSON.stringify(keys.map((k) => (item as Record<string, unknown> | null)?.[k]));
        if (seen.has(id))
          errors.push(
            fieldError.duplicate(
              childPath(path, i),
              Object.fromEntries(keys.map((k) => [k, (item as Record<string, unknown>)[k]])),
            ),
          );
        seen.add(id);
      });
    }
    return value.map((item, i) => walk(item, schema.items, childPath(path, i), errors, unknown));
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const preserve = Boolean(schema['x-kubernetes-preserve-unknown-fields']);
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(obj)) {
      const valueSchema = propertySchema(schema, key);
      const childField = childPath(path, key);
      if (v === null && !(valueSchema?.nullable ?? preserve)) {
        // Kubernetes prunes nulls of non-nullable fields before defaulting.
        if (!valueSchema && !preserve && schema.properties && schema.additionalProperties === undefined)
          unknown.push(childField);
        continue;
      }
      if (!valueSchema) {
        const declared = Boolean(schema.properties) || schema.additionalProperties !== undefined;
        if (schema.additionalProperties === true || preserve || !declared) {
          out[key] = v;
        } else {
          unknown.push(childField);
        }
        continue;
      }
      out[key] = walk(v, valueSchema, childField, errors, unknown);
    }
    for (const [key, propSchema] of Object.entries(schema.properties ?? {})) {
      if (!(key in out) && propSchema.default !== undefined) {
        out[key] = walk(structuredClone(propSchema.default), propSchema, childPath(path, key), errors, unknown);
      }
    }
    for (const key of schema.required ?? []) {
      if (!(key in out)) errors.push(fieldError.required(childPath(path, key)));
    }
    if (schema.minProperties !== undefined && Object.keys(out).length < schema.minProperties) {
      errors.push(
        fieldError.invalid(path, value, `${path} in body should have at least ${schema.minProperties} properties`),
      );
    }
    if (schema.maxProperties !== undefined && Object.keys(out).length > schema.maxProperties) {
      errors.push(fieldError.tooMany(path, `must have at most ${schema.maxProperties} properties`));
    }
    if (schema.enum) checkScalar(out, schema, path, errors);
    return out;
  }
  checkScalar(value, schema, path, errors);
  return value;
}
