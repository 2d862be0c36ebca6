/**
 * Ownership bookkeeping shared by apply and by the other writes: which fields an object sets, and
 * how a change moves ownership between managers (structured-merge-diff's `Updater.update` and
 * `Updater.Update`, wrapped as the API server wraps them).
 */
import { rfc3339Text } from '../../api/time.ts';
import { intersectFieldSets, subtractFieldSets, unionFieldSets, type FieldSet } from './field-set.ts';
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  managerId,
  resetFieldsFilter,
  stripMeta,
  UNKNOWN_MANAGER,
  type ManagedFieldsEntry,
  type ManagerRecord,
  type Managers,
} from './managed-fields.ts';
import { rootSchema } from './shapes.ts';
import { compareObjects, toFieldSet, zeroObject, type Comparison } from './typed.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Schema } from '../base/schema.ts';

/**
 * The set of fields `obj` sets, walking `schema` (undefined: deduce everything from the values):
 * what an apply of `obj` would own. Type meta, server-maintained metadata (`name`, `namespace`,
 * `uid`, `resourceVersion`, `generation`, `creationTimestamp`, `selfLink`, `managedFields`) and
 * `status` are never part of it, as Kubernetes never records them for the main resource.
 */
export function fieldSetOf(obj: unknown, schema: Schema | undefined): FieldSet {
  return stripMeta(resetFieldsFilter(undefined)(toFieldSet(obj, rootSchema(schema), 'lenient')));
}

/** The object without `metadata.managedFields` (never compared nor merged). */
export function withoutManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata?.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * What Kubernetes compares a create against: for custom resources an empty object, for built-in
 * kinds the Go zero value (see {@link zeroObject}).
 */
export function emptyObject(schema: Schema | undefined, builtIn: boolean | undefined): Record<string, unknown> {
  return builtIn ? { metadata: {}, ...zeroObject(schema) } : {};
}

/** Applies the reset-fields filter to every set of a comparison. */
export function filterComparison(comparison: Comparison, filter: (set: FieldSet) => FieldSet): Comparison {
  return {
    added: filter(comparison.added),
    modified: filter(comparison.modified),
    removed: filter(comparison.removed),
  };
}

/** Who makes a non-apply write. */
export interface Updater {
  readonly manager: string;
  readonly apiVersion: string;
  readonly subresource?: string | undefined;
}

/**
 * Records a non-apply change from `live` to `next` (create, update, patch): every field that
 * appeared or changed leaves its previous owners and joins `who`'s Update entry (merged with what
 * that entry owned), removed fields leave everyone, entries left empty disappear. The entry's time
 * is `now` only when it gained fields.
 */
export function recordChanges(
  managers: Managers,
  live: unknown,
  next: unknown,
  schema: Schema,
  who: Updater,
  now: string,
): Managers {
  const filter = resetFieldsFilter(who.subresource);
  const comparison = filterComparison(compareObjects(live, next, schema), filter);
  const changed = unionFieldSets(comparison.modified, comparison.added);
  const out: Managers = new Map();
  for (const [id, record] of managers) {
    const set = subtractFieldSets(subtractFieldSets(record.set, changed), comparison.removed);
    if (set.size > 0) out.set(id, { ...record, set });
  }
  const owned = stripMeta(changed);
  if (owned.size === 0) return out;
  const record = {
    manager: who.manager || UNKNOWN_MANAGER,
    operation: 'Update' as const,
    apiVersion: who.apiVersion,
    ...(who.subresource ? { subresource: who.subresource } : {}),
  };
  const id = managerId(record);
  const previous = out.get(id);
  out.set(id, { ...record, time: now, set: previous ? unionFieldSets(owned, previous.set) : owned });
  return out;
}

/** For each other manager, the fields of `changed` it owns: what an apply would take from it. */
export function ownedBy(managers: Managers, exceptId: string, changed: FieldSet): [ManagerRecord, FieldSet][] {
  const out: [ManagerRecord, FieldSet][] = [];
  for (const [id, record] of managers) {
    if (id === exceptId) continue;
    const overlap = intersectFieldSets(record.set, changed);
    if (overlap.size > 0) out.push([record, overlap]);
  }
  return out;
}

/** Input of {@link recordUpdate}. */
export interface RecordUpdateInput {
  /** The stored object; undefined for a create. */
  before: KubeObject | undefined;
  /** The object about to be stored (after merging a patch, defaulting, and the strategy's resets). */
  after: KubeObject;
  /** The field manager (`?fieldManager=`, else {@link defaultManager} of the User-Agent). */
  manager: string;
  operation: 'Update';
  /** `status` for writes to the status subresource: then only `status` fields are tracked. */
  subresource?: 'status';
  schema: Schema | undefined;
  /** The group/version of the request, e.g. `apps/v1`: Update entries are per version. */
  apiVersion: string;
  /** The request time, RFC 3339 (stored to the second). */
  now: string;
  /**
   * True for kinds compiled into Kubernetes: a create is then compared against the Go zero value
   * (see {@link zeroObject}) rather than an empty object, as the API server does.
   */
  builtIn?: boolean;
}

function startingManagers(input: RecordUpdateInput): Managers {
  const fromLive = () => decodeManagedFields(input.before?.metadata?.managedFields) ?? new Map();
  // Subresource writes cannot touch managedFields; main-resource writes may replace or reset them.
  if (input.subresource) return fromLive();
  const sent = input.after.metadata?.managedFields;
  if (isResetManagedFields(sent)) return new Map();
  const fromRequest = decodeManagedFields(sent);
  if (fromRequest && fromRequest.size > 0) return fromRequest;
  return fromLive();
}

/**
 * The `metadata.managedFields` to store with `after` on a create, update (PUT) or non-apply patch
 * (`FieldManager.Update`). Fields that changed from `before` (every field on a create) move to
 * `manager`'s Update entry for `apiVersion` (merged with what it owned), leaving other entries;
 * removed fields leave every entry; empty entries are dropped.
 *
 * The managed fields to start from are those sent in `after` when it carries valid, non-empty ones
 * (a client may rewrite them), none when it sends `[]` or `[{}]` (a reset), else `before`'s. As in
 * Kubernetes, an existing object that has no managed fields stays untracked (returns `[]`), while a
 * create always starts tracking.
 */
export function recordUpdate(input: RecordUpdateInput): ManagedFieldsEntry[] {
  const now = rfc3339Text(input.now);
  const managers = startingManagers(input);
  if (managers.size === 0 && input.before !== undefined) return [];
  const schema = rootSchema(input.schema);
  const live = input.before ? withoutManagedFields(input.before) : emptyObject(input.schema, input.builtIn);
  const next = recordChanges(managers, live, withoutManagedFields(input.after), schema, input, now);
  return encodeManagedFields(capUpdateManagers(next), now);
}
