/**
 * The port a `RestHandler` serves through. The control-plane API (DynamoDB store, Lambda or
 * local HTTPS) and the member-cluster simulator (in-memory store) share the handler; what differs
 * between them — the catalog, authentication, admission, what happens after a write — is their
 * {@link RestBackend}.
 */
import type { KubeObject } from '../../api/object.ts';
import type { Clock } from '../../clock/clock.ts';
import type { ObjectStore } from '../../store/port.ts';
import type { ChangeFeed } from '../../store/watch.ts';
import type { KubeRequest } from '../base/http.ts';
import type { Catalog, ResourceDef } from '../catalog/resources.ts';
import type { Operation, RequestAttributes, UserInfo } from '../base/types.ts';

/** A write offered to the backend's admission before it is stored. */
export interface AdmissionInput {
  operation: Operation;
  def: ResourceDef;
  object: KubeObject;
  old: KubeObject | undefined;
  user: UserInfo;
  dryRun: boolean;
  subresource?: string;
}

/** A write the store has made, told to the backend (which enqueues the controllers it concerns). */
export interface WriteEvent {
  operation: Operation;
  def: ResourceDef;
  object: KubeObject;
  old: KubeObject | undefined;
  user: UserInfo;
  subresource?: string;
  /** DELETE: `Background` (default), `Foreground` or `Orphan`. */
  propagationPolicy?: string;
  /** DELETE: the object is gone (false: marked for deletion, finalizers pending). */
  removed?: boolean;
}

/** Everything a `RestHandler` needs from the server it runs in. */
export interface RestBackend {
  productVersion: string;
  store: ObjectStore;
  clock: Clock;
  catalog(): Promise<Catalog>;
  /** Who is calling, or undefined (401). */
  authenticate(req: KubeRequest): Promise<UserInfo | undefined>;
  /** `true`, or the reason it is denied (403). */
  authorize(user: UserInfo, attrs: RequestAttributes): Promise<true | string>;
  /** Mutating + validating admission after the built-in checks; throw ApiError to refuse. */
  admit?(input: AdmissionInput): Promise<KubeObject>;
  /** After a successful (not dry-run) write. */
  written?(event: WriteEvent): Promise<void>;
  /** Namespaced objects may only be created in an existing, non-terminating Namespace. */
  namespaceLifecycle: boolean;
  /**
   * A garbage collector acts on ownerReferences: Foreground and Orphan deletes mark the object with
   * the `foregroundDeletion` / `orphan` finalizer for it. Without one they are refused with a warning.
   */
  garbageCollection?: boolean;
  /** Every write of this store, for watches; without it, watch requests are refused (405). */
  changes?: ChangeFeed;
}
