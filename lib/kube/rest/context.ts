/**
 * The one object every verb of the REST handler takes: the handler's parts (backend and engines)
 * and what the request asked for, resolved once by `handler.ts`. Verbs live in their own files
 * (`read.ts`, `write.ts`, ...) and share only this and the helpers here.
 */
import { rfc3339 } from '../../api/time.ts';
import type { ObjectRef } from '../../api/object.ts';
import type { ObjectStore } from '../../store/port.ts';
import { apiErrors } from '../base/errors.ts';
import type { KubeRequest } from '../base/http.ts';
import type { Catalog, ResourceDef } from '../catalog/resources.ts';
import { ViewStore } from '../catalog/view-store.ts';
import type { RestBackend } from './backend.ts';
import type { FieldManager, PatchEngine, UserInfo } from '../base/types.ts';

/** The `fieldValidation` query parameter: what unknown and duplicate fields in a body cause. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** One resource request, with the handler's parts it runs on. */
export interface Context {
  backend: RestBackend;
  patch: PatchEngine;
  fields: FieldManager;
  req: KubeRequest;
  user: UserInfo;
  def: ResourceDef;
  catalog: Catalog;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
  dryRun: boolean;
  fieldValidation: FieldValidation;
  /** Said to the client in `Warning` headers with the answer. */
  warnings: string[];
  /** Keys the body repeated (field paths), reported per fieldValidation like unknown fields. */
  duplicates: string[];
}

/** The store of the request's resource: the backend's, or a view of another kind's objects. */
export function storeOf(ctx: Context): ObjectStore {
  return ctx.def.view ? new ViewStore(ctx.backend.store, ctx.def.view) : ctx.backend.store;
}

/** The reference of object `name` of the request's kind (namespaced by the URL unless given). */
export function objectRef(ctx: Context, name: string, namespace = ctx.namespace): ObjectRef {
  return {
    group: ctx.def.group,
    kind: ctx.def.kind,
    ...(ctx.def.namespaced && namespace ? { namespace } : {}),
    name,
  };
}

/** The backend clock's time as RFC 3339, for managedFields and defaults. */
export function nowText(ctx: Context): string {
  return rfc3339(ctx.backend.clock.now());
}

/** The field manager of an imperative write: the `fieldManager` parameter, or one named after the client. */
export function fieldManagerOf(ctx: Context): string {
  const given = ctx.req.query.get('fieldManager');
  if (given !== null) {
    if (given.length > 128 || !/^[\x20-\x7e]+$/.test(given)) {
      throw apiErrors.badRequest('fieldManager must be 1 to 128 printable ASCII characters');
    }
    return given;
  }
  return ctx.fields.defaultManager(ctx.req.headers['user-agent']);
}
