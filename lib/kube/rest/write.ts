/**
 * POST and PUT (`endpoints/handlers/create.go`, `update.go`), and the write path every verb that
 * stores an object goes through: the API server's checks in order, managedFields, the store, and the
 * backend's `written` hook.
 */
import type { KubeObject } from '../../api/object.ts';
import { AlreadyExistsError, ConflictError, NotFoundError } from '../../store/errors.ts';
import { type ApiError, apiErrors } from '../base/errors.ts';
import type { FieldError } from '../base/field-errors.ts';
import { jsonResponse, type KubeResponse } from '../base/http.ts';
import { apiVersionOf } from '../catalog/resources.ts';
import { checkSchema, validateObjectMeta } from '../catalog/validation.ts';
import { checkTypeMeta, decodeBody, withNamespace } from './body.ts';
import { type Context, fieldManagerOf, nowText, objectRef, storeOf } from './context.ts';
import { asServed, respondObjects } from './response.ts';

/** POST to a collection: creates the object in the body (or answers a review). */
export async function createObject(ctx: Context): Promise<KubeResponse> {
  const { def } = ctx;
  if (ctx.subresource) throw apiErrors.methodNotAllowed('POST', ctx.req.path);
  const body = decodeBody(ctx);
  if (def.review) {
    checkTypeMeta(ctx, body);
    const answer = await def.review(body, {
      user: ctx.user,
      authorize: (attrs) => ctx.backend.authorize(ctx.user, attrs),
    });
    return jsonResponse(201, { ...answer, apiVersion: apiVersionOf(def), kind: def.kind });
  }
  const manager = fieldManagerOf(ctx);
  checkTypeMeta(ctx, body);
  const created = await persistCreate(ctx, withNamespace(ctx, body), {
    managedFields: recordedFor(ctx, undefined, manager),
    exists: (obj) => apiErrors.alreadyExists(def.plural, def.group, obj.metadata.name ?? ''),
  });
  return respondObjects(ctx, 201, [created], undefined, true);
}

/** PUT of a named object (or of its status): replaces it with the body. */
export async function updateObject(ctx: Context): Promise<KubeResponse> {
  const { def } = ctx;
  const body = decodeBody(ctx);
  checkTypeMeta(ctx, body);
  if (body.metadata?.name !== undefined && body.metadata.name !== ctx.name) {
    throw apiErrors.badRequest(
      `the name of the object (${body.metadata.name}) does not match the name on the URL (${ctx.name})`,
    );
  }
  const input = withNamespace(ctx, { ...body, metadata: { ...body.metadata, name: ctx.name! } });
  const current = await storeOf(ctx).get(objectRef(ctx, ctx.name!));
  if (!current) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
  // A PUT without resourceVersion is an unconditional update (allowed for these kinds).
  if (!input.metadata.resourceVersion) input.metadata.resourceVersion = current.metadata.resourceVersion!;
  const updated = await persistUpdate(ctx, current, input, {
    managedFields: recordedFor(ctx, current, fieldManagerOf(ctx)),
    notFound: 'resource',
  });
  return respondObjects(ctx, 200, [updated], undefined, true);
}

/**
 * The managedFields of an imperative write (create, update, patch, scale) by `manager`: the
 * field manager's update bookkeeping, given the object as it will be stored.
 */
export function recordedFor(
  ctx: Context,
  before: KubeObject | undefined,
  manager: string,
): (after: KubeObject) => unknown[] {
  const { def } = ctx;
  const status = ctx.subresource === 'status';
  return (after) =>
    ctx.fields.recordUpdate({
      before,
      after,
      manager,
      ...(status ? { subresource: 'status' as const } : {}),
      schema: def.schema,
      apiVersion: apiVersionOf(def),
      now: nowText(ctx),
    });
}

/** What differs between the creates that store a new object (POST and server-side apply). */
export interface CreateRules {
  /** The managedFields to store, given the object as it will be stored (checked and admitted). */
  managedFields(prepared: KubeObject): unknown[];
  /** The answer when the store already holds an object of that name. */
  exists(prepared: KubeObject): ApiError;
}

/**
 * Creates `input` (already in the URL's namespace): the write's checks and admission, managedFields,
 * the store, then the backend's `written` hook. Returns the object as served.
 */
export async function persistCreate(ctx: Context, input: KubeObject, rules: CreateRules): Promise<KubeObject> {
  const { def } = ctx;
  let obj = await prepare(ctx, 'CREATE', input, undefined);
  obj.metadata.managedFields = rules.managedFields(obj);
  obj = { ...obj, apiVersion: apiVersionOf(def) };
  try {
    const created = await storeOf(ctx).create(obj, { dryRun: ctx.dryRun });
    if (!ctx.dryRun)
      await ctx.backend.written?.({ operation: 'CREATE', def, object: created, old: undefined, user: ctx.user });
    return asServed(def, created);
  } catch (err) {
    if (err instanceof AlreadyExistsError) throw rules.exists(obj);
    throw err;
  }
}

/** What differs between the updates that store a new version (PUT, patch, scale, server-side apply). */
export interface UpdateRules {
  /** The managedFields to store, given the object as it will be stored (checked and admitted). */
  managedFields(prepared: KubeObject): unknown[];
  /**
   * The answer when the object is gone by the time the store writes: the resource's NotFound, or
   * the store's own error as it is (what server-side apply has always answered; kept so that its
   * answers do not change).
   */
  notFound: 'resource' | 'store';
}

/**
 * Stores `input` as the new version of `current` (or, on the status subresource, only its status):
 * the write's checks and admission, managedFields, the store at `input`'s resourceVersion, then the
 * backend's `written` hook. A lost race is a Conflict. Returns the object as served.
 */
export async function persistUpdate(
  ctx: Context,
  current: KubeObject,
  input: KubeObject,
  rules: UpdateRules,
): Promise<KubeObject> {
  const { def } = ctx;
  const status = ctx.subresource === 'status';
  let obj = await prepare(ctx, 'UPDATE', input, current);
  if (status) obj = { ...current, status: obj.status, metadata: { ...current.metadata } };
  obj.metadata.managedFields = rules.managedFields(obj);
  obj.metadata.resourceVersion = input.metadata.resourceVersion;
  obj = { ...obj, apiVersion: current.apiVersion };
  try {
    const store = storeOf(ctx);
    let updated: KubeObject;
    if (status) {
      // Status writes keep managedFields through a main-resource update only when something else changed.
      updated = await store.updateStatus(obj, { dryRun: ctx.dryRun });
    } else {
      updated = await store.update(obj, { dryRun: ctx.dryRun });
    }
    if (!ctx.dryRun) {
      await ctx.backend.written?.({
        operation: 'UPDATE',
        def,
        object: updated,
        old: current,
        user: ctx.user,
        ...(status ? { subresource: 'status' } : {}),
      });
    }
    return asServed(def, updated);
  } catch (err) {
    if (err instanceof ConflictError) {
      throw apiErrors.conflict(
        def.plural,
        def.group,
        ctx.name!,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    if (err instanceof NotFoundError && rules.notFound === 'resource') {
      throw apiErrors.notFound(def.plural, def.group, ctx.name!);
    }
    throw err;
  }
}

/** Refuses a create in a namespace that does not exist or is being deleted (NamespaceLifecycle). */
async function checkNamespace(ctx: Context, namespace: string | undefined): Promise<void> {
  if (!ctx.def.namespaced || !namespace || !ctx.backend.namespaceLifecycle) return;
  const ns = await ctx.backend.store.get({ group: '', kind: 'Namespace', name: namespace });
  if (!ns) throw apiErrors.notFound('namespaces', '', namespace, 'namespaces');
  const phase = (ns.status as { phase?: string } | undefined)?.phase;
  if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
    throw apiErrors.forbidden(`unable to create new content in namespace ${namespace} because it is being terminated`, {
      name: namespace,
      kind: 'namespaces',
    });
  }
}

/**
 * The checks of a write, in the API server's order: the schema (unknown fields per
 * fieldValidation, types, required, enums, defaults), metadata, the kind's defaults and
 * validation, then the backend's admission.
 */
async function prepare(
  ctx: Context,
  operation: 'CREATE' | 'UPDATE',
  input: KubeObject,
  old: KubeObject | undefined,
): Promise<KubeObject> {
  const { def } = ctx;
  // NamespaceLifecycle admission: every create (POST, PUT-create, server-side apply) needs a live namespace.
  if (operation === 'CREATE') await checkNamespace(ctx, input.metadata?.namespace);
  const name = input.metadata?.name ?? input.metadata?.generateName ?? '';
  const checked = checkSchema(input, def.schema);
  const strictErrors = [
    ...ctx.duplicates.map((f) => ({ field: f, message: `duplicate field "${f}"`, cause: 'duplicate field' })),
    ...checked.unknown.map((f) => ({ field: f, message: `unknown field "${f}"`, cause: 'unknown field' })),
  ];
  if (strictErrors.length > 0) {
    if (ctx.fieldValidation === 'Strict') {
      throw apiErrors.badRequest(
        `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: strict decoding error: ${strictErrors.map((e) => e.message).join(', ')}`,
        strictErrors.map((e) => ({ reason: 'FieldValueInvalid', message: e.cause, field: e.field })),
      );
    }
    if (ctx.fieldValidation === 'Warn') ctx.warnings.push(...strictErrors.map((e) => e.message));
  }
  // Reported once: a retried patch decodes its body once but prepares each attempt.
  ctx.duplicates = [];
  let obj = checked.value as KubeObject;
  const errors: FieldError[] = [...checked.errors, ...validateObjectMeta(obj, def.nameRule, def.namespaced)];
  if (errors.length) throw apiErrors.invalid(def.kind, def.group, name, errors);
  if (def.strategy?.default) {
    obj = def.strategy.default(obj, { operation, newUid: () => crypto.randomUUID(), now: nowText(ctx) });
  }
  if (ctx.backend.admit) {
    obj = await ctx.backend.admit({
      operation,
      def,
      object: obj,
      old,
      user: ctx.user,
      dryRun: ctx.dryRun,
      ...(ctx.subresource ? { subresource: ctx.subresource } : {}),
    });
  }
  const semantic = def.strategy?.validate?.(obj, old) ?? [];
  if (semantic.length) throw apiErrors.invalid(def.kind, def.group, name, semantic);
  return obj;
}
