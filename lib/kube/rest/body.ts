/**
 * The object a create or update sends: decoded from JSON, YAML or kubectl's protobuf, and checked
 * against the URL it was sent to (kind, apiVersion, namespace). Size and nesting limits are the
 * request guard's (`../request-guard.ts`).
 */
import type { KubeObject, ObjectMeta } from '../../api/object.ts';
import { ApiError, apiErrors } from '../base/errors.ts';
import { mediaType } from '../base/http.ts';
import { decodeKubernetesProtobuf, ProtobufDecodeError } from '../protobuf/decode.ts';
import { decodeJson, decodeYaml, deeperThan, tooDeepError } from '../base/request-guard.ts';
import { apiVersionOf } from '../catalog/resources.ts';
import type { Context } from './context.ts';

const BODY_TYPES = ['application/json', 'application/yaml'];

/** A JSON object (not null, not a list). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The request body as an object of the request's kind, not yet checked against its schema. Keys it
 * repeats are left in `ctx.duplicates` for the write's field validation.
 */
export function decodeBody(ctx: Context): KubeObject {
  const type = mediaType(ctx.req.headers['content-type']) || 'application/json';
  if (type === 'application/vnd.kubernetes.protobuf') {
    // kubectl's imperative commands (create namespace/secret/deployment..., auth can-i) send
    // protobuf; the kinds they create are decoded, anything else is refused with what to do.
    try {
      const decoded = decodeKubernetesProtobuf(ctx.req.body);
      if (deeperThan(decoded)) throw tooDeepError(`the ${ctx.def.kind}`);
      return decoded as unknown as KubeObject;
    } catch (err) {
      if (!(err instanceof ProtobufDecodeError)) throw err;
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format (application/vnd.kubernetes.protobuf) - accepted media types include: application/json, application/yaml. ${err.message}`,
      );
    }
  }
  if (!BODY_TYPES.includes(type)) throw apiErrors.unsupportedMediaType(type, BODY_TYPES);
  const decodeError = (message: string) => `couldn't get version/kind; json parse error: ${message}`;
  const what = `the ${ctx.def.kind}`;
  const decoded =
    type === 'application/yaml'
      ? decodeYaml(ctx.req.body, what, { decodeError })
      : decodeJson(ctx.req.body, what, { decodeError, duplicates: ctx.fieldValidation !== 'Ignore' });
  const value = decoded.value;
  ctx.duplicates = decoded.duplicates;
  if (!isObject(value))
    throw apiErrors.badRequest(
      `the request body must be a ${ctx.def.kind} object, got ${Array.isArray(value) ? 'a list' : typeof value}`,
    );
  return value as unknown as KubeObject;
}

/** The body's apiVersion and kind must name this resource. */
export function checkTypeMeta(ctx: Context, body: KubeObject): void {
  const { def } = ctx;
  const expected = apiVersionOf(def);
  if (body.kind === undefined || body.kind === '') {
    throw apiErrors.badRequest(`Object 'Kind' is missing in the request body: set kind: ${def.kind}`);
  }
  if (body.apiVersion === undefined || body.apiVersion === '') {
    throw apiErrors.badRequest(`Object 'apiVersion' is missing in the request body: set apiVersion: ${expected}`);
  }
  if (body.kind !== def.kind) {
    throw apiErrors.badRequest(
      `the kind in the data (${body.kind}) does not match the expected kind (${def.kind}) of ${ctx.req.path}`,
    );
  }
  if (body.apiVersion !== expected) {
    throw apiErrors.badRequest(
      `the API version in the data (${body.apiVersion}) does not match the expected API version (${expected})`,
    );
  }
}

/** Sets the URL's namespace on the object (refusing a different one), or clears it when cluster-scoped. */
export function withNamespace(ctx: Context, body: KubeObject): KubeObject {
  const meta: ObjectMeta = isObject(body.metadata) ? { ...(body.metadata as ObjectMeta) } : {};
  if (ctx.def.namespaced) {
    if (meta.namespace && meta.namespace !== ctx.namespace) {
      throw apiErrors.badRequest(
        `the namespace of the provided object (${meta.namespace}) does not match the namespace sent on the request (${ctx.namespace})`,
      );
    }
    meta.namespace = ctx.namespace!;
  } else {
    delete meta.namespace;
  }
  return { ...body, metadata: meta };
}
