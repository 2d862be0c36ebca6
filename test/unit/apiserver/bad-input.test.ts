/**
 * Bad input gets a clear Kubernetes Status with the right code, and changes nothing: each case
 * asserts the code, the reason, the message, and that the store holds exactly what it held before.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { CallOptions } from '../../support/api.ts';
import { apiHarness } from '../../support/api.ts';
import { configMap, deployment } from '../../support/factories.ts';

/** `k8s\0` + runtime.Unknown with this type and an empty object, as client-go frames protobuf. */
function protobufEnvelope(apiVersion: string, kind: string): string {
  const field = (n: number, bytes: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2, bytes.length]), bytes]);
  const typeMeta = Buffer.concat([field(1, Buffer.from(apiVersion)), field(2, Buffer.from(kind))]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(1, typeMeta), field(2, Buffer.alloc(0))]).toString(
    'latin1',
  );
}

const PP = '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies';

function policy(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: 'default' },
    spec,
  };
}

const selectNginx = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }];

interface Case {
  name: string;
  method: string;
  path: string;
  options?: CallOptions;
  code: number;
  reason: string;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { rawBody: '{"apiVersion": "v1", "kind": ', contentType: 'application/json' },
    code: 400,
    reason: 'BadRequest',
    message: /couldn't get version\/kind; json parse error/,
  },
  {
    name: 'malformed YAML',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { rawBody: 'apiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n', contentType: 'application/yaml' },
    code: 400,
    reason: 'BadRequest',
    message: /json parse error/,
  },
  {
    name: 'a body that is not an object',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { body: [1, 2, 3] },
    code: 400,
    reason: 'BadRequest',
    message: /must be a ConfigMap object, got a list/,
  },
  {
    name: 'an unknown resource',
    method: 'POST',
    path: '/apis/example.com/v1/namespaces/default/widgets',
    options: { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } },
    code: 404,
    reason: 'NotFound',
    message: /the server could not find the requested resource/,
  },
  {
    name: 'a kind that does not match the URL',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } } },
    code: 400,
    reason: 'BadRequest',
    message: /the kind in the data \(Secret\) does not match the expected kind \(ConfigMap\)/,
  },
  {
    name: 'an apiVersion that does not match the URL',
    method: 'POST',
    path: '/apis/apps/v1/namespaces/default/deployments',
    options: { body: { ...deployment('d'), apiVersion: 'apps/v1beta1' } },
    code: 400,
    reason: 'BadRequest',
    message: /the API version in the data \(apps\/v1beta1\) does not match the expected API version \(apps\/v1\)/,
  },
  {
    name: 'an unknown field under strict field validation',
    method: 'POST',
    path: '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict',
    options: { body: { ...deployment('d'), spec: { ...(deployment('d').spec as object), replica: 3 } } },
    code: 400,
    reason: 'BadRequest',
    message:
      /Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"/,
  },
  {
    name: 'a field of the wrong type',
    method: 'POST',
    path: '/apis/apps/v1/namespaces/default/deployments',
    options: { body: { ...deployment('d'), spec: { ...(deployment('d').spec as object), replicas: 'three' } } },
    code: 422,
    reason: 'Invalid',
    message:
      /Deployment.apps "d" is invalid: spec.replicas: Invalid value: "three": spec.replicas in body must be of type integer/,
  },
  {
    name: 'a negative replica count',
    method: 'POST',
    path: '/apis/apps/v1/namespaces/default/deployments',
    options: { body: deployment('d', { replicas: -1 }) },
    code: 422,
    reason: 'Invalid',
    message: /spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0/,
  },
  {
    name: 'an invalid name',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { body: configMap('Not_Valid', {}) },
    code: 422,
    reason: 'Invalid',
    message:
      /ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain/,
  },
  {
    name: 'an invalid label',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { body: { ...configMap('ok', {}), metadata: { name: 'ok', labels: { 'bad key!': 'v' } } } },
    code: 422,
    reason: 'Invalid',
    message: /metadata.labels: Invalid value: "bad key!"/,
  },
  {
    name: 'a namespace that does not exist',
    method: 'POST',
    path: '/api/v1/namespaces/nowhere/configmaps',
    options: { body: configMap('c', {}, 'nowhere') },
    code: 404,
    reason: 'NotFound',
    message: /namespaces "nowhere" not found/,
  },
  {
    name: 'a server-side apply into a namespace that does not exist',
    method: 'PATCH',
    path: '/api/v1/namespaces/nowhere/configmaps/c?fieldManager=test',
    options: {
      rawBody: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n',
      contentType: 'application/apply-patch+yaml',
    },
    code: 404,
    reason: 'NotFound',
    message: /namespaces "nowhere" not found/,
  },
  {
    name: 'a body namespace that differs from the URL',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { body: configMap('c', {}, 'kube-system') },
    code: 400,
    reason: 'BadRequest',
    message:
      /the namespace of the provided object \(kube-system\) does not match the namespace sent on the request \(default\)/,
  },
  {
    name: 'a selector that does not match the pod template',
    method: 'POST',
    path: '/apis/apps/v1/namespaces/default/deployments',
    options: {
      body: {
        ...deployment('d'),
        spec: { ...(deployment('d').spec as object), selector: { matchLabels: { app: 'other' } } },
      },
    },
    code: 422,
    reason: 'Invalid',
    message: /spec.template.metadata.labels: Invalid value: .*`selector` does not match template `labels`/,
  },
  {
    name: 'an object over the size limit, even compressed',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: {
      body: configMap('huge', {
        blob: randomBytes(900 * 1024)
          .toString('base64')
          .slice(0, 1_000_000),
      }),
    },
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: /is too large to store.*split the data/,
  },
  {
    name: 'a request body over 3 MiB',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { rawBody: 'x'.repeat(3 * 1024 * 1024 + 1) },
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: /the limit is 3145728/,
  },
  {
    name: 'a truncated protobuf body',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    options: { rawBody: '\x6b\x38\x73\x00', contentType: 'application/vnd.kubernetes.protobuf' },
    code: 415,
    reason: 'UnsupportedMediaType',
    message: /accepted media types include: application\/json, application\/yaml/,
  },
  {
    name: 'a protobuf body of a kind the server does not decode',
    method: 'POST',
    path: '/apis/apps/v1/namespaces/default/statefulsets',
    options: {
      rawBody: protobufEnvelope('apps/v1', 'StatefulSet'),
      contentType: 'application/vnd.kubernetes.protobuf',
    },
    code: 415,
    reason: 'UnsupportedMediaType',
    message: /protobuf bodies of apps\/v1 StatefulSet are not supported: send JSON or YAML \(kubectl apply -f\)/,
  },
  {
    name: 'a strategic merge patch on a custom resource',
    method: 'PATCH',
    path: `${PP}/existing`,
    options: { body: { spec: {} }, contentType: 'application/strategic-merge-patch+json' },
    code: 415,
    reason: 'UnsupportedMediaType',
    message: /accepted media types include/,
  },
  {
    name: 'an unknown patch type',
    method: 'PATCH',
    path: '/api/v1/namespaces/default/configmaps/existing',
    options: { body: {}, contentType: 'text/plain' },
    code: 415,
    reason: 'UnsupportedMediaType',
    message: /unknown format \(text\/plain\)/,
  },
  {
    name: 'a JSON patch whose test fails',
    method: 'PATCH',
    path: '/api/v1/namespaces/default/configmaps/existing',
    options: { body: [{ op: 'test', path: '/data/a', value: 'nope' }], contentType: 'application/json-patch+json' },
    code: 422,
    reason: 'Invalid',
    message: /json patch operation 0 \(test \/data\/a\)/,
  },
  {
    name: 'server-side apply without a field manager',
    method: 'PATCH',
    path: '/api/v1/namespaces/default/configmaps/existing',
    options: { rawBody: 'apiVersion: v1\nkind: ConfigMap\n', contentType: 'application/apply-patch+yaml' },
    code: 400,
    reason: 'BadRequest',
    message: /must set the fieldManager query parameter/,
  },
  {
    name: 'an unsupported dry-run value',
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps?dryRun=Some',
    options: { body: configMap('c', {}) },
    code: 400,
    reason: 'BadRequest',
    message: /unsupported dryRun value "Some": the only value accepted is All/,
  },
  {
    name: 'a malformed label selector',
    method: 'GET',
    path: '/api/v1/namespaces/default/configmaps?labelSelector=app%20in%20(',
    code: 400,
    reason: 'BadRequest',
    message: /unable to parse requirement/,
  },
  {
    name: 'an unsupported field selector',
    method: 'GET',
    path: '/api/v1/namespaces/default/configmaps?fieldSelector=data.a%3Db',
    code: 400,
    reason: 'BadRequest',
    message: /field label not supported: data.a/,
  },
  {
    name: 'a forged continue token',
    method: 'GET',
    path: '/api/v1/namespaces/default/configmaps?limit=1&continue=not-a-token',
    code: 400,
    reason: 'BadRequest',
    message: /invalid continue token/,
  },
  {
    name: 'a PropagationPolicy with both clusterAffinity and clusterAffinities',
    method: 'POST',
    path: PP,
    options: {
      body: policy('both', {
        resourceSelectors: selectNginx,
        placement: { clusterAffinity: { clusterNames: ['member1'] }, clusterAffinities: [{ affinityName: 'a' }] },
      }),
    },
    code: 422,
    reason: 'Invalid',
    message:
      /PropagationPolicy.policy.karmada.io "both" is invalid: spec.placement: .*clusterAffinities cannot co-exist with clusterAffinity/,
  },
  {
    name: 'a PropagationPolicy without resource selectors',
    method: 'POST',
    path: PP,
    options: { body: policy('empty', { placement: {} }) },
    code: 422,
    reason: 'Invalid',
    message: /spec.resourceSelectors: Required value/,
  },
  {
    name: 'a PropagationPolicy with an unknown purge mode',
    method: 'POST',
    path: PP,
    options: {
      body: policy('purge', {
        resourceSelectors: selectNginx,
        propagateDeps: true,
        failover: { application: { decisionConditions: { tolerationSeconds: 30 }, purgeMode: 'Sometimes' } },
      }),
    },
    code: 422,
    reason: 'Invalid',
    message: /purgeMode: Unsupported value: "Sometimes"/,
  },
  {
    name: 'a PropagationPolicy with a non-positive static weight',
    method: 'POST',
    path: PP,
    options: {
      body: policy('weights', {
        resourceSelectors: selectNginx,
        placement: {
          replicaScheduling: {
            replicaSchedulingType: 'Divided',
            replicaDivisionPreference: 'Weighted',
            weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 0 }] },
          },
        },
      }),
    },
    code: 422,
    reason: 'Invalid',
    message: /weight: Invalid value: 0: .*greater than or equal to 1/,
  },
  {
    name: 'a PropagationPolicy spread constraint with maxGroups below minGroups',
    method: 'POST',
    path: PP,
    options: {
      body: policy('spread', {
        resourceSelectors: selectNginx,
        placement: { spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 1, minGroups: 2 }] },
      }),
    },
    code: 422,
    reason: 'Invalid',
    message: /maxGroups lower than minGroups is not allowed/,
  },
];

async function snapshot(h: Awaited<ReturnType<typeof apiHarness>>): Promise<string> {
  const kinds = [
    { group: '', kind: 'ConfigMap' },
    { group: 'apps', kind: 'Deployment' },
    { group: 'policy.karmada.io', kind: 'PropagationPolicy' },
  ];
  const all = await Promise.all(kinds.map((k) => h.store.list(k)));
  return JSON.stringify(all.map((p) => p.items));
}

describe('bad input: a clear Status, nothing changed', () => {
  for (const c of cases) {
    it(`${c.name} → ${c.code} ${c.reason}`, async () => {
      const h = await apiHarness();
      await h.store.create(configMap('existing', { a: '1' }));
      await h.store.create(policy('existing', { resourceSelectors: selectNginx }));
      const before = await snapshot(h);
      const res = await h.call(c.method, c.path, c.options);
      assert.equal(res.status, c.code, res.body);
      assert.equal(res.json.kind, 'Status');
      assert.equal(res.json.status, 'Failure');
      assert.equal(res.json.code, c.code);
      assert.equal(res.json.reason, c.reason);
      assert.match(res.json.message, c.message);
      assert.equal(await snapshot(h), before, 'the store is unchanged');
      assert.deepEqual(h.enqueued, [], 'no controller was told about a write that did not happen');
    });
  }

  it('a stale resourceVersion → 409 Conflict, the newer object kept', async () => {
    const h = await apiHarness();
    const created = await h.call('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('c', { v: '1' }) });
    const stale = created.json;
    const fresh = await h.call('PUT', '/api/v1/namespaces/default/configmaps/c', {
      body: { ...stale, data: { v: '2' } },
    });
    assert.equal(fresh.status, 200);
    const res = await h.call('PUT', '/api/v1/namespaces/default/configmaps/c', {
      body: { ...stale, data: { v: '3' } },
    });
    assert.equal(res.status, 409);
    assert.equal(res.json.reason, 'Conflict');
    assert.match(
      res.json.message,
      /Operation cannot be fulfilled on configmaps "c": the object has been modified; please apply your changes to the latest version and try again/,
    );
    assert.deepEqual((await h.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'c' }))?.data, {
      v: '2',
    });
  });

  it('a create of an existing name → 409 AlreadyExists', async () => {
    const h = await apiHarness();
    await h.call('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('c', { v: '1' }) });
    const res = await h.call('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('c', { v: '2' }) });
    assert.equal(res.status, 409);
    assert.equal(res.json.reason, 'AlreadyExists');
    assert.equal(res.json.message, 'configmaps "c" already exists');
  });

  for (const [what, token, code, message] of [
    ['no token', null, 401, /^Unauthorized$/],
    ['a malformed token', 'hello', 401, /^Unauthorized$/],
    ['an unknown token', 'skt_abcdefghij_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 401, /^Unauthorized$/],
  ] as const) {
    it(`${what} → ${code}, nothing served`, async () => {
      const h = await apiHarness();
      const res = await h.call('GET', '/api/v1/namespaces/default/configmaps', { token });
      assert.equal(res.status, code);
      assert.match(res.json.message, message);
    });
  }

  it('a token with the right id but a wrong secret → 401', async () => {
    const h = await apiHarness();
    const forged = h.admin.token.replace(/_[^_]+$/, '_' + 'B'.repeat(43));
    const res = await h.call('GET', '/api/v1/namespaces/default/configmaps', { token: forged });
    assert.equal(res.status, 401);
  });

  it('a viewer writing → 403 Forbidden, naming user, verb and resource; reading is allowed', async () => {
    const h = await apiHarness();
    const res = await h.call('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap('c', {}),
      token: h.viewer.token,
    });
    assert.equal(res.status, 403);
    assert.equal(res.json.reason, 'Forbidden');
    assert.match(
      res.json.message,
      /configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default"/,
    );
    assert.equal((await h.call('GET', '/api/v1/namespaces/default/configmaps', { token: h.viewer.token })).status, 200);
    assert.deepEqual((await h.store.list({ group: '', kind: 'ConfigMap' })).items, []);
  });

  it('a deletion-protected template → 403 with Karmada’s message, still there', async () => {
    const h = await apiHarness();
    const cm = configMap('keep', {});
    cm.metadata.labels = { 'resourcetemplate.karmada.io/deletion-protected': 'Always' };
    await h.call('POST', '/api/v1/namespaces/default/configmaps', { body: cm });
    const res = await h.call('DELETE', '/api/v1/namespaces/default/configmaps/keep');
    assert.equal(res.status, 403);
    assert.match(
      res.json.message,
      /This resource is protected, please make sure to remove the label: resourcetemplate.karmada.io\/deletion-protected/,
    );
    assert.ok(await h.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'keep' }));
  });
});
