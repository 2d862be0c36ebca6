import { PatchError } from './patch-error.ts';
import {
  cloneJson,
  describeJson,
  getOwn,
  hasOwn,
  isJsonObject,
  jsonEqual,
  type JsonObject,
  setOwn,
} from './json-value.ts';

/** The six RFC 6902 operations. */
export type JsonPatchOp = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

const OPS: ReadonlySet<string> = new Set<JsonPatchOp>(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** One validated operation: pointers already split into unescaped reference tokens. */
interface Operation {
  index: number;
  op: JsonPatchOp;
  path: string;
  tokens: string[];
  from: string | undefined;
  fromTokens: string[];
  value: unknown;
}

/**
 * Applies an RFC 6902 JSON patch (`application/json-patch+json`) to `doc` and returns the patched
 * copy; neither argument is modified. The whole patch is validated before any operation runs, so a
 * malformed document is always a 400 no matter where the bad operation sits; an operation that cannot
 * apply to this document (missing path, failed `test`, index out of bounds) is a 422. Messages name
 * the operation by its 0-based position in the patch array, as Kubernetes field paths count:
 * `json patch operation 2 (replace /spec/replicas): the path does not exist`.
 *
 * @example applyJsonPatch({ spec: { replicas: 1 } }, [{ op: 'replace', path: '/spec/replicas', value: 3 }])
 */
export function applyJsonPatch(doc: unknown, patch: unknown, options: JsonPatchOptions = {}): unknown {
  const operations = parseJsonPatch(patch);
  let current = cloneJson(doc);
  for (const operation of operations) current = applyOperation(current, operation, options);
  return current;
}

/** How lenient `replace` is: the two JSON patch libraries Karmada's behaviour rests on differ. */
export interface JsonPatchOptions {
  /**
   * `replace` of a member an existing object lacks adds it, as kube-apiserver's `PATCH` does
   * (evanphx/json-patch v4). Off (RFC 6902, json-patch v5 as Karmada's overriders use it): a 422.
   */
  replaceAddsMissingMember?: boolean;
}

function parseJsonPatch(patch: unknown): Operation[] {
  if (!Array.isArray(patch)) {
    throw new PatchError(400, `a json patch must be a JSON array of operations, got ${describeJson(patch)}`);
  }
  return patch.map((raw: unknown, index) => parseOperation(raw, index));
}

function parseOperation(raw: unknown, index: number): Operation {
  const bad = (what: string): PatchError => new PatchError(400, `json patch operation ${index}: ${what}`);
  if (!isJsonObject(raw)) throw bad(`must be a JSON object, got ${describeJson(raw)}`);
  const op = getOwn(raw, 'op');
  if (typeof op !== 'string' || !OPS.has(op)) {
    throw bad(`"op" must be one of add, remove, replace, move, copy, test; ${got(op)}`);
  }
  const path = getOwn(raw, 'path');
  if (typeof path !== 'string') throw bad(`${op} needs a "path" string; ${got(path)}`);
  const tokens = parsePointer(path, (why) => bad(`${op}: invalid "path" ${JSON.stringify(path)}: ${why}`));

  let from: string | undefined;
  let fromTokens: string[] = [];
  if (op === 'move' || op === 'copy') {
    const rawFrom = getOwn(raw, 'from');
    if (typeof rawFrom !== 'string') throw bad(`${op} needs a "from" string; ${got(rawFrom)}`);
    from = rawFrom;
    fromTokens = parsePointer(rawFrom, (why) => bad(`${op}: invalid "from" ${JSON.stringify(rawFrom)}: ${why}`));
  }
  // RFC 6902 makes "value" mandatory for these three; a missing value is not the same as null.
  if ((op === 'add' || op === 'replace' || op === 'test') && getOwn(raw, 'value') === undefined) {
    throw bad(`${op} ${path} needs a "value"`);
  }
  return { index, op: op as JsonPatchOp, path, tokens, from, fromTokens, value: getOwn(raw, 'value') };
}

function got(value: unknown): string {
  return value === undefined ? 'it is missing' : `got ${describeJson(value)}`;
}

/** Splits an RFC 6901 JSON pointer into unescaped reference tokens. */
function parsePointer(pointer: string, invalid: (why: string) => PatchError): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw invalid('a JSON pointer must be empty or start with "/"');
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token)) throw invalid('"~" must be followed by 0 or 1');
      // ~1 first: "~01" is the literal "~1", not "/".
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function describeOperation(operation: Operation): string {
  if (operation.from === undefined) return `${operation.op} ${operation.path}`;
  return `${operation.op} from ${operation.from} to ${operation.path}`;
}

type Container = JsonObject | unknown[];

/** Where a pointer lands: the container holding the target and the target's key or index. */
type Location =
  { found: true; container: Container; key: string; index: number } | { found: false; why: string; atTarget: boolean };

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

function applyOperation(doc: unknown, operation: Operation, options: JsonPatchOptions): unknown {
  const fail = (why: string): PatchError =>
    new PatchError(422, `json patch operation ${operation.index} (${describeOperation(operation)}): ${why}`);
  const { op, tokens } = operation;
  switch (op) {
    case 'add':
      return add(doc, tokens, cloneJson(operation.value), fail);
    case 'remove':
      if (tokens.length === 0) throw fail('cannot remove the whole document');
      remove(doc, tokens, fail);
      return doc;
    case 'replace': {
      if (tokens.length === 0) return cloneJson(operation.value);
      // kube-apiserver's JSON patch (evanphx/json-patch v4) replaces a missing member of an existing
      // object as if it were there (an add); array elements and every parent must exist.
      let at: Extract<Location, { found: true }>;
      if (options.replaceAddsMissingMember) {
        const located = locate(doc, tokens, false);
        if (!located.found) throw fail(`the path does not exist (${located.why})`);
        at = located;
      } else {
        at = existing(doc, tokens, fail);
      }
      setAt(at, cloneJson(operation.value));
      return doc;
    }
    case 'move': {
      if (isProperPrefix(operation.fromTokens, tokens)) throw fail('cannot move a value into one of its own children');
      // Moving a value onto itself is a no-op, but RFC 6902 still requires "from" to exist.
      const value = valueAt(doc, operation.fromTokens, fail, '"from" ');
      if (operation.from === operation.path) return doc;
      remove(doc, operation.fromTokens, fail);
      return add(doc, tokens, value, fail);
    }
    case 'copy':
      return add(doc, tokens, cloneJson(valueAt(doc, operation.fromTokens, fail, '"from" ')), fail);
    case 'test': {
      const actual = valueAt(doc, tokens, fail);
      if (!jsonEqual(actual, operation.value)) {
        throw fail(`test failed: the value is ${describeJson(actual)}, expected ${describeJson(operation.value)}`);
      }
      return doc;
    }
  }
}

function isProperPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  return prefix.length < tokens.length && prefix.every((t, i) => t === tokens[i]);
}

/**
 * Resolves all but the last token and locates the last one in that container. `forAdd` accepts `-`
 * and the index one past the end, which only `add` may address.
 */
function locate(doc: unknown, tokens: readonly string[], forAdd: boolean): Location {
  let node = doc;
  for (const [depth, token] of tokens.entries()) {
    const here = formatPointer(tokens.slice(0, depth));
    const last = depth === tokens.length - 1;
    if (Array.isArray(node)) {
      const atEnd = token === '-';
      if (!atEnd && !ARRAY_INDEX.test(token)) {
        return {
          found: false,
          why: `${JSON.stringify(token)} is not an array index of ${here || 'the document'}`,
          atTarget: last,
        };
      }
      const index = atEnd ? node.length : Number(token);
      const limit = last && forAdd ? node.length : node.length - 1;
      if (index > limit) {
        return {
          found: false,
          why: `array index ${token} is out of bounds at ${here || 'the document'} (length ${node.length})`,
          atTarget: last,
        };
      }
      if (last) return { found: true, container: node, key: token, index };
      node = node[index];
    } else if (isJsonObject(node)) {
      if (last) return { found: true, container: node, key: token, index: -1 };
      if (!hasOwn(node, token)) {
        return { found: false, why: `${formatPointer(tokens.slice(0, depth + 1))} is missing`, atTarget: false };
      }
      node = node[token];
    } else {
      return {
        found: false,
        why: `${here || 'the document'} is ${describeJson(node, 40)}, not an object or array`,
        atTarget: false,
      };
    }
  }
  // Only reached for the empty pointer, which callers handle before locating.
  return { found: false, why: 'the empty pointer addresses the whole document', atTarget: true };
}

function existing(
  doc: unknown,
  tokens: readonly string[],
  fail: (why: string) => PatchError,
  which = '',
): Extract<Location, { found: true }> {
  const at = locate(doc, tokens, false);
  if (!at.found) throw fail(`the ${which}path does not exist (${at.why})`);
  if (!Array.isArray(at.container) && !hasOwn(at.container, at.key)) throw fail(`the ${which}path does not exist`);
  return at;
}

function valueAt(doc: unknown, tokens: readonly string[], fail: (why: string) => PatchError, which = ''): unknown {
  if (tokens.length === 0) return cloneJson(doc);
  const at = existing(doc, tokens, fail, which);
  return Array.isArray(at.container) ? at.container[at.index] : at.container[at.key];
}

function setAt(at: Extract<Location, { found: true }>, value: unknown): void {
  if (Array.isArray(at.container)) at.container[at.index] = value;
  else setOwn(at.container, at.key, value);
}

function add(doc: unknown, tokens: readonly string[], value: unknown, fail: (why: string) => PatchError): unknown {
  if (tokens.length === 0) return value;
  const at = locate(doc, tokens, true);
  if (!at.found) throw fail(at.atTarget ? at.why : `the parent of the path does not exist (${at.why})`);
  if (Array.isArray(at.container)) at.container.splice(at.index, 0, value);
  else setOwn(at.container, at.key, value);
  return doc;
}

function remove(doc: unknown, tokens: readonly string[], fail: (why: string) => PatchError): void {
  const at = existing(doc, tokens, fail);
  if (Array.isArray(at.container)) at.container.splice(at.index, 1);
  else delete at.container[at.key];
}
