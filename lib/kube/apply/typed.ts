/**
 * The walks structured-merge-diff does over a value and its schema (`typed/tofieldset.go`,
 * `compare.go`, `merge.go`, `remove.go`), re-derived for plain JSON. Every function takes the
 * object's {@link rootSchema} and treats `undefined` members as absent.
 */
import {
  fieldElement,
  fieldSetBuilder,
  type FieldPath,
  type FieldSet,
  type FieldSetBuilder,
  type FieldSetNode,
} from './field-set.ts';
import {
  elementSchema,
  fieldSchema,
  isLeafShape,
  isNamedField,
  isObject,
  listElements,
  shapeOf,
  type ItemMode,
  type Shape,
} from './shapes.ts';
import type { Schema } from '../base/schema.ts';
import { deepEqual } from '../../util/json.ts';

function definedEntries(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

/** Absent, null, `[]` or `{}`: structured-merge-diff compares two of these as leaves. */
function isEmptyContainer(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && definedEntries(value).length === 0;
}

function isAssociative(shape: Shape): shape is Extract<Shape, { kind: 'set-list' | 'map-list' }> {
  return shape.kind === 'set-list' || shape.kind === 'map-list';
}

// ---------------------------------------------------------------------------------------------
// ToFieldSet

/**
 * The fields `value` sets (`TypedValue.ToFieldSet`): scalars and atomic values, list items (and
 * their fields), map entries that are not declared fields, and fields set to `null` or `{}`.
 * Declared fields holding something are implied by their children, not members themselves.
 */
export function toFieldSet(value: unknown, schema: Schema, mode: ItemMode): FieldSet {
  const builder = fieldSetBuilder();
  collect(value, schema, [], builder, mode);
  return builder.build();
}

function collect(value: unknown, schema: Schema | undefined, path: FieldPath, out: FieldSetBuilder, mode: ItemMode) {
  const shape = shapeOf(schema, value);
  if (isLeafShape(shape)) {
    out.insert(path);
    return;
  }
  if (isAssociative(shape)) {
    if (!Array.isArray(value)) return;
    const elements = listElements(value, shape, schema?.items, path, mode);
    if (!elements) {
      out.insert(path);
      return;
    }
    const counts = new Map<string, number>();
    for (const e of elements) counts.set(e, (counts.get(e) ?? 0) + 1);
    const markedDuplicates = new Set<string>();
    elements.forEach((element, i) => {
      const itemPath = [...path, element];
      if (counts.get(element)! > 1) {
        // Repeated keys (possible in live objects): the item is owned as a whole, not walked.
        if (!markedDuplicates.has(element)) out.insert(itemPath);
        markedDuplicates.add(element);
        return;
      }
      collect(value[i], schema?.items, itemPath, out, mode);
      out.insert(itemPath);
    });
    return;
  }
  if (!isObject(value)) return;
  for (const [key, child] of definedEntries(value)) {
    const childPath = [...path, fieldElement(key)];
    collect(child, fieldSchema(schema, key), childPath, out, mode);
    if (child === null || (isObject(child) && definedEntries(child).length === 0) || !isNamedField(schema, key)) {
      out.insert(childPath);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Compare

/** What changed from one object to another (`typed.Comparison`). No path is in two sets. */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface ComparisonBuilder {
  added: FieldSetBuilder;
  modified: FieldSetBuilder;
  removed: FieldSetBuilder;
}

/**
 * Compares two objects (`TypedValue.Compare`): leaves that appear, change or disappear, and every
 * map field or list item that appears or disappears as a whole (which is how a new map or list item
 * ends up owned with `.` by an update).
 */
export function compareObjects(lhs: unknown, rhs: unknown, schema: Schema): Comparison {
  const acc: ComparisonBuilder = { added: fieldSetBuilder(), modified: fieldSetBuilder(), removed: fieldSetBuilder() };
  compareInto(lhs, rhs, schema, [], acc);
  return { added: acc.added.build(), modified: acc.modified.build(), removed: acc.removed.build() };
}

function compareLeaf(lhs: unknown, rhs: unknown, path: FieldPath, acc: ComparisonBuilder): void {
  if (lhs === undefined) acc.added.insert(path);
  else if (rhs === undefined) acc.removed.insert(path);
  else if (!deepEqual(lhs, rhs)) acc.modified.insert(path);
}

function compareInto(lhs: unknown, rhs: unknown, schema: Schema | undefined, path: FieldPath, acc: ComparisonBuilder) {
  const shape = shapeOf(schema, rhs !== undefined ? rhs : lhs);
  const mixed = lhs !== undefined && rhs !== undefined && shapeOf(schema, lhs).kind !== shape.kind;
  if (mixed || isLeafShape(shape) || (isEmptyContainer(lhs) && isEmptyContainer(rhs))) {
    compareLeaf(lhs, rhs, path, acc);
    return;
  }
  if (isAssociative(shape)) {
    const left = Array.isArray(lhs) ? lhs : [];
    const right = Array.isArray(rhs) ? rhs : [];
    const leftElements = listElements(left, shape, schema?.items, path, 'lenient');
    const rightElements = listElements(right, shape, schema?.items, path, 'lenient');
    if (!leftElements || !rightElements) {
      compareLeaf(lhs, rhs, path, acc);
      return;
    }
    compareItems(left, leftElements, right, rightElements, schema?.items, path, acc);
  } else {
    const left = isObject(lhs) ? lhs : {};
    const right = isObject(rhs) ? rhs : {};
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of keys) {
      if (left[key] === undefined && right[key] === undefined) continue;
      compareInto(left[key], right[key], fieldSchema(schema, key), [...path, fieldElement(key)], acc);
    }
  }
  if (lhs === undefined) acc.added.insert(path);
  else if (rhs === undefined) acc.removed.insert(path);
}

function groupItems(items: readonly unknown[], elements: readonly string[]): Map<string, unknown[]> {
  const groups = new Map<string, unknown[]>();
  elements.forEach((element, i) => {
    const group = groups.get(element);
    if (group) group.push(items[i]);
    else groups.set(element, [items[i]]);
  });
  return groups;
}

function compareItems(
  left: readonly unknown[],
  leftElements: readonly string[],
  right: readonly unknown[],
  rightElements: readonly string[],
  itemSchema: Schema | undefined,
  path: FieldPath,
  acc: ComparisonBuilder,
): void {
  const l = groupItems(left, leftElements);
  const r = groupItems(right, rightElements);
  for (const element of new Set([...l.keys(), ...r.keys()])) {
    const ls = l.get(element) ?? [];
    const rs = r.get(element) ?? [];
    const itemPath = [...path, element];
    if (ls.length <= 1 && rs.length <= 1) {
      compareInto(ls[0], rs[0], itemSchema, itemPath, acc);
    } else if (ls.length >= 2 && rs.length >= 2) {
      // Repeated keys on both sides: the group is compared as one atomic value.
      if (!deepEqual(ls, rs)) acc.modified.insert(itemPath);
    } else if (ls.length >= 2) {
      if (rs.length === 1) compareInto(undefined, rs[0], itemSchema, itemPath, acc);
      acc.removed.insert(itemPath);
    } else {
      if (ls.length === 1) compareInto(ls[0], undefined, itemSchema, itemPath, acc);
      acc.added.insert(itemPath);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Merge

/**
 * Merges an apply configuration into a live object (`TypedValue.Merge` with "keep the right-hand
 * side"): leaves and atomic values from the configuration win, maps merge key by key, map lists
 * item by item (by key) and sets by value. The configuration's order wins for items both sides
 * hold; items only the live object holds keep their place before the next shared item.
 */
export function mergeObjects(lhs: unknown, rhs: unknown, schema: Schema): unknown {
  return mergeValues(lhs, rhs, schema);
}

function mergeValues(lhs: unknown, rhs: unknown, schema: Schema | undefined): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const shape = shapeOf(schema, rhs);
  if (shapeOf(schema, lhs).kind !== shape.kind || isLeafShape(shape)) return rhs;
  if (isEmptyContainer(lhs) && isEmptyContainer(rhs)) return rhs;
  if (isAssociative(shape)) {
    const left = Array.isArray(lhs) ? lhs : [];
    const right = Array.isArray(rhs) ? rhs : [];
    const leftElements = listElements(left, shape, schema?.items, [], 'lenient');
    const rightElements = listElements(right, shape, schema?.items, [], 'lenient');
    if (!leftElements || !rightElements) return rhs;
    return mergeItems(left, leftElements, right, rightElements, schema?.items);
  }
  const left = isObject(lhs) ? lhs : {};
  const right = isObject(rhs) ? rhs : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of definedEntries(left)) out[key] = mergeValues(value, right[key], fieldSchema(schema, key));
  for (const [key, value] of definedEntries(right)) if (!(key in out)) out[key] = value;
  return out;
}

function mergeItems(
  left: readonly unknown[],
  leftElements: readonly string[],
  right: readonly unknown[],
  rightElements: readonly string[],
  itemSchema: Schema | undefined,
): unknown[] {
  // Live items by element; a repeated live key has no single item to merge with.
  const observedLeft = new Map<string, unknown>();
  leftElements.forEach((element, i) => observedLeft.set(element, observedLeft.has(element) ? null : left[i]));
  const observedRight = new Map<string, unknown>();
  rightElements.forEach((element, i) => observedRight.set(element, right[i]));

  const shared = rightElements.filter((element) => observedLeft.has(element));
  let sharedIndex = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  const take = (element: string) => {
    merged.add(element);
    out.push(mergeValues(observedLeft.get(element), observedRight.get(element), itemSchema));
  };

  let li = 0;
  let ri = 0;
  while (li < leftElements.length || ri < rightElements.length) {
    if (li < leftElements.length && ri < rightElements.length) {
      const element = leftElements[li]!;
      if (element === rightElements[ri]) {
        take(element);
        li++;
        ri++;
        sharedIndex++;
        continue;
      }
      const nextShared = shared[sharedIndex];
      if (observedRight.has(element) && nextShared !== undefined && nextShared !== element) {
        // A shared item the configuration places later: it is emitted when the right side gets there.
        li++;
        continue;
      }
    }
    if (li < leftElements.length) {
      const element = leftElements[li]!;
      if (!observedRight.has(element)) {
        out.push(left[li]);
        li++;
        continue;
      }
      if (merged.has(element)) li++;
    }
    if (ri < rightElements.length) {
      const element = rightElements[ri]!;
      take(element);
      ri++;
      if (shared[sharedIndex] === element) sharedIndex++;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// RemoveItems and named fields

/**
 * `value` without the fields of `toRemove` (`TypedValue.RemoveItems`): a member path goes with its
 * whole subtree. A map or list emptied this way disappears (Kubernetes leaves `null`).
 */
export function removeItems(value: unknown, toRemove: FieldSet, schema: Schema | undefined): unknown {
  if (toRemove.size === 0) return value;
  const shape = shapeOf(schema, value);
  if (isAssociative(shape)) {
    if (!Array.isArray(value) || value.length === 0) return value;
    const elements = listElements(value, shape, schema?.items, [], 'lenient');
    if (!elements) return value;
    const out: unknown[] = [];
    elements.forEach((element, i) => {
      const kept = keep(value[i], toRemove.get(element), schema?.items);
      if (kept !== undefined) out.push(kept);
    });
    return out.length > 0 ? out : undefined;
  }
  if (shape.kind !== 'map' || !isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of definedEntries(value)) {
    const kept = keep(child, toRemove.get(fieldElement(key)), fieldSchema(schema, key));
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function keep(value: unknown, node: FieldSetNode | undefined, schema: Schema | undefined): unknown {
  if (!node) return value;
  if (node.member) return undefined;
  return removeItems(value, node.children, schema);
}

/**
 * `set` plus every declared field on the way to its paths (`EnsureNamedFieldsAreMembers`): owning
 * `spec.replicas` then also counts as owning `spec`, but owning `metadata.labels.app` does not count
 * as owning label map entries other than `app`.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  const out = new Map<string, FieldSetNode>();
  for (const [element, node] of set) {
    const named = element.startsWith('f:') && isNamedField(schema, element.slice(2));
    const children =
      node.children.size > 0
        ? ensureNamedFieldsAreMembers(
            node.children,
            element.startsWith('v:') ? undefined : elementSchema(schema, element),
          )
        : node.children;
    out.set(element, { member: node.member || named, children });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Zero values

function isEmptyObjectDefault(schema: Schema): boolean {
  return isObject(schema.default) && Object.keys(schema.default).length === 0;
}

function isContainerSchema(schema: Schema): boolean {
  return (
    schema.type === 'array' ||
    schema.type === 'object' ||
    schema.items !== undefined ||
    schema.properties !== undefined ||
    schema.additionalProperties !== undefined
  );
}

/**
 * The JSON a built-in kind's Go zero value serializes to, as far as field ownership can tell:
 * non-pointer struct fields (published with `default: {}`) are present as `{}`, required lists and
 * maps (no `omitempty`) as `null`. Kubernetes compares a create against this, so fields already
 * present in it are not owned with `.` — e.g. `f:spec` has no `.` on a Deployment created by
 * `kubectl create`, while `f:strategy.f:rollingUpdate` (a pointer) does.
 */
export function zeroObject(schema: Schema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    if (isEmptyObjectDefault(property)) out[key] = zeroObject(property);
    else if (schema?.required?.includes(key) && isContainerSchema(property)) out[key] = null;
  }
  return out;
}
