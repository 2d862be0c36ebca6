/**
 * Detector and scheduler end to end on the local control plane, driven by kubectl as a Karmada user
 * would: templates and policies become ResourceBindings placed on simulated members.
 * - the FlinkDeployment of examples/flink/ gets jobmanager/taskmanager components exactly as in the v1.15 notes,
 *   and the cluster it is placed on records each component's replicas (v1.19 `spec.clusters[].components`);
 * - a static 2:1 weight over three members divides 3 and then 6 replicas as Karmada does;
 * - region spread picks one cluster per region;
 * - an unschedulable binding says why, and is placed once its member gains a node (Karmada #3112);
 * - `kubectl describe` shows the detector's and scheduler's events.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import type { SimulationConfig } from '../../lib/sim/config.ts';
import { eventually } from '../support/eventually.ts';
import { E2E_NODE, E2E_TIMINGS } from '../support/e2e.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const NODE = E2E_NODE;
const SIMULATION: SimulationConfig = {
  podStartupMs: 50,
  jobDurationMs: 200,
  members: [
    {
      name: 'member1',
      provider: 'aws',
      region: 'us-east-1',
      zones: ['us-east-1a'],
      kubernetesVersion: 'v1.31.0',
      nodes: 2,
      node: NODE,
    },
    {
      name: 'member2',
      provider: 'aws',
      region: 'us-east-1',
      zones: ['us-east-1b'],
      kubernetesVersion: 'v1.31.0',
      nodes: 2,
      node: NODE,
    },
    {
      name: 'member3',
      provider: 'aws',
      region: 'eu-west-1',
      zones: ['eu-west-1a'],
      kubernetesVersion: 'v1.31.0',
      nodes: 2,
      node: NODE,
    },
    // A small member: one node of 4 cpu.
    {
      name: 'member4',
      provider: 'gcp',
      region: 'eu-west-1',
      zones: ['eu-west-1b'],
      kubernetesVersion: 'v1.31.0',
      nodes: 1,
      node: { ...NODE, cpu: '4' },
    },
  ],
};

let rt: LocalRuntime;
let kubectl: ReturnType<typeof kubectlRunner>;

before(async () => {
  rt = await startLocalRuntime({
    inMemory: true,
    apiPort: 0,
    simulation: SIMULATION,
    clusterTimings: E2E_TIMINGS,
  });
  kubectl = kubectlRunner(rt.kubeconfig);
  for (const name of ['member1', 'member2', 'member3', 'member4']) {
    await eventually(`${name} Ready with a resource summary`, async () => {
      const c = await rt.runtime.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name });
      const status = c?.status as
        { conditions?: { type: string; status: string }[]; resourceSummary?: unknown } | undefined;
      return status?.resourceSummary && status.conditions?.some((x) => x.type === 'Ready' && x.status === 'True');
    });
  }
});
after(async () => {
  kubectl?.cleanup();
  await rt?.stop();
});

interface Binding extends KubeObject {
  spec: {
    clusters?: { name: string; replicas?: number; components?: { name: string; replicas: number }[] }[];
    components?: unknown[];
    replicas?: number;
  };
  status?: { conditions?: { type: string; status: string; reason: string; message: string }[] };
}

async function binding(name: string, namespace = 'default'): Promise<Binding | undefined> {
  const r = await kubectl.run(['get', 'resourcebinding.work.karmada.io', name, '-n', namespace, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as Binding) : undefined;
}

const scheduled = (b: Binding | undefined) => b?.status?.conditions?.find((c) => c.type === 'Scheduled');
const placement = (b: Binding | undefined) =>
  Object.fromEntries((b?.spec.clusters ?? []).map((c) => [c.name, c.replicas ?? null]));

function deployment(name: string, replicas: number, cpu = '100m'): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.27', resources: { requests: { cpu, memory: '64Mi' } } }] },
      },
    },
  });
}

function policy(name: string, target: string, placementSpec: unknown): string {
  return JSON.stringify({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: 'default' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: target }],
      placement: placementSpec,
    },
  });
}

describe('detector and scheduler through kubectl', () => {
  it("turns the seeds' FlinkDeployment into a binding with jobmanager/taskmanager components, placed on one member", async () => {
    const crd = readFileSync('examples/flink/crd.yaml', 'utf8');
    await kubectl.ok(['apply', '-f', '-'], crd);
    // Members must serve the kind too (APIEnablement), as with Karmada.
    for (const m of ['member1', 'member2']) {
      await kubectlRunner(rt.members.get(m)!.kubeconfig).ok(['apply', '-f', '-'], crd);
    }
    await eventually(
      'the Flink CRD established',
      async () => (await kubectl.run(['get', 'flinkdeployments'])).code === 0,
    );
    await kubectl.ok(['apply', '-f', 'examples/flink/propagationpolicy.yaml']);
    await kubectl.ok(['apply', '-f', 'examples/flink/flinkdeployment.yaml']);

    const b = await eventually('the FlinkDeployment binding', () => binding('basic-example-flinkdeployment'));
    assert.deepEqual(b.spec.components, [
      { name: 'jobmanager', replicaRequirements: { resourceRequest: { cpu: '1', memory: '1.024' } }, replicas: 1 },
      { name: 'taskmanager', replicaRequirements: { resourceRequest: { cpu: '2', memory: '2.048' } }, replicas: 1 },
    ]);
    assert.equal(b.spec.replicas, undefined, 'a components binding carries no replicas');
    assert.equal(b.metadata.labels?.['propagationpolicy.karmada.io/permanent-id'] !== undefined, true);
    assert.equal(b.metadata.ownerReferences?.[0]?.kind, 'FlinkDeployment');

    // The Flink CRD reaches the members' apiEnablements at the next summary collection.
    const placed = await eventually('the FlinkDeployment placed', async () => {
      const now = await binding('basic-example-flinkdeployment');
      return scheduled(now)?.status === 'True' ? now : undefined;
    });
    assert.equal(placed.spec.clusters?.length, 1, 'maxGroups 1: one cluster');
    const target = placed.spec.clusters![0]!;
    assert.ok(['member1', 'member2'].includes(target.name));
    // Karmada v1.19: the target records each component's replicas (one whole set), and no replicas.
    assert.deepEqual(target, {
      name: target.name,
      components: [
        { name: 'jobmanager', replicas: 1 },
        { name: 'taskmanager', replicas: 1 },
      ],
    });

    const template = JSON.parse(
      await kubectl.ok(['get', 'flinkdeployment', 'basic-example', '-o', 'json']),
    ) as KubeObject;
    assert.equal(template.metadata.annotations?.['propagationpolicy.karmada.io/name'], 'flink-propagation');
    assert.equal(template.metadata.annotations?.['propagationpolicy.karmada.io/namespace'], 'default');
  });

  it('divides a Deployment by static weight 2:1 over three members (the unweighted one gets none), and re-divides on scale', async () => {
    await kubectl.ok(['apply', '-f', '-'], deployment('weighted', 3));
    await kubectl.ok(
      ['apply', '-f', '-'],
      policy('weighted', 'weighted', {
        clusterAffinity: { clusterNames: ['member1', 'member2', 'member3'] },
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: {
            staticWeightList: [
              { targetCluster: { clusterNames: ['member1'] }, weight: 2 },
              { targetCluster: { clusterNames: ['member2'] }, weight: 1 },
            ],
          },
        },
      }),
    );
    const b = await eventually('3 replicas divided', async () => {
      const now = await binding('weighted-deployment');
      return scheduled(now)?.status === 'True' ? now : undefined;
    });
    assert.deepEqual(placement(b), { member1: 2, member2: 1 });
    assert.ok(b.metadata.annotations?.['policy.karmada.io/applied-placement'], 'applied-placement annotation');

    await kubectl.ok(['scale', 'deployment', 'weighted', '--replicas=6']);
    await eventually('6 replicas divided 4:2', async () => {
      const now = await binding('weighted-deployment');
      return JSON.stringify(placement(now)) === JSON.stringify({ member1: 4, member2: 2 });
    });

    const described = await kubectl.ok(['describe', 'deployment', 'weighted']);
    assert.match(described, /ApplyPolicySucceed/);
    assert.match(described, /ScheduleBindingSucceed/);
  });

  it('picks one cluster per region with a region spread constraint', async () => {
    await kubectl.ok(['apply', '-f', '-'], deployment('spread', 2));
    await kubectl.ok(
      ['apply', '-f', '-'],
      policy('spread', 'spread', {
        spreadConstraints: [
          { spreadByField: 'region', minGroups: 2, maxGroups: 2 },
          { spreadByField: 'cluster', minGroups: 2, maxGroups: 2 },
        ],
        replicaScheduling: { replicaSchedulingType: 'Duplicated' },
      }),
    );
    const b = await eventually('spread placed', async () => {
      const now = await binding('spread-deployment');
      return scheduled(now)?.status === 'True' ? now : undefined;
    });
    const names = (b.spec.clusters ?? []).map((c) => c.name);
    assert.equal(names.length, 2);
    const region = (n: string) => SIMULATION.members.find((m) => m.name === n)!.region;
    assert.notEqual(region(names[0]!), region(names[1]!), `one cluster per region, got ${names.join(', ')}`);
    assert.deepEqual(Object.values(placement(b)), [2, 2], 'Duplicated: every cluster gets all replicas');
  });

  it('reports an unschedulable binding clearly and places it once the member gains a node', async () => {
    // member4 has one 4-cpu node: two replicas of 3 cpu do not fit.
    await kubectl.ok(['apply', '-f', '-'], deployment('big', 2, '3'));
    await kubectl.ok(
      ['apply', '-f', '-'],
      policy('big', 'big', {
        clusterAffinity: { clusterNames: ['member4'] },
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      }),
    );
    const failed = await eventually('the Unschedulable condition', async () => {
      const now = await binding('big-deployment');
      return scheduled(now)?.status === 'False' ? now : undefined;
    });
    const condition = scheduled(failed)!;
    assert.equal(condition.reason, 'Unschedulable');
    assert.match(condition.message, /Clusters available replicas 1 are not enough to schedule\./);
    // The event goes on the template after the binding's Scheduled=False is written.
    const described = await eventually('ScheduleBindingFailed on the template', async () => {
      const text = await kubectl.ok(['describe', 'deployment', 'big']);
      return /ScheduleBindingFailed/.test(text) ? text : undefined;
    });
    assert.match(described, /ScheduleBindingFailed/);

    // A second node joins member4.
    const member = rt.members.get('member4')!;
    const node = await member.store.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'member4-node-2', labels: { 'kubernetes.io/hostname': 'member4-node-2' } },
      spec: {},
    });
    const capacity = { cpu: '4', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' };
    await member.store.updateStatus({
      ...node,
      status: {
        capacity,
        allocatable: capacity,
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      },
    });

    const placed = await eventually(
      'the binding placed after capacity appeared',
      async () => {
        const now = await binding('big-deployment');
        return scheduled(now)?.status === 'True' ? now : undefined;
      },
      60_000,
    );
    assert.deepEqual(placement(placed), { member4: 2 });
  });

  it('leaves a template no policy selects alone', async () => {
    await kubectl.ok(['apply', '-f', '-'], deployment('lonely', 1));
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(await binding('lonely-deployment'), undefined);
    const template = JSON.parse(await kubectl.ok(['get', 'deployment', 'lonely', '-o', 'json'])) as KubeObject;
    assert.equal(template.metadata.annotations?.['propagationpolicy.karmada.io/name'], undefined);
  });

  it('unclaims templates when their policy is deleted; the binding stays', async () => {
    await kubectl.ok(['delete', 'propagationpolicy', 'spread', '--wait=true', '--timeout=30s']);
    await eventually('the template unclaimed', async () => {
      const t = JSON.parse(await kubectl.ok(['get', 'deployment', 'spread', '-o', 'json'])) as KubeObject;
      return t.metadata.annotations?.['propagationpolicy.karmada.io/name'] === undefined;
    });
    const b = await binding('spread-deployment');
    assert.ok(b, 'the binding persists (member objects stay)');
    assert.equal(b.metadata.labels?.['propagationpolicy.karmada.io/permanent-id'], undefined);
  });
});
