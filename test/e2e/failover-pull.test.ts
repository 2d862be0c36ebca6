/**
 * Cluster failover of a Pull member, driven as a Karmada user would (kubectl, the agent, a partition):
 * a job-like ConfigMap placed on the Pull member `edge1` (`purgeMode: Directly`); its agent goes silent
 * (the cluster is partitioned from the control plane, not dead) → Unknown → NoExecute taint → after
 * the toleration the workload starts on member1 at once, and the binding says the copy on edge1 could
 * not be deleted yet (`StaleCopyPending`); when the agent is back it removes that copy before it
 * applies anything else, and the binding says so (`StaleCopyRemoved`). No two copies of a stateful
 * job run side by side longer than the partition.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registerPullCluster } from '../../lib/agent/register.ts';
import type { KubeObject } from '../../lib/api/object.ts';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import type { MemberClient } from '../../lib/members/client.ts';
import { eventually } from '../support/eventually.ts';
import { clusterReady, e2ePlane, getJson } from '../support/e2e.ts';
import type { kubectlRunner } from '../support/kubectl.ts';
import { e2eAgent, memberClientOf, registerCommand, startEdgeMember } from '../support/pull-member.ts';

type Kubectl = ReturnType<typeof kubectlRunner>;

const FAILOVER = {
  failoverEvictionTimeoutMs: 2_000,
  defaultNotReadyTolerationSeconds: 2,
  defaultUnreachableTolerationSeconds: 2,
  gracefulEvictionTimeoutMs: 60_000,
};

const plane = e2ePlane(['member1'], { failover: FAILOVER });
let rt: LocalRuntime;
let kubectl: Kubectl;
let edge: Awaited<ReturnType<typeof startEdgeMember>>;

before(async () => {
  ({ rt, kubectl } = await plane.started());
  edge = await startEdgeMember('edge1', { region: 'us-east-1', zones: ['us-east-1z'] });
});
after(() => edge?.stop());

type Binding = KubeObject & {
  spec: { clusters?: { name: string }[]; gracefulEvictionTasks?: { fromCluster: string; purgeMode?: string }[] };
  status?: { schedulerObservedGeneration?: number };
};
const binding = () => getJson<Binding>(kubectl, ['rb', 'job-configmap', '-n', 'default']);
const CM = { group: '', kind: 'ConfigMap', namespace: 'default', name: 'job' };

function policy(clusters: string[]): string {
  return `
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: job, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: job}]
  placement:
    clusterAffinity: {clusterNames: [${clusters.join(', ')}]}
    spreadConstraints: [{spreadByField: cluster, maxGroups: 1, minGroups: 1}]
  failover:
    cluster: {purgeMode: Directly}
`;
}

describe('cluster failover of a Pull member', () => {
  it('starts the workload elsewhere during a partition, and the agent removes the stale copy first when it is back', async () => {
    // edge1 registers with a bootstrap token and runs its agent.
    const { arg } = await registerCommand(rt);
    const config = await registerPullCluster({
      server: rt.endpoints.api,
      token: arg('--token'),
      caCertHash: arg('--discovery-token-ca-cert-hash'),
      clusterName: 'edge1',
      region: 'us-east-1',
    });
    const member = memberClientOf(edge.member);
    // The agent's writes to edge1, in order: the stale copy must go before anything new lands.
    const writes: string[] = [];
    const raw = member.raw.bind(member);
    member.raw = ((method: string, path: string, ...rest: unknown[]) => {
      if (method !== 'GET') writes.push(`${method} ${path.split('?')[0]}`);
      return (raw as (...args: unknown[]) => ReturnType<MemberClient['raw']>)(method, path, ...rest);
    }) as MemberClient['raw'];
    const newAgent = () => e2eAgent(config, member);
    let agent = newAgent();
    await agent.start();
    try {
      await eventually('edge1 Ready', () => clusterReady(rt, 'edge1'));

      // The job on edge1 alone; then member1 is allowed too, which does not move what is placed.
      await kubectl.ok(
        ['apply', '-f', '-'],
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: job, namespace: default}\ndata: {run: "1"}\n---${policy(['edge1'])}`,
      );
      await eventually('the job on edge1, applied by its agent', () => edge.member.store.get(CM));
      await kubectl.ok(['apply', '-f', '-'], policy(['edge1', 'member1']));
      await eventually('the widened policy seen by the scheduler, the job still on edge1', async () => {
        const b = await binding();
        return (
          b?.status?.schedulerObservedGeneration === b?.metadata.generation &&
          b?.spec.clusters?.map((c) => c.name).join() === 'edge1'
        );
      });
      const original = (await edge.member.store.get(CM))!;

      // The partition: the agent goes silent, edge1 turns Unknown, is tainted, and the job is evicted.
      await agent.stop();
      const moved = await eventually('the job started on member1', () => rt.members.get('member1')!.store.get(CM));
      assert.equal(moved.metadata.labels?.['karmada.io/managed'], 'true');
      const b = (await binding())!;
      assert.deepEqual(
        b.spec.clusters?.map((c) => c.name),
        ['member1'],
      );
      const described = await eventually('StaleCopyPending on the binding', async () => {
        const text = await kubectl.ok(['describe', 'rb', 'job-configmap']);
        return /StaleCopyPending/.test(text) ? text : undefined;
      });
      assert.match(described, /Cluster edge1 is not reachable, so its evicted copy cannot be deleted yet/);
      // Nothing reaches edge1 while it is away: its copy is still there (what a partition means).
      assert.equal((await edge.member.store.get(CM))?.metadata.uid, original.metadata.uid);
      // Meanwhile a workload that tolerates the partition is placed on edge1: its Work waits there (and
      // lists before the job's, so only the agent's order puts the deletion first).
      await kubectl.ok(
        ['apply', '-f', '-'],
        `apiVersion: v1
kind: ConfigMap
metadata: {name: ahead, namespace: default}
data: {run: "2"}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ahead, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: ahead}]
  placement:
    clusterAffinity: {clusterNames: [edge1]}
    clusterTolerations:
      - {key: cluster.karmada.io/unreachable, operator: Exists}
      - {key: cluster.karmada.io/not-ready, operator: Exists}
`,
      );
      await eventually('the ahead workload’s Work for edge1', async () => {
        const works = await rt.runtime.store.list({
          group: 'work.karmada.io',
          kind: 'Work',
          namespace: 'karmada-es-edge1',
        });
        return works.items.some(
          (w) => w.metadata.annotations?.['resourcebinding.karmada.io/name'] === 'ahead-configmap',
        );
      });
      writes.length = 0;

      // The agent is back, after a partition that outlasted the eviction: Ready and deletion times are
      // whole seconds, so a return in the very second of the eviction cannot be told from an ordinary
      // removal (core removedWhileAway) — the copy still goes first, without the event.
      await new Promise((r) => setTimeout(r, 1_500));
      agent = newAgent();
      await agent.start();
      await eventually('the stale copy removed from edge1', async () => !(await edge.member.store.get(CM)));
      await eventually('the ahead workload on edge1', () => edge.member.store.get({ ...CM, name: 'ahead' }));
      const deleted = writes.indexOf('DELETE /api/v1/namespaces/default/configmaps/job');
      const created = writes.findIndex((w) => w.endsWith('/configmaps/ahead') || w.endsWith('/configmaps'));
      assert.ok(deleted >= 0 && created > deleted, `the stale copy went first: ${writes.join(', ')}`);
      const removed = await eventually('StaleCopyRemoved on the binding', async () => {
        const text = await kubectl.ok(['describe', 'rb', 'job-configmap']);
        return /StaleCopyRemoved/.test(text) ? text : undefined;
      });
      assert.match(removed, /Cluster edge1 is reachable again: the copy of .* deleted while it was away is removed/);
      assert.match(await kubectl.ok(['describe', 'cm', 'job']), /StaleCopyRemoved/, 'the template says it too');
      await eventually('edge1 Ready again', () => clusterReady(rt, 'edge1'));
      // The job stays where it moved, once, on member1.
      assert.equal((await rt.members.get('member1')!.store.get(CM))?.metadata.uid, moved.metadata.uid);
      assert.equal(await edge.member.store.get(CM), undefined);
    } finally {
      await agent.stop();
      member.close();
    }
  });
});
