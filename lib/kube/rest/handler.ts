/**
 * The Kubernetes REST protocol over an `ObjectStore`: one handler, used by the control-plane API
 * (DynamoDB store, Lambda or local HTTPS) and by the member-cluster simulator (in-memory store).
 * What differs between them comes from the {@link RestBackend}.
 *
 * This file routes and authorizes, as `k8s.io/apiserver`'s `endpoints/installer.go` and filters do;
 * each verb is answered by its own file, as in `endpoints/handlers`.
 */
import type { Logger } from '../../observability/logger.ts';
import { StoreError } from '../../store/errors.ts';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryVersion,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  openApiDocument,
  openApiRoot,
  serverVersion,
} from '../catalog/discovery.ts';
import { aggregatedDiscoveryMediaType, type AggregatedDiscoveryVersion } from '../../api/aggregated-discovery.ts';
import type { Catalog } from '../catalog/resources.ts';
import { ApiError, apiErrors } from '../base/errors.ts';
import { jsonResponse, type KubeRequest, type KubeResponse, MAX_REQUEST_BYTES, mediaType } from '../base/http.ts';
import { parsePath, type Route } from '../base/paths.ts';
import { checkRequestPath, MAX_NAME_BYTES, nameTooLong, namespaceTooLong, shortened } from '../base/request-guard.ts';
import type { RestBackend } from './backend.ts';
import type { Context, FieldValidation } from './context.ts';
import { deleteCollection, deleteObject } from './delete.ts';
import { patchObject } from './patch.ts';
import { getObject, listObjects } from './read.ts';
import { scale } from './scale.ts';
import type { FieldManager, PatchEngine, RequestAttributes, UserInfo } from '../base/types.ts';
import { watch } from './watch.ts';
import { createObject, updateObject } from './write.ts';

/** Answers Kubernetes REST requests (discovery, OpenAPI and every verb on every resource) from a backend. */
export class RestHandler {
  readonly #backend: RestBackend;
  readonly #patch: PatchEngine;
  readonly #fields: FieldManager;
  readonly #logger: Logger | undefined;

  constructor(backend: RestBackend, engines: { patch: PatchEngine; fields: FieldManager; logger?: Logger }) {
    this.#backend = backend;
    this.#patch = engines.patch;
    this.#fields = engines.fields;
    this.#logger = engines.logger;
  }

  async handle(req: KubeRequest): Promise<KubeResponse> {
    try {
      if (req.body.length > MAX_REQUEST_BYTES) {
        throw apiErrors.tooLarge(`the request body is ${req.body.length} bytes; the limit is ${MAX_REQUEST_BYTES}`);
      }
      const pathError = checkRequestPath(req.path);
      if (pathError) throw pathError;
      const route = parsePath(req.path);
      if (route.type === 'health') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
      if (route.type === 'version') return jsonResponse(200, serverVersion(this.#backend.productVersion));
      const user = await this.#backend.authenticate(req);
      if (!user) throw apiErrors.unauthorized();
      return await this.#route(req, route, user);
    } catch (err) {
      return this.errorResponse(err, req);
    }
  }

  async #route(req: KubeRequest, route: Route, user: UserInfo): Promise<KubeResponse> {
    const productVersion = this.#backend.productVersion;
    if (route.type === 'resource') return this.#resource(req, route, user);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw apiErrors.methodNotAllowed(req.method, req.path);
    const catalog = await this.#backend.catalog();
    switch (route.type) {
      case 'legacy-versions':
      case 'groups': {
        const aggregated = aggregatedDiscoveryVersion(req.headers.accept);
        if (aggregated) return aggregatedResponse(req, catalog, route.type, aggregated);
        return jsonResponse(200, route.type === 'groups' ? apiGroupList(catalog) : apiVersions());
      }
      case 'group': {
        const g = apiGroup(catalog, route.group);
        if (!g) throw apiErrors.routeNotFound(req.path);
        return jsonResponse(200, g);
      }
      case 'resource-list': {
        const list = apiResourceList(catalog, route.group, route.version);
        if (!list) throw apiErrors.routeNotFound(req.path);
        return jsonResponse(200, list);
      }
      case 'openapi-root':
        return jsonResponse(200, openApiRoot(catalog, productVersion));
      case 'openapi-group-version': {
        const doc = openApiDocument(catalog, route.group, route.version, productVersion);
        if (!doc) throw apiErrors.routeNotFound(req.path);
        return jsonResponse(200, doc, { 'cache-control': 'public, immutable' });
      }
      default:
        throw apiErrors.routeNotFound(req.path);
    }
  }

  async #resource(
    req: KubeRequest,
    route: Extract<Route, { type: 'resource' }>,
    user: UserInfo,
  ): Promise<KubeResponse> {
    const catalog = await this.#backend.catalog();
    const def = catalog.byPlural(route.group, route.version, route.plural);
    if (!def) throw apiErrors.routeNotFound(req.path);
    if (!def.namespaced && route.namespace !== undefined) throw apiErrors.routeNotFound(req.path);
    const sub = route.subresource;
    if (sub !== undefined && !(sub === 'status' && def.statusSubresource) && !(sub === 'scale' && def.scale)) {
      throw apiErrors.routeNotFound(req.path);
    }
    const verb = verbOf(req.method, route.name !== undefined, req.query);
    if (!verb) throw apiErrors.methodNotAllowed(req.method, req.path);
    if (def.namespaced && route.namespace === undefined && verb !== 'list' && verb !== 'watch') {
      throw apiErrors.routeNotFound(req.path);
    }
    if (!def.verbs.includes(verb) && !(verb === 'watch' && def.verbs.includes('list'))) {
      throw apiErrors.methodNotAllowed(req.method, req.path);
    }
    const attrs: RequestAttributes = {
      verb,
      group: def.group,
      resource: def.plural,
      ...(sub ? { subresource: sub } : {}),
      ...(route.namespace !== undefined ? { namespace: route.namespace } : {}),
      ...(route.name !== undefined ? { name: route.name } : {}),
    };
    // Reviews of one's own identity and access are open to every authenticated user, as in Kubernetes.
    const allowed = def.review ? true : await this.#backend.authorize(user, attrs);
    if (allowed !== true) throw forbidden(user, attrs, allowed);

    const ctx: Context = {
      backend: this.#backend,
      patch: this.#patch,
      fields: this.#fields,
      req,
      user,
      def,
      catalog,
      namespace: route.namespace,
      name: route.name,
      subresource: sub,
      dryRun: parseDryRun(req.query),
      fieldValidation: parseFieldValidation(req.query),
      warnings: [],
      duplicates: [],
    };
    // A name or namespace longer than any Kubernetes object can have names nothing: answer without
    // asking the store (whose keys have size limits of their own).
    if (route.namespace !== undefined && namespaceTooLong(route.namespace)) {
      throw apiErrors.notFound('namespaces', '', shortened(route.namespace), 'namespaces');
    }
    if (route.name !== undefined && nameTooLong(route.name) && !def.review) {
      // Named in the answer by its start only: echoing an 8 KiB name back helps nobody.
      const shown = shortened(route.name);
      if (verb === 'patch' && mediaType(req.headers['content-type']) === 'application/apply-patch+yaml') {
        throw apiErrors.invalid(def.kind, def.group, shown, [
          {
            type: 'Invalid',
            field: 'metadata.name',
            value: shown,
            detail: `must be no more than ${MAX_NAME_BYTES} bytes`,
          },
        ]);
      }
      throw apiErrors.notFound(def.plural, def.group, shown);
    }
    if (sub === 'scale') return scale(ctx, verb);
    switch (verb) {
      case 'get':
        return getObject(ctx);
      case 'list':
        return listObjects(ctx);
      case 'watch':
        return watch(ctx);
      case 'create':
        return createObject(ctx);
      case 'update':
        return updateObject(ctx);
      case 'patch':
        return patchObject(ctx);
      case 'delete':
        return deleteObject(ctx);
      case 'deletecollection':
        return deleteCollection(ctx);
    }
  }

  /** The Status answer to a failure (an unexpected error is logged and answered 500). */
  errorResponse(err: unknown, req: KubeRequest): KubeResponse {
    let apiError: ApiError;
    if (err instanceof ApiError) apiError = err;
    else if (err instanceof StoreError)
      apiError = new ApiError(
        err.code,
        err.reason === 'RequestEntityTooLarge' ? 'RequestEntityTooLarge' : err.reason,
        err.message,
      );
    else {
      this.#logger?.error('request failed', { method: req.method, path: req.path, error: err as Error });
      apiError = apiErrors.internal((err as Error)?.message ?? String(err));
    }
    return jsonResponse(apiError.code, apiError.toStatus());
  }
}

/**
 * Aggregated discovery of `/api` or `/apis`, as kube-apiserver answers it: `Vary: Accept` (the same
 * URL answers the legacy documents to other clients), an ETag of the document, and 304 to a client
 * whose If-None-Match names it.
 */
function aggregatedResponse(
  req: KubeRequest,
  catalog: Catalog,
  route: 'legacy-versions' | 'groups',
  version: AggregatedDiscoveryVersion,
): KubeResponse {
  const { body, etag } = aggregatedDiscovery(catalog, route === 'groups' ? 'groups' : 'core', version);
  const headers = { 'content-type': aggregatedDiscoveryMediaType(version), vary: 'Accept', etag };
  if (req.headers['if-none-match'] === etag) return { status: 304, headers, body: '' };
  return { status: 200, headers, body };
}

/** The Kubernetes verb of a resource request (undefined: the method means nothing there). */
export function verbOf(method: string, named: boolean, query: URLSearchParams): RequestAttributes['verb'] | undefined {
  const watch = query.get('watch');
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (watch === 'true' || watch === '1') return 'watch';
      return named ? 'get' : 'list';
    case 'POST':
      return named ? undefined : 'create';
    case 'PUT':
      return named ? 'update' : undefined;
    case 'PATCH':
      return named ? 'patch' : undefined;
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

function parseDryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw apiErrors.badRequest(
    `unsupported dryRun value ${JSON.stringify(values.find((v) => v !== 'All'))}: the only value accepted is All`,
  );
}

function parseFieldValidation(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation');
  if (value === null || value === '') return 'Warn';
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  throw apiErrors.badRequest(`fieldValidation must be Ignore, Warn or Strict, got ${JSON.stringify(value)}`);
}

/** kube-apiserver's 403 for a request the authorizer denied. */
export function forbidden(user: UserInfo, attrs: RequestAttributes, reason: string): ApiError {
  if (attrs.path !== undefined) {
    // kube-apiserver's wording for a non-resource URL.
    return apiErrors.forbidden(
      `forbidden: User "${user.name}" cannot ${attrs.verb} path ${JSON.stringify(attrs.path)}${reason ? `: ${reason}` : ''}`,
    );
  }
  const resource = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const what = attrs.name ? `${resource} "${attrs.name}"` : resource;
  const scope = attrs.namespace ? ` in the namespace "${attrs.namespace}"` : attrs.name ? '' : ' at the cluster scope';
  return apiErrors.forbidden(
    `${what} is forbidden: User "${user.name}" cannot ${attrs.verb} resource "${attrs.resource}${attrs.subresource ? `/${attrs.subresource}` : ''}" in API group "${attrs.group}"${scope}${reason ? `: ${reason}` : ''}`,
    { ...(attrs.name ? { name: attrs.name } : {}), group: attrs.group, kind: attrs.resource },
  );
}
