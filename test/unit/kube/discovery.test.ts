/**
 * Aggregated discovery (apidiscovery.k8s.io v2 and v2beta1) at `/api` and `/apis`, served to a
 * client whose Accept asks for it — negotiated as kube-apiserver does — and the legacy documents to
 * every other client, unchanged. Both answers come from the same catalog and agree, CRDs included.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregatedDiscoveryVersion } from '../../../lib/kube/catalog/discovery.ts';
import { apiHarness } from '../../support/api.ts';

/** What client-go (kubectl 1.30+) sends to `/api` and `/apis`. */
const CLIENT_GO =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

// Answers are arbitrary JSON; tests index into them freely.
/* eslint-disable @typescript-eslint/no-explicit-any */
const item = (list: any, group: string) => list.items.find((i: any) => (i.metadata.name ?? '') === group);
const resource = (version: any, plural: string) => version.resources.find((r: any) => r.resource === plural);
/** The `status` and `scale` subresources of a kind, as aggregated discovery lists them. */
const statusAndScale = (kind: string) => [
  { subresource: 'status', responseKind: { group: '', version: '', kind }, verbs: ['get', 'patch', 'update'] },
  {
    subresource: 'scale',
    responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    verbs: ['get', 'patch', 'update'],
  },
];

const WIDGETS_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wdg'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
      {
        name: 'v1beta1',
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

describe('aggregated discovery', () => {
  it('answers /apis with an APIGroupDiscoveryList v2 to client-go’s Accept', async () => {
    const h = await apiHarness();
    const res = await h.call('GET', '/apis', { accept: CLIENT_GO });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    assert.equal(res.headers.vary, 'Accept');
    assert.deepEqual(Object.keys(res.json), ['kind', 'apiVersion', 'metadata', 'items']);
    assert.equal(res.json.kind, 'APIGroupDiscoveryList');
    assert.equal(res.json.apiVersion, 'apidiscovery.k8s.io/v2');
    assert.deepEqual(res.json.metadata, {});
    assert.equal(item(res.json, ''), undefined, 'the core group is at /api only');

    const apps = item(res.json, 'apps');
    assert.deepEqual(apps.metadata, { name: 'apps', creationTimestamp: null });
    assert.deepEqual(
      apps.versions.map((v: any) => [v.version, v.freshness]),
      [['v1', 'Current']],
    );
    assert.deepEqual(resource(apps.versions[0], 'deployments'), {
      resource: 'deployments',
      responseKind: { group: '', version: '', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update'],
      shortNames: ['deploy'],
      categories: ['all'],
      subresources: statusAndScale('Deployment'),
    });
    const clusters = resource(item(res.json, 'cluster.karmada.io').versions[0], 'clusters');
    assert.equal(clusters.scope, 'Cluster');
    assert.ok(
      apps.versions[0].resources.every((r: any) => !r.resource.includes('/')),
      'subresources only under their resource',
    );

    // Versions in preference order: work.karmada.io prefers v1alpha2 (bindings) over v1alpha1 (Works).
    const legacyWork = (await h.call('GET', '/apis/work.karmada.io')).json;
    const work = item(res.json, 'work.karmada.io');
    assert.equal(work.versions[0].version, legacyWork.preferredVersion.version);
    assert.deepEqual(work.versions.map((v: any) => v.version).sort(), ['v1alpha1', 'v1alpha2']);
  });

  it('answers /api with the core group, which has no name', async () => {
    const h = await apiHarness();
    const res = await h.call('GET', '/api', { accept: CLIENT_GO });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    assert.equal(res.json.items.length, 1);
    assert.deepEqual(res.json.items[0].metadata, { creationTimestamp: null });
    const v1 = res.json.items[0].versions[0];
    assert.equal(v1.version, 'v1');
    assert.deepEqual(resource(v1, 'namespaces'), {
      resource: 'namespaces',
      responseKind: { group: '', version: '', kind: 'Namespace' },
      scope: 'Cluster',
      singularResource: 'namespace',
      verbs: resource(v1, 'namespaces').verbs,
      shortNames: ['ns'],
      subresources: [
        {
          subresource: 'status',
          responseKind: { group: '', version: '', kind: 'Namespace' },
          verbs: ['get', 'patch', 'update'],
        },
      ],
    });
  });

  it('answers v2beta1 to a client that asks for it', async () => {
    const h = await apiHarness();
    for (const accept of [`${V2BETA1},application/json`, `${V2};q=0.5,${V2BETA1}`]) {
      const res = await h.call('GET', '/apis', { accept });
      assert.equal(res.headers['content-type'], V2BETA1, accept);
      assert.equal(res.json.apiVersion, 'apidiscovery.k8s.io/v2beta1');
      const v2 = await h.call('GET', '/apis', { accept: V2 });
      assert.deepEqual(res.json.items, v2.json.items, 'the same items in both versions');
    }
  });

  it('agrees with the legacy documents on every group version', async () => {
    const h = await apiHarness();
    for (const [root, legacyPaths] of [
      ['/api', async () => ['/api/v1']],
      [
        '/apis',
        async () =>
          (await h.call('GET', '/apis')).json.groups.flatMap((g: any) =>
            g.versions.map((v: any) => `/apis/${v.groupVersion}`),
          ),
      ],
    ] as const) {
      const aggregated = (await h.call('GET', root, { accept: CLIENT_GO })).json;
      const fromAggregated = aggregated.items.flatMap((i: any) =>
        i.versions.flatMap((v: any) =>
          v.resources.flatMap((r: any) => [
            `${i.metadata.name ?? ''}/${v.version} ${r.resource} ${r.responseKind.kind} ${r.scope} ${r.verbs}`,
            ...(r.subresources ?? []).map(
              (s: any) => `${i.metadata.name ?? ''}/${v.version} ${r.resource}/${s.subresource} ${s.responseKind.kind}`,
            ),
          ]),
        ),
      );
      const fromLegacy: string[] = [];
      for (const path of await legacyPaths()) {
        const list = (await h.call('GET', path)).json;
        const gv = list.groupVersion.includes('/') ? list.groupVersion : `/${list.groupVersion}`;
        for (const r of list.resources) {
          fromLegacy.push(
            r.name.includes('/')
              ? `${gv} ${r.name} ${r.kind}`
              : `${gv} ${r.name} ${r.kind} ${r.namespaced ? 'Namespaced' : 'Cluster'} ${r.verbs}`,
          );
        }
      }
      assert.deepEqual(fromAggregated.sort(), fromLegacy.sort(), root);
    }
  });

  it('lists a CRD as soon as it is created, its subresources under it, every served version', async () => {
    const h = await apiHarness();
    const before = (await h.call('GET', '/apis', { accept: CLIENT_GO })).json;
    assert.equal(item(before, 'example.com'), undefined);
    const created = await h.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: WIDGETS_CRD,
    });
    assert.equal(created.status, 201, created.body);

    const after = (await h.call('GET', '/apis', { accept: CLIENT_GO })).json;
    const example = item(after, 'example.com');
    assert.ok(example, 'the CRD’s group is listed');
    assert.deepEqual(
      example.versions.map((v: any) => v.version),
      ['v1', 'v1beta1'],
    );
    assert.deepEqual(resource(example.versions[0], 'widgets'), {
      resource: 'widgets',
      responseKind: { group: '', version: '', kind: 'Widget' },
      scope: 'Namespaced',
      singularResource: 'widget',
      verbs: resource(example.versions[0], 'widgets').verbs,
      shortNames: ['wdg'],
      subresources: statusAndScale('Widget'),
    });
    assert.equal(resource(example.versions[1], 'widgets').subresources, undefined, 'v1beta1 has none');
    assert.ok(
      resource(example.versions[0], 'widgets').verbs.includes('list'),
      'a custom resource is listable like any other',
    );
  });

  it('keeps the legacy documents, byte for byte, for a client that does not ask', async () => {
    const h = await apiHarness();
    for (const accept of [
      'application/json',
      'application/json, */*',
      '*/*',
      `application/json,${V2}`,
      `${V2};q=0.5,application/json`,
      // Aggregated discovery in protobuf is not served: the next entry (legacy JSON) wins.
      'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      // A version this server does not serve.
      'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json',
    ]) {
      const apis = await h.call('GET', '/apis', { accept });
      assert.equal(apis.status, 200);
      assert.deepEqual(apis.headers, { 'content-type': 'application/json' }, accept);
      assert.equal(apis.json.kind, 'APIGroupList', accept);
      const api = await h.call('GET', '/api', { accept });
      assert.equal(
        api.body,
        '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":""}]}',
        accept,
      );
    }
    const apps = (await h.call('GET', '/apis')).json.groups.find((g: any) => g.name === 'apps');
    assert.deepEqual(apps, {
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
    // The per-group-version list, as before: a subresource is its own entry, named resource/sub.
    const list = await h.call('GET', '/apis/apps/v1', { accept: CLIENT_GO });
    assert.equal(list.headers['content-type'], 'application/json');
    const deployments = list.body.slice(list.body.indexOf('{"name":"deployments"'));
    assert.ok(
      deployments.startsWith(
        '{"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment",' +
          '"verbs":["create","delete","deletecollection","get","list","patch","update"],"shortNames":["deploy"],' +
          '"categories":["all"],"storageVersionHash":"',
      ),
      deployments.slice(0, 300),
    );
    assert.ok(
      deployments.includes(
        '{"name":"deployments/status","singularName":"","namespaced":true,"kind":"Deployment","verbs":["get","patch","update"]},' +
          '{"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]}',
      ),
      deployments.slice(0, 600),
    );
  });

  it('tags the answer with an ETag and answers 304 to a client that has it', async () => {
    const h = await apiHarness();
    const first = await h.call('GET', '/apis', { accept: CLIENT_GO });
    const etag = first.headers.etag;
    assert.match(etag ?? '', /^"[0-9A-F]+"$/);
    const again = await h.call('GET', '/apis', { accept: CLIENT_GO, headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, etag);
    const changed = await h.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: WIDGETS_CRD,
    });
    assert.equal(changed.status, 201, changed.body);
    const fresh = await h.call('GET', '/apis', { accept: CLIENT_GO, headers: { 'if-none-match': etag! } });
    assert.equal(fresh.status, 200, 'a new CRD changes the document');
    assert.notEqual(fresh.headers.etag, etag);
  });

  it('needs authentication like the legacy documents', async () => {
    const h = await apiHarness();
    const res = await h.call('GET', '/apis', { accept: CLIENT_GO, token: null });
    assert.equal(res.status, 401);
  });
});

describe('aggregatedDiscoveryVersion (Accept negotiation)', () => {
  it('picks the first entry it serves, by q then by order', () => {
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      [CLIENT_GO, 'v2'],
      [V2, 'v2'],
      [V2BETA1, 'v2beta1'],
      [`${V2BETA1},${V2}`, 'v2beta1'],
      [`${V2};q=0.9,${V2BETA1}`, 'v2beta1'],
      [`application/json;q=0.5,${V2}`, 'v2'],
      [`${V2};q=0,application/json`, undefined],
      [`application/json,${V2}`, undefined],
      [`*/*,${V2}`, undefined],
      // Not served here, so passed over: protobuf, Table, an unknown group or version, text/html.
      [`application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${V2}`, 'v2'],
      [`application/json;as=Table;v=v1;g=meta.k8s.io,${V2BETA1}`, 'v2beta1'],
      ['application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList', undefined],
      [`text/html,${V2}`, 'v2'],
      [' application/json ; g=apidiscovery.k8s.io ; v=v2 ; as=APIGroupDiscoveryList ', 'v2'],
    ];
    for (const [accept, want] of cases) assert.equal(aggregatedDiscoveryVersion(accept), want, String(accept));
  });
});
