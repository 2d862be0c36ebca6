/**
 * The global proxy, cache search and cluster proxy on the local control plane, through kubectl with
 * the kubeconfigs `skctl proxy-kubeconfig` writes:
 * - `kubectl get pods -A` lists the pods of three simulated members in one table, each annotated with
 *   its cluster; `-l` selects; a ResourceRegistry narrowed to two clusters narrows the results;
 * - `kubectl delete pod` through the proxy deletes it on its member; `kubectl logs` works through the
 *   cluster proxy and the global proxy;
 * - a viewer lists through both proxies but can neither delete through them nor read Secrets — not
 *   through legacy watch paths either — nor reach into members' pods and nodes; an admin can;
 * - an unreachable member keeps its objects, with a warning and the registry's condition saying so;
 * - bad input (unknown kinds and clusters, malformed paths, bad continue tokens, a create) is a 4xx
 *   with a message, and no member changes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { issueToken, VIEWER_GROUP } from '../../lib/apiserver/auth.ts';
import { runProxyKubeconfig } from '../../lib/cli/proxy-kubeconfig.ts';
import { runSim } from '../../lib/cli/sim.ts';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import { e2ePlane, getJson } from '../support/e2e.ts';
import { eventually } from '../support/eventually.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const MEMBERS = ['member1', 'member2', 'member3'];
const CACHED_FROM = 'resource.karmada.io/cached-from-cluster';
const GLOBAL_PREFIX = '/apis/search.karmada.io/v1alpha1/proxying/karmada/proxy';

const plane = e2ePlane(MEMBERS, { logLevel: 'WARN' });
let rt: LocalRuntime;
let kubectl: ReturnType<typeof kubectlRunner>;
let onMember: Map<string, ReturnType<typeof kubectlRunner>>;
let proxy: ReturnType<typeof kubectlRunner>;
const dir = mkdtempSync(join(tmpdir(), 'proxy-e2e-'));

async function writeProxyKubeconfig(file: string, extra: string[] = [], kubeconfig = rt.kubeconfig): Promise<string> {
  const lines: string[] = [];
  const code = await runProxyKubeconfig(['--karmada-kubeconfig', kubeconfig, '-o', file, ...extra], {
    out: (l) => lines.push(l),
    err: (l) => lines.push(l),
    stopRequested: new Promise(() => {}),
  });
  assert.equal(code, 0, lines.join('\n'));
  return file;
}

const registry = (clusters: string[]) => `
apiVersion: search.karmada.io/v1alpha1
kind: ResourceRegistry
metadata: {name: proxy-pods}
spec:
  targetCluster: {clusterNames: [${clusters.join(', ')}]}
  resourceSelectors:
  - {apiVersion: v1, kind: Pod}
`;

type PodList = { items: KubeObject[]; metadata: { continue?: string; resourceVersion?: string } };

/** Pods through the proxy, as JSON. */
const proxiedPods = async (args: string[] = []) =>
  (await getJson<PodList>(proxy, ['pods', '-A', ...args]))?.items ?? [];

const clustersOf = (pods: KubeObject[]) => [...new Set(pods.map((p) => p.metadata.annotations?.[CACHED_FROM]))].sort();

before(async () => {
  ({ rt, kubectl, onMember } = await plane.started());
  for (const member of MEMBERS) {
    await onMember.get(member)!.ok(['create', 'deployment', `web-${member}`, '--image=nginx', '--replicas=2']);
  }
  await kubectl.ok(['apply', '-f', '-'], registry(MEMBERS));
  proxy = kubectlRunner(await writeProxyKubeconfig(join(dir, 'proxy.kubeconfig')));
  await eventually('the pods of all three members through the proxy', async () => {
    const pods = await proxiedPods();
    return pods.length === 6 && clustersOf(pods).length === 3 ? pods : undefined;
  });
});

describe('global proxy and cluster proxy through kubectl', () => {
  it('lists the pods of three members in one table, each annotated with its cluster; -l selects', async () => {
    const table = await proxy.ok(['get', 'pods', '-A']);
    assert.equal(table.match(/^NAMESPACE\s+NAME\s+READY\s+STATUS/gm)?.length, 1, table);
    for (const member of MEMBERS) assert.equal(table.match(new RegExp(`web-${member}-`, 'g'))?.length, 2, table);
    const pods = await proxiedPods();
    assert.deepEqual(clustersOf(pods), MEMBERS);
    for (const pod of pods) {
      assert.ok(pod.metadata.name!.startsWith(`web-${pod.metadata.annotations![CACHED_FROM]}-`), pod.metadata.name);
    }
    const selected = await proxiedPods(['-l', 'app=web-member2']);
    assert.deepEqual(clustersOf(selected), ['member2']);
    assert.equal(selected.length, 2);
    // Pages of one across clusters (kubectl follows Karmada's multi-cluster continue tokens).
    const paged = await proxy.ok(['get', 'pods', '-A', '--chunk-size=1', '-o', 'name']);
    assert.equal(paged.trim().split('\n').length, 6, paged);
    // One object: its resourceVersion is the one-cluster multi-cluster version Karmada serves.
    const one = selected[0]!;
    const got = await getJson(proxy, ['pod', one.metadata.name!, '-n', 'default']);
    const rv = JSON.parse(Buffer.from(got!.metadata.resourceVersion!, 'base64url').toString('utf8'));
    assert.deepEqual(Object.keys(rv), ['member2']);
    // Karmada's cache search: with a name, every cluster's copy.
    const searched = JSON.parse(
      await kubectl.ok([
        'get',
        '--raw',
        `/apis/search.karmada.io/v1alpha1/search/cache/api/v1/namespaces/default/pods/${one.metadata.name}`,
      ]),
    ) as { kind: string; items: KubeObject[] };
    assert.equal(searched.kind, 'PodList');
    assert.deepEqual(clustersOf(searched.items), ['member2']);
    // The shipped example registry is valid as written.
    await kubectl.ok(['apply', '--dry-run=server', '-f', 'examples/search/resource-registry.yaml']);
  });

  it('deletes a pod on its member through the proxy, and reads logs through the cluster proxy and the proxy', async () => {
    const [pod] = await proxiedPods(['-l', 'app=web-member3']);
    const name = pod!.metadata.name!;
    const out = await proxy.ok(['delete', 'pod', name, '-n', 'default']);
    assert.match(out, new RegExp(`pod "${name}" deleted`));
    const onM3 = await onMember.get('member3')!.run(['get', 'pod', name]);
    assert.match(onM3.stderr, /NotFound/);
    assert.ok(!(await proxiedPods()).some((p) => p.metadata.name === name), 'gone from the proxy at once');

    const member1 = kubectlRunner(
      await writeProxyKubeconfig(join(dir, 'member1.kubeconfig'), ['--cluster', 'member1']),
    );
    try {
      const podName = (await member1.ok(['get', 'pods', '-o', 'name'])).trim().split('\n')[0]!;
      assert.match(
        await member1.ok(['logs', podName]),
        /^simulated log: pod default\/web-member1-\S+ container nginx running on member member1$/m,
      );
      assert.match(await proxy.ok(['logs', podName, '-n', 'default']), /running on member member1/);
      // Nothing a member answered through the proxies carries a member credential.
      const answers = [
        await proxy.run(['get', 'pods', '-A', '-o', 'json']),
        await member1.run(['get', 'pod', 'no-such-pod', '-o', 'json']),
        await proxy.run(['delete', 'pod', 'no-such-pod', '-n', 'default']),
      ];
      for (const member of MEMBERS) {
        const token = rt.members.get(member)!.token;
        for (const a of answers) assert.ok(!`${a.stdout}${a.stderr}`.includes(token), `a ${member} credential leaked`);
      }
    } finally {
      member1.cleanup();
    }
  });

  it('lets a viewer list through both proxies, but not delete through them nor read Secrets', async () => {
    const viewer = await issueToken(rt.runtime.store, { user: 'alice', groups: [VIEWER_GROUP] });
    const config = readFileSync(rt.kubeconfig, 'utf8').replace(/token: \S+/, `token: ${viewer.token}`);
    const viewerKubeconfig = join(dir, 'viewer.kubeconfig');
    writeFileSync(viewerKubeconfig, config, { mode: 0o600 });
    const asViewer = kubectlRunner(
      await writeProxyKubeconfig(join(dir, 'viewer-proxy.kubeconfig'), [], viewerKubeconfig),
    );
    const asViewerOnMember = kubectlRunner(
      await writeProxyKubeconfig(join(dir, 'viewer-m1.kubeconfig'), ['--cluster', 'member1'], viewerKubeconfig),
    );
    try {
      const listed = await asViewer.ok(['get', 'pods', '-A', '-o', 'name']);
      assert.ok(listed.trim().split('\n').length >= 5, listed);
      const name = listed.trim().split('\n')[0]!;
      const del = await asViewer.run(['delete', name, '-n', 'default']);
      assert.notEqual(del.code, 0);
      assert.match(del.stderr, /Forbidden.*User "alice" cannot delete resource "pods"/);
      const onMemberDel = await asViewerOnMember.run(['delete', 'pods', '--all']);
      assert.match(onMemberDel.stderr, /Forbidden.*User "alice" cannot/);
      const secrets = await asViewerOnMember.run(['get', 'secrets', '-A']);
      assert.match(secrets.stderr, /Forbidden.*viewers may not read secrets/);
      assert.equal((await proxiedPods()).length >= 5, true, 'nothing was deleted');
    } finally {
      asViewer.cleanup();
      asViewerOnMember.cleanup();
    }
  });

  it('keeps a member’s Secrets and workloads from a viewer on every path either proxy forwards; an admin still reads them', async () => {
    await onMember
      .get('member1')!
      .ok(['create', 'secret', 'generic', 'proxy-secret', '--from-literal=password=s3cr3t']);
    const secretData = Buffer.from('s3cr3t').toString('base64');
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: search.karmada.io/v1alpha1
kind: ResourceRegistry
metadata: {name: proxy-secrets}
spec:
  targetCluster: {clusterNames: [member1]}
  resourceSelectors:
  - {apiVersion: v1, kind: Secret}
`,
    );
    const viewer = await issueToken(rt.runtime.store, { user: 'bob', groups: [VIEWER_GROUP] });
    const viewerKubeconfig = join(dir, 'viewer-secrets.kubeconfig');
    writeFileSync(
      viewerKubeconfig,
      readFileSync(rt.kubeconfig, 'utf8').replace(/token: \S+/, `token: ${viewer.token}`),
      {
        mode: 0o600,
      },
    );
    const asViewer = kubectlRunner(viewerKubeconfig);
    const asViewerThroughProxy = kubectlRunner(
      await writeProxyKubeconfig(join(dir, 'viewer-secrets-proxy.kubeconfig'), [], viewerKubeconfig),
    );
    const member1 = kubectlRunner(
      await writeProxyKubeconfig(join(dir, 'admin-m1-secrets.kubeconfig'), ['--cluster', 'member1']),
    );
    try {
      // An administrator reads it through the global proxy (once collected) and the cluster proxy.
      const cached = await eventually('member1’s Secret through the global proxy', async () => {
        const r = await proxy.run(['get', 'secret', 'proxy-secret', '-n', 'default', '-o', 'json']);
        return r.code === 0 ? (JSON.parse(r.stdout) as KubeObject & { data?: Record<string, string> }) : undefined;
      });
      assert.equal(cached.metadata.annotations?.[CACHED_FROM], 'member1');
      assert.equal(cached.data?.password, secretData);
      assert.equal(await member1.ok(['get', 'secret', 'proxy-secret', '-o', 'jsonpath={.data.password}']), secretData);

      const clusterProxy = '/apis/cluster.karmada.io/v1alpha1/clusters/member1/proxy';
      const [pod] = await proxiedPods(['-l', 'app=web-member1']);
      const refused: { args: string[]; message: RegExp }[] = [
        {
          args: ['get', '--raw', `${clusterProxy}/api/v1/watch/namespaces/default/secrets`],
          message: /cannot watch resource "secrets".*viewers may not read secrets/,
        },
        {
          args: ['get', '--raw', `${clusterProxy}/api/v1/watch/secrets`],
          message: /cannot watch resource "secrets".*viewers may not read secrets/,
        },
        {
          args: ['get', '--raw', `${clusterProxy}/api/v1/nodes/any-node/proxy/configz`],
          message: /cannot get resource "nodes\/proxy"/,
        },
        {
          args: ['get', '--raw', `${clusterProxy}/metrics`],
          message: /cannot get path "\/metrics"/,
        },
        {
          args: ['get', '--raw', `${GLOBAL_PREFIX}/api/v1/namespaces/default/pods/${pod!.metadata.name}/proxy`],
          message: /cannot get resource "pods\/proxy"/,
        },
        {
          args: ['get', '--raw', `${GLOBAL_PREFIX}/api/v1/namespaces/default/secrets/proxy-secret`],
          message: /viewers may not read secrets/,
        },
      ];
      for (const c of refused) {
        const r = await asViewer.run(c.args);
        assert.notEqual(r.code, 0, c.args.join(' '));
        assert.match(r.stderr, /Forbidden/, `${c.args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, c.message, `${c.args.join(' ')}: ${r.stderr}`);
        assert.ok(!`${r.stdout}${r.stderr}`.includes(secretData), `${c.args.join(' ')} showed the Secret`);
      }
      const listed = await asViewerThroughProxy.run(['get', 'secrets', '-A']);
      assert.match(listed.stderr, /Forbidden.*viewers may not read secrets/);
      assert.ok(!listed.stdout.includes('proxy-secret'));
      // Discovery through the cluster proxy stays open to the viewer.
      assert.match(await asViewer.ok(['get', '--raw', `${clusterProxy}/api/v1`]), /"kind":"APIResourceList"/);
    } finally {
      asViewer.cleanup();
      asViewerThroughProxy.cleanup();
      member1.cleanup();
      await kubectl.ok(['delete', 'resourceregistry', 'proxy-secrets']);
    }
  });

  it('answers bad input with a 4xx and a message, and changes nothing on any member', async () => {
    const before = await Promise.all(
      MEMBERS.map(async (m) => (await onMember.get(m)!.ok(['get', 'pods', '-o', 'name'])).trim()),
    );
    const prefix = '/apis/search.karmada.io/v1alpha1/proxying/karmada/proxy';
    const cases: { args: string[]; status: RegExp; message: RegExp }[] = [
      {
        args: ['get', '--raw', `${prefix}/apis/nothing.example.com/v1/widgets`],
        status: /NotFound/,
        message: /no ResourceRegistry selects widgets \(nothing.example.com\/v1\)/,
      },
      {
        args: ['get', '--raw', `${prefix}/api/v1/nodes`],
        status: /NotFound/,
        message: /no ResourceRegistry selects nodes/,
      },
      {
        args: ['get', '--raw', `${prefix}/api/v1/namespaces/default/pods?limit=1&continue=not-a-token!`],
        status: /BadRequest/,
        message: /continue token is not one this server issued/,
      },
      {
        args: [
          'get',
          '--raw',
          `${prefix}/api/v1/pods?limit=1&continue=${Buffer.from('{"rv":"","cluster":"nope"}').toString('base64url')}`,
        ],
        status: /BadRequest/,
        message: /goes on in cluster "nope", which no ResourceRegistry selects/,
      },
      {
        args: ['get', '--raw', '/apis/cluster.karmada.io/v1alpha1/clusters/nope/proxy/api/v1/pods'],
        status: /NotFound/,
        message: /clusters.cluster.karmada.io "nope" not found/,
      },
      {
        args: ['get', '--raw', `${prefix}/api/v1/namespaces/default/pods/x/..`],
        status: /BadRequest|NotFound/,
        message: /\.\.|path/,
      },
      {
        args: ['get', '--raw', '/apis/search.karmada.io/v1alpha1/search/cache/apis/apps/v1/deployments'],
        status: /NotFound/,
        message: /no ResourceRegistry selects deployments/,
      },
    ];
    for (const c of cases) {
      const r = await kubectl.run(c.args);
      assert.notEqual(r.code, 0, c.args.join(' '));
      assert.match(r.stderr, c.status, `${c.args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, c.message, `${c.args.join(' ')}: ${r.stderr}`);
    }
    const create = await proxy.run(['run', 'stray', '--image=nginx']);
    assert.notEqual(create.code, 0);
    assert.match(
      create.stderr,
      /create is not supported on resources of kind "pods": the proxy cannot tell which member cluster/,
    );
    const missing = await proxy.run(['delete', 'pod', 'no-such-pod', '-n', 'default']);
    assert.match(
      missing.stderr,
      /not found in the clusters the ResourceRegistries select for it \(member1, member2, member3\)/,
    );
    const after = await Promise.all(
      MEMBERS.map(async (m) => (await onMember.get(m)!.ok(['get', 'pods', '-o', 'name'])).trim()),
    );
    assert.deepEqual(after, before);
  });

  it('keeps an unreachable member’s pods, says so, and narrows to the clusters a registry selects', async () => {
    const lines: string[] = [];
    assert.equal(
      await runSim(['fail', 'member2', '--control', rt.controlSocket], (l) => lines.push(l)),
      0,
      lines.join('\n'),
    );
    try {
      const condition = await eventually('the registry says member2 cannot be read', async () => {
        const rr = await getJson<
          KubeObject & { status?: { conditions?: { type: string; status: string; reason: string; message: string }[] } }
        >(kubectl, ['resourceregistry', 'proxy-pods']);
        const c = rr?.status?.conditions?.find((x) => x.type === 'Synced');
        return c?.reason === 'ClustersUnreachable' ? c : undefined;
      });
      assert.equal(condition.status, 'False');
      assert.match(
        condition.message,
        /collecting v1\/Pod from member1, member2, member3; served as last collected: member2/,
      );
      // The proxy reads registries, clusters and cache records at most every couple of seconds: the
      // warning may trail the registry's condition by that much, never more.
      const listed = await eventually('the proxy warns that member2 is served as last collected', async () => {
        const r = await proxy.run(['get', 'pods', '-A', '-o', 'name']);
        assert.equal(r.code, 0, r.stderr);
        return /Warning: cluster member2 cannot be read since .*its objects are as last collected/.test(r.stderr)
          ? r
          : undefined;
      });
      assert.match(listed.stdout, /web-member2-/);
    } finally {
      assert.equal(await runSim(['recover', 'member2', '--control', rt.controlSocket], (l) => lines.push(l)), 0);
    }
    await kubectl.ok(['apply', '-f', '-'], registry(['member1', 'member3']));
    await eventually('only member1 and member3 through the proxy', async () => {
      const pods = await proxiedPods();
      return clustersOf(pods).join(',') === 'member1,member3' ? pods : undefined;
    });
  });
});
