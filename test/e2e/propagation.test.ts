/**
 * The workload really runs: templates become objects on three simulated members, customized per
 * cluster, with their status back on the control plane — driven by kubectl as a Karmada user would.
 * - nginx + PropagationPolicy + OverridePolicy: per-cluster images and replicas on the right members;
 * - the template's status is the fleet's (ready replicas summed), the binding is FullyApplied;
 * - scaling the template re-divides it on the members;
 * - an edit made directly on a member is reverted;
 * - a member down during an update gets it once it is back;
 * - a ConfigMap the Deployment mounts follows it (propagateDeps);
 * - namespaces appear on every member (unless skipped);
 * - `conflictResolution: Abort` refuses to adopt a member object Karmada did not create;
 * - deleting a template removes it from members, or keeps it (without Karmada's labels) with
 *   preserveResourcesOnDeletion; deleting a policy leaves everything in place.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { eventually } from '../support/eventually.ts';
import { E2E_TIMINGS, getJson, membersReady, oneRegionMembers } from '../support/e2e.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const MEMBERS = ['member1', 'member2', 'member3'];
const SIMULATION = oneRegionMembers(MEMBERS);

let rt: LocalRuntime;
let kubectl: ReturnType<typeof kubectlRunner>;
const onMember = new Map<string, ReturnType<typeof kubectlRunner>>();

before(async () => {
  rt = await startLocalRuntime({ inMemory: true, apiPort: 0, simulation: SIMULATION, clusterTimings: E2E_TIMINGS });
  kubectl = kubectlRunner(rt.kubeconfig);
  for (const name of MEMBERS) onMember.set(name, kubectlRunner(rt.members.get(name)!.kubeconfig));
  await membersReady(rt, MEMBERS);
});
after(async () => {
  kubectl?.cleanup();
  for (const k of onMember.values()) k.cleanup();
  await rt?.stop();
});

const member = (name: string) => onMember.get(name)!;
type Deploy = KubeObject & {
  spec: { replicas?: number; template: { spec: { containers: { name: string; image: string }[] } } };
  status?: { readyReplicas?: number; availableReplicas?: number; replicas?: number };
};

async function memberDeploy(cluster: string, name: string): Promise<Deploy | undefined> {
  return (await getJson(member(cluster), ['deployment', name, '-n', 'default'])) as Deploy | undefined;
}

function deployment(name: string, replicas: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
          ...extra,
        },
      },
    },
  });
}

function policy(name: string, target: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: 'default' },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: target }], ...spec },
  });
}

const image = (d: Deploy | undefined) => d?.spec.template.spec.containers[0]?.image;

describe('propagation to members through kubectl', () => {
  it('lands nginx on the right members with per-cluster images and replicas, and aggregates its status', async () => {
    await kubectl.ok(['apply', '-f', '-'], deployment('nginx', 4));
    await kubectl.ok(
      ['apply', '-f', '-'],
      policy('nginx-pp', 'nginx', {
        placement: {
          clusterAffinity: { clusterNames: MEMBERS },
          replicaScheduling: {
            replicaSchedulingType: 'Divided',
            replicaDivisionPreference: 'Weighted',
            weightPreference: {
              staticWeightList: [
                { targetCluster: { clusterNames: ['member1'] }, weight: 2 },
                { targetCluster: { clusterNames: ['member2'] }, weight: 1 },
                { targetCluster: { clusterNames: ['member3'] }, weight: 1 },
              ],
            },
          },
        },
      }),
    );
    await kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'OverridePolicy',
        metadata: { name: 'nginx-op', namespace: 'default' },
        spec: {
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
          overrideRules: [
            {
              targetCluster: { clusterNames: ['member1'] },
              overriders: {
                imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'registry.example.com' }],
              },
            },
            {
              targetCluster: { clusterNames: ['member2'] },
              overriders: {
                imageOverrider: [{ component: 'Tag', operator: 'replace', value: '1.27-alpine' }],
                labelsOverrider: [{ operator: 'add', value: { tier: 'edge' } }],
              },
            },
          ],
        },
      }),
    );
    const want = {
      member1: { replicas: 2, image: 'registry.example.com/nginx:1.27' },
      member2: { replicas: 1, image: 'nginx:1.27-alpine' },
      member3: { replicas: 1, image: 'nginx:1.27' },
    };
    for (const [cluster, w] of Object.entries(want)) {
      const d = await eventually(`nginx on ${cluster} as overridden`, async () => {
        const got = await memberDeploy(cluster, 'nginx');
        return got?.spec.replicas === w.replicas && image(got) === w.image ? got : undefined;
      });
      assert.equal(d.metadata.labels?.['karmada.io/managed'], 'true');
      assert.ok(d.metadata.labels?.['resourcebinding.karmada.io/permanent-id']);
      assert.equal(d.metadata.annotations?.['resourcebinding.karmada.io/name'], 'nginx-deployment');
      assert.equal(d.metadata.labels?.tier, cluster === 'member2' ? 'edge' : undefined);
    }

    // The Work is Karmada's: named and placed as Karmada does, Applied.
    const work = await eventually('the member1 Work applied', async () => {
      const w = await getJson(kubectl, ['work.work.karmada.io', 'nginx-687f7fb96f', '-n', 'karmada-es-member1']);
      const applied = (w?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
      return applied?.some((c) => c.type === 'Applied' && c.status === 'True') ? w : undefined;
    });
    assert.ok(work.metadata.annotations?.['policy.karmada.io/applied-overrides']?.includes('nginx-op'));

    // kubectl get deploy on the control plane shows the fleet-wide truth.
    const template = await eventually('the template status summed over members', async () => {
      const d = (await getJson(kubectl, ['deployment', 'nginx'])) as Deploy | undefined;
      return d?.status?.readyReplicas === 4 && d.status.availableReplicas === 4 ? d : undefined;
    });
    assert.equal(template.status?.replicas, 4);
    const rb = await eventually('the binding FullyApplied', async () => {
      const b = await getJson(kubectl, ['resourcebinding.work.karmada.io', 'nginx-deployment']);
      const status = b?.status as
        | {
            conditions?: { type: string; status: string }[];
            aggregatedStatus?: { clusterName: string; applied: boolean; health?: string }[];
          }
        | undefined;
      return status?.conditions?.some((c) => c.type === 'FullyApplied' && c.status === 'True') &&
        status.aggregatedStatus?.every((i) => i.health === 'Healthy')
        ? status
        : undefined;
    });
    assert.deepEqual(
      rb.aggregatedStatus?.map((i) => [i.clusterName, i.applied]),
      MEMBERS.map((m) => [m, true]),
    );
  });

  it('re-divides on kubectl scale and updates the members', async () => {
    await kubectl.ok(['scale', 'deployment', 'nginx', '--replicas=8']);
    for (const [cluster, replicas] of [
      ['member1', 4],
      ['member2', 2],
      ['member3', 2],
    ] as const) {
      await eventually(`nginx on ${cluster} scaled to ${replicas}`, async () => {
        return (await memberDeploy(cluster, 'nginx'))?.spec.replicas === replicas;
      });
    }
    await eventually('the template status at 8 ready', async () => {
      const d = (await getJson(kubectl, ['deployment', 'nginx'])) as Deploy | undefined;
      return d?.status?.readyReplicas === 8;
    });
    // The aggregated status is complete enough for kubectl's own rollout check.
    const rollout = await kubectl.ok(['rollout', 'status', 'deployment/nginx', '--timeout=30s']);
    assert.match(rollout, /successfully rolled out/);
  });

  it('reverts an edit made directly on a member', async () => {
    await member('member2').ok(['scale', 'deployment', 'nginx', '-n', 'default', '--replicas=5']);
    await member('member2').ok(['set', 'image', 'deployment/nginx', '-n', 'default', 'main=evil:latest']);
    await eventually('member2 back to the Work', async () => {
      const d = await memberDeploy('member2', 'nginx');
      return d?.spec.replicas === 2 && image(d) === 'nginx:1.27-alpine';
    });
  });

  it('gets an update made while a member was down to that member once it is back', async () => {
    const m3 = rt.members.get('member3')!;
    m3.setFault({ mode: 'unreachable' });
    try {
      await eventually('member3 not Ready', async () => {
        const c = await rt.runtime.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'member3' });
        const status = c?.status as { conditions?: { type: string; status: string }[] } | undefined;
        return status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'False');
      });
      await kubectl.ok(['set', 'image', 'deployment/nginx', 'main=nginx:1.28']);
      await eventually(
        'member1 updated meanwhile',
        async () => image(await memberDeploy('member1', 'nginx')) === 'registry.example.com/nginx:1.28',
      );
    } finally {
      m3.recover();
    }
    await eventually(
      'member3 updated after recovery',
      async () => image(await memberDeploy('member3', 'nginx')) === 'nginx:1.28',
    );
  });

  it('brings the ConfigMap a Deployment mounts along (propagateDeps)', async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'web-config', namespace: 'default' },
        data: { 'index.html': 'hello' },
      }),
    );
    await kubectl.ok(
      ['apply', '-f', '-'],
      deployment('web', 1, { volumes: [{ name: 'config', configMap: { name: 'web-config' } }] }),
    );
    await kubectl.ok(
      ['apply', '-f', '-'],
      policy('web-pp', 'web', { propagateDeps: true, placement: { clusterAffinity: { clusterNames: ['member1'] } } }),
    );
    await eventually('web on member1', async () => (await memberDeploy('member1', 'web')) !== undefined);
    const cm = await eventually('web-config on member1', () =>
      getJson<KubeObject & { data?: Record<string, string> }>(member('member1'), [
        'configmap',
        'web-config',
        '-n',
        'default',
      ]),
    );
    assert.equal(cm.data?.['index.html'], 'hello');
    assert.equal(await getJson(member('member2'), ['configmap', 'web-config', '-n', 'default']), undefined);

    // Deleting the template removes it, and the ConfigMap it brought, from the member.
    await kubectl.ok(['delete', 'deployment', 'web']);
    await eventually('web gone from member1', async () => (await memberDeploy('member1', 'web')) === undefined);
    await eventually(
      'web-config gone from member1',
      async () => (await getJson(member('member1'), ['configmap', 'web-config', '-n', 'default'])) === undefined,
    );
  });

  it('creates namespaces on every member, except those labelled to skip', async () => {
    await kubectl.ok(['create', 'namespace', 'team-a']);
    await kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'private', labels: { 'namespace.karmada.io/skip-auto-propagation': 'true' } },
      }),
    );
    for (const m of MEMBERS) {
      await eventually(`team-a on ${m}`, async () => (await getJson(member(m), ['namespace', 'team-a'])) !== undefined);
    }
    assert.equal(await getJson(member('member1'), ['namespace', 'private']), undefined);
  });

  it('refuses to adopt a member object Karmada did not create (conflictResolution Abort)', async () => {
    await member('member1').ok(['apply', '-f', '-'], deployment('legacy', 1));
    await kubectl.ok(['apply', '-f', '-'], deployment('legacy', 3));
    await kubectl.ok(
      ['apply', '-f', '-'],
      policy('legacy-pp', 'legacy', { placement: { clusterAffinity: { clusterNames: ['member1'] } } }),
    );
    const work = await eventually('the Work refused', async () => {
      const w = await getJson(kubectl, ['work.work.karmada.io', '-n', 'karmada-es-member1', 'legacy-ztkfdcxvqz']).catch(
        () => undefined,
      );
      const list = w ?? (await getJson(kubectl, ['work.work.karmada.io', '-n', 'karmada-es-member1']));
      const items = ((list as { items?: KubeObject[] }).items ?? [list]) as KubeObject[];
      const found = items.find((i) => i?.metadata?.name?.startsWith('legacy-'));
      const applied = (
        found?.status as { conditions?: { type: string; status: string; message: string }[] } | undefined
      )?.conditions?.find((c) => c.type === 'Applied');
      return applied?.status === 'False' ? applied : undefined;
    });
    assert.match(work.message, /already exists in the cluster member1/);
    assert.equal((await memberDeploy('member1', 'legacy'))?.spec.replicas, 1, 'the member object is untouched');
  });

  it('keeps member objects without Karmada labels when preserveResourcesOnDeletion is set', async () => {
    await kubectl.ok(['apply', '-f', '-'], deployment('keep', 1));
    await kubectl.ok(
      ['apply', '-f', '-'],
      policy('keep-pp', 'keep', {
        preserveResourcesOnDeletion: true,
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
      }),
    );
    await eventually('keep on member1', async () => (await memberDeploy('member1', 'keep')) !== undefined);
    await kubectl.ok(['delete', 'deployment', 'keep']);
    const kept = await eventually('keep released on member1', async () => {
      const d = await memberDeploy('member1', 'keep');
      return d && !d.metadata.labels?.['karmada.io/managed'] ? d : undefined;
    });
    assert.equal(kept.metadata.annotations?.['resourcebinding.karmada.io/name'], undefined);
    // It stays: give the controllers time to (wrongly) delete it.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.ok(await memberDeploy('member1', 'keep'), 'the preserved object is still on the member');
  });

  it('leaves templates and member objects in place when the policy is deleted', async () => {
    await kubectl.ok(['delete', 'propagationpolicy', 'nginx-pp']);
    await new Promise((r) => setTimeout(r, 1_500));
    assert.ok(await getJson(kubectl, ['deployment', 'nginx']));
    for (const m of MEMBERS) assert.ok(await memberDeploy(m, 'nginx'), `nginx still on ${m}`);
  });
});
