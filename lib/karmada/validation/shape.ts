/**
 * Reading objects the way Go's decoder sees them: a missing or mistyped field reads as its zero
 * value, and `null` reads as absent. The schema layer has already checked types; these keep the
 * validators total when it has not.
 */

/** A JSON object, or undefined for anything else (absent, null, scalar, array). */
export function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A JSON array, or `[]` for anything else. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string, or `''` for anything else (Go's zero value). */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A number, or undefined for anything else (an unset pointer). */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** True when a field is set: Go's non-nil pointer, slice or map (`null` decodes to nil). */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A string-keyed map of any values, or `{}`. */
export function stringMap(value: unknown): Record<string, unknown> {
  return record(value) ?? {};
}

/** `JSON.stringify` with object keys sorted, as Go's encoder writes maps. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    const r = record(v);
    return r
      ? Object.fromEntries(
          Object.keys(r)
            .sort()
            .map((k) => [k, r[k]]),
        )
      : v;
  });
}
