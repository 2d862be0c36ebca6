/**
 * Member-side decisions (Karmada v1.15.9 `pkg/util/objectwatcher/objectwatcher.go` `allowUpdate` /
 * `Update`, `pkg/controllers/execution/execution_controller.go` `cleanupPolicyClaimMetadata`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import {
  adoptionRefusedMessage,
  allowsAdoption,
  driftedPaths,
  isManagedByKarmada,
  withoutKarmadaMarkers,
} from '../../../../lib/core/work/index.ts';

function object(
  labels?: Record<string, string>,
  annotations?: Record<string, string>,
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'nginx',
      namespace: 'default',
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    },
    spec: { replicas: 2, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
    ...extra,
  };
}

const managed = { 'karmada.io/managed': 'true' };
const overwrite = { 'work.karmada.io/conflict-resolution': 'overwrite' };
const abort = { 'work.karmada.io/conflict-resolution': 'abort' };

describe('isManagedByKarmada / allowsAdoption (objectwatcher isManagedResource / allowUpdate)', () => {
  const cases: [string, KubeObject, KubeObject, boolean, boolean][] = [
    [
      'live managed by Karmada: update allowed whatever the manifest says',
      object(undefined, abort),
      object(managed),
      true,
      true,
    ],
    [
      'unmanaged live, manifest says overwrite: taken over',
      object(undefined, overwrite),
      object({ app: 'x' }),
      false,
      true,
    ],
    ['unmanaged live, manifest says abort: refused', object(undefined, abort), object(), false, false],
    ['unmanaged live, no conflict-resolution: refused', object(), object(), false, false],
    [
      'karmada.io/managed must be exactly "true"',
      object(undefined, abort),
      object({ 'karmada.io/managed': 'false' }),
      false,
      false,
    ],
  ];
  for (const [name, desired, live, isManaged, allowed] of cases) {
    it(name, () => {
      assert.equal(isManagedByKarmada(live), isManaged);
      assert.equal(allowsAdoption(desired, live), allowed);
    });
  }
});

describe('adoptionRefusedMessage (objectwatcher Update error)', () => {
  it('namespaced object', () => {
    assert.equal(
      adoptionRefusedMessage(object(), 'member1'),
      'resource(kind=Deployment, default/nginx) already exists in the cluster member1 and the ' +
        'work.karmada.io/conflict-resolution strategy value is empty, Karmada will not manage this resource',
    );
  });
  it('cluster-scoped object: empty namespace before the slash', () => {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } };
    assert.match(
      adoptionRefusedMessage(ns, 'm2'),
      /^resource\(kind=Namespace, \/team\) already exists in the cluster m2 /,
    );
  });
});

describe('withoutKarmadaMarkers (cleanupPolicyClaimMetadata: Cleanup(C)PPClaimMetadata + ManagedResourceLabels/Annotations)', () => {
  const rendered = object(
    {
      app: 'nginx',
      'karmada.io/managed': 'true',
      'resourcebinding.karmada.io/permanent-id': 'rb',
      'work.karmada.io/permanent-id': 'w',
      'propagationpolicy.karmada.io/permanent-id': 'pp',
    },
    {
      note: 'user',
      'propagationpolicy.karmada.io/namespace': 'default',
      'propagationpolicy.karmada.io/name': 'pp',
      'resourcebinding.karmada.io/namespace': 'default',
      'resourcebinding.karmada.io/name': 'nginx-deployment',
      'resourcetemplate.karmada.io/uid': 'u',
      'resourcetemplate.karmada.io/generation': '4',
      'resourcetemplate.karmada.io/managed-labels': 'app',
      'resourcetemplate.karmada.io/managed-annotations': 'note',
      'work.karmada.io/name': 'nginx-687f7fb96f',
      'work.karmada.io/namespace': 'karmada-es-member1',
      'work.karmada.io/conflict-resolution': 'abort',
    },
    { status: { replicas: 2 } },
  );

  it('namespaced: PP claim and every managed key go; user keys and conflict-resolution stay', () => {
    const before = structuredClone(rendered);
    const got = withoutKarmadaMarkers(rendered);
    assert.notEqual(got?.spec, rendered.spec, 'no aliasing');
    assert.deepEqual(got, {
      ...rendered,
      metadata: {
        name: 'nginx',
        namespace: 'default',
        labels: { app: 'nginx' },
        annotations: { note: 'user', 'work.karmada.io/conflict-resolution': 'abort' },
      },
    });
    assert.deepEqual(rendered, before, 'input not modified');
  });

  it('cluster-scoped: the CPP claim goes; Karmada keeps the ClusterResourceBinding id and name', () => {
    const live: KubeObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'team',
        labels: {
          'karmada.io/managed': 'true',
          'clusterresourcebinding.karmada.io/permanent-id': 'crb',
          'clusterpropagationpolicy.karmada.io/permanent-id': 'cpp',
        },
        annotations: {
          'clusterpropagationpolicy.karmada.io/name': 'cpp',
          'clusterresourcebinding.karmada.io/name': 'team-namespace',
          'work.karmada.io/name': 'team-x',
        },
      },
    };
    assert.deepEqual(withoutKarmadaMarkers(live)?.metadata, {
      name: 'team',
      labels: { 'clusterresourcebinding.karmada.io/permanent-id': 'crb' },
      annotations: { 'clusterresourcebinding.karmada.io/name': 'team-namespace' },
    });
  });

  it('nothing to remove: undefined', () => {
    assert.equal(withoutKarmadaMarkers(object({ app: 'x' }, { note: 'y' })), undefined);
  });

  it('all labels Karmada-owned: the labels map goes entirely', () => {
    assert.equal(withoutKarmadaMarkers(object(managed))?.metadata.labels, undefined);
  });
});

describe('driftedPaths', () => {
  const desired = object({ app: 'nginx', 'karmada.io/managed': 'true' }, { 'a/b': 'x' });
  type Deployment = KubeObject & {
    spec: { replicas: number; strategy?: unknown; template: { spec: { containers: Record<string, unknown>[] } } };
  };
  const live = (edit: (o: Deployment) => void): KubeObject => {
    const o = structuredClone(desired) as Deployment;
    edit(o);
    return o;
  };
  const cases: [string, KubeObject, string[], KubeObject?][] = [
    ['identical: no drift', live(() => {}), []],
    [
      'server-set fields, status, defaults and member-added labels are not drift',
      live((o) => {
        Object.assign(o.metadata, {
          uid: 'u',
          resourceVersion: '9',
          generation: 3,
          creationTimestamp: 't',
          managedFields: [],
        });
        o.metadata.labels!.extra = 'member';
        o.metadata.annotations!['deployment.kubernetes.io/revision'] = '1';
        o.spec.strategy = { type: 'RollingUpdate' };
        o.spec.template.spec.containers[0]!.imagePullPolicy = 'IfNotPresent';
        o.status = { replicas: 2 };
      }),
      [],
    ],
    [
      'a changed image is drift',
      live((o) => (o.spec.template.spec.containers[0]!.image = 'nginx:1.28')),
      ['/spec/template/spec/containers/0/image'],
    ],
    ['scaled on the member', live((o) => (o.spec.replicas = 5)), ['/spec/replicas']],
    ['a removed label', live((o) => delete o.metadata.labels!.app), ['/metadata/labels/app']],
    [
      'keys are JSON-pointer escaped',
      live((o) => (o.metadata.annotations!['a/b'] = 'y')),
      ['/metadata/annotations/a~1b'],
    ],
    [
      'a list of another length is drift at the list',
      live((o) => o.spec.template.spec.containers.push({ name: 'sidecar', image: 'envoy' })),
      ['/spec/template/spec/containers'],
    ],
    ['status in desired is ignored', live(() => {}), [], { ...desired, status: { replicas: 9 } }],
    [
      'null in desired (pruned token data) is not drift',
      { ...desired, data: { token: 'abc' } },
      [],
      { ...desired, data: null },
    ],
  ];
  for (const [name, liveObject, want, desiredObject = desired] of cases) {
    it(name, () => assert.deepEqual(driftedPaths(desiredObject, liveObject), want));
  }
});
