/**
 * `/scale` of the kinds that declare where their replicas are (Deployments, ReplicaSets,
 * StatefulSets, CRDs with a scale subresource): a Scale view written back through the update path.
 */
import type { KubeObject } from '../../api/object.ts';
import { ApiError, apiErrors } from '../base/errors.ts';
import { jsonResponse, type KubeResponse, mediaType } from '../base/http.ts';
import { decodeJson, decodeYaml } from '../base/request-guard.ts';
import { isObject } from './body.ts';
import { type Context, fieldManagerOf, objectRef, storeOf } from './context.ts';
import { PATCH_ATTEMPTS, patchError } from './patch.ts';
import type { RequestAttributes } from '../base/types.ts';
import { persistUpdate, recordedFor } from './write.ts';

/**
 * The `scale` subresource (autoscaling/v1 Scale), as `kubectl scale` uses it: a view of the
 * object's replicas that can be read, replaced or patched (JSON or merge patch).
 */
export async function scale(ctx: Context, verb: RequestAttributes['verb']): Promise<KubeResponse> {
  const { def, req } = ctx;
  const paths = def.scale!;
  for (let attempt = 1; ; attempt++) {
    const current = await storeOf(ctx).get(objectRef(ctx, ctx.name!));
    if (!current) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
    const scaleOf = (o: KubeObject) => ({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: o.metadata.name,
        ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
        uid: o.metadata.uid,
        resourceVersion: o.metadata.resourceVersion,
        creationTimestamp: o.metadata.creationTimestamp,
      },
      spec: { replicas: Number(getPath(o, paths.specReplicasPath) ?? 0) },
      status: {
        replicas: Number(getPath(o, paths.statusReplicasPath) ?? 0),
        ...(paths.labelSelectorPath && getPath(o, paths.labelSelectorPath) !== undefined
          ? { selector: String(getPath(o, paths.labelSelectorPath)) }
          : {}),
      },
    });
    if (verb === 'get') return jsonResponse(200, scaleOf(current));
    let desired: unknown;
    try {
      if (verb === 'update') {
        desired = decodeJson(req.body, 'Scale').value;
      } else {
        const type = mediaType(req.headers['content-type']);
        const yaml = type === 'application/apply-patch+yaml' || type === 'application/strategic-merge-patch+json';
        const patch = yaml ? decodeYaml(req.body, 'the patch').value : decodeJson(req.body, 'the patch').value;
        desired = ctx.patch.applyPatch(
          yaml ? 'application/merge-patch+json' : type,
          scaleOf(current),
          patch,
          undefined,
          {
            strategicAllowed: false,
          },
        );
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw patchError(err, def, ctx.name);
    }
    const replicas = (desired as { spec?: { replicas?: unknown } }).spec?.replicas;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw apiErrors.invalid('Scale', 'autoscaling', ctx.name!, [
        { type: 'Invalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' },
      ]);
    }
    const next = structuredClone(current);
    setPath(next, paths.specReplicasPath, replicas);
    try {
      // Stored as an update of the object itself: admission and managedFields see no subresource.
      const whole = { ...ctx, subresource: undefined };
      const updated = await persistUpdate(whole, current, next, {
        managedFields: recordedFor(whole, current, fieldManagerOf(ctx)),
        notFound: 'resource',
      });
      return jsonResponse(200, scaleOf(updated));
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'Conflict' && attempt < PATCH_ATTEMPTS) continue;
      throw err;
    }
  }
}

function getPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const k of path.replace(/^\./, '').split('.')) cur = isObject(cur) ? cur[k] : undefined;
  return cur;
}

function setPath(obj: object, path: string, value: unknown): void {
  const keys = path.replace(/^\./, '').split('.');
  let cur = obj as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) {
    if (!isObject(cur[k])) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]!] = value;
}
