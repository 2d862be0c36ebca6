/**
 * What the binder writes (Karmada v1.15 `pkg/controllers/binding` `ensureWork` / `CreateOrUpdateWork`,
 * the binding webhook's permanent id and the binding controller finalizers).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, ResourceBinding } from '../../../../lib/core/model/types.ts';
import {
  bindingFinalizerOf,
  planWork,
  type RenderedWork,
  withoutConditionTimes,
  withPermanentIdAndFinalizer,
  workChanged,
  workObject,
} from '../../../../lib/core/work/index.ts';

const RB_ID = 'resourcebinding.karmada.io/permanent-id';
const CRB_ID = 'clusterresourcebinding.karmada.io/permanent-id';

function rendered(overrides: Partial<RenderedWork> = {}): RenderedWork {
  return {
    name: 'nginx-687f7fb96f',
    namespace: 'karmada-es-member1',
    labels: { [RB_ID]: 'rb-1', 'work.karmada.io/permanent-id': 'w-1' },
    annotations: { 'resourcebinding.karmada.io/name': 'nginx-deployment' },
    manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', namespace: 'default' } },
    suspendDispatching: false,
    preserveResourcesOnDeletion: false,
    ...overrides,
  };
}

function binding(
  kind: ResourceBinding['kind'],
  labels?: Record<string, string>,
  finalizers?: string[],
): ResourceBinding {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind,
    metadata: {
      name: 'nginx-deployment',
      ...(kind === 'ResourceBinding' ? { namespace: 'default' } : {}),
      ...(labels ? { labels } : {}),
      ...(finalizers ? { finalizers } : {}),
    },
    spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' } },
  };
}

describe('bindingFinalizerOf / withPermanentIdAndFinalizer (binding webhook permanent id, binding controller finalizer)', () => {
  const newUid = () => 'new-id';
  const cases: [string, ResourceBinding, Record<string, string> | undefined, string[] | undefined][] = [
    [
      'a ResourceBinding without either gets both',
      binding('ResourceBinding'),
      { [RB_ID]: 'new-id' },
      ['karmada.io/binding-controller'],
    ],
    [
      'a ClusterResourceBinding gets its own label and finalizer',
      binding('ClusterResourceBinding'),
      { [CRB_ID]: 'new-id' },
      ['karmada.io/cluster-resource-binding-controller'],
    ],
    [
      'an existing id is kept; other finalizers stay first',
      binding('ResourceBinding', { [RB_ID]: 'old', app: 'x' }, ['other']),
      { [RB_ID]: 'old', app: 'x' },
      ['other', 'karmada.io/binding-controller'],
    ],
    [
      'an empty id counts as none',
      binding('ResourceBinding', { [RB_ID]: '' }, ['karmada.io/binding-controller']),
      { [RB_ID]: 'new-id' },
      ['karmada.io/binding-controller'],
    ],
    [
      'a binding with both needs no write',
      binding('ResourceBinding', { [RB_ID]: 'old' }, ['karmada.io/binding-controller']),
      undefined,
      undefined,
    ],
  ];
  for (const [name, b, labels, finalizers] of cases) {
    it(name, () => {
      const next = withPermanentIdAndFinalizer(b, newUid);
      assert.deepEqual(next?.metadata.labels, labels);
      assert.deepEqual(next?.metadata.finalizers, finalizers);
      if (next) assert.equal(next.metadata.finalizers?.at(-1), bindingFinalizerOf(b));
    });
  }
});

describe('workObject (CreateOrUpdateWork: the rendered Work over the stored one)', () => {
  it('a new Work carries the manifest and the execution controller finalizer', () => {
    assert.deepEqual(workObject(rendered({ preserveResourcesOnDeletion: true }), undefined), {
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: {
        name: 'nginx-687f7fb96f',
        namespace: 'karmada-es-member1',
        labels: rendered().labels,
        annotations: rendered().annotations,
        finalizers: ['karmada.io/execution-controller'],
      },
      spec: { workload: { manifests: [rendered().manifest] }, preserveResourcesOnDeletion: true },
    });
  });

  it('an existing Work keeps its uid, version, status and others’ labels; stale applied-override annotations go', () => {
    const existing: KubeObject = {
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: {
        name: 'nginx-687f7fb96f',
        namespace: 'karmada-es-member1',
        uid: 'w-uid',
        resourceVersion: '9',
        labels: { team: 'a' },
        annotations: { 'policy.karmada.io/applied-overrides': '[]', note: 'kept' },
        finalizers: ['karmada.io/execution-controller'],
      },
      spec: { workload: { manifests: [] }, suspendDispatching: true },
      status: { conditions: [] },
    };
    const work = workObject(rendered(), existing);
    assert.equal(work.metadata.uid, 'w-uid');
    assert.equal(work.metadata.resourceVersion, '9');
    assert.deepEqual(work.status, { conditions: [] });
    assert.deepEqual(work.metadata.labels, { team: 'a', ...rendered().labels });
    assert.deepEqual(work.metadata.annotations, { note: 'kept', ...rendered().annotations });
    assert.deepEqual(work.metadata.finalizers, ['karmada.io/execution-controller']);
    assert.deepEqual(work.spec, { workload: { manifests: [rendered().manifest] } });
  });
});

describe('workChanged / planWork (write a Work only when it differs)', () => {
  const stored = workObject(rendered(), undefined);
  const cases: [string, KubeObject | undefined, RenderedWork, string][] = [
    ['no Work yet: create', undefined, rendered(), 'create'],
    ['the same rendering: keep', stored, rendered(), 'keep'],
    ['status is not the binder’s: keep', { ...stored, status: { conditions: [] } }, rendered(), 'keep'],
    [
      'a new manifest: update',
      stored,
      rendered({ manifest: { ...rendered().manifest, spec: { replicas: 3 } } }),
      'update',
    ],
    ['a new label: update', stored, rendered({ labels: { ...rendered().labels, x: 'y' } }), 'update'],
    ['suspended dispatching: update', stored, rendered({ suspendDispatching: true }), 'update'],
    [
      'the old Work is still being deleted: wait',
      { ...stored, metadata: { ...stored.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } },
      rendered(),
      'wait',
    ],
  ];
  for (const [name, existing, r, action] of cases) {
    it(name, () => {
      const plan = planWork(r, existing);
      assert.equal(plan.action, action);
      if (existing && action !== 'wait')
        assert.equal(workChanged(existing, workObject(r, existing)), action === 'update');
      if (plan.action === 'keep') assert.equal(plan.work, existing);
      if (plan.action === 'create' || plan.action === 'update') assert.deepEqual(plan.work, workObject(r, existing));
    });
  }
});

describe('withoutConditionTimes (an aggregated template status is compared without its timestamps)', () => {
  it('drops lastProbeTime and lastTransitionTime of every condition', () => {
    assert.deepEqual(
      withoutConditionTimes({
        replicas: 2,
        conditions: [{ type: 'Complete', status: 'True', lastProbeTime: 'a', lastTransitionTime: 'b' }],
      }),
      {
        replicas: 2,
        conditions: [{ type: 'Complete', status: 'True', lastProbeTime: undefined, lastTransitionTime: undefined }],
      },
    );
  });
  it('a status without conditions is returned as is', () => {
    const status = { replicas: 2 };
    assert.equal(withoutConditionTimes(status), status);
  });
});
