/**
 * The words of a Kubernetes request that the rest of `lib/kube` speaks too: who is calling, what
 * they ask for, and the engines a `RestHandler` is built with. Kept below the catalog
 * (`catalog/resources.ts`), which uses these types itself, and the REST layer (`rest/`), so that no
 * import cycle runs through either.
 */
import type { KubeObject } from '../../api/object.ts';
import type { Schema } from './schema.ts';

/** The authenticated caller (Kubernetes' user.Info, without extras). */
export interface UserInfo {
  name: string;
  groups: string[];
}

/** What is being asked, for authorization (Kubernetes' RequestAttributes). */
export interface RequestAttributes {
  verb: 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /**
   * Set for a non-resource request (`/version`, `/metrics`, `/logs/…`): its path, which is what is
   * authorized; `group` and `resource` are empty. Only the proxies forward such requests (to a member).
   */
  path?: string;
}

/** The write an admission or a write event is about (admission.Operation, without CONNECT). */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** Applies a JSON, merge or strategic merge patch (lib/kube/patch). */
export interface PatchEngine {
  applyPatch(
    contentType: string,
    doc: unknown,
    patch: unknown,
    schema: Schema | undefined,
    options: { strategicAllowed: boolean },
  ): unknown;
}

/** A field that server-side apply would take from another manager. */
export interface FieldConflict {
  manager: string;
  field: string;
}

/** Server-side apply and managedFields bookkeeping (lib/kube/apply). */
export interface FieldManager {
  apply(input: {
    live: KubeObject | undefined;
    config: KubeObject;
    manager: string;
    force: boolean;
    schema: Schema | undefined;
    apiVersion: string;
    now: string;
  }): { object: KubeObject } | { conflicts: FieldConflict[] };
  recordUpdate(input: {
    before: KubeObject | undefined;
    after: KubeObject;
    manager: string;
    subresource?: 'status';
    schema: Schema | undefined;
    apiVersion: string;
    now: string;
  }): unknown[];
  defaultManager(userAgent: string | undefined): string;
  formatConflicts(conflicts: FieldConflict[]): string;
}
