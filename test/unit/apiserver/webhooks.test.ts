/**
 * The member-cluster webhooks' security: every way a request can be refused (401/403) changes
 * nothing, and registration accepts only a live bootstrap token allowed to authenticate.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createControlPlaneApi, ensureDefaultNamespaces } from '../../../lib/apiserver/server.ts';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { LocalKeyCipher } from '../../../lib/crypto/local-key.ts';
import type { KubeResponse } from '../../../lib/kube/base/http.ts';
import { bootstrapTokenSecret, generateBootstrapToken } from '../../../lib/registration/bootstrap-token.ts';
import { signWebhookRequest } from '../../../lib/registration/webhook-signing.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';
import { eventTtl } from '../../../lib/store/ttl.ts';

async function harness() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 21, 10));
  const store = new RowObjectStore(new MemoryRowStore(), { clock, ttlSeconds: eventTtl(3600) });
  await ensureDefaultNamespaces(store);
  const api = createControlPlaneApi({
    store,
    workQueue: { enqueue: async () => {} },
    clock,
    cipher: new LocalKeyCipher(randomBytes(32)),
  });
  const token = generateBootstrapToken();
  await store.create(
    bootstrapTokenSecret({ id: token.id, secret: token.secret, nowMs: clock.now(), ttlMs: 3_600_000 }),
  );
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const raw = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    const res: KubeResponse = await api.handler.handle({
      method: 'POST',
      path,
      query: new URLSearchParams(),
      headers: { 'content-type': 'application/json', ...headers },
      body: raw,
    });
    return { ...res, json: JSON.parse(res.body) as { message?: string; credential?: string } };
  };
  const register = (name: string, bearer = token.token) =>
    post('/webhooks/v1/register', { clusterName: name }, { authorization: `Bearer ${bearer}` });
  const signed = (
    cluster: string,
    secret: string,
    action: string,
    body: unknown = {},
    opts: { nowMs?: number; nonce?: string; path?: string } = {},
  ) => {
    const path = opts.path ?? `/webhooks/v1/clusters/${cluster}/${action}`;
    const headers = signWebhookRequest({
      method: 'POST',
      path,
      body: Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body)),
      cluster,
      secret,
      nowMs: opts.nowMs ?? clock.now(),
      ...(opts.nonce ? { nonce: opts.nonce } : {}),
    });
    return post(path, body, headers);
  };
  const lease = (name: string) =>
    store.get({ group: 'coordination.k8s.io', kind: 'Lease', namespace: 'karmada-cluster', name });
  return { clock, store, token, post, register, signed, lease };
}

describe('Pull registration', () => {
  it('exchanges a live token for a credential, once per cluster name', async () => {
    const h = await harness();
    const res = await h.register('edge1');
    assert.equal(res.status, 201, res.body);
    assert.match(res.json.credential!, /^[A-Za-z0-9_-]{40,}$/);
    const cluster = await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' });
    assert.equal((cluster?.spec as { syncMode: string }).syncMode, 'Pull');
    assert.equal((cluster?.spec as { resourceModels: unknown[] }).resourceModels.length, 9, "Karmada's default models");
    const stored = await h.store.get({ group: '', kind: 'Secret', namespace: 'karmada-cluster', name: 'agent.edge1' });
    assert.doesNotMatch(
      JSON.stringify(stored),
      new RegExp(res.json.credential!),
      'the credential is stored sealed only',
    );
    assert.equal((await h.register('edge1')).status, 409);
  });

  it('refuses a wrong, unknown, expired or authentication-less token and registers nothing', async () => {
    const h = await harness();
    const wrong = `${h.token.id}.${'0'.repeat(16)}`;
    const unknown = generateBootstrapToken().token;
    for (const bearer of [wrong, unknown, 'not-a-token']) {
      const res = await h.register('edge1', bearer);
      assert.equal(res.status, 401, bearer);
      assert.match(res.json.message!, /bootstrap token is unknown, expired or not allowed/);
    }
    const signingOnly = generateBootstrapToken();
    await h.store.create(
      bootstrapTokenSecret({
        id: signingOnly.id,
        secret: signingOnly.secret,
        nowMs: h.clock.now(),
        usages: ['signing'],
      }),
    );
    assert.equal((await h.register('edge1', signingOnly.token)).status, 401);
    await h.clock.advance(3_600_001);
    assert.equal((await h.register('edge1')).status, 401, 'expired');
    assert.equal(await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' }), undefined);
  });

  it('refuses an invalid cluster name with Karmada’s rule', async () => {
    const h = await harness();
    const res = await h.register('Edge_1');
    assert.equal(res.status, 422);
    assert.match(res.json.message!, /clusterName "Edge_1" is invalid/);
  });
});

describe('signed cluster webhooks', () => {
  async function registered() {
    const h = await harness();
    const credential = (await h.register('edge1')).json.credential!;
    const other = (await h.register('edge2')).json.credential!;
    return { ...h, credential, other };
  }

  it('renews the lease with a valid signature', async () => {
    const h = await registered();
    const res = await h.signed('edge1', h.credential, 'heartbeat');
    assert.equal(res.status, 200, res.body);
    assert.ok(await h.lease('edge1'));
  });

  const cases: [
    string,
    (h: Awaited<ReturnType<typeof registered>>) => Promise<{ status: number; json: { message?: string } }>,
    number,
    RegExp,
  ][] = [
    ['no signature', (h) => h.post('/webhooks/v1/clusters/edge1/heartbeat', {}), 401, /./],
    ['a wrong credential', (h) => h.signed('edge1', 'not-the-credential-at-all-000000000000', 'heartbeat'), 401, /./],
    [
      'a stale timestamp',
      (h) => h.signed('edge1', h.credential, 'heartbeat', {}, { nowMs: h.clock.now() - 6 * 60_000 }),
      401,
      /timestamp/,
    ],
    [
      'a future timestamp',
      (h) => h.signed('edge1', h.credential, 'heartbeat', {}, { nowMs: h.clock.now() + 6 * 60_000 }),
      401,
      /timestamp/,
    ],
    ['an unknown cluster', (h) => h.signed('ghost', h.credential, 'heartbeat'), 401, /./],
    [
      'one cluster posting for another',
      (h) => h.signed('edge2', h.other, 'heartbeat', {}, { path: '/webhooks/v1/clusters/edge1/heartbeat' }),
      403,
      /edge2 may not post for cluster edge1/,
    ],
  ];
  for (const [what, send, status, message] of cases) {
    it(`refuses ${what} (${status}) and changes nothing`, async () => {
      const h = await registered();
      const res = await send(h);
      assert.equal(res.status, status, JSON.stringify(res.json));
      assert.match(res.json.message ?? '', message);
      assert.equal(await h.lease('edge1'), undefined);
      assert.doesNotMatch(JSON.stringify(res.json), new RegExp(h.credential));
    });
  }

  it('refuses a replayed request', async () => {
    const h = await registered();
    const nonce = 'n0nce-0123456789abcdef';
    assert.equal((await h.signed('edge1', h.credential, 'heartbeat', {}, { nonce })).status, 200);
    const lease = await h.lease('edge1');
    await h.clock.advance(1000);
    const replay = await h.signed('edge1', h.credential, 'heartbeat', {}, { nonce, nowMs: h.clock.now() - 1000 });
    assert.equal(replay.status, 401);
    assert.match(replay.json.message!, /replayed request/);
    assert.equal((await h.lease('edge1'))?.metadata.resourceVersion, lease?.metadata.resourceVersion);
  });

  it('refuses webhooks for Push clusters, whose status the control plane collects itself', async () => {
    const h = await registered();
    const cluster = await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' });
    await h.store.update({ ...cluster!, spec: { ...(cluster!.spec as object), syncMode: 'Push' } });
    const res = await h.signed('edge1', h.credential, 'status', { kubernetesVersion: 'v9.9.9' });
    assert.equal(res.status, 403);
  });

  it('accepts only the status fields an agent reports', async () => {
    const h = await registered();
    const res = await h.signed('edge1', h.credential, 'status', {
      kubernetesVersion: 'v1.31.0',
      nodeSummary: { totalNum: 2, readyNum: 2 },
      remedyActions: ['TrafficControl'],
    });
    assert.equal(res.status, 200, res.body);
    const status = (await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' }))
      ?.status as Record<string, unknown>;
    assert.equal(status.kubernetesVersion, 'v1.31.0');
    assert.equal(status.remedyActions, undefined);
  });
});

describe('credentials bound to their cluster', () => {
  it('does not accept the credential of a deleted cluster for a new one of the same name', async () => {
    const h = await harness();
    const old = (await h.register('edge1')).json.credential!;
    const cluster = await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' });
    await h.store.delete({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' });
    await h.store.create({
      apiVersion: cluster!.apiVersion,
      kind: 'Cluster',
      metadata: { name: 'edge1' },
      spec: { syncMode: 'Pull' },
    });
    const res = await h.signed('edge1', old, 'heartbeat');
    assert.equal(res.status, 401);
    assert.match(res.json.message!, /not signed with the credential of a registered cluster/);
  });

  it('refuses to overwrite a Secret that is not an agent credential', async () => {
    const h = await harness();
    await h.store.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'agent.edge1', namespace: 'karmada-cluster' },
      data: { token: '' },
    });
    const res = await h.register('edge1');
    assert.equal(res.status, 409);
    assert.match(res.json.message!, /exists and is not an agent credential/);
  });

  it('refuses malformed conditions from an agent', async () => {
    const h = await harness();
    const credential = (await h.register('edge1')).json.credential!;
    const res = await h.signed('edge1', credential, 'status', { conditions: [null] });
    assert.equal(res.status, 400);
  });
});

describe('webhooks under hostile input: 4xx with a Status, nothing changed', () => {
  const deep = Buffer.from('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));

  it('a path with .. is refused, not normalised onto another cluster', async () => {
    const h = await harness();
    const credential = (await h.register('edge1')).json.credential!;
    await h.register('edge2');
    const res = await h.signed(
      'edge1',
      credential,
      'heartbeat',
      {},
      {
        path: '/webhooks/v1/clusters/edge2/../edge1/heartbeat',
      },
    );
    assert.equal(res.status, 400);
    assert.match(res.json.message!, /'\.\.' segment/);
    assert.equal(await h.lease('edge1'), undefined);
  });

  it('a correctly signed body nested 10,000 levels is a 400, and the lease is not renewed', async () => {
    const h = await harness();
    const credential = (await h.register('edge1')).json.credential!;
    const res = await h.signed('edge1', credential, 'status', deep);
    assert.equal(res.status, 400);
    assert.match(res.json.message!, /nested more than 512 levels/);
  });

  it('a registration body nested 10,000 levels is a 400 and registers nothing', async () => {
    const h = await harness();
    const res = await h.post('/webhooks/v1/register', deep, { authorization: `Bearer ${h.token.token}` });
    assert.equal(res.status, 400);
    assert.equal(await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' }), undefined);
  });

  it('Bearer with two spaces before the bootstrap token is refused', async () => {
    const h = await harness();
    const res = await h.post(
      '/webhooks/v1/register',
      { clusterName: 'edge1' },
      {
        authorization: `Bearer  ${h.token.token}`,
      },
    );
    assert.equal(res.status, 401);
    assert.equal(await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' }), undefined);
  });
});

describe('a Pull agent’s release of a deleted Work', () => {
  /** edge1 registered, a binding and its Work there, the Work deleted at `deletedAt`; edge1's Ready as given. */
  async function deletedWork(ready: { status: string; lastTransitionTime: string }) {
    const h = await harness();
    const credential = (await h.register('edge1')).json.credential!;
    const cluster = (await h.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge1' }))!;
    await h.store.updateStatus({ ...cluster, status: { conditions: [{ type: 'Ready', reason: 'x', ...ready }] } });
    await h.store.create({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'job-configmap', namespace: 'default' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'job' } },
    });
    const workRef = { group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-edge1', name: 'job-v1-configmap' };
    await h.store.create({
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: {
        name: workRef.name,
        namespace: workRef.namespace,
        finalizers: ['karmada.io/execution-controller'],
        annotations: {
          'resourcebinding.karmada.io/namespace': 'default',
          'resourcebinding.karmada.io/name': 'job-configmap',
        },
      },
      spec: { workload: { manifests: [] } },
    });
    await h.store.delete(workRef); // 10:00:00 on the harness's clock
    const res = await h.signed('edge1', credential, 'workstatus', { name: workRef.name, released: true });
    assert.equal(res.status, 200, res.body);
    assert.equal(await h.store.get(workRef), undefined, 'the finalizer went with the release');
    const events = await h.store.list({ group: '', kind: 'Event', namespace: 'default' });
    type Event = { reason?: string; message: string; involvedObject: { kind: string } };
    return (events.items as unknown as Event[]).filter((e) => e.reason === 'StaleCopyRemoved');
  }

  it('says StaleCopyRemoved on the binding and its template when the Work was deleted while the cluster was away', async () => {
    const stale = await deletedWork({ status: 'Unknown', lastTransitionTime: '2026-11-21T09:59:00Z' });
    assert.deepEqual(stale.map((e) => e.involvedObject.kind).sort(), ['ConfigMap', 'ResourceBinding']);
    assert.match(
      stale[0]!.message,
      /Cluster edge1 is reachable again: the copy of job-v1-configmap deleted while it was away is removed/,
    );
  });

  it('says nothing for an ordinary removal from a cluster Ready since before the deletion', async () => {
    assert.deepEqual(await deletedWork({ status: 'True', lastTransitionTime: '2026-11-21T09:00:00Z' }), []);
  });
});
