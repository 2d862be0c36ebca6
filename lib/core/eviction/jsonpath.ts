/**
 * Kubernetes JSONPath templates with client-go's semantics (`k8s.io/client-go/util/jsonpath`), as
 * Karmada evaluates a state-preservation rule (`{ .jobStatus.jobID }`) over a workload's collected
 * status with `AllowMissingKeys(false)`:
 *
 * - a template mixes text and `{…}` actions: fields `.a.b` (`.*`), brackets `['a.b']`, indexes and
 *   slices `[0]`, `[-1]`, `[1:3]`, `[*]`, unions `[0,2]`/`['a','b']`, recursive descent `..name`,
 *   filters `[?(@.type=="Ready")]` (`==`, `!=`, `<`, `<=`, `>`, `>=`, or a bare path for "exists"),
 *   `{range …}…{end}` and string literals `{"\n"}`;
 * - a missing key or an index out of range is an error (`jobStatus is not found`);
 * - scalars print as Go's `fmt` prints them (`2`, `1.5`, `1e+06`, `true`), maps and lists as compact
 *   JSON with sorted keys (Go's `json.Marshal`, HTML characters escaped), several results of one
 *   action joined by a space.
 *
 * Pure and dependency-free: the decision core's own copy, apart from the printer-column subset the
 * API serves.
 */

export class JsonPathError extends Error {
  override readonly name = 'JsonPathError';
}

type Node =
  | { type: 'text'; text: string }
  | { type: 'list'; nodes: Node[] }
  | { type: 'field'; name: string }
  | { type: 'array'; start?: number; end?: number; step?: number; index?: number; all: boolean }
  | { type: 'union'; branches: Node[][] }
  | { type: 'recursive' }
  | { type: 'wildcard' }
  | { type: 'filter'; left: Node[]; op: string; right: Node[] | undefined }
  | { type: 'literal'; value: unknown }
  | { type: 'range'; path: Node[] }
  | { type: 'end' };

/** A parsed template: top-level items are text or an action (a list of path nodes). */
export interface JsonPathTemplate {
  source: string;
  items: Node[];
}

/** Parses a template; a syntax error throws {@link JsonPathError} with client-go's wording. */
export function parseJsonPathTemplate(source: string): JsonPathTemplate {
  const items: Node[] = [];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{', i);
    if (open < 0) {
      items.push({ type: 'text', text: source.slice(i) });
      break;
    }
    if (open > i) items.push({ type: 'text', text: source.slice(i, open) });
    const close = findClose(source, open);
    if (close < 0) throw new JsonPathError(`unclosed action`);
    items.push(parseAction(source.slice(open + 1, close).trim()));
    i = close + 1;
  }
  return { source, items };
}

/** The index of the `}` closing the action opened at `open`, skipping quoted strings. */
function findClose(source: string, open: number): number {
  let quote = '';
  for (let i = open + 1; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  return -1;
}

function parseAction(text: string): Node {
  if (text === 'end') return { type: 'end' };
  if (text.startsWith('range ') || text === 'range') {
    return { type: 'range', path: parsePath(text.slice(5).trim()) };
  }
  if (text.startsWith('"') || text.startsWith("'")) return { type: 'literal', value: parseQuoted(text, 0).value };
  return { type: 'list', nodes: parsePath(text) };
}

function parseQuoted(text: string, at: number): { value: string; next: number } {
  const quote = text[at]!;
  let out = '';
  let i = at + 1;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const n = text[++i]!;
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'r' ? '\r' : n;
    } else if (c === quote) {
      return { value: out, next: i + 1 };
    } else {
      out += c;
    }
  }
  throw new JsonPathError(`unterminated string`);
}

const FIELD_END = new Set(['.', '[', ']', ' ', '(', ')', ',', '=', '!', '<', '>']);

function parsePath(text: string): Node[] {
  const nodes: Node[] = [];
  let i = 0;
  if (text.startsWith('$')) i = 1;
  if (text.startsWith('@')) i = 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ') {
      i++;
      continue;
    }
    if (c === '.') {
      if (text[i + 1] === '.') {
        nodes.push({ type: 'recursive' });
        // `..name` is recursive descent followed by the field `name`.
        i += 1;
        if (text[i + 1] === '[' || text[i + 1] === undefined) i++;
        continue;
      }
      let j = i + 1;
      while (j < text.length && !FIELD_END.has(text[j]!)) j++;
      const name = text.slice(i + 1, j);
      if (name === '*') nodes.push({ type: 'wildcard' });
      else if (name !== '') nodes.push({ type: 'field', name });
      i = j;
      continue;
    }
    if (c === '[') {
      const close = findBracketClose(text, i);
      if (close < 0) throw new JsonPathError(`unterminated array`);
      nodes.push(parseBracket(text.slice(i + 1, close).trim()));
      i = close + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c) && nodes.length === 0) {
      // A bare field at the start (`{kind}`) reads from the current object, as client-go's parser does.
      let j = i;
      while (j < text.length && !FIELD_END.has(text[j]!)) j++;
      nodes.push({ type: 'field', name: text.slice(i, j) });
      i = j;
      continue;
    }
    throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(c)}`);
  }
  return nodes;
}

function findBracketClose(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

function parseBracket(inner: string): Node {
  if (inner === '*') return { type: 'array', all: true };
  if (inner.startsWith('?')) return parseFilter(inner.slice(1).trim());
  const parts = splitTopLevel(inner, ',');
  if (parts.length > 1) {
    return { type: 'union', branches: parts.map((p) => [parseBracket(p.trim())]) };
  }
  if (inner.startsWith("'") || inner.startsWith('"')) return { type: 'field', name: parseQuoted(inner, 0).value };
  if (inner.includes(':')) {
    const [a, b, s] = inner.split(':').map((x) => x.trim());
    const num = (x: string | undefined) => {
      if (x === undefined || x === '') return undefined;
      if (!/^-?\d+$/.test(x)) throw new JsonPathError(`invalid array index ${x}`);
      return Number(x);
    };
    return { type: 'array', start: num(a), end: num(b), step: num(s), all: false };
  }
  if (!/^-?\d+$/.test(inner)) throw new JsonPathError(`invalid array index ${inner}`);
  return { type: 'array', index: Number(inner), all: false };
}

function splitTopLevel(text: string, sep: string): string[] {
  const out: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === sep) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function parseFilter(text: string): Node {
  if (!text.startsWith('(') || !text.endsWith(')')) throw new JsonPathError(`invalid filter ${text}`);
  const body = text.slice(1, -1).trim();
  const m = /^(.*?)\s*(==|!=|<=|>=|<|>)\s*(.*)$/.exec(body);
  if (!m) return { type: 'filter', left: parsePath(body), op: 'exists', right: undefined };
  const operand = (s: string): Node[] => {
    const t = s.trim();
    if (t.startsWith('@') || t.startsWith('$')) return parsePath(t);
    if (t.startsWith('"') || t.startsWith("'")) return [{ type: 'literal', value: parseQuoted(t, 0).value }];
    if (t === 'true' || t === 'false') return [{ type: 'literal', value: t === 'true' }];
    if (t !== '' && Number.isFinite(Number(t))) return [{ type: 'literal', value: Number(t) }];
    throw new JsonPathError(`unrecognized filter operand ${t}`);
  };
  return { type: 'filter', left: operand(m[1]!), op: m[2]!, right: operand(m[3]!) };
}

// ------------------------------------------------------------------------------------- execution

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Evaluates path nodes over the input values. With `strict`, a field no input has is an error (one
 * input having it is enough, as in client-go's `evalField`); indexes out of range are always errors.
 */
function walk(nodes: readonly Node[], inputs: unknown[], strict: boolean, root: unknown): unknown[] {
  let current = inputs;
  for (const node of nodes) {
    const next: unknown[] = [];
    switch (node.type) {
      case 'field':
        for (const value of current) {
          if (isObject(value) && Object.prototype.hasOwnProperty.call(value, node.name)) next.push(value[node.name]);
        }
        if (strict && current.length > 0 && next.length === 0) throw new JsonPathError(`${node.name} is not found`);
        break;
      case 'wildcard':
        for (const value of current) {
          if (isObject(value))
            next.push(
              ...Object.keys(value)
                .sort()
                .map((k) => value[k]),
            );
          else if (Array.isArray(value)) next.push(...value);
        }
        break;
      case 'array':
        for (const value of current) next.push(...sliceOf(node, value));
        break;
      case 'union':
        for (const value of current)
          for (const branch of node.branches) next.push(...walk(branch, [value], strict, root));
        break;
      case 'recursive':
        for (const value of current) next.push(...descendants(value));
        break;
      case 'filter':
        for (const value of current) {
          const items = Array.isArray(value) ? value : [value];
          for (const item of items) if (filterMatches(node, item, root)) next.push(item);
        }
        break;
      default:
        throw new JsonPathError(`unexpected ${node.type} in a path`);
    }
    current = next;
  }
  return current;
}

/** client-go `evalArray`: an index is the slice [i:i+1]; bounds are checked, not clamped. */
function sliceOf(node: Extract<Node, { type: 'array' }>, value: unknown): unknown[] {
  if (!Array.isArray(value)) {
    throw new JsonPathError(`${value === null ? 'nil' : typeof value} is not array or slice`);
  }
  if (node.all) return value;
  const len = value.length;
  let start = node.index ?? node.start ?? 0;
  if (start < 0) start += len;
  let end = node.index !== undefined ? start + 1 : (node.end ?? len);
  if (node.index === undefined && end < 0) end += len;
  if (end === start) return [];
  if (start >= len || start < 0) throw new JsonPathError(`array index out of bounds: index ${start}, length ${len}`);
  if (end > len || end < 0) throw new JsonPathError(`array index out of bounds: index ${end - 1}, length ${len}`);
  if (start > end) throw new JsonPathError(`starting index ${start} is greater than ending index ${end}`);
  const step = node.step ?? 1;
  if (step <= 0) throw new JsonPathError(`step must be > 0`);
  const out: unknown[] = [];
  for (let i = start; i < end; i += step) out.push(value[i]);
  return out;
}

function descendants(value: unknown): unknown[] {
  const out: unknown[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.shift();
    out.push(v);
    if (isObject(v)) for (const k of Object.keys(v).sort()) stack.push(v[k]);
    else if (Array.isArray(v)) stack.push(...v);
  }
  return out;
}

function filterMatches(node: Extract<Node, { type: 'filter' }>, item: unknown, root: unknown): boolean {
  const side = (nodes: Node[]): unknown[] =>
    nodes.length === 1 && nodes[0]!.type === 'literal' ? [nodes[0]!.value] : walk(nodes, [item], false, root);
  const left = side(node.left);
  if (node.op === 'exists') return left.length > 0 && left[0] !== undefined;
  const right = side(node.right ?? []);
  if (left.length === 0 || right.length === 0) return false;
  const a = left[0];
  const b = right[0];
  switch (node.op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return typeof a === typeof b && (a as number) < (b as number);
    case '<=':
      return typeof a === typeof b && (a as number) <= (b as number);
    case '>':
      return typeof a === typeof b && (a as number) > (b as number);
    case '>=':
      return typeof a === typeof b && (a as number) >= (b as number);
    default:
      return false;
  }
}

/**
 * Evaluates a template over `data` as client-go's `JSONPath.Execute` with `AllowMissingKeys(false)`
 * writes it. Throws {@link JsonPathError} on a syntax error, a missing key or an index out of range.
 */
export function executeJsonPath(template: string | JsonPathTemplate, data: unknown): string {
  const parsed = typeof template === 'string' ? parseJsonPathTemplate(template) : template;
  return render(parsed.items, data, data);
}

function render(items: readonly Node[], current: unknown, root: unknown): string {
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.type === 'text') out += item.text;
    else if (item.type === 'literal') out += String(item.value);
    else if (item.type === 'list') out += printResults(walk(item.nodes, [current], true, root));
    else if (item.type === 'range') {
      const end = matchingEnd(items, i);
      const body = items.slice(i + 1, end);
      for (const value of walk(item.path, [current], true, root)) {
        const elements = Array.isArray(value) ? value : [value];
        for (const element of elements) out += render(body, element, root);
      }
      i = end;
    } else if (item.type === 'end') throw new JsonPathError(`not in range, nothing to end`);
  }
  return out;
}

function matchingEnd(items: readonly Node[], start: number): number {
  let depth = 0;
  for (let i = start + 1; i < items.length; i++) {
    if (items[i]!.type === 'range') depth++;
    else if (items[i]!.type === 'end' && depth-- === 0) return i;
  }
  throw new JsonPathError(`range without end`);
}

/** client-go `PrintResults`: scalars as text, maps and lists as JSON, joined by a space. */
function printResults(values: unknown[]): string {
  return values.map((v) => (v !== null && typeof v === 'object' ? goJson(v) : goText(v))).join(' ');
}

/** Go's `fmt.Fprint` of a decoded JSON scalar. */
export function goText(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return goFloat(value);
  return String(value);
}

/** Go's `%v` of a float64: shortest digits, `e` notation below 1e-4 or from 1e6 (e.g. `1e+06`). */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Go's `json.Marshal` of decoded JSON: sorted keys, `<`, `>`, `&` escaped. */
export function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = sorted(v[k]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sorted(value))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
