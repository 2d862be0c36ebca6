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
const running: LocalRuntime[] = [];
after(async () => {
  for (const rt of running) await rt.stop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<LocalRuntime> {
  const rt = await startLocalRuntime({
    dataDir,
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
  spec: { clusters?: { name: string }[]; gracefulEvictionTasks?: { fromCluster: string }[] };
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
    const moved = await eventually(
      `evicted from ${from} after the restart`,
      async () => {
        const b = await getJson<Binding>(kubectl, ['rb', 'settings-configmap']);
        return b?.spec.gracefulEvictionTasks?.some((t) => t.fromCluster === from) ? b : undefined;
      },
      45_000,
    );
    assert.ok(Date.now() - tainted >= TOLERATION_SECONDS * 1000, 'not before the toleration ended');
    assert.ok(!moved.spec.clusters?.some((c) => c.name === from));
    kubectl.cleanup();
  });
});
