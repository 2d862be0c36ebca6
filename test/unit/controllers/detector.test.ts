import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, ObjectRef } from '../../../lib/api/object.ts';
import { formatKey } from '../../../lib/api/object.ts';
import { createDetectorController } from '../../../lib/controllers/detector.ts';
import { DETECTOR_CONTROLLER_NAME, SCHEDULER_CONTROLLER_NAME } from '../../../lib/controllers/specs.ts';
import type { Placement, PropagationPolicy, ResourceBinding } from '../../../lib/core/model/types.ts';
import {
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  CPP_NAME_ANNOTATION,
  CPP_PERMANENT_ID_LABEL,
  PP_FINALIZER,
  PP_NAME_ANNOTATION,
  PP_NAMESPACE_ANNOTATION,
  PP_PERMANENT_ID_LABEL,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
} from '../../../lib/api/well-known.ts';
import type { Lane } from '../../../lib/queue/port.ts';
import { cpp, pp, sel } from '../core/policy/fixtures.ts';
import { keyOf, refOf, world } from './placement-harness.ts';

const RB = { group: 'work.karmada.io', kind: 'ResourceBinding' };
const CRB = { group: 'work.karmada.io', kind: 'ClusterResourceBinding' };
const CLAIM_KEYS = [
  PP_PERMANENT_ID_LABEL,
  CPP_PERMANENT_ID_LABEL,
  PP_NAMESPACE_ANNOTATION,
  PP_NAME_ANNOTATION,
  CPP_NAME_ANNOTATION,
];

/** A Deployment whose one container requests `cpu` (so the binding carries replicaRequirements). */
function deploy(
  name: string,
  opts: { namespace?: string; replicas?: number; cpu?: string; labels?: Record<string, string> } = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: opts.namespace ?? 'default', ...(opts.labels ? { labels: opts.labels } : {}) },
    spec: {
      replicas: opts.replicas ?? 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: opts.cpu ?? '500m' } } }],
        },
      },
    },
  };
}

function clusterRole(name: string): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
  } as KubeObject;
}

const ROLE_SELECTOR = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' };

function setup(options: { policyPreemption?: boolean } = {}) {
  const w = world();
  let n = 0;
  const detector = createDetectorController({
    store: w.store,
    workQueue: w.queue,
    events: w.events,
    newUid: () => `rb-id-${++n}`,
    ...options,
  });
  async function reconcile(key: string, lane: Lane = 'priority', fresh = true) {
    // A new batch per call unless told, so policies written since are seen (as the runtime does).
    const batch = fresh
      ? await detector.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys: [key] })
      : undefined;
    return detector.reconcile({ key, lane, reasons: [] }, w.context(batch));
  }
  const get = async (ref: ObjectRef) => w.store.get(ref);
  const binding = async (template: KubeObject) =>
    (await get({
      ...(template.metadata.namespace ? { ...RB, namespace: template.metadata.namespace } : CRB),
      name: `${template.metadata.name}-${template.kind}`.toLowerCase(),
    })) as ResourceBinding | undefined;
  const template = async (t: KubeObject) => (await get(refOf(t)))!;
  return { ...w, detector, reconcile, get, binding, template };
}

/** The claim labels and annotations an object carries. */
function claimOf(obj: KubeObject | undefined): Record<string, string> {
  const all = { ...obj?.metadata.labels, ...obj?.metadata.annotations };
  return Object.fromEntries(Object.entries(all).filter(([k]) => CLAIM_KEYS.includes(k)));
}

const ppClaim = (name: string, namespace = 'default') => ({
  [PP_PERMANENT_ID_LABEL]: `${name}-id`,
  [PP_NAMESPACE_ANNOTATION]: namespace,
  [PP_NAME_ANNOTATION]: name,
});
const cppClaim = (name: string) => ({ [CPP_PERMANENT_ID_LABEL]: `${name}-id`, [CPP_NAME_ANNOTATION]: name });

const PLACEMENT: Placement = {
  clusterAffinity: { clusterNames: ['member1', 'member2'] },
  replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
};

describe('detector: templates', () => {
  for (const lane of ['priority', 'standard'] as const) {
    it(`a template a PropagationPolicy selects is claimed and gets a ResourceBinding (${lane} lane)`, async () => {
      const h = setup();
      const web = await h.seed(deploy('web', { replicas: 3, cpu: '500m' }));
      await h.seed(
        pp('spread', {
          placement: structuredClone(PLACEMENT),
          propagateDeps: true,
          conflictResolution: 'Overwrite',
          preserveResourcesOnDeletion: true,
          failover: { application: { decisionConditions: { tolerationSeconds: 60 } } },
          schedulerName: 'default-scheduler',
          suspension: { dispatching: true },
        }),
      );
      h.store.reset();

      assert.equal(await h.reconcile(keyOf(web), lane), undefined);

      const claimed = await h.template(web);
      assert.deepEqual(claimOf(claimed), ppClaim('spread'));
      const rb = await h.binding(web);
      assert.ok(rb, 'binding created');
      assert.equal(rb.metadata.name, 'web-deployment');
      assert.equal(rb.metadata.namespace, 'default');
      assert.equal(rb.kind, 'ResourceBinding');
      assert.equal(rb.apiVersion, 'work.karmada.io/v1alpha2');
      assert.equal(rb.metadata.labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL], 'rb-id-1');
      assert.deepEqual(claimOf(rb), ppClaim('spread'), 'the binding carries the claim too');
      assert.deepEqual(rb.metadata.ownerReferences, [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: claimed.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      assert.deepEqual(rb.spec, {
        resource: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'default',
          name: 'web',
          uid: claimed.metadata.uid,
          resourceVersion: claimed.metadata.resourceVersion,
        },
        placement: PLACEMENT,
        propagateDeps: true,
        conflictResolution: 'Overwrite',
        preserveResourcesOnDeletion: true,
        failover: { application: { decisionConditions: { tolerationSeconds: 60 } } },
        schedulerName: 'default-scheduler',
        suspension: { dispatching: true },
        replicas: 3,
        replicaRequirements: { resourceRequest: { cpu: '500m' } },
      });
      assert.deepEqual(
        h.store.writes.map((w) => `${w.op} ${w.key}`),
        [`update ${keyOf(web)}`, `create ${keyOf(rb)}`],
        'one claim write and one binding write',
      );
      assert.deepEqual(h.queue.items, [
        { controller: SCHEDULER_CONTROLLER_NAME, lane, key: keyOf(rb), reason: 'binding-changed' },
      ]);
      assert.deepEqual(
        h.events.events.map((e) => [e.involved.kind, e.involved.name, e.type, e.reason, e.message]),
        [['Deployment', 'web', 'Normal', 'ApplyPolicySucceed', 'Apply policy(default/spread) succeed']],
      );
    });
  }

  it('a cluster-scoped template follows a ClusterPropagationPolicy into a ClusterResourceBinding; PPs are ignored', async () => {
    const h = setup();
    const role = await h.seed(clusterRole('reader'));
    // A PP naming ClusterRoles (even with a higher priority) cannot select a cluster-scoped template.
    await h.seed(pp('ns-roles', { resourceSelectors: [ROLE_SELECTOR], priority: 100 }));
    await h.seed(
      cpp('roles', { resourceSelectors: [ROLE_SELECTOR], placement: { clusterAffinity: { clusterNames: ['m1'] } } }),
    );

    await h.reconcile(keyOf(role));

    const claimed = await h.template(role);
    assert.deepEqual(claimOf(claimed), cppClaim('roles'));
    const crb = await h.binding(role);
    assert.ok(crb);
    assert.equal(crb.kind, 'ClusterResourceBinding');
    assert.equal(crb.metadata.name, 'reader-clusterrole');
    assert.equal(crb.metadata.namespace, undefined);
    assert.equal(crb.metadata.labels?.[CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL], 'rb-id-1');
    assert.equal(crb.metadata.labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL], undefined);
    assert.deepEqual(claimOf(crb), cppClaim('roles'));
    assert.deepEqual(crb.spec.resource, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      name: 'reader',
      uid: claimed.metadata.uid,
      resourceVersion: claimed.metadata.resourceVersion,
    });
    assert.deepEqual(crb.spec.placement, { clusterAffinity: { clusterNames: ['m1'] } });
    assert.equal(crb.spec.replicas, undefined, 'a ClusterRole has no replicas');
    assert.equal((await h.get({ ...RB, namespace: 'default', name: 'reader-clusterrole' })) ?? undefined, undefined);
    assert.deepEqual(
      h.queue.items.map((i) => i.key),
      [keyOf(crb)],
    );
    assert.deepEqual(
      h.events.events.map((e) => e.message),
      ['Apply cluster policy(roles) succeed'],
    );
  });

  it('a namespaced template only a ClusterPropagationPolicy selects gets a (namespaced) ResourceBinding; a PP beats a CPP', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    const api = await h.seed(deploy('api', { namespace: 'team' }));
    await h.seed(cpp('everywhere', { priority: 1000 }));
    await h.seed(pp('local', { namespace: 'team' }));
    await h.reconcile(keyOf(web));
    await h.reconcile(keyOf(api));
    assert.deepEqual(claimOf(await h.binding(web)), cppClaim('everywhere'));
    assert.equal((await h.binding(web))?.kind, 'ResourceBinding');
    assert.deepEqual(claimOf(await h.binding(api)), ppClaim('local', 'team'));
    assert.deepEqual(claimOf(await h.template(api)), ppClaim('local', 'team'));
  });

  it('no policy: nothing is written, enqueued or recorded', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    await h.seed(pp('other', { resourceSelectors: [sel({ name: 'not-web' })] }));
    h.store.reset();
    assert.equal(await h.reconcile(keyOf(web)), undefined);
    assert.deepEqual(h.store.writes, []);
    assert.deepEqual(h.queue.items, []);
    assert.deepEqual(h.events.events, []);
    assert.equal(await h.binding(web), undefined);
  });

  it('keys it does not handle (Karmada kinds, skipped namespaces, missing or deleting templates) are ignored', async () => {
    const h = setup();
    await h.seed(cpp('all', { resourceSelectors: [sel(), { apiVersion: 'v1', kind: 'ConfigMap' }] }));
    await h.seed(deploy('sys', { namespace: 'kube-system' }));
    await h.seed(deploy('own', { namespace: 'karmada-system' }));
    const going = await h.seed({ ...deploy('going'), metadata: { ...deploy('going').metadata, finalizers: ['x/y'] } });
    await h.store.delete(refOf(going));
    h.store.reset();
    for (const key of [
      'Deployment.apps/kube-system/sys',
      'Deployment.apps/karmada-system/own',
      'Deployment.apps/default/missing',
      keyOf(going),
      'Cluster.cluster.karmada.io/member1',
      'ResourceBinding.work.karmada.io/default/web-deployment',
      'Lease.coordination.k8s.io/default/l',
    ]) {
      assert.equal(await h.reconcile(key), undefined, key);
    }
    assert.deepEqual(h.store.writes, []);
    assert.deepEqual(h.queue.items, []);
    assert.deepEqual(h.events.events, []);
  });

  it('reconciling an unchanged template again is a no-op: no write, no event, and no enqueue once scheduled', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    await h.seed(pp('spread', { placement: structuredClone(PLACEMENT) }));
    await h.reconcile(keyOf(web));
    h.store.reset();
    h.events.events.splice(0);
    h.queue.items.splice(0);

    await h.reconcile(keyOf(web));
    assert.deepEqual(h.store.writes, []);
    assert.deepEqual(h.events.events, []);
    // Not scheduled yet: the scheduler is asked again (it is idempotent), nothing else.
    assert.deepEqual(
      h.queue.items.map((i) => i.controller),
      [SCHEDULER_CONTROLLER_NAME],
    );

    // Once the scheduler has written its condition, a further pass does not even enqueue.
    const rb = (await h.binding(web))!;
    await h.store.updateStatus({ ...rb, status: { conditions: [{ type: 'Scheduled', status: 'True' }] } });
    h.store.reset();
    h.queue.items.splice(0);
    await h.reconcile(keyOf(web));
    assert.deepEqual(h.store.writes, []);
    assert.deepEqual(h.queue.items, []);
    assert.deepEqual(h.events.events, []);
  });

  it('a changed template updates the binding (replicas, resourceVersion) and never touches spec.clusters', async () => {
    const h = setup();
    const web = await h.seed(deploy('web', { replicas: 3 }));
    await h.seed(pp('spread', { placement: structuredClone(PLACEMENT) }));
    await h.reconcile(keyOf(web));
    // The scheduler places it and records its result.
    let rb = (await h.binding(web))!;
    const clusters = [{ name: 'member1', replicas: 3 }];
    const evictions = [{ fromCluster: 'member2', reason: 'TaintUntolerated' }];
    rb = (await h.store.updateWithStatus({
      ...rb,
      spec: { ...rb.spec, clusters, gracefulEvictionTasks: evictions, suspension: { scheduling: true } },
      status: { conditions: [{ type: 'Scheduled', status: 'True' }] },
    })) as ResourceBinding;

    // The template scales, and the policy's placement changes.
    const current = await h.template(web);
    const scaled = await h.store.update({ ...current, spec: { ...(current.spec as object), replicas: 5 } });
    const policy = (await h.get({
      group: 'policy.karmada.io',
      kind: 'PropagationPolicy',
      namespace: 'default',
      name: 'spread',
    }))!;
    await h.store.update({
      ...policy,
      spec: { ...(policy.spec as object), placement: { clusterAffinity: { clusterNames: ['member1'] } } },
    });
    h.store.reset();
    h.queue.items.splice(0);
    await h.reconcile(keyOf(web));

    const after = (await h.binding(web))!;
    assert.equal(after.spec.replicas, 5);
    assert.equal(after.spec.resource.resourceVersion, scaled.metadata.resourceVersion);
    assert.deepEqual(after.spec.placement, { clusterAffinity: { clusterNames: ['member1'] } });
    assert.deepEqual(after.spec.clusters, clusters, 'spec.clusters is the scheduler’s');
    assert.deepEqual(after.spec.gracefulEvictionTasks, evictions);
    assert.deepEqual(after.spec.suspension, { scheduling: true }, 'binding-only suspension.scheduling is kept');
    assert.equal(after.metadata.labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL], 'rb-id-1', 'the permanent id is kept');
    assert.deepEqual(after.status, rb.status, 'status untouched');
    assert.deepEqual(
      h.store.writes.map((w) => `${w.op} ${w.key}`),
      [`update ${keyOf(after)}`],
    );
    // The scheduler decides again and hands the binding on to the binder: one straight pipeline.
    assert.deepEqual(
      h.queue.items.map((i) => `${i.controller} ${i.key}`),
      [`scheduler ${keyOf(after)}`],
    );
  });

  it('dependentOverrides that do not exist yet: ApplyPolicyFailed and a requeue, no claim and no binding', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    await h.seed(pp('needs-op', { dependentOverrides: ['op-a'] }));
    h.store.reset();

    const result = await h.reconcile(keyOf(web));
    assert.ok(result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0);
    assert.equal(await h.binding(web), undefined);
    assert.deepEqual(h.store.writes, []);
    assert.deepEqual(claimOf(await h.template(web)), {});
    assert.deepEqual(h.queue.items, []);
    assert.deepEqual(
      h.events.events.map((e) => [e.involved.name, e.type, e.reason, e.message]),
      [
        [
          'web',
          'Warning',
          'ApplyPolicyFailed',
          'Apply policy(default/needs-op) failed: dependent OverridePolicy op-a does not exist',
        ],
      ],
    );

    // Once it exists, the policy applies.
    await h.seed({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'OverridePolicy',
      metadata: { name: 'op-a', namespace: 'default' },
      spec: { resourceSelectors: [sel()] },
    });
    assert.equal(await h.reconcile(keyOf(web)), undefined);
    assert.ok(await h.binding(web));
  });
});

describe('detector: claims are sticky, unless preempted', () => {
  interface Row {
    name: string;
    newcomer: PropagationPolicy;
    preemption?: boolean;
    winner: Record<string, string>;
  }
  const rows: Row[] = [
    {
      name: 'a higher-priority PP does not take over a claimed template',
      newcomer: pp('high', { priority: 10 }),
      winner: ppClaim('low'),
    },
    {
      name: 'a higher-priority PP with a name selector but no preemption does not take over',
      newcomer: pp('high', { priority: 10, resourceSelectors: [sel({ name: 'web' })] }),
      winner: ppClaim('low'),
    },
    {
      name: 'preemption: Always with a name selector and a strictly higher priority takes over',
      newcomer: pp('high', { priority: 10, preemption: 'Always', resourceSelectors: [sel({ name: 'web' })] }),
      winner: ppClaim('high'),
    },
    {
      name: 'preemption: Always with an equal priority does not take over',
      newcomer: pp('high', { priority: 1, preemption: 'Always', resourceSelectors: [sel({ name: 'web' })] }),
      winner: ppClaim('low'),
    },
    {
      name: 'preemption: Always without a name selector does not take over',
      newcomer: pp('high', { priority: 10, preemption: 'Always' }),
      winner: ppClaim('low'),
    },
    {
      name: 'preemption: Always is ignored when the PropagationPolicyPreemption gate is off',
      newcomer: pp('high', { priority: 10, preemption: 'Always', resourceSelectors: [sel({ name: 'web' })] }),
      preemption: false,
      winner: ppClaim('low'),
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const h = setup(row.preemption === undefined ? {} : { policyPreemption: row.preemption });
      const web = await h.seed(deploy('web'));
      await h.seed(pp('low', { priority: 1 }));
      await h.reconcile(keyOf(web));
      assert.deepEqual(claimOf(await h.template(web)), ppClaim('low'));
      const rbId = (await h.binding(web))!.metadata.labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL];

      await h.seed(row.newcomer);
      // The newcomer's own reconcile fans out to the template; the template's reconcile decides.
      await h.reconcile(formatKey(refOf(row.newcomer)));
      assert.ok(h.queue.items.some((i) => i.controller === DETECTOR_CONTROLLER_NAME && i.key === keyOf(web)));
      await h.reconcile(keyOf(web));

      assert.deepEqual(claimOf(await h.template(web)), row.winner);
      const rb = (await h.binding(web))!;
      assert.deepEqual(claimOf(rb), row.winner);
      assert.equal(rb.metadata.labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL], rbId, 'the same binding');
    });
  }

  it('a PP with preemption: Always takes a template from a ClusterPropagationPolicy whatever the priorities', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    await h.seed(cpp('cluster-wide', { priority: 1000 }));
    await h.reconcile(keyOf(web));
    assert.deepEqual(claimOf(await h.binding(web)), cppClaim('cluster-wide'));
    await h.seed(pp('mine', { priority: 0, preemption: 'Always', resourceSelectors: [sel({ name: 'web' })] }));
    await h.reconcile(keyOf(web));
    assert.deepEqual(claimOf(await h.template(web)), ppClaim('mine'), 'the CPP claim is replaced');
    assert.deepEqual(claimOf(await h.binding(web)), ppClaim('mine'));
  });
});

describe('detector: policy keys', () => {
  it('fans out to the templates the policy selects or claims, on the standard lane', async () => {
    const h = setup();
    const web = await h.seed(deploy('web', { labels: { tier: 'front' } }));
    const api = await h.seed(deploy('api', { labels: { tier: 'front' } }));
    await h.seed(deploy('db', { labels: { tier: 'back' } }));
    await h.seed(deploy('elsewhere', { namespace: 'other', labels: { tier: 'front' } }));
    await h.seed(deploy('sys', { namespace: 'kube-system', labels: { tier: 'front' } }));
    const policy = await h.seed(
      pp('front', { resourceSelectors: [sel({ labelSelector: { matchLabels: { tier: 'front' } } })] }),
    );
    h.store.reset();

    assert.equal(await h.reconcile(formatKey(refOf(policy)), 'priority'), undefined);
    assert.deepEqual(h.store.writes, [], 'a policy reconcile only fans out');
    assert.deepEqual(h.queue.items.map((i) => [i.controller, i.lane, i.key]).sort(), [
      [DETECTOR_CONTROLLER_NAME, 'standard', keyOf(api)],
      [DETECTOR_CONTROLLER_NAME, 'standard', keyOf(web)],
    ]);
  });

  it('a cluster policy fans out over every namespace and cluster-scoped kinds', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    const other = await h.seed(deploy('web', { namespace: 'other' }));
    const role = await h.seed(clusterRole('reader'));
    const named = await h.seed(
      cpp('mixed', {
        resourceSelectors: [sel(), { ...ROLE_SELECTOR, name: 'reader' }, { ...ROLE_SELECTOR, name: 'gone' }],
      }),
    );
    await h.reconcile(formatKey(refOf(named)));
    assert.deepEqual(h.queue.items.map((i) => i.key).sort(), [keyOf(role), keyOf(web), keyOf(other)].sort());
    assert.ok(h.queue.items.every((i) => i.lane === 'standard' && i.controller === DETECTOR_CONTROLLER_NAME));
  });

  it('a deleted policy unclaims its templates and bindings (which stay), drops its finalizer, and re-enqueues the templates', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    const api = await h.seed(deploy('api'));
    const policy = await h.seed({
      ...pp('spread'),
      metadata: { ...pp('spread').metadata, finalizers: [PP_FINALIZER] },
    });
    await h.seed(pp('unrelated', { resourceSelectors: [sel({ name: 'nothing' })] }));
    await h.reconcile(keyOf(web));
    await h.reconcile(keyOf(api));
    // The scheduler has placed one of them.
    const placed = (await h.binding(web))!;
    await h.store.updateWithStatus({ ...placed, spec: { ...placed.spec, clusters: [{ name: 'm1', replicas: 3 }] } });

    const deleted = await h.store.delete(refOf(policy));
    assert.equal(deleted.removed, false, 'held by the finalizer');
    h.queue.items.splice(0);
    h.events.events.splice(0);

    assert.equal(await h.reconcile(formatKey(refOf(policy))), undefined);

    for (const t of [web, api]) {
      assert.deepEqual(claimOf(await h.template(t)), {}, `${t.metadata.name} unclaimed`);
      const rb = await h.binding(t);
      assert.ok(rb, `${t.metadata.name}'s binding is kept`);
      assert.deepEqual(claimOf(rb), {});
      assert.ok(rb.metadata.labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL], 'its own permanent id stays');
    }
    assert.deepEqual((await h.binding(web))!.spec.clusters, [{ name: 'm1', replicas: 3 }], 'placement kept');
    assert.equal(await h.get(refOf(policy)), undefined, 'the finalizer went, and with it the policy');
    assert.deepEqual(h.queue.items.map((i) => [i.controller, i.lane, i.key, i.reason]).sort(), [
      [DETECTOR_CONTROLLER_NAME, 'standard', keyOf(api), 'policy-deleted'],
      [DETECTOR_CONTROLLER_NAME, 'standard', keyOf(web), 'policy-deleted'],
    ]);
    // Matched again: nothing selects them now.
    h.store.reset();
    await h.reconcile(keyOf(web));
    assert.deepEqual(h.store.writes, []);
  });

  it('a template whose claiming policy is being deleted waits for the policy’s own reconcile', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    const policy = await h.seed({
      ...pp('spread'),
      metadata: { ...pp('spread').metadata, finalizers: [PP_FINALIZER] },
    });
    await h.reconcile(keyOf(web));
    await h.store.delete(refOf(policy));
    h.store.reset();
    const result = await h.reconcile(keyOf(web));
    assert.ok(result?.requeueAfterMs);
    assert.deepEqual(h.store.writes, []);
  });

  it('a policy changed so it no longer selects a claimed template: that template loses its claim, others keep it', async () => {
    const h = setup();
    const web = await h.seed(deploy('web', { labels: { tier: 'front' } }));
    const api = await h.seed(deploy('api', { labels: { tier: 'front' } }));
    const policy = await h.seed(
      pp('front', { resourceSelectors: [sel({ labelSelector: { matchLabels: { tier: 'front' } } })] }),
    );
    await h.reconcile(keyOf(web));
    await h.reconcile(keyOf(api));
    // web is relabelled: the policy no longer selects it.
    const current = await h.template(web);
    await h.store.update({
      ...current,
      metadata: { ...current.metadata, labels: { ...current.metadata.labels, tier: 'back' } },
    });
    const stored = (await h.get(refOf(policy)))!;
    await h.store.update({ ...stored, spec: { ...(stored.spec as object), priority: 5 } });
    h.queue.items.splice(0);

    await h.reconcile(formatKey(refOf(policy)));

    assert.deepEqual(claimOf(await h.template(web)), {});
    assert.deepEqual(claimOf(await h.binding(web)), {});
    assert.ok(await h.binding(web), 'the binding itself stays');
    assert.deepEqual(claimOf(await h.template(api)), ppClaim('front'));
    assert.deepEqual(claimOf(await h.binding(api)), ppClaim('front'));
    assert.deepEqual(h.queue.items.map((i) => i.key).sort(), [keyOf(api), keyOf(web)].sort());
    assert.ok(h.queue.items.every((i) => i.lane === 'standard'));
  });

  it('a template whose claiming policy vanished (no finalizer ran) is unclaimed, binding included, and matched again', async () => {
    const h = setup();
    const web = await h.seed(deploy('web'));
    const policy = await h.seed(pp('gone'));
    await h.reconcile(keyOf(web));
    await h.store.delete(refOf(policy));
    await h.seed(cpp('fallback'));

    await h.reconcile(keyOf(web));

    assert.deepEqual(claimOf(await h.template(web)), cppClaim('fallback'));
    assert.deepEqual(claimOf(await h.binding(web)), cppClaim('fallback'), 'no stale PP claim left on the binding');
  });
});
