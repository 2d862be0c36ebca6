/**
 * An eviction timer survives a restart of the local control plane: a cluster gets a NoExecute taint
 * the workload tolerates for a few seconds, the control plane stops in the middle of that window and
 * starts again from its data directory, and the workload still leaves the cluster — the decision is
 * made from the taint's stored `timeAdded` and a delayed message (saved across the restart), not from
 * anything a process kept in memory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { eventually } from '../support/eventually.ts';
import { E2E_TIMINGS, getJson, membersReady, oneRegionMembers } from '../support/e2e.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const MEMBERS = ['member1', 'member2'];
const TOLERATION_SECONDS = 8;

const dataDir = mkdtempSync(join(tmpdir(), 'failover-restart-'));
const appDataDir = mkdtempSync(join(tmpdir(), 'app-failover-restart-'));
const running: LocalRuntime[] = [];
after(async () => {
  for (const rt of running) await rt.stop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(appDataDir, { recursive: true, force: true });
});

async function start(dir = dataDir): Promise<LocalRuntime> {
  const rt = await startLocalRuntime({
    dataDir: dir,
    apiPort: 0,
    simulation: oneRegionMembers(MEMBERS, 1),
    clusterTimings: E2E_TIMINGS,
    logLevel: 'WARN',
  });
  running.push(rt);
  await membersReady(rt, MEMBERS);
  return rt;
}

type Binding = KubeObject & {
  spec: { clusters?: { name: string }[]; gracefulEvictionTasks?: { fromCluster: string; message?: string }[] };
  status?: {
    conditions?: { type: string; reason?: string; message?: string }[];
    aggregatedStatus?: { clusterName: string; health?: string }[];
  };
};

describe('eviction timers across a restart', () => {
  it('a restart in the middle of a toleration window does not lose the eviction', async () => {
    let rt = await start();
    let kubectl = kubectlRunner(rt.kubeconfig);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data: {a: "1"}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: settings, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    spreadConstraints: [{spreadByField: cluster, maxGroups: 1, minGroups: 1}]
    clusterTolerations:
      - {key: example.com/maintenance, operator: Exists, effect: NoExecute, tolerationSeconds: ${TOLERATION_SECONDS}}
`,
    );
    const placed = await eventually('placed on one member', async () => {
      const b = await getJson<Binding>(kubectl, ['rb', 'settings-configmap']);
      return b?.spec.clusters?.length === 1 ? b : undefined;
    });
    const from = placed.spec.clusters![0]!.name;
    // An administrator taints the cluster; the workload tolerates it for a few seconds. The clock is read
    // before the patch: the server stamps the taint while the patch is in flight, never earlier.
    const tainted = Date.now();
    await kubectl.ok([
      'patch',
      'cluster',
      from,
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { taints: [{ key: 'example.com/maintenance', effect: 'NoExecute' }] } }),
    ]);
    await new Promise((r) => setTimeout(r, 2_000));
    kubectl.cleanup();
    const { savedMessages } = await rt.stop();
    running.splice(running.indexOf(rt), 1);
    assert.ok(savedMessages > 0, 'queued messages (the eviction timer among them) were saved');

    rt = await start();
    kubectl = kubectlRunner(rt.kubeconfig);
    // Evicted: the task is on the binding, or — the copy elsewhere already healthy, which can take less
    // than one poll (each one a kubectl process) — the task has ended and the placement has moved.
    const moved = await eventually(
      `evicted from ${from} after the restart`,
      async () => {
        const b = await getJson<Binding>(kubectl, ['rb', 'settings-configmap']);
        const tasked = b?.spec.gracefulEvictionTasks?.some((t) => t.fromCluster === from);
        const placedElsewhere = b?.spec.clusters?.length && !b.spec.clusters.some((c) => c.name === from);
        return tasked || placedElsewhere ? b : undefined;
      },
      45_000,
    );
    // The taint's timeAdded is stamped in whole seconds (metav1.Time), so the toleration ends up to a
    // second before `tainted + toleration`.
    assert.ok(
      Date.now() - Math.floor(tainted / 1000) * 1000 >= TOLERATION_SECONDS * 1000,
      'not before the toleration ended',
    );
    assert.ok(!moved.spec.clusters?.some((c) => c.name === from));
    kubectl.cleanup();
  });

  it('a restart in the middle of an application failover window does not restart the window', async () => {
    let rt = await start(appDataDir);
    let kubectl = kubectlRunner(rt.kubeconfig);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec:
      containers: [{name: worker, image: busybox, resources: {requests: {cpu: 100m}}}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: worker, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: worker}]
  propagateDeps: true
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    spreadConstraints: [{spreadByField: cluster, maxGroups: 1, minGroups: 1}]
  failover:
    application:
      decisionConditions: {tolerationSeconds: ${TOLERATION_SECONDS + 4}}
      purgeMode: Directly
`,
    );
    const healthy = await eventually('placed and healthy on one member', async () => {
      const b = await getJson<Binding>(kubectl, ['rb', 'worker-deployment']);
      const from = b?.spec.clusters?.length === 1 ? b.spec.clusters[0]!.name : undefined;
      return from && b?.status?.aggregatedStatus?.some((s) => s.clusterName === from && s.health === 'Healthy')
        ? from
        : undefined;
    });
    const from = healthy;
    // The roll-out's own window (a new Deployment is Unhealthy until its pods are ready) closes first.
    await eventually('watched, no window open', async () => {
      const b = await getJson<Binding>(kubectl, ['rb', 'worker-deployment']);
      return b?.status?.conditions?.find((x) => x.type === 'ApplicationFailover')?.reason === 'Watching';
    });
    rt.members.get(from)!.markUnhealthy({ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'worker' });
    const since = await eventually('the toleration window started', async () => {
      const b = await getJson<Binding>(kubectl, ['rb', 'worker-deployment']);
      const c = b?.status?.conditions?.find((x) => x.type === 'ApplicationFailover');
      return c?.reason === 'WorkloadUnhealthy' ? /since (\S+): evicted/.exec(c.message ?? '')?.[1] : undefined;
    });
    await new Promise((r) => setTimeout(r, 2_000));
    kubectl.cleanup();
    await rt.stop();
    running.splice(running.indexOf(rt), 1);

    // The member keeps the workload unhealthy across the restart; the window goes on from where it was.
    rt = await start(appDataDir);
    kubectl = kubectlRunner(rt.kubeconfig);
    // The eviction explains itself: its event names when the window started.
    const evicted = await eventually(
      `evicted from ${from} after the restart`,
      async () => {
        const described = await kubectl.ok(['describe', 'rb', 'worker-deployment']);
        return new RegExp(`EvictWorkloadFromClusterSucceed.*Evict from cluster ${from} succeed: .*`).exec(
          described,
        )?.[0];
      },
      60_000,
    );
    assert.match(evicted, new RegExp(`Unhealthy since ${since}`), 'the window started before the restart');
    kubectl.cleanup();
  });
});
