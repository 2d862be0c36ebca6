/**
 * Server-side apply (`PATCH` with `application/apply-patch+yaml`): merge a configuration into the
 * live object, prune what the applier stopped setting, detect conflicts with other managers, and
 * record the new ownership — `merge.Updater.Apply` as the API server wraps it.
 */
import { rfc3339Text } from '../../api/time.ts';
import { InvalidApplyConfigurationError } from './errors.ts';
import { ensureNamedFieldsAreMembers, mergeObjects, removeItems, toFieldSet, compareObjects } from './typed.ts';
import {
  fieldSetPaths,
  formatFieldPath,
  intersectFieldSets,
  subtractFieldSets,
  unionFieldSets,
  type FieldSet,
} from './field-set.ts';
import {
  BEFORE_FIRST_APPLY_MANAGER,
  decodeManagedFields,
  encodeManagedFields,
  managerId,
  resetFieldsFilter,
  stripMeta,
  UNKNOWN_MANAGER,
  type ManagerRecord,
  type Managers,
} from './managed-fields.ts';
import { emptyObject, filterComparison, ownedBy, recordChanges, withoutManagedFields } from './ownership.ts';
import { rootSchema } from './shapes.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Schema } from '../base/schema.ts';
import { cloneJson, deepEqual } from '../../util/json.ts';

/**
 * A field the configuration would change that another manager owns. `field` is the path as
 * Kubernetes prints it (`.spec.replicas`); `operation`, `apiVersion` and `subresource` describe the
 * owning entry, so {@link formatConflicts} can say `"kubectl-client-side-apply" using apps/v1`.
 */
export interface Conflict {
  manager: string;
  field: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  subresource?: string;
}

/** Input of {@link applyConfiguration}. */
export interface ApplyInput {
  /** The stored object; undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The apply configuration as sent (a partial object). */
  config: KubeObject;
  /** `?fieldManager=` (required for apply; see {@link validateManager}). */
  manager: string;
  /** `?force=true`: take conflicting fields instead of failing. */
  force: boolean;
  schema: Schema | undefined;
  /** The group/version of the request; the configuration must be of it. */
  apiVersion: string;
  /** The request time, RFC 3339 (stored to the second). */
  now: string;
  /** True for built-in kinds (see {@link RecordUpdateInput.builtIn}); only matters for untracked objects. */
  builtIn?: boolean;
}

/**
 * The outcome of an apply: the object to store (with its new `metadata.managedFields`; not yet
 * defaulted or validated), or the conflicts that stopped it (answer 409 Conflict with
 * {@link formatConflicts} as message and {@link conflictCauses} as details).
 */
export type ApplyResult = { object: KubeObject } | { conflicts: Conflict[] };

/**
 * Server-side apply of `config` onto `live` by `manager`.
 *
 * - The configuration merges into the live object: objects field by field, map lists by key, sets
 *   by value; scalars, atomic lists and atomic maps are replaced.
 * - Fields this manager applied last time and omits now are removed, unless another manager
 *   (applier or updater) owns them.
 * - A field whose value would change and that another manager owns is a conflict, unless `force`
 *   (then that manager loses it). Setting a field to the value it has shares its ownership.
 * - The manager's Apply entry becomes exactly what the configuration sets; fields taken over or
 *   removed leave other entries, and entries left empty are dropped.
 * - An existing object without managed fields first has all its fields recorded under the
 *   `before-first-apply` Update entry, as Kubernetes does, so they can conflict.
 *
 * Throws {@link InvalidApplyConfigurationError} (400) when the configuration carries
 * `metadata.managedFields`, is of another API version, or has a map-list item without its key or
 * a key twice.
 */
export function applyConfiguration(input: ApplyInput): ApplyResult {
  const { config } = input;
  const now = rfc3339Text(input.now);
  if (config.metadata?.managedFields !== undefined && config.metadata.managedFields !== null) {
    throw new InvalidApplyConfigurationError('metadata.managedFields must be nil', 'metadata.managedFields');
  }
  if (config.apiVersion !== input.apiVersion) {
    throw new InvalidApplyConfigurationError(
      `Incorrect version specified in apply patch. Specified patch version: ${config.apiVersion}, expected: ${input.apiVersion}`,
      'apiVersion',
    );
  }
  const schema = rootSchema(input.schema);
  const configSet = toFieldSet(config, schema, 'strict');
  const live: unknown = input.live ? withoutManagedFields(input.live) : {};

  let managers: Managers = (input.live && decodeManagedFields(input.live.metadata?.managedFields)) || new Map();
  if (input.live && managers.size === 0) {
    const who = { manager: BEFORE_FIRST_APPLY_MANAGER, apiVersion: input.apiVersion };
    managers = recordChanges(managers, emptyObject(input.schema, input.builtIn), live, schema, who, now);
  }

  const applier = {
    manager: input.manager || UNKNOWN_MANAGER,
    operation: 'Apply' as const,
    apiVersion: input.apiVersion,
  };
  const id = managerId(applier);
  const previous = managers.get(id);
  const filter = resetFieldsFilter(undefined);
  const applied = filter(configSet);
  managers = new Map(managers).set(id, { ...applier, set: applied });

  const merged = mergeObjects(live, config, schema);
  const pruned = previous ? prune(merged, managers, previous.set, input.schema) : merged;

  const comparison = filterComparison(compareObjects(live, pruned, schema), filter);
  const taken = ownedBy(managers, id, unionFieldSets(comparison.modified, comparison.added));
  if (taken.length > 0 && !input.force) return { conflicts: listConflicts(taken) };

  const lost = new Map(taken.map(([record, set]) => [managerId(record), set]));
  const next: Managers = new Map();
  for (const [mid, record] of managers) {
    if (mid === id) continue;
    const set = subtractFieldSets(subtractFieldSets(record.set, lost.get(mid) ?? new Map()), comparison.removed);
    if (set.size > 0) next.set(mid, { ...record, set });
  }
  const changed = !deepEqual(live, pruned);
  const owned = stripMeta(applied);
  if (owned.size > 0) {
    const time = changed ? now : (previous?.time ?? now);
    next.set(id, { ...applier, time, set: owned });
  }

  const object = cloneJson((changed ? pruned : live) as KubeObject);
  const entries = encodeManagedFields(next, now);
  if (entries.length > 0) object.metadata.managedFields = entries;
  else delete object.metadata.managedFields;
  return { object };
}

/**
 * Removes what the applier owned last time and no longer applies, unless someone else owns it
 * (`Updater.prune`, `addBackOwnedItems`, `addBackDanglingItems`). Declared fields count as owned
 * when something below them is, so a struct survives while any of its fields is owned.
 */
function prune(merged: unknown, managers: Managers, lastSet: FieldSet, kindSchema: Schema | undefined): unknown {
  if (lastSet.size === 0) return merged;
  const schema = rootSchema(kindSchema);
  const named = (set: FieldSet) => ensureNamedFieldsAreMembers(set, schema);
  const setOf = (value: unknown) => named(toFieldSet(value, schema, 'lenient'));

  const last = named(lastSet);
  const firstPass = removeItems(merged, last, schema);
  let managed: FieldSet = new Map();
  for (const record of managers.values()) managed = unionFieldSets(managed, record.set);
  const mergedSet = setOf(merged);
  const addedBack = removeItems(
    merged,
    subtractFieldSets(mergedSet, unionFieldSets(setOf(firstPass), named(managed))),
    schema,
  );
  return removeItems(merged, intersectFieldSets(subtractFieldSets(mergedSet, setOf(addedBack)), last), schema);
}

function listConflicts(taken: [ManagerRecord, FieldSet][]): Conflict[] {
  const sorted = [...taken].sort(([a], [b]) => {
    const ia = managerId(a);
    const ib = managerId(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  });
  return sorted.flatMap(([record, set]) =>
    fieldSetPaths(set).map((path): Conflict => ({
      manager: record.manager,
      field: formatFieldPath(path),
      operation: record.operation,
      apiVersion: record.apiVersion,
      ...(record.subresource ? { subresource: record.subresource } : {}),
    })),
  );
}

/** How Kubernetes names a manager in conflict messages (`printManager`). */
function printManager(conflict: Conflict): string {
  let text = JSON.stringify(conflict.manager);
  if (conflict.subresource) text += ` with subresource ${JSON.stringify(conflict.subresource)}`;
  if (conflict.operation === 'Update') text += ` using ${conflict.apiVersion ?? ''}`;
  return text;
}

function conflictOwnerId(conflict: Conflict): string {
  return managerId({
    manager: conflict.manager,
    operation: conflict.operation ?? 'Apply',
    apiVersion: conflict.apiVersion ?? '',
    subresource: conflict.subresource,
  });
}

/**
 * The message of the 409 an apply conflict gets, worded as the API server words it:
 * `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas`,
 * or for several, grouped by manager (sorted):
 * `Apply failed with 2 conflicts: conflicts with "m" using apps/v1:\n- .spec.replicas\n- .spec.paused`.
 */
export function formatConflicts(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const only = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${printManager(only)}: ${only.field}`;
  }
  const groups = new Map<string, Conflict[]>();
  for (const conflict of conflicts) {
    const key = conflictOwnerId(conflict);
    groups.set(key, [...(groups.get(key) ?? []), conflict]);
  }
  const lines: string[] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    lines.push(`conflicts with ${printManager(group[0]!)}:`);
    for (const conflict of group) lines.push(`- ${conflict.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The `Status.details.causes` of an apply conflict: one `FieldManagerConflict` per field. */
export function conflictCauses(
  conflicts: readonly Conflict[],
): { type: 'FieldManagerConflict'; message: string; field: string }[] {
  return conflicts.map((c) => ({
    type: 'FieldManagerConflict',
    message: `conflict with ${printManager(c)}`,
    field: c.field,
  }));
}
