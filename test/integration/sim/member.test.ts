/**
 * The member-cluster simulator: nodes, workloads whose status evolves like a real cluster's (ready
 * replicas bounded by node capacity), Jobs, custom resources, garbage collection, faults, restarts.
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import type { MemberConfig } from '../../../lib/sim/config.ts';
import { type SimulatedMember } from '../../../lib/sim/member.ts';
import { crd, deployment } from '../../support/factories.ts';
import { simulatedMemberFixture } from '../../support/sim-member.ts';

const fixture = simulatedMemberFixture('m');
const pki = {
  get ca() {
    return fixture.pki().ca;
  },
};
const start = (overrides: Partial<MemberConfig> = {}, snapshot?: string) =>
  fixture.start(
    { zones: ['us-east-1a', 'us-east-1b'], node: { cpu: '2', memory: '8Gi', pods: '10' }, ...overrides },
    snapshot,
  );

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const DEPLOY = (name: string) => ({ group: 'apps', kind: 'Deployment', namespace: 'default', name });

function withRequests(d: KubeObject, cpu: string, memory = '64Mi'): KubeObject {
  const containers = (d.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec
    .containers;
  containers[0]!.resources = { requests: { cpu, memory } };
  return d;
}

function statusOf(o: KubeObject | undefined): Record<string, unknown> {
  return (o?.status ?? {}) as Record<string, unknown>;
}

describe('simulated member cluster', () => {
  it('has nodes labelled with its region and zones, with the configured capacity', async () => {
    const m = await start({ nodes: 3, zones: ['us-east-1a', 'us-east-1b'] });
    const nodes = (await m.store.list({ group: '', kind: 'Node' })).items;
    assert.deepEqual(
      nodes.map((n) => n.metadata.labels?.['topology.kubernetes.io/zone']),
      ['us-east-1a', 'us-east-1b', 'us-east-1a'],
    );
    assert.ok(nodes.every((n) => n.metadata.labels?.['topology.kubernetes.io/region'] === 'us-east-1'));
    assert.deepEqual((nodes[0]!.status as { allocatable: unknown }).allocatable, {
      cpu: '2',
      memory: '8Gi',
      pods: '10',
      'ephemeral-storage': '100Gi',
    });
  });

  it('bounds a Deployment’s ready replicas by node capacity and says why the rest are Pending', async () => {
    const m = await start();
    await m.store.create(withRequests(deployment('web', { replicas: 6 }), '750m'));
    // 2 nodes × 2 CPUs fit 2 pods of 750m each: 4 ready, 2 pending.
    const status = await until('4 ready replicas', async () => {
      const s = statusOf(await m.store.get(DEPLOY('web')));
      return s.readyReplicas === 4 ? s : undefined;
    });
    assert.equal(status.replicas, 6);
    assert.equal(status.unavailableReplicas, 2);
    const pending = (await m.store.list({ group: '', kind: 'Pod' })).items.filter(
      (p) => (p.status as { phase?: string })?.phase === 'Pending',
    );
    assert.equal(pending.length, 2);
    assert.match(JSON.stringify(pending[0]!.status), /0\/2 nodes are available: 2 Insufficient cpu/);
  });

  it('scales down, and replaces pods when the template changes', async () => {
    const m = await start();
    const created = await m.store.create(deployment('app', { replicas: 3 }));
    await until('3 ready', async () =>
      statusOf(await m.store.get(DEPLOY('app'))).readyReplicas === 3 ? true : undefined,
    );
    const current = (await m.store.get(DEPLOY('app')))!;
    const spec = structuredClone(current.spec) as {
      replicas: number;
      template: { spec: { containers: { image: string }[] } };
    };
    spec.replicas = 1;
    spec.template.spec.containers[0]!.image = 'nginx:1.28';
    await m.store.update({ ...current, spec });
    const status = await until('1 updated ready replica', async () => {
      const s = statusOf(await m.store.get(DEPLOY('app')));
      return s.readyReplicas === 1 && s.updatedReplicas === 1 && s.replicas === 1 && s.observedGeneration === 2
        ? s
        : undefined;
    });
    assert.ok(status);
    const pods = (await m.store.list({ group: '', kind: 'Pod' })).items.filter(
      (p) => p.metadata.ownerReferences?.[0]?.uid === created.metadata.uid,
    );
    assert.deepEqual(
      pods.map((p) => (p.spec as { containers: { image: string }[] }).containers[0]!.image),
      ['nginx:1.28'],
    );
  });

  it('runs a Job to completion', async () => {
    const m = await start();
    await m.store.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once', namespace: 'default' },
      spec: {
        completions: 2,
        parallelism: 1,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      },
    });
    const status = await until('the job to complete', async () => {
      const s = statusOf(await m.store.get({ group: 'batch', kind: 'Job', namespace: 'default', name: 'once' }));
      return (s.conditions as { type: string; status: string }[] | undefined)?.some(
        (c) => c.type === 'Complete' && c.status === 'True',
      )
        ? s
        : undefined;
    });
    assert.equal(status.succeeded, 2);
    assert.ok(status.completionTime);
  });

  it('starts StatefulSet pods in order, and one DaemonSet pod per matching node', async () => {
    const m = await start();
    await m.store.create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'postgres' }] } },
      },
    });
    await until('3 ready db pods', async () =>
      statusOf(await m.store.get({ group: 'apps', kind: 'StatefulSet', namespace: 'default', name: 'db' }))
        .readyReplicas === 3
        ? true
        : undefined,
    );
    const names = (await m.store.list({ group: '', kind: 'Pod', labelSelector: 'app=db' })).items.map(
      (p) => p.metadata.name,
    );
    assert.deepEqual(names, ['db-0', 'db-1', 'db-2']);
    await m.store.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'agent' }] } },
      },
    });
    const ds = await until('the daemon set on every node', async () => {
      const s = statusOf(await m.store.get({ group: 'apps', kind: 'DaemonSet', namespace: 'default', name: 'agent' }));
      return s.numberReady === 2 ? s : undefined;
    });
    assert.equal(ds.desiredNumberScheduled, 2);
  });

  it('gives a FlinkDeployment a running status with a stable job id', async () => {
    const m = await start();
    await m.store.create(crd('flink.apache.org', 'FlinkDeployment', 'flinkdeployments', 'v1beta1'));
    const ref = { group: 'flink.apache.org', kind: 'FlinkDeployment', namespace: 'default', name: 'job' };
    await m.store.create({
      apiVersion: 'flink.apache.org/v1beta1',
      kind: 'FlinkDeployment',
      metadata: { name: 'job', namespace: 'default' },
      spec: {},
    });
    const status = await until('a running flink job', async () => {
      const s = statusOf(await m.store.get(ref)) as { jobStatus?: { state: string; jobId: string } };
      return s.jobStatus ? s : undefined;
    });
    assert.equal(status.jobStatus!.state, 'RUNNING');
    assert.match(status.jobStatus!.jobId, /^[0-9a-f]{32}$/);
  });

  it('deletes the pods of a deleted workload', async () => {
    const m = await start();
    await m.store.create(deployment('gone', { replicas: 2 }));
    await until('2 pods', async () =>
      (await m.store.list({ group: '', kind: 'Pod' })).items.length === 2 ? true : undefined,
    );
    await m.store.delete(DEPLOY('gone'));
    await until('no pods', async () =>
      (await m.store.list({ group: '', kind: 'Pod' })).items.length === 0 ? true : undefined,
    );
  });

  it('keeps its objects and its token across a restart', async () => {
    const snapshot = join(fixture.dir(), 'kept.state.json');
    const first = await start({ name: 'kept' }, snapshot);
    await first.store.create(deployment('kept', { replicas: 1 }));
    const token = first.token;
    await first.stop();
    const second = await start({ name: 'kept' }, snapshot);
    assert.equal(second.token, token);
    assert.ok(await second.store.get(DEPLOY('kept')));
  });

  it('keeps workloads marked unhealthy across a restart (the application does not heal with the control plane)', async () => {
    const snapshot = join(fixture.dir(), 'sick.state.json');
    const ref = { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'sick' };
    const first = await start({ name: 'sick' }, snapshot);
    first.markUnhealthy(ref);
    await first.stop();
    const second = await start({ name: 'sick' }, snapshot);
    assert.deepEqual(second.unhealthyWorkloads, [ref]);
    second.markHealthy(ref);
    await second.stop();
    const third = await start({ name: 'sick' }, snapshot);
    assert.deepEqual(third.unhealthyWorkloads, []);
  });

  describe('faults', () => {
    function get(
      m: SimulatedMember,
      path: string,
      timeoutMs = 3000,
    ): Promise<{ status: number; body: string; ms: number }> {
      const url = new URL(path, m.url);
      const started = Date.now();
      return new Promise((resolve, reject) => {
        const req = request(
          url,
          { ca: pki.ca.certPem, headers: { authorization: `Bearer ${m.token}` }, timeout: timeoutMs },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started }));
          },
        );
        req.on('error', reject);
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.end();
      });
    }

    it('unreachable, not ready, slow and failing, then recovered', async () => {
      const m = await start();
      assert.equal((await get(m, '/readyz')).status, 200);
      m.setFault({ mode: 'unreachable' });
      await assert.rejects(get(m, '/readyz'), /ECONNRESET|socket hang up/);
      m.setFault({ mode: 'not-ready' });
      const notReady = await get(m, '/readyz');
      assert.equal(notReady.status, 500);
      assert.match(notReady.body, /readyz check failed/);
      assert.equal((await get(m, '/api/v1/namespaces')).status, 200, 'the API itself still answers');
      m.setFault({ mode: 'slow', delayMs: 300 });
      assert.ok((await get(m, '/readyz')).ms >= 300);
      m.setFault({ mode: 'errors' });
      const failing = await get(m, '/api/v1/namespaces');
      assert.equal(failing.status, 500);
      assert.match(failing.body, /simulated failure of member/);
      m.recover();
      assert.equal((await get(m, '/readyz')).status, 200);
    });

    it('refuses a request without its token', async () => {
      const m = await start();
      const url = new URL('/api/v1/namespaces', m.url);
      const status = await new Promise<number>((resolve, reject) => {
        request(url, { ca: pki.ca.certPem }, (res) => resolve(res.statusCode ?? 0))
          .on('error', reject)
          .end();
      });
      assert.equal(status, 401);
    });
  });
});
