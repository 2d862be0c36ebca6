/**
 * `skctl sim unhealthy|healthy`: a workload marked unhealthy on a simulated member crash-loops its
 * pods (a Deployment loses its ready and available replicas), a custom resource reports its kind's
 * failed state (a FlinkDeployment keeps its job id), the mark holds through updates and re-creation,
 * and clearing it brings the workload back; the control socket answers 404 and 400 to mistakes.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { runSim } from '../../../lib/cli/sim.ts';
import { controlRequest, startControlServer, type MemberView } from '../../../lib/sim/control.ts';
import { crashingPods, UnhealthyWorkloads } from '../../../lib/sim/controllers/unhealthy.ts';
import { type SimulatedMember } from '../../../lib/sim/member.ts';
import { eventually } from '../../support/eventually.ts';
import { simulatedMemberFixture } from '../../support/sim-member.ts';
import { crd, deployment } from '../../support/factories.ts';

type Obj = Record<string, unknown>;

const fixture = simulatedMemberFixture('u');
const start = () => fixture.start();

const DEPLOY = (name: string) => ({ group: 'apps', kind: 'Deployment', namespace: 'default', name });
const statusOf = (o: KubeObject | undefined): Obj => (o?.status ?? {}) as Obj;
const conditionsOf = (o: unknown): Obj[] => ((o as { conditions?: Obj[] } | undefined)?.conditions ?? []) as Obj[];
const condition = (o: unknown, type: string) => conditionsOf(o).find((c) => c.type === type);

async function resolved(m: SimulatedMember, target: string, namespace?: string) {
  const r = await m.resolveWorkload(target, namespace);
  assert.equal(r.code, 'Resolved', JSON.stringify(r));
  return (r as Extract<typeof r, { code: 'Resolved' }>).ref;
}

async function podsOf(m: SimulatedMember, app: string): Promise<KubeObject[]> {
  return (await m.store.list({ group: '', kind: 'Pod', labelSelector: `app=${app}` })).items.filter(
    (p) => !p.metadata.deletionTimestamp,
  );
}

async function readyReplicas(m: SimulatedMember, name: string, want: number): Promise<Obj> {
  return eventually(`${name} at ${want} ready replicas`, async () => {
    const s = statusOf(await m.store.get(DEPLOY(name)));
    return (s.readyReplicas ?? 0) === want && s.replicas === 2 ? s : undefined;
  });
}

describe('workloads marked unhealthy on a simulated member', () => {
  it('a Deployment loses its ready and available replicas, and gets them back when healthy', async () => {
    const m = await start();
    await m.store.create(deployment('web', { replicas: 2 }));
    await readyReplicas(m, 'web', 2);

    assert.equal(m.markUnhealthy(await resolved(m, 'deploy/web')), true);
    const down = await readyReplicas(m, 'web', 0);
    assert.equal(down.availableReplicas, undefined);
    assert.equal(down.unavailableReplicas, 2);
    assert.deepEqual(
      { status: condition(down, 'Available')?.status, reason: condition(down, 'Available')?.reason },
      { status: 'False', reason: 'MinimumReplicasUnavailable' },
    );
    for (const pod of await podsOf(m, 'web')) {
      const s = statusOf(pod);
      assert.equal(s.phase, 'Running');
      for (const type of ['Ready', 'ContainersReady'])
        assert.deepEqual([condition(s, type)?.status, condition(s, type)?.reason], ['False', 'ContainersNotReady']);
      const container = (s.containerStatuses as Obj[])[0]!;
      assert.equal((container.state as { waiting?: { reason: string } }).waiting?.reason, 'CrashLoopBackOff');
      assert.equal(container.ready, false);
    }
    assert.deepEqual(m.unhealthyWorkloads, [{ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'web' }]);

    assert.equal(m.markHealthy(await resolved(m, 'Deployment/web')), true);
    const up = await readyReplicas(m, 'web', 2);
    assert.equal(up.availableReplicas, 2);
    assert.equal(condition(up, 'Available')?.status, 'True');
    assert.deepEqual(m.unhealthyWorkloads, []);
  });

  it('holds through an update by a client and a delete and re-create, and applies before the object exists', async () => {
    const m = await start();
    m.markUnhealthy(await resolved(m, 'deployments/api'));
    await m.store.create(deployment('api', { replicas: 2 }));
    // Pods are created, scheduled and started, but never become Ready.
    await eventually('2 crash-looping pods', async () => {
      const pods = await podsOf(m, 'api');
      return pods.length === 2 && pods.every((p) => statusOf(p).phase === 'Running') ? pods : undefined;
    });
    assert.equal(statusOf(await m.store.get(DEPLOY('api'))).readyReplicas, undefined);

    // The control plane re-applies the workload with a new template: its new pods crash too.
    const current = (await m.store.get(DEPLOY('api')))!;
    const spec = structuredClone(current.spec) as { template: { spec: { containers: { image: string }[] } } };
    spec.template.spec.containers[0]!.image = 'nginx:1.28';
    await m.store.update({ ...current, spec });
    const replaced = await eventually('the new template’s pods, running', async () => {
      const s = statusOf(await m.store.get(DEPLOY('api')));
      const pods = await podsOf(m, 'api');
      return s.observedGeneration === 2 &&
        s.updatedReplicas === 2 &&
        pods.length === 2 &&
        pods.every((p) => statusOf(p).phase === 'Running')
        ? s
        : undefined;
    });
    assert.equal(replaced.readyReplicas, undefined);

    await m.store.delete(DEPLOY('api'));
    await m.store.create(deployment('api', { replicas: 2 }));
    await eventually('the re-created deployment’s pods, running', async () => {
      const pods = await podsOf(m, 'api');
      return pods.length === 2 && pods.every((p) => statusOf(p).phase === 'Running') ? pods : undefined;
    });
    assert.equal(statusOf(await m.store.get(DEPLOY('api'))).readyReplicas, undefined);

    m.markHealthy(await resolved(m, 'deploy/api'));
    await readyReplicas(m, 'api', 2);
  });

  it('crash-loops a pod through its controllers: a ReplicaSet owned by a marked Deployment', () => {
    const owner = (kind: string, name: string, uid: string) => ({
      apiVersion: 'apps/v1',
      kind,
      name,
      uid,
      controller: true,
    });
    const dep: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', uid: 'd' },
    };
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-1', namespace: 'default', uid: 'r', ownerReferences: [owner('Deployment', 'web', 'd')] },
    };
    const pod = (name: string, refs: ReturnType<typeof owner>[]): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', uid: name, ownerReferences: refs },
    });
    const marks = new UnhealthyWorkloads();
    marks.mark({ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'web' });
    marks.mark({ group: '', kind: 'Pod', namespace: 'default', name: 'bare' });
    const crashing = crashingPods(marks, [dep, rs]);
    assert.equal(crashing(pod('web-1-abc', [owner('ReplicaSet', 'web-1', 'r')])), true);
    assert.equal(crashing(pod('bare', [])), true);
    assert.equal(crashing(pod('other', [])), false);
  });

  it('fails a FlinkDeployment keeping its job id, and restores its healthy status', async () => {
    const m = await start();
    await m.store.create(crd('flink.apache.org', 'FlinkDeployment', 'flinkdeployments'));
    const ref = { group: 'flink.apache.org', kind: 'FlinkDeployment', namespace: 'default', name: 'job' };
    await m.store.create({
      apiVersion: 'flink.apache.org/v1',
      kind: 'FlinkDeployment',
      metadata: { name: 'job', namespace: 'default' },
      spec: {},
    });
    const running = await eventually('a running flink job', async () => {
      const s = statusOf(await m.store.get(ref)) as { jobStatus?: { state: string; jobID: string } };
      return s.jobStatus?.state === 'RUNNING' ? s : undefined;
    });
    const jobID = running.jobStatus!.jobID;

    m.markUnhealthy(await resolved(m, 'flinkdeployments.flink.apache.org/job'));
    const failed = await eventually('the failed overlay', async () => {
      const s = statusOf(await m.store.get(ref));
      return s.jobManagerDeploymentStatus === 'ERROR' ? s : undefined;
    });
    assert.deepEqual(failed, {
      lifecycleState: 'DEPLOYED',
      jobStatus: { state: 'RECONCILING', jobId: jobID, jobID },
      jobManagerDeploymentStatus: 'ERROR',
      error: 'JobManager deployment failed: pods are not ready (simulated)',
      observedGeneration: 1,
    });

    // A spec change (a new generation) does not bring the healthy status back while marked.
    const cr = (await m.store.get(ref))!;
    await m.store.update({ ...cr, spec: { parallelism: 2 } });
    await eventually('the failed status at generation 2', async () => {
      const s = statusOf(await m.store.get(ref));
      return s.observedGeneration === 2 && s.jobManagerDeploymentStatus === 'ERROR' ? s : undefined;
    });

    m.markHealthy(await resolved(m, 'FlinkDeployment/job'));
    const restored = await eventually('the healthy status again', async () => {
      const s = statusOf(await m.store.get(ref));
      return s.jobManagerDeploymentStatus === 'READY' ? s : undefined;
    });
    assert.deepEqual(restored, {
      lifecycleState: 'STABLE',
      jobStatus: { state: 'RUNNING', jobId: jobID, jobID },
      jobManagerDeploymentStatus: 'READY',
      observedGeneration: 2,
    });
  });

  it('fails other custom kinds with their own failed state, or a Ready=False condition', async () => {
    const m = await start();
    const cases: { crd: KubeObject; target: string; failed: (s: Obj) => boolean; healthy: (s: Obj) => boolean }[] = [
      {
        crd: crd('ray.io', 'RayCluster', 'rayclusters'),
        target: 'raycluster/c',
        failed: (s) =>
          s.state === 'failed' &&
          condition(s, 'HeadPodReady')?.status === 'False' &&
          condition(s, 'RayClusterReplicaFailure')?.status === 'True' &&
          condition(s, 'RayClusterProvisioned')?.status === 'True',
        healthy: (s) =>
          s.state === 'ready' &&
          condition(s, 'HeadPodReady')?.status === 'True' &&
          condition(s, 'RayClusterReplicaFailure') === undefined,
      },
      {
        crd: crd('batch.volcano.sh', 'Job', 'jobs'),
        target: 'jobs.batch.volcano.sh/c',
        failed: (s) => (s.state as Obj | undefined)?.phase === 'Failed',
        healthy: (s) => (s.state as Obj | undefined)?.phase === 'Running',
      },
      {
        crd: crd('kubeflow.org', 'PyTorchJob', 'pytorchjobs'),
        target: 'pytorchjob/c',
        failed: (s) =>
          condition(s, 'Failed')?.reason === 'JobFailed' &&
          condition(s, 'Failed')?.status === 'True' &&
          condition(s, 'Running')?.status === 'False',
        healthy: (s) => condition(s, 'Running')?.status === 'True' && condition(s, 'Failed') === undefined,
      },
      {
        crd: crd('example.com', 'Widget', 'widgets'),
        target: 'widget/c',
        failed: (s) =>
          condition(s, 'Ready')?.status === 'False' && condition(s, 'Ready')?.reason === 'SimulatedFailure',
        healthy: (s) => s.conditions === undefined,
      },
    ];
    for (const c of cases) await m.store.create(c.crd);
    for (const c of cases) {
      const spec = c.crd.spec as { group: string; names: { kind: string } };
      const ref = { group: spec.group, kind: spec.names.kind, namespace: 'default', name: 'c' };
      await m.store.create({
        apiVersion: `${spec.group}/v1`,
        kind: spec.names.kind,
        metadata: { name: 'c', namespace: 'default' },
      });
      const marked = await eventually(`${c.target} resolved`, async () => {
        const r = await m.resolveWorkload(c.target);
        return r.code === 'Resolved' ? r.ref : undefined;
      });
      assert.deepEqual(marked, ref);
      m.markUnhealthy(marked);
      await eventually(`${c.target} failed`, async () => c.failed(statusOf(await m.store.get(ref))));
      m.markHealthy(marked);
      await eventually(`${c.target} healthy`, async () => c.healthy(statusOf(await m.store.get(ref))));
    }
  });

  describe('through the control socket', () => {
    let server: Server;
    let socket: string;
    let m: SimulatedMember;

    before(async () => {
      m = await start();
      socket = join(fixture.dir(), 'control.sock');
      server = await startControlServer(socket, new Map([[m.name, m]]));
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('answers 404 to an unknown member or kind, 400 to a malformed workload or a kind without pods', async () => {
      const cases: [string, string, unknown, number, RegExp][] = [
        [
          'unknown member',
          '/members/nope/unhealthy',
          { workload: 'deploy/web' },
          404,
          /no simulated member named nope/,
        ],
        ['no slash', `/members/${m.name}/unhealthy`, { workload: 'web' }, 400, /<kind>\/<name>/],
        ['empty name', `/members/${m.name}/healthy`, { workload: 'deploy/' }, 400, /<kind>\/<name>/],
        ['two slashes', `/members/${m.name}/unhealthy`, { workload: 'deploy/a/b' }, 400, /<kind>\/<name>/],
        ['no workload', `/members/${m.name}/unhealthy`, {}, 400, /must name the workload/],
        [
          'bad namespace',
          `/members/${m.name}/unhealthy`,
          { workload: 'deploy/web', namespace: 'A_B' },
          400,
          /DNS label/,
        ],
        ['unknown kind', `/members/${m.name}/unhealthy`, { workload: 'gizmo/web' }, 404, /resource type "gizmo"/],
        ['not a workload', `/members/${m.name}/unhealthy`, { workload: 'svc/web' }, 400, /Service has no pods/],
      ];
      for (const [what, path, body, status, error] of cases) {
        const res = await controlRequest(socket, 'POST', path, body);
        assert.equal(res.status, status, what);
        assert.match((res.body as { error: string }).error, error, what);
      }
      assert.deepEqual(m.unhealthyWorkloads, []);
    });

    it('marks and clears through skctl sim, and lists the marks', async () => {
      const lines: string[] = [];
      const sim = (...args: string[]) => runSim([...args, '--control', socket], (l) => lines.push(l));
      assert.equal(await sim('unhealthy', m.name, 'sts/db', '-n', 'shop'), 0);
      assert.equal(await sim('unhealthy', m.name, 'sts/db', '--namespace=shop'), 0);
      assert.equal(await sim('list'), 0);
      const listed = (await controlRequest(socket, 'GET', '/members')).body as MemberView[];
      assert.deepEqual(listed[0]!.unhealthy, [{ group: 'apps', kind: 'StatefulSet', namespace: 'shop', name: 'db' }]);
      assert.equal(await sim('healthy', m.name, 'statefulset/db', '-n', 'shop'), 0);
      assert.equal(await sim('healthy', m.name, 'statefulset/db', '-n', 'shop'), 0);
      assert.deepEqual(lines.slice(0, 2), [
        `statefulset.apps/db -n shop on ${m.name} marked unhealthy`,
        `statefulset.apps/db -n shop on ${m.name} was already marked unhealthy`,
      ]);
      assert.ok(lines.includes(`${''.padEnd(12)} unhealthy statefulset.apps/db -n shop`), lines.join('\n'));
      assert.deepEqual(lines.slice(-2), [
        `statefulset.apps/db -n shop on ${m.name} healthy again`,
        `statefulset.apps/db -n shop on ${m.name} was not marked unhealthy`,
      ]);
      await assert.rejects(sim('unhealthy', 'nope', 'deploy/web'), /no simulated member named nope/);
    });
  });
});
