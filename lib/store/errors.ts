import type { KubeObject, ObjectRef } from '../api/object.ts';
import { formatKey } from '../api/object.ts';

/**
 * Kubernetes `StatusReason` values the store can produce, so the API layer maps a store error to a
 * `Status` object without guessing.
 */
export type StatusReason =
  'NotFound' | 'AlreadyExists' | 'Conflict' | 'Invalid' | 'BadRequest' | 'RequestEntityTooLarge';

/** Base class of every expected store failure. Carries the HTTP code and reason Kubernetes would use. */
export abstract class StoreError extends Error {
  abstract readonly code: number;
  abstract readonly reason: StatusReason;
  readonly ref: ObjectRef | undefined;
  constructor(message: string, ref?: ObjectRef, options?: ErrorOptions) {
    super(message, options);
    this.ref = ref;
  }
}

/** The object does not exist. */
export class NotFoundError extends StoreError {
  override readonly name = 'NotFoundError';
  readonly code = 404;
  readonly reason = 'NotFound' as const;
  constructor(ref: ObjectRef) {
    super(`${formatKey(ref)} not found`, ref);
  }
}

/** A create named an object that already exists; `current` is the stored one. */
export class AlreadyExistsError extends StoreError {
  override readonly name = 'AlreadyExistsError';
  readonly code = 409;
  readonly reason = 'AlreadyExists' as const;
  readonly current: KubeObject | undefined;
  constructor(ref: ObjectRef, current: KubeObject | undefined) {
    super(`${formatKey(ref)} already exists`, ref);
    this.current = current;
  }
}

/**
 * A write carried a stale `resourceVersion` (or a failed uid precondition). `current` is the object as
 * stored now (undefined if it was deleted meanwhile): re-read, re-apply the change, retry.
 */
export class ConflictError extends StoreError {
  override readonly name = 'ConflictError';
  readonly code = 409;
  readonly reason = 'Conflict' as const;
  readonly current: KubeObject | undefined;
  constructor(ref: ObjectRef, current: KubeObject | undefined, detail: string) {
    super(
      `Operation cannot be fulfilled on ${formatKey(ref)}: ${detail}; ` +
        'please apply your changes to the latest version and try again',
      ref,
    );
    this.current = current;
  }
}

/** The object is not acceptable to the store (missing name, immutable field changed, ...). */
export class InvalidObjectError extends StoreError {
  override readonly name = 'InvalidObjectError';
  readonly code = 422;
  readonly reason = 'Invalid' as const;
}

/** The request itself is malformed (bad continue token, bad selector, ...). */
export class BadRequestError extends StoreError {
  override readonly name = 'BadRequestError';
  readonly code = 400;
  readonly reason = 'BadRequest' as const;
}

/** The object does not fit in one item even compressed. */
export class TooLargeError extends StoreError {
  override readonly name = 'TooLargeError';
  readonly code = 413;
  readonly reason = 'RequestEntityTooLarge' as const;
  readonly jsonBytes: number;
  readonly storedBytes: number;
  readonly limitBytes: number;
  constructor(ref: ObjectRef, jsonBytes: number, storedBytes: number, limitBytes: number) {
    super(
      `${formatKey(ref)} is too large to store: ${jsonBytes} bytes of JSON compress to ${storedBytes} bytes, ` +
        `over the ${limitBytes}-byte limit of one stored object; split the data across several objects ` +
        '(e.g. several ConfigMaps) or move it out of the control plane',
      ref,
    );
    this.jsonBytes = jsonBytes;
    this.storedBytes = storedBytes;
    this.limitBytes = limitBytes;
  }
}
