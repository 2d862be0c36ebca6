/**
 * The OpenAPI v3 schema subset Kubernetes uses for resources (structural schemas, as in CRDs), with
 * the vendor extensions that carry merge semantics. One type serves validation, defaulting,
 * strategic merge patch (`x-kubernetes-patch-strategy`/`-merge-key`, as Kubernetes' own OpenAPI
 * publishes them for built-in kinds), server-side apply (`x-kubernetes-list-type`/`-list-map-keys`,
 * `x-kubernetes-map-type`) and the published OpenAPI documents.
 */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  properties?: Record<string, Schema>;
  /** Schema of map values (`type: object` without fixed properties), or `true`/`false`. */
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  format?: string;
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  not?: Schema;
  /** Keep fields the schema does not declare (no pruning, no unknown-field errors below here). */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** Accepts an integer or a string (e.g. `maxUnavailable: 25%`). */
  'x-kubernetes-int-or-string'?: boolean;
  /** The value is a whole Kubernetes object (apiVersion/kind/metadata validated as such). */
  'x-kubernetes-embedded-resource'?: boolean;
  /** Server-side apply list semantics: `atomic` (default), `set` (scalars) or `map` (keyed objects). */
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  /** Keys identifying the items of a `map` list. */
  'x-kubernetes-list-map-keys'?: string[];
  /** Server-side apply map semantics: `granular` (default) or `atomic`. */
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  /** Strategic merge patch: `merge`, `replace`, `retainKeys` or `merge,retainKeys` (built-in kinds only). */
  'x-kubernetes-patch-strategy'?: string;
  /** Strategic merge patch: the field identifying list items under `merge`. */
  'x-kubernetes-patch-merge-key'?: string;
  /** CEL rules (accepted and published, not evaluated here). */
  'x-kubernetes-validations'?: {
    rule: string;
    message?: string;
    messageExpression?: string;
    reason?: string;
    fieldPath?: string;
  }[];
  /** The group/version/kind a schema describes (top-level schemas in published OpenAPI). */
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

/**
 * The schema `schema` declares for field `key`, or undefined — an own-property lookup, so a field a
 * client names `constructor`, `toString` or `__proto__` is never taken for a declared one.
 */
export function declaredProperty(schema: Schema | undefined, key: string): Schema | undefined {
  const properties = schema?.properties;
  return properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
}

/** The schema of field `key` of an object described by `schema` (undefined: not declared). */
export function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  const declared = declaredProperty(schema, key);
  if (declared) return declared;
  if (typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  return undefined;
}
