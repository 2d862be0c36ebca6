/**
 * The Lua idioms of Karmada's third-party resource customizations
 * (`pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/**`), and what happens to a Lua
 * result on its way back into Go (`luavm/lua_convert.go`: Lua table → JSON → typed struct), as plain
 * TypeScript. No Lua runs here.
 *
 * Where a script would raise a Lua error or return a value the Go conversion rejects (Karmada then
 * fails the whole interpretation), these helpers fall back to the field's default instead, so the
 * ports never throw.
 */
import type { Component } from '../../model/types.ts';
import { type InterpretOptions, generateReplicaRequirements, isObject } from '../hooks/requirements.ts';
import { readQuantity } from '../../../api/quantity.ts';

/** What a component's `replicaRequirements` holds. */
export type ComponentRequirements = NonNullable<Component['replicaRequirements']>;

/** The scripts' `get(obj, path)`: nested field access, undefined past a missing or non-object level. */
export function get(obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur ?? undefined;
}

/** Lua's `nil` as it arrives from JSON: absent or null. */
export function isNil(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** Lua truthiness: everything but nil and false. */
export function truthy(value: unknown): boolean {
  return !isNil(value) && value !== false;
}

/** The scripts' `isempty(s)`: nil or `''`. */
export function isEmpty(value: unknown): boolean {
  return isNil(value) || value === '';
}

/** Lua `tonumber`: numbers as they are, numeric strings (surrounding space allowed) parsed, else undefined. */
export function luaToNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : undefined;
}

/** The scripts' `to_num(v, default)`: `tonumber(v)`, or `default` for nil, `''` and non-numbers. */
export function toNum<D extends number | undefined>(value: unknown, fallback: D): number | D {
  if (isEmpty(value)) return fallback;
  return luaToNumber(value) ?? fallback;
}

const MAX_INT32 = 2 ** 31 - 1;
const MIN_INT32 = -(2 ** 31);

/**
 * A component's `replicas` (Go `int32`): `toNum(value, fallback)` when that is an int32 integer, else
 * `fallback` (Go's unmarshal would reject `1.5` or `"x"`).
 */
export function replicaCount(value: unknown, fallback: number): number {
  const n = toNum(value, fallback);
  return Number.isInteger(n) && n >= MIN_INT32 && n <= MAX_INT32 ? n : fallback;
}

/** A string-valued map (Go `map[string]string`) copied from a Lua table; non-string values dropped. */
export function stringMap(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The scripts' `clone_plain(table)` for a table-valued field: a deep copy, or undefined for non-tables. */
export function cloneTable(value: unknown): Record<string, unknown> | unknown[] | undefined {
  return isObject(value) || Array.isArray(value) ? structuredClone(value) : undefined;
}

/** True for a table that JSON-encodes as `{}`/`[]` (which the Lua→Go conversion then drops). */
export function isEmptyTable(value: Record<string, unknown> | unknown[]): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

const POW10_TAB = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS_TAB32 = [1, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288];
const POW10_NEG_TAB32 = [1, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320];

/** Go's `math.Pow10`, bit for bit. */
function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS_TAB32[Math.trunc(n / 32)]! * POW10_TAB[n % 32]!;
  if (n < 0 && n >= -323) return POW10_NEG_TAB32[Math.trunc(-n / 32)]! / POW10_TAB[-n % 32]!;
  return n > 0 ? Infinity : 0;
}

/**
 * `kube.getResourceQuantity(q)`: `resource.MustParse(q).AsApproximateFloat64()`. Undefined where the
 * Lua call raises (malformed quantity, negative or infinite amount). Karmada accepts only strings
 * (and nil, which reads as 0); a JSON number is accepted here too, as its text.
 */
export function getResourceQuantity(value: unknown): number | undefined {
  if (isNil(value)) return 0;
  const q = readQuantity(value);
  if (!q) return undefined;
  const base = Number(q.unscaled);
  const exponent = -q.scale;
  const num = exponent === 0 ? base : base * goPow10(exponent);
  return num < 0 || num === Infinity ? undefined : num;
}

/**
 * A Lua number as `encoding/json` writes it (`strconv.FormatFloat(f, 'f' or 'e', -1, 64)`, exponent
 * form below 1e-6 and from 1e21, `e-07` shortened to `e-7`). JavaScript's shortest round-trip text
 * uses the same thresholds and digits.
 */
export function luaNumberText(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

/**
 * `kube.accuratePodRequirements(template)` (= `helper.GenerateReplicaRequirements`) for a table-valued
 * template; undefined when it yields nothing or the template is not a table (where Lua would raise).
 */
export function accuratePodRequirements(
  template: unknown,
  options: InterpretOptions,
): ComponentRequirements | undefined {
  if (!isObject(template)) return undefined;
  return generateReplicaRequirements(template, options);
}

/** A component, with `replicaRequirements` only when there are some (an empty Lua table converts to none). */
export function component(name: string, replicas: number, requirements: ComponentRequirements | undefined): Component {
  return requirements ? { name, replicas, replicaRequirements: requirements } : { name, replicas };
}
