/**
 * The dependencies distributor's binding decisions (Karmada
 * `pkg/dependenciesdistributor/dependencies_distributor.go`: `buildAttachedBinding`,
 * `createOrUpdateAttachedBinding`, `mergeBindingSnapshot`, `removeScheduleResultFromAttachedBindings`,
 * `deleteBindingFromSnapshot`, `findOrphanAttachedBindings`) and the binding controller's
 * `mergeTargetClusters` (`pkg/controllers/binding/common.go`). Rows marked "upstream" port Karmada's
 * `dependencies_distributor_test.go` cases.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  type DependencyRef,
  attachedBinding,
  attachedBindingName,
  attachedBindingOwnerConflict,
  dependedByLabelKey,
  dependenciesAnnotation,
  isOrphanAttachedBinding,
  targetClusters,
  withoutRequirement,
} from '../../../../lib/core/dependencies/index.ts';
import type { KubeObject, ResourceBinding } from '../../../../lib/core/model/types.ts';
import { cloneJson } from '../../../../lib/util/json.ts';

const ID = '93162d3c-ee8e-4995-9034-05f4d5d2c2b9';
const PERMANENT_ID = 'resourcebinding.karmada.io/permanent-id';

function independent(
  name: string,
  clusters: { name: string; replicas?: number }[],
  extra: Partial<ResourceBinding['spec']> = {},
  namespace = 'test',
  id = ID,
): ResourceBinding {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name, namespace, labels: { [PERMANENT_ID]: id }, uid: `uid-${name}` },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name: name.replace(/-deployment$/, '') },
      propagateDeps: true,
      clusters,
      ...extra,
    },
  };
}

function configMap(name = 'app-config', uid = 'cm-uid', resourceVersion = '42'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'test', uid, resourceVersion },
    data: { a: 'b' },
  };
}

describe('dependedByLabelKey: names.GenerateBindingReferenceKey', () => {
  const cases: { name: string; ref: { namespace?: string; name: string }; key: string }[] = [
    {
      name: 'upstream: test/test-binding → 5dbb6dc9c8 (fnv32a of "test/test-binding", decimal, SafeEncodeString)',
      ref: { namespace: 'test', name: 'test-binding' },
      key: 'resourcebinding.karmada.io/depended-by-5dbb6dc9c8',
    },
    {
      name: 'no namespace hashes the bare name',
      ref: { name: 'x' },
      key: 'resourcebinding.karmada.io/depended-by-8689886bf9',
    },
    {
      name: 'empty namespace is the same as none',
      ref: { namespace: '', name: 'x' },
      key: 'resourcebinding.karmada.io/depended-by-8689886bf9',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(dependedByLabelKey(c.ref), c.key));
  }

  it('distinguishes a-b/c from a/b-c (upstream TestGenerateBindingReferenceKey uniqueness)', () => {
    const keys = [
      { namespace: 'prod-xxx', name: 'mytest-deployment' },
      { namespace: 'qa-xxx', name: 'mytest-deployment' },
      { name: 'mytest-deployment' },
      { namespace: 'a', name: 'b-c' },
      { namespace: 'a-b', name: 'c' },
    ].map(dependedByLabelKey);
    assert.equal(new Set(keys).size, keys.length);
    for (const k of keys)
      assert.match(k, /^resourcebinding\.karmada\.io\/depended-by-[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });
});

describe('attachedBindingName: names.GenerateBindingName', () => {
  const cases = [
    { kind: 'ConfigMap', name: 'app-config', want: 'app-config-configmap' },
    { kind: 'Secret', name: 'Mixed', want: 'mixed-secret' },
    { kind: 'ClusterRole', name: 'system:aggregate', want: 'system.aggregate-clusterrole' },
  ];
  for (const c of cases)
    it(`${c.kind}/${c.name} → ${c.want}`, () => assert.equal(attachedBindingName(c.kind, c.name), c.want));
});

describe('attachedBinding: create (buildAttachedBinding)', () => {
  it('upstream Test_buildAttachedBinding: name, namespace, controller owner, label, finalizer, resource, requiredBy', () => {
    const ind = independent('test-binding', [{ name: 'member1', replicas: 2 }]);
    const dep: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'demo-app',
        namespace: 'fake-ns',
        resourceVersion: '22222',
        uid: 'db56a4a6-0dff-465a-b046-2c1dea42a42b',
      },
    };
    const before = cloneJson(ind);
    const got = attachedBinding({ dependency: dep, independent: ind });
    assert.deepEqual(got, {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: 'demo-app-deployment',
        namespace: 'test',
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'demo-app',
            uid: 'db56a4a6-0dff-465a-b046-2c1dea42a42b',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        labels: { 'resourcebinding.karmada.io/depended-by-5dbb6dc9c8': ID },
        finalizers: ['karmada.io/binding-controller'],
      },
      spec: {
        resource: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'fake-ns',
          name: 'demo-app',
          resourceVersion: '22222',
        },
        requiredBy: [{ namespace: 'test', name: 'test-binding', clusters: [{ name: 'member1', replicas: 2 }] }],
      },
    });
    assert.deepEqual(ind, before, 'independent not mutated');
    got.spec.requiredBy![0]!.clusters![0]!.replicas = 99;
    assert.equal(ind.spec.clusters![0]!.replicas, 2, 'output does not alias the independent binding');
  });

  it('inherits conflictResolution and preserveResourcesOnDeletion from the independent binding', () => {
    const ind = independent('web-deployment', [{ name: 'm1' }], {
      conflictResolution: 'Overwrite',
      preserveResourcesOnDeletion: true,
    });
    const got = attachedBinding({ dependency: configMap(), independent: ind });
    assert.equal(got.metadata.name, 'app-config-configmap');
    assert.equal(got.spec.conflictResolution, 'Overwrite');
    assert.equal(got.spec.preserveResourcesOnDeletion, true);
    assert.equal(got.spec.placement, undefined, 'attached bindings have no placement');
    assert.equal(got.spec.clusters, undefined, 'attached bindings are not scheduled');
  });

  it('a missing permanent-id label gives an empty label value (Labels[...] of a Go map)', () => {
    const ind = independent('web-deployment', [{ name: 'm1' }]);
    delete ind.metadata.labels;
    const got = attachedBinding({ dependency: configMap(), independent: ind });
    assert.deepEqual(got.metadata.labels, { [dependedByLabelKey({ namespace: 'test', name: 'web-deployment' })]: '' });
  });
});

describe('attachedBinding: update (createOrUpdateAttachedBinding + mergeBindingSnapshot)', () => {
  const dep = configMap();
  const web = independent('web-deployment', [{ name: 'member1', replicas: 2 }], { preserveResourcesOnDeletion: true });
  const api = independent('api-deployment', [{ name: 'member2', replicas: 3 }], {}, 'test', 'api-id');
  const created = attachedBinding({ dependency: dep, independent: web });
  const stored: ResourceBinding = {
    ...cloneJson(created),
    metadata: {
      ...cloneJson(created.metadata),
      uid: 'rb-uid',
      resourceVersion: '7',
      labels: { ...created.metadata.labels, [PERMANENT_ID]: 'attached-id' },
    },
    status: { conditions: [{ type: 'FullyApplied', status: 'True' }] },
  };

  it('merges with another requirer: appends its entry and label, keeps everything else', () => {
    const before = cloneJson(stored);
    const got = attachedBinding({ dependency: dep, independent: api, existing: stored });
    assert.deepEqual(stored, before, 'existing not mutated');
    assert.deepEqual(got.spec.requiredBy, [
      { namespace: 'test', name: 'web-deployment', clusters: [{ name: 'member1', replicas: 2 }] },
      { namespace: 'test', name: 'api-deployment', clusters: [{ name: 'member2', replicas: 3 }] },
    ]);
    assert.deepEqual(got.metadata.labels, {
      [dependedByLabelKey({ namespace: 'test', name: 'web-deployment' })]: ID,
      [dependedByLabelKey({ namespace: 'test', name: 'api-deployment' })]: 'api-id',
      [PERMANENT_ID]: 'attached-id',
    });
    assert.equal(got.metadata.uid, 'rb-uid');
    assert.equal(got.metadata.resourceVersion, '7');
    assert.deepEqual(got.metadata.ownerReferences, stored.metadata.ownerReferences);
    assert.deepEqual(got.metadata.finalizers, ['karmada.io/binding-controller']);
    assert.deepEqual(got.status, stored.status);
    assert.equal(
      got.spec.preserveResourcesOnDeletion,
      undefined,
      'preserveResourcesOnDeletion is the last writer’s (api has none)',
    );
    got.spec.requiredBy![0]!.clusters![0]!.name = 'changed';
    assert.equal(stored.spec.requiredBy![0]!.clusters![0]!.name, 'member1', 'output does not alias existing');
  });

  it('updates the clusters of the requirer’s own entry in place (order kept)', () => {
    const merged = attachedBinding({ dependency: dep, independent: api, existing: stored });
    const moved = independent('web-deployment', [
      { name: 'member3', replicas: 1 },
      { name: 'member1', replicas: 1 },
    ]);
    const got = attachedBinding({ dependency: dep, independent: moved, existing: merged });
    assert.deepEqual(got.spec.requiredBy, [
      {
        namespace: 'test',
        name: 'web-deployment',
        clusters: [
          { name: 'member3', replicas: 1 },
          { name: 'member1', replicas: 1 },
        ],
      },
      { namespace: 'test', name: 'api-deployment', clusters: [{ name: 'member2', replicas: 3 }] },
    ]);
  });

  it('upstream "update attached binding": existing entries updated, new ones appended, labels merged', () => {
    const existing: ResourceBinding = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: 'test-binding',
        namespace: 'test',
        resourceVersion: '1000',
        labels: { foo: 'bar' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'foo-bar', controller: true }],
      },
      spec: {
        resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'test', name: 'c' },
        requiredBy: [
          { namespace: 'default-1', name: 'default-binding-1', clusters: [{ name: 'member1', replicas: 2 }] },
          { namespace: 'default-2', name: 'default-binding-2', clusters: [{ name: 'member2', replicas: 3 }] },
          { namespace: 'default-3', name: 'default-binding-3', clusters: [{ name: 'member3', replicas: 4 }] },
        ],
      },
    };
    const dependency: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'test', uid: 'foo-bar' },
    };
    let got = attachedBinding({
      dependency,
      independent: independent('default-binding-2', [{ name: 'member2', replicas: 4 }], {}, 'default-2'),
      existing,
    });
    got = attachedBinding({
      dependency,
      independent: independent('test-binding-1', [{ name: 'foo', replicas: 1 }], {}, 'test-1'),
      existing: got,
    });
    assert.deepEqual(
      got.spec.requiredBy!.map((r) => [r.namespace, r.name, r.clusters]),
      [
        ['default-1', 'default-binding-1', [{ name: 'member1', replicas: 2 }]],
        ['default-2', 'default-binding-2', [{ name: 'member2', replicas: 4 }]],
        ['default-3', 'default-binding-3', [{ name: 'member3', replicas: 4 }]],
        ['test-1', 'test-binding-1', [{ name: 'foo', replicas: 1 }]],
      ],
    );
    assert.equal(got.metadata.labels!['foo'], 'bar');
  });

  it('mergeBindingSnapshot updates every duplicate entry of the requirer', () => {
    const existing = cloneJson(stored);
    existing.spec.requiredBy = [
      { namespace: 'test', name: 'web-deployment', clusters: [{ name: 'a' }] },
      { namespace: 'test', name: 'other', clusters: [{ name: 'b' }] },
      { namespace: 'test', name: 'web-deployment', clusters: [{ name: 'c' }] },
    ];
    const got = attachedBinding({ dependency: dep, independent: web, existing });
    assert.deepEqual(got.spec.requiredBy, [
      { namespace: 'test', name: 'web-deployment', clusters: [{ name: 'member1', replicas: 2 }] },
      { namespace: 'test', name: 'other', clusters: [{ name: 'b' }] },
      { namespace: 'test', name: 'web-deployment', clusters: [{ name: 'member1', replicas: 2 }] },
    ]);
  });

  it('conflictResolution follows the independent binding only when the existing binding has no placement', () => {
    const overwrite = independent('web-deployment', [{ name: 'm1' }], { conflictResolution: 'Overwrite' });
    const attachedOnly = cloneJson(stored);
    attachedOnly.spec.conflictResolution = 'Abort';
    assert.equal(
      attachedBinding({ dependency: dep, independent: overwrite, existing: attachedOnly }).spec.conflictResolution,
      'Overwrite',
    );
    assert.equal(
      attachedBinding({ dependency: dep, independent: web, existing: attachedOnly }).spec.conflictResolution,
      undefined,
    );

    const policyOwned = cloneJson(stored);
    policyOwned.spec.placement = { clusterAffinity: { clusterNames: ['member9'] } };
    policyOwned.spec.conflictResolution = 'Abort';
    policyOwned.spec.clusters = [{ name: 'member9' }];
    const got = attachedBinding({ dependency: dep, independent: overwrite, existing: policyOwned });
    assert.equal(got.spec.conflictResolution, 'Abort', 'a policy-made binding keeps its own conflictResolution');
    assert.deepEqual(got.spec.placement, policyOwned.spec.placement);
    assert.deepEqual(got.spec.clusters, [{ name: 'member9' }]);
  });

  it('preserveResourcesOnDeletion is overwritten even on a policy-made binding', () => {
    const policyOwned = cloneJson(stored);
    policyOwned.spec.placement = {};
    policyOwned.spec.preserveResourcesOnDeletion = true;
    const got = attachedBinding({ dependency: dep, independent: api, existing: policyOwned });
    assert.equal(got.spec.preserveResourcesOnDeletion, undefined);
  });

  it('spec.resource is replaced wholesale (new resourceVersion; a detector-set uid is dropped)', () => {
    const existing = cloneJson(stored);
    existing.spec.resource = { ...existing.spec.resource, uid: 'cm-uid', resourceVersion: '1' };
    const got = attachedBinding({ dependency: configMap('app-config', 'cm-uid', '43'), independent: web, existing });
    assert.deepEqual(got.spec.resource, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'test',
      name: 'app-config',
      resourceVersion: '43',
    });
  });

  it('upstream "update attached binding which is being deleted": a controller owner with another UID is an error (#6034)', () => {
    const stale = cloneJson(stored);
    stale.metadata.ownerReferences = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'app-config', uid: 'old-uid', controller: true },
    ];
    assert.equal(attachedBindingOwnerConflict(stale, dep), true);
    assert.throws(
      () => attachedBinding({ dependency: dep, independent: web, existing: stale }),
      /different owner reference UID/,
    );
    const notController = cloneJson(stored);
    notController.metadata.ownerReferences = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'app-config', uid: 'old-uid' },
    ];
    assert.equal(attachedBindingOwnerConflict(notController, dep), false, 'only the controller reference counts');
    assert.equal(attachedBindingOwnerConflict(stored, dep), false);
  });
});

describe('withoutRequirement (removeScheduleResultFromAttachedBindings + deleteBindingFromSnapshot)', () => {
  const dep = configMap();
  const web = independent('web-deployment', [{ name: 'member1', replicas: 2 }], { preserveResourcesOnDeletion: true });
  const api = independent(
    'api-deployment',
    [{ name: 'member2' }],
    { preserveResourcesOnDeletion: true },
    'test',
    'api-id',
  );
  const both = attachedBinding({
    dependency: dep,
    independent: api,
    existing: attachedBinding({ dependency: dep, independent: web }),
  });

  it('removes the entry and the label, clears preserveResourcesOnDeletion, keeps the other requirer', () => {
    const before = cloneJson(both);
    const got = withoutRequirement(both, { namespace: 'test', name: 'web-deployment' })!;
    assert.deepEqual(both, before, 'existing not mutated');
    assert.deepEqual(got.spec.requiredBy, [
      { namespace: 'test', name: 'api-deployment', clusters: [{ name: 'member2' }] },
    ]);
    assert.deepEqual(got.metadata.labels, {
      [dependedByLabelKey({ namespace: 'test', name: 'api-deployment' })]: 'api-id',
    });
    assert.equal(got.spec.preserveResourcesOnDeletion, undefined);
    assert.deepEqual(got.metadata.ownerReferences, both.metadata.ownerReferences);
  });

  it('the last requirer leaves no requiredBy and no labels (omitempty); the binding itself is kept', () => {
    const once = withoutRequirement(both, { namespace: 'test', name: 'web-deployment' })!;
    const got = withoutRequirement(once, { namespace: 'test', name: 'api-deployment' })!;
    assert.equal(got.spec.requiredBy, undefined);
    assert.equal(got.metadata.labels, undefined);
    assert.equal(got.metadata.name, 'app-config-configmap');
    assert.deepEqual(targetClusters(got), []);
  });

  it('upstream Test_handleIndependentBindingDeletion: every entry of the binding goes, other labels stay', () => {
    const existing: ResourceBinding = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: 'test-binding',
        namespace: 'test',
        labels: { app: 'nginx', 'resourcebinding.karmada.io/depended-by-5dbb6dc9c8': ID },
      },
      spec: {
        resource: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'fake-ns',
          name: 'demo-app',
          resourceVersion: '22222',
        },
        requiredBy: [
          { namespace: 'test', name: 'test-binding', clusters: [{ name: 'foo', replicas: 1 }] },
          { namespace: 'default-1', name: 'default-binding-1', clusters: [{ name: 'member1', replicas: 2 }] },
          { namespace: 'test', name: 'test-binding', clusters: [{ name: 'bar', replicas: 1 }] },
        ],
      },
    };
    const got = withoutRequirement(existing, { namespace: 'test', name: 'test-binding' })!;
    assert.deepEqual(got.metadata.labels, { app: 'nginx' });
    assert.deepEqual(got.spec.requiredBy, [
      { namespace: 'default-1', name: 'default-binding-1', clusters: [{ name: 'member1', replicas: 2 }] },
    ]);
  });

  it('undefined when the binding carries neither the label nor an entry for the independent binding', () => {
    assert.equal(withoutRequirement(both, { namespace: 'test', name: 'nobody' }), undefined);
    assert.equal(withoutRequirement(both, { namespace: 'other', name: 'web-deployment' }), undefined);
  });

  it('an entry without the label (or the label without an entry) is still removed', () => {
    const entryOnly = cloneJson(both);
    delete entryOnly.metadata.labels![dependedByLabelKey({ namespace: 'test', name: 'web-deployment' })];
    assert.deepEqual(
      withoutRequirement(entryOnly, { namespace: 'test', name: 'web-deployment' })!.spec.requiredBy!.map((r) => r.name),
      ['api-deployment'],
    );
    const labelOnly = cloneJson(both);
    labelOnly.spec.requiredBy = labelOnly.spec.requiredBy!.filter((r) => r.name !== 'web-deployment');
    const got = withoutRequirement(labelOnly, { namespace: 'test', name: 'web-deployment' })!;
    assert.deepEqual(Object.keys(got.metadata.labels!), [
      dependedByLabelKey({ namespace: 'test', name: 'api-deployment' }),
    ]);
  });
});

describe('isOrphanAttachedBinding (findOrphanAttachedBindings for named dependencies)', () => {
  const attached = attachedBinding({
    dependency: configMap('app-config'),
    independent: independent('web-deployment', [{ name: 'm1' }]),
  });
  const ref = (kind: string, name: string, namespace = 'test', apiVersion = 'v1'): DependencyRef => ({
    apiVersion,
    kind,
    namespace,
    name,
  });
  const cases: { name: string; deps: DependencyRef[]; orphan: boolean }[] = [
    { name: 'still a dependency', deps: [ref('Secret', 's'), ref('ConfigMap', 'app-config')], orphan: false },
    { name: 'no dependencies left', deps: [], orphan: true },
    { name: 'same kind, other name', deps: [ref('ConfigMap', 'other')], orphan: true },
    { name: 'same name, other kind', deps: [ref('Secret', 'app-config')], orphan: true },
    { name: 'same name, other namespace', deps: [ref('ConfigMap', 'app-config', 'elsewhere')], orphan: true },
    { name: 'same name, other apiVersion', deps: [ref('ConfigMap', 'app-config', 'test', 'v2')], orphan: true },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isOrphanAttachedBinding(attached, c.deps), c.orphan));
});

describe('dependenciesAnnotation (recordDependencies json.Marshal)', () => {
  it('Go field order, omitempty namespace, null for none', () => {
    assert.equal(dependenciesAnnotation([]), 'null');
    assert.equal(
      dependenciesAnnotation([
        { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'c' },
        { apiVersion: 'v1', kind: 'Secret', namespace: '', name: 's' },
      ]),
      '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"ns","name":"c"},{"apiVersion":"v1","kind":"Secret","name":"s"}]',
    );
  });
});

describe('targetClusters (binding controller mergeTargetClusters)', () => {
  function rb(spec: Partial<ResourceBinding['spec']>): ResourceBinding {
    return {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'b', namespace: 'test' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', namespace: 'test' }, ...spec },
    };
  }
  const cases: { name: string; binding: ResourceBinding; want: { name: string; replicas?: number }[] }[] = [
    { name: 'neither clusters nor requiredBy', binding: rb({}), want: [] },
    {
      name: 'spec.clusters only, as they are',
      binding: rb({
        clusters: [
          { name: 'b', replicas: 1 },
          { name: 'a', replicas: 2 },
        ],
      }),
      want: [
        { name: 'b', replicas: 1 },
        { name: 'a', replicas: 2 },
      ],
    },
    {
      name: 'attached binding: union of requiredBy clusters in requiredBy order, replicas of the first occurrence, not sorted',
      binding: rb({
        requiredBy: [
          {
            namespace: 'test',
            name: 'x',
            clusters: [
              { name: 'member3', replicas: 3 },
              { name: 'member1', replicas: 1 },
            ],
          },
          {
            namespace: 'test',
            name: 'y',
            clusters: [
              { name: 'member1', replicas: 5 },
              { name: 'member2', replicas: 2 },
            ],
          },
          { namespace: 'test', name: 'z' },
        ],
      }),
      want: [
        { name: 'member3', replicas: 3 },
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 2 },
      ],
    },
    {
      name: 'policy-made binding also required by others: spec.clusters first and winning, then extra requiredBy clusters',
      binding: rb({
        clusters: [{ name: 'member2', replicas: 4 }],
        requiredBy: [
          {
            namespace: 'test',
            name: 'x',
            clusters: [
              { name: 'member1', replicas: 1 },
              { name: 'member2', replicas: 9 },
            ],
          },
        ],
      }),
      want: [
        { name: 'member2', replicas: 4 },
        { name: 'member1', replicas: 1 },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = cloneJson(c.binding);
      const got = targetClusters(c.binding);
      assert.deepEqual(got, c.want);
      assert.deepEqual(c.binding, before, 'input not mutated');
      if (got[0]) {
        got[0].name = 'mutated';
        assert.deepEqual(c.binding, before, 'output does not alias input');
      }
    });
  }
});
