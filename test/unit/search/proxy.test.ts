/**
 * The global proxy and the cluster proxy in process, over an in-memory table and members that record
 * what reaches them: what a viewer and an administrator may send to a member through either proxy
 * (every path authorized as the member's kube-apiserver reads it, whether or not this server knows
 * the path), and reads merged over several clusters.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { issueToken, VIEWER_GROUP } from '../../../lib/apiserver/auth.ts';
import { createControlPlaneApi, ensureDefaultNamespaces, issueAdminToken } from '../../../lib/apiserver/server.ts';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { LocalKeyCipher } from '../../../lib/crypto/local-key.ts';
import { fieldManager, patchEngine } from '../../../lib/kube/engines.ts';
import { MemberClient } from '../../../lib/members/client.ts';
import { sealCredentialSecret } from '../../../lib/members/credentials.ts';
import { SearchCache } from '../../../lib/search/cache-store.ts';
import { GLOBAL_PROXY_PREFIX, SearchProxy } from '../../../lib/search/proxy.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';

const POD = { apiVersion: 'v1', kind: 'Pod' };
const CACHED_FROM = 'resource.karmada.io/cached-from-cluster';

/**
 * Two Push members with sealed credentials, a registry selecting their pods, `web` in both and `solo`
 * in member1 only.
 */
async function setup() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 30, 9, 0, 0));
  const rows = new MemoryRowStore();
  const store = new RowObjectStore(rows, { clock });
  const cipher = new LocalKeyCipher(randomBytes(32));
  const cache = new SearchCache(rows);
  await ensureDefaultNamespaces(store);
  const api = createControlPlaneApi({ store, workQueue: { enqueue: async () => {} }, clock, cipher });
  const forwarded: { cluster: string; method: string; path: string }[] = [];
  const proxy = new SearchProxy({
    store,
    cache,
    clock,
    rest: api.rest,
    backend: api.backend,
    engines: { patch: patchEngine, fields: fieldManager },
    cipher,
    connect: (conn) =>
      new MemberClient(conn, {
        transport: async (method, path) => {
          forwarded.push({ cluster: new URL(conn.server).hostname.split('.')[0]!, method, path });
          return { status: 200, body: '{"kind":"Status","status":"Success"}', contentType: 'application/json' };
        },
      }),
  });
  for (const name of ['member1', 'member2']) {
    await store.create(
      await sealCredentialSecret(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name, namespace: 'karmada-cluster' },
          data: { token: Buffer.from(`${name}-token`).toString('base64') },
        },
        undefined,
        cipher,
      ),
    );
    await store.create({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        syncMode: 'Push',
        apiEndpoint: `https://${name}.example:6443`,
        secretRef: { namespace: 'karmada-cluster', name },
      },
    });
    await cache.put(name, POD, 'default/web', {
      ...POD,
      metadata: { namespace: 'default', name: 'web', resourceVersion: '7', labels: { app: 'web' } },
    });
  }
  await cache.put('member1', POD, 'default/solo', {
    ...POD,
    metadata: { namespace: 'default', name: 'solo', resourceVersion: '8' },
  });
  await store.create({
    apiVersion: 'search.karmada.io/v1alpha1',
    kind: 'ResourceRegistry',
    metadata: { name: 'pods' },
    spec: { targetCluster: { clusterNames: ['member1', 'member2'] }, resourceSelectors: [POD] },
  });
  const admin = await issueAdminToken(store, 'test');
  const viewer = await issueToken(store, { user: 'alice', groups: [VIEWER_GROUP] });

  const call = async (method: string, target: string, token: string) => {
    const [path, query = ''] = target.split('?');
    const res = await proxy.handle({
      method,
      path: path!,
      query: new URLSearchParams(query),
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      body: Buffer.alloc(0),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are arbitrary JSON
    return { ...res, json: JSON.parse(res.body) as any };
  };
  return { forwarded, call, admin: admin.token, viewer: viewer.token };
}

const CLUSTER_PROXY = '/apis/cluster.karmada.io/v1alpha1/clusters/member1/proxy';

describe('cluster proxy: the inner request is authorized as the member reads it', () => {
  let h: Awaited<ReturnType<typeof setup>>;
  before(async () => {
    h = await setup();
  });

  const refused: { name: string; method?: string; path: string; message: RegExp }[] = [
    {
      name: 'a legacy watch of one namespace’s Secrets',
      path: '/api/v1/watch/namespaces/default/secrets',
      message: /cannot watch resource "secrets".*viewers may not read secrets/,
    },
    {
      name: 'a legacy watch of every Secret',
      path: '/api/v1/watch/secrets',
      message: /cannot watch resource "secrets".*viewers may not read secrets/,
    },
    {
      name: 'a pod proxy path',
      path: '/api/v1/namespaces/default/pods/web/proxy/metrics',
      message: /cannot get resource "pods\/proxy"/,
    },
    {
      name: 'a service proxy path',
      path: '/api/v1/namespaces/default/services/web:80/proxy/admin',
      message: /cannot get resource "services\/proxy"/,
    },
    {
      name: 'a node proxy path (the kubelet’s API)',
      path: '/api/v1/nodes/n1/proxy/configz',
      message: /cannot get resource "nodes\/proxy"/,
    },
    {
      name: 'a legacy proxy path',
      path: '/api/v1/proxy/namespaces/default/pods/web/x',
      message: /cannot get resource "pods\/proxy"/,
    },
    {
      name: 'exec by GET (the websocket upgrade)',
      path: '/api/v1/namespaces/default/pods/web/exec?command=sh',
      message: /cannot get resource "pods\/exec"/,
    },
    {
      // (A viewer's POST is already refused at the cluster proxy itself.)
      name: 'exec by POST',
      method: 'POST',
      path: '/api/v1/namespaces/default/pods/web/exec?command=sh',
      message: /cannot create resource "clusters\/proxy"/,
    },
    {
      name: 'port-forward',
      path: '/api/v1/namespaces/default/pods/web/portforward?ports=80',
      message: /cannot get resource "pods\/portforward"/,
    },
    { name: 'a non-resource path: /metrics', path: '/metrics', message: /cannot get path "\/metrics"/ },
    {
      name: 'a non-resource path: the apiserver’s logs',
      path: '/logs/kube-apiserver.log',
      message: /cannot get path "\/logs\/kube-apiserver.log"/,
    },
    { name: 'the path list at the root', path: '', message: /cannot get path "\/"/ },
  ];
  for (const row of refused) {
    it(`a viewer is refused ${row.name}, and nothing reaches the member; an administrator’s is forwarded`, async () => {
      h.forwarded.length = 0;
      const res = await h.call(row.method ?? 'GET', `${CLUSTER_PROXY}${row.path}`, h.viewer);
      assert.equal(res.status, 403, res.body);
      assert.match(res.json.message, row.message);
      assert.equal(h.forwarded.length, 0, JSON.stringify(h.forwarded));
      const asAdmin = await h.call(row.method ?? 'GET', `${CLUSTER_PROXY}${row.path}`, h.admin);
      assert.equal(asAdmin.status, 200, asAdmin.body);
      assert.deepEqual(
        h.forwarded.map((f) => `${f.cluster} ${f.method} ${f.path.split('?')[0]}`),
        [`member1 ${row.method ?? 'GET'} ${row.path.split('?')[0] || '/'}`],
      );
    });
  }

  const allowed: { name: string; path: string }[] = [
    { name: 'discovery: /api', path: '/api' },
    { name: 'discovery: /api/v1', path: '/api/v1' },
    { name: 'discovery: /apis', path: '/apis' },
    { name: 'discovery: a group', path: '/apis/apps' },
    { name: 'discovery: a group version', path: '/apis/apps/v1' },
    { name: 'the version', path: '/version' },
    { name: 'a health check', path: '/readyz' },
    { name: 'OpenAPI', path: '/openapi/v3/api/v1' },
    { name: 'a list of pods', path: '/api/v1/namespaces/default/pods' },
    { name: 'a legacy watch of pods', path: '/api/v1/watch/namespaces/default/pods' },
    { name: 'a pod’s log', path: '/api/v1/namespaces/default/pods/web/log' },
  ];
  for (const row of allowed) {
    it(`a viewer may read ${row.name} through it`, async () => {
      h.forwarded.length = 0;
      const res = await h.call('GET', `${CLUSTER_PROXY}${row.path}`, h.viewer);
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(
        h.forwarded.map((f) => f.path),
        [row.path],
      );
    });
  }
});

describe('global proxy: what goes to a member is authorized as the member reads it', () => {
  let h: Awaited<ReturnType<typeof setup>>;
  before(async () => {
    h = await setup();
  });

  for (const sub of ['proxy', 'exec', 'attach', 'portforward']) {
    it(`a viewer cannot reach pods/${sub} of a selected pod on its member; an administrator can`, async () => {
      h.forwarded.length = 0;
      const path = `${GLOBAL_PROXY_PREFIX}/api/v1/namespaces/default/pods/solo/${sub}`;
      const res = await h.call('GET', path, h.viewer);
      assert.equal(res.status, 403, res.body);
      assert.match(res.json.message, new RegExp(`User "alice" cannot get resource "pods/${sub}"`));
      assert.equal(h.forwarded.length, 0, JSON.stringify(h.forwarded));
      const asAdmin = await h.call('GET', path, h.admin);
      assert.equal(asAdmin.status, 200, asAdmin.body);
      assert.deepEqual(
        h.forwarded.map((f) => `${f.cluster} ${f.path}`),
        [`member1 /api/v1/namespaces/default/pods/solo/${sub}`],
      );
    });
  }

  it('a viewer reads a pod’s log on its member through it', async () => {
    h.forwarded.length = 0;
    const res = await h.call('GET', `${GLOBAL_PROXY_PREFIX}/api/v1/namespaces/default/pods/solo/log`, h.viewer);
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(
      h.forwarded.map((f) => `${f.cluster} ${f.path}`),
      ['member1 /api/v1/namespaces/default/pods/solo/log'],
    );
  });

  it('a legacy watch path of Secrets is not a selected kind, and never reaches a member', async () => {
    h.forwarded.length = 0;
    for (const path of ['/api/v1/watch/namespaces/default/secrets', '/api/v1/watch/secrets']) {
      const res = await h.call('GET', `${GLOBAL_PROXY_PREFIX}${path}`, h.viewer);
      assert.equal(res.status, 404, `${path}: ${res.body}`);
    }
    assert.equal(h.forwarded.length, 0, JSON.stringify(h.forwarded));
  });
});

describe('global proxy reads over several clusters', () => {
  it('a field selector on metadata.name lists every cluster’s copy (a get of the name is ambiguous)', async () => {
    const h = await setup();
    const listed = await h.call(
      'GET',
      `${GLOBAL_PROXY_PREFIX}/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dweb`,
      h.viewer,
    );
    assert.equal(listed.status, 200, listed.body);
    assert.equal(listed.json.kind, 'PodList');
    assert.deepEqual(
      (listed.json.items as KubeObject[]).map((p) => `${p.metadata.annotations?.[CACHED_FROM]} ${p.metadata.name}`),
      ['member1 web', 'member2 web'],
    );
    // As in a list, items keep their member's resourceVersion (a get's is the multi-cluster form).
    assert.deepEqual(
      (listed.json.items as KubeObject[]).map((p) => p.metadata.resourceVersion),
      ['7', '7'],
    );
    const none = await h.call(
      'GET',
      `${GLOBAL_PROXY_PREFIX}/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dweb&labelSelector=app%3Dother`,
      h.viewer,
    );
    assert.deepEqual(none.json.items, []);
    const got = await h.call('GET', `${GLOBAL_PROXY_PREFIX}/api/v1/namespaces/default/pods/web`, h.viewer);
    assert.equal(got.status, 409, got.body);
  });
});
