/**
 * RFC 6901 JSON pointers over plain JSON, as go-openapi/jsonpointer resolves them for Karmada's
 * fieldOverrider `fieldPath` (get a value, then set it back).
 */
import { getOwn, hasOwn, isJsonObject, setOwn } from '../../util/json-value.ts';

/** Splits a pointer into unescaped tokens; a message when it is not a valid JSON pointer. */
export function parsePointer(pointer: string): { ok: true; tokens: string[] } | { ok: false; error: string } {
  if (pointer === '') return { ok: true, tokens: [] };
  if (!pointer.startsWith('/')) return { ok: false, error: `JSON pointer must be empty or start with a "/"` };
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return { ok: false, error: `"~" must be followed by 0 or 1 in ${JSON.stringify(raw)}` };
    tokens.push(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return { ok: true, tokens };
}

const INDEX = /^(0|[1-9][0-9]*)$/;

/** The value `tokens` address in `doc`, or why there is none. */
export function getAt(
  doc: unknown,
  tokens: readonly string[],
): { ok: true; value: unknown } | { ok: false; error: string } {
  let node = doc;
  for (const [depth, token] of tokens.entries()) {
    const here = depth === 0 ? 'the object' : `/${tokens.slice(0, depth).join('/')}`;
    if (Array.isArray(node)) {
      if (!INDEX.test(token) || Number(token) >= node.length) {
        return { ok: false, error: `${here} has no array index ${JSON.stringify(token)} (length ${node.length})` };
      }
      node = node[Number(token)];
    } else if (isJsonObject(node)) {
      if (!hasOwn(node, token)) return { ok: false, error: `${here} has no key ${JSON.stringify(token)}` };
      node = getOwn(node, token);
    } else {
      return { ok: false, error: `${here} is not an object or array` };
    }
  }
  return { ok: true, value: node };
}

/** Replaces the existing value at `tokens` (which {@link getAt} resolved) in place. */
export function setAt(doc: unknown, tokens: readonly string[], value: unknown): void {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(token)] : getOwn(node as Record<string, unknown>, token);
  }
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(node)) node[Number(last)] = value;
  else setOwn(node as Record<string, unknown>, last, value);
}
