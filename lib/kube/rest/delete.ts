/**
 * DELETE of one object and of a collection (`endpoints/handlers/delete.go`): DeleteOptions,
 * preconditions, and the garbage collector's finalizers for Foreground and Orphan deletes.
 */
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../api/finalizers.ts';
import type { KubeObject, ObjectRef } from '../../api/object.ts';
import { ConflictError, NotFoundError } from '../../store/errors.ts';
import type { DeleteResult } from '../../store/port.ts';
import { ApiError, apiErrors } from '../base/errors.ts';
import { matchesFields, parseFieldSelector } from './fieldselector.ts';
import { jsonResponse, type KubeResponse } from '../base/http.ts';
import { decodeJson } from '../base/request-guard.ts';
import { isObject } from './body.ts';
import { type Context, objectRef, storeOf } from './context.ts';
import { parseLabelSelector } from './read.ts';
import { asServed, respondObjects, warningHeaders } from './response.ts';

/**
 * Said on a Foreground delete to a server without a garbage collector (the member simulator):
 * dependents are kept and the owner goes at once, as with --cascade=orphan.
 */
const NO_GARBAGE_COLLECTOR =
  'foreground deletion is not supported by this server: it has no garbage collector, so objects whose ownerReferences name this one are kept (as with --cascade=orphan) and this object is deleted now';

/** What a delete asks for, from its DeleteOptions. */
interface DeleteOptions {
  propagationPolicy: string;
  /** The request named a policy (rather than taking the default). */
  explicitPolicy?: boolean;
  preconditions?: { resourceVersion?: string; uid?: string };
}

/** DELETE of a named object: a Status when it is gone, the object when finalizers keep it. */
export async function deleteObject(ctx: Context): Promise<KubeResponse> {
  const { def } = ctx;
  if (ctx.subresource) throw apiErrors.methodNotAllowed('DELETE', ctx.req.path);
  const options = deleteOptions(ctx);
  if (options.propagationPolicy === 'Foreground' && !ctx.backend.garbageCollection)
    ctx.warnings.push(NO_GARBAGE_COLLECTOR);
  const result = await deleteOne(ctx, ctx.name!, options);
  if (!result.removed) return respondObjects(ctx, 200, [result.object], undefined, true);
  return jsonResponse(
    200,
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: ctx.name, group: def.group, kind: def.plural, uid: result.object.metadata.uid },
    },
    warningHeaders(ctx),
  );
}

async function deleteOne(
  ctx: Context,
  name: string,
  options: DeleteOptions,
): Promise<{ object: KubeObject; removed: boolean }> {
  const { def } = ctx;
  const ref = objectRef(ctx, name);
  const current = await storeOf(ctx).get(ref);
  if (!current) throw apiErrors.notFound(def.plural, def.group, name);
  if (ctx.backend.admit) {
    await ctx.backend.admit({
      operation: 'DELETE',
      def,
      object: current,
      old: current,
      user: ctx.user,
      dryRun: ctx.dryRun,
    });
  }
  let preconditions = options.preconditions;
  let marked = false;
  if (ctx.backend.garbageCollection && !ctx.dryRun && !current.metadata.deletionTimestamp) {
    // Finalizers tell the garbage collector to delete (Foreground) or orphan the dependents first.
    const uid = await markForCollector(ctx, ref, name, current, options);
    if (uid !== undefined) {
      preconditions = { uid };
      marked = true;
    }
  }
  try {
    let result: DeleteResult | undefined;
    for (let attempt = 1; !result; attempt++) {
      try {
        result = await storeOf(ctx).delete(ref, {
          dryRun: ctx.dryRun,
          ...(preconditions ? { preconditions } : {}),
        });
      } catch (err) {
        // Marking made the caller's resourceVersion moot; a writer racing between the mark and the
        // delete is retried, as long as it is still the same object.
        if (!(
          marked &&
          err instanceof ConflictError &&
          err.current?.metadata.uid === preconditions?.uid &&
          attempt < 5
        ))
          throw err;
      }
    }
    if (!ctx.dryRun) {
      await ctx.backend.written?.({
        operation: 'DELETE',
        def,
        object: result.object,
        old: current,
        user: ctx.user,
        propagationPolicy: options.propagationPolicy,
        removed: result.removed,
      });
    }
    return { object: asServed(def, result.object), removed: result.removed };
  } catch (err) {
    if (err instanceof NotFoundError) throw apiErrors.notFound(def.plural, def.group, name);
    if (err instanceof ConflictError)
      throw apiErrors.conflict(
        def.plural,
        def.group,
        name,
        err.message.replace(/^Operation cannot be fulfilled on [^:]+: /, ''),
      );
    throw err;
  }
}

/** DELETE of a collection: every matching object, or none when a precondition fails on one. */
export async function deleteCollection(ctx: Context): Promise<KubeResponse> {
  const { def, req } = ctx;
  const options = deleteOptions(ctx);
  const fields = parseFieldSelector(req.query.get('fieldSelector') ?? '', def.group, def.kind);
  const labelSelector = req.query.get('labelSelector') ?? '';
  parseLabelSelector(labelSelector);
  // Every object first, so that preconditions are checked on all of them before any is deleted:
  // a collection delete whose preconditions do not hold deletes nothing.
  const targets: KubeObject[] = [];
  let token: string | undefined;
  do {
    const page = await storeOf(ctx).list({
      group: def.group,
      kind: def.kind,
      ...(ctx.namespace ? { namespace: ctx.namespace } : {}),
      ...(labelSelector ? { labelSelector } : {}),
      limit: 500,
      ...(token ? { continue: token } : {}),
    });
    targets.push(...page.items.filter((o) => matchesFields(o, fields)));
    token = page.continue;
  } while (token);
  const want = options.preconditions;
  if (want) {
    for (const obj of targets) {
      const failed = preconditionFailure(want, obj);
      if (failed) throw apiErrors.conflict(def.plural, def.group, obj.metadata.name ?? '', failed);
    }
  }
  let deleted = 0;
  for (const obj of targets) {
    try {
      await deleteOne({ ...ctx, namespace: obj.metadata.namespace }, obj.metadata.name!, {
        propagationPolicy: options.propagationPolicy,
        ...(want ? { preconditions: want } : {}),
      });
      deleted++;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }
  return jsonResponse(200, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { kind: def.plural, group: def.group, causes: [{ message: `${deleted} deleted` }] },
  });
}

/**
 * Sets the garbage collector's finalizers to what the delete asks for (`foregroundDeletion` or
 * `orphan`; an explicit Background removes them), after checking the caller's preconditions.
 * Returns the uid the delete must still find when it wrote (the caller's resourceVersion is then
 * spent), undefined when nothing needed changing. Retries writers racing with it.
 */
async function markForCollector(
  ctx: Context,
  ref: ObjectRef,
  name: string,
  first: KubeObject,
  options: DeleteOptions,
): Promise<string | undefined> {
  const { def } = ctx;
  const wanted = ({ Foreground: FOREGROUND_FINALIZER, Orphan: ORPHAN_FINALIZER } as Record<string, string>)[
    options.propagationPolicy
  ];
  const conflict = (detail: string) => apiErrors.conflict(def.plural, def.group, name, detail);
  for (let attempt = 1; attempt <= 5; attempt++) {
    const current = attempt === 1 ? first : await storeOf(ctx).get(ref);
    if (!current) throw apiErrors.notFound(def.plural, def.group, name);
    const failed = options.preconditions && preconditionFailure(options.preconditions, current);
    if (failed) throw conflict(failed);
    const uid = current.metadata.uid ?? '';
    if (current.metadata.deletionTimestamp) return undefined;
    const existing = current.metadata.finalizers ?? [];
    const kept = options.explicitPolicy
      ? existing.filter((f) => f === wanted || (f !== FOREGROUND_FINALIZER && f !== ORPHAN_FINALIZER))
      : existing;
    const finalizers = wanted && !kept.includes(wanted) ? [...kept, wanted] : kept;
    if (finalizers.length === existing.length && finalizers.every((f, i) => f === existing[i])) return undefined;
    try {
      await storeOf(ctx).update({ ...current, metadata: { ...current.metadata, finalizers } });
      return uid;
    } catch (err) {
      if (err instanceof NotFoundError) throw apiErrors.notFound(def.plural, def.group, name);
      if (!(err instanceof ConflictError)) throw err;
    }
  }
  throw conflict('the object kept changing while it was being marked for deletion; try again');
}

/**
 * DeleteOptions from the body and the query, decoded as strictly as kube-apiserver's typed decoder:
 * a body that is not an object, or a field of the wrong type (`preconditions: "x"`,
 * `gracePeriodSeconds: 1e400`), is a 400 before anything is deleted. `dryRun` in the body sets
 * `ctx.dryRun`.
 */
function deleteOptions(ctx: Context): DeleteOptions {
  const invalid = (detail: string) => apiErrors.badRequest(`error decoding DeleteOptions: ${detail}`);
  let body: Record<string, unknown> = {};
  if (ctx.req.body.length > 0) {
    const parsed = decodeJson(ctx.req.body, 'DeleteOptions').value;
    if (!isObject(parsed)) {
      throw invalid(
        `the body must be a DeleteOptions object, got ${Array.isArray(parsed) ? 'a list' : typeOf(parsed)}`,
      );
    }
    body = parsed;
  }
  if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
    throw invalid(`the body is a ${JSON.stringify(body.kind)}, not a DeleteOptions`);
  }
  const optionalString = (value: unknown, field: string): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw invalid(`${field} must be a string, got ${typeOf(value)}`);
    return value;
  };
  const grace = body.gracePeriodSeconds ?? ctx.req.query.get('gracePeriodSeconds') ?? undefined;
  if (grace !== undefined && grace !== null) {
    const n = typeof grace === 'string' && grace.trim() !== '' ? Number(grace) : grace;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
      const got =
        typeof grace === 'number' && !Number.isFinite(grace) ? 'a number out of range' : JSON.stringify(grace);
      throw invalid(`gracePeriodSeconds must be a whole number of seconds (int64), got ${got}`);
    }
  }
  if (
    body.orphanDependents !== undefined &&
    body.orphanDependents !== null &&
    typeof body.orphanDependents !== 'boolean'
  )
    throw invalid(`orphanDependents must be a boolean, got ${typeOf(body.orphanDependents)}`);
  const queryOrphan = ctx.req.query.get('orphanDependents');
  if (queryOrphan !== null && queryOrphan !== 'true' && queryOrphan !== 'false')
    throw apiErrors.badRequest(`orphanDependents must be true or false, got ${JSON.stringify(queryOrphan)}`);
  const orphan =
    typeof body.orphanDependents === 'boolean'
      ? body.orphanDependents
      : queryOrphan === null
        ? undefined
        : queryOrphan === 'true';
  const requested =
    optionalString(body.propagationPolicy, 'propagationPolicy') ?? ctx.req.query.get('propagationPolicy') ?? undefined;
  if (requested !== undefined && orphan !== undefined) {
    throw apiErrors.invalid('DeleteOptions', '', '', [
      {
        type: 'Invalid',
        field: 'propagationPolicy',
        value: requested,
        detail: 'orphanDependents and deletionPropagation cannot be both set',
      },
    ]);
  }
  const policy = requested ?? (orphan === true ? 'Orphan' : 'Background');
  if (!['Background', 'Foreground', 'Orphan'].includes(policy)) {
    throw apiErrors.badRequest(
      `propagationPolicy ${JSON.stringify(policy)} is not supported: use Background, Foreground or Orphan`,
    );
  }
  if (body.dryRun !== undefined && body.dryRun !== null) {
    if (!Array.isArray(body.dryRun) || !body.dryRun.every((v) => typeof v === 'string'))
      throw invalid(`dryRun must be a list of strings, got ${typeOf(body.dryRun)}`);
    const other = body.dryRun.find((v) => v !== 'All');
    if (other !== undefined)
      throw apiErrors.badRequest(`unsupported dryRun value ${JSON.stringify(other)}: the only value accepted is All`);
    if (body.dryRun.length > 0) ctx.dryRun = true;
  }
  let preconditions: { resourceVersion?: string; uid?: string } | undefined;
  if (body.preconditions !== undefined && body.preconditions !== null) {
    if (!isObject(body.preconditions))
      throw invalid(`preconditions must be an object, got ${typeOf(body.preconditions)}`);
    const uid = optionalString(body.preconditions.uid, 'preconditions.uid');
    const resourceVersion = optionalString(body.preconditions.resourceVersion, 'preconditions.resourceVersion');
    if (uid || resourceVersion)
      preconditions = { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) };
  }
  const explicitPolicy = requested !== undefined || orphan !== undefined;
  return { propagationPolicy: policy, explicitPolicy, ...(preconditions ? { preconditions } : {}) };
}

/** Why `obj` fails a delete's preconditions (kube-apiserver's wording), or undefined. */
function preconditionFailure(want: { resourceVersion?: string; uid?: string }, obj: KubeObject): string | undefined {
  if (want.uid && want.uid !== obj.metadata.uid) {
    return `the UID in the precondition (${want.uid}) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`;
  }
  if (want.resourceVersion && want.resourceVersion !== obj.metadata.resourceVersion) {
    return `the ResourceVersion in the precondition (${want.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`;
  }
  return undefined;
}

/** The JSON type of a value, for messages. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number out of range';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
