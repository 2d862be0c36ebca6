/**
 * PATCH (`endpoints/handlers/patch.go`): JSON, merge and strategic merge patches applied to the
 * latest version, and server-side apply, which may also create. A patch that loses a race with
 * another writer is applied again to the new version.
 */
import type { KubeObject, ObjectMeta } from '../../api/object.ts';
import { ApiError, apiErrors, type StatusCause } from '../base/errors.ts';
import { type KubeResponse, mediaType } from '../base/http.ts';
import { decodeJson, decodeYaml, deeperThan, tooDeepError } from '../base/request-guard.ts';
import { apiVersionOf, type ResourceDef } from '../catalog/resources.ts';
import { checkTypeMeta, isObject, withNamespace } from './body.ts';
import { type Context, fieldManagerOf, nowText, objectRef, storeOf } from './context.ts';
import { asServed, respondObjects } from './response.ts';
import type { FieldConflict } from '../base/types.ts';
import { persistCreate, persistUpdate, recordedFor } from './write.ts';

const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** How often a patch (or a scale) is applied to a newer version after losing a race. */
export const PATCH_ATTEMPTS = 5;

/** PATCH of a named object (or of its status). */
export async function patchObject(ctx: Context): Promise<KubeResponse> {
  const { def, req } = ctx;
  const type = mediaType(req.headers['content-type']);
  if (!PATCH_TYPES.includes(type))
    throw apiErrors.unsupportedMediaType(
      type,
      PATCH_TYPES.filter((t) => def.strategicMergePatch || !t.includes('strategic')),
    );
  const apply = type === 'application/apply-patch+yaml';
  const decodeError = (message: string) => `error decoding patch: ${message}`;
  const decoded = apply
    ? decodeYaml(req.body, 'the patch', { decodeError })
    : decodeJson(req.body, 'the patch', {
        decodeError,
        duplicates: ctx.fieldValidation !== 'Ignore' && type !== 'application/json-patch+json',
      });
  const patchDoc = decoded.value;
  ctx.duplicates = decoded.duplicates;
  const manager = apply ? req.query.get('fieldManager') : fieldManagerOf(ctx);
  if (apply && !manager) {
    throw apiErrors.badRequest(
      'PATCH requests of type application/apply-patch+yaml (server-side apply) must set the fieldManager query parameter',
    );
  }
  if (apply && !isObject(patchDoc)) throw apiErrors.badRequest('a server-side apply body must be an object');
  const force = req.query.get('force') === 'true';
  for (let attempt = 1; ; attempt++) {
    const current = await storeOf(ctx).get(objectRef(ctx, ctx.name!));
    try {
      if (apply) {
        const config = patchDoc as KubeObject;
        checkTypeMeta(ctx, config);
        const result = ctx.fields.apply({
          live: current ? asServed(def, current) : undefined,
          config: {
            ...config,
            metadata: {
              ...(config.metadata ?? {}),
              name: ctx.name!,
              ...(ctx.namespace ? { namespace: ctx.namespace } : {}),
            },
          },
          manager: manager!,
          force,
          schema: def.schema,
          apiVersion: apiVersionOf(def),
          now: nowText(ctx),
        });
        if ('conflicts' in result)
          throw applyConflict(def, ctx.name!, result.conflicts, ctx.fields.formatConflicts(result.conflicts));
        // Apply computed the object's managedFields itself: they are stored as they are.
        if (!current) {
          if (ctx.subresource) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
          const owned = result.object.metadata.managedFields ?? [];
          const created = await persistCreate(ctx, withNamespace(ctx, result.object), {
            managedFields: () => owned,
            exists: () => apiErrors.conflict(def.plural, def.group, ctx.name!, 'the object was created meanwhile'),
          });
          return respondObjects(ctx, 201, [created], undefined, true);
        }
        const next = {
          ...result.object,
          metadata: { ...result.object.metadata, resourceVersion: current.metadata.resourceVersion! },
        };
        const owned = next.metadata.managedFields ?? [];
        const updated = await persistUpdate(ctx, current, withNamespace(ctx, next), {
          managedFields: () => owned,
          notFound: 'store',
        });
        return respondObjects(ctx, 200, [updated], undefined, true);
      }
      if (!current) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
      const served = asServed(def, current);
      let patched: unknown;
      try {
        patched = ctx.patch.applyPatch(type, served, patchDoc, def.schema, {
          strategicAllowed: def.strategicMergePatch,
        });
      } catch (err) {
        throw patchError(err, def, ctx.name);
      }
      if (!isObject(patched)) throw apiErrors.badRequest('the patch did not produce an object');
      // A JSON patch may put a deep value at a deep path: the result meets the same limit as a body.
      if (deeperThan(patched)) throw tooDeepError('the patched object');
      const next = patched as KubeObject;
      next.metadata = { ...(isObject(next.metadata) ? (next.metadata as ObjectMeta) : {}) };
      if (next.metadata.name !== ctx.name)
        throw apiErrors.badRequest(`the patch may not change metadata.name (${ctx.name})`);
      if (!next.metadata.resourceVersion) next.metadata.resourceVersion = current.metadata.resourceVersion!;
      const updated = await persistUpdate(ctx, current, next, {
        managedFields: recordedFor(ctx, current, manager!),
        notFound: 'resource',
      });
      return respondObjects(ctx, 200, [updated], undefined, true);
    } catch (err) {
      // A patch applies to the latest version: retry it on a lost race, as the API server does,
      // unless the patch itself pinned a resourceVersion.
      const pinned =
        isObject(patchDoc) && isObject(patchDoc.metadata) && patchDoc.metadata.resourceVersion !== undefined;
      if (
        err instanceof ApiError &&
        err.reason === 'Conflict' &&
        !pinned &&
        attempt < PATCH_ATTEMPTS &&
        !err.details?.causes
      )
        continue;
      throw err;
    }
  }
}

function applyConflict(def: ResourceDef, name: string, conflicts: FieldConflict[], message: string): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with "${c.manager}" using ${apiVersionOf(def)}`,
    field: c.field,
  }));
  return new ApiError(409, 'Conflict', message, { name, group: def.group, kind: def.plural, causes });
}

/** A patch engine's failure as the API's answer (415, 422 or 400); anything else is rethrown. */
export function patchError(err: unknown, def: ResourceDef, name?: string): ApiError {
  const e = err as { code?: number; message?: string };
  const message = e?.message ?? String(err);
  if (e?.code === 415) {
    return new ApiError(415, 'UnsupportedMediaType', message);
  }
  // The object's name and the reason as a cause: kubectl prints `The <Kind> "<name>" is invalid: ...`
  // from these and drops the message, so without them a user sees neither what nor why.
  if (e?.code === 422) {
    return new ApiError(422, 'Invalid', message, {
      group: def.group,
      kind: def.kind,
      ...(name ? { name } : {}),
      causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
    });
  }
  if (e?.code === 400) return apiErrors.badRequest(message);
  throw err;
}
