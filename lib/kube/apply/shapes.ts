/**
 * How server-side apply sees a value under a {@link Schema}: a scalar, an atomic list or map (a
 * leaf that is replaced whole), a granular map (merged field by field) or an associative list
 * (merged item by item, items named by key fields or by value). This is what
 * `k8s.io/kube-openapi/pkg/schemaconv` derives from the OpenAPI extensions, read straight off our
 * {@link Schema} type.
 */
import { InvalidApplyConfigurationError } from './errors.ts';
import { keyElement, valueElement, formatFieldPath, type FieldPath } from './field-set.ts';
import { declaredProperty, propertySchema, type Schema } from '../base/schema.ts';

/** The merge semantics of one value. */
export type Shape =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'atomic-list' }
  | { readonly kind: 'atomic-map' }
  | { readonly kind: 'map' }
  | { readonly kind: 'set-list' }
  | { readonly kind: 'map-list'; readonly keys: readonly string[] };

const SCALAR: Shape = { kind: 'scalar' };
const ATOMIC_LIST: Shape = { kind: 'atomic-list' };
const ATOMIC_MAP: Shape = { kind: 'atomic-map' };
const MAP: Shape = { kind: 'map' };
const SET_LIST: Shape = { kind: 'set-list' };

const STRING: Schema = { type: 'string' };
const INTEGER: Schema = { type: 'integer' };
const STRING_MAP: Schema = { type: 'object', additionalProperties: STRING };

/**
 * `metadata` is typed as `ObjectMeta` for every kind, custom resources included (Kubernetes replaces
 * a CRD's `metadata` schema with ObjectMeta's): labels and annotations are granular maps, finalizers
 * a set, ownerReferences a map list keyed by uid whose items are atomic.
 */
export const OBJECT_META_SCHEMA: Schema = {
  type: 'object',
  properties: {
    name: STRING,
    generateName: STRING,
    namespace: STRING,
    selfLink: STRING,
    uid: STRING,
    resourceVersion: STRING,
    generation: INTEGER,
    creationTimestamp: STRING,
    deletionTimestamp: STRING,
    deletionGracePeriodSeconds: INTEGER,
    labels: STRING_MAP,
    annotations: STRING_MAP,
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
        properties: {
          apiVersion: STRING,
          kind: STRING,
          name: STRING,
          uid: STRING,
          controller: { type: 'boolean' },
          blockOwnerDeletion: { type: 'boolean' },
        },
      },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    },
    finalizers: {
      type: 'array',
      items: STRING,
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    },
    managedFields: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  },
};

/**
 * The schema of a whole object: the kind's schema with `apiVersion`, `kind` and ObjectMeta
 * `metadata` always declared. Without a schema every other field is deduced from its value.
 */
export function rootSchema(schema: Schema | undefined): Schema {
  return {
    ...schema,
    type: 'object',
    properties: { ...schema?.properties, apiVersion: STRING, kind: STRING, metadata: OBJECT_META_SCHEMA },
    ...(schema ? {} : { 'x-kubernetes-preserve-unknown-fields': true }),
  };
}

/** True for a JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isListSchema(schema: Schema): boolean {
  return schema.type === 'array' || (schema.type === undefined && schema.items !== undefined);
}

function isMapSchema(schema: Schema): boolean {
  return (
    schema.type === 'object' ||
    (schema.type === undefined && (schema.properties !== undefined || schema.additionalProperties !== undefined))
  );
}

function listShape(schema: Schema): Shape {
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') return SET_LIST;
  if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'];
    return keys && keys.length > 0 ? { kind: 'map-list', keys } : ATOMIC_LIST;
  }
  if (listType === 'atomic') return ATOMIC_LIST;
  // Built-in kinds publish strategic-merge-patch tags; structured-merge-diff reads `merge` (or
  // `merge,retainKeys`) with a merge key as a map list, and without one as a set.
  const strategy = schema['x-kubernetes-patch-strategy'];
  if (strategy === 'merge' || strategy === 'merge,retainKeys') {
    const key = schema['x-kubernetes-patch-merge-key'];
    return key ? { kind: 'map-list', keys: [key] } : SET_LIST;
  }
  return ATOMIC_LIST;
}

/** The shape of a value without a schema (or under preserve-unknown-fields): granular objects, atomic lists. */
function deducedShape(value: unknown): Shape {
  if (Array.isArray(value)) return ATOMIC_LIST;
  if (isObject(value)) return MAP;
  return SCALAR;
}

/**
 * The shape of `value` under `schema`. A value whose JSON type contradicts the schema (validation's
 * business, not ours) is treated as a scalar leaf, so it is replaced rather than merged.
 */
export function shapeOf(schema: Schema | undefined, value: unknown): Shape {
  if (!schema) return deducedShape(value);
  if (schema['x-kubernetes-int-or-string']) return SCALAR;
  if (isListSchema(schema)) {
    if (value !== null && value !== undefined && !Array.isArray(value)) return SCALAR;
    return listShape(schema);
  }
  if (isMapSchema(schema)) {
    if (value !== null && value !== undefined && !isObject(value)) return SCALAR;
    return schema['x-kubernetes-map-type'] === 'atomic' ? ATOMIC_MAP : MAP;
  }
  if (schema.type !== undefined) return SCALAR;
  return deducedShape(value);
}

/** True for shapes that are replaced whole (scalars, atomic lists and maps). */
export function isLeafShape(shape: Shape): boolean {
  return shape.kind === 'scalar' || shape.kind === 'atomic-list' || shape.kind === 'atomic-map';
}

/** The schema of field `key` of an object under `schema` (undefined: deduced from the value). */
export function fieldSchema(schema: Schema | undefined, key: string): Schema | undefined {
  return propertySchema(schema, key);
}

/** True when `key` is a declared field of `schema` (a struct field, not a map entry). */
export function isNamedField(schema: Schema | undefined, key: string): boolean {
  return declaredProperty(schema, key) !== undefined;
}

/** The schema of a child reached through path element `element` (`f:` field or list item). */
export function elementSchema(schema: Schema | undefined, element: string): Schema | undefined {
  if (element.startsWith('f:')) return fieldSchema(schema, element.slice(2));
  if (element.startsWith('k:') || element.startsWith('v:')) return schema?.items;
  return undefined;
}

/** Whether a list's items may repeat (live objects) or must be unique (apply configurations). */
export type ItemMode = 'strict' | 'lenient';

/**
 * The path elements of the items of an associative list, in order. In `strict` mode (apply
 * configurations) an item without its key, a wrongly typed item or a repeated key throws
 * {@link InvalidApplyConfigurationError} with Kubernetes' wording; in `lenient` mode (live objects)
 * repeats are allowed and any other failure returns undefined, and the caller treats the list as
 * atomic.
 */
export function listElements(
  list: readonly unknown[],
  shape: Shape,
  itemSchema: Schema | undefined,
  path: FieldPath,
  mode: ItemMode,
): string[] | undefined {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const result = itemElement(list[i], shape, itemSchema);
    if (typeof result !== 'string') {
      if (mode === 'lenient') return undefined;
      const at = formatFieldPath(path);
      throw new InvalidApplyConfigurationError(`${at}: element ${i}: ${result.error}`, at);
    }
    if (mode === 'strict' && seen.has(result)) {
      const at = formatFieldPath(path);
      throw new InvalidApplyConfigurationError(`${at}: duplicate entries for key ${formatFieldPath([result])}`, at);
    }
    seen.add(result);
    out.push(result);
  }
  return out;
}

function itemElement(item: unknown, shape: Shape, itemSchema: Schema | undefined): string | { error: string } {
  if (shape.kind === 'map-list') {
    if (item === null) return { error: 'associative list with keys may not have a null element' };
    if (!isObject(item)) return { error: 'associative list with keys may not have non-map elements' };
    const keys: Record<string, unknown> = {};
    for (const key of shape.keys) {
      if (item[key] !== undefined) {
        keys[key] = item[key];
        continue;
      }
      // A key field left out takes its schema default (e.g. a port's protocol, "TCP").
      const fallback = declaredProperty(itemSchema, key)?.default;
      if (fallback === undefined) {
        return {
          error: `associative list with keys has an element that omits key field ${JSON.stringify(key)} (and doesn't have default value)`,
        };
      }
      keys[key] = fallback;
    }
    return keyElement(keys);
  }
  if (isObject(item)) return { error: "associative list without keys has an element that's a map type" };
  if (Array.isArray(item)) return { error: 'not supported: associative list with lists as elements' };
  if (item === null) return { error: "associative list without keys has an element that's an explicit null" };
  return valueElement(item);
}
