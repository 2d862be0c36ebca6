/**
 * How the REST handler answers with objects: one object or a list, as JSON or as the Table
 * `kubectl get` asks for, with the request's warnings as `Warning` headers.
 */
import type { KubeObject } from '../../api/object.ts';
import { apiErrors } from '../base/errors.ts';
import { jsonResponse, type KubeResponse, parseAccept } from '../base/http.ts';
import { apiVersionOf, type ResourceDef } from '../catalog/resources.ts';
import { type IncludeObject, toTable } from '../catalog/table.ts';
import type { Context } from './context.ts';

/** The object as the requested version serves it. */
export function asServed(def: ResourceDef, obj: KubeObject): KubeObject {
  return { ...obj, apiVersion: apiVersionOf(def), kind: def.kind };
}

/** The request's warnings as a `Warning` header (none when there are none). */
export function warningHeaders(ctx: Context): Record<string, string> {
  if (ctx.warnings.length === 0) return {};
  // Header values must be Latin-1 (Node refuses more, API Gateway varies): control characters go,
  // other characters outside printable ASCII are written as \uXXXX escapes.
  const text = (w: string) =>
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    JSON.stringify(w.replace(/[\u0000-\u001f\u007f]/g, '')).replace(
      /[^\u0020-\u007e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return { warning: ctx.warnings.map((w) => `299 - ${text(w)}`).join(', ') };
}

/** A list of stored objects, served as the requested version. */
export function respondList(
  ctx: Context,
  items: KubeObject[],
  listMeta: { resourceVersion?: string; continue?: string },
): KubeResponse {
  return respondObjects(
    ctx,
    200,
    items.map((o) => asServed(ctx.def, o)),
    listMeta,
    false,
  );
}

/** One object or a list, as JSON or as a Table when the client asked for one. */
export function respondObjects(
  ctx: Context,
  status: number,
  items: KubeObject[],
  listMeta: { resourceVersion?: string; continue?: string } | undefined,
  single: boolean,
): KubeResponse {
  const accept = parseAccept(ctx.req.headers.accept);
  const wantsTable = accept.some((a) => a.params.as === 'Table');
  const headers = warningHeaders(ctx);
  if (wantsTable) {
    const include = (ctx.req.query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
    const table = toTable(ctx.def, items, {
      nowMs: ctx.backend.clock.now(),
      includeObject: include,
      ...(listMeta ? { listMeta } : {}),
    });
    return jsonResponse(status, table, {
      ...headers,
      'content-type': 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
  }
  const acceptable = accept.some(
    (a) => a.type === '*/*' || a.type === 'application/json' || a.type === 'application/*',
  );
  if (!acceptable) throw apiErrors.notAcceptable(['application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io']);
  if (single) return jsonResponse(status, items[0], headers);
  return jsonResponse(
    status,
    { kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: listMeta ?? {}, items },
    headers,
  );
}
