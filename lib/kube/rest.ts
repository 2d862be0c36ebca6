/**
 * The Kubernetes REST protocol over an {@link ObjectStore}: one handler, used by the control-plane
 * API (DynamoDB store, Lambda or local HTTPS) and by the member-cluster simulator (in-memory store).
 * What differs between them — the catalog, authentication, admission, what happens after a write —
 * comes from the {@link RestBackend}.
 */
import { rfc3339 } from '../api/time.ts';
import { InvalidSelectorError, matchesRequirements, parseSelector } from '../api/labels.ts';
import type { KubeObject, ObjectMeta, ObjectRef } from '../api/object.ts';
import type { Logger } from '../observability/logger.ts';
import { AlreadyExistsError, ConflictError, NotFoundError, StoreError } from '../store/errors.ts';
import type { DeleteResult } from '../store/port.ts';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../api/finalizers.ts';
import type { ObjectStore } from '../store/port.ts';
import { type ChangeEvent, HistoryExpiredError, type Subscription } from '../store/watch.ts';
import { formatKey, refOf } from '../api/object.ts';
import {
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  openApiDocument,
  openApiRoot,
  serverVersion,
} from './discovery.ts';
import { ApiError, apiErrors, type StatusCause } from './errors.ts';
import type { FieldError } from './field-errors.ts';
import { matchesFields, parseFieldSelector } from './fieldselector.ts';
import {
  jsonResponse,
  type KubeRequest,
  type KubeResponse,
  MAX_REQUEST_BYTES,
  mediaType,
  parseAccept,
} from './http.ts';
import { parsePath, type Route } from './paths.ts';
import { apiVersionOf, type Catalog, type ResourceDef } from './resources.ts';
import { type IncludeObject, toTable } from './table.ts';
import {
  checkRequestPath,
  decodeJson,
  decodeYaml,
  deeperThan,
  MAX_NAME_BYTES,
  MAX_NAMESPACE_BYTES,
  nameTooLong,
  namespaceTooLong,
  shortened,
  tooDeepError,
} from './request-guard.ts';
import { checkSchema, validateObjectMeta } from './validation.ts';
import { ViewStore } from './view-store.ts';
import { decodeKubernetesProtobuf, ProtobufDecodeError } from './protobuf/decode.ts';
import type { RestBackend } from './rest/backend.ts';
import type { FieldConflict, FieldManager, PatchEngine, RequestAttributes, UserInfo } from './rest/types.ts';

export type { AdmissionInput, RestBackend, WriteEvent } from './rest/backend.ts';
export type { FieldConflict, FieldManager, Operation, PatchEngine, RequestAttributes, UserInfo } from './rest/types.ts';

const BODY_TYPES = ['application/json', 'application/yaml'];
const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
const PATCH_ATTEMPTS = 5;

type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

interface Context {
  req: KubeRequest;
  user: UserInfo;
  def: ResourceDef;
  catalog: Catalog;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
  dryRun: boolean;
  fieldValidation: FieldValidation;
  warnings: string[];
  /** Keys the body repeated (field paths), reported per fieldValidation like unknown fields. */
  duplicates: string[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Said on a Foreground delete to a server without a garbage collector (the member simulator):
 * dependents are kept and the owner goes at once, as with --cascade=orphan.
 */
const NO_GARBAGE_COLLECTOR =
  'foreground deletion is not supported by this server: it has no garbage collector, so objects whose ownerReferences name this one are kept (as with --cascade=orphan) and this object is deleted now';

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
      return this.#errorResponse(err, req);
    }
  }

  async #route(req: KubeRequest, route: Route, user: UserInfo): Promise<KubeResponse> {
    const productVersion = this.#backend.productVersion;
    if (route.type === 'resource') return this.#resource(req, route, user);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw apiErrors.methodNotAllowed(req.method, req.path);
    const catalog = await this.#backend.catalog();
    switch (route.type) {
      case 'legacy-versions':
        return jsonResponse(200, apiVersions());
      case 'groups':
        return jsonResponse(200, apiGroupList(catalog));
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
    if (sub === 'scale') return this.#scale(ctx, verb);
    switch (verb) {
      case 'get':
        return this.#get(ctx);
      case 'list':
        return this.#list(ctx);
      case 'watch':
        return this.#watch(ctx);
      case 'create':
        return this.#create(ctx);
      case 'update':
        return this.#update(ctx);
      case 'patch':
        return this.#patchVerb(ctx);
      case 'delete':
        return this.#delete(ctx);
      case 'deletecollection':
        return this.#deleteCollection(ctx);
    }
  }

  // ---------------------------------------------------------------------------------------- reads

  async #get(ctx: Context): Promise<KubeResponse> {
    const obj = await this.#store(ctx.def).get(this.#ref(ctx, ctx.name!));
    if (!obj) throw apiErrors.notFound(ctx.def.plural, ctx.def.group, ctx.name!);
    return this.#respondObjects(ctx, 200, [this.#asServed(ctx.def, obj)], undefined, true);
  }

  async #list(ctx: Context): Promise<KubeResponse> {
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
    const rv = () => String(this.#backend.clock.now() * 1000);
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
    // metadata.name=x is a get, not a scan (when the namespace is known or the kind has none).
    if (byName && !token && (!def.namespaced || namespace !== undefined)) {
      const obj = await this.#store(ctx.def).get(this.#ref(ctx, byName.value, namespace));
      const items =
        obj && matchesRequirements(requirements, obj.metadata.labels) && matchesFields(obj, fields) ? [obj] : [];
      return this.#respondList(ctx, items, { resourceVersion: rv() });
    }
    const page = await this.#store(def).list({
      group: def.group,
      kind: def.kind,
      ...(namespace ? { namespace } : {}),
      ...(labelSelector ? { labelSelector } : {}),
      ...(limit ? { limit } : {}),
      ...(token ? { continue: token } : {}),
    });
    const items = fields.length ? page.items.filter((o) => matchesFields(o, fields)) : page.items;
    return this.#respondList(ctx, items, {
      resourceVersion: page.resourceVersion,
      ...(page.continue ? { continue: page.continue } : {}),
    });
  }

  /**
   * A watch: events of the kind after `resourceVersion` (or the current objects as ADDED first, when
   * none is given), filtered by namespace, labels and fields, streamed one JSON event per line until
   * `timeoutSeconds`. An object that stops matching the selectors is DELETED from the watcher's view.
   */
  async #watch(ctx: Context): Promise<KubeResponse> {
    const { def, req } = ctx;
    const feed = this.#backend.changes;
    if (!feed) {
      throw new ApiError(
        405,
        'MethodNotAllowed',
        'watch is not available on this server (the AWS API has no streaming): list again to see changes, ' +
          'and pass --wait=false to kubectl delete',
      );
    }
    const requirements = parseLabelSelector(req.query.get('labelSelector') ?? '');
    const fields = parseFieldSelector(req.query.get('fieldSelector') ?? '', def.group, def.kind);
    if (ctx.name) fields.push({ field: 'metadata.name', op: '=', value: ctx.name });
    const timeoutSeconds = Math.min(Number(req.query.get('timeoutSeconds') ?? 1800) || 1800, 3600);
    const rvParam = req.query.get('resourceVersion');
    const gk = { group: def.group, kind: def.kind };
    const storedAs = def.view?.storage ?? gk;
    const served = (o: KubeObject) => (def.view ? def.view.fromStorage(o) : o);
    const matches = (o: KubeObject) =>
      (!ctx.namespace || o.metadata.namespace === ctx.namespace) &&
      matchesRequirements(requirements, o.metadata.labels) &&
      matchesFields(o, fields);

    let sub: Subscription;
    let initial: KubeObject[] = [];
    if (!rvParam || rvParam === '0') {
      sub = feed.subscribe(storedAs, this.#backend.clock.now() * 1000 - 1);
      let token: string | undefined;
      do {
        const page = await this.#store(def).list({
          ...gk,
          ...(ctx.namespace ? { namespace: ctx.namespace } : {}),
          limit: 500,
          ...(token ? { continue: token } : {}),
        });
        initial.push(...page.items);
        token = page.continue;
      } while (token);
      initial = initial.filter(matches);
    } else {
      const since = Number(rvParam);
      if (!Number.isFinite(since)) throw apiErrors.badRequest(`invalid resourceVersion ${JSON.stringify(rvParam)}`);
      try {
        sub = feed.subscribe(storedAs, since);
      } catch (err) {
        if (err instanceof HistoryExpiredError) throw new ApiError(410, 'Gone', err.message);
        throw err;
      }
    }
    const wantsTable = parseAccept(req.headers.accept).some((a) => a.params.as === 'Table');
    const include = (req.query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
    const now = () => this.#backend.clock.now();
    const render = (type: string, obj: KubeObject) => {
      const served = this.#asServed(def, obj);
      const object = wantsTable ? toTable(def, [served], { nowMs: now(), includeObject: include }) : served;
      return `${JSON.stringify({ type, object })}\n`;
    };
    const deadline = AbortSignal.timeout(timeoutSeconds * 1000);
    async function* events(): AsyncGenerator<string> {
      const shown = new Map<string, number>();
      const seen = new Map<string, number>();
      try {
        for (const o of initial) {
          const key = formatKey(refOf(o));
          const version = Number(o.metadata.resourceVersion);
          seen.set(key, version);
          shown.set(key, version);
          yield render('ADDED', o);
        }
        const handle = function* (changes: ChangeEvent[]): Generator<string> {
          for (const change of changes) {
            const e = { ...change, object: served(change.object) };
            const key = formatKey(refOf(e.object));
            if (e.version <= (seen.get(key) ?? -1)) continue;
            seen.set(key, e.version);
            if (e.type === 'DELETED') {
              // The client may know the object from its list, not from this stream: report every
              // deletion of a matching object.
              if (shown.delete(key) || matches(e.object)) yield render('DELETED', e.object);
            } else if (matches(e.object)) {
              yield render(shown.has(key) ? 'MODIFIED' : 'ADDED', e.object);
              shown.set(key, e.version);
            } else if (shown.delete(key)) {
              yield render('DELETED', e.object);
            }
          }
        };
        yield* handle(sub.backlog);
        while (!deadline.aborted) {
          const batch = await sub.next(deadline);
          if (batch.length === 0) break;
          yield* handle(batch);
        }
      } finally {
        sub.close();
      }
    }
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '', stream: events() };
  }

  /**
   * The `scale` subresource (autoscaling/v1 Scale), as `kubectl scale` uses it: a view of the
   * object's replicas that can be read, replaced or patched (JSON or merge patch).
   */
  async #scale(ctx: Context, verb: RequestAttributes['verb']): Promise<KubeResponse> {
    const { def, req } = ctx;
    const paths = def.scale!;
    for (let attempt = 1; ; attempt++) {
      const current = await this.#store(ctx.def).get(this.#ref(ctx, ctx.name!));
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
          desired = this.#patch.applyPatch(
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
        throw patchError(err, def);
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
        const updated = await this.#updateObject({ ...ctx, subresource: undefined }, current, next, this.#manager(ctx));
        return jsonResponse(200, scaleOf(updated));
      } catch (err) {
        if (err instanceof ApiError && err.reason === 'Conflict' && attempt < PATCH_ATTEMPTS) continue;
        throw err;
      }
    }
  }

  // --------------------------------------------------------------------------------------- writes

  async #create(ctx: Context): Promise<KubeResponse> {
    if (ctx.subresource) throw apiErrors.methodNotAllowed('POST', ctx.req.path);
    const body = this.#decodeBody(ctx);
    if (ctx.def.review) {
      this.#checkTypeMeta(ctx, body);
      const answer = await ctx.def.review(body, {
        user: ctx.user,
        authorize: (attrs) => this.#backend.authorize(ctx.user, attrs),
      });
      return jsonResponse(201, { ...answer, apiVersion: apiVersionOf(ctx.def), kind: ctx.def.kind });
    }
    const created = await this.#createObject(ctx, body);
    return this.#respondObjects(ctx, 201, [created], undefined, true);
  }

  async #createObject(ctx: Context, body: KubeObject, manager = this.#manager(ctx)): Promise<KubeObject> {
    const { def } = ctx;
    this.#checkTypeMeta(ctx, body);
    const input = this.#withNamespace(ctx, body);
    let obj = await this.#prepare(ctx, 'CREATE', input, undefined);
    obj.metadata.managedFields = this.#fields.recordUpdate({
      before: undefined,
      after: obj,
      manager,
      schema: def.schema,
      apiVersion: apiVersionOf(def),
      now: this.#now(),
    });
    obj = { ...obj, apiVersion: apiVersionOf(def) };
    try {
      const created = await this.#store(def).create(obj, { dryRun: ctx.dryRun });
      if (!ctx.dryRun)
        await this.#backend.written?.({ operation: 'CREATE', def, object: created, old: undefined, user: ctx.user });
      return this.#asServed(def, created);
    } catch (err) {
      if (err instanceof AlreadyExistsError)
        throw apiErrors.alreadyExists(def.plural, def.group, obj.metadata.name ?? '');
      throw err;
    }
  }

  async #update(ctx: Context): Promise<KubeResponse> {
    const { def } = ctx;
    const body = this.#decodeBody(ctx);
    this.#checkTypeMeta(ctx, body);
    if (body.metadata?.name !== undefined && body.metadata.name !== ctx.name) {
      throw apiErrors.badRequest(
        `the name of the object (${body.metadata.name}) does not match the name on the URL (${ctx.name})`,
      );
    }
    const input = this.#withNamespace(ctx, { ...body, metadata: { ...body.metadata, name: ctx.name! } });
    const current = await this.#store(ctx.def).get(this.#ref(ctx, ctx.name!));
    if (!current) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
    // A PUT without resourceVersion is an unconditional update (allowed for these kinds).
    if (!input.metadata.resourceVersion) input.metadata.resourceVersion = current.metadata.resourceVersion!;
    const updated = await this.#updateObject(ctx, current, input, this.#manager(ctx));
    return this.#respondObjects(ctx, 200, [updated], undefined, true);
  }

  /** Validates, records field ownership and stores `input` as the new version of `current`. */
  async #updateObject(ctx: Context, current: KubeObject, input: KubeObject, manager: string): Promise<KubeObject> {
    const { def } = ctx;
    const status = ctx.subresource === 'status';
    let obj = await this.#prepare(ctx, 'UPDATE', input, current);
    if (status) obj = { ...current, status: obj.status, metadata: { ...current.metadata } };
    obj.metadata.managedFields = this.#fields.recordUpdate({
      before: current,
      after: obj,
      manager,
      ...(status ? { subresource: 'status' as const } : {}),
      schema: def.schema,
      apiVersion: apiVersionOf(def),
      now: this.#now(),
    });
    obj.metadata.resourceVersion = input.metadata.resourceVersion;
    obj = { ...obj, apiVersion: current.apiVersion };
    try {
      const store = this.#store(def);
      let updated: KubeObject;
      if (status) {
        // Status writes keep managedFields through a main-resource update only when something else changed.
        updated = await store.updateStatus(obj, { dryRun: ctx.dryRun });
      } else {
        updated = await store.update(obj, { dryRun: ctx.dryRun });
      }
      if (!ctx.dryRun) {
        await this.#backend.written?.({
          operation: 'UPDATE',
          def,
          object: updated,
          old: current,
          user: ctx.user,
          ...(status ? { subresource: 'status' } : {}),
        });
      }
      return this.#asServed(def, updated);
    } catch (err) {
      if (err instanceof ConflictError) {
        throw apiErrors.conflict(
          def.plural,
          def.group,
          ctx.name!,
          'the object has been modified; please apply your changes to the latest version and try again',
        );
      }
      if (err instanceof NotFoundError) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
      throw err;
    }
  }

  async #patchVerb(ctx: Context): Promise<KubeResponse> {
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
    const manager = apply ? req.query.get('fieldManager') : this.#manager(ctx);
    if (apply && !manager) {
      throw apiErrors.badRequest(
        'PATCH requests of type application/apply-patch+yaml (server-side apply) must set the fieldManager query parameter',
      );
    }
    if (apply && !isObject(patchDoc)) throw apiErrors.badRequest('a server-side apply body must be an object');
    const force = req.query.get('force') === 'true';
    for (let attempt = 1; ; attempt++) {
      const current = await this.#store(ctx.def).get(this.#ref(ctx, ctx.name!));
      try {
        if (apply) {
          const config = patchDoc as KubeObject;
          this.#checkTypeMeta(ctx, config);
          const result = this.#fields.apply({
            live: current ? this.#asServed(def, current) : undefined,
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
            now: this.#now(),
          });
          if ('conflicts' in result)
            throw applyConflict(def, ctx.name!, result.conflicts, this.#fields.formatConflicts(result.conflicts));
          if (!current) {
            if (ctx.subresource) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
            const created = await this.#createApplied(ctx, result.object);
            return this.#respondObjects(ctx, 201, [created], undefined, true);
          }
          const next = {
            ...result.object,
            metadata: { ...result.object.metadata, resourceVersion: current.metadata.resourceVersion! },
          };
          const updated = await this.#updateApplied(ctx, current, next);
          return this.#respondObjects(ctx, 200, [updated], undefined, true);
        }
        if (!current) throw apiErrors.notFound(def.plural, def.group, ctx.name!);
        const served = this.#asServed(def, current);
        let patched: unknown;
        try {
          patched = this.#patch.applyPatch(type, served, patchDoc, def.schema, {
            strategicAllowed: def.strategicMergePatch,
          });
        } catch (err) {
          throw patchError(err, def);
        }
        if (!isObject(patched)) throw apiErrors.badRequest('the patch did not produce an object');
        // A JSON patch may put a deep value at a deep path: the result meets the same limit as a body.
        if (deeperThan(patched)) throw tooDeepError('the patched object');
        const next = patched as KubeObject;
        next.metadata = { ...(isObject(next.metadata) ? (next.metadata as ObjectMeta) : {}) };
        if (next.metadata.name !== ctx.name)
          throw apiErrors.badRequest(`the patch may not change metadata.name (${ctx.name})`);
        if (!next.metadata.resourceVersion) next.metadata.resourceVersion = current.metadata.resourceVersion!;
        const updated = await this.#updateObject(ctx, current, next, manager!);
        return this.#respondObjects(ctx, 200, [updated], undefined, true);
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

  async #createApplied(ctx: Context, applied: KubeObject): Promise<KubeObject> {
    const managedFields = applied.metadata.managedFields;
    const obj = await this.#prepare(ctx, 'CREATE', this.#withNamespace(ctx, applied), undefined);
    obj.metadata.managedFields = managedFields ?? [];
    try {
      const created = await this.#store(ctx.def).create(
        { ...obj, apiVersion: apiVersionOf(ctx.def) },
        { dryRun: ctx.dryRun },
      );
      if (!ctx.dryRun)
        await this.#backend.written?.({
          operation: 'CREATE',
          def: ctx.def,
          object: created,
          old: undefined,
          user: ctx.user,
        });
      return this.#asServed(ctx.def, created);
    } catch (err) {
      if (err instanceof AlreadyExistsError) {
        throw apiErrors.conflict(ctx.def.plural, ctx.def.group, ctx.name!, 'the object was created meanwhile');
      }
      throw err;
    }
  }

  async #updateApplied(ctx: Context, current: KubeObject, applied: KubeObject): Promise<KubeObject> {
    const { def } = ctx;
    const status = ctx.subresource === 'status';
    const managedFields = applied.metadata.managedFields;
    let obj = await this.#prepare(ctx, 'UPDATE', this.#withNamespace(ctx, applied), current);
    if (status) obj = { ...current, status: obj.status, metadata: { ...current.metadata } };
    obj.metadata.managedFields = managedFields ?? [];
    obj.metadata.resourceVersion = applied.metadata.resourceVersion;
    obj = { ...obj, apiVersion: current.apiVersion };
    try {
      const updated = status
        ? await this.#store(def).updateStatus(obj, { dryRun: ctx.dryRun })
        : await this.#store(def).update(obj, { dryRun: ctx.dryRun });
      if (!ctx.dryRun) {
        await this.#backend.written?.({
          operation: 'UPDATE',
          def,
          object: updated,
          old: current,
          user: ctx.user,
          ...(status ? { subresource: 'status' } : {}),
        });
      }
      return this.#asServed(def, updated);
    } catch (err) {
      if (err instanceof ConflictError) {
        throw apiErrors.conflict(
          def.plural,
          def.group,
          ctx.name!,
          'the object has been modified; please apply your changes to the latest version and try again',
        );
      }
      throw err;
    }
  }

  async #delete(ctx: Context): Promise<KubeResponse> {
    const { def } = ctx;
    if (ctx.subresource) throw apiErrors.methodNotAllowed('DELETE', ctx.req.path);
    const options = this.#deleteOptions(ctx);
    if (options.propagationPolicy === 'Foreground' && !this.#backend.garbageCollection)
      ctx.warnings.push(NO_GARBAGE_COLLECTOR);
    const result = await this.#deleteOne(ctx, ctx.name!, options);
    if (!result.removed) return this.#respondObjects(ctx, 200, [result.object], undefined, true);
    return jsonResponse(
      200,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: ctx.name, group: def.group, kind: def.plural, uid: result.object.metadata.uid },
      },
      this.#warningHeaders(ctx),
    );
  }

  async #deleteOne(
    ctx: Context,
    name: string,
    options: {
      propagationPolicy: string;
      explicitPolicy?: boolean;
      preconditions?: { resourceVersion?: string; uid?: string };
    },
  ): Promise<{ object: KubeObject; removed: boolean }> {
    const { def } = ctx;
    const ref = this.#ref(ctx, name);
    const current = await this.#store(def).get(ref);
    if (!current) throw apiErrors.notFound(def.plural, def.group, name);
    if (this.#backend.admit) {
      await this.#backend.admit({
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
    if (this.#backend.garbageCollection && !ctx.dryRun && !current.metadata.deletionTimestamp) {
      // Finalizers tell the garbage collector to delete (Foreground) or orphan the dependents first.
      const uid = await this.#markForCollector(ctx, ref, name, current, options);
      if (uid !== undefined) {
        preconditions = { uid };
        marked = true;
      }
    }
    try {
      let result: DeleteResult | undefined;
      for (let attempt = 1; !result; attempt++) {
        try {
          result = await this.#store(def).delete(ref, {
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
        await this.#backend.written?.({
          operation: 'DELETE',
          def,
          object: result.object,
          old: current,
          user: ctx.user,
          propagationPolicy: options.propagationPolicy,
          removed: result.removed,
        });
      }
      return { object: this.#asServed(def, result.object), removed: result.removed };
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

  async #deleteCollection(ctx: Context): Promise<KubeResponse> {
    const { def, req } = ctx;
    const options = this.#deleteOptions(ctx);
    const fields = parseFieldSelector(req.query.get('fieldSelector') ?? '', def.group, def.kind);
    const labelSelector = req.query.get('labelSelector') ?? '';
    parseLabelSelector(labelSelector);
    // Every object first, so that preconditions are checked on all of them before any is deleted:
    // a collection delete whose preconditions do not hold deletes nothing.
    const targets: KubeObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.#store(def).list({
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
        await this.#deleteOne({ ...ctx, namespace: obj.metadata.namespace }, obj.metadata.name!, {
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
  async #markForCollector(
    ctx: Context,
    ref: ObjectRef,
    name: string,
    first: KubeObject,
    options: {
      propagationPolicy: string;
      explicitPolicy?: boolean;
      preconditions?: { resourceVersion?: string; uid?: string };
    },
  ): Promise<string | undefined> {
    const { def } = ctx;
    const wanted = ({ Foreground: FOREGROUND_FINALIZER, Orphan: ORPHAN_FINALIZER } as Record<string, string>)[
      options.propagationPolicy
    ];
    const conflict = (detail: string) => apiErrors.conflict(def.plural, def.group, name, detail);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const current = attempt === 1 ? first : await this.#store(def).get(ref);
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
        await this.#store(def).update({ ...current, metadata: { ...current.metadata, finalizers } });
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
   * `gracePeriodSeconds: 1e400`), is a 400 before anything is deleted.
   */
  #deleteOptions(ctx: Context): {
    propagationPolicy: string;
    /** The request named a policy (rather than taking the default). */
    explicitPolicy: boolean;
    preconditions?: { resourceVersion?: string; uid?: string };
  } {
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
        throw invalid(`gracePeriodSeconds must be a whole number of seconds (int64), got ${JSON.stringify(grace)}`);
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
      optionalString(body.propagationPolicy, 'propagationPolicy') ??
      ctx.req.query.get('propagationPolicy') ??
      undefined;
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

  // ------------------------------------------------------------------------------------- helpers

  /** The store of a resource: the backend's, or a view of another kind's objects. */
  #store(def: ResourceDef): ObjectStore {
    return def.view ? new ViewStore(this.#backend.store, def.view) : this.#backend.store;
  }

  #ref(ctx: Context, name: string, namespace = ctx.namespace): ObjectRef {
    return {
      group: ctx.def.group,
      kind: ctx.def.kind,
      ...(ctx.def.namespaced && namespace ? { namespace } : {}),
      name,
    };
  }

  #now(): string {
    return rfc3339(this.#backend.clock.now());
  }

  #manager(ctx: Context): string {
    const given = ctx.req.query.get('fieldManager');
    if (given !== null) {
      if (given.length > 128 || !/^[\x20-\x7e]+$/.test(given)) {
        throw apiErrors.badRequest('fieldManager must be 1 to 128 printable ASCII characters');
      }
      return given;
    }
    return this.#fields.defaultManager(ctx.req.headers['user-agent']);
  }

  #decodeBody(ctx: Context): KubeObject {
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
  #checkTypeMeta(ctx: Context, body: KubeObject): void {
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
  #withNamespace(ctx: Context, body: KubeObject): KubeObject {
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

  async #checkNamespace(ctx: Context, namespace: string | undefined): Promise<void> {
    if (!ctx.def.namespaced || !namespace || !this.#backend.namespaceLifecycle) return;
    const ns = await this.#backend.store.get({ group: '', kind: 'Namespace', name: namespace });
    if (!ns) throw apiErrors.notFound('namespaces', '', namespace, 'namespaces');
    const phase = (ns.status as { phase?: string } | undefined)?.phase;
    if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
      throw apiErrors.forbidden(
        `unable to create new content in namespace ${namespace} because it is being terminated`,
        {
          name: namespace,
          kind: 'namespaces',
        },
      );
    }
  }

  /**
   * The checks of a write, in the API server's order: the schema (unknown fields per
   * fieldValidation, types, required, enums, defaults), metadata, the kind's defaults and
   * validation, then the backend's admission.
   */
  async #prepare(
    ctx: Context,
    operation: 'CREATE' | 'UPDATE',
    input: KubeObject,
    old: KubeObject | undefined,
  ): Promise<KubeObject> {
    const { def } = ctx;
    // NamespaceLifecycle admission: every create (POST, PUT-create, server-side apply) needs a live namespace.
    if (operation === 'CREATE') await this.#checkNamespace(ctx, input.metadata?.namespace);
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
      obj = def.strategy.default(obj, { operation, newUid: () => crypto.randomUUID(), now: this.#now() });
    }
    if (this.#backend.admit) {
      obj = await this.#backend.admit({
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

  /** The object as the requested version serves it. */
  #asServed(def: ResourceDef, obj: KubeObject): KubeObject {
    return { ...obj, apiVersion: apiVersionOf(def), kind: def.kind };
  }

  #warningHeaders(ctx: Context): Record<string, string> {
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

  #respondList(
    ctx: Context,
    items: KubeObject[],
    listMeta: { resourceVersion?: string; continue?: string },
  ): KubeResponse {
    return this.#respondObjects(
      ctx,
      200,
      items.map((o) => this.#asServed(ctx.def, o)),
      listMeta,
      false,
    );
  }

  /** One object or a list, as JSON or as a Table when the client asked for one. */
  #respondObjects(
    ctx: Context,
    status: number,
    items: KubeObject[],
    listMeta: { resourceVersion?: string; continue?: string } | undefined,
    single: boolean,
  ): KubeResponse {
    const accept = parseAccept(ctx.req.headers.accept);
    const wantsTable = accept.some((a) => a.params.as === 'Table');
    const headers = this.#warningHeaders(ctx);
    if (wantsTable) {
      const include = (ctx.req.query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
      const table = toTable(ctx.def, items, {
        nowMs: this.#backend.clock.now(),
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
    if (!acceptable)
      throw apiErrors.notAcceptable(['application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io']);
    if (single) return jsonResponse(status, items[0], headers);
    return jsonResponse(
      status,
      { kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: listMeta ?? {}, items },
      headers,
    );
  }

  #errorResponse(err: unknown, req: KubeRequest): KubeResponse {
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

/** Parses a label selector, answering 400 for a malformed one. */
function parseLabelSelector(text: string): ReturnType<typeof parseSelector> {
  try {
    return parseSelector(text);
  } catch (err) {
    if (err instanceof InvalidSelectorError) throw apiErrors.badRequest(`unable to parse requirement: ${err.message}`);
    throw err;
  }
}

/** The JSON type of a value, for messages. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number out of range';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function verbOf(method: string, named: boolean, query: URLSearchParams): RequestAttributes['verb'] | undefined {
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

function forbidden(user: UserInfo, attrs: RequestAttributes, reason: string): ApiError {
  const resource = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const what = attrs.name ? `${resource} "${attrs.name}"` : resource;
  const scope = attrs.namespace ? ` in the namespace "${attrs.namespace}"` : attrs.name ? '' : ' at the cluster scope';
  return apiErrors.forbidden(
    `${what} is forbidden: User "${user.name}" cannot ${attrs.verb} resource "${attrs.resource}${attrs.subresource ? `/${attrs.subresource}` : ''}" in API group "${attrs.group}"${scope}${reason ? `: ${reason}` : ''}`,
    { ...(attrs.name ? { name: attrs.name } : {}), group: attrs.group, kind: attrs.resource },
  );
}

function applyConflict(def: ResourceDef, name: string, conflicts: FieldConflict[], message: string): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with "${c.manager}" using ${apiVersionOf(def)}`,
    field: c.field,
  }));
  return new ApiError(409, 'Conflict', message, { name, group: def.group, kind: def.plural, causes });
}

function patchError(err: unknown, def: ResourceDef): ApiError {
  const e = err as { code?: number; message?: string };
  const message = e?.message ?? String(err);
  if (e?.code === 415) {
    return new ApiError(415, 'UnsupportedMediaType', message);
  }
  if (e?.code === 422) return new ApiError(422, 'Invalid', message, { group: def.group, kind: def.kind });
  if (e?.code === 400) return apiErrors.badRequest(message);
  throw err;
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
