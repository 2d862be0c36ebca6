/**
 * Reading plain JSON as Karmada's typed Go structs would see it, and writing it back as
 * `encoding/json` marshals those structs. The status hooks convert the `status` of an object into a
 * typed Go struct (`helper.ConvertToTypedObject`, `json.Unmarshal`), pick fields and marshal the result;
 * these helpers reproduce that round trip: an `int32` field that is absent is 0, an `omitempty` field
 * that is 0 disappears, a `metav1.Time` is re-rendered in UTC with second precision, and an unset
 * `metav1.Time` that is not behind a pointer marshals as `null`.
 *
 * A value of the wrong type (a string where Go wants an integer, a time that is not RFC 3339) counts
 * as unset: Karmada's typed conversion would fail the whole hook instead, whereas these functions never
 * throw.
 */

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `value`, or an empty one when it is not an object. */
export function objectOf(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

/** The array at `value`, or an empty one when it is not an array. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

const MAX_INT32 = 2 ** 31 - 1;
const MIN_INT32 = -(2 ** 31);

/** A Go `int32` field: the integer when it is one in range, else 0 (unset). */
export function int32Of(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_INT32 && value <= MAX_INT32 ? value : 0;
}

/** A Go `int64` field: the integer when it is a safe one, else 0 (unset). */
export function int64Of(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;
}

/** A Go `*int32` field: the integer when it is one in range, else undefined (nil). */
export function optionalInt32(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_INT32 && value <= MAX_INT32
    ? value
    : undefined;
}

/** A Go `string` field: the string, else `''`. */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A Go `bool` field: the boolean, else false. */
export function boolOf(value: unknown): boolean {
  return value === true;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * `strconv.ParseInt(s, 10, 64)`: an optional sign and decimal digits, in int64 range. Undefined when Go
 * would return an error (including for `''`).
 */
export function parseInt64(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN) return undefined;
  return Number(value);
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant of an RFC 3339 time as `metav1.Time.UnmarshalJSON` parses it (milliseconds since the
 * epoch), or undefined when it is not one.
 */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const whole = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(whole)) return undefined;
  const fraction = m[2] ? Number(`0${m[2]}`) * 1000 : 0;
  return whole + fraction;
}

/** `metav1.Time.MarshalJSON` of an instant: UTC, RFC 3339, whole seconds (`2024-05-01T08:00:00Z`). */
export function formatTime(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** A `*metav1.Time` field re-rendered as Go marshals it, or undefined (nil) when it is not a time. */
export function timeOf(value: unknown): string | undefined {
  const ms = parseTime(value);
  return ms === undefined ? undefined : formatTime(ms);
}

/**
 * A non-pointer `metav1.Time` field with `omitempty`: Go still marshals it, as `null` when unset
 * (`omitempty` has no effect on a struct).
 */
export function timeOrNull(value: unknown): string | null {
  return timeOf(value) ?? null;
}

/** Sets `key` to `value`, or removes it when `value` is Go's zero value (an `omitempty` field). */
export function setOmitEmpty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === 0 || value === '' || value === undefined || value === false) delete target[key];
  else target[key] = value;
}

/** A Go `*string` field: the string when it is one, else undefined (nil). */
export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Byte-wise comparison of two strings, as Go's `<` on strings (ASCII names compare the same in JS). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
