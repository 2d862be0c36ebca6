/**
 * Member clusters end to end on the local control plane: the simulated members joined in Push mode
 * become Ready with summaries and model counts; a failed member goes NotReady with the taint after
 * the failure threshold and comes back after the success threshold; a Pull member registered with a
 * bootstrap token and driven by the agent becomes Ready, applies its Works, and goes Unknown when
 * the agent stops. Timings are shortened with Karmada's flags, as a user would.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RegistrationError, registerPullCluster } from '../../lib/agent/register.ts';
import type { KubeObject } from '../../lib/api/object.ts';
import { systemClock } from '../../lib/clock/clock.ts';
import { runGet } from '../../lib/cli/get.ts';
import { runJoin } from '../../lib/cli/join.ts';
import { runUnjoin } from '../../lib/cli/unjoin.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { MemberClient } from '../../lib/members/client.ts';
import { ensureLocalPki, tlsServerOptions } from '../../lib/pki/index.ts';
import { defaultSimulation } from '../../lib/sim/config.ts';
import { SimulatedMember } from '../../lib/sim/member.ts';
import { eventually } from '../support/eventually.ts';
import { kubectlRunner } from '../support/kubectl.ts';
import { e2eAgent, memberClientOf, registerCommand, startEdgeMember } from '../support/pull-member.ts';

const TIMINGS = {
  statusUpdateFrequencyMs: 500,
  successThresholdMs: 2_000,
  failureThresholdMs: 2_000,
  monitorGracePeriodMs: 3_000,
  startupGracePeriodMs: 4_000,
};

let rt: LocalRuntime;
const logs: string[] = [];

before(async () => {
  rt = await startLocalRuntime({
    inMemory: true,
    apiPort: 0,
    logLevel: 'DEBUG',
    logWrite: (line) => void logs.push(line),
    simulation: { ...defaultSimulation(3), podStartupMs: 50 },
    clusterTimings: TIMINGS,
  });
});
after(() => rt.stop());

const CLUSTER = { group: 'cluster.karmada.io', kind: 'Cluster' };
const cluster = (name: string) => rt.runtime.store.get({ ...CLUSTER, name });
const ready = (c: KubeObject | undefined) =>
  (
    (c?.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined)?.conditions ?? []
  ).find((x) => x.type === 'Ready');
const taints = (c: KubeObject | undefined) =>
  ((c?.spec as { taints?: { key: string; effect: string }[] } | undefined)?.taints ?? []).map(
    (t) => `${t.key}:${t.effect}`,
  );

describe('Push members', () => {
  it('become Ready with version, node and resource summaries and model counts', async () => {
    for (const name of ['member1', 'member2', 'member3']) {
      const c = await eventually(`${name} Ready with a summary`, async () => {
        const c = await cluster(name);
        const status = c?.status as { resourceSummary?: { allocatableModelings?: unknown[] } } | undefined;
        return ready(c)?.status === 'True' && status?.resourceSummary?.allocatableModelings ? c : undefined;
      });
      const status = c.status as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.equal(status.kubernetesVersion, 'v1.31.0');
      assert.deepEqual(status.nodeSummary, { totalNum: 3, readyNum: 3 });
      assert.equal(status.resourceSummary.allocatable.cpu, '24');
      assert.equal(status.resourceSummary.allocatableModelings.length, 9);
      assert.equal(
        status.resourceSummary.allocatableModelings.find((m: { grade: number }) => m.grade === 3).count,
        3,
        '8 cores / 32Gi nodes fall in grade 3',
      );
      assert.ok(status.apiEnablements.some((g: { groupVersion: string }) => g.groupVersion === 'apps/v1'));
      assert.deepEqual(taints(c), []);
      const spec = c.spec as Record<string, unknown>;
      assert.equal(spec.syncMode, 'Push');
      assert.match(String(spec.id), /^[0-9a-f-]{36}$/, "the member's kube-system uid");
    }
    const out: string[] = [];
    await runGet(
      ['clusters', '--kubeconfig', rt.kubeconfig],
      (l) => out.push(l),
      () => {},
    );
    assert.match(out.join('\n'), /^NAME\s+VERSION\s+MODE\s+READY\s+AGE\nmember1\s+v1\.31\.0\s+Push\s+True\s+\d+s/);
  });

  it('goes NotReady with the unreachable-member taint after the failure threshold, and back after the success threshold', async () => {
    await eventually('member2 Ready', async () => ready(await cluster('member2'))?.status === 'True');
    const member2 = rt.members.get('member2')!;
    member2.setFault({ mode: 'unreachable' });
    const failed = await eventually('member2 not Ready', async () => {
      const c = await cluster('member2');
      return ready(c)?.status === 'False' ? c : undefined;
    });
    assert.equal(ready(failed)?.reason, 'ClusterNotReachable');
    await eventually('the not-ready taint', async () =>
      taints(await cluster('member2')).includes('cluster.karmada.io/not-ready:NoSchedule'),
    );
    assert.equal(ready(await cluster('member1'))?.status, 'True', 'the others are untouched');

    member2.recover();
    await eventually('member2 Ready again', async () => ready(await cluster('member2'))?.status === 'True');
    await eventually('the taint removed', async () => taints(await cluster('member2')).length === 0);
  });

  it('counts a member whose /readyz fails as not reachable, as Karmada does (client-go errors on any non-2xx)', async () => {
    const member3 = rt.members.get('member3')!;
    member3.setFault({ mode: 'not-ready' });
    const c = await eventually('member3 not ready', async () => {
      const c = await cluster('member3');
      return ready(c)?.status === 'False' ? c : undefined;
    });
    assert.equal(ready(c)?.reason, 'ClusterNotReachable');
    member3.recover();
    await eventually('member3 Ready again', async () => ready(await cluster('member3'))?.status === 'True');
  });

  it('never shows or logs member credentials', async () => {
    const res = await new MemberClient({
      server: rt.endpoints.api,
      caPem: pkiCa(),
      token: adminToken(),
    }).getJson<KubeObject>('/api/v1/namespaces/karmada-cluster/secrets/member1');
    assert.deepEqual(res.data, { caBundle: '', token: '' });
    const memberToken = rt.members.get('member1')!.token;
    assert.doesNotMatch(JSON.stringify(res), new RegExp(memberToken));
    assert.ok(logs.length > 0);
    assert.ok(!logs.some((l) => l.includes(memberToken)), 'no log line carries a member token');
  });
});

describe('skctl join and unjoin', () => {
  it('joins a member from its kubeconfig, refuses to join it twice, and unjoins it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'extra-'));
    const pki = await ensureLocalPki(join(dir, 'pki'), { now: Date.now() });
    const extra = await SimulatedMember.start({
      config: { ...defaultSimulation(1).members[0]!, name: 'extra', region: 'sa-east-1', zones: ['sa-east-1a'] },
      timings: { podStartupMs: 50, jobDurationMs: 100 },
      clock: systemClock,
      tls: tlsServerOptions(pki),
      caCertPem: pki.ca.certPem,
      port: 0,
      kubeconfigPath: join(dir, 'extra.kubeconfig'),
    });
    try {
      const out: string[] = [];
      const io = { out: (l: string) => void out.push(l), err: (l: string) => void out.push(l) };
      const args = [
        'extra',
        '--kubeconfig',
        extra.kubeconfig,
        '--karmada-kubeconfig',
        rt.kubeconfig,
        '--cluster-region',
        'sa-east-1',
      ];
      assert.equal(await runJoin(args, io), 0, out.join('\n'));
      assert.deepEqual(out, ['cluster(extra) is joined successfully']);
      const c = await eventually('extra Ready', async () => {
        const c = await cluster('extra');
        return ready(c)?.status === 'True' ? c : undefined;
      });
      assert.equal((c.spec as { region: string }).region, 'sa-east-1');
      out.length = 0;
      assert.equal(await runJoin(args, io), 1);
      assert.match(out.join('\n'), /cluster extra is already joined: run "skctl unjoin extra" first/);

      out.length = 0;
      assert.equal(await runUnjoin(['extra', '--karmada-kubeconfig', rt.kubeconfig], io), 0, out.join('\n'));
      await eventually('the Cluster gone (after its namespace)', async () => (await cluster('extra')) === undefined);
      assert.equal(await rt.runtime.store.get({ group: '', kind: 'Namespace', name: 'karmada-es-extra' }), undefined);
      assert.equal(
        await rt.runtime.store.get({ group: '', kind: 'Secret', namespace: 'karmada-cluster', name: 'extra' }),
        undefined,
      );
    } finally {
      await extra.stop();
    }
  });

  it('refuses a member it cannot reach with the kubeconfig’s credentials', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => void out.push(l), err: (l: string) => void out.push(l) };
    const member1 = rt.members.get('member1')!;
    const dir = mkdtempSync(join(tmpdir(), 'bad-'));
    const bad = join(dir, 'kubeconfig');
    writeFileSync(bad, readFileSync(member1.kubeconfig, 'utf8').replace(/token: \S+/, 'token: wrong'));
    assert.equal(await runJoin(['impostor', '--kubeconfig', bad, '--karmada-kubeconfig', rt.kubeconfig], io), 1);
    assert.match(out.join('\n'), /the member cluster refused the credentials in the kubeconfig \(401/);
    assert.equal(await cluster('impostor'), undefined);
  });
});

function adminToken(): string {
  return /token: (\S+)/.exec(readFileSync(rt.kubeconfig, 'utf8'))![1]!;
}

function pkiCa(): string {
  const config = readFileSync(rt.kubeconfig, 'utf8');
  return Buffer.from(/certificate-authority-data: (\S+)/.exec(config)![1]!, 'base64').toString('utf8');
}

describe('A Pull member', () => {
  let edge: Awaited<ReturnType<typeof startEdgeMember>>;
  let arg: (flag: string) => string;

  before(async () => {
    edge = await startEdgeMember('edge1', { region: 'ap-south-1', zones: ['ap-south-1a'] });
    const command = await registerCommand(rt);
    assert.match(
      command.text,
      /^skctl register 127\.0\.0\.1:\d+ --token [a-z0-9]{6}\.[a-z0-9]{16} --discovery-token-ca-cert-hash sha256:[0-9a-f]{64} /,
    );
    arg = command.arg;
  });
  after(() => edge.stop());

  it('refuses a wrong CA hash and a wrong token', async () => {
    await assert.rejects(
      registerPullCluster({
        server: rt.endpoints.api,
        token: arg('--token'),
        caCertHash: `sha256:${'0'.repeat(64)}`,
        clusterName: 'edge1',
      }),
      (e: Error) =>
        e instanceof RegistrationError && /CA does not match --discovery-token-ca-cert-hash/.test(e.message),
    );
    await assert.rejects(
      registerPullCluster({
        server: rt.endpoints.api,
        token: `${arg('--token').split('.')[0]}.0000000000000000`,
        caCertHash: arg('--discovery-token-ca-cert-hash'),
        clusterName: 'edge1',
      }),
      /is not signed for token/,
    );
    assert.equal(await cluster('edge1'), undefined, 'nothing registered');
  });

  it('registers with the token, becomes Ready through its agent, applies its Works, and goes Unknown when the agent stops', async () => {
    const config = await registerPullCluster({
      server: rt.endpoints.api,
      token: arg('--token'),
      caCertHash: arg('--discovery-token-ca-cert-hash'),
      clusterName: 'edge1',
      region: 'ap-south-1',
    });
    assert.equal(config.cluster, 'edge1');
    const member = memberClientOf(edge.member);
    const newAgent = () => e2eAgent(config, member);
    let agent = newAgent();
    await agent.start();
    try {
      const c = await eventually('edge1 Ready', async () => {
        const c = await cluster('edge1');
        return ready(c)?.status === 'True' ? c : undefined;
      });
      assert.equal((c.spec as { syncMode: string }).syncMode, 'Pull');
      assert.equal((c.status as { kubernetesVersion: string }).kubernetesVersion, 'v1.31.0');

      // A Work in its execution namespace is pulled and applied with server-side apply.
      await eventually('the execution namespace', async () =>
        rt.runtime.store.get({ group: '', kind: 'Namespace', name: 'karmada-es-edge1' }),
      );
      await rt.runtime.store.create({
        apiVersion: 'work.karmada.io/v1alpha1',
        kind: 'Work',
        metadata: { name: 'settings', namespace: 'karmada-es-edge1', finalizers: ['karmada.io/execution-controller'] },
        spec: {
          workload: {
            manifests: [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: 'settings', namespace: 'default', labels: { 'karmada.io/managed': 'true' } },
                data: { mode: 'edge' },
              },
            ],
          },
        },
      });
      await eventually('the ConfigMap on the member', async () =>
        edge.member.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'settings' }),
      );
      await eventually('the Work Applied', async () => {
        const w = await rt.runtime.store.get({
          group: 'work.karmada.io',
          kind: 'Work',
          namespace: 'karmada-es-edge1',
          name: 'settings',
        });
        return ((w?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
          (x) => x.type === 'Applied' && x.status === 'True',
        );
      });

      // An edit made on the member is reverted by the agent.
      const cmRef = { group: '', kind: 'ConfigMap', namespace: 'default', name: 'settings' };
      const onMember = (await edge.member.store.get(cmRef))!;
      await edge.member.store.update({ ...onMember, data: { mode: 'tampered' } } as KubeObject);
      await eventually('the edit reverted', async () => {
        const cm = (await edge.member.store.get(cmRef)) as (KubeObject & { data?: { mode?: string } }) | undefined;
        return cm?.data?.mode === 'edge';
      });

      // The agent reports what a ResourceRegistry selects here, and the global proxy serves it; a write
      // through the proxy cannot reach a Pull cluster and says so (501).
      const k = kubectlRunner(rt.kubeconfig);
      try {
        await k.ok(
          ['apply', '-f', '-'],
          `apiVersion: search.karmada.io/v1alpha1
kind: ResourceRegistry
metadata: {name: edge-configmaps}
spec:
  targetCluster: {clusterNames: [edge1]}
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, namespace: default}]
`,
        );
        const proxied = '/apis/search.karmada.io/v1alpha1/proxying/karmada/proxy/api/v1/namespaces/default/configmaps';
        const item = await eventually('the edge1 ConfigMap through the proxy', async () => {
          const r = await k.run(['get', '--raw', proxied]);
          const list = r.code === 0 ? (JSON.parse(r.stdout) as { items: KubeObject[] }) : undefined;
          return list?.items.find((i) => i.metadata.name === 'settings');
        });
        assert.equal(item.metadata.annotations?.['resource.karmada.io/cached-from-cluster'], 'edge1');
        const del = await k.run(['delete', '--raw', `${proxied}/settings`]);
        assert.notEqual(del.code, 0);
        assert.match(del.stderr, /cluster edge1 is a Pull cluster: the control plane has no route to its API/);
        await k.ok(['delete', 'resourceregistry', 'edge-configmaps']);
      } finally {
        k.cleanup();
      }

      // An agent restart neither deletes nor re-creates what it applied (Karmada #5406): the member's
      // ConfigMap keeps its uid and is not written again.
      const before = (await edge.member.store.get(cmRef))!;
      await agent.stop();
      agent = newAgent();
      await agent.start();
      const renewed = Date.now();
      await eventually('the restarted agent renews the lease', async () => {
        const lease = await rt.runtime.store.get({
          group: 'coordination.k8s.io',
          kind: 'Lease',
          namespace: 'karmada-cluster',
          name: 'edge1',
        });
        return Date.parse((lease?.spec as { renewTime?: string } | undefined)?.renewTime ?? '') > renewed;
      });
      await new Promise((r) => setTimeout(r, 1_500)); // a few of the restarted agent's rounds
      const afterRestart = (await edge.member.store.get(cmRef))!;
      assert.equal(afterRestart.metadata.uid, before.metadata.uid, 'not deleted and re-created');
      assert.equal(afterRestart.metadata.resourceVersion, before.metadata.resourceVersion, 'not written again');

      // Deleting the Work deletes what it applied, then the agent lets the Work go (its finalizer).
      const workRef = { group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-edge1', name: 'settings' };
      await rt.runtime.store.delete(workRef);
      await eventually('the ConfigMap deleted on the member', async () => !(await edge.member.store.get(cmRef)));
      await eventually('the Work gone', async () => !(await rt.runtime.store.get(workRef)));
    } finally {
      await agent.stop();
      member.close();
    }
    const stale = await eventually('edge1 Unknown after the grace period', async () => {
      const c = await cluster('edge1');
      return ready(c)?.status === 'Unknown' ? c : undefined;
    });
    assert.equal(ready(stale)?.reason, 'ClusterStatusUnknown');
    await eventually('the unreachable taint', async () =>
      taints(await cluster('edge1')).includes('cluster.karmada.io/unreachable:NoSchedule'),
    );
  });

  it('refuses to register a name that exists', async () => {
    await assert.rejects(
      registerPullCluster({
        server: rt.endpoints.api,
        token: arg('--token'),
        caCertHash: arg('--discovery-token-ca-cert-hash'),
        clusterName: 'member1',
      }),
      /cluster member1 already exists/,
    );
  });
});
