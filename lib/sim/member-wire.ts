/**
 * The messages between local mode's main thread and the thread its simulated members run in
 * (member-thread.ts, member-worker.ts), and how an error crosses between them: a structured clone
 * keeps an error's message but not its class, and callers of a member's store tell a conflict from a
 * missing object by class (`instanceof ConflictError`), so store errors travel as data and are
 * rebuilt as the same classes on the other side.
 */
import type { KubeObject, ObjectRef } from '../api/object.ts';
import {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  InvalidObjectError,
  NotFoundError,
  TooLargeError,
} from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';
import type { WorkloadRef } from './controllers/index.ts';
import type { MemberOptions, RunningMember } from './member.ts';

/** What the worker needs to start a member (its clock is the system clock, its logger forwards lines). */
export type WorkerMemberOptions = Omit<MemberOptions, 'clock' | 'logger'>;

/** The store methods a handle forwards: every method of {@link ObjectStore}. */
export const STORE_METHODS = [
  'create',
  'get',
  'list',
  'listRefs',
  'listDependents',
  'update',
  'updateStatus',
  'updateWithStatus',
  'delete',
] as const satisfies readonly (keyof ObjectStore)[];
export type StoreMethod = (typeof STORE_METHODS)[number];

/** The member methods a handle forwards. */
export const MEMBER_METHODS = [
  'setFault',
  'recover',
  'markUnhealthy',
  'markHealthy',
  'resolveWorkload',
  'settle',
  'stop',
] as const satisfies readonly (keyof RunningMember)[];
export type MemberMethod = (typeof MEMBER_METHODS)[number];

/** Main thread → worker. Every request is answered once, with its id. */
export type MemberRequest =
  | { id: number; op: 'start'; options: WorkerMemberOptions }
  | { id: number; op: 'member'; member: string; method: MemberMethod; args: unknown[] }
  | { id: number; op: 'store'; member: string; method: StoreMethod; args: unknown[] };

/** What a started member reports back: what the handle answers synchronously from then on. */
export interface StartedMember {
  url: string;
  token: string;
  kubeconfig: string;
  /** Marks restored from the member's snapshot. */
  unhealthy: WorkloadRef[];
}

/** Worker → main thread: an answer, or a log line to write where the main thread writes its own. */
export type MemberReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError } | { log: string };

/** An error as data. */
export type WireError =
  | { kind: 'NotFound'; ref: ObjectRef }
  | { kind: 'AlreadyExists'; ref: ObjectRef; current: KubeObject | undefined }
  | { kind: 'Conflict'; ref: ObjectRef; current: KubeObject | undefined; message: string }
  | { kind: 'Invalid' | 'BadRequest'; message: string; ref: ObjectRef | undefined }
  | { kind: 'TooLarge'; ref: ObjectRef; jsonBytes: number; storedBytes: number; limitBytes: number }
  | { kind: 'Error'; name: string; message: string; stack: string | undefined; code: string | undefined };

export function encodeError(err: unknown): WireError {
  if (err instanceof NotFoundError) return { kind: 'NotFound', ref: err.ref! };
  if (err instanceof AlreadyExistsError) return { kind: 'AlreadyExists', ref: err.ref!, current: err.current };
  if (err instanceof ConflictError)
    return { kind: 'Conflict', ref: err.ref!, current: err.current, message: err.message };
  if (err instanceof InvalidObjectError) return { kind: 'Invalid', message: err.message, ref: err.ref };
  if (err instanceof BadRequestError) return { kind: 'BadRequest', message: err.message, ref: err.ref };
  if (err instanceof TooLargeError)
    return {
      kind: 'TooLarge',
      ref: err.ref!,
      jsonBytes: err.jsonBytes,
      storedBytes: err.storedBytes,
      limitBytes: err.limitBytes,
    };
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as NodeJS.ErrnoException).code;
  return { kind: 'Error', name: e.name, message: e.message, stack: e.stack, code };
}

/** The error {@link encodeError} encoded, as the same class; other errors keep name, message, code and stack. */
export function decodeError(wire: WireError): Error {
  switch (wire.kind) {
    case 'NotFound':
      return new NotFoundError(wire.ref);
    case 'AlreadyExists':
      return new AlreadyExistsError(wire.ref, wire.current);
    case 'Conflict': {
      const err = new ConflictError(wire.ref, wire.current, '');
      // The detail is not kept apart from the message; the message is what callers show.
      err.message = wire.message;
      return err;
    }
    case 'Invalid':
      return new InvalidObjectError(wire.message, wire.ref);
    case 'BadRequest':
      return new BadRequestError(wire.message, wire.ref);
    case 'TooLarge':
      return new TooLargeError(wire.ref, wire.jsonBytes, wire.storedBytes, wire.limitBytes);
    case 'Error': {
      const err: Error & { code?: string } = new Error(wire.message);
      err.name = wire.name;
      if (wire.code !== undefined) err.code = wire.code;
      if (wire.stack !== undefined) err.stack = wire.stack;
      return err;
    }
  }
}
