/**
 * The binding the detector keeps for a claimed template (Karmada v1.15 `pkg/detector`
 * `BuildResourceBinding`, `BuildClusterResourceBinding`, the mutate functions of `ApplyPolicy` /
 * `ApplyClusterPolicy`, `--skipped-propagating-namespaces`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type BindingInput,
  bindingChanged,
  describePropagationPolicy,
  desiredBinding,
  inSkippedNamespace,
  planBinding,
  priorityClassValue,
  type SchedulePriorityNeed,
  schedulePriorityNeed,
  schedulePriorityOf,
} from '../../../../lib/core/policy/index.ts';
import type { KubeObject, ResourceBinding } from '../../../../lib/core/model/types.ts';
import { bindingRefOf } from '../../../../lib/core/work/index.ts';
import { cpp, pp, template } from './fixtures.ts';

const deployment = (name = 'nginx'): KubeObject => ({
  ...template(name),
  metadata: { ...template(name).metadata, uid: `uid-${name}`, resourceVersion: '7' },
});
const clusterRole = (name = 'reader'): KubeObject => ({
  ...template(name, { namespace: '', apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }),
  metadata: { name, uid: `uid-${name}` },
});

function input(overrides: Partial<BindingInput> = {}): BindingInput {
  const t = overrides.template ?? deployment();
  return {
    ref: bindingRefOf(t),
    template: t,
    policy: pp('web', { placement: { clusterAffinity: { clusterNames: ['member1'] } } }),
    workload: { replicas: 2 },
    existing: undefined,
    newUid: () => 'binding-uid',
    ...overrides,
  };
}

describe('inSkippedNamespace (--skipped-propagating-namespaces default kube-.*, plus Karmada’s own)', () => {
  const cases: [string, string | undefined, boolean][] = [
    ['kube-system is skipped', 'kube-system', true],
    ['kube-public is skipped', 'kube-public', true],
    ['karmada-system is skipped', 'karmada-system', true],
    ['karmada-cluster is skipped', 'karmada-cluster', true],
    ['execution namespaces karmada-es-* are skipped', 'karmada-es-member1', true],
    ['default is propagated', 'default', false],
    ['a name merely starting with kube is propagated', 'kubeflow', false],
    ['a cluster-scoped template is propagated', undefined, false],
  ];
  for (const [name, namespace, skipped] of cases) {
    it(name, () => {
      assert.equal(inSkippedNamespace(template('x', { namespace: namespace ?? '' })), skipped);
    });
  }
});

describe('describePropagationPolicy (how Karmada names a policy in ApplyPolicy events)', () => {
  it('a PropagationPolicy is policy(namespace/name)', () => {
    assert.equal(describePropagationPolicy(pp('web', { namespace: 'apps' })), 'policy(apps/web)');
  });
  it('a ClusterPropagationPolicy is cluster policy(name)', () => {
    assert.equal(describePropagationPolicy(cpp('all')), 'cluster policy(all)');
  });
});

describe('desiredBinding (BuildResourceBinding and the update mutate function)', () => {
  it('a namespaced template gets a ResourceBinding named <name>-<kind>, owned by the template', () => {
    const b = desiredBinding(input());
    assert.equal(b.kind, 'ResourceBinding');
    assert.equal(b.apiVersion, 'work.karmada.io/v1alpha2');
    assert.deepEqual([b.metadata.namespace, b.metadata.name], ['default', 'nginx-deployment']);
    assert.deepEqual(b.metadata.ownerReferences, [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'nginx',
        uid: 'uid-nginx',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(b.spec.resource, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'default',
      name: 'nginx',
      uid: 'uid-nginx',
      resourceVersion: '7',
    });
    assert.deepEqual(b.metadata.finalizers, ['karmada.io/binding-controller']);
    assert.equal(b.metadata.labels?.['resourcebinding.karmada.io/permanent-id'], 'binding-uid');
    assert.equal(b.metadata.labels?.['propagationpolicy.karmada.io/permanent-id'], 'web-id');
    assert.equal(b.metadata.annotations?.['propagationpolicy.karmada.io/name'], 'web');
    assert.deepEqual(b.spec.placement, { clusterAffinity: { clusterNames: ['member1'] } });
    assert.equal(b.spec.replicas, 2);
  });

  it('a cluster-scoped template gets a ClusterResourceBinding with its own finalizer and id label', () => {
    const t = clusterRole();
    const b = desiredBinding(input({ template: t, ref: bindingRefOf(t), policy: cpp('all'), workload: {} }));
    assert.equal(b.kind, 'ClusterResourceBinding');
    assert.equal(b.metadata.namespace, undefined);
    assert.equal(b.metadata.name, 'reader-clusterrole');
    assert.deepEqual(b.metadata.finalizers, ['karmada.io/cluster-resource-binding-controller']);
    assert.equal(b.metadata.labels?.['clusterresourcebinding.karmada.io/permanent-id'], 'binding-uid');
    assert.equal(b.spec.replicas, undefined);
  });

  it('an existing binding keeps its permanent id, its clusters and its other owners', () => {
    const existing = desiredBinding(input({ newUid: () => 'first' }));
    existing.spec.clusters = [{ name: 'member1', replicas: 2 }];
    existing.metadata.ownerReferences!.push({ apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'u2' });
    const b = desiredBinding(input({ existing, newUid: () => assert.fail('no new id for an existing binding') }));
    assert.equal(b.metadata.labels?.['resourcebinding.karmada.io/permanent-id'], 'first');
    assert.deepEqual(b.spec.clusters, [{ name: 'member1', replicas: 2 }]);
    assert.deepEqual(
      b.metadata.ownerReferences?.map((o) => o.name),
      ['other', 'nginx'],
    );
  });

  it('policy fields the policy no longer sets are removed; suspension.scheduling set by others is kept', () => {
    const existing = desiredBinding(
      input({
        policy: pp('web', { propagateDeps: true, failover: { application: {} }, suspension: { dispatching: true } }),
      }),
    );
    existing.spec.suspension = { ...existing.spec.suspension, scheduling: true };
    const b = desiredBinding(input({ existing, policy: pp('web') }));
    assert.equal(b.spec.propagateDeps, undefined);
    assert.equal(b.spec.failover, undefined);
    assert.deepEqual(b.spec.suspension, { scheduling: true });
  });

  it('components (MultiplePodTemplatesScheduling) replace replicas and requirements', () => {
    const existing = desiredBinding(
      input({ workload: { replicas: 2, replicaRequirements: { resourceRequest: { cpu: '1' } } } }),
    );
    const components = [{ name: 'main', replicas: 1 }];
    const b = desiredBinding(input({ existing, workload: { components } }));
    assert.deepEqual(b.spec.components, components);
    assert.equal(b.spec.replicas, undefined);
    assert.equal(b.spec.replicaRequirements, undefined);
  });
});

describe('bindingChanged (what the detector owns on a binding)', () => {
  const base = desiredBinding(input());
  const cases: [string, (b: ResourceBinding) => void, boolean][] = [
    ['the same binding is unchanged', () => {}, false],
    ['status is not the detector’s', (b) => void (b.status = { schedulerObservedGeneration: 3 }), false],
    ['a spec change counts', (b) => void (b.spec.replicas = 3), true],
    ['a label change counts', (b) => void (b.metadata.labels = { ...b.metadata.labels, x: 'y' }), true],
    ['an annotation change counts', (b) => void (b.metadata.annotations = { x: 'y' }), true],
    ['an owner change counts', (b) => void (b.metadata.ownerReferences = []), true],
    ['a finalizer change counts', (b) => void (b.metadata.finalizers = []), true],
  ];
  for (const [name, edit, changed] of cases) {
    it(name, () => {
      const other = structuredClone(base);
      edit(other);
      assert.equal(bindingChanged(other, base), changed);
    });
  }
});

describe('planBinding (create or update, then hand on to the scheduler and the binder)', () => {
  const placed = (status: 'True' | 'False' | undefined): ResourceBinding => {
    const b = desiredBinding(input());
    b.spec.clusters = [{ name: 'member1', replicas: 2 }];
    if (status) b.status = { conditions: [{ type: 'Scheduled', status, reason: 'R' }] };
    return b;
  };
  const cases: [string, Partial<BindingInput>, { write: string | undefined; schedule: boolean }][] = [
    ['a new binding is created and scheduled', {}, { write: 'create', schedule: true }],
    [
      'an unchanged scheduled binding needs nothing',
      { existing: placed('True') },
      { write: undefined, schedule: false },
    ],
    [
      'an unchanged binding never scheduled goes to the scheduler',
      { existing: placed(undefined) },
      { write: undefined, schedule: true },
    ],
    [
      'an unchanged binding that failed to schedule has a Scheduled condition: nothing to do',
      { existing: placed('False') },
      { write: undefined, schedule: false },
    ],
    [
      'a template edit on a placed binding goes to the scheduler (which hands it to the binder)',
      { existing: placed('True'), workload: { replicas: 5 } },
      { write: 'update', schedule: true },
    ],
    [
      'a changed binding not placed yet goes to the scheduler only',
      { existing: desiredBinding(input()), workload: { replicas: 5 } },
      { write: 'update', schedule: true },
    ],
  ];
  for (const [name, overrides, expected] of cases) {
    it(name, () => {
      const plan = planBinding(input(overrides));
      assert.deepEqual({ write: plan.write, schedule: plan.schedule }, expected);
      assert.deepEqual(plan.binding, desiredBinding(input(overrides)));
    });
  }
});

describe('schedulePriority from a PriorityClass (Karmada PriorityBasedScheduling, Beta and on since v1.19)', () => {
  const withPriority = (source: string, name = 'high') =>
    pp('web', { schedulePriority: { priorityClassSource: source, priorityClassName: name } });
  const rows: [string, ReturnType<typeof pp>, boolean, SchedulePriorityNeed][] = [
    ['no schedulePriority: nothing to look up', pp('web'), true, { kind: 'none' }],
    ['gate off: ignored, as Karmada does', withPriority('KubePriorityClass'), false, { kind: 'none' }],
    [
      'KubePriorityClass: the named PriorityClass',
      withPriority('KubePriorityClass'),
      true,
      { kind: 'kube-priority-class', name: 'high' },
    ],
    [
      'PodPriorityClass: Karmada "not supported yet"',
      withPriority('PodPriorityClass'),
      true,
      {
        kind: 'unsupported',
        message: 'priority class source is PodPriorityClass, but PodPriorityClass is not supported yet',
      },
    ],
    [
      'FederatedPriorityClass: Karmada "not supported yet"',
      withPriority('FederatedPriorityClass'),
      true,
      {
        kind: 'unsupported',
        message: 'priority class source is FederatedPriorityClass, but FederatedPriorityClass is not supported yet',
      },
    ],
  ];
  for (const [name, policy, gate, want] of rows) {
    it(name, () => assert.deepEqual(schedulePriorityNeed(policy, gate), want));
  }

  it('schedulePriorityOf: the class value, or why no binding is built', () => {
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 7 };
    assert.deepEqual(schedulePriorityOf({ kind: 'none' }, undefined), { ok: true });
    assert.deepEqual(schedulePriorityOf({ kind: 'kube-priority-class', name: 'high' }, pc), { ok: true, priority: 7 });
    assert.deepEqual(schedulePriorityOf({ kind: 'kube-priority-class', name: 'high' }, undefined), {
      ok: false,
      message: 'PriorityClass "high" not found',
    });
    assert.deepEqual(schedulePriorityOf({ kind: 'unsupported', message: 'no' }, undefined), {
      ok: false,
      message: 'no',
    });
  });

  it('the PriorityClass value becomes spec.schedulePriority.priority; none removes it on update', () => {
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 };
    const withIt = desiredBinding(input({ schedulePriority: priorityClassValue(pc) }));
    assert.deepEqual(withIt.spec.schedulePriority, { priority: 1000 });
    const without = desiredBinding(input({ existing: withIt }));
    assert.equal(without.spec.schedulePriority, undefined);
  });
});
