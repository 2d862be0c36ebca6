/**
 * Application failover on the local control plane, driven as a Karmada user would — kubectl, and
 * `skctl sim unhealthy|healthy` for the fault:
 * - nginx with `failover.application` (Directly) over two members: made unhealthy on its member, it is
 *   evicted when the toleration ends and started on the other member, only after the old copy is gone;
 * - the v1.12 release notes' FlinkDeployment policy (`purgeMode: Immediately`, `tolerationSeconds: 60`,
 *   `application.karmada.io/failover-jobid` from `{ .jobStatus.jobID }`): the job restarts on the other
 *   member labelled with the failed job's id;
 * - `Never`: the old copy stays until `suppressDeletion` is cleared;
 * - `Gracefully`: the old copy stays while the eviction task runs and goes when it ends; a
 *   WorkloadRebalancer then moves replicas back after recovery and is removed after its TTL.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { runSim } from '../../lib/cli/sim.ts';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import { eventually } from '../support/eventually.ts';
import { e2ePlane, getJson, installFlinkCrd } from '../support/e2e.ts';
import type { kubectlRunner } from '../support/kubectl.ts';

const MEMBERS = ['member1', 'member2'];

const plane = e2ePlane(MEMBERS, { logLevel: 'WARN' });
let rt: LocalRuntime;
let kubectl: ReturnType<typeof kubectlRunner>;
let onMember: Map<string, ReturnType<typeof kubectlRunner>>;

type Binding = KubeObject & {
  spec: {
    clusters?: { name: string; replicas?: number }[];
    gracefulEvictionTasks?: {
      fromCluster: string;
      reason: string;
      producer?: string;
      purgeMode?: string;
      suppressDeletion?: boolean;
      gracePeriodSeconds?: number;
      preservedLabelState?: Record<string, string>;
      clustersBeforeFailover?: string[];
    }[];
  };
  status?: {
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    aggregatedStatus?: { clusterName: string; health?: string }[];
  };
};

const binding = (name: string, namespace = 'default') => getJson<Binding>(kubectl, ['rb', name, '-n', namespace]);
const condition = (b: Binding | undefined, type: string) => b?.status?.conditions?.find((c) => c.type === type);
/** The binding as the control plane holds it now, read from its store (for watching a handoff closely). */
const bindingNow = (name: string, namespace: string) =>
  rt.runtime.store.get({ group: 'work.karmada.io', kind: 'ResourceBinding', namespace, name }) as Promise<
    Binding | undefined
  >;
/** What a member holds, read from the simulator's own store. */
const onSim = (member: string, ref: { group: string; kind: string; namespace?: string; name: string }) =>
  rt.members.get(member)!.store.get(ref);

/** `skctl sim <verb> <member> <target> [-n ns]` against this runtime's control socket. */
async function sim(verb: 'unhealthy' | 'healthy', member: string, target: string, namespace = 'default') {
  const lines: string[] = [];
  const code = await runSim([verb, member, target, '-n', namespace, '--control', rt.controlSocket], (l) =>
    lines.push(l),
  );
  assert.equal(code, 0, lines.join('\n'));
}

type EvictionTask = NonNullable<Binding['spec']['gracefulEvictionTasks']>[number];

/**
 * The eviction task from `cluster`, caught while it exists: a task ends once the new copies are
 * healthy, so a read after the move may come too late. Start it before the fault and await it after.
 */
function evictionTask(name: string, cluster: string, namespace = 'default'): Promise<EvictionTask> {
  const task = eventually<EvictionTask>(
    `the eviction task from ${cluster}`,
    async () => (await binding(name, namespace))?.spec.gracefulEvictionTasks?.find((t) => t.fromCluster === cluster),
    120_000,
  );
  task.catch(() => undefined); // awaited by the test; a test that failed earlier does not wait for it
  return task;
}

/** The binding once it is placed on exactly one cluster. */
const placedOnOne = (name: string, namespace = 'default') =>
  eventually(`${name} placed`, async () => {
    const b = await binding(name, namespace);
    return b?.spec.clusters?.length === 1 ? b : undefined;
  });

before(async () => ({ rt, kubectl, onMember } = await plane.started()));

const deployment = (name: string, namespace: string, replicas = 2) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: 100m}}}]
`;

const policy = (name: string, namespace: string, application: string, placement = '') => `
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${name}}]
  propagateDeps: true
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
${
  placement ||
  `    spreadConstraints: [{spreadByField: cluster, maxGroups: 1, minGroups: 1}]
    replicaScheduling: {replicaSchedulingType: Duplicated}`
}
  failover:
    application:
${application}
`;

describe('application failover through kubectl and skctl sim', () => {
  it('evicts nginx from the member where it stays unhealthy, starts it on the other only after the old copy is gone', async () => {
    await kubectl.ok(['create', 'namespace', 'app']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `${deployment('web', 'app')}---${policy(
        'web',
        'app',
        `      decisionConditions: {tolerationSeconds: 4}
      purgeMode: Directly`,
      )}`,
    );
    const placed = await placedOnOne('web-deployment', 'app');
    const from = placed.spec.clusters![0]!.name;
    const to = from === 'member1' ? 'member2' : 'member1';
    const ref = { group: 'apps', kind: 'Deployment', namespace: 'app', name: 'web' };
    await eventually('healthy on its member', async () => {
      const b = await binding('web-deployment', 'app');
      return b?.status?.aggregatedStatus?.find((s) => s.clusterName === from)?.health === 'Healthy';
    });
    // The roll-out's own window (a new Deployment is Unhealthy until its pods are ready) closes.
    await eventually(
      'watched, no window open',
      async () => condition(await binding('web-deployment', 'app'), 'ApplicationFailover')?.reason === 'Watching',
    );

    const evicting = evictionTask('web-deployment', from, 'app');
    await sim('unhealthy', from, 'deployment/web', 'app');
    const watching = await eventually('the toleration window started', async () => {
      const c = condition(await binding('web-deployment', 'app'), 'ApplicationFailover');
      return c?.reason === 'WorkloadUnhealthy' ? c : undefined;
    });
    assert.match(watching.message ?? '', new RegExp(`Unhealthy on cluster ${from} since .*: evicted at`));

    // The new copy appears only once the old one is gone (Directly): watch both members meanwhile.
    let overlap = false;
    const moved = await eventually(
      `running on ${to}`,
      async () => {
        const [oldCopy, newCopy] = await Promise.all([onSim(from, ref), onSim(to, ref)]);
        if (oldCopy && newCopy) overlap = true;
        return newCopy ? newCopy : undefined;
      },
      60_000,
      50,
    );
    assert.ok(moved);
    assert.equal(overlap, false, 'the old and the new copy never existed at once');
    const after = await binding('web-deployment', 'app');
    assert.deepEqual(
      after?.spec.clusters?.map((c) => c.name),
      [to],
    );
    const task = await evicting;
    assert.equal(task.reason, 'ApplicationFailure');
    assert.equal(task.producer, 'resource-binding-application-failover-controller');
    assert.equal(task.purgeMode, 'Directly');
    const described = await kubectl.ok(['describe', 'rb', 'web-deployment', '-n', 'app']);
    assert.match(described, /ApplicationUnhealthy/);
    assert.match(
      described,
      new RegExp(
        `EvictWorkloadFromClusterSucceed.*Evict from cluster ${from} succeed: .*\\(reason ApplicationFailure, purge mode Directly\\)`,
      ),
    );
    const events = await kubectl.ok(['get', 'events', '-n', 'app', '--field-selector', 'reason=ApplicationUnhealthy']);
    assert.match(events, /deployment\/web/i);
    await sim('healthy', from, 'deployment/web', 'app');
  });

  it("moves the v1.12 notes' FlinkDeployment (Immediately, tolerationSeconds 60) with application.karmada.io/failover-jobid", async () => {
    await installFlinkCrd(kubectl, [...onMember.values()]);
    await kubectl.ok(['apply', '-f', 'examples/application-failover/flink.yaml']);
    const placed = await placedOnOne('stateful-job-flinkdeployment');
    const from = placed.spec.clusters![0]!.name;
    const to = from === 'member1' ? 'member2' : 'member1';
    const ref = { group: 'flink.apache.org', kind: 'FlinkDeployment', namespace: 'default', name: 'stateful-job' };
    const jobId = await eventually('the job id collected', async () => {
      const id = ((await onSim(from, ref))?.status as { jobStatus?: { jobID?: string } } | undefined)?.jobStatus?.jobID;
      const b = await binding('stateful-job-flinkdeployment');
      const healthy = b?.status?.aggregatedStatus?.find((s) => s.clusterName === from)?.health === 'Healthy';
      return id && healthy && JSON.stringify(b?.status ?? {}).includes(id) ? id : undefined;
    });

    const evicting = evictionTask('stateful-job-flinkdeployment', from);
    await sim('unhealthy', from, 'flinkdeployment/stateful-job');
    await eventually('Unhealthy on the control plane', async () => {
      const b = await binding('stateful-job-flinkdeployment');
      return b?.status?.aggregatedStatus?.find((s) => s.clusterName === from)?.health === 'Unhealthy';
    });
    const restarted = await eventually(
      `the job on ${to} with the failed job's id`,
      async () => {
        const flink = await getJson<KubeObject>(onMember.get(to)!, ['flinkdeployment', 'stateful-job']);
        return flink?.metadata.labels?.['application.karmada.io/failover-jobid'] === jobId ? flink : undefined;
      },
      120_000,
    );
    assert.ok(restarted);
    assert.equal(await onSim(from, ref), undefined, 'the failed job is gone from its member (Immediately)');
    const task = await evicting;
    assert.equal(task.reason, 'ApplicationFailure');
    assert.equal(task.purgeMode, 'Directly', 'v1.12 Immediately is stored as Directly');
    assert.deepEqual(task.preservedLabelState, { 'application.karmada.io/failover-jobid': jobId });
    assert.deepEqual(task.clustersBeforeFailover, [from]);
    await sim('healthy', from, 'flinkdeployment/stateful-job');
  });

  it('Never keeps the old copy until suppressDeletion is cleared', async () => {
    await kubectl.ok(['create', 'namespace', 'keep']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `${deployment('api', 'keep')}---${policy(
        'api',
        'keep',
        `      decisionConditions: {tolerationSeconds: 2}
      purgeMode: Never`,
      )}`,
    );
    const placed = await placedOnOne('api-deployment', 'keep');
    const from = placed.spec.clusters![0]!.name;
    const to = from === 'member1' ? 'member2' : 'member1';
    const ref = { group: 'apps', kind: 'Deployment', namespace: 'keep', name: 'api' };
    await eventually('applied on its member', async () => Boolean(await onSim(from, ref)));
    await sim('unhealthy', from, 'deployment/api', 'keep');
    await eventually(`started on ${to}`, async () => Boolean(await onSim(to, ref)), 60_000);
    const kept = await binding('api-deployment', 'keep');
    const task = kept?.spec.gracefulEvictionTasks?.find((t) => t.fromCluster === from);
    assert.equal(task?.suppressDeletion, true);
    // Even once the new copy is healthy, the old one stays.
    await eventually('the new copy healthy', async () => {
      const b = await binding('api-deployment', 'keep');
      return b?.status?.aggregatedStatus?.find((s) => s.clusterName === to)?.health === 'Healthy';
    });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.ok(await onSim(from, ref), 'the old copy is kept (suppressDeletion)');

    const index = kept!.spec.gracefulEvictionTasks!.findIndex((t) => t.fromCluster === from);
    await kubectl.ok([
      'patch',
      'rb',
      'api-deployment',
      '-n',
      'keep',
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: `/spec/gracefulEvictionTasks/${index}/suppressDeletion`, value: false }]),
    ]);
    await eventually(`the old copy removed from ${from}`, async () => !(await onSim(from, ref)), 60_000);
    await sim('healthy', from, 'deployment/api', 'keep');
  });

  it('Gracefully keeps the old copy until the eviction task ends; a WorkloadRebalancer then moves replicas back and is deleted after its TTL', async () => {
    await kubectl.ok(['create', 'namespace', 'back']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `${deployment('svc', 'back', 4)}---${policy(
        'svc',
        'back',
        `      decisionConditions: {tolerationSeconds: 2}
      purgeMode: Gracefully
      gracePeriodSeconds: 5`,
        `    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}`,
      )}`,
    );
    const spread = await eventually('divided over both members', async () => {
      const b = await binding('svc-deployment', 'back');
      return b?.spec.clusters?.length === 2 ? b : undefined;
    });
    assert.equal(spread.spec.clusters?.length, 2);
    await eventually('healthy on both', async () => {
      const b = await binding('svc-deployment', 'back');
      return b?.status?.aggregatedStatus?.filter((s) => s.health === 'Healthy').length === 2;
    });
    const ref = { group: 'apps', kind: 'Deployment', namespace: 'back', name: 'svc' };
    await sim('unhealthy', 'member1', 'deployment/svc', 'back');
    // Gracefully: the first look at the binding with every replica on member2 still has the task, and
    // the old copy on member1 is still there (it goes only once the task ends). Watched closely: the
    // task ends as soon as member2 reports Healthy.
    const moved = await eventually(
      'all replicas on member2',
      async () => {
        const b = await bindingNow('svc-deployment', 'back');
        if (b?.spec.clusters?.length !== 1 || b.spec.clusters[0]!.name !== 'member2') return undefined;
        const task = b.spec.gracefulEvictionTasks?.find((t) => t.fromCluster === 'member1');
        return { task, oldCopy: await onSim('member1', ref) };
      },
      60_000,
      50,
    );
    assert.equal(moved.task?.reason, 'ApplicationFailure');
    assert.equal(moved.task?.purgeMode, 'Gracefully');
    assert.equal(moved.task?.gracePeriodSeconds, 5);
    assert.ok(moved.oldCopy, 'the old copy on member1 is kept while the eviction task runs (Gracefully)');
    await sim('healthy', 'member1', 'deployment/svc', 'back');
    // The task ends (grace period or the new copies healthy); the cluster is schedulable for it again.
    await eventually(
      'the eviction task ended',
      async () => !(await binding('svc-deployment', 'back'))?.spec.gracefulEvictionTasks?.length,
      60_000,
    );
    await eventually('the old copy removed from member1', async () => !(await onSim('member1', ref)), 60_000);
    // Nothing moves back by itself.
    assert.deepEqual(
      (await binding('svc-deployment', 'back'))?.spec.clusters?.map((c) => c.name),
      ['member2'],
    );

    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata: {name: back-home}
spec:
  ttlSecondsAfterFinished: 3
  workloads:
    - {apiVersion: apps/v1, kind: Deployment, namespace: back, name: svc}
`,
    );
    await eventually(
      'replicas back on both members',
      async () => {
        const b = await binding('svc-deployment', 'back');
        return b?.spec.clusters?.length === 2;
      },
      60_000,
    ).catch(async (err: unknown) => {
      // Say what the control plane did instead: the binding's placement and trigger, and its events.
      const b = await bindingNow('svc-deployment', 'back');
      const events = await kubectl.run(['get', 'events', '-n', 'back', '--sort-by=.lastTimestamp']);
      throw new Error(
        `${String(err)}\nbinding: ${JSON.stringify({ spec: b?.spec, status: b?.status, annotations: b?.metadata.annotations })}\nevents:\n${events.stdout}`,
      );
    });
    const rebalancer = await eventually('the rebalancer finished', async () => {
      const r = await getJson<
        KubeObject & { status?: { finishTime?: string; observedWorkloads?: { result?: string }[] } }
      >(kubectl, ['workloadrebalancer', 'back-home']);
      return r?.status?.finishTime ? r : undefined;
    });
    assert.equal(rebalancer.status?.observedWorkloads?.[0]?.result, 'Successful');
    await eventually(
      'the rebalancer deleted after its TTL',
      async () => (await kubectl.run(['get', 'workloadrebalancer', 'back-home'])).code !== 0,
      30_000,
    );
  });
});
