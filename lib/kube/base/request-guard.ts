/**
 * The limits every request meets before anything routes, parses deeply, or reaches the store — the
 * one place hostile or careless input is turned into a 4xx `Status`. The control-plane API, the
 * member-cluster webhooks and the member simulator all go through it (docs/api.md, "Limits").
 *
 * - Paths are taken as sent: never normalised. A `.`/`..` segment, an empty segment, a bad percent
 *   escape, an encoded `/` or a control character is refused, so no path can be re-routed onto
 *   another resource (kube-apiserver refuses such paths as well).
 * - Bodies are at most {@link MAX_REQUEST_BYTES} and at most {@link MAX_NESTING_DEPTH} levels deep;
 *   the depth is checked without recursion before any recursive walk (validation, patches, clones,
 *   error messages) sees the value.
 * - Names and namespaces longer than Kubernetes allows cannot exist, so they never reach the store.
 */
import { parse as parseYaml } from 'yaml';
import { ApiError, apiErrors } from './errors.ts';
import { MAX_REQUEST_BYTES } from './http.ts';

/**
 * Deepest nesting of objects and arrays accepted in a body (a top-level object is depth 1).
 * kube-apiserver's JSON decoder stops at 10,000 levels (Go stacks grow; Node's do not); real objects
 * stay far below 100 (a deep CRD schema reaches ~60). 512 keeps every recursive walk of a value —
 * validation, patches, clones, messages, and the YAML parser, which needs ~1 KiB of stack per level —
 * well inside Node's ~1 MiB stack.
 */
export const MAX_NESTING_DEPTH = 512;

/** Longest request path accepted, in bytes (before percent-decoding). */
export const MAX_PATH_BYTES = 8192;

/**
 * Longest object name that can exist, in UTF-8 bytes: Kubernetes' DNS-1123 subdomain limit. Kinds
 * whose names are path segments (RBAC roles, …) have no length limit in Kubernetes; here they share
 * this one, which keeps every store key inside DynamoDB's key sizes.
 */
export const MAX_NAME_BYTES = 253;

/** Longest namespace name (a DNS-1123 label). */
export const MAX_NAMESPACE_BYTES = 63;

export { MAX_REQUEST_BYTES };

/**
 * Why a raw request path is refused, as an ApiError, or undefined when it is acceptable. The path is
 * what the client sent before the query string, not decoded.
 */
export function checkRequestPath(path: string): ApiError | undefined {
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) {
    return new ApiError(
      414,
      'BadRequest',
      `the request path is ${Buffer.byteLength(path)} bytes; the limit is ${MAX_PATH_BYTES}`,
    );
  }
  if (!path.startsWith('/')) return apiErrors.badRequest(`the request path must start with "/": ${quote(path)}`);
  if (path === '/') return undefined;
  // Raw characters outside printable ASCII must be percent-encoded (RFC 3986).
  if (/[^\x21-\x7e]/.test(path)) {
    return apiErrors.badRequest(`the request path contains a character that must be percent-encoded: ${quote(path)}`);
  }
  const segments = path.slice(1).split('/');
  for (let i = 0; i < segments.length; i++) {
    const raw = segments[i]!;
    if (raw === '') {
      return new ApiError(
        404,
        'NotFound',
        `the server could not find the requested resource: the path ${quote(path)} has an empty segment (paths are not normalised)`,
      );
    }
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return apiErrors.badRequest(`the request path has a malformed percent-encoding in ${quote(raw)}`);
    }
    if (segment === '.' || segment === '..') {
      return apiErrors.badRequest(
        `the request path may not contain a '${segment}' segment (paths are not normalised): ${quote(path)}`,
      );
    }
    if (segment.includes('/'))
      return apiErrors.badRequest(`a path segment may not contain an encoded '/': ${quote(raw)}`);
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(segment)) {
      return apiErrors.badRequest(`a path segment may not contain control characters: ${quote(raw)}`);
    }
  }
  return undefined;
}

/**
 * A watch's `timeoutSeconds`: a whole number (400 otherwise, as kube-apiserver's query decoding
 * answers); 30 minutes when absent or 0, and never more than an hour (kube-apiserver likewise ends
 * every watch within its --min-request-timeout window).
 */
export function watchTimeoutSeconds(text: string | null): number {
  if (text !== null && !/^\d{1,9}$/.test(text)) {
    throw apiErrors.badRequest(`timeoutSeconds must be a whole number of seconds, got ${quote(text)}`);
  }
  return Math.min(Number(text ?? 1800) || 1800, 3600);
}

/** Splits a raw HTTP request target (`/path?query`) without normalising the path. */
export function splitRequestTarget(target: string): { path: string; query: URLSearchParams } {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const hash = path.indexOf('#');
  return {
    path: hash < 0 ? path : path.slice(0, hash),
    query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)),
  };
}

/** True when a name can never exist (too long for any kind), so a read or delete of it is a 404. */
export function nameTooLong(name: string): boolean {
  return Buffer.byteLength(name) > MAX_NAME_BYTES;
}

export function namespaceTooLong(namespace: string): boolean {
  return Buffer.byteLength(namespace) > MAX_NAMESPACE_BYTES;
}

/** A name too long to repeat in a message, cut to its start and its size. */
export function shortened(name: string): string {
  return name.length <= 64 ? name : `${name.slice(0, 64)}…(${Buffer.byteLength(name)} bytes)`;
}

// ------------------------------------------------------------------------------------------ bodies

/** What {@link scanJson} found: too deep (at which path), and duplicate object keys by path. */
export interface JsonScan {
  tooDeep: boolean;
  duplicates: string[];
}

/**
 * Walks JSON text once, without recursion: reports nesting beyond `maxDepth` (stopping there) and, when
 * asked, keys repeated within one object as field paths (`metadata.name`, `spec.containers[0].image`),
 * the form kube-apiserver's strict decoding reports. Assumes the text is valid JSON (call after
 * JSON.parse accepted it, or treat the result as advisory).
 */
export function scanJson(text: string, options: { maxDepth: number; duplicates: boolean }): JsonScan {
  interface Frame {
    array: boolean;
    index: number;
    keys: Set<string> | undefined;
    key: string | undefined;
  }
  const stack: Frame[] = [];
  const duplicates: string[] = [];
  let expectKey = false;
  const path = (extra?: string): string => {
    let out = '';
    for (const f of stack) {
      if (f.array) out += `[${f.index}]`;
      else if (f.key !== undefined && f !== stack[stack.length - 1]) out += out ? `.${f.key}` : f.key;
    }
    if (extra !== undefined) out += out ? `.${extra}` : extra;
    return out;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      if (expectKey) {
        const top = stack[stack.length - 1]!;
        const literal = text.slice(start, i + 1);
        let key: string;
        try {
          key = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
        } catch {
          key = literal.slice(1, -1);
        }
        if (options.duplicates) {
          if (top.keys!.has(key)) duplicates.push(path(key));
          else top.keys!.add(key);
        }
        top.key = key;
        expectKey = false;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length + 1 > options.maxDepth) return { tooDeep: true, duplicates };
      const array = c === 0x5b;
      stack.push({ array, index: 0, keys: !array && options.duplicates ? new Set() : undefined, key: undefined });
      expectKey = !array;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else if (top) expectKey = true;
    }
  }
  return { tooDeep: false, duplicates };
}

/** True when `value` nests objects/arrays deeper than `maxDepth` (checked without recursion). */
export function deeperThan(value: unknown, maxDepth = MAX_NESTING_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > maxDepth) return true;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function tooDeepError(what: string): ApiError {
  return apiErrors.badRequest(
    `${what} is nested more than ${MAX_NESTING_DEPTH} levels deep; the limit is ${MAX_NESTING_DEPTH}`,
  );
}

/** A decoded body and the keys it repeated (field paths), for strict field validation. */
export interface DecodedBody {
  value: unknown;
  duplicates: string[];
}

/**
 * Parses a JSON body under the limits: a syntax error, or nesting deeper than
 * {@link MAX_NESTING_DEPTH}, is a 400 that names `what` (`the patch`, `DeleteOptions`, …).
 * `decodeError` words the message of a syntax error as the caller's Kubernetes counterpart does.
 */
export function decodeJson(
  buffer: Buffer,
  what: string,
  options: { duplicates?: boolean; decodeError?: (message: string) => string } = {},
): DecodedBody {
  const text = buffer.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    throw apiErrors.badRequest(
      options.decodeError ? options.decodeError(message) : `error decoding ${what}: ${message}`,
    );
  }
  if (value === null || typeof value !== 'object') return { value, duplicates: [] };
  const scan = scanJson(text, { maxDepth: MAX_NESTING_DEPTH, duplicates: options.duplicates ?? false });
  if (scan.tooDeep) throw tooDeepError(what);
  return { value, duplicates: scan.duplicates };
}

/**
 * Parses a YAML body under the same limits. Flow collections (`[[[…`) are counted before parsing, so
 * the parser never recurses past the limit; block nesting is bounded by the body size and checked on
 * the result. Duplicate keys are an error in YAML already.
 */
export function decodeYaml(
  buffer: Buffer,
  what: string,
  options: { decodeError?: (message: string) => string } = {},
): DecodedBody {
  const text = buffer.toString('utf8');
  // JSON is YAML, and what kubectl sends for server-side apply: the iterative JSON parser first.
  if (/^\s*\{/.test(text)) {
    try {
      JSON.parse(text);
      return decodeJson(buffer, what, options);
    } catch (err) {
      if (err instanceof ApiError) throw err;
    }
  }
  if (flowDepthExceeds(text, MAX_NESTING_DEPTH)) throw tooDeepError(what);
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    if (err instanceof RangeError || /call stack/i.test((err as Error).message)) throw tooDeepError(what);
    const message = (err as Error).message;
    throw apiErrors.badRequest(
      options.decodeError ? options.decodeError(message) : `error decoding ${what}: ${message}`,
    );
  }
  if (deeperThan(value)) throw tooDeepError(what);
  return { value, duplicates: [] };
}

/** Counts `[`/`{` nesting outside quoted scalars and comments (a conservative bound for flow YAML). */
function flowDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (quote === 0x22 && c === 0x5c) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x23 /* # */) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth = Math.max(0, depth - 1);
    }
  }
  return false;
}

function quote(text: string): string {
  const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return JSON.stringify(shown);
}
