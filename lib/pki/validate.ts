/**
 * Option checks shared by the PKI functions. Each throws a {@link PkiOptionsError} naming the option,
 * so a typo or a bad host fails at the call, not later as an opaque TLS error in kubectl.
 */
import { isIP } from 'node:net';
import { inspect } from 'node:util';
import { PkiOptionsError } from './errors.ts';

/** Rejects keys of `options` that are not in `known` (a misspelt option would otherwise be ignored). */
export function assertKnownKeys(options: object, known: readonly string[], where: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new PkiOptionsError(`${where} option "${key}"`, `unknown option; known options are ${known.join(', ')}`);
    }
  }
}

/** A non-empty string without control characters. */
export function assertName(value: unknown, option: string): asserts value is string {
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || value.trim() === '' || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new PkiOptionsError(option, `expected a non-empty string without control characters, got ${show(value)}`);
  }
}

/** A time in milliseconds since the epoch. */
export function assertTime(value: unknown, option: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new PkiOptionsError(option, `expected milliseconds since the epoch, got ${show(value)}`);
  }
}

/** A positive, finite number of days (fractions allowed, for short-lived certificates in tests). */
export function assertDays(value: unknown, option: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new PkiOptionsError(option, `expected a positive number of days, got ${show(value)}`);
  }
}

// One DNS label: letters, digits and inner hyphens, at most 63 characters.
const LABEL = '[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?';
const DNS_NAME = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*$`, 'i');

/** A DNS name for a SAN (optionally a leading `*.` wildcard); IP addresses are refused here. */
export function assertDnsName(value: unknown, option: string): asserts value is string {
  if (typeof value === 'string' && isIP(value) !== 0) {
    throw new PkiOptionsError(option, `${value} is an IP address; clients match it only as an IP SAN (ipAddresses)`);
  }
  if (typeof value !== 'string' || value.length > 253 || !DNS_NAME.test(value)) {
    throw new PkiOptionsError(
      option,
      `expected a DNS name such as "localhost" or "api.example.com", got ${show(value)}`,
    );
  }
}

/** An IPv4 or IPv6 address in textual form, without brackets or zone. */
export function assertIpAddress(value: unknown, option: string): asserts value is string {
  if (typeof value !== 'string' || isIP(value) === 0) {
    throw new PkiOptionsError(option, `expected an IPv4 or IPv6 address such as "127.0.0.1", got ${show(value)}`);
  }
}

/** An array (possibly empty) whose items pass `check`; `undefined` counts as empty. */
export function checkList(
  value: unknown,
  option: string,
  check: (item: unknown, option: string) => void,
): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new PkiOptionsError(option, `expected an array, got ${show(value)}`);
  value.forEach((item, i) => check(item, `${option}[${i}]`));
  return value as string[];
}

function show(value: unknown): string {
  return inspect(value, { depth: 1, breakLength: Infinity });
}
