/**
 * What the Kubernetes API server does to an object's metadata on each kind of write, as pure
 * functions: the store adapters only decide *whether* a write wins (a conditional write), never
 * *what* is written. Time, uids and versions come in as a {@link Stamp}.
 */
import { rfc3339 } from '../api/time.ts';
import type { KubeObject, ObjectRef } from '../api/object.ts';
import { cloneJson, deepEqual } from '../util/json.ts';
import { isDNS1123Label } from '../util/validation.ts';
import { ConflictError, InvalidObjectError } from './errors.ts';

/** The values a write needs from the outside world. */
export interface Stamp {
  /** Wall-clock time of the write, ms since the epoch. */
  nowMs: number;
  /** The version the written object will carry (see {@link nextVersion}). */
  version: number;
  /** A fresh uid, used only by create. */
  uid: string;
}

/**
 * The next `resourceVersion` of an object. Versions are microsecond timestamps, made strictly
 * increasing per object, so an object deleted and re-created later does not repeat a version a client
 * may still hold (the store randomises the sub-millisecond digits of a create for re-creations within
 * one millisecond); updates also check the uid. (There is no global revision as etcd has; see
 * docs/decisions/0002.)
 */
export function nextVersion(previous: number | undefined, nowMs: number): number {
  const candidate = Math.floor(nowMs) * 1000;
  return previous === undefined ? candidate : Math.max(previous + 1, candidate);
}

/** The object minus `metadata` and `status`: what `generation` tracks. */
function specOf(obj: KubeObject): Record<string, unknown> {
  const { metadata: _m, status: _s, ...rest } = obj;
  return rest;
}

function requireVersion(ref: ObjectRef, incoming: KubeObject, current: KubeObject): void {
  const rv = incoming.metadata.resourceVersion;
  if (rv === undefined || rv === '') {
    throw new InvalidObjectError(
      'metadata.resourceVersion: Invalid value: 0: must be specified for an update ' +
        '(read the object, change it, and send it back with the resourceVersion you read)',
      ref,
    );
  }
  if (rv !== current.metadata.resourceVersion) {
    throw new ConflictError(ref, current, 'the object has been modified');
  }
  const uid = incoming.metadata.uid;
  if (uid && uid !== current.metadata.uid) {
    throw new ConflictError(
      ref,
      current,
      `Precondition failed: UID in object meta: ${uid}, UID stored: ${current.metadata.uid}`,
    );
  }
}

/**
 * Names must be usable as URL path segments (as Kubernetes requires of every name: not `.` or `..`,
 * no `/` or `%`, at most 253 characters) and namespaces must be DNS-1123 labels. Kind-specific rules
 * (DNS subdomains, labels) are the API layer's; these are what the store's keys rely on.
 */
function validateName(ref: ObjectRef, obj: KubeObject): void {
  if (!obj.metadata || typeof obj.metadata !== 'object') {
    throw new InvalidObjectError('metadata: Required value: an object needs metadata', ref);
  }
  const { name, namespace } = obj.metadata;
  if (!name) {
    throw new InvalidObjectError('metadata.name: Required value: name or generateName is required', ref);
  }
  if (name === '.' || name === '..' || /[/%]/.test(name) || name.length > 253) {
    throw new InvalidObjectError(
      `metadata.name: Invalid value: ${JSON.stringify(name)}: may not be '.' or '..', contain '/' or '%', or exceed 253 characters`,
      ref,
    );
  }
  const namespaceErrors = namespace ? isDNS1123Label(namespace) : [];
  if (namespaceErrors.length) {
    throw new InvalidObjectError(
      `metadata.namespace: Invalid value: ${JSON.stringify(namespace)}: ${namespaceErrors.join('; ')}`,
      ref,
    );
  }
}

/**
 * The object as created: store-owned metadata set, client-supplied values for them discarded, and
 * `status` dropped — every kind here has a status subresource, and Kubernetes ignores status on
 * create for those (controllers write it afterwards with a status update).
 */
export function prepareCreate(ref: ObjectRef, obj: KubeObject, stamp: Stamp): KubeObject {
  validateName(ref, obj);
  const out = cloneJson(obj);
  const meta = out.metadata;
  meta.uid = stamp.uid;
  meta.creationTimestamp = rfc3339(stamp.nowMs);
  meta.generation = 1;
  meta.resourceVersion = String(stamp.version);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (meta.finalizers?.length === 0) delete meta.finalizers;
  delete out.status;
  return out;
}

/** Result of an update decision. */
export interface UpdateDecision {
  object: KubeObject;
  /** False when the write would change nothing: callers skip it and return `current`. */
  changed: boolean;
  /** True when the update removed the last finalizer of an object marked for deletion. */
  remove: boolean;
}

/**
 * A main-resource update: everything but `status` replaced by `incoming`; uid, creation time and
 * deletion mark kept; `generation` bumped when anything outside `metadata` and `status` changed.
 */
export function prepareUpdate(
  ref: ObjectRef,
  current: KubeObject,
  incoming: KubeObject,
  stamp: Stamp,
  withStatus = false,
): UpdateDecision {
  validateName(ref, incoming);
  requireVersion(ref, incoming, current);
  const cur = current.metadata;
  const next = cloneJson(incoming);
  const meta = next.metadata;

  if (cur.deletionTimestamp) {
    const added = (meta.finalizers ?? []).filter((f) => !(cur.finalizers ?? []).includes(f));
    if (added.length > 0) {
      throw new InvalidObjectError(
        `metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
        ref,
      );
    }
  }

  meta.uid = cur.uid;
  meta.creationTimestamp = cur.creationTimestamp;
  meta.generation = cur.generation;
  meta.resourceVersion = cur.resourceVersion;
  if (cur.deletionTimestamp) {
    meta.deletionTimestamp = cur.deletionTimestamp;
    meta.deletionGracePeriodSeconds = cur.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  if (meta.finalizers?.length === 0) delete meta.finalizers;
  if (withStatus) {
    if (incoming.status === undefined) delete next.status;
  } else if ('status' in current) next.status = cloneJson(current.status);
  else delete next.status;

  if (deepEqual(next, current)) return { object: current, changed: false, remove: false };

  if (!deepEqual(specOf(next), specOf(current))) meta.generation = (cur.generation ?? 0) + 1;
  meta.resourceVersion = String(stamp.version);
  const remove = Boolean(cur.deletionTimestamp) && (meta.finalizers ?? []).length === 0;
  return { object: next, changed: true, remove };
}

/** A status update: only `status` taken from `incoming`; `generation` untouched. */
export function prepareStatusUpdate(
  ref: ObjectRef,
  current: KubeObject,
  incoming: KubeObject,
  stamp: Stamp,
): UpdateDecision {
  requireVersion(ref, incoming, current);
  // Everything but the status is the current object's; its old status is not copied only to be replaced.
  const { status: _replaced, ...kept } = current;
  const next = cloneJson(kept) as KubeObject;
  if (incoming.status !== undefined) next.status = cloneJson(incoming.status);
  if (deepEqual(next, current)) return { object: current, changed: false, remove: false };
  next.metadata.resourceVersion = String(stamp.version);
  return { object: next, changed: true, remove: false };
}

/** What a delete does. */
export type DeleteDecision =
  | { action: 'remove'; object: KubeObject }
  | { action: 'mark'; object: KubeObject }
  | { action: 'none'; object: KubeObject };

/**
 * A delete: objects without finalizers are removed; objects with finalizers get a
 * `deletionTimestamp` (once; a repeated delete changes nothing) and a generation bump, as Kubernetes
 * does, and wait for their finalizers to be removed.
 */
export function prepareDelete(
  ref: ObjectRef,
  current: KubeObject,
  preconditions: { resourceVersion?: string; uid?: string } | undefined,
  stamp: Stamp,
): DeleteDecision {
  if (preconditions?.uid && preconditions.uid !== current.metadata.uid) {
    throw new ConflictError(
      ref,
      current,
      `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${current.metadata.uid}`,
    );
  }
  if (preconditions?.resourceVersion && preconditions.resourceVersion !== current.metadata.resourceVersion) {
    throw new ConflictError(
      ref,
      current,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`,
    );
  }
  if ((current.metadata.finalizers ?? []).length === 0) return { action: 'remove', object: current };
  if (current.metadata.deletionTimestamp) return { action: 'none', object: current };
  const next = cloneJson(current);
  next.metadata.deletionTimestamp = rfc3339(stamp.nowMs);
  next.metadata.deletionGracePeriodSeconds = 0;
  next.metadata.generation = (current.metadata.generation ?? 0) + 1;
  next.metadata.resourceVersion = String(stamp.version);
  return { action: 'mark', object: next };
}
