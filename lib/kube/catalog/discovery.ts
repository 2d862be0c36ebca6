/**
 * Discovery (`/version`, `/api`, `/apis`, `/api/v1`, `/apis/<g>/<v>`) and OpenAPI v3 (`/openapi/v3`
 * and one document per group-version), in the legacy JSON formats kubectl 1.32 accepts, and the
 * aggregated discovery of `/api` and `/apis` (apidiscovery.k8s.io v2 and v2beta1: every group
 * version's resources in one answer) for clients that ask for it in Accept, as kube-apiserver serves
 * it (v2beta1 from 1.27, v2 from 1.30; docs/decisions/0017-aggregated-discovery.md). Both discovery
 * formats are built from the same resource entries, so they always agree. Every resource's PATCH
 * operation carries `x-kubernetes-group-version-kind` and a `fieldValidation` parameter, which is how
 * kubectl learns that the server validates fields itself.
 */
import { createHash } from 'node:crypto';
import { AGGREGATED_DISCOVERY_VERSIONS, type AggregatedDiscoveryVersion } from '../../api/aggregated-discovery.ts';
import type { Catalog, ResourceDef } from './resources.ts';
import { apiVersionOf } from './resources.ts';
import { type AcceptEntry, parseAccept } from '../base/http.ts';
import { resourcePath } from '../base/paths.ts';
import type { Schema } from '../base/schema.ts';

export interface ServerVersion {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/** What `/version` answers: Kubernetes 1.32 compatible, naming this implementation. */
/**
 * `/version`. `productVersion` is this product's (`0.1.0`, served as `v1.32.0+serverless-karmada.0.1.0`)
 * or, for a simulated member, the Kubernetes version it plays (`v1.31.0`).
 */
export function serverVersion(productVersion: string): ServerVersion {
  const k8s = /^v(\d+)\.(\d+)\.\d+$/.exec(productVersion);
  return {
    major: k8s ? k8s[1]! : '1',
    minor: k8s ? k8s[2]! : '32',
    gitVersion: k8s ? productVersion : `v1.32.0+serverless-karmada.${productVersion}`,
    gitCommit: 'serverless-karmada',
    gitTreeState: 'clean',
    buildDate: '2026-11-21T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch}`,
  };
}

export function apiVersions() {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '' }],
  };
}

function groupJson(g: { name: string; versions: string[]; preferredVersion: string }) {
  return {
    name: g.name,
    versions: g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${g.name}/${g.preferredVersion}`, version: g.preferredVersion },
  };
}

export function apiGroupList(catalog: Catalog) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: catalog
      .groups()
      .filter((g) => g.name !== '')
      .map(groupJson),
  };
}

export function apiGroup(catalog: Catalog, group: string) {
  const g = catalog.groups().find((x) => x.name === group);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...groupJson(g) } : undefined;
}

/** A subresource of a resource, as both discovery formats name it. */
interface SubresourceEntry {
  subresource: 'status' | 'scale';
  /** The kind its requests and answers carry; group and version empty: the resource's own. */
  responseKind: { group: string; version: string; kind: string };
  verbs: string[];
}

/** The subresources a resource serves: `/status` (its own kind) and `/scale` (autoscaling/v1 Scale). */
function subresourcesOf(d: ResourceDef): SubresourceEntry[] {
  return [
    ...(d.statusSubresource
      ? [
          {
            subresource: 'status' as const,
            responseKind: { group: '', version: '', kind: d.kind },
            verbs: ['get', 'patch', 'update'],
          },
        ]
      : []),
    ...(d.scale
      ? [
          {
            subresource: 'scale' as const,
            responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
            verbs: ['get', 'patch', 'update'],
          },
        ]
      : []),
  ];
}

export function apiResourceList(catalog: Catalog, group: string, version: string) {
  const defs = catalog.resources(group, version);
  if (defs.length === 0) return undefined;
  const resources = defs.flatMap((d) => {
    const main = {
      name: d.plural,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: d.verbs,
      ...(d.shortNames.length ? { shortNames: d.shortNames } : {}),
      ...(d.categories.length ? { categories: d.categories } : {}),
      storageVersionHash: createHash('sha256').update(`${d.group}/${d.kind}`).digest('base64').slice(0, 11),
    };
    const subresources = subresourcesOf(d).map((s) => ({
      name: `${d.plural}/${s.subresource}`,
      singularName: '',
      namespaced: d.namespaced,
      ...(s.responseKind.group || s.responseKind.version
        ? { group: s.responseKind.group, version: s.responseKind.version }
        : {}),
      kind: s.responseKind.kind,
      verbs: s.verbs,
    }));
    return [main, ...subresources];
  });
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}

/** Media types a plain (unconverted) discovery request may name: the legacy documents answer it. */
const LEGACY_MEDIA_TYPES = new Set([
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/*',
  '*/*',
]);

/**
 * The aggregated discovery version an Accept header asks for at `/api` or `/apis`, or undefined for
 * the legacy documents. As kube-apiserver negotiates: entries by descending `q` (in the header's order
 * among equals), the first one served wins — `application/json;g=apidiscovery.k8s.io;v=v2|v2beta1;
 * as=APIGroupDiscoveryList` picks aggregated discovery, a plain JSON, YAML, protobuf or wildcard type
 * picks the legacy documents, and anything else (aggregated protobuf, which is not served here, or
 * another conversion such as `as=Table`) is passed over. No match, or no Accept: legacy, as before.
 */
export function aggregatedDiscoveryVersion(accept: string | undefined): AggregatedDiscoveryVersion | undefined {
  const q = (e: AcceptEntry) => {
    const n = e.params.q === undefined ? 1 : Number(e.params.q);
    return Number.isFinite(n) ? n : 1;
  };
  const entries = parseAccept(accept)
    .filter((e) => q(e) > 0)
    .sort((a, b) => q(b) - q(a));
  for (const e of entries) {
    const { g, v, as } = e.params;
    if (g === undefined && v === undefined && as === undefined) {
      if (LEGACY_MEDIA_TYPES.has(e.type)) return undefined;
      continue;
    }
    if (
      e.type === 'application/json' &&
      g === 'apidiscovery.k8s.io' &&
      as === 'APIGroupDiscoveryList' &&
      (AGGREGATED_DISCOVERY_VERSIONS as readonly (string | undefined)[]).includes(v)
    ) {
      return v as AggregatedDiscoveryVersion;
    }
  }
  return undefined;
}

/** One resource of an aggregated discovery answer (apidiscovery.k8s.io/v2 `APIResourceDiscovery`). */
function resourceDiscovery(d: ResourceDef) {
  const subresources = subresourcesOf(d);
  return {
    resource: d.plural,
    responseKind: { group: '', version: '', kind: d.kind },
    scope: d.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: d.singular,
    verbs: d.verbs,
    ...(d.shortNames.length ? { shortNames: d.shortNames } : {}),
    ...(d.categories.length ? { categories: d.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

/**
 * The aggregated discovery answer of `/api` (`core`: the core group, whose item has no name) or
 * `/apis` (every other group, in the order of the legacy group list), serialized, with its ETag.
 * Each group's versions come preferred first, then by version priority, as kube-apiserver orders them.
 * Built once per catalog and version, like the OpenAPI documents.
 */
export function aggregatedDiscovery(
  catalog: Catalog,
  which: 'core' | 'groups',
  version: AggregatedDiscoveryVersion,
): { body: string; etag: string } {
  return memo(catalog, `aggregated ${which} ${version}`, () => {
    const items = catalog
      .groups()
      .filter((g) => (which === 'core' ? g.name === '' : g.name !== ''))
      .map((g) => ({
        metadata: { ...(g.name ? { name: g.name } : {}), creationTimestamp: null },
        versions: [g.preferredVersion, ...g.versions.filter((v) => v !== g.preferredVersion)].map((v) => ({
          version: v,
          resources: catalog.resources(g.name, v).map(resourceDiscovery),
          freshness: 'Current',
        })),
      }));
    const body = JSON.stringify({
      kind: 'APIGroupDiscoveryList',
      apiVersion: `apidiscovery.k8s.io/${version}`,
      metadata: {},
      items,
    });
    return { body, etag: `"${createHash('sha512').update(body).digest('hex').slice(0, 32).toUpperCase()}"` };
  });
}

/** `io.k8s.api.apps.v1.Deployment`, `io.karmada.policy.v1alpha1.PropagationPolicy`. */
export function schemaName(def: Pick<ResourceDef, 'group' | 'version' | 'kind'>): string {
  if (def.group === '' || def.group.endsWith('.k8s.io') || !def.group.includes('.')) {
    const g = def.group === '' ? 'core' : def.group.replace(/\.k8s\.io$/, '');
    return `io.k8s.api.${g}.${def.version}.${def.kind}`;
  }
  return `${def.group.split('.').reverse().join('.')}.${def.version}.${def.kind}`;
}

const queryParam = (name: string, description: string) => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string', uniqueItems: true },
});

const PARAMS = {
  dryRun: queryParam('dryRun', 'When present, indicates that modifications should not be persisted (All).'),
  fieldManager: queryParam('fieldManager', 'A name associated with the actor or entity that is making these changes.'),
  fieldValidation: queryParam(
    'fieldValidation',
    'How the server handles unknown or duplicate fields in the body: Ignore, Warn or Strict.',
  ),
  force: {
    name: 'force',
    in: 'query',
    description: 'Force is going to "force" Apply requests.',
    schema: { type: 'boolean', uniqueItems: true },
  },
  labelSelector: queryParam('labelSelector', 'A selector to restrict the list of returned objects by their labels.'),
  fieldSelector: queryParam('fieldSelector', 'A selector to restrict the list of returned objects by their fields.'),
  limit: {
    name: 'limit',
    in: 'query',
    description: 'Maximum number of responses to return for a list call.',
    schema: { type: 'integer', uniqueItems: true },
  },
  continue: queryParam('continue', 'The continue option should be set when retrieving more results from the server.'),
};

function pathParams(namespaced: boolean, named: boolean) {
  return [
    ...(named
      ? [
          {
            name: 'name',
            in: 'path',
            required: true,
            description: 'name of the object',
            schema: { type: 'string', uniqueItems: true },
          },
        ]
      : []),
    ...(namespaced
      ? [
          {
            name: 'namespace',
            in: 'path',
            required: true,
            description: 'object name and auth scope',
            schema: { type: 'string', uniqueItems: true },
          },
        ]
      : []),
  ];
}

function operationsFor(def: ResourceDef): Record<string, unknown> {
  const gvk = { group: def.group, version: def.version, kind: def.kind };
  const ref = { $ref: `#/components/schemas/${schemaName(def)}` };
  const body = { content: { 'application/json': { schema: ref } }, required: true };
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } };
  const id = `${def.kind}${def.namespaced ? 'Namespaced' : ''}`;
  const op = (action: string, verb: string, extra: Record<string, unknown>) => ({
    operationId: `${verb}${apiVersionOf(def).replace(/[./]/g, '_')}${id}`,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
    responses: ok,
    ...extra,
  });
  const paths: Record<string, unknown> = {};
  const collection = resourcePath(def, def.namespaced ? '{namespace}' : undefined).replace(
    '%7Bnamespace%7D',
    '{namespace}',
  );
  const item = `${collection}/{name}`;
  paths[collection] = {
    parameters: pathParams(def.namespaced, false),
    get: op('list', 'list', {
      parameters: [PARAMS.labelSelector, PARAMS.fieldSelector, PARAMS.limit, PARAMS.continue],
    }),
    post: op('post', 'create', {
      requestBody: body,
      parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation],
    }),
  };
  const patchBody = {
    content: Object.fromEntries(
      [
        'application/json-patch+json',
        'application/merge-patch+json',
        ...(def.strategicMergePatch ? ['application/strategic-merge-patch+json'] : []),
        'application/apply-patch+yaml',
      ].map((t) => [t, { schema: { type: 'object' } }]),
    ),
    required: true,
  };
  paths[item] = {
    parameters: pathParams(def.namespaced, true),
    get: op('get', 'read', {}),
    put: op('put', 'replace', {
      requestBody: body,
      parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation],
    }),
    patch: op('patch', 'patch', {
      requestBody: patchBody,
      parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation, PARAMS.force],
    }),
    delete: op('delete', 'delete', { parameters: [PARAMS.dryRun] }),
  };
  if (def.statusSubresource) {
    paths[`${item}/status`] = {
      parameters: pathParams(def.namespaced, true),
      get: op('get', 'read', {}),
      put: op('put', 'replace', {
        requestBody: body,
        parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation],
      }),
      patch: op('patch', 'patch', {
        requestBody: patchBody,
        parameters: [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation, PARAMS.force],
      }),
    };
  }
  return paths;
}

/**
 * Documents built per catalog: a catalog never changes (the CRD catalog hands out a new one when CRDs
 * change), and building and hashing every group-version's document takes milliseconds per request.
 */
const openApiCache = new WeakMap<Catalog, Map<string, unknown>>();

function memo<T>(catalog: Catalog, key: string, build: () => T): T {
  let byKey = openApiCache.get(catalog);
  if (!byKey) openApiCache.set(catalog, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, build());
  return byKey.get(key) as T;
}

/** The OpenAPI v3 document of one group-version, or undefined when nothing is served there. */
export function openApiDocument(catalog: Catalog, group: string, version: string, productVersion: string) {
  return memo(catalog, `doc ${group}/${version} ${productVersion}`, () =>
    buildOpenApiDocument(catalog, group, version, productVersion),
  );
}

function buildOpenApiDocument(catalog: Catalog, group: string, version: string, productVersion: string) {
  const defs = catalog.resources(group, version);
  if (defs.length === 0) return undefined;
  const schemas: Record<string, Schema> = {};
  const paths: Record<string, unknown> = {};
  for (const def of defs) {
    schemas[schemaName(def)] = {
      ...(def.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      'x-kubernetes-group-version-kind': [{ group: def.group, version: def.version, kind: def.kind }],
    };
    Object.assign(paths, operationsFor(def));
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Serverless Karmada', version: productVersion },
    paths,
    components: { schemas },
  };
}

/** `/openapi/v3`: where each group-version's document is, with a content hash for caching. */
export function openApiRoot(catalog: Catalog, productVersion: string) {
  return memo(catalog, `root ${productVersion}`, () => buildOpenApiRoot(catalog, productVersion));
}

function buildOpenApiRoot(catalog: Catalog, productVersion: string) {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const g of catalog.groups()) {
    for (const v of g.versions) {
      const key = g.name === '' ? `api/${v}` : `apis/${g.name}/${v}`;
      const doc = openApiDocument(catalog, g.name, v, productVersion);
      const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 64);
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash.toUpperCase()}` };
    }
  }
  return { paths };
}
