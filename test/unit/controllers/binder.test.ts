/**
 * The binder (Karmada's binding controller + binding status controller + dependencies distributor):
 * Works rendered per target cluster, written only when they change, removed when a cluster is no
 * longer targeted, overrides failing without a half-applied Work, status aggregated into the binding
 * and the template, and a deleting binding cleaned up.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { createBinderController } from '../../../lib/controllers/binder.ts';
import type { ResourceBinding } from '../../../lib/core/model/types.ts';
import { keyOf, refOf, world } from './placement-harness.ts';

const WORK_NAME = 'nginx-687f7fb96f';
const workRef = (cluster: string, name = WORK_NAME) => ({
  group: 'work.karmada.io',
  kind: 'Work',
  namespace: `karmada-es-${cluster}`,
  name,
});

function cluster(name: string): KubeObject {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, labels: { name } },
    spec: { syncMode: 'Push' },
  };
}

const nginx: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx', namespace: 'default' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } },
  },
};

async function setup(
  clusters: { name: string; replicas: number }[] = [
    { name: 'm1', replicas: 2 },
    { name: 'm2', replicas: 1 },
  ],
  newUid?: () => string,
) {
  const w = world();
  for (const c of ['m1', 'm2', 'm3']) await w.seed(cluster(c));
  const template = await w.store.create(nginx);
  const binding = (await w.store.create({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: {
      name: 'nginx-deployment',
      namespace: 'default',
      labels: { 'resourcebinding.karmada.io/permanent-id': 'rb-id-1' },
      finalizers: ['karmada.io/binding-controller'],
    },
    spec: {
      resource: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'default',
        name: 'nginx',
        uid: template.metadata.uid!,
      },
      replicas: 3,
      clusters,
      placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } },
    },
  } as KubeObject)) as ResourceBinding;
  const binder = createBinderController({
    store: w.store,
    workQueue: w.queue,
    events: w.events,
    ...(newUid ? { newUid } : {}),
  });
  const reconcile = async () => {
    const batch = await binder.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys: [] });
    return binder.reconcile({ key: keyOf(binding), lane: 'priority', reasons: [] }, w.context(batch));
  };
  const work = async (c: string) => w.store.get(workRef(c));
  const manifest = (work: KubeObject | undefined) =>
    (work?.spec as { workload: { manifests: KubeObject[] } } | undefined)?.workload.manifests[0] as
      | (KubeObject & { spec: { replicas: number; template: { spec: { containers: { image: string }[] } } } })
      | undefined;
  return { w, binder, binding, template, reconcile, work, manifest };
}

describe('binder: Works from a binding', () => {
  it('renders one Work per target cluster, named and placed as Karmada does, with revised replicas', async () => {
    const { w, reconcile, work, manifest } = await setup();
    await reconcile();
    const m1 = await work('m1');
    const m2 = await work('m2');
    assert.equal(manifest(m1)?.spec.replicas, 2);
    assert.equal(manifest(m2)?.spec.replicas, 1);
    assert.equal(await work('m3'), undefined, 'an untargeted cluster gets nothing');
    assert.deepEqual(m1?.metadata.finalizers, ['karmada.io/execution-controller']);
    assert.equal(m1?.metadata.labels?.['resourcebinding.karmada.io/permanent-id'], 'rb-id-1');
    assert.equal(manifest(m1)?.metadata.labels?.['karmada.io/managed'], 'true');
    assert.equal(manifest(m1)?.metadata.annotations?.['work.karmada.io/conflict-resolution'], 'abort');
    assert.deepEqual(
      w.queue.items
        .filter((i) => i.controller === 'executor')
        .map((i) => i.key)
        .sort(),
      [`Work.work.karmada.io/karmada-es-m1/${WORK_NAME}`, `Work.work.karmada.io/karmada-es-m2/${WORK_NAME}`],
    );
    assert.ok(w.events.events.some((e) => e.reason === 'SyncWorkSucceed'));
  });

  it('gives each new Work a permanent id from the injected generator, and keeps it', async () => {
    let n = 0;
    const { reconcile, work } = await setup(undefined, () => `work-id-${++n}`);
    await reconcile();
    const ids = [
      (await work('m1'))?.metadata.labels?.['work.karmada.io/permanent-id'],
      (await work('m2'))?.metadata.labels?.['work.karmada.io/permanent-id'],
    ];
    assert.deepEqual(ids.sort(), ['work-id-1', 'work-id-2']);
    await reconcile();
    assert.equal(n, 2, 'existing Works keep their ids');
  });

  it('writes nothing when nothing changed (a repeated message is harmless)', async () => {
    const { w, reconcile } = await setup();
    await reconcile();
    w.store.reset();
    w.queue.items.length = 0;
    await reconcile();
    assert.deepEqual(
      w.store.writes.filter((x) => x.key.startsWith('Work.')),
      [],
    );
    assert.deepEqual(w.queue.items, []);
  });

  it('applies overrides last, per cluster, and records them on the Work', async () => {
    const { w, reconcile, work, manifest } = await setup();
    await w.store.create({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'OverridePolicy',
      metadata: { name: 'edge', namespace: 'default' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
        overrideRules: [
          {
            targetCluster: { clusterNames: ['m2'] },
            overriders: {
              imageOverrider: [{ component: 'Tag', operator: 'replace', value: '1.27-alpine' }],
              plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 7 }],
            },
          },
        ],
      },
    } as KubeObject);
    await reconcile();
    const m2 = await work('m2');
    assert.equal(manifest(m2)?.spec.template.spec.containers[0]?.image, 'nginx:1.27-alpine');
    assert.equal(manifest(m2)?.spec.replicas, 7, 'the override wins over the revised replicas');
    assert.match(m2?.metadata.annotations?.['policy.karmada.io/applied-overrides'] ?? '', /"policyName":"edge"/);
    assert.equal(manifest(await work('m1'))?.spec.template.spec.containers[0]?.image, 'nginx:1.27');
  });

  it('leaves a cluster’s Work alone and records why when its overrides fail (never half-applied)', async () => {
    const { w, reconcile, work, manifest } = await setup();
    await reconcile();
    const before = await work('m1');
    await w.store.create({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'OverridePolicy',
      metadata: { name: 'broken', namespace: 'default' },
      spec: {
        overrideRules: [
          {
            targetCluster: { clusterNames: ['m1'] },
            overriders: {
              imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'v2' }],
              plaintext: [{ path: '/spec/missing/field', operator: 'replace', value: 1 }],
            },
          },
        ],
      },
    } as KubeObject);
    const result = await reconcile();
    assert.ok(result?.requeueAfterMs, 'retried later');
    const after = await work('m1');
    assert.equal(after?.metadata.resourceVersion, before?.metadata.resourceVersion);
    assert.equal(manifest(after)?.spec.template.spec.containers[0]?.image, 'nginx:1.27');
    const failed = w.events.events.find((e) => e.reason === 'ApplyOverridePolicyFailed');
    assert.match(failed?.message ?? '', /cluster m1.*broken/);
  });

  it('deletes the Work of a cluster no longer targeted and updates the others', async () => {
    const { w, reconcile, work, manifest, binding } = await setup();
    await reconcile();
    const current = (await w.store.get({
      ...binding,
      group: 'work.karmada.io',
      namespace: 'default',
      name: 'nginx-deployment',
      kind: 'ResourceBinding',
    }))!;
    await w.store.update({
      ...current,
      spec: { ...(current.spec as object), clusters: [{ name: 'm1', replicas: 3 }] },
    });
    await reconcile();
    assert.equal(manifest(await work('m1'))?.spec.replicas, 3);
    const m2 = await work('m2');
    assert.ok(!m2 || m2.metadata.deletionTimestamp, 'the m2 Work is deleted (its finalizer waits for the executor)');
  });

  it('aggregates Work status into the binding (FullyApplied) and the template (replicas summed)', async () => {
    const { w, reconcile, work } = await setup();
    await reconcile();
    for (const [c, n] of [
      ['m1', 2],
      ['m2', 1],
    ] as const) {
      const wk = (await work(c))!;
      await w.store.updateStatus({
        ...wk,
        status: {
          conditions: [
            {
              type: 'Applied',
              status: 'True',
              reason: 'AppliedSuccessful',
              message: 'ok',
              lastTransitionTime: '2026-11-21T10:00:00Z',
            },
          ],
          manifestStatuses: [
            {
              identifier: {
                ordinal: 0,
                group: 'apps',
                version: 'v1',
                kind: 'Deployment',
                namespace: 'default',
                name: 'nginx',
              },
              status: {
                replicas: n,
                readyReplicas: n,
                availableReplicas: n,
                updatedReplicas: n,
                generation: 1,
                observedGeneration: 1,
                resourceTemplateGeneration: 1,
              },
              health: 'Healthy',
            },
          ],
        },
      });
    }
    await reconcile();
    const rb = (await w.store.get({
      group: 'work.karmada.io',
      kind: 'ResourceBinding',
      namespace: 'default',
      name: 'nginx-deployment',
    })) as ResourceBinding;
    const fully = rb.status?.conditions?.find((c) => c.type === 'FullyApplied');
    assert.equal(fully?.status, 'True');
    assert.deepEqual(
      rb.status?.aggregatedStatus?.map((i) => [i.clusterName, i.applied, i.health]),
      [
        ['m1', true, 'Healthy'],
        ['m2', true, 'Healthy'],
      ],
    );
    const deploy = await w.store.get({ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'nginx' });
    const status = deploy?.status as { readyReplicas?: number; availableReplicas?: number; replicas?: number };
    assert.equal(status.readyReplicas, 3);
    assert.equal(status.availableReplicas, 3);
  });

  it('an OverridePolicy change renders the bindings of its namespace again, on the standard lane', async () => {
    const { w, binder } = await setup();
    const batch = await binder.openBatch!({ logger: w.context().logger, now: w.clock.now(), keys: [] });
    await binder.reconcile(
      { key: 'OverridePolicy.policy.karmada.io/default/edge', lane: 'priority', reasons: [] },
      w.context(batch),
    );
    assert.deepEqual(
      w.queue.items.map((i) => `${i.controller} ${i.lane} ${i.key}`),
      ['binder standard ResourceBinding.work.karmada.io/default/nginx-deployment'],
    );
  });

  it('a deleting binding loses its Works, then its finalizer', async () => {
    const { w, reconcile, work } = await setup();
    await reconcile();
    await w.store.delete({
      group: 'work.karmada.io',
      kind: 'ResourceBinding',
      namespace: 'default',
      name: 'nginx-deployment',
    });
    await reconcile();
    for (const c of ['m1', 'm2']) {
      const wk = await work(c);
      assert.ok(!wk || wk.metadata.deletionTimestamp, `the ${c} Work is being deleted`);
    }
    assert.equal(
      await w.store.get({
        group: 'work.karmada.io',
        kind: 'ResourceBinding',
        namespace: 'default',
        name: 'nginx-deployment',
      }),
      undefined,
      'the finalizer is gone, so is the binding',
    );
  });

  describe('Directly handoff: the new copy starts only once the evicted one is gone', () => {
    async function evicted(options: { readyM2: boolean; reason: string }) {
      const t = await setup();
      await t.reconcile();
      if (options.readyM2) {
        const m2 = (await t.w.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'm2' }))!;
        await t.w.store.updateStatus({
          ...m2,
          status: { conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady', message: '' }] },
        });
      }
      const ref = { group: 'work.karmada.io', kind: 'ResourceBinding', namespace: 'default', name: 'nginx-deployment' };
      const current = (await t.w.store.get(refOf(t.binding)))!;
      await t.w.store.update({
        ...current,
        spec: {
          ...(current.spec as object),
          clusters: [
            { name: 'm1', replicas: 2 },
            { name: 'm3', replicas: 1 },
          ],
          gracefulEvictionTasks: [
            {
              fromCluster: 'm2',
              purgeMode: 'Directly',
              reason: options.reason,
              producer: 'p',
              creationTimestamp: new Date(t.w.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          ],
        },
      });
      const handoff = async () =>
        ((await t.w.store.get(ref)) as ResourceBinding).status?.conditions?.find(
          (c) => c.type === 'FailoverHandoffPending',
        );
      return { ...t, handoff };
    }

    it('old cluster Ready: the evicted Work is deleted, handed to the executor, and the new one waits, saying why', async () => {
      const t = await evicted({ readyM2: true, reason: 'ApplicationFailure' });
      t.w.queue.items.length = 0;
      const result = await t.reconcile();
      assert.ok(result?.requeueAfterMs !== undefined, 'it looks again');
      assert.ok((await t.work('m2'))?.metadata.deletionTimestamp, 'the evicted Work is being deleted');
      assert.equal(await t.work('m3'), undefined, 'no new Work yet');
      assert.ok(
        t.w.queue.items.some((i) => i.controller === 'executor' && i.key.includes('karmada-es-m2')),
        'the executor deletes the member object at once',
      );
      const c = await t.handoff();
      assert.deepEqual([c?.status, c?.reason], ['True', 'EvictedCopyDeleting']);
      assert.match(c?.message ?? '', /evicted copy on cluster m2 is deleted/);
      // The executor deleted the member object and let the Work go.
      const old = (await t.work('m2'))!;
      await t.w.store.update({ ...old, metadata: { ...old.metadata, finalizers: [] } });
      await t.reconcile();
      assert.ok(await t.work('m3'), 'the new copy starts once the old one is gone');
      assert.equal(await t.handoff(), undefined, 'the condition goes');
    });

    it('application failover, old cluster unreachable: the new copy waits for the grace period, then starts (StaleCopyPending)', async () => {
      const t = await evicted({ readyM2: false, reason: 'ApplicationFailure' });
      await t.reconcile();
      assert.equal(await t.work('m3'), undefined);
      assert.equal((await t.handoff())?.reason, 'EvictedClusterUnreachable');
      await t.w.clock.advance(10 * 60_000 + 1_000);
      await t.reconcile();
      assert.ok(await t.work('m3'), 'after --graceful-eviction-timeout the workload runs again');
      assert.deepEqual(
        t.w.events.events.filter((e) => e.reason === 'StaleCopyPending').map((e) => e.involved.kind),
        ['ResourceBinding', 'Deployment'],
        'on the binding and on its template',
      );
      assert.equal(await t.handoff(), undefined);
    });

    it('cluster failover, old cluster unreachable: the new copy starts at once (the cluster failed for its whole toleration)', async () => {
      const t = await evicted({ readyM2: false, reason: 'TaintUntolerated' });
      await t.reconcile();
      assert.ok(await t.work('m3'));
      assert.equal(await t.handoff(), undefined);
    });
  });

  it('status of a binding that carries a failover’s state is handed to the eviction controller, which drops it once the copy is Healthy (#6232)', async () => {
    for (const carried of [true, false]) {
      const t = await setup([{ name: 'm1', replicas: 3 }]);
      if (carried) {
        const current = (await t.w.store.get({
          ...t.binding,
          group: 'work.karmada.io',
          kind: 'ResourceBinding',
          namespace: 'default',
          name: 'nginx-deployment',
        }))!;
        await t.w.store.update({
          ...current,
          metadata: {
            ...current.metadata,
            annotations: {
              'resourcebinding.serverless-karmada.io/carried-label-state':
                '{"from":"m2","cluster":"m1","state":{"k":"v"}}',
            },
          },
        });
      }
      await t.reconcile();
      assert.equal(
        t.w.queue.items.some((i) => i.controller === 'eviction' && i.reason === 'status'),
        carried,
        carried ? 'carried state: the eviction controller looks' : 'nothing to look at',
      );
    }
  });
});

describe('binder: a Work’s report on a binding with eviction tasks', () => {
  it('is handed to the eviction controller even when the aggregated status does not change (a task ends only once its targets’ Works are applied at their generation, issue 13)', async () => {
    for (const tasks of [true, false]) {
      const t = await setup([{ name: 'm1', replicas: 3 }]);
      if (tasks) {
        const current = (await t.w.store.get(refOf(t.binding))) as ResourceBinding;
        await t.w.store.update({
          ...current,
          spec: {
            ...current.spec,
            gracefulEvictionTasks: [
              { fromCluster: 'm2', purgeMode: 'Gracefully', reason: 'TaintUntolerated', producer: 'TaintManager' },
            ],
          },
        });
      }
      await t.reconcile();
      const work = (await t.work('m1'))!;
      await t.w.store.updateStatus({
        ...work,
        status: {
          conditions: [
            {
              type: 'Applied',
              status: 'True',
              reason: 'AppliedSuccessful',
              message: 'Manifest has been successfully applied',
              observedGeneration: work.metadata.generation,
              lastTransitionTime: '2026-11-21T09:00:00Z',
            },
          ],
        },
      });
      const report = async () => {
        const batch = await t.binder.openBatch!({ logger: t.w.context().logger, now: t.w.clock.now(), keys: [] });
        await t.binder.reconcile({ key: keyOf(work), lane: 'priority', reasons: [] }, t.w.context(batch));
      };
      await report();
      t.w.queue.items.length = 0;
      t.w.store.reset();
      await report(); // the same report again: nothing new to aggregate
      assert.deepEqual(
        t.w.store.writes.filter((w) => w.key.startsWith('ResourceBinding.')),
        [],
        'the binding’s status is unchanged',
      );
      assert.equal(
        t.w.queue.items.some((i) => i.controller === 'eviction' && i.reason === 'status'),
        tasks,
        tasks ? 'tasks: the eviction controller looks' : 'no task: nothing to look at',
      );
    }
  });
});
