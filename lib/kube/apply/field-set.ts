/**
 * Sets of field paths, as `sigs.k8s.io/structured-merge-diff/fieldpath` models them, and their wire
 * form `fieldsV1` (what `metadata.managedFields[].fieldsV1` holds).
 *
 * A path is a list of serialized path elements:
 * - `f:<name>`: a field of an object (`f:spec`, `f:app.kubernetes.io/name`);
 * - `k:<json>`: the item of a `map` list whose key fields have these values, keys sorted by name
 *   (`k:{"containerPort":80,"protocol":"TCP"}`);
 * - `v:<json>`: the item of a `set` list with this value (`v:"example.com/finalizer"`);
 * - `i:<n>`: a list index (never produced here, accepted when read).
 *
 * The set is a trie keyed by those strings. A node is a *member* when the path to it is in the set;
 * a node may also have children (a list item owned as a whole and field by field). `fieldsV1` writes
 * a member without children as `{}` and a member with children with an extra `".": {}` entry.
 */
import { compareGoStrings } from '../../util/strings.ts';
import { InvalidFieldsV1Error } from './errors.ts';

/** One node of a {@link FieldSet}: whether its own path is in the set, and the set below it. */
export interface FieldSetNode {
  readonly member: boolean;
  readonly children: FieldSet;
}

/**
 * A set of field paths, keyed by serialized path element. Never holds a node that is neither a
 * member nor has members below it, so `size === 0` means empty.
 */
export type FieldSet = ReadonlyMap<string, FieldSetNode>;

/** A field path as serialized path elements, e.g. `['f:spec', 'f:replicas']`. */
export type FieldPath = readonly string[];

/** The `fieldsV1` JSON tree: path element → subtree (`{}` for a leaf, `"."` marks a member with children). */
export interface FieldsV1 {
  readonly [element: string]: FieldsV1;
}

interface MutableNode {
  member: boolean;
  children: Map<string, MutableNode>;
}

type MutableSet = Map<string, MutableNode>;

/** The empty set. */
export const EMPTY_FIELD_SET: FieldSet = new Map();

// ---------------------------------------------------------------------------------------------
// Path elements

/**
 * JSON as Go's `encoding/json` writes it (and so as Kubernetes writes `k:`/`v:` elements): object
 * keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareGoStrings)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

/** `f:<name>`: the element selecting field `name` of an object. */
export function fieldElement(name: string): string {
  return `f:${name}`;
}

/** `k:<json>`: the element selecting the item of a `map` list with these key field values. */
export function keyElement(keys: Readonly<Record<string, unknown>>): string {
  return `k:${goJson(keys)}`;
}

/** `v:<json>`: the element selecting the item of a `set` list equal to `value`. */
export function valueElement(value: unknown): string {
  return `v:${goJson(value)}`;
}

type ParsedElement =
  | { type: 'field'; name: string }
  | { type: 'key'; fields: [string, unknown][] }
  | { type: 'value'; value: unknown }
  | { type: 'index'; index: number };

const TYPE_RANK: Record<ParsedElement['type'], number> = { field: 0, key: 1, value: 2, index: 3 };

/** Parses a serialized element; `undefined` for an unknown element type (which readers skip). */
function parseElement(element: string): ParsedElement | undefined {
  if (element.length < 2 || element[1] !== ':') {
    throw new InvalidFieldsV1Error(`invalid path element ${JSON.stringify(element)}: missing colon`, element);
  }
  const body = element.slice(2);
  switch (element[0]) {
    case 'f':
      return { type: 'field', name: body };
    case 'k': {
      const parsed = parseJson(body, element);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new InvalidFieldsV1Error(`invalid key element ${JSON.stringify(element)}: not a JSON object`, element);
      }
      const fields = Object.entries(parsed as Record<string, unknown>);
      fields.sort((a, b) => compareGoStrings(a[0], b[0]));
      return { type: 'key', fields };
    }
    case 'v':
      return { type: 'value', value: parseJson(body, element) };
    case 'i': {
      if (!/^-?\d+$/.test(body)) {
        throw new InvalidFieldsV1Error(`invalid index element ${JSON.stringify(element)}`, element);
      }
      return { type: 'index', index: Number(body) };
    }
    default:
      return undefined;
  }
}

function parseJson(text: string, element: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new InvalidFieldsV1Error(`invalid path element ${JSON.stringify(element)}: ${String(cause)}`, element, {
      cause,
    });
  }
}

/** The canonical spelling of an element (keys sorted, JSON re-encoded), or undefined for unknown types. */
function canonicalElement(element: string): string | undefined {
  const parsed = parseElement(element);
  if (!parsed) return undefined;
  switch (parsed.type) {
    case 'field':
      return element;
    case 'key':
      return keyElement(Object.fromEntries(parsed.fields));
    case 'value':
      return valueElement(parsed.value);
    case 'index':
      return `i:${parsed.index}`;
  }
}

function valueRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5;
}

/** structured-merge-diff's total order of values: numbers < strings < booleans < lists < maps < null. */
function compareValues(a: unknown, b: unknown): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareGoStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return Math.sign(a.length - b.length);
  }
  if (ra === 4) {
    const ea = Object.entries(a as object).sort((x, y) => compareGoStrings(x[0], y[0]));
    const eb = Object.entries(b as object).sort((x, y) => compareGoStrings(x[0], y[0]));
    return compareFieldLists(ea, eb);
  }
  return 0;
}

function compareFieldLists(a: [string, unknown][], b: [string, unknown][]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareGoStrings(a[i]![0], b[i]![0]) || compareValues(a[i]![1], b[i]![1]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/**
 * The order structured-merge-diff keeps path elements in (and so the order of keys in `fieldsV1`):
 * fields before keys before values before indexes; fields by name, keys field by field, values by
 * type then value.
 */
export function compareElements(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseElement(a);
  const pb = parseElement(b);
  if (!pa || !pb) return compareGoStrings(a, b);
  if (pa.type !== pb.type) return TYPE_RANK[pa.type] < TYPE_RANK[pb.type] ? -1 : 1;
  if (pa.type === 'field' && pb.type === 'field') return compareGoStrings(pa.name, pb.name);
  if (pa.type === 'key' && pb.type === 'key') return compareFieldLists(pa.fields, pb.fields);
  if (pa.type === 'value' && pb.type === 'value') return compareValues(pa.value, pb.value);
  if (pa.type === 'index' && pb.type === 'index') return Math.sign(pa.index - pb.index);
  return 0;
}

/** Go's `value.ToString`, used when paths are printed: strings quoted, lists and maps spelled out. */
function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v).sort((x, y) => compareGoStrings(x[0], y[0]));
    return `{${entries.map(([k, x]) => `${k}=${valueToString(x)}`).join(',')}}`;
  }
  return String(v);
}

/**
 * A path as Kubernetes prints it in conflict messages and `StatusCause.field`:
 * `.spec.template.spec.containers[name="nginx"].image`, `.metadata.finalizers[="a"]`.
 */
export function formatFieldPath(path: FieldPath): string {
  return path
    .map((element) => {
      const parsed = parseElement(element);
      if (!parsed) return '{{invalid path element}}';
      switch (parsed.type) {
        case 'field':
          return `.${parsed.name}`;
        case 'key':
          return `[${parsed.fields.map(([k, v]) => `${k}=${valueToString(v)}`).join(',')}]`;
        case 'value':
          return `[=${valueToString(parsed.value)}]`;
        case 'index':
          return `[${parsed.index}]`;
      }
    })
    .join('');
}

// ---------------------------------------------------------------------------------------------
// Set algebra (structured-merge-diff's Set: members and children per level)

function sortedKeys(set: FieldSet): string[] {
  return [...set.keys()].sort(compareElements);
}

/** Adds `path` to a set under construction (parents are not added: they are not members). */
function insertInto(set: MutableSet, path: FieldPath): void {
  if (path.length === 0) return; // nobody owns the whole object
  let level = set;
  for (let i = 0; i < path.length; i++) {
    const element = path[i]!;
    let node = level.get(element);
    if (!node) {
      node = { member: false, children: new Map() };
      level.set(element, node);
    }
    if (i === path.length - 1) node.member = true;
    level = node.children;
  }
}

/** A builder for sets: the walkers insert paths one by one. */
export interface FieldSetBuilder {
  insert(path: FieldPath): void;
  build(): FieldSet;
}

/** Starts an empty set to insert paths into. */
export function fieldSetBuilder(): FieldSetBuilder {
  const set: MutableSet = new Map();
  return {
    insert: (path) => insertInto(set, path),
    build: () => set,
  };
}

/** The set holding exactly `paths`. */
export function fieldSetOfPaths(paths: Iterable<FieldPath>): FieldSet {
  const builder = fieldSetBuilder();
  for (const path of paths) builder.insert(path);
  return builder.build();
}

function node(member: boolean, children: FieldSet): FieldSetNode | undefined {
  return member || children.size > 0 ? { member, children } : undefined;
}

/** True when `path` itself is in the set. */
export function hasFieldPath(set: FieldSet, path: FieldPath): boolean {
  if (path.length === 0) return false;
  let level = set;
  for (let i = 0; i < path.length - 1; i++) {
    const n = level.get(path[i]!);
    if (!n) return false;
    level = n.children;
  }
  return level.get(path[path.length - 1]!)?.member ?? false;
}

/** The paths in either set. */
export function unionFieldSets(a: FieldSet, b: FieldSet): FieldSet {
  if (a.size === 0) return b;
  if (b.size === 0) return a;
  const out = new Map<string, FieldSetNode>(a);
  for (const [element, nb] of b) {
    const na = a.get(element);
    out.set(element, na ? { member: na.member || nb.member, children: unionFieldSets(na.children, nb.children) } : nb);
  }
  return out;
}

/** The paths in both sets. */
export function intersectFieldSets(a: FieldSet, b: FieldSet): FieldSet {
  const out = new Map<string, FieldSetNode>();
  for (const [element, na] of a) {
    const nb = b.get(element);
    if (!nb) continue;
    const n = node(na.member && nb.member, intersectFieldSets(na.children, nb.children));
    if (n) out.set(element, n);
  }
  return out;
}

/** The paths of `a` not in `b` (a parent in `b` does not remove children of it from `a`). */
export function subtractFieldSets(a: FieldSet, b: FieldSet): FieldSet {
  if (a.size === 0 || b.size === 0) return a;
  const out = new Map<string, FieldSetNode>();
  for (const [element, na] of a) {
    const nb = b.get(element);
    const n = nb ? node(na.member && !nb.member, subtractFieldSets(na.children, nb.children)) : na;
    if (n) out.set(element, n);
  }
  return out;
}

/** The paths of `a` that are neither in `b` nor below a path of `b` (a whole subtree goes). */
export function subtractFieldSetsRecursively(a: FieldSet, b: FieldSet): FieldSet {
  if (a.size === 0 || b.size === 0) return a;
  const out = new Map<string, FieldSetNode>();
  for (const [element, na] of a) {
    const nb = b.get(element);
    if (nb?.member) continue;
    const n = nb ? node(na.member, subtractFieldSetsRecursively(na.children, nb.children)) : na;
    if (n) out.set(element, n);
  }
  return out;
}

/**
 * Every path of the set, in structured-merge-diff's iteration order: at each level the members
 * first, then the children's paths, each group sorted. This is the order conflicts are listed in.
 */
export function fieldSetPaths(set: FieldSet): FieldPath[] {
  const out: FieldPath[] = [];
  const walk = (level: FieldSet, prefix: string[]): void => {
    const keys = sortedKeys(level);
    for (const k of keys) if (level.get(k)!.member) out.push([...prefix, k]);
    for (const k of keys) {
      const n = level.get(k)!;
      if (n.children.size > 0) walk(n.children, [...prefix, k]);
    }
  };
  walk(set, []);
  return out;
}

/** True when both sets hold the same paths. */
export function equalFieldSets(a: FieldSet, b: FieldSet): boolean {
  if (a.size !== b.size) return false;
  for (const [element, na] of a) {
    const nb = b.get(element);
    if (!nb || na.member !== nb.member || !equalFieldSets(na.children, nb.children)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// fieldsV1

/**
 * The `fieldsV1` document of a set, exactly as Kubernetes writes it: keys in path-element order,
 * `{}` for a member without children, and `".": {}` first when a member also has children, e.g.
 * `{"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}}}}}`.
 */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  const emit = (level: FieldSet, includeSelf: boolean): Record<string, FieldsV1> => {
    const out: Record<string, FieldsV1> = {};
    if (includeSelf && level.size > 0) out['.'] = {};
    for (const k of sortedKeys(level)) {
      const n = level.get(k)!;
      out[k] = n.children.size === 0 ? {} : emit(n.children, n.member);
    }
    return out;
  };
  return emit(set, false);
}

/**
 * Reads a `fieldsV1` document. Element spellings are normalised (key fields sorted); element types
 * this version does not know are skipped, as Kubernetes does. Throws {@link InvalidFieldsV1Error}
 * on anything that is not a tree of objects or holds a malformed element.
 */
export function fromFieldsV1(json: unknown): FieldSet {
  const read = (value: unknown, at: string): { children: MutableSet; member: boolean } => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidFieldsV1Error(`fieldsV1${at}: expected an object, got ${JSON.stringify(value)}`);
    }
    const children: MutableSet = new Map();
    let member = false;
    for (const [key, sub] of Object.entries(value as Record<string, unknown>)) {
      if (key === '.') {
        member = true;
        continue;
      }
      const element = canonicalElement(key);
      if (element === undefined) continue;
      const child = read(sub, `${at}[${JSON.stringify(key)}]`);
      const existing = children.get(element);
      if (existing) {
        existing.member ||= child.member;
        for (const [k, v] of child.children) existing.children.set(k, v);
      } else if (child.member || child.children.size > 0) {
        children.set(element, { member: child.member, children: child.children });
      }
    }
    // A subtree without known children is a leaf: the path itself is the member.
    return { children, member: member || children.size === 0 };
  };
  return read(json, '').children;
}
