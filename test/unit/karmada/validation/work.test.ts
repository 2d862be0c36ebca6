import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { defaultKarmadaObject, validateKarmadaObject } from '../../../../lib/karmada/validation/index.ts';
import { context, messages, work } from './support.ts';

const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', namespace: 'default' } };

describe('Work validation (Karmada v1.15 work mutating webhook)', () => {
  const invalid: { rule: string; obj: KubeObject; errors: string[] }[] = [
    {
      rule: "a manifest needs a kind (Go: Object 'Kind' is missing)",
      obj: work([deployment, { metadata: { name: 'x' }, apiVersion: 'v1' }]),
      errors: [
        `spec.workload.manifests[1].kind: Required value: Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'`,
      ],
    },
    {
      rule: 'a non-string kind reads as missing',
      obj: work([{ apiVersion: 'v1', kind: 3 }]),
      errors: [
        `spec.workload.manifests[0].kind: Required value: Object 'Kind' is missing in '{"apiVersion":"v1","kind":3}'`,
      ],
    },
    {
      rule: 'a manifest is an object',
      obj: work(['ConfigMap']),
      errors: ['spec.workload.manifests[0]: Invalid value: "ConfigMap": must be an object'],
    },
  ];
  for (const c of invalid) {
    it(`rejects: ${c.rule}`, () => {
      assert.deepEqual(messages(validateKarmadaObject(c.obj, undefined)), c.errors);
    });
  }
  it('accepts: a manifest without apiVersion (Karmada only requires the kind)', () => {
    assert.deepEqual(
      messages(validateKarmadaObject(work([{ kind: 'ConfigMap', metadata: { name: 'c' } }]), undefined)),
      [],
    );
  });
});

describe('Work defaulting (Karmada v1.15 work mutating webhook)', () => {
  const manifestsOf = (obj: KubeObject) =>
    (obj.spec as { workload: { manifests: Record<string, unknown>[] } }).workload.manifests;

  it('adds a permanent id when missing and stamps it, with the managed keys, on each manifest', () => {
    const out = defaultKarmadaObject(
      work([
        {
          ...deployment,
          metadata: {
            ...deployment.metadata,
            labels: { app: 'nginx' },
            annotations: { 'deployment.kubernetes.io/revision': '3', note: 'x' },
            uid: 'u',
            resourceVersion: '9',
            generation: 2,
            creationTimestamp: '2025-01-01T00:00:00Z',
            managedFields: [],
            ownerReferences: [],
            finalizers: ['f'],
          },
          status: { replicas: 1 },
        },
      ]),
      context('UPDATE'),
    );
    assert.equal(out.metadata.labels?.['work.karmada.io/permanent-id'], 'uid-1');
    assert.deepEqual(manifestsOf(out)[0], {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'nginx',
        namespace: 'default',
        labels: { app: 'nginx', 'work.karmada.io/permanent-id': 'uid-1' },
        annotations: {
          note: 'x',
          'resourcetemplate.karmada.io/managed-annotations':
            'note,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels',
          'resourcetemplate.karmada.io/managed-labels': 'app,work.karmada.io/permanent-id',
        },
      },
    });
  });

  it('keeps an existing permanent id, and is idempotent', () => {
    const once = defaultKarmadaObject(work([deployment], { 'work.karmada.io/permanent-id': 'w-1' }), context());
    assert.equal(once.metadata.labels?.['work.karmada.io/permanent-id'], 'w-1');
    assert.deepEqual(defaultKarmadaObject(once, context('UPDATE')), once);
  });

  const prunes: {
    rule: string;
    manifest: Record<string, unknown>;
    check: (m: Record<string, unknown>) => unknown;
    expect: unknown;
  }[] = [
    {
      rule: 'Job: generated selector labels and ttlSecondsAfterFinished removed',
      manifest: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j' },
        spec: {
          ttlSecondsAfterFinished: 10,
          selector: { matchLabels: { 'controller-uid': 'a', 'batch.kubernetes.io/controller-uid': 'a', keep: 'y' } },
          template: { metadata: { labels: { 'job-name': 'j', 'batch.kubernetes.io/job-name': 'j', keep: 'y' } } },
        },
      },
      check: (m) => m.spec,
      expect: { selector: { matchLabels: { keep: 'y' } }, template: { metadata: { labels: { keep: 'y' } } } },
    },
    {
      rule: 'Service: clusterIP(s) removed unless headless',
      manifest: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ports: [] },
      },
      check: (m) => m.spec,
      expect: { ports: [] },
    },
    {
      rule: 'Service: a headless clusterIP None is kept',
      manifest: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { clusterIP: 'None' } },
      check: (m) => m.spec,
      expect: { clusterIP: 'None' },
    },
    {
      rule: 'ServiceAccount: auto-generated token secrets removed',
      manifest: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'sa' },
        secrets: [{ name: 'sa-token-abc' }, { name: 'mine' }],
      },
      check: (m) => m.secrets,
      expect: [{ name: 'mine' }],
    },
    {
      rule: 'Secret: service-account token data cleared',
      manifest: {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/service-account-token',
        metadata: { name: 't', annotations: { 'kubernetes.io/service-account.uid': 'u' } },
        data: { token: 'x' },
      },
      check: (m) => [m.data, Object.keys((m.metadata as { annotations: object }).annotations)],
      expect: [null, ['resourcetemplate.karmada.io/managed-annotations', 'resourcetemplate.karmada.io/managed-labels']],
    },
    {
      rule: 'PersistentVolumeClaim: the selected-node annotation removed',
      manifest: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'p', annotations: { 'volume.kubernetes.io/selected-node': 'n1' } },
      },
      check: (m) =>
        (m.metadata as { annotations: Record<string, string> }).annotations['volume.kubernetes.io/selected-node'],
      expect: undefined,
    },
  ];
  for (const c of prunes) {
    it(c.rule, () => {
      const out = defaultKarmadaObject(work([c.manifest]), context());
      assert.deepEqual(c.check(manifestsOf(out)[0]!), c.expect);
    });
  }

  it('ResourceBinding and ClusterResourceBinding get a permanent id on CREATE only, when missing', () => {
    const rb: KubeObject = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'r', namespace: 'd' },
    };
    assert.deepEqual(defaultKarmadaObject(rb, context()).metadata.labels, {
      'resourcebinding.karmada.io/permanent-id': 'uid-1',
    });
    assert.equal(defaultKarmadaObject(rb, context('UPDATE')).metadata.labels, undefined);
    const crb: KubeObject = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ClusterResourceBinding',
      metadata: { name: 'r', labels: { 'clusterresourcebinding.karmada.io/permanent-id': 'kept' } },
    };
    assert.deepEqual(defaultKarmadaObject(crb, context()).metadata.labels, {
      'clusterresourcebinding.karmada.io/permanent-id': 'kept',
    });
  });

  it('a binding created through the API carries the binder’s finalizer at once (the binder does not write it)', () => {
    const rb: KubeObject = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'r', namespace: 'd', finalizers: ['example.com/mine'] },
    };
    assert.deepEqual(defaultKarmadaObject(rb, context()).metadata.finalizers, [
      'example.com/mine',
      'karmada.io/binding-controller',
    ]);
    assert.deepEqual(defaultKarmadaObject(rb, context('UPDATE')).metadata.finalizers, ['example.com/mine']);
    const crb: KubeObject = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ClusterResourceBinding',
      metadata: { name: 'r' },
    };
    assert.deepEqual(defaultKarmadaObject(crb, context()).metadata.finalizers, [
      'karmada.io/cluster-resource-binding-controller',
    ]);
  });
});
