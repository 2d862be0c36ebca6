/**
 * `metadata.managedFields`: decoding the entries into per-manager field sets, encoding them back in
 * the order Kubernetes keeps them, and the bookkeeping the API server layers around
 * structured-merge-diff (`k8s.io/apimachinery/pkg/util/managedfields/internal`): manager identity,
 * the fields never tracked, the status reset, the cap on update entries.
 */
import {
  fieldElement,
  fieldSetOfPaths,
  fromFieldsV1,
  subtractFieldSets,
  subtractFieldSetsRecursively,
  toFieldsV1,
  unionFieldSets,
  type FieldSet,
  type FieldsV1,
} from './field-set.ts';
import { isObject } from './shapes.ts';

/**
 * One `metadata.managedFields` entry. `fieldsType: 'FieldsV1'` and `fieldsV1` are always present:
 * kubectl dereferences them without checking.
 */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  /** RFC 3339, seconds precision (`2024-05-01T10:00:00Z`). */
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldsV1;
  subresource?: string;
}

/** A decoded entry: who, how, and the fields it owns. */
export interface ManagerRecord {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly time?: string;
  readonly set: FieldSet;
}

/** Managers by identity (see {@link managerId}). */
export type Managers = Map<string, ManagerRecord>;

/** Whom to attribute fields to when a request names no manager (`buildManagerInfo`). */
export const UNKNOWN_MANAGER = 'unknown';

/** The manager Kubernetes records existing fields under when the first apply meets an untracked object. */
export const BEFORE_FIRST_APPLY_MANAGER = 'before-first-apply';

/** The manager that absorbs the oldest update entries beyond {@link MAX_UPDATE_MANAGERS}. */
export const ANCIENT_CHANGES_MANAGER = 'ancient-changes';

/** Kubernetes keeps at most this many `Update` entries (`DefaultMaxUpdateManagers`). */
export const MAX_UPDATE_MANAGERS = 10;

/**
 * The identity of an entry, as `BuildManagerIdentifier` spells it: the entry's JSON without time and
 * fields, and without the API version for appliers (an applier stays one manager across versions,
 * an updater does not). Sorting by it is how conflict messages order managers.
 */
export function managerId(entry: {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string | undefined;
}): string {
  const id: Record<string, string> = { manager: entry.manager, operation: entry.operation };
  if (entry.operation === 'Update' && entry.apiVersion) id.apiVersion = entry.apiVersion;
  if (entry.subresource) id.subresource = entry.subresource;
  return JSON.stringify(id);
}

/**
 * Decodes `metadata.managedFields`; undefined when an entry is invalid (operation not Apply/Update,
 * empty apiVersion, fieldsType not FieldsV1, malformed fieldsV1), as `DecodeManagedFields` fails.
 */
export function decodeManagedFields(entries: unknown): Managers | undefined {
  const managers: Managers = new Map();
  if (entries === undefined || entries === null) return managers;
  if (!Array.isArray(entries)) return undefined;
  for (const entry of entries) {
    if (!isObject(entry)) return undefined;
    const { manager, operation, apiVersion, fieldsType, fieldsV1, subresource, time } = entry;
    if (operation !== 'Apply' && operation !== 'Update') return undefined;
    if (typeof apiVersion !== 'string' || apiVersion === '') return undefined;
    if (fieldsType !== 'FieldsV1') return undefined;
    let set: FieldSet;
    try {
      set = fromFieldsV1(fieldsV1 ?? {});
    } catch {
      return undefined;
    }
    const record: ManagerRecord = {
      manager: typeof manager === 'string' ? manager : '',
      operation,
      apiVersion,
      ...(typeof subresource === 'string' && subresource !== '' ? { subresource } : {}),
      ...(typeof time === 'string' ? { time } : {}),
      set,
    };
    managers.set(managerId(record), record);
  }
  return managers;
}

/**
 * True when an update asks to clear managedFields: an empty list, or a list holding one empty
 * entry (`isResetManagedFields`).
 */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && isObject(entries[0]) && Object.keys(entries[0]).length === 0;
}

function seconds(time: string | undefined): number {
  if (time === undefined) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Encodes managers as `metadata.managedFields`, sorted as Kubernetes sorts them: Apply entries
 * before Update entries, then by time (to the second), manager, apiVersion, subresource.
 * Entries without a time get `now`.
 */
export function encodeManagedFields(managers: Managers, now: string): ManagedFieldsEntry[] {
  const entries = [...managers.values()].map((r): ManagedFieldsEntry => ({
    manager: r.manager,
    operation: r.operation,
    apiVersion: r.apiVersion,
    time: r.time ?? now,
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(r.set),
    ...(r.subresource ? { subresource: r.subresource } : {}),
  }));
  return entries.sort(
    (p, q) =>
      compareText(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      compareText(p.manager, q.manager) ||
      compareText(p.apiVersion, q.apiVersion) ||
      compareText(p.subresource ?? '', q.subresource ?? ''),
  );
}

/**
 * Paths never recorded for the manager of a request (`stripMetaManager`): type meta, identity and
 * server-maintained metadata. Only these exact paths go: `metadata.labels` stays tracked.
 */
const STRIPPED = fieldSetOfPaths(
  [
    ['apiVersion'],
    ['kind'],
    ['metadata'],
    ...[
      'name',
      'namespace',
      'creationTimestamp',
      'selfLink',
      'uid',
      'clusterName',
      'generation',
      'managedFields',
      'resourceVersion',
    ].map((f) => ['metadata', f]),
  ].map((path) => path.map(fieldElement)),
);

/** The set without the paths Kubernetes never records for a manager. */
export function stripMeta(set: FieldSet): FieldSet {
  return subtractFieldSets(set, STRIPPED);
}

const STATUS = fieldSetOfPaths([[fieldElement('status')]]);

/**
 * The reset-fields filter of a request: on the main resource `status` and everything below it is
 * neither owned nor compared; on the `status` subresource only `status` is.
 */
export function resetFieldsFilter(subresource: string | undefined): (set: FieldSet) => FieldSet {
  if (subresource === 'status') {
    return (set) => {
      const status = set.get(fieldElement('status'));
      return status ? new Map([[fieldElement('status'), status]]) : new Map();
    };
  }
  return (set) => subtractFieldSetsRecursively(set, STATUS);
}

/**
 * Caps `Update` entries at {@link MAX_UPDATE_MANAGERS} (`capManagersManager`): the oldest are merged,
 * per API version, into an `ancient-changes` entry carrying the time of the newest merged one.
 */
export function capUpdateManagers(managers: Managers): Managers {
  const updaters = [...managers.entries()].filter(([, r]) => r.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return managers;
  updaters.sort(([ia, a], [ib, b]) => seconds(a.time) - seconds(b.time) || compareText(ia, ib));
  const out = new Map(managers);
  const firstByVersion = new Map<string, string>();
  let count = updaters.length;
  for (const [id, record] of updaters) {
    if (count <= MAX_UPDATE_MANAGERS) break;
    const first = firstByVersion.get(record.apiVersion);
    if (first === undefined) {
      firstByVersion.set(record.apiVersion, id);
      continue;
    }
    const bucketId = managerId({
      manager: ANCIENT_CHANGES_MANAGER,
      operation: 'Update',
      apiVersion: record.apiVersion,
    });
    const bucket = out.get(bucketId) ?? out.get(first)!;
    if (!out.has(bucketId)) out.delete(first);
    out.set(bucketId, {
      manager: ANCIENT_CHANGES_MANAGER,
      operation: 'Update',
      apiVersion: record.apiVersion,
      ...(record.time !== undefined ? { time: record.time } : {}),
      set: unionFieldSets(record.set, bucket.set),
    });
    out.delete(id);
    count--;
  }
  return out;
}
