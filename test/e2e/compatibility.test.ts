/**
 * Karmada compatibility (issue 12): what a Karmada user's workflow tripped on, each driven by kubectl
 * against the whole local control plane and named after the Karmada behaviour it pins.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import type { ResourceBinding } from '../../lib/core/model/types.ts';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime.ts';
import { eventually } from '../support/eventually.ts';
import { E2E_TIMINGS, getJson, membersReady, oneRegionMembers } from '../support/e2e.ts';
import { kubectlRunner } from '../support/kubectl.ts';

const MEMBERS = ['member1', 'member2', 'member3'];
const SIMULATION = oneRegionMembers(MEMBERS);

type Kubectl = ReturnType<typeof kubectlRunner>;
let rt: LocalRuntime;
let kubectl: Kubectl;
const onMember = new Map<string, Kubectl>();
const member = (name: string) => onMember.get(name)!;

before(async () => {
  rt = await startLocalRuntime({ inMemory: true, apiPort: 0, simulation: SIMULATION, clusterTimings: E2E_TIMINGS });
  kubectl = kubectlRunner(rt.kubeconfig);
  for (const name of MEMBERS) onMember.set(name, kubectlRunner(rt.members.get(name)!.kubeconfig));
  await membersReady(rt, MEMBERS);
  await kubectl.ok(['create', 'namespace', 'compat']);
});
after(async () => {
  kubectl?.cleanup();
  for (const k of onMember.values()) k.cleanup();
  await rt?.stop();
});

const apply = (object: unknown) => kubectl.ok(['apply', '-f', '-'], JSON.stringify(object));
/** `kubectl get events -n compat` for `reason`, on the object named `name` if given. */
const compatEvents = (reason: string, name?: string) =>
  kubectl.ok([
    'get',
    'events',
    '-n',
    'compat',
    '--field-selector',
    `reason=${reason}${name ? `,involvedObject.name=${name}` : ''}`,
  ]);

function deployment(name: string, replicas: number, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'compat', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.27' }], ...extra },
      },
    },
  };
}

const onMemberDeploy = (cluster: string, name: string) =>
  getJson(member(cluster), ['deployment', name, '-n', 'compat']);
/** The binding `kubectl get <args>` names, once it is placed on some cluster. */
async function placedBinding(args: string[]): Promise<ResourceBinding | undefined> {
  const b = await getJson<ResourceBinding>(kubectl, args);
  return b?.spec.clusters?.length ? b : undefined;
}
const labelsOf = (o: KubeObject | undefined) => o?.metadata.labels ?? {};

describe('Karmada compatibility through kubectl', () => {
  it('a ClusterPropagationPolicy naming a namespaced Deployment without a namespace claims it, and a replaced selector lets it go', async () => {
    await apply(deployment('cpp-web', 1));
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: 'cpp-web' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'cpp-web' }],
        placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } },
      },
    });
    await eventually('cpp-web on member1 and member2', async () =>
      Boolean((await onMemberDeploy('member1', 'cpp-web')) && (await onMemberDeploy('member2', 'cpp-web'))),
    );
    const rb = await getJson(kubectl, ['rb', 'cpp-web-deployment', '-n', 'compat']);
    assert.ok(labelsOf(rb)['clusterpropagationpolicy.karmada.io/permanent-id'], 'the binding carries the CPP claim');

    // Replacing the selector: the template is no longer claimed, and a scale no longer reaches members.
    await kubectl.ok([
      'patch',
      'cpp',
      'cpp-web',
      '--type=json',
      '-p',
      JSON.stringify([
        {
          op: 'replace',
          path: '/spec/resourceSelectors',
          value: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'other' }],
        },
      ]),
    ]);
    await eventually('the template unclaimed', async () => {
      const t = await getJson(kubectl, ['deployment', 'cpp-web', '-n', 'compat']);
      return t && !labelsOf(t)['clusterpropagationpolicy.karmada.io/permanent-id'];
    });
    // A selector with the namespace claims it again.
    await kubectl.ok([
      'patch',
      'cpp',
      'cpp-web',
      '--type=merge',
      '-p',
      JSON.stringify({
        spec: {
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'compat', name: 'cpp-web' }],
        },
      }),
    ]);
    await kubectl.ok(['scale', 'deployment', 'cpp-web', '-n', 'compat', '--replicas=2']);
    await eventually('the scale on member1', async () => {
      const d = (await onMemberDeploy('member1', 'cpp-web')) as
        (KubeObject & { spec: { replicas: number } }) | undefined;
      return d?.spec.replicas === 2;
    });
  });

  it('a CustomResourceDefinition selected by a CPP gets a ClusterResourceBinding with the policy id, honours spreadConstraints, and loses the markers with the CPP; a cluster-scoped instance of it selected by a CPP gets its own', async () => {
    await apply({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
        scope: 'Cluster',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: 'widgets-crd' },
      spec: {
        resourceSelectors: [
          { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'widgets.example.com' },
        ],
        placement: {
          clusterAffinity: { clusterNames: MEMBERS },
          spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 2, minGroups: 2 }],
        },
      },
    });
    const crbName = 'widgets.example.com-customresourcedefinition';
    const crb = await eventually('the CRB scheduled', () => placedBinding(['crb', crbName]));
    assert.equal(crb.spec.clusters!.length, 2, 'maxGroups 2 places it on exactly two members');
    assert.ok(labelsOf(crb)['clusterpropagationpolicy.karmada.io/permanent-id']);
    for (const { name } of crb.spec.clusters!) {
      await eventually(`the CRD on ${name}`, () => getJson(member(name), ['crd', 'widgets.example.com']));
    }
    // The members' new API shows up in Cluster.status.apiEnablements within a few status periods.
    const placed = crb.spec.clusters![0]!.name;
    await eventually('example.com/v1 in apiEnablements', async () => {
      const c = (await getJson(kubectl, ['cluster', placed])) as
        (KubeObject & { status?: { apiEnablements?: { groupVersion: string }[] } }) | undefined;
      return c?.status?.apiEnablements?.some((a) => a.groupVersion === 'example.com/v1');
    });

    // A cluster-scoped instance of it, selected by another CPP: a ClusterResourceBinding named
    // <name>-<kind> as Karmada names it, labelled with that CPP's permanent id, and the Widget on the member.
    await eventually('widgets served', async () => (await kubectl.run(['get', 'widgets'])).code === 0);
    await apply({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'gadget' }, spec: { size: 3 } });
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: 'gadget' },
      spec: {
        resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'gadget' }],
        placement: { clusterAffinity: { clusterNames: [placed] } },
      },
    });
    const gadgetCpp = await getJson(kubectl, ['cpp', 'gadget']);
    const gadgetId = labelsOf(gadgetCpp)['clusterpropagationpolicy.karmada.io/permanent-id'];
    assert.ok(gadgetId, 'the CPP has its permanent id');
    const gadgetCrb = await eventually('the Widget CRB scheduled', () => placedBinding(['crb', 'gadget-widget']));
    assert.equal(labelsOf(gadgetCrb)['clusterpropagationpolicy.karmada.io/permanent-id'], gadgetId);
    assert.deepEqual(
      gadgetCrb.spec.clusters!.map((c) => c.name),
      [placed],
    );
    await eventually(`the Widget on ${placed}`, () => getJson(member(placed), ['widgets.example.com', 'gadget']));

    await kubectl.ok(['delete', 'cpp', 'widgets-crd']);
    await eventually('the claim removed from the CRD and its binding', async () => {
      const crd = await getJson(kubectl, ['crd', 'widgets.example.com']);
      const b = await getJson(kubectl, ['crb', crbName]);
      return (
        crd &&
        b &&
        !labelsOf(crd)['clusterpropagationpolicy.karmada.io/permanent-id'] &&
        !labelsOf(b)['clusterpropagationpolicy.karmada.io/permanent-id']
      );
    });
  });

  it('a JSON patch of clusterNames on a PP or a CPP moves a workload and its ConfigMap (propagateDeps), and a later ConfigMap edit follows', async () => {
    // The same move through each kind of policy, side by side: `mover` follows a PP, `cpp-mover` a CPP.
    const policies = [
      { workload: 'mover', resource: 'pp', namespaced: true },
      { workload: 'cpp-mover', resource: 'cpp', namespaced: false },
    ];
    for (const { workload, namespaced } of policies) {
      await apply({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${workload}-config`, namespace: 'compat' },
        data: { k: 'v1' },
      });
      await apply(deployment(workload, 1, { volumes: [{ name: 'cfg', configMap: { name: `${workload}-config` } }] }));
      await apply({
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: namespaced ? 'PropagationPolicy' : 'ClusterPropagationPolicy',
        metadata: { name: workload, ...(namespaced ? { namespace: 'compat' } : {}) },
        spec: {
          resourceSelectors: [
            {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: workload,
              ...(namespaced ? {} : { namespace: 'compat' }),
            },
          ],
          placement: { clusterAffinity: { clusterNames: ['member1'] } },
        },
      });
    }
    for (const { workload } of policies)
      await eventually(`${workload} on member1`, () => onMemberDeploy('member1', workload));
    // `replace` of the unset propagateDeps is an add, as kube-apiserver applies JSON patches.
    for (const { workload, resource, namespaced } of policies) {
      await kubectl.ok([
        'patch',
        resource,
        workload,
        ...(namespaced ? ['-n', 'compat'] : []),
        '--type=json',
        '-p',
        JSON.stringify([
          { op: 'replace', path: '/spec/propagateDeps', value: true },
          { op: 'replace', path: '/spec/placement/clusterAffinity/clusterNames', value: ['member2'] },
        ]),
      ]);
    }
    for (const { workload } of policies) {
      await eventually(`${workload} and its ConfigMap on member2, gone from member1`, async () => {
        const cm = await getJson(member('member2'), ['configmap', `${workload}-config`, '-n', 'compat']);
        return Boolean(
          (await onMemberDeploy('member2', workload)) && cm && !(await onMemberDeploy('member1', workload)),
        );
      });
    }
    for (const { workload } of policies) {
      await kubectl.ok([
        'patch',
        'configmap',
        `${workload}-config`,
        '-n',
        'compat',
        '--type=merge',
        '-p',
        '{"data":{"k":"v2"}}',
      ]);
    }
    for (const { workload } of policies) {
      await eventually(`the ${workload}-config edit on member2`, async () => {
        const cm = (await getJson(member('member2'), ['configmap', `${workload}-config`, '-n', 'compat'])) as
          (KubeObject & { data?: Record<string, string> }) | undefined;
        return cm?.data?.k === 'v2';
      });
    }
  });

  it('a JSON patch that cannot apply names the policy in kubectl output (The PropagationPolicy "x" is invalid: ...)', async () => {
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'named', namespace: 'compat' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nothing' }],
        placement: {},
      },
    });
    const r = await kubectl.run([
      'patch',
      'pp',
      'named',
      '-n',
      'compat',
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/placement/clusterAffinity/clusterNames', value: ['member1'] }]),
    ]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The PropagationPolicy "named" is invalid: .*\/spec\/placement\/clusterAffinity is missing/);
  });

  it('schedulePriority with a KubePriorityClass sets the binding priority; a missing PriorityClass builds no binding and says why (PriorityBasedScheduling)', async () => {
    await kubectl.ok(['create', 'priorityclass', 'compat-high', '--value=1000']);
    const prioritized = (name: string, priorityClassName: string) =>
      apply({
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: { name, namespace: 'compat' },
        spec: {
          schedulePriority: { priorityClassSource: 'KubePriorityClass', priorityClassName },
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }],
          placement: { clusterAffinity: { clusterNames: ['member1'] } },
        },
      });
    await apply(deployment('urgent', 1));
    await prioritized('urgent', 'compat-high');
    const rb = await eventually('the urgent binding', async () => {
      const b = (await getJson(kubectl, ['rb', 'urgent-deployment', '-n', 'compat'])) as
        (KubeObject & { spec: { schedulePriority?: { priority?: number } } }) | undefined;
      return b?.spec.schedulePriority ? b : undefined;
    });
    assert.deepEqual(rb.spec.schedulePriority, { priority: 1000 });

    await apply(deployment('orphaned', 1));
    await prioritized('orphaned', 'does-not-exist');
    await eventually('an ApplyPolicyFailed event naming the PriorityClass', async () => {
      const out = await compatEvents('ApplyPolicyFailed');
      return /PriorityClass "does-not-exist" not found/.test(out);
    });
    assert.equal(await getJson(kubectl, ['rb', 'orphaned-deployment', '-n', 'compat']), undefined);
  });

  it('a JSON fieldOverrider leaves compact JSON in the field, as Karmada writes it', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'compat' },
      data: { 'config.json': '{\n  "db": {\n    "host": "localhost",\n    "port": 5432\n  }\n}\n' },
    });
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'OverridePolicy',
      metadata: { name: 'settings', namespace: 'compat' },
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' }],
        overrideRules: [
          {
            overriders: {
              fieldOverrider: [
                {
                  fieldPath: '/data/config.json',
                  json: [{ subPath: '/db/host', operator: 'replace', value: 'db.member.svc' }],
                },
              ],
            },
          },
        ],
      },
    });
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'settings', namespace: 'compat' },
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' }],
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
      },
    });
    const cm = (await eventually('settings on member1', () =>
      getJson(member('member1'), ['configmap', 'settings', '-n', 'compat']),
    )) as KubeObject & { data: Record<string, string> };
    assert.equal(cm.data['config.json'], '{"db":{"host":"db.member.svc","port":5432}}');
  });

  it('a ClusterOverridePolicy selecting a Namespace changes the namespace sent to the clusters it targets', async () => {
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterOverridePolicy',
      metadata: { name: 'team-ns' },
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'Namespace', name: 'team-b' }],
        overrideRules: [
          {
            targetCluster: { clusterNames: ['member1'] },
            overriders: { labelsOverrider: [{ operator: 'add', value: { env: 'prod' } }] },
          },
        ],
      },
    });
    await kubectl.ok(['create', 'namespace', 'team-b']);
    await eventually('team-b labelled env=prod on member1 only', async () => {
      const m1 = await getJson(member('member1'), ['namespace', 'team-b']);
      const m2 = await getJson(member('member2'), ['namespace', 'team-b']);
      return m1 && m2 && labelsOf(m1).env === 'prod' && labelsOf(m2).env === undefined;
    });
  });

  it('status sums the applied members when one member holds an unmanaged copy (Abort), whose item carries the apply failure', async () => {
    await member('member3')
      .ok(['create', 'namespace', 'compat'])
      .catch(() => '');
    await member('member3').ok(['apply', '-f', '-'], JSON.stringify(deployment('shared', 3)));
    await apply(deployment('shared', 3));
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'shared', namespace: 'compat' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'shared' }],
        placement: {
          clusterAffinity: { clusterNames: MEMBERS },
          replicaScheduling: { replicaSchedulingType: 'Duplicated' },
        },
      },
    });
    const template = (await eventually('6 ready replicas on the template (2 members × 3)', async () => {
      const t = (await getJson(kubectl, ['deployment', 'shared', '-n', 'compat'])) as
        (KubeObject & { status?: { readyReplicas?: number } }) | undefined;
      return t?.status?.readyReplicas === 6 ? t : undefined;
    })) as KubeObject & { status: { replicas?: number } };
    assert.equal(template.status.replicas, 6);
    // member3's item exists (applied: false) from the moment its Work does; the apply failure's message
    // arrives with the Work's Applied condition, which may come after the two other members are ready.
    type Item = { clusterName: string; applied?: boolean; appliedMessage?: string };
    const conflicting = (await eventually('member3 item carries its apply failure', async () => {
      const rb = (await getJson(kubectl, ['rb', 'shared-deployment', '-n', 'compat'])) as
        (KubeObject & { status?: { aggregatedStatus?: Item[] } }) | undefined;
      const item = rb?.status?.aggregatedStatus?.find((i) => i.clusterName === 'member3');
      return item?.appliedMessage && /already exists/.test(item.appliedMessage) ? item : undefined;
    })) as Item;
    assert.ok(!conflicting.applied); // applied is omitted when false, as Karmada's omitempty field
    assert.match(
      conflicting.appliedMessage ?? '',
      /^Failed to apply all manifests \(0\/1\): resource\(kind=Deployment, compat\/shared\) already exists in the cluster member3 and the work.karmada.io\/conflict-resolution strategy value is empty, Karmada will not manage this resource$/,
    );
  });

  it('records SyncSucceed on the binding once per executor batch, naming the clusters (not one Event per Work)', async () => {
    const out = await eventually('a SyncSucceed event', async () => {
      const text = await kubectl.ok(['get', 'events', '-A', '--field-selector', 'reason=SyncSucceed']);
      return /Successfully applied resource\([^)]*\) to clusters? member/.test(text) ? text : undefined;
    });
    assert.match(out, /resourcebinding\//);
    // A first dispatch is said by SyncSucceed; WorkDispatching is left for a dispatch that resumes.
    const dispatching = await compatEvents('WorkDispatching', 'cpp-web-deployment');
    assert.doesNotMatch(dispatching, /resourcebinding\//);
    const synced = await compatEvents('SyncSucceed', 'cpp-web-deployment');
    assert.match(synced, /resourcebinding\/cpp-web-deployment/, 'the binding of the first test has its SyncSucceed');
  });

  it('suspension.dispatching holds a workload off its member; lifting it dispatches and says so on the binding (WorkDispatching)', async () => {
    await apply(deployment('held-web', 1));
    const policy = (dispatching: boolean) => ({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'held-web', namespace: 'compat' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'held-web' }],
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
        suspension: { dispatching },
      },
    });
    await apply(policy(true));
    type Work = KubeObject & {
      spec: { workload: { manifests: KubeObject[] } };
      status?: { conditions?: { type: string; status: string; reason?: string }[] };
    };
    const work = async () =>
      (await getJson<{ items: Work[] }>(kubectl, ['works', '-n', 'karmada-es-member1']))?.items.find((w) =>
        w.spec.workload.manifests.some((m) => m.metadata.name === 'held-web'),
      );
    await eventually('the Work suspended (Dispatching=False)', async () =>
      (await work())?.status?.conditions?.some(
        (c) => c.type === 'Dispatching' && c.status === 'False' && c.reason === 'SuspendDispatching',
      ),
    );
    assert.equal(await onMemberDeploy('member1', 'held-web'), undefined, 'nothing dispatched while suspended');

    await apply(policy(false));
    await eventually('held-web on member1', async () => Boolean(await onMemberDeploy('member1', 'held-web')));
    const out = await eventually('WorkDispatching on the binding', async () => {
      const text = await compatEvents('WorkDispatching', 'held-web-deployment');
      return /Work is being dispatched to member clusters\. Clusters: member1\./.test(text) ? text : undefined;
    });
    assert.match(out, /resourcebinding\/held-web-deployment/);
  });

  it('v1.17 workloadAffinity: a workload goes where its affinity group is, and away from its anti-affinity group', async () => {
    const grouped = (name: string, labels: Record<string, string>) => {
      const d = deployment(name, 1);
      d.metadata.labels = { ...d.metadata.labels, ...labels };
      return d;
    };
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'grouped', namespace: 'compat' },
      spec: {
        resourceSelectors: [
          { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { tier: 'grouped' } } },
        ],
        placement: {
          clusterAffinity: { clusterNames: MEMBERS },
          spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 1, minGroups: 1 }],
          workloadAffinity: {
            affinity: { groupByLabelKey: 'app.group' },
            antiAffinity: { groupByLabelKey: 'ha.group' },
          },
        },
      },
    });
    const placement = (name: string) => placedBinding(['rb', `${name}-deployment`, '-n', 'compat']);
    await apply(grouped('shop-api', { tier: 'grouped', 'app.group': 'shop', 'ha.group': 'db-a' }));
    const first = await eventually('shop-api placed', () => placement('shop-api'));
    assert.deepEqual(first.spec.workloadAffinityGroups, {
      affinityGroup: 'app.group=shop',
      antiAffinityGroup: 'ha.group=db-a',
    });
    const home = first.spec.clusters![0]!.name;
    await apply(grouped('shop-web', { tier: 'grouped', 'app.group': 'shop' }));
    const second = await eventually('shop-web placed', () => placement('shop-web'));
    assert.deepEqual(
      second.spec.clusters!.map((c) => c.name),
      [home],
      'co-located with its affinity group',
    );
    await apply(grouped('db-replica', { tier: 'grouped', 'ha.group': 'db-a' }));
    const third = await eventually('db-replica placed', () => placement('db-replica'));
    assert.notEqual(third.spec.clusters![0]!.name, home, 'kept apart from its anti-affinity group');
  });

  it('v1.18 overflowAffinities: replicas fill the primary group and spill into the overflow group', async () => {
    // Each member has 2 nodes × 8 cpu; the resource models' estimate lets 2 replicas of 4 cpu fit on one.
    const big = deployment('spill', 3);
    (
      big.spec as { template: { spec: { containers: Record<string, unknown>[] } } }
    ).template.spec.containers[0]!.resources = { requests: { cpu: '4' } };
    await apply(big);
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'spill', namespace: 'compat' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'spill' }],
        placement: {
          replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
          clusterAffinities: [
            {
              affinityName: 'primary',
              clusterNames: ['member1'],
              overflowAffinities: [{ affinityName: 'burst', clusterNames: ['member2'] }],
            },
          ],
        },
      },
    });
    const rb = await eventually('spill scheduled', () => placedBinding(['rb', 'spill-deployment', '-n', 'compat']));
    const byCluster = Object.fromEntries(rb.spec.clusters!.map((c) => [c.name, c.replicas]));
    assert.equal(byCluster.member3, undefined, 'never outside the primary and overflow groups');
    assert.deepEqual(byCluster, { member1: 2, member2: 1 }, 'the primary group full, the rest in the overflow group');
  });

  it("a PodDisruptionBudget reports the members' disruption status summed on the template", async () => {
    await apply(deployment('guarded', 2));
    await apply({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guarded', namespace: 'compat' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } },
    });
    await apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'guarded', namespace: 'compat' },
      spec: {
        resourceSelectors: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'guarded' },
          { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'guarded' },
        ],
        placement: {
          clusterAffinity: { clusterNames: ['member1', 'member2'] },
          replicaScheduling: { replicaSchedulingType: 'Duplicated' },
        },
      },
    });
    const pdb = await eventually('the PDB status aggregated from both members', async () => {
      const p = (await getJson(kubectl, ['pdb', 'guarded', '-n', 'compat'])) as
        (KubeObject & { status?: Record<string, number> }) | undefined;
      return p?.status?.currentHealthy === 4 ? p : undefined;
    });
    assert.equal(pdb.status!.expectedPods, 4);
    assert.equal(pdb.status!.desiredHealthy, 2);
    assert.equal(pdb.status!.disruptionsAllowed, 2);
  });

  it('kubectl get rb / crb print SCHEDULED and FULLYAPPLIED, as Karmada CRDs declare', async () => {
    const rb = await kubectl.ok(['get', 'rb', '-n', 'compat']);
    assert.match(rb.split('\n')[0]!, /^NAME\s+SCHEDULED\s+FULLYAPPLIED\s+AGE$/);
    assert.match(rb, /urgent-deployment\s+True\s+/);
    const crb = await kubectl.ok(['get', 'crb']);
    assert.match(crb.split('\n')[0]!, /^NAME\s+SCHEDULED\s+FULLYAPPLIED\s+AGE$/);
    const works = await kubectl.ok(['get', 'works', '-A']);
    assert.match(works.split('\n')[0]!, /^NAMESPACE\s+NAME\s+WORKLOAD-KIND\s+APPLIED\s+AGE$/);
    const pp = await kubectl.ok(['get', 'pp', '-n', 'compat']);
    assert.match(pp.split('\n')[0]!, /^NAME\s+CONFLICT-RESOLUTION\s+PRIORITY\s+AGE$/);
  });
});
