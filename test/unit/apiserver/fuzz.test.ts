/**
 * A seeded fuzz of the API's shared request path: a few hundred malformed requests — paths with dot
 * segments, empty segments, bad escapes, over-long names; junk queries; truncated, deep, mistyped and
 * oversized bodies; wrong media types; malformed credentials — against the control-plane API and the
 * member simulator's. Properties: no 5xx, no exception, every 4xx a `Status` with a message, and a
 * rejected request writes nothing (no row stored or deleted). A failing case prints its seed and index.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KIND_SHARDS_MARKER_PK } from '../../../lib/store/kind-shards.ts';
import { apiHarness } from '../../support/api.ts';
import { configMap, deployment } from '../../support/factories.ts';

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_19);
const CASES = 400;

const RESOURCES = [
  '/api/v1/namespaces/default/configmaps',
  '/api/v1/namespaces/default/secrets',
  '/apis/apps/v1/namespaces/default/deployments',
  '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies',
  '/apis/policy.karmada.io/v1alpha1/namespaces/default/federatedresourcequotas',
  '/apis/cluster.karmada.io/v1alpha1/clusters',
  '/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings',
  '/api/v1/namespaces',
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
];
const NAMES = ['existing', 'web', 'missing', '..', '.', '%2e%2e', '%2F', '%zz', '%00', 'a'.repeat(300), 'é', ''];
const SUFFIXES = ['', '/status', '/scale', '/..', '/.', '//', '/x/y/z', '/%2e%2e/..'];
const QUERIES = [
  '',
  '?labelSelector=a%20in%20(',
  '?labelSelector=' + 'k'.repeat(400),
  '?fieldSelector=metadata.name%3D' + 'n'.repeat(600),
  '?fieldSelector=spec.nope%3Dx',
  '?limit=-1',
  '?limit=abc',
  '?continue=not-a-token',
  '?dryRun=Some',
  '?dryRun=All',
  '?fieldValidation=Loose',
  '?fieldValidation=Strict',
  '?fieldManager=' + 'm'.repeat(200),
  '?propagationPolicy=Sideways',
  '?gracePeriodSeconds=1e400',
  '?watch=true',
  '?resourceVersion=abc&watch=1',
];
// Weighted towards the verbs that write; a few that no resource serves.
const METHODS = [
  'GET',
  'POST',
  'POST',
  'PUT',
  'PUT',
  'PATCH',
  'PATCH',
  'PATCH',
  'DELETE',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'BREW',
];
const CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/vnd.kubernetes.protobuf',
  'text/plain',
  '',
];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}

/** Replaces one random leaf of a valid object with a hostile value. */
function mutate(r: () => number, value: unknown): unknown {
  const hostile = [
    null,
    -1,
    Number.MAX_VALUE,
    1.5,
    'x'.repeat(5000),
    [],
    {},
    '{"a":'.repeat(3) as unknown,
    { $ref: '#' },
    true,
    '\u0000',
  ];
  if (value === null || typeof value !== 'object' || r() < 0.25) return pick(r, hostile);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as object) };
  const keys = Object.keys(copy);
  if (keys.length === 0) return pick(r, hostile);
  const key = pick(r, keys);
  (copy as Record<string, unknown>)[key] = mutate(r, (copy as Record<string, unknown>)[key]);
  return copy;
}

function body(r: () => number): string {
  const valid = [
    configMap('existing', { a: '1' }),
    deployment('web'),
    { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', preconditions: { uid: 'u' } },
    [{ op: 'replace', path: '/data/a', value: '2' }],
    { metadata: { labels: { a: 'b' } }, spec: { replicas: 3 } },
  ];
  switch (Math.floor(r() * 9)) {
    case 0:
      return '';
    case 1:
      return JSON.stringify(mutate(r, pick(r, valid))).slice(0, Math.floor(r() * 200));
    case 2: {
      const depth = pick(r, [200, 511, 513, 5000, 50_000]);
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    }
    case 3:
      return pick(r, ['"x"', '[]', '1e400', 'null', '[{"op":"remove","path":"/"}]', '[{"op":"move"}]']);
    case 4:
      return `apiVersion: v1\nkind: ConfigMap\nmetadata: ${'['.repeat(pick(r, [10, 2000]))}`;
    case 5:
      return JSON.stringify(mutate(r, mutate(r, pick(r, valid))));
    case 6:
      return '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d","name":"e"},"data":{"k":"1","k":"2"}}';
    case 7:
      return JSON.stringify(mutate(r, pick(r, valid)));
    default:
      return Buffer.from(Array.from({ length: 64 }, () => Math.floor(r() * 256))).toString('latin1');
  }
}

interface FuzzRequest {
  method: string;
  path: string;
  contentType: string;
  rawBody: string;
  authorization: string | undefined;
}

function request(r: () => number): FuzzRequest {
  const resource = pick(r, RESOURCES);
  const method = pick(r, METHODS);
  // Half the requests are well-formed up to their body, so the fuzz reaches decoding, validation,
  // patching and deletion rather than stopping at the path.
  const clean = r() < 0.5;
  const name = clean
    ? method === 'POST'
      ? ''
      : `/${pick(r, ['existing', 'web', 'missing'])}`
    : r() < 0.8
      ? `/${pick(r, NAMES)}`
      : '';
  const suffix = !clean && r() < 0.3 ? pick(r, SUFFIXES) : '';
  const query = clean && r() < 0.8 ? '' : pick(r, QUERIES);
  const path = `${resource}${name}${suffix}${query}`;
  const fitting: Record<string, string[]> = {
    POST: ['application/json', 'application/yaml'],
    PUT: ['application/json'],
    PATCH: CONTENT_TYPES.slice(2, 6),
    DELETE: ['application/json'],
  };
  const contentType = clean && fitting[method] ? pick(r, fitting[method]) : pick(r, CONTENT_TYPES);
  const auth = r();
  return {
    method,
    path: r() < 0.05 ? pick(r, ['///', '//api', '/api/v1/../../etc', 'api/v1', '/' + 'p/'.repeat(3000)]) : path,
    contentType,
    rawBody: body(r),
    authorization:
      auth < 0.85 ? undefined : pick(r, ['Bearer  TOKEN', 'Bearer', 'Basic dXNlcjpwYXNz', 'Bearer TOKEN extra', '']),
  };
}

describe('fuzz: malformed requests against the shared request path', () => {
  it(`${CASES} seeded requests (seed ${SEED}): no 5xx, every 4xx a Status, rejected requests write nothing`, async () => {
    const h = await apiHarness();
    await h.store.create(configMap('existing', { a: '1' }));
    await h.store.create(deployment('web'));
    // Every stored object's row by key and version: a write that happened moves it (a refused
    // conditional write, such as a create of an existing name, does not). The store's own layout marker,
    // written by whichever request first lists a single-shard kind, is not an object.
    const fingerprint = () =>
      h.rows
        .exportRows()
        .filter((row) => row.pk !== KIND_SHARDS_MARKER_PK)
        .map((row) => `${row.pk}@${row.version}`)
        .sort()
        .join('\n');
    const r = rng(SEED);
    const seen = new Map<number, number>();
    for (let i = 0; i < CASES; i++) {
      const req = request(r);
      const before = fingerprint();
      const where = `seed ${SEED} case ${i}: ${req.method} ${req.path.slice(0, 120)} (${req.contentType})`;
      const res = await h.call(req.method, req.path, {
        rawBody: req.rawBody,
        contentType: req.contentType,
        ...(req.authorization !== undefined
          ? { token: null, headers: { authorization: req.authorization.replace('TOKEN', h.admin.token) } }
          : {}),
      });
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      assert.ok(res.status < 500, `${where} → ${res.status} ${res.body.slice(0, 300)}`);
      if (res.status >= 400) {
        assert.equal(res.json?.kind, 'Status', `${where}: a ${res.status} without a Status body`);
        assert.ok(typeof res.json.message === 'string' && res.json.message.length > 0, `${where}: no message`);
        assert.equal(res.json.code, res.status, where);
        assert.equal(
          fingerprint(),
          before,
          `${where}: a rejected request wrote (${res.status} ${res.body.slice(0, 300)}) body ${req.rawBody.slice(0, 300)}`,
        );
      }
    }
    // The mix reaches both sides: most requests are refused, some are served.
    if (process.env.FUZZ_SEED) console.log([...seen].sort());
    const refused = [...seen].filter(([s]) => s >= 400).reduce((n, [, c]) => n + c, 0);
    assert.ok(refused > CASES / 2, `refused ${refused} of ${CASES}`);
  });
});
