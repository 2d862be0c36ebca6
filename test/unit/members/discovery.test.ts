/**
 * How a MemberClient reads a member's discovery: two requests (`/api`, `/apis`) asking for aggregated
 * discovery; against a server that answers the legacy documents, one more per group version, reusing
 * what `/api` and `/apis` already answered. A Stale group version makes the answer partial.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { AGGREGATED_DISCOVERY_ACCEPT } from '../../../lib/api/aggregated-discovery.ts';
import { MemberClient, type MemberResponse, type MemberTransport } from '../../../lib/members/client.ts';
import { collectApiEnablements } from '../../../lib/members/status.ts';
import type { SimulatedMember } from '../../../lib/sim/member.ts';
import { crd } from '../../support/factories.ts';
import { inProcessMember } from '../../support/sim-member.ts';

const CONN = { server: 'https://m1.invalid', token: 'member-token' };

const member = () => inProcessMember(new VirtualClock(Date.UTC(2026, 10, 21, 10, 0, 0)));

/**
 * A client of the member recording every request (method, path, Accept); `legacyOnly` plays a server
 * without aggregated discovery, which ignores what Accept asks for. (Its requests count twice in
 * {@link MemberClient.sent}: it sends through the member's own client.)
 */
function recordingClient(m: SimulatedMember, options: { legacyOnly?: boolean } = {}) {
  const inner = m.client(CONN, () => 0);
  const requests: { method: string; path: string; accept: string | undefined }[] = [];
  const client = new MemberClient(CONN, {
    now: () => 0,
    transport: async (method, path, o) => {
      requests.push({ method, path, accept: o.accept });
      const { token: _token, ...rest } = o;
      return inner.raw(method, path, options.legacyOnly ? { ...rest, accept: 'application/json' } : rest);
    },
  });
  return { client, requests };
}

/** Counts what `action` sends to members, through {@link MemberClient.sent}. */
async function sentBy(action: () => Promise<unknown>): Promise<number> {
  const before = MemberClient.sent.requests;
  await action();
  return MemberClient.sent.requests - before;
}

/** A client of a fake server answering each path with the given body and Content-Type. */
function fakeClient(answers: Record<string, MemberResponse>) {
  const paths: string[] = [];
  const transport: MemberTransport = async (_method, path) => {
    paths.push(path);
    return answers[path] ?? { status: 404, body: '{"kind":"Status","reason":"NotFound","message":"no"}' };
  };
  return { client: new MemberClient(CONN, { transport, now: () => 0 }), paths };
}

const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const aggregated = (apiVersion: string, items: unknown[]) =>
  JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items });

const CORE_ITEM = {
  metadata: { creationTimestamp: null },
  versions: [
    {
      version: 'v1',
      resources: [
        {
          resource: 'pods',
          responseKind: { group: '', version: '', kind: 'Pod' },
          scope: 'Namespaced',
          singularResource: 'pod',
          verbs: ['get', 'list'],
          subresources: [
            { subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get'] },
          ],
        },
        {
          resource: 'nodes',
          responseKind: { group: '', version: '', kind: 'Node' },
          scope: 'Cluster',
          singularResource: 'node',
          verbs: ['get', 'list'],
        },
      ],
      freshness: 'Current',
    },
  ],
};

describe('MemberClient discovery', () => {
  it('reads a member’s discovery with two requests, asking for aggregated discovery as client-go does', async () => {
    const m = await member();
    // The member's own client (what the controllers use) counts; the recording one shows what is asked.
    const client = m.client(CONN, () => 0);
    let result: Awaited<ReturnType<MemberClient['apiEnablements']>> | undefined;
    assert.equal(await sentBy(async () => (result = await client.apiEnablements())), 2);
    const { client: recording, requests } = recordingClient(m);
    await recording.apiEnablements();
    assert.deepEqual(
      requests.map((r) => `${r.method} ${r.path}`),
      ['GET /api', 'GET /apis'],
    );
    for (const r of requests) assert.equal(r.accept, AGGREGATED_DISCOVERY_ACCEPT);
    assert.equal(
      AGGREGATED_DISCOVERY_ACCEPT,
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
    );
    assert.equal(result!.partial, false);
    const gvs = result!.enablements.map((e) => e.groupVersion);
    assert.ok(gvs.includes('v1') && gvs.includes('apps/v1'), gvs.join(' '));
    const apps = result!.enablements.find((e) => e.groupVersion === 'apps/v1')!.resources;
    assert.ok(apps.some((r) => r.name === 'deployments' && r.kind === 'Deployment'));
    assert.ok(
      result!.enablements.every((e) => e.resources.every((r) => !r.name.includes('/'))),
      'no subresources',
    );

    // Every status collection reads again (Karmada refreshes apiEnablements each time), still two.
    assert.equal(await sentBy(() => client.apiEnablements()), 2);
    assert.equal(await sentBy(() => collectApiEnablements(client)), 2);
  });

  it('finds the same resources as the legacy per-group-version reads', async () => {
    const m = await member();
    const fresh = recordingClient(m).client;
    const legacy = recordingClient(m, { legacyOnly: true }).client;
    assert.deepEqual(await fresh.apiEnablements(), await legacy.apiEnablements());
    const sortKey = (r: { group: string; version: string; name: string }) => `${r.group}/${r.version}/${r.name}`;
    const sorted = (list: Awaited<ReturnType<MemberClient['discover']>>) =>
      [...list].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    assert.deepEqual(sorted(await fresh.discover()), sorted(await legacy.discover()));
  });

  it('falls back to one read per group version against a server without aggregated discovery, without re-reading /api or /apis', async () => {
    const m = await member();
    const { client, requests } = recordingClient(m, { legacyOnly: true });
    const { enablements, partial } = await client.apiEnablements();
    assert.equal(partial, false);
    const paths = requests.map((r) => r.path);
    assert.deepEqual(paths.slice(0, 2), ['/api', '/apis']);
    assert.equal(paths.filter((p) => p === '/api' || p === '/apis').length, 2, 'each read once');
    assert.deepEqual(
      paths.slice(2).sort(),
      enablements
        .map((e) => (e.groupVersion.includes('/') ? `/apis/${e.groupVersion}` : `/api/${e.groupVersion}`))
        .sort(),
      'one read per group version, the core group’s at /api/v1',
    );
    assert.ok(paths.length > 2);
  });

  it('sees a CRD installed on the member at the next status collection', async () => {
    const m = await member();
    const client = m.client(CONN, () => 0);
    assert.equal(
      (await client.apiEnablements()).enablements.some((e) => e.groupVersion === 'example.com/v1'),
      false,
    );
    await client.send(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd('example.com', 'Widget', 'widgets'),
    );
    let after: Awaited<ReturnType<MemberClient['apiEnablements']>> | undefined;
    assert.equal(await sentBy(async () => (after = await client.apiEnablements())), 2);
    assert.deepEqual(
      after!.enablements.find((e) => e.groupVersion === 'example.com/v1'),
      { groupVersion: 'example.com/v1', resources: [{ name: 'widgets', kind: 'Widget' }] },
    );
    // And the objects' paths (from the cached discovery, read again for a kind it does not know).
    assert.equal(
      await client.pathOf('example.com/v1', 'Widget', 'default', 'w'),
      '/apis/example.com/v1/namespaces/default/widgets/w',
    );
  });

  it('marks the answer partial for a Stale group version, leaving its resources out', async () => {
    const { client, paths } = fakeClient({
      '/api': { status: 200, contentType: AGGREGATED_V2, body: aggregated('apidiscovery.k8s.io/v2', [CORE_ITEM]) },
      '/apis': {
        status: 200,
        contentType: AGGREGATED_V2,
        body: aggregated('apidiscovery.k8s.io/v2', [
          {
            metadata: { name: 'metrics.k8s.io', creationTimestamp: null },
            versions: [{ version: 'v1beta1', freshness: 'Stale' }],
          },
          {
            metadata: { name: 'apps', creationTimestamp: null },
            versions: [
              {
                version: 'v1',
                resources: [
                  {
                    resource: 'deployments',
                    responseKind: { group: '', version: '', kind: 'Deployment' },
                    scope: 'Namespaced',
                    singularResource: 'deployment',
                    verbs: ['get'],
                    subresources: [
                      {
                        subresource: 'scale',
                        responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
                        verbs: ['get'],
                      },
                    ],
                  },
                ],
                freshness: 'Current',
              },
            ],
          },
        ]),
      },
    });
    const status = await collectApiEnablements(client);
    assert.deepEqual(paths, ['/api', '/apis']);
    assert.deepEqual(status.apiEnablements, [
      { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] },
      {
        groupVersion: 'v1',
        resources: [
          { name: 'nodes', kind: 'Node' },
          { name: 'pods', kind: 'Pod' },
        ],
      },
    ]);
    assert.equal(status.apiEnablementsCondition.status, 'False');
    assert.equal(status.apiEnablementsCondition.reason, 'Partial');
    assert.deepEqual(
      (await client.discover()).map((r) => [r.group, r.version, r.name, r.kind, r.namespaced, r.verbs]),
      [
        ['', 'v1', 'pods', 'Pod', true, ['get', 'list']],
        ['', 'v1', 'nodes', 'Node', false, ['get', 'list']],
        ['apps', 'v1', 'deployments', 'Deployment', true, ['get']],
      ],
    );
  });

  it('reads v2beta1 answers, and knows one by its kind when the Content-Type does not say', async () => {
    const { client, paths } = fakeClient({
      '/api': {
        status: 200,
        contentType: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
        body: aggregated('apidiscovery.k8s.io/v2beta1', [CORE_ITEM]),
      },
      '/apis': { status: 200, contentType: 'application/json', body: aggregated('apidiscovery.k8s.io/v2', []) },
    });
    const { enablements, partial } = await client.apiEnablements();
    assert.equal(partial, false);
    assert.deepEqual(
      enablements.map((e) => e.groupVersion),
      ['v1'],
    );
    assert.deepEqual(paths, ['/api', '/apis']);
  });

  it('reads the core group versions /api names, and is partial when a legacy group version fails', async () => {
    const { client, paths } = fakeClient({
      '/api': { status: 200, contentType: 'application/json', body: '{"kind":"APIVersions","versions":["v1"]}' },
      '/apis': {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          kind: 'APIGroupList',
          apiVersion: 'v1',
          groups: [
            { name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }] },
            { name: 'metrics.k8s.io', versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }] },
          ],
        }),
      },
      '/api/v1': {
        status: 200,
        body: JSON.stringify({
          kind: 'APIResourceList',
          groupVersion: 'v1',
          resources: [
            { name: 'pods', kind: 'Pod', namespaced: true, verbs: ['get'] },
            { name: 'pods/status', kind: 'Pod', namespaced: true, verbs: ['get'] },
          ],
        }),
      },
      '/apis/apps/v1': {
        status: 200,
        body: JSON.stringify({
          kind: 'APIResourceList',
          groupVersion: 'apps/v1',
          resources: [{ name: 'deployments', kind: 'Deployment', namespaced: true, verbs: ['get'] }],
        }),
      },
      '/apis/metrics.k8s.io/v1beta1': { status: 503, body: '{"kind":"Status","reason":"ServiceUnavailable"}' },
    });
    const { enablements, partial } = await client.apiEnablements();
    assert.equal(partial, true);
    assert.deepEqual(enablements, [
      { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] },
      { groupVersion: 'v1', resources: [{ name: 'pods', kind: 'Pod' }] },
    ]);
    assert.deepEqual(paths.slice(0, 2), ['/api', '/apis']);
    assert.deepEqual(paths.slice(2).sort(), ['/api/v1', '/apis/apps/v1', '/apis/metrics.k8s.io/v1beta1']);
  });

  it('fails when /apis cannot be read, and is partial when only /api cannot', async () => {
    const groups = { status: 200, contentType: AGGREGATED_V2, body: aggregated('apidiscovery.k8s.io/v2', []) };
    const noApis = fakeClient({
      '/api': { status: 200, contentType: AGGREGATED_V2, body: aggregated('apidiscovery.k8s.io/v2', [CORE_ITEM]) },
      '/apis': { status: 500, body: '{"kind":"Status","reason":"InternalError","message":"boom"}' },
    });
    await assert.rejects(noApis.client.apiEnablements(), /boom/);
    const noApi = fakeClient({ '/apis': groups });
    const { enablements, partial } = await noApi.client.apiEnablements();
    assert.deepEqual(enablements, []);
    assert.equal(partial, true);
  });
});
