/**
 * Cluster failover on the local control plane, driven as a Karmada user would (kubectl, the
 * simulator's faults), with the timing flags shortened:
 * - nginx divided over three members; member2 fails → NotReady → NoExecute taint → after the
 *   toleration its replicas move to the others; its copy goes (Gracefully: once the new copies are
 *   healthy), and is deleted from member2 when it is back (the stale copy of a partition);
 * - the seeds' FlinkDeployment with `failover.cluster` (Directly + statePreservation) reappears on the
 *   other member with `application.karmada.io/cluster-failover-jobid: <job id of the failed copy>`,
 *   and the failed member's stale job is deleted when it is reachable again;
 * - a workload whose only cluster fails stays put with a FailoverHeld condition saying why (#7455),
 *   and the hold is lifted when the cluster recovers;
 * - a ClusterTaintPolicy adds and removes taints as the cluster's conditions change, and one with a
 *   NoExecute taint is refused without --allow-no-execute-taint-policy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { eventually } from '../support/eventually.ts';
import { clusterReady, E2E_TIMINGS, getJson, installFlinkCrd, membersReady, oneRegionMembers } from '../support/e2e.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const FAILOVER = {
  failoverEvictionTimeoutMs: 2_000,
  defaultNotReadyTolerationSeconds: 2,
  defaultUnreachableTolerationSeconds: 2,
  gracefulEvictionTimeoutMs: 60_000,
};

const MEMBERS = ['member1', 'member2', 'member3'];
const SIMULATION = oneRegionMembers(MEMBERS);

let rt: LocalRuntime;
let kubectl: ReturnType<typeof kubectlRunner>;
const onMember = new Map<string, ReturnType<typeof kubectlRunner>>();

type Binding = KubeObject & {
  spec: {
    clusters?: { name: string; replicas?: number }[];
    gracefulEvictionTasks?: {
      fromCluster: string;
      reason: string;
      purgeMode?: string;
      preservedLabelState?: Record<string, string>;
    }[];
  };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
};

const binding = (name: string, namespace = 'default') => getJson<Binding>(kubectl, ['rb', name, '-n', namespace]);
const taintsOf = async (name: string) =>
  (
    (await rt.runtime.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name }))?.spec as {
      taints?: { key: string; effect: string }[];
    }
  )?.taints ?? [];
/** What a member holds, read from the simulator's own store (it answers even while "unreachable"). */
const onSim = (member: string, ref: { group: string; kind: string; namespace?: string; name: string }) =>
  rt.members.get(member)!.store.get(ref);

async function fail(member: string): Promise<void> {
  rt.members.get(member)!.setFault({ mode: 'unreachable' });
  await eventually(`${member} NotReady`, () => clusterReady(rt, member, 'False'));
}
async function recover(member: string): Promise<void> {
  rt.members.get(member)!.recover();
  await eventually(`${member} Ready again`, () => clusterReady(rt, member, 'True'));
}

before(async () => {
  rt = await startLocalRuntime({
    inMemory: true,
    apiPort: 0,
    simulation: SIMULATION,
    clusterTimings: E2E_TIMINGS,
    failover: FAILOVER,
  });
  kubectl = kubectlRunner(rt.kubeconfig);
  for (const name of MEMBERS) onMember.set(name, kubectlRunner(rt.members.get(name)!.kubeconfig));
  await membersReady(rt, MEMBERS);
});
after(async () => {
  kubectl?.cleanup();
  for (const k of onMember.values()) k.cleanup();
  await rt?.stop();
});

describe('cluster failover through kubectl', () => {
  it('evicts nginx from a failed member after the toleration, moves its replicas, and removes its stale copy when it is back', async () => {
    await kubectl.ok(['create', 'namespace', 'web']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, namespace: web}
spec:
  replicas: 6
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers: [{name: nginx, image: nginx:1.27, resources: {requests: {cpu: 100m}}}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx, namespace: web}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
          - {targetCluster: {clusterNames: [member3]}, weight: 1}
`,
    );
    // The seeds' default tolerations were added to the policy at admission.
    const pp = await getJson<{
      spec: { placement: { clusterTolerations?: { key: string; tolerationSeconds: number }[] } };
    }>(kubectl, ['pp', 'nginx', '-n', 'web']);
    assert.deepEqual(
      pp?.spec.placement.clusterTolerations?.map((t) => [t.key, t.tolerationSeconds]),
      [
        ['cluster.karmada.io/not-ready', 2],
        ['cluster.karmada.io/unreachable', 2],
      ],
    );
    await eventually('nginx 2/2/2 on the members', async () => {
      const counts = await Promise.all(
        MEMBERS.map(
          async (m) =>
            (await getJson<{ spec: { replicas: number } }>(onMember.get(m)!, ['deploy', 'nginx', '-n', 'web']))?.spec
              .replicas,
        ),
      );
      return counts.join('/') === '2/2/2';
    });

    await fail('member2');
    await eventually('member2 tainted not-ready:NoExecute', async () =>
      (await taintsOf('member2')).some((t) => t.key === 'cluster.karmada.io/not-ready' && t.effect === 'NoExecute'),
    );
    const evicted = await eventually('nginx evicted from member2 and re-placed', async () => {
      const b = await binding('nginx-deployment', 'web');
      const names = b?.spec.clusters?.map((c) => c.name) ?? [];
      const total = (b?.spec.clusters ?? []).reduce((n, c) => n + (c.replicas ?? 0), 0);
      return !names.includes('member2') && total === 6 ? b : undefined;
    });
    assert.deepEqual(
      evicted.spec.clusters?.map((c) => `${c.name}:${c.replicas}`),
      ['member1:3', 'member3:3'],
    );
    await eventually('3 replicas each on member1 and member3', async () => {
      const counts = await Promise.all(
        ['member1', 'member3'].map(
          async (m) =>
            (await getJson<{ spec: { replicas: number } }>(onMember.get(m)!, ['deploy', 'nginx', '-n', 'web']))?.spec
              .replicas,
        ),
      );
      return counts.join('/') === '3/3';
    });
    // Gracefully: member2's Work goes once the new copies are healthy (the task ends then).
    await eventually(
      'the eviction task ended',
      async () => !(await binding('nginx-deployment', 'web'))?.spec.gracefulEvictionTasks?.length,
    );
    // EvictionTaskEnded is recorded after the write that ends the task, which is what was waited for.
    const describe = await eventually('EvictionTaskEnded on the binding', async () => {
      const text = await kubectl.ok(['describe', 'rb', 'nginx-deployment', '-n', 'web']);
      return /EvictionTaskEnded/.test(text) ? text : undefined;
    });
    assert.match(describe, /EvictWorkloadFromClusterSucceed.*Evict from cluster member2 succeed/);
    assert.match(describe, /EvictionTaskEnded.*every new target is healthy/);
    const wide = await kubectl.ok(['get', 'rb', 'nginx-deployment', '-n', 'web', '-o', 'wide']);
    assert.match(wide, /CLUSTERS\s+EVICTING/);
    // member2 could not be reached: its copy is still there, waiting.
    assert.ok(await onSim('member2', { group: 'apps', kind: 'Deployment', namespace: 'web', name: 'nginx' }));
    // The binder deletes member2's Work on its pass after the task's end; the partition outlasts that
    // (under load that pass can lag, and a Work deleted after member2 is back is an ordinary removal,
    // with no StaleCopyRemoved to claim).
    await eventually('member2’s Work marked for deletion while member2 is away', async () => {
      const works = await rt.runtime.store.list({
        group: 'work.karmada.io',
        kind: 'Work',
        namespace: 'karmada-es-member2',
      });
      const work = works.items.find(
        (w) => w.metadata.annotations?.['resourcebinding.karmada.io/name'] === 'nginx-deployment',
      );
      return work?.metadata.deletionTimestamp !== undefined;
    });

    await recover('member2');
    await eventually(
      'the stale copy on member2 deleted',
      async () => !(await onSim('member2', { group: 'apps', kind: 'Deployment', namespace: 'web', name: 'nginx' })),
    );
    await eventually(
      'the NoExecute taint removed',
      async () => !(await taintsOf('member2')).some((t) => t.effect === 'NoExecute'),
    );
    await eventually('StaleCopyRemoved on the binding', async () =>
      /StaleCopyRemoved/.test(await kubectl.ok(['describe', 'rb', 'nginx-deployment', '-n', 'web'])),
    );
    // No ping-pong: the recovered member does not get the replicas back by itself.
    assert.deepEqual(
      (await binding('nginx-deployment', 'web'))?.spec.clusters?.map((c) => c.name),
      ['member1', 'member3'],
    );
  });

  it("moves the seeds' FlinkDeployment (Directly, statePreservation) with its job id, and deletes the stale job when the member is back", async () => {
    await installFlinkCrd(kubectl, [...onMember.values()]);
    await kubectl.ok(['apply', '-f', 'examples/flink/propagationpolicy.yaml']);
    await kubectl.ok(['apply', '-f', 'examples/flink/flinkdeployment.yaml']);
    const placed = await eventually('the FlinkDeployment placed', async () => {
      const b = await binding('basic-example-flinkdeployment');
      return b?.spec.clusters?.length === 1 ? b : undefined;
    });
    const from = placed.spec.clusters![0]!.name;
    const to = from === 'member1' ? 'member2' : 'member1';
    const ref = { group: 'flink.apache.org', kind: 'FlinkDeployment', namespace: 'default', name: 'basic-example' };
    const jobId = await eventually('the job id reported on the control plane', async () => {
      const running = await onSim(from, ref);
      const id = (running?.status as { jobStatus?: { jobID?: string } } | undefined)?.jobStatus?.jobID;
      const b = await binding('basic-example-flinkdeployment');
      const collected = JSON.stringify(b?.status ?? {}).includes(id ?? '<none>');
      return id && collected ? id : undefined;
    });

    await fail(from);
    // The eviction task lives only until the new job is healthy: it is caught while it exists.
    let task: NonNullable<Binding['spec']['gracefulEvictionTasks']>[number] | undefined;
    const moved = await eventually(`the eviction task and the job on ${to} with the preserved job id`, async () => {
      task ??= (await binding('basic-example-flinkdeployment'))?.spec.gracefulEvictionTasks?.find(
        (t) => t.fromCluster === from,
      );
      const flink = await getJson<KubeObject>(onMember.get(to)!, ['flinkdeployment', 'basic-example']);
      const labelled = flink?.metadata.labels?.['application.karmada.io/cluster-failover-jobid'] === jobId;
      return task && labelled ? flink : undefined;
    });
    assert.equal(moved.metadata.labels?.['karmada.io/managed'], 'true');
    assert.equal(task!.reason, 'TaintUntolerated');
    assert.equal(task!.purgeMode, 'Directly');
    assert.deepEqual(task!.preservedLabelState, { 'application.karmada.io/cluster-failover-jobid': jobId });
    const events = await kubectl.ok(['describe', 'rb', 'basic-example-flinkdeployment']);
    assert.match(events, new RegExp(`StaleCopyPending.*Cluster ${from} is not reachable`));

    await recover(from);
    await eventually(`the stale job deleted from ${from}`, async () => !(await onSim(from, ref)));
    // The preserved state stays with the job it was given to.
    const still = await getJson<KubeObject>(onMember.get(to)!, ['flinkdeployment', 'basic-example']);
    assert.equal(still?.metadata.labels?.['application.karmada.io/cluster-failover-jobid'], jobId);
  });

  it('keeps the last copy where it is when no other cluster can take it (#7455), saying why, until the cluster is back', async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: v1
kind: ConfigMap
metadata: {name: pinned, namespace: default}
data: {a: "1"}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: pinned, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: pinned}]
  placement:
    clusterAffinity: {clusterNames: [member3]}
`,
    );
    await eventually(
      'pinned on member3',
      async () => (await binding('pinned-configmap'))?.spec.clusters?.[0]?.name === 'member3',
    );
    await fail('member3');
    const held = await eventually('FailoverHeld', async () => {
      const c = (await binding('pinned-configmap'))?.status?.conditions?.find((x) => x.type === 'FailoverHeld');
      return c?.status === 'True' ? c : undefined;
    });
    assert.equal(held.reason, 'NoReplacementCluster');
    assert.match(held.message!, /last copy of the workload and no other cluster can take it/);
    assert.deepEqual(
      (await binding('pinned-configmap'))?.spec.clusters?.map((c) => c.name),
      ['member3'],
    );
    // EvictionHeld is recorded on the template after the write that sets FailoverHeld on the binding.
    const describedTemplate = await eventually('EvictionHeld on the ConfigMap', async () => {
      const text = await kubectl.ok(['describe', 'cm', 'pinned']);
      return /EvictionHeld/.test(text) ? text : undefined;
    });
    assert.match(describedTemplate, /EvictionHeld/);

    await recover('member3');
    await eventually(
      'the hold lifted',
      async () => !(await binding('pinned-configmap'))?.status?.conditions?.some((x) => x.type === 'FailoverHeld'),
    );
    assert.deepEqual(
      (await binding('pinned-configmap'))?.spec.clusters?.map((c) => c.name),
      ['member3'],
    );
  });

  it('a ClusterTaintPolicy adds and removes taints as the conditions change; NoExecute ones need the flag', async () => {
    const refused = await kubectl.run(
      ['apply', '-f', '-'],
      `
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata: {name: evict-on-failure}
spec:
  addOnConditions: [{conditionType: Ready, operator: In, statusValues: ["False"]}]
  taints: [{key: example.com/down, effect: NoExecute}]
`,
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Configuring taint with NoExecute effect is not allowed/);

    await kubectl.ok(['label', 'cluster', 'member1', 'tier=edge']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata: {name: edge-down}
spec:
  targetClusters: {labelSelector: {matchLabels: {tier: edge}}}
  addOnConditions: [{conditionType: Ready, operator: In, statusValues: ["False", "Unknown"]}]
  removeOnConditions: [{conditionType: Ready, operator: In, statusValues: ["True"]}]
  taints: [{key: example.com/edge-down, effect: NoSchedule}]
`,
    );
    await fail('member1');
    await eventually('the policy taint on member1', async () =>
      (await taintsOf('member1')).some((t) => t.key === 'example.com/edge-down'),
    );
    assert.ok(!(await taintsOf('member3')).some((t) => t.key === 'example.com/edge-down'), 'member3 is not targeted');
    await recover('member1');
    await eventually(
      'the policy taint removed',
      async () => !(await taintsOf('member1')).some((t) => t.key === 'example.com/edge-down'),
    );
  });
});
