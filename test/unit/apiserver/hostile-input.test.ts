/**
 * Hostile and careless requests (issue: API hardening): each answers 4xx with a Kubernetes Status,
 * and changes nothing — no object written or deleted, no controller told. Rows name what they pin.
 * The same request path serves the member simulator and (for paths and bodies) the member webhooks.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../lib/kube/base/errors.ts';
import { MAX_NESTING_DEPTH, watchTimeoutSeconds } from '../../../lib/kube/base/request-guard.ts';
import type { CallOptions } from '../../support/api.ts';
import { apiHarness } from '../../support/api.ts';
import { configMap, deployment } from '../../support/factories.ts';

const CMS = '/api/v1/namespaces/default/configmaps';
const FRQS = '/apis/policy.karmada.io/v1alpha1/namespaces/default/federatedresourcequotas';
const TOO_DEEP = new RegExp(`nested more than ${MAX_NESTING_DEPTH} levels deep`);

/** `{"a":{"a":…"x"…}}` nested `depth` objects deep, as text (JSON.stringify would itself overflow). */
function deepJson(depth: number): string {
  return '{"a":'.repeat(depth) + '"x"' + '}'.repeat(depth);
}

function cmText(metadata: string, data = '{}'): string {
  return `{"apiVersion":"v1","kind":"ConfigMap","metadata":${metadata},"data":${data}}`;
}

interface Row {
  name: string;
  method: string;
  path: string;
  options?: CallOptions;
  code: number;
  reason: string;
  message: RegExp;
}

const json = (rawBody: string): CallOptions => ({ rawBody, contentType: 'application/json' });

const rows: Row[] = [
  // 1. Paths that once crashed the process.
  { name: 'GET ///', method: 'GET', path: '///', code: 404, reason: 'NotFound', message: /empty segment/ },
  { name: 'GET //api/v1', method: 'GET', path: '//api/v1', code: 404, reason: 'NotFound', message: /empty segment/ },
  // 2. `..` and friends never re-route a request onto another resource.
  {
    name: 'DELETE …/configmaps/x/.. is not a collection delete',
    method: 'DELETE',
    path: `${CMS}/existing/..`,
    code: 400,
    reason: 'BadRequest',
    message: /may not contain a '\.\.' segment/,
  },
  {
    name: 'DELETE with a percent-encoded %2e%2e',
    method: 'DELETE',
    path: `${CMS}/existing/%2e%2e`,
    code: 400,
    reason: 'BadRequest',
    message: /may not contain a '\.\.' segment/,
  },
  {
    name: 'POST re-routed with ..',
    method: 'POST',
    path: `${CMS}/existing/..`,
    options: { body: configMap('sneaky', {}) },
    code: 400,
    reason: 'BadRequest',
    message: /'\.\.' segment/,
  },
  {
    name: 'PUT re-routed with ..',
    method: 'PUT',
    path: `/api/v1/namespaces/default/secrets/../configmaps/existing`,
    options: { body: configMap('existing', { a: 'changed' }) },
    code: 400,
    reason: 'BadRequest',
    message: /'\.\.' segment/,
  },
  {
    name: 'a single-dot segment',
    method: 'DELETE',
    path: `${CMS}/./existing`,
    code: 400,
    reason: 'BadRequest',
    message: /may not contain a '\.' segment/,
  },
  {
    name: 'DELETE with a trailing slash is not a collection delete',
    method: 'DELETE',
    path: `${CMS}/`,
    code: 404,
    reason: 'NotFound',
    message: /empty segment/,
  },
  {
    name: 'an empty segment between two',
    method: 'DELETE',
    path: `/api/v1/namespaces/default//configmaps/existing`,
    code: 404,
    reason: 'NotFound',
    message: /empty segment/,
  },
  {
    name: 'an encoded slash inside a name',
    method: 'DELETE',
    path: `${CMS}/a%2Fb`,
    code: 400,
    reason: 'BadRequest',
    message: /encoded '\/'/,
  },
  {
    name: 'a malformed percent escape',
    method: 'GET',
    path: `${CMS}/%zz`,
    code: 400,
    reason: 'BadRequest',
    message: /malformed percent-encoding/,
  },
  {
    name: 'a control character in a segment',
    method: 'GET',
    path: `${CMS}/a%00b`,
    code: 400,
    reason: 'BadRequest',
    message: /control characters/,
  },
  {
    name: 'a path longer than 8 KiB',
    method: 'GET',
    path: `/api/v1/${'a'.repeat(9000)}`,
    code: 414,
    reason: 'BadRequest',
    message: /the limit is 8192/,
  },
  // 3. Malformed DELETE bodies delete nothing.
  {
    name: 'DELETE whose body is a JSON string',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('"x"'),
    code: 400,
    reason: 'BadRequest',
    message: /must be a DeleteOptions object, got a string/,
  },
  {
    name: 'DELETE whose body is a list',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('[]'),
    code: 400,
    reason: 'BadRequest',
    message: /must be a DeleteOptions object, got a list/,
  },
  {
    name: 'DELETE with preconditions: "x"',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('{"preconditions":"x"}'),
    code: 400,
    reason: 'BadRequest',
    message: /preconditions must be an object, got a string/,
  },
  {
    name: 'DELETE with a numeric precondition uid',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('{"preconditions":{"uid":5}}'),
    code: 400,
    reason: 'BadRequest',
    message: /preconditions.uid must be a string/,
  },
  {
    name: 'DELETE with gracePeriodSeconds: 1e400',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('{"gracePeriodSeconds":1e400}'),
    code: 400,
    reason: 'BadRequest',
    message: /gracePeriodSeconds must be a whole number of seconds \(int64\), got a number out of range/,
  },
  {
    name: 'DELETE with a fractional gracePeriodSeconds in the query',
    method: 'DELETE',
    path: `${CMS}/existing?gracePeriodSeconds=1.5`,
    code: 400,
    reason: 'BadRequest',
    message: /gracePeriodSeconds must be a whole number/,
  },
  {
    name: 'DELETE with dryRun given as a string',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('{"dryRun":"All"}'),
    code: 400,
    reason: 'BadRequest',
    message: /dryRun must be a list of strings/,
  },
  {
    name: 'DELETE with a numeric propagationPolicy',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('{"propagationPolicy":5}'),
    code: 400,
    reason: 'BadRequest',
    message: /propagationPolicy must be a string/,
  },
  {
    name: 'DELETE with both orphanDependents and propagationPolicy',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('{"orphanDependents":true,"propagationPolicy":"Background"}'),
    code: 422,
    reason: 'Invalid',
    message: /orphanDependents and deletionPropagation cannot be both set/,
  },
  {
    name: 'DELETE with a body of another kind',
    method: 'DELETE',
    path: `${CMS}/existing`,
    options: json('{"kind":"ConfigMap"}'),
    code: 400,
    reason: 'BadRequest',
    message: /not a DeleteOptions/,
  },
  {
    name: 'a collection DELETE whose preconditions do not hold deletes nothing',
    method: 'DELETE',
    path: CMS,
    options: json('{"preconditions":{"uid":"not-the-uid"}}'),
    code: 409,
    reason: 'Conflict',
    message: /the UID in the precondition \(not-the-uid\) does not match/,
  },
  {
    name: 'a collection DELETE with a malformed label selector',
    method: 'DELETE',
    path: `${CMS}?labelSelector=${encodeURIComponent('a in (')}`,
    code: 400,
    reason: 'BadRequest',
    message: /unable to parse requirement/,
  },
  {
    name: 'a collection DELETE with a malformed body',
    method: 'DELETE',
    path: CMS,
    options: json('{"preconditions":'),
    code: 400,
    reason: 'BadRequest',
    message: /error decoding DeleteOptions/,
  },
  // 4. Deep JSON is a 400 before any recursive walk.
  ...(
    [
      ['metadata.name', cmText(`{"name":${deepJson(10_000)}}`)],
      ['metadata.labels', cmText(`{"name":"d","labels":${deepJson(10_000)}}`)],
      ['an annotation', cmText(`{"name":"d","annotations":{"a":${deepJson(10_000)}}}`)],
      ['ownerReferences', cmText(`{"name":"d","ownerReferences":[${deepJson(10_000)}]}`)],
      ['ConfigMap data', cmText('{"name":"d"}', deepJson(10_000))],
      ['nested arrays', cmText('{"name":"d"}', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)],
    ] as const
  ).map(([where, rawBody]): Row => ({
    name: `a body nested 10,000+ levels at ${where}`,
    method: 'POST',
    path: CMS,
    options: json(rawBody),
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  })),
  {
    name: 'a FederatedResourceQuota quantity nested 10,000 levels',
    method: 'POST',
    path: FRQS,
    options: json(
      `{"apiVersion":"policy.karmada.io/v1alpha1","kind":"FederatedResourceQuota","metadata":{"name":"q"},"spec":{"overall":{"cpu":${deepJson(10_000)}}}}`,
    ),
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  },
  {
    name: 'a deep merge patch',
    method: 'PATCH',
    path: `${CMS}/existing`,
    options: { rawBody: `{"data":${deepJson(10_000)}}`, contentType: 'application/merge-patch+json' },
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  },
  {
    name: 'a deep strategic merge patch',
    method: 'PATCH',
    path: `${CMS}/existing`,
    options: {
      rawBody: `{"metadata":{"labels":${deepJson(10_000)}}}`,
      contentType: 'application/strategic-merge-patch+json',
    },
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  },
  {
    name: 'a deep JSON patch value',
    method: 'PATCH',
    path: `${CMS}/existing`,
    options: {
      rawBody: `[{"op":"add","path":"/data/x","value":${deepJson(10_000)}}]`,
      contentType: 'application/json-patch+json',
    },
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  },
  {
    name: 'a JSON patch whose result is too deep (deep path, deep value)',
    method: 'PATCH',
    path: `${CMS}/existing`,
    options: {
      rawBody: JSON.stringify([
        { op: 'add', path: '/metadata/annotations', value: {} },
        { op: 'add', path: '/metadata/annotations/a', value: 'x' },
      ]).replace('"value":"x"', `"value":${deepJson(MAX_NESTING_DEPTH - 2)}`),
      contentType: 'application/json-patch+json',
    },
    code: 400,
    reason: 'BadRequest',
    message: /the patched object is nested more than/,
  },
  {
    name: 'a deep server-side apply (JSON body)',
    method: 'PATCH',
    path: `${CMS}/existing?fieldManager=x`,
    options: { rawBody: cmText('{"name":"existing"}', deepJson(10_000)), contentType: 'application/apply-patch+yaml' },
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  },
  {
    name: 'a deep YAML flow collection',
    method: 'POST',
    path: CMS,
    options: {
      rawBody: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\ndata: ${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      contentType: 'application/yaml',
    },
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  },
  {
    name: 'a deep scale update',
    method: 'PUT',
    path: '/apis/apps/v1/namespaces/default/deployments/web/scale',
    options: json(`{"kind":"Scale","apiVersion":"autoscaling/v1","spec":${deepJson(10_000)}}`),
    code: 400,
    reason: 'BadRequest',
    message: TOO_DEEP,
  },
  // 5. Names no object can have never reach the store.
  {
    name: 'GET of an 8,000-character name',
    method: 'GET',
    path: `${CMS}/${'a'.repeat(8000)}`,
    code: 404,
    reason: 'NotFound',
    message: /configmaps "a{10}/,
  },
  {
    name: 'DELETE of an 8,000-character name',
    method: 'DELETE',
    path: `${CMS}/${'a'.repeat(8000)}`,
    code: 404,
    reason: 'NotFound',
    message: /not found/,
  },
  {
    name: 'PUT of an 8,000-character name',
    method: 'PUT',
    path: `${CMS}/${'a'.repeat(8000)}`,
    options: { body: configMap('a'.repeat(8000), {}) },
    code: 404,
    reason: 'NotFound',
    message: /not found/,
  },
  {
    name: 'server-side apply of an 8,000-character name',
    method: 'PATCH',
    path: `${CMS}/${'a'.repeat(8000)}?fieldManager=x`,
    options: { rawBody: 'apiVersion: v1\nkind: ConfigMap\n', contentType: 'application/apply-patch+yaml' },
    code: 422,
    reason: 'Invalid',
    message: /metadata.name: Invalid value: .*must be no more than 253 bytes/,
  },
  {
    name: 'fieldSelector metadata.name of 5,000 characters',
    method: 'GET',
    path: `${CMS}?fieldSelector=metadata.name%3D${'a'.repeat(5000)}`,
    code: 400,
    reason: 'BadRequest',
    message: /fieldSelector metadata.name is 5000 bytes; no object name is longer than 253/,
  },
  {
    name: 'fieldSelector metadata.namespace of 100 characters, across namespaces',
    method: 'GET',
    path: `/api/v1/configmaps?fieldSelector=metadata.namespace%3D${'n'.repeat(100)}`,
    code: 400,
    reason: 'BadRequest',
    message: /no namespace name is longer than 63/,
  },
  {
    name: 'a namespace of 100 characters in the path',
    method: 'GET',
    path: `/api/v1/namespaces/${'n'.repeat(100)}/configmaps`,
    code: 404,
    reason: 'NotFound',
    message: /namespaces "n+…\(100 bytes\)" not found/,
  },
  {
    name: 'a multi-byte name over 253 bytes',
    method: 'GET',
    path: `/apis/rbac.authorization.k8s.io/v1/clusterroles/${encodeURIComponent('é'.repeat(200))}`,
    code: 404,
    reason: 'NotFound',
    message: /not found/,
  },
  // 8. Auth and validation looseness.
  {
    name: 'Authorization: Bearer with two spaces',
    method: 'GET',
    path: CMS,
    options: { token: null, headers: { authorization: 'Bearer  TOKEN' } },
    code: 401,
    reason: 'Unauthorized',
    message: /Unauthorized/,
  },
  {
    name: 'fieldValidation=Strict reports a duplicate JSON key',
    method: 'POST',
    path: `${CMS}?fieldValidation=Strict`,
    options: json(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"},"data":{"a":"1","a":"2"}}',
    ),
    code: 400,
    reason: 'BadRequest',
    message:
      /ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", duplicate field "data.a"/,
  },
  {
    name: 'fieldValidation=Strict reports a duplicate key in a merge patch',
    method: 'PATCH',
    path: `${CMS}/existing?fieldValidation=Strict`,
    options: { rawBody: '{"data":{"b":"1","b":"2"}}', contentType: 'application/merge-patch+json' },
    code: 400,
    reason: 'BadRequest',
    message: /strict decoding error: duplicate field "data.b"/,
  },
  {
    name: 'fieldValidation=Strict refuses fields named like Object.prototype members (toString, constructor, __proto__)',
    method: 'POST',
    path: `${CMS}?fieldValidation=Strict`,
    options: json(
      '{"apiVersion":"v1","kind":"ConfigMap","toString":"x","metadata":{"name":"p","constructor":{},"__proto__":{"x":1}}}',
    ),
    code: 400,
    reason: 'BadRequest',
    message:
      /strict decoding error: unknown field "toString", unknown field "metadata.constructor", unknown field "metadata.__proto__"/,
  },
  {
    name: 'fieldValidation=Strict refuses a merge patch adding constructor.prototype',
    method: 'PATCH',
    path: `${CMS}/existing?fieldValidation=Strict`,
    options: {
      rawBody: '{"constructor":{"prototype":{"polluted":1}}}',
      contentType: 'application/merge-patch+json',
    },
    code: 400,
    reason: 'BadRequest',
    message: /strict decoding error: unknown field "constructor"/,
  },
];

async function snapshot(h: Awaited<ReturnType<typeof apiHarness>>): Promise<string> {
  const kinds = [
    { group: '', kind: 'ConfigMap' },
    { group: '', kind: 'Secret' },
    { group: 'apps', kind: 'Deployment' },
    { group: 'policy.karmada.io', kind: 'FederatedResourceQuota' },
  ];
  const all = await Promise.all(kinds.map((k) => h.store.list(k)));
  return JSON.stringify(all.map((p) => p.items));
}

async function seeded() {
  const h = await apiHarness();
  await h.store.create(configMap('existing', { a: '1' }));
  await h.store.create(configMap('other', { b: '2' }));
  await h.store.create(deployment('web'));
  return h;
}

describe('hostile input: 4xx with a Status, nothing stored or deleted', () => {
  for (const row of rows) {
    it(`${row.name} → ${row.code} ${row.reason}`, async () => {
      const h = await seeded();
      const options = row.options?.headers?.authorization
        ? {
            ...row.options,
            headers: { authorization: row.options.headers.authorization.replace('TOKEN', h.admin.token) },
          }
        : row.options;
      const before = await snapshot(h);
      const res = await h.call(row.method, row.path, options);
      assert.equal(res.status, row.code, res.body.slice(0, 500));
      assert.equal(res.json.kind, 'Status');
      assert.equal(res.json.status, 'Failure');
      assert.equal(res.json.code, row.code);
      assert.equal(res.json.reason, row.reason);
      assert.match(res.json.message, row.message);
      assert.ok(res.body.length < 16_384, `the answer is short (${res.body.length} bytes)`);
      assert.equal(await snapshot(h), before, 'the store is unchanged');
      assert.deepEqual(h.enqueued, [], 'no controller was told about a write that did not happen');
    });
  }
});

describe('hostile input: a watch timeout', () => {
  it('timeoutSeconds is a whole number (1e400 was taken as an hour, abc as 30 minutes), capped at an hour', () => {
    for (const text of ['1e400', 'abc', '-1', '1.5', ' 5', '9999999999']) {
      assert.throws(
        () => watchTimeoutSeconds(text),
        (err: unknown) => err instanceof ApiError && err.code === 400 && /whole number of seconds/.test(err.message),
        text,
      );
    }
    assert.equal(watchTimeoutSeconds(null), 1800);
    assert.equal(watchTimeoutSeconds('0'), 1800);
    assert.equal(watchTimeoutSeconds('5'), 5);
    assert.equal(watchTimeoutSeconds('86400'), 3600);
  });
});

describe('hostile input: what is accepted', () => {
  it('a body nested exactly to the limit is served (a 4xx for its content, never a 500)', async () => {
    const h = await seeded();
    const res = await h.call('POST', CMS, json(cmText('{"name":"d"}', deepJson(MAX_NESTING_DEPTH - 1))));
    assert.equal(res.status, 422, res.body.slice(0, 300));
    assert.match(res.json.message, /ConfigMap "d" is invalid: data.a: Invalid value: .*\.\.\. \(\d+ characters\)/);
  });

  it('a deep-but-allowed annotation value is a 422 about the annotation, with the value cut short', async () => {
    const h = await seeded();
    const res = await h.call('POST', CMS, json(cmText(`{"name":"d","annotations":{"a":${deepJson(400)}}}`)));
    assert.equal(res.status, 422);
    assert.ok(res.body.length < 16_384, `${res.body.length} bytes`);
  });

  it('Bearer in lower case with one space authenticates, as in kube-apiserver', async () => {
    const h = await seeded();
    const res = await h.call('GET', CMS, { token: null, headers: { authorization: `bearer ${h.admin.token}` } });
    assert.equal(res.status, 200);
  });

  it('fieldValidation=Warn (the default) accepts duplicate keys with a warning; the last one wins', async () => {
    const h = await seeded();
    const res = await h.call(
      'POST',
      CMS,
      json('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1","a":"2"}}'),
    );
    assert.equal(res.status, 201);
    assert.match(res.headers.warning ?? '', /duplicate field \\"data.a\\"/);
    assert.deepEqual(res.json.data, { a: '2' });
    const ignored = await h.call(
      'POST',
      `${CMS}?fieldValidation=Ignore`,
      json('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup2"},"data":{"a":"1","a":"2"}}'),
    );
    assert.equal(ignored.status, 201);
    assert.equal(ignored.headers.warning, undefined);
  });

  it('fields named like Object.prototype members are unknown fields: dropped with a warning, never stored', async () => {
    const h = await seeded();
    const res = await h.call(
      'POST',
      CMS,
      json('{"apiVersion":"v1","kind":"ConfigMap","hasOwnProperty":{"a":1},"metadata":{"name":"p","toString":"x"}}'),
    );
    assert.equal(res.status, 201, res.body);
    assert.match(res.headers.warning ?? '', /unknown field \\"hasOwnProperty\\"/);
    const patched = await h.call('PATCH', `${CMS}/p`, {
      rawBody: '{"constructor":{"prototype":{"polluted":1}},"data":{"constructor":"kept: a map key"}}',
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.body);
    const stored = await h.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'p' });
    assert.deepEqual(Object.keys(stored!).sort(), ['apiVersion', 'data', 'kind', 'metadata']);
    assert.equal(Object.hasOwn(stored!.metadata, 'toString'), false);
    assert.deepEqual(stored!.data, { constructor: 'kept: a map key' });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('server-side apply of a Deployment whose container port omits protocol defaults it to TCP', async () => {
    const h = await seeded();
    const yaml = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: ports}',
      'spec:',
      '  selector: {matchLabels: {app: ports}}',
      '  template:',
      '    metadata: {labels: {app: ports}}',
      '    spec:',
      '      containers:',
      '      - name: c',
      '        image: nginx',
      '        ports:',
      '        - containerPort: 80',
    ].join('\n');
    const res = await h.call('PATCH', '/apis/apps/v1/namespaces/default/deployments/ports?fieldManager=me', {
      rawBody: yaml,
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
    // Applying again is a no-op for the port (its key is {containerPort: 80, protocol: TCP}).
    const again = await h.call('PATCH', '/apis/apps/v1/namespaces/default/deployments/ports?fieldManager=me', {
      rawBody: yaml,
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(again.status, 200, again.body);
    assert.equal(again.json.spec.template.spec.containers[0].ports.length, 1);
  });

  it('a collection DELETE whose preconditions hold deletes the one object they name', async () => {
    const h = await seeded();
    const only = await h.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'existing' });
    const res = await h.call('DELETE', `${CMS}?fieldSelector=metadata.name%3Dexisting`, {
      body: { preconditions: { uid: only!.metadata.uid } },
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(
      await h.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'existing' }),
      undefined,
    );
    assert.ok(await h.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'other' }));
  });

  it('a DELETE with null fields and an explicit DeleteOptions kind deletes', async () => {
    const h = await seeded();
    const res = await h.call('DELETE', `${CMS}/existing`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: null, dryRun: [] },
    });
    assert.equal(res.status, 200, res.body);
  });
});
