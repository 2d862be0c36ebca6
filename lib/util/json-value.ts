/**
 * Helpers over plain JSON values shared by the three patch flavours (lib/kube/patch) and the core's
 * overriders. Property access goes through own-property checks because patch documents come from
 * clients: a key such as `__proto__` or `constructor` must behave like any other key, never reach
 * `Object.prototype`.
 */

/** A JSON object as `JSON.parse` returns it. */
export type JsonObject = Record<string, unknown>;

/** The JSON type of a value, as the patch algorithms compare them. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type of `value`; anything `JSON.parse` cannot produce counts as `null`. */
export function kindOf(value: unknown): JsonKind {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'null';
  }
}

/** True when `obj` has `key` as an own property. */
export function hasOwn(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** `obj[key]` when it is an own property, else undefined. */
export function getOwn(obj: JsonObject, key: string): unknown {
  return hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets an own, enumerable property; plain assignment would change the prototype for `__proto__`. */
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy, so results never share structure with the caller's inputs. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (isJsonObject(value)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) setOwn(copy, key, cloneJson(item));
    return copy as T;
  }
  return value;
}

/** Deep equality of JSON values: object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** A short rendering of a value for error messages, cut so a huge list does not flood the Status. */
export function describeJson(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
