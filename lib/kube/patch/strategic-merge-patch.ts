/**
 * Kubernetes strategic merge patch (`application/strategic-merge-patch+json`), with the semantics of
 * `k8s.io/apimachinery/pkg/util/strategicpatch` as the API server applies it (`StrategicMergeMapPatch`:
 * parallel lists merged, unmatched nulls ignored). Merge behaviour comes from the schema's
 * `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key`, the same metadata the Go struct tags
 * publish for built-in kinds.
 *
 * The algorithm works on a private deep copy of the current object and updates it in place; values
 * taken from the patch are rebuilt ("materialized") before they land, so the result shares nothing
 * with either input and carries no directive keys.
 */
import { childPath } from '../base/field-errors.ts';
import { propertySchema, type Schema } from '../base/schema.ts';
import { PatchError } from '../../util/patch-error.ts';
import {
  cloneJson,
  describeJson,
  getOwn,
  hasOwn,
  isJsonObject,
  jsonEqual,
  type JsonKind,
  type JsonObject,
  kindOf,
  setOwn,
} from '../../util/json-value.ts';

const PATCH_DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/** What a key of a patch map means; list directives carry their (validated) list. */
type PatchKey =
  | { kind: 'field'; field: string }
  | { kind: 'patch' }
  | { kind: 'retainKeys'; values: unknown[] }
  | { kind: 'setElementOrder'; field: string; values: unknown[] }
  | { kind: 'deleteFromPrimitiveList'; field: string; values: unknown[] };

/** Patch metadata of one field, read from its schema. */
interface FieldMeta {
  merge: boolean;
  replace: boolean;
  mergeKey: string | undefined;
}

/** The element type of a merging list; undefined while the list and its patch are both empty. */
type ElementKind = 'object' | 'scalar' | undefined;

/**
 * Applies a strategic merge patch to `doc` (a Kubernetes object, or null/undefined for an empty one)
 * and returns the patched copy; neither argument is modified. `schema` is the kind's structural schema
 * (undefined: no patch metadata, so every list is replaced wholesale, as a merge patch would).
 *
 * Supported, as the API server does: maps merge recursively and `null` deletes; lists with strategy
 * `merge` merge by `x-kubernetes-patch-merge-key` (objects) or as an ordered union (primitives), other
 * lists are replaced; `$patch: replace|delete|merge` on maps and list items; `$setElementOrder/<list>`;
 * `$deleteFromPrimitiveList/<list>`; `$retainKeys`. A malformed patch (unknown directive, directive of
 * the wrong shape) is a 400 PatchError; a patch that cannot apply (list item without its merge key,
 * mixed list element types) is a 422.
 *
 * @example
 * // kubectl apply after changing the image of container "app":
 * applyStrategicMergePatch(deployment, {
 *   spec: { template: { spec: {
 *     '$setElementOrder/containers': [{ name: 'app' }],
 *     containers: [{ name: 'app', image: 'app:v2' }],
 *   } } },
 * }, deploymentSchema);
 */
export function applyStrategicMergePatch(doc: unknown, patch: unknown, schema: Schema | undefined): unknown {
  if (!isJsonObject(patch)) {
    throw new PatchError(400, `a strategic merge patch must be a JSON object, got ${describeJson(patch)}`);
  }
  if (doc !== undefined && doc !== null && !isJsonObject(doc)) {
    throw new PatchError(422, `a strategic merge patch applies to a JSON object, not to ${describeJson(doc)}`);
  }
  return mergeMap(isJsonObject(doc) ? cloneJson(doc) : {}, patch, schema, '');
}

function at(path: string, message: string): string {
  return path ? `${path}: ${message}` : message;
}

function fieldMeta(schema: Schema | undefined): FieldMeta {
  const strategies = (schema?.['x-kubernetes-patch-strategy'] ?? '').split(',').map((s) => s.trim());
  return {
    merge: strategies.includes('merge'),
    replace: strategies.includes('replace'),
    mergeKey: schema?.['x-kubernetes-patch-merge-key'] || undefined,
  };
}

/**
 * Reads the keys of a patch map and checks the shape of its directives, so a malformed patch is a 400
 * whatever the current object holds. The four directive families are directives wherever they appear
 * (so `$patch` works inside `labels` too); any other `$`-key is a field only where the schema can hold
 * it (e.g. `$ref` in a CRD's validation schema) and otherwise an unknown directive, which would
 * otherwise be stored or dropped silently.
 */
function classifyKeys(patch: JsonObject, schema: Schema | undefined, path: string): [string, PatchKey][] {
  return Object.keys(patch).map((key): [string, PatchKey] => {
    if (!key.startsWith('$')) return [key, { kind: 'field', field: key }];
    if (key === PATCH_DIRECTIVE) return [key, { kind: 'patch' }];
    if (key === RETAIN_KEYS) {
      return [
        key,
        { kind: 'retainKeys', values: directiveList(patch, key, 'retainKeys', 'a list of field names', path) },
      ];
    }
    if (key.startsWith(SET_ELEMENT_ORDER)) {
      const what = 'setElementOrder list';
      const field = parallelListField(key, SET_ELEMENT_ORDER, what, path);
      return [key, { kind: 'setElementOrder', field, values: directiveList(patch, key, what, 'a list', path) }];
    }
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      const what = 'primitive list';
      const field = parallelListField(key, DELETE_FROM_PRIMITIVE_LIST, what, path);
      return [key, { kind: 'deleteFromPrimitiveList', field, values: directiveList(patch, key, what, 'a list', path) }];
    }
    if (declaresField(schema, key)) return [key, { kind: 'field', field: key }];
    throw new PatchError(
      400,
      at(
        path,
        `unknown strategic merge patch directive ${JSON.stringify(key)} (supported: ${PATCH_DIRECTIVE}, ` +
          `${RETAIN_KEYS}, ${SET_ELEMENT_ORDER}/<list>, ${DELETE_FROM_PRIMITIVE_LIST}/<list>)`,
      ),
    );
  });
}

function directiveList(patch: JsonObject, key: string, what: string, expected: string, path: string): unknown[] {
  const value = patch[key];
  if (Array.isArray(value)) return value;
  throw new PatchError(
    400,
    at(path, `invalid patch format of ${what}: ${key} must be ${expected}, got ${describeJson(value)}`),
  );
}

function parallelListField(key: string, prefix: string, what: string, path: string): string {
  const field = key.slice(prefix.length + 1);
  if (key[prefix.length] !== '/' || field === '') {
    throw new PatchError(
      400,
      at(path, `invalid patch format of ${what}: ${JSON.stringify(key)} must have the form "${prefix}/<list field>"`),
    );
  }
  return field;
}

function declaresField(schema: Schema | undefined, key: string): boolean {
  if (!schema) return false;
  if (schema.properties && hasOwn(schema.properties, key)) return true;
  return (
    (schema.additionalProperties !== undefined && schema.additionalProperties !== false) ||
    schema['x-kubernetes-preserve-unknown-fields'] === true
  );
}

function unknownPatchType(directive: unknown, path: string): PatchError {
  return new PatchError(
    400,
    at(path, `unknown patch type ${describeJson(directive)} in ${PATCH_DIRECTIVE} (supported: replace, delete, merge)`),
  );
}

function missingMergeKey(item: unknown, mergeKey: string, path: string, current: boolean): PatchError {
  const whose = current ? 'the current list item' : 'map';
  return new PatchError(
    422,
    at(path, `${whose} ${describeJson(item)} does not contain declared merge key ${JSON.stringify(mergeKey)}`),
  );
}

/** Merges `patch` into `owned` (a private copy, updated in place) and returns the result. */
function mergeMap(owned: JsonObject, patch: JsonObject, schema: Schema | undefined, path: string): JsonObject {
  const keys = classifyKeys(patch, schema, path);
  if (hasOwn(patch, PATCH_DIRECTIVE)) {
    const directive = patch[PATCH_DIRECTIVE];
    if (directive === 'replace') return materializeMap(patch, schema, path) ?? {};
    // Kubernetes empties the map rather than removing its key: the parent keeps `field: {}`.
    if (directive === 'delete') return {};
    if (directive !== 'merge') throw unknownPatchType(directive, path);
  }

  applyRetainKeys(owned, patch, keys, path);

  // Ordered lists are merged here, before the other fields, exactly once.
  const ordered = new Set<string>();
  for (const [key, meaning] of keys) {
    if (meaning.kind !== 'setElementOrder') continue;
    applySetElementOrder(owned, patch, key, meaning.field, meaning.values, schema, path);
    ordered.add(meaning.field);
  }

  const deletions: [string, unknown[]][] = [];
  for (const [key, meaning] of keys) {
    if (meaning.kind === 'deleteFromPrimitiveList') {
      deletions.push([meaning.field, meaning.values]);
    } else if (meaning.kind === 'field' && !ordered.has(meaning.field)) {
      mergeField(owned, meaning.field, patch[key], schema, path);
    }
  }
  // Deletions run last so a value both added and deleted ends up deleted whatever the key order;
  // Go iterates the patch map in random order and so has no defined answer.
  for (const [field, values] of deletions) deleteFromPrimitiveList(owned, field, values, schema, path);
  return owned;
}

function mergeField(owned: JsonObject, field: string, patchValue: unknown, schema: Schema | undefined, path: string) {
  const fieldPath = childPath(path, field);
  if (patchValue === null) {
    delete owned[field];
    return;
  }
  const fieldSchema = propertySchema(schema, field);
  const current = getOwn(owned, field);
  if (isJsonObject(current) && isJsonObject(patchValue)) {
    const merged = fieldMeta(fieldSchema).replace
      ? materializeMap(patchValue, fieldSchema, fieldPath)
      : mergeMap(current, patchValue, fieldSchema, fieldPath);
    setOrDelete(owned, field, merged);
  } else if (Array.isArray(current) && Array.isArray(patchValue)) {
    setOwn(owned, field, mergeListField(current, patchValue, fieldSchema, fieldPath));
  } else {
    // Absent, null, primitive or a different JSON type: the patch value replaces it.
    setOrDelete(owned, field, materialize(patchValue, fieldSchema, fieldPath));
  }
}

function setOrDelete(owned: JsonObject, field: string, value: unknown): void {
  if (value === undefined) delete owned[field];
  else setOwn(owned, field, value);
}

/** Merges two lists of a field according to its strategy: `merge` merges, anything else replaces. */
function mergeListField(
  current: unknown[],
  patchList: unknown[],
  fieldSchema: Schema | undefined,
  path: string,
  serverView?: unknown[],
): unknown[] {
  const meta = fieldMeta(fieldSchema);
  if (!meta.merge) return materializeList(patchList, fieldSchema?.items, path);
  return mergeList(current, patchList, fieldSchema?.items, meta.mergeKey, path, serverView);
}

function elementKind(lists: readonly (readonly unknown[])[], path: string): ElementKind {
  let first: JsonKind | undefined;
  for (const list of lists) {
    for (const item of list) {
      const kind = kindOf(item);
      if (kind === 'array') throw new PatchError(422, at(path, 'lists of lists are not supported'));
      if (first === undefined) first = kind;
      else if (kind !== first) {
        throw new PatchError(422, at(path, `list element types are not identical: ${first} and ${kind}`));
      }
    }
  }
  if (first === undefined) return undefined;
  return first === 'object' ? 'object' : 'scalar';
}

/** How two items of a list are recognised as "the same": by merge key for keyed objects, else by value. */
function identityOf(kind: ElementKind, mergeKey: string | undefined): (item: unknown) => unknown {
  if (kind === 'object' && mergeKey) return (item) => (isJsonObject(item) ? getOwn(item, mergeKey) : undefined);
  return (item) => item;
}

function sameMergeKey(item: unknown, mergeKey: string, value: unknown): boolean {
  return isJsonObject(item) && hasOwn(item, mergeKey) && jsonEqual(item[mergeKey], value);
}

/**
 * Merges a `merge`-strategy list. Objects are matched on the merge key and merged recursively (new
 * ones join the list); primitives form a union. Then the result is ordered the way Kubernetes does
 * (see `reorder`).
 *
 * `serverView`, when given, is a copy of `current` that is edited the way Go edits the slice it
 * merges into: `$patch: delete` shifts the later items left in place (leaving the last one
 * duplicated) and a new item overwrites the first slot past the shortened length, while that slot
 * is still inside the original length. `$setElementOrder` orders by that edited slice, so matching
 * where Kubernetes places server-only items requires replaying those edits.
 */
function mergeList(
  current: unknown[],
  patchList: readonly unknown[],
  itemSchema: Schema | undefined,
  mergeKey: string | undefined,
  path: string,
  serverView?: unknown[],
): unknown[] {
  if (current.length === 0 && patchList.length === 0) return current;
  const kind = elementKind([current, patchList], path);
  if (kind === 'scalar') {
    const merged: unknown[] = [];
    for (const value of [...current, ...patchList]) {
      if (!merged.some((seen) => jsonEqual(seen, value))) merged.push(value);
    }
    return reorder(merged, patchList, current, identityOf(kind, undefined));
  }
  if (!mergeKey) {
    throw new PatchError(
      422,
      at(path, 'cannot merge a list of objects without a merge key: the schema sets strategy "merge" but no merge key'),
    );
  }

  let base = current;
  let viewLength = current.length;
  let replace = false;
  const items: [JsonObject, number][] = [];
  for (const [index, item] of patchList.entries()) {
    // elementKind has established that every item is an object.
    const patchItem = item as JsonObject;
    const itemPath = childPath(path, index);
    const directive = getOwn(patchItem, PATCH_DIRECTIVE);
    if (directive === undefined || directive === 'merge') {
      items.push([patchItem, index]);
    } else if (directive === 'delete') {
      if (!hasOwn(patchItem, mergeKey)) throw missingMergeKey(patchItem, mergeKey, itemPath, false);
      const doomed = patchItem[mergeKey];
      base = base.filter((existing) => !sameMergeKey(existing, mergeKey, doomed));
      if (serverView) {
        for (;;) {
          const hit = serverView.findIndex((existing, i) => i < viewLength && sameMergeKey(existing, mergeKey, doomed));
          if (hit < 0) break;
          serverView.copyWithin(hit, hit + 1, viewLength);
          viewLength--;
        }
      }
    } else if (directive === 'replace') {
      replace = true;
    } else {
      throw unknownPatchType(directive, itemPath);
    }
  }

  if (replace) {
    // `$patch: replace` as an item: the list becomes the other patch items, in patch order.
    return items.map(([item, index]) => {
      const itemPath = childPath(path, index);
      if (!hasOwn(item, mergeKey)) throw missingMergeKey(item, mergeKey, itemPath, false);
      return materializeMap(item, itemSchema, itemPath) ?? {};
    });
  }
  for (const [index, existing] of current.entries()) {
    if (!isJsonObject(existing) || !hasOwn(existing, mergeKey)) {
      throw missingMergeKey(existing, mergeKey, childPath(path, index), true);
    }
  }

  const merged = [...base];
  for (const [item, index] of items) {
    const itemPath = childPath(path, index);
    if (!hasOwn(item, mergeKey)) throw missingMergeKey(item, mergeKey, itemPath, false);
    const match = merged.findIndex((existing) => sameMergeKey(existing, mergeKey, item[mergeKey]));
    if (match >= 0) {
      merged[match] = mergeMap(merged[match] as JsonObject, item, itemSchema, itemPath);
    } else {
      merged.push(materializeMap(item, itemSchema, itemPath) ?? {});
      if (serverView && viewLength < serverView.length) serverView[viewLength++] = item;
    }
  }
  return reorder(
    merged,
    items.map(([item]) => item),
    base,
    identityOf(kind, mergeKey),
  );
}

/**
 * Orders a merged list as Kubernetes does: items named by the patch (or by `$setElementOrder`) come
 * in patch order, items only the server has keep their server order, and the two sequences are
 * interleaved by walking both and taking the server-only item first only when the server list had it
 * before the patch item. A patch item the server did not have is therefore emitted as soon as it is
 * reached — which is why, without `$setElementOrder`, a new item lands at the front of the list.
 */
function reorder(
  merged: readonly unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  identity: (item: unknown) => unknown,
): unknown[] {
  const positionIn = (list: readonly unknown[], item: unknown): number => {
    const id = identity(item);
    return list.findIndex((candidate) => jsonEqual(identity(candidate), id));
  };
  const byPosition = (items: unknown[], list: readonly unknown[]): unknown[] =>
    items
      .map((item, i) => ({ item, i, position: positionIn(list, item) }))
      // Not found sorts last; ties keep their merged order (a stable sort, like Go's SliceStable).
      .sort((a, b) => (a.position < 0 ? Infinity : a.position) - (b.position < 0 ? Infinity : b.position) || a.i - b.i)
      .map(({ item }) => item);

  const fromPatch = byPosition(
    merged.filter((item) => positionIn(patchOrder, item) >= 0),
    patchOrder,
  );
  const serverOnly = byPosition(
    merged.filter((item) => positionIn(patchOrder, item) < 0),
    serverOrder,
  );

  const result: unknown[] = [];
  let s = 0;
  let p = 0;
  while (s < serverOnly.length || p < fromPatch.length) {
    if (p >= fromPatch.length) {
      result.push(serverOnly[s++]);
    } else if (s >= serverOnly.length) {
      result.push(fromPatch[p++]);
    } else {
      const serverPosition = positionIn(serverOrder, serverOnly[s]);
      const patchPosition = positionIn(serverOrder, fromPatch[p]);
      if (serverPosition >= 0 && patchPosition >= 0 && serverPosition < patchPosition) result.push(serverOnly[s++]);
      else result.push(fromPatch[p++]);
    }
  }
  return result;
}

/**
 * `$setElementOrder/<field>`: merges the list `<field>` (if the patch has it) and orders the result
 * by the directive, Kubernetes' way of keeping the order the user wrote in the manifest.
 */
function applySetElementOrder(
  owned: JsonObject,
  patch: JsonObject,
  key: string,
  field: string,
  order: readonly unknown[],
  schema: Schema | undefined,
  path: string,
): void {
  const fieldPath = childPath(path, field);
  const current = getOwn(owned, field);
  const hasCurrent = current !== undefined && current !== null;
  if (hasCurrent && !Array.isArray(current)) {
    throw new PatchError(422, at(fieldPath, `${key} orders a list, but the current value is ${describeJson(current)}`));
  }
  const patchValue = getOwn(patch, field);
  if (patchValue !== undefined && !Array.isArray(patchValue)) {
    throw new PatchError(
      400,
      at(
        fieldPath,
        `invalid patch format of setElementOrder list: ${key} needs a list, got ${describeJson(patchValue)}`,
      ),
    );
  }
  if (!hasCurrent && patchValue === undefined) return;

  const currentList = hasCurrent ? current : [];
  const patchList = patchValue ?? [];
  const fieldSchema = propertySchema(schema, field);
  const { mergeKey } = fieldMeta(fieldSchema);
  const kind = elementKind([currentList, patchList], fieldPath);
  // Only lists of objects are matched by merge key; primitives are matched by value.
  const keyedBy = kind === 'object' ? mergeKey : undefined;
  if (keyedBy !== undefined) {
    for (const [index, entry] of order.entries()) {
      if (!isJsonObject(entry) || !hasOwn(entry, keyedBy)) {
        throw new PatchError(
          400,
          at(
            path,
            `invalid patch format of setElementOrder list: ${key}[${index}] ${describeJson(entry)} ` +
              `does not contain declared merge key ${JSON.stringify(keyedBy)}`,
          ),
        );
      }
    }
  }
  checkPatchFollowsOrder(patchList, order, identityOf(kind, mergeKey), keyedBy, key, fieldPath);

  const serverView = [...currentList];
  let merged: unknown[];
  if (!hasCurrent) merged = materializeList(patchList, fieldSchema?.items, fieldPath);
  else if (patchValue === undefined) merged = currentList;
  else merged = mergeListField(currentList, patchList, fieldSchema, fieldPath, serverView);

  if (keyedBy !== undefined) {
    for (const [index, item] of merged.entries()) {
      if (!isJsonObject(item) || !hasOwn(item, keyedBy)) {
        throw missingMergeKey(item, keyedBy, childPath(fieldPath, index), true);
      }
    }
  }
  setOwn(owned, field, kind === undefined ? merged : reorder(merged, order, serverView, identityOf(kind, mergeKey)));
}

/**
 * The patch list must name its items in the order `$setElementOrder` gives (a subsequence of it);
 * otherwise the two directives contradict each other. Deletions and other directive items are exempt.
 */
function checkPatchFollowsOrder(
  patchList: readonly unknown[],
  order: readonly unknown[],
  identity: (item: unknown) => unknown,
  mergeKey: string | undefined,
  key: string,
  fieldPath: string,
): void {
  if (order.length === 0 || patchList.length === 0) return;
  let next = 0;
  for (const [index, item] of patchList.entries()) {
    if (isJsonObject(item) && hasOwn(item, PATCH_DIRECTIVE) && item[PATCH_DIRECTIVE] !== 'merge') continue;
    if (mergeKey !== undefined && !(isJsonObject(item) && hasOwn(item, mergeKey))) {
      throw missingMergeKey(item, mergeKey, childPath(fieldPath, index), false);
    }
    const id = identity(item);
    while (next < order.length && !jsonEqual(identity(order[next]), id)) next++;
    if (next === order.length) {
      throw new PatchError(
        400,
        at(
          fieldPath,
          `invalid patch format of setElementOrder list: the patch list ${describeJson(patchList.map(identity))} ` +
            `does not follow the order of ${key} ${describeJson(order.map(identity))}`,
        ),
      );
    }
    next++;
  }
}

function deleteFromPrimitiveList(
  owned: JsonObject,
  field: string,
  values: readonly unknown[],
  schema: Schema | undefined,
  path: string,
): void {
  const current = getOwn(owned, field);
  // Nothing to delete from: the directive never creates the list.
  if (!Array.isArray(current)) return;
  const fieldPath = childPath(path, field);
  if (elementKind([current, values], fieldPath) === 'object') {
    throw new PatchError(
      400,
      at(
        fieldPath,
        `${DELETE_FROM_PRIMITIVE_LIST} applies to lists of primitives; use "${PATCH_DIRECTIVE}: delete" items`,
      ),
    );
  }
  setOwn(
    owned,
    field,
    current.filter((item) => !values.some((doomed) => jsonEqual(doomed, item))),
  );
}

/**
 * Turns a patch value into a plain value for a place with nothing to merge into (new field, type
 * change, replace strategy): nulls in maps and directives are dropped, `$patch: delete` maps vanish.
 * Returns undefined when nothing is left.
 */
function materialize(value: unknown, schema: Schema | undefined, path: string): unknown {
  if (Array.isArray(value)) return materializeList(value, schema?.items, path);
  if (isJsonObject(value)) return materializeMap(value, schema, path);
  return value;
}

function materializeMap(patch: JsonObject, schema: Schema | undefined, path: string): JsonObject | undefined {
  const keys = classifyKeys(patch, schema, path);
  const directive = getOwn(patch, PATCH_DIRECTIVE);
  if (directive === 'delete') return undefined;
  if (directive !== undefined && directive !== 'replace' && directive !== 'merge') {
    throw unknownPatchType(directive, path);
  }
  const result: JsonObject = {};
  for (const [key, meaning] of keys) {
    if (meaning.kind !== 'field' || patch[key] === null) continue;
    const value = materialize(patch[key], propertySchema(schema, key), childPath(path, key));
    if (value !== undefined) setOwn(result, key, value);
  }
  return result;
}

function materializeList(list: readonly unknown[], itemSchema: Schema | undefined, path: string): unknown[] {
  const result: unknown[] = [];
  for (const [index, item] of list.entries()) {
    const itemPath = childPath(path, index);
    if (isJsonObject(item) && hasOwn(item, PATCH_DIRECTIVE)) {
      const directive = item[PATCH_DIRECTIVE];
      // In a list, delete/replace items are instructions about the list, never content.
      if (directive === 'delete' || directive === 'replace') continue;
      if (directive !== 'merge') throw unknownPatchType(directive, itemPath);
    }
    result.push(materialize(item, itemSchema, itemPath));
  }
  return result;
}

function applyRetainKeys(owned: JsonObject, patch: JsonObject, keys: [string, PatchKey][], path: string): void {
  const directive = keys.find(([, meaning]) => meaning.kind === 'retainKeys')?.[1];
  if (directive?.kind !== 'retainKeys') return;
  const list = directive.values;
  const retained = new Set(list.filter((name): name is string => typeof name === 'string'));
  for (const [key, meaning] of keys) {
    if (meaning.kind === 'field' && patch[key] !== null && !retained.has(key)) {
      throw new PatchError(
        400,
        at(
          path,
          `invalid patch format of retainKeys: the patch sets ${JSON.stringify(key)} ` +
            `but ${RETAIN_KEYS} ${describeJson(list)} does not list it`,
        ),
      );
    }
  }
  // Clearing before the merge is equivalent to after it: the check above keeps patch fields inside the list.
  for (const key of Object.keys(owned)) if (!retained.has(key)) delete owned[key];
}
