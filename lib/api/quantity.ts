/**
 * Kubernetes resource quantities (`100m`, `1.5`, `128Mi`, `2Gi`, `1e3`), exactly as
 * `resource.Quantity` (`k8s.io/apimachinery/pkg/api/resource`) holds them: parsing, exact comparison
 * and addition, the canonical string Kubernetes prints, and the identity Go's `==` sees on the struct
 * (Karmada compares resource-model bounds with `!=`, which is true for equal amounts written
 * differently, e.g. `1000` and `1k`).
 *
 * The amount helpers at the end (nano-units, millis, whole units, an approximate number) are thin
 * wrappers over this one parser, for code that sums and compares resource lists.
 */

/** How a quantity prints: `1Gi` (BinarySI), `1G` (DecimalSI) or `1e9` (DecimalExponent). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A parsed quantity: exactly `unscaled × 10^-scale`. */
export interface Quantity {
  unscaled: bigint;
  scale: number;
  format: QuantityFormat;
  /** The string Go caches when the input was already canonical (then it prints as written). */
  cached?: string;
  /**
   * Go's in-memory representation for `==` (int64 amount, scale, format, cached string), or
   * undefined when Go holds an `*inf.Dec`, whose pointer never equals another quantity's.
   */
  identity?: string;
}

/** The pattern Kubernetes' parse error quotes. */
const QUANTITY_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

/** `resource.ErrFormatWrong`, `ErrNumeric`, `ErrSuffix`. */
const QUANTITY_ERRORS = {
  formatWrong: `quantities must match the regular expression '${QUANTITY_PATTERN}'`,
  numeric: 'unable to parse numeric part of quantity',
  suffix: "unable to parse quantity's suffix",
} as const;

const MAX_INT64 = 2n ** 63n - 1n;
const MAX_INT64_FACTORS = 18;
const NANO_EXPONENT = -9;

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

interface Scanned {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** `parseQuantityString`: sign, numerator (leading zeros stripped), denominator and suffix. */
function scan(str: string): Scanned | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  const numStart = pos;
  while (pos < end && isDigit(str[pos]!)) pos++;
  if (pos >= end) return { positive, value: str, num: str.slice(numStart), denom: '', suffix: '' };
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    const denomStart = pos;
    while (pos < end && isDigit(str[pos]!)) pos++;
    denom = str.slice(denomStart, pos);
    if (pos >= end) return { positive, value: str, num, denom, suffix: '' };
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos]!)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos]!)) pos++;
  if (pos < end) return undefined;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function interpretSuffix(s: string): { base: 10 | 2; exponent: number; format: QuantityFormat } | undefined {
  if (s in DECIMAL_SUFFIXES) return { base: 10, exponent: DECIMAL_SUFFIXES[s]!, format: 'DecimalSI' };
  if (s in BINARY_SUFFIXES) return { base: 2, exponent: BINARY_SUFFIXES[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?\d+$/.test(s.slice(1))) {
    const exponent = Number(s.slice(1));
    if (Number.isSafeInteger(exponent) && Math.abs(exponent) < 2 ** 31)
      return { base: 10, exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

/**
 * Parses a quantity string as `resource.ParseQuantity` does (numbers in JSON arrive as their text).
 * Returns the error message Kubernetes gives when it does not parse.
 */
export function parseQuantity(input: string | number): Quantity | { error: string } {
  const str = typeof input === 'number' ? String(input) : input;
  if (str.length === 0) return { error: QUANTITY_ERRORS.formatWrong };
  if (str === '0') return { unscaled: 0n, scale: 0, format: 'DecimalSI', cached: '0', identity: 'i:0:0:DecimalSI:0' };
  const s = scan(str);
  if (!s) return { error: QUANTITY_ERRORS.formatWrong };
  const suffix = interpretSuffix(s.suffix);
  if (!suffix) return { error: QUANTITY_ERRORS.suffix };
  const { base, exponent } = suffix;
  let format = suffix.format;

  // The int64 fast path, whose results Go keeps as an int64 amount (comparable with ==).
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (base === 10) {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (s.num.length + s.denom.length);
  } else if (exponent >= 0 && s.denom.length === 0) {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - s.num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= s.denom.length;
    if (scale >= NANO_EXPONENT) {
      const shifted = s.num + s.denom;
      const value = BigInt(shifted);
      if (value > MAX_INT64) return { error: QUANTITY_ERRORS.numeric };
      const product = value * mantissa;
      if (product <= MAX_INT64) {
        const result = s.positive ? product : -product;
        const canonical =
          base === 2
            ? exponent % 10 === 0 && (value & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        const cached = canonical ? str : undefined;
        return {
          unscaled: result,
          scale: -scale,
          format,
          ...(cached !== undefined ? { cached } : {}),
          identity: `i:${result}:${scale}:${format}:${cached ?? ''}`,
        };
      }
    }
  }

  // The arbitrary-precision path (Go: *inf.Dec), rounded up to nano units and capped for BinarySI.
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s.value);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return { error: QUANTITY_ERRORS.numeric };
  const digits = `${m[2]}${m[3] ?? ''}` || '0';
  let unscaled = BigInt(digits);
  let decScale = (m[3] ?? '').length;
  if (base === 10) decScale -= exponent;
  else unscaled *= 1n << BigInt(exponent);
  if (unscaled !== 0n && decScale > -NANO_EXPONENT) {
    const divisor = 10n ** BigInt(decScale + NANO_EXPONENT);
    const rounded = unscaled / divisor + (unscaled % divisor === 0n ? 0n : 1n);
    unscaled = rounded;
    decScale = -NANO_EXPONENT;
  }
  if (format === 'BinarySI' && compareParts(unscaled, decScale, MAX_INT64, 0) > 0) {
    unscaled = MAX_INT64;
    decScale = 0;
  }
  if (format === 'BinarySI' && unscaled > 0n && compareParts(unscaled, decScale, 1n, 0) < 0) format = 'DecimalSI';
  if (m[1] === '-') unscaled = -unscaled;
  return { unscaled, scale: decScale, format };
}

/** True when `parseQuantity` failed. */
export function isQuantityError(q: Quantity | { error: string }): q is { error: string } {
  return 'error' in q;
}

function compareParts(a: bigint, aScale: number, b: bigint, bScale: number): number {
  const scale = Math.max(aScale, bScale);
  const x = a * 10n ** BigInt(scale - aScale);
  const y = b * 10n ** BigInt(scale - bScale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `Quantity.Cmp`: -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return compareParts(a.unscaled, a.scale, b.unscaled, b.scale);
}

/**
 * `Quantity.Add`: the receiver's format is kept, except that a zero receiver takes the addend's, as in
 * Go (`0 + 1Gi` is `1Gi`, not `1073741824`).
 */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const scale = Math.max(a.scale, b.scale);
  const unscaled = a.unscaled * 10n ** BigInt(scale - a.scale) + b.unscaled * 10n ** BigInt(scale - b.scale);
  return { unscaled, scale, format: a.unscaled === 0n ? b.format : a.format };
}

/** The zero quantity (`resource.Quantity{}`). */
export const ZERO_QUANTITY: Quantity = { unscaled: 0n, scale: 0, format: 'DecimalSI' };

/** `Quantity.IsZero`. */
export function isZeroQuantity(q: Quantity): boolean {
  return q.unscaled === 0n;
}

/** `Quantity.ScaledValue(scale)`: the value in units of 10^`unitExponent`, rounded away from zero. */
export function scaledValue(q: Quantity, unitExponent: number): bigint {
  const shift = q.scale + unitExponent;
  if (shift <= 0) return q.unscaled * 10n ** BigInt(-shift);
  const divisor = 10n ** BigInt(shift);
  const quotient = q.unscaled / divisor;
  if (q.unscaled % divisor === 0n) return quotient;
  return q.unscaled > 0n ? quotient + 1n : quotient - 1n;
}

/** True when two quantities are `==` as Go structs (same representation, not merely same amount). */
export function sameQuantityRepresentation(a: Quantity, b: Quantity): boolean {
  return a.identity !== undefined && a.identity === b.identity;
}

function removeFactors(value: bigint, base: bigint): { amount: bigint; times: number } {
  let amount = value < 0n ? -value : value;
  let times = 0;
  while (amount >= base && amount % base === 0n) {
    amount /= base;
    times++;
  }
  return { amount: value < 0n ? -amount : amount, times };
}

const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));

/** `Quantity.String()`: the cached input when it was canonical, else the canonical form (`1500m`, `4Gi`). */
export function formatQuantity(q: Quantity): string {
  if (q.cached !== undefined) return q.cached;
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const isInteger = q.scale <= 0 || q.unscaled % 10n ** BigInt(q.scale) === 0n;
    if (compareParts(q.unscaled, q.scale, -1024n, 0) > 0 && compareParts(q.unscaled, q.scale, 1024n, 0) < 0) {
      format = 'DecimalSI';
    } else if (!isInteger) {
      format = 'DecimalSI';
    } else {
      const integer = scaledValue(q, 0);
      const { amount, times } = removeFactors(integer, 1024n);
      return `${amount}${BINARY_SUFFIX_BY_EXPONENT.get(times * 10) ?? ''}`;
    }
  }
  const { amount: reduced, times } = removeFactors(q.unscaled, 10n);
  let amount = reduced;
  let exponent = times - q.scale;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  return `${amount}${DECIMAL_SUFFIX_BY_EXPONENT.get(exponent) ?? ''}`;
}

/** The largest int64, the bound Karmada gives the last resource-model grade. */
export const MAX_INT64_TEXT = MAX_INT64.toString();

/**
 * Parses one resource-list value as Go's `Quantity.UnmarshalJSON` does: a JSON string (surrounding
 * spaces trimmed) or a JSON number's text. Undefined for anything that is not a quantity.
 */
export function readQuantity(value: unknown): Quantity | undefined {
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return undefined;
  const q = parseQuantity(text);
  return isQuantityError(q) ? undefined : q;
}

// ---------------------------------------------------------------------------------------------------
// Amounts: wrappers over the exact quantity for code that sums and compares resource lists

/** A value that is not a quantity where one is required. */
export class QuantityError extends Error {
  override readonly name = 'QuantityError';
}

function required(q: string | number): Quantity {
  const parsed = readQuantity(q);
  if (!parsed) throw new QuantityError(`${QUANTITY_ERRORS.formatWrong}, got ${JSON.stringify(q)}`);
  return parsed;
}

const NANO = 1_000_000_000n;
const MILLI_IN_NANO = 1_000_000n;

/** Ceiling of a / b for b > 0 (BigInt `/` truncates toward zero). */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b > 0n ? q + 1n : q;
}

/**
 * A quantity in nano-units (1e-9 of the base unit), exactly; Kubernetes already rounds anything finer
 * up to a nano-unit. Throws {@link QuantityError} on malformed input.
 */
export function nanoOf(q: string | number): bigint {
  return scaledValue(required(q), NANO_EXPONENT);
}

/** `Quantity.Value()`: whole units, rounded up. */
export const unitsOf = (nano: bigint) => ceilDiv(nano, NANO);
/** `Quantity.MilliValue()`: thousandths, rounded up. */
export const millisOf = (nano: bigint) => ceilDiv(nano, MILLI_IN_NANO);

/**
 * The value of a quantity in base units (cores, bytes, counts) as the nearest number
 * (`Quantity.AsApproximateFloat64`). Throws {@link QuantityError} on malformed input.
 */
export function quantityAsNumber(q: string | number): number {
  const parsed = required(q);
  return Number(`${parsed.unscaled}e${-parsed.scale}`);
}

/** CPU in the canonical form: whole cores when whole, else millicores (`2`, `250m`). */
export function formatCpu(cores: number): string {
  const milli = Math.round(cores * 1000);
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/** Bytes in the largest binary unit that keeps an integer (`32Gi`, `1536Mi`, `1000`). */
export function formatBytes(bytes: number): string {
  const whole = Math.round(bytes);
  for (const [suffix, exponent] of Object.entries(BINARY_SUFFIXES).reverse()) {
    const factor = 2 ** exponent;
    if (whole >= factor && whole % factor === 0) return `${whole / factor}${suffix}`;
  }
  return String(whole);
}

// ---------------------------------------------------------------------------------------------------
// Exact arithmetic beyond addition (resource-list sums and differences, usage × replicas)

/**
 * `Quantity.Sub`: `a − b`, exactly. As in Go, the format of `a` is kept, except that a zero `a` takes
 * the format of `b` (so `0 − 1Gi` prints `-1Gi`); the result is never cached, so it prints canonically.
 *
 * @example formatQuantity(subtractQuantities(q('1'), q('250m'))) // '750m'
 */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  const scale = Math.max(a.scale, b.scale);
  const unscaled = a.unscaled * 10n ** BigInt(scale - a.scale) - b.unscaled * 10n ** BigInt(scale - b.scale);
  return { unscaled, scale, format: a.unscaled === 0n ? b.format : a.format };
}

/**
 * `Quantity.Mul(n)`: `q × n` for a whole `n`, exactly (format kept, cache dropped, as Go clears the
 * cached string). Throws a RangeError when `n` is a number that is not a safe integer.
 *
 * @example formatQuantity(multiplyQuantity(q('1.024'), 3)) // '3072m'
 */
export function multiplyQuantity(q: Quantity, n: bigint | number): Quantity {
  if (typeof n === 'number' && !Number.isSafeInteger(n)) {
    throw new RangeError(`a quantity is multiplied by a whole number, got ${n}`);
  }
  return { unscaled: q.unscaled * BigInt(n), scale: q.scale, format: q.format };
}
