/**
 * GET of one object and of a collection (`endpoints/handlers/get.go`): label and field selectors,
 * paging, and `metadata.name=` answered by a get rather than a scan.
 */
import { InvalidSelectorError, matchesRequirements, parseSelector } from '../../api/labels.ts';
import { apiErrors } from '../base/errors.ts';
import { matchesFields, parseFieldSelector } from './fieldselector.ts';
import type { KubeResponse } from '../base/http.ts';
import { MAX_NAME_BYTES, MAX_NAMESPACE_BYTES, nameTooLong, namespaceTooLong } from '../base/request-guard.ts';
import { type Context, objectRef, storeOf } from './context.ts';
import { asServed, respondList, respondObjects } from './response.ts';

/** GET of a named object. */
export async function getObject(ctx: Context): Promise<KubeResponse> {
  const obj = await storeOf(ctx).get(objectRef(ctx, ctx.name!));
  if (!obj) throw apiErrors.notFound(ctx.def.plural, ctx.def.group, ctx.name!);
  return respondObjects(ctx, 200, [asServed(ctx.def, obj)], undefined, true);
}

/** GET of a collection (a list), in the URL's namespace or across all of them. */
export async function listObjects(ctx: Context): Promise<KubeResponse> {
  const { def, req } = ctx;
  const labelSelector = req.query.get('labelSelector') ?? '';
  const requirements = parseLabelSelector(labelSelector);
  const fields = parseFieldSelector(req.query.get('fieldSelector') ?? '', def.group, def.kind);
  const limitText = req.query.get('limit');
  const limit = limitText ? Number(limitText) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw apiErrors.badRequest(`limit must be a non-negative integer, got ${JSON.stringify(limitText)}`);
  }
  const token = req.query.get('continue') ?? undefined;
  const byName = fields.find((f) => f.field === 'metadata.name' && f.op === '=');
  const nsField = fields.find((f) => f.field === 'metadata.namespace' && f.op === '=');
  const namespace = ctx.namespace ?? nsField?.value;
  const rv = () => String(ctx.backend.clock.now() * 1000);
  // A name or namespace no object can have is a mistake worth saying, before any store call.
  if (byName && nameTooLong(byName.value)) {
    throw apiErrors.badRequest(
      `fieldSelector metadata.name is ${Buffer.byteLength(byName.value)} bytes; no object name is longer than ${MAX_NAME_BYTES}`,
    );
  }
  if (nsField && namespaceTooLong(nsField.value)) {
    throw apiErrors.badRequest(
      `fieldSelector metadata.namespace is ${Buffer.byteLength(nsField.value)} bytes; no namespace name is longer than ${MAX_NAMESPACE_BYTES}`,
    );
  }
  // metadata.name=x is a get, not a scan (when the namespace is known or the kind has none) — of
  // every copy where a store holds the name once per cluster: a list is never ambiguous.
  if (byName && !token && (!def.namespaced || namespace !== undefined)) {
    const store = storeOf(ctx);
    const ref = objectRef(ctx, byName.value, namespace);
    const found = store.getAll ? await store.getAll(ref) : [await store.get(ref)];
    const items = found.filter(
      (obj): obj is NonNullable<typeof obj> =>
        obj !== undefined && matchesRequirements(requirements, obj.metadata.labels) && matchesFields(obj, fields),
    );
    return respondList(ctx, items, { resourceVersion: rv() });
  }
  const page = await storeOf(ctx).list({
    group: def.group,
    kind: def.kind,
    ...(namespace ? { namespace } : {}),
    ...(labelSelector ? { labelSelector } : {}),
    ...(limit ? { limit } : {}),
    ...(token ? { continue: token } : {}),
  });
  const items = fields.length ? page.items.filter((o) => matchesFields(o, fields)) : page.items;
  return respondList(ctx, items, {
    resourceVersion: page.resourceVersion,
    ...(page.continue ? { continue: page.continue } : {}),
  });
}

/** Parses a label selector, answering 400 for a malformed one. */
export function parseLabelSelector(text: string): ReturnType<typeof parseSelector> {
  try {
    return parseSelector(text);
  } catch (err) {
    if (err instanceof InvalidSelectorError) throw apiErrors.badRequest(`unable to parse requirement: ${err.message}`);
    throw err;
  }
}
