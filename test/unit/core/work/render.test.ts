/**
 * Binding → Work rendering (Karmada v1.15.9 `pkg/controllers/binding/common.go` `ensureWork`,
 * `pkg/controllers/ctrlutil/work.go` `CreateOrUpdateWork`, `pkg/resourceinterpreter/default/native/`
 * `revisereplica.go` and `prune/prune.go`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OverrideSpec } from '../../../../lib/core/overrides/index.ts';
import type { KubeObject, ResourceBinding, ResourceBindingSpec } from '../../../../lib/core/model/types.ts';
import {
  APPLIED_OVERRIDES_ANNOTATION,
  bindingTargetClusters,
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  CONFLICT_RESOLUTION_ANNOTATION,
  generateWorkName,
  MANAGED_LABELS_ANNOTATION,
  pruneIrrelevantFields,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
  type RenderWorkInput,
  renderWork,
  type RenderedWork,
} from '../../../../lib/core/index.ts';
import { cluster, cop, op } from '../overrides/fixtures.ts';

const member1 = cluster('member1', { env: 'prod' });
const member2 = cluster('member2', { env: 'dev' });

/** A Deployment as the store returns it: uid, generation, server metadata and status. */
function deployment(spec: Record<string, unknown> = { replicas: 3 }, meta: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'nginx',
      namespace: 'default',
      uid: 'tpl-uid',
      generation: 4,
      resourceVersion: '123',
      creationTimestamp: '2025-01-01T00:00:00Z',
      managedFields: [{ manager: 'kubectl' }],
      labels: { app: 'nginx' },
      annotations: {
        'deployment.kubernetes.io/revision': '3',
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
      },
      ...meta,
    },
    spec: { ...spec, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
    status: { replicas: 3, readyReplicas: 3 },
  };
}

function job(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: 'job-uid', generation: 1 },
    spec: { ...spec, template: { spec: { containers: [{ name: 'pi', image: 'perl' }] } } },
  };
}

const divided = { replicaScheduling: { replicaSchedulingType: 'Divided' as const } };
const duplicated = { replicaScheduling: { replicaSchedulingType: 'Duplicated' as const } };

function rb(
  spec: Partial<ResourceBindingSpec> = {},
  kind: ResourceBinding['kind'] = 'ResourceBinding',
): ResourceBinding {
  const namespaced = kind === 'ResourceBinding';
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind,
    metadata: {
      name: 'nginx-deployment',
      ...(namespaced ? { namespace: 'default' } : {}),
      labels: {
        [namespaced ? RESOURCE_BINDING_PERMANENT_ID_LABEL : CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL]: 'rb-id',
      },
    },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' },
      replicas: 3,
      placement: divided,
      clusters: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 1 },
      ],
      ...spec,
    },
  };
}

function render(input: Partial<RenderWorkInput>): RenderedWork {
  const result = renderWork({ template: deployment(), binding: rb(), cluster: member1, ...input });
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.work;
}

const spec = (work: RenderedWork) => work.manifest.spec as Record<string, unknown>;

describe('renderWork: replicas (ensureWork ReviseReplica / divideReplicasByJobCompletions)', () => {
  const cases: [string, Partial<RenderWorkInput>, Record<string, unknown>][] = [
    ['Divided: member1 gets its scheduled 2 of 3', {}, { replicas: 2 }],
    ['Divided: member2 gets its scheduled 1 of 3', { cluster: member2 }, { replicas: 1 }],
    [
      'Duplicated: the scheduled replicas win over the template (revision applies to Duplicated too)',
      {
        template: deployment({ replicas: 5 }),
        binding: rb({ placement: duplicated, clusters: [{ name: 'member1', replicas: 3 }] }),
      },
      { replicas: 3 },
    ],
    ['an explicit replicas input is used as given', { replicas: 7 }, { replicas: 7 }],
    ['binding spec.replicas 0: not revised (needReviseReplicas)', { binding: rb({ replicas: 0 }) }, { replicas: 3 }],
    [
      'a cluster the binding does not target and no replicas input: not revised',
      { cluster: cluster('member3') },
      { replicas: 3 },
    ],
    ['a Deployment without spec.replicas: the field is not added (ApplyReplica)', { template: deployment({}) }, {}],
    [
      'ReplicaSet has no native ReviseReplica hook',
      { template: { ...deployment({ replicas: 3 }), kind: 'ReplicaSet' } },
      { replicas: 3 },
    ],
    [
      'StatefulSet: spec.replicas',
      { template: { ...deployment({ replicas: 3 }), kind: 'StatefulSet' } },
      { replicas: 2 },
    ],
    [
      'Job: parallelism revised; completions 10 divided 3:2 → member1 6',
      {
        template: job({ parallelism: 5, completions: 10 }),
        binding: rb({
          replicas: 5,
          clusters: [
            { name: 'member1', replicas: 3 },
            { name: 'member2', replicas: 2 },
          ],
        }),
      },
      { parallelism: 3, completions: 6 },
    ],
    [
      'Job: completions 10 divided 3:2 → member2 4',
      {
        template: job({ parallelism: 5, completions: 10 }),
        cluster: member2,
        binding: rb({
          replicas: 5,
          clusters: [
            { name: 'member1', replicas: 3 },
            { name: 'member2', replicas: 2 },
          ],
        }),
      },
      { parallelism: 2, completions: 4 },
    ],
    [
      'Job: completions shares are matched by cluster name, not list position (upstream fix afb974f08)',
      {
        template: job({ parallelism: 5, completions: 10 }),
        binding: rb({
          replicas: 5,
          clusters: [
            { name: 'member2', replicas: 2 },
            { name: 'member1', replicas: 3 },
          ],
        }),
      },
      { parallelism: 3, completions: 6 },
    ],
    [
      'Job: completions remainder goes to the heaviest cluster first (TakeByWeight): 7 over 3:2 → 5',
      {
        template: job({ parallelism: 5, completions: 7 }),
        binding: rb({
          replicas: 5,
          clusters: [
            { name: 'member1', replicas: 3 },
            { name: 'member2', replicas: 2 },
          ],
        }),
      },
      { parallelism: 3, completions: 5 },
    ],
    [
      'Job Duplicated: completions untouched (needReviseJobCompletions)',
      {
        template: job({ parallelism: 2, completions: 10 }),
        binding: rb({ replicas: 2, placement: duplicated, clusters: [{ name: 'member1', replicas: 2 }] }),
      },
      { parallelism: 2, completions: 10 },
    ],
    [
      'work-queue Job without completions: none added',
      { template: job({ parallelism: 5 }), binding: rb({ replicas: 5 }) },
      { parallelism: 2 },
    ],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => {
      const { template: _t, ...got } = spec(render(input));
      assert.deepEqual(got, want);
    });
  }

  it('target clusters: spec.clusters, then requiredBy clusters not listed yet (mergeTargetClusters)', () => {
    assert.deepEqual(
      bindingTargetClusters({
        clusters: [{ name: 'a', replicas: 1 }],
        requiredBy: [
          {
            name: 'x',
            clusters: [
              { name: 'a', replicas: 9 },
              { name: 'b', replicas: 2 },
            ],
          },
          { name: 'y', clusters: [{ name: 'b', replicas: 5 }, { name: 'c' }] },
        ],
      }),
      [{ name: 'a', replicas: 1 }, { name: 'b', replicas: 2 }, { name: 'c' }],
    );
  });
});

describe('pruneIrrelevantFields (RemoveIrrelevantFields + RemoveJobTTLSeconds)', () => {
  const base = (kind: string, rest: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind,
    metadata: { name: 'x', namespace: 'default', ...meta },
    ...rest,
  });
  const cases: [string, KubeObject, KubeObject][] = [
    [
      'server metadata and status go; last-applied-configuration stays',
      base(
        'ConfigMap',
        { data: { a: '1' }, status: {} },
        {
          uid: 'u',
          resourceVersion: '1',
          generation: 2,
          creationTimestamp: 't',
          deletionTimestamp: 't',
          deletionGracePeriodSeconds: 30,
          selfLink: '/x',
          managedFields: [],
          ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o', uid: 'o' }],
          finalizers: ['f'],
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
        },
      ),
      base(
        'ConfigMap',
        { data: { a: '1' } },
        { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      ),
    ],
    [
      'Deployment: revision annotations go',
      base('Deployment', {}, { annotations: { 'deployment.kubernetes.io/revision': '2', keep: 'y' } }),
      base('Deployment', {}, { annotations: { keep: 'y' } }),
    ],
    [
      'Service: clusterIP and clusterIPs go',
      base('Service', { spec: { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ports: [] } }),
      base('Service', { spec: { ports: [] } }),
    ],
    [
      'headless Service keeps clusterIP None',
      base('Service', { spec: { clusterIP: 'None', clusterIPs: ['None'] } }),
      base('Service', { spec: { clusterIP: 'None', clusterIPs: ['None'] } }),
    ],
    [
      'Job: generated selector and pod labels go, and ttlSecondsAfterFinished',
      base('Job', {
        spec: {
          ttlSecondsAfterFinished: 100,
          selector: { matchLabels: { 'controller-uid': 'u', 'batch.kubernetes.io/controller-uid': 'u', app: 'a' } },
          template: {
            metadata: {
              labels: { 'controller-uid': 'u', 'job-name': 'x', 'batch.kubernetes.io/job-name': 'x', app: 'a' },
            },
          },
        },
      }),
      base('Job', {
        spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } } } },
      }),
    ],
    [
      'Job with manualSelector keeps its selector (ttl still goes)',
      base('Job', {
        spec: {
          manualSelector: true,
          ttlSecondsAfterFinished: 5,
          selector: { matchLabels: { 'controller-uid': 'u' } },
        },
      }),
      base('Job', { spec: { manualSelector: true, selector: { matchLabels: { 'controller-uid': 'u' } } } }),
    ],
    [
      'ServiceAccount: <name>-token-* secrets go (Karmada skips the one after each removal)',
      base('ServiceAccount', {
        secrets: [{ name: 'x-token-a' }, { name: 'x-token-b' }, { name: 'mine' }, { name: 'x-token-c' }],
      }),
      base('ServiceAccount', { secrets: [{ name: 'x-token-b' }, { name: 'mine' }] }),
    ],
    [
      'service-account token Secret: data nulled, uid annotation goes',
      base(
        'Secret',
        { type: 'kubernetes.io/service-account-token', data: { token: 'abc' } },
        { annotations: { 'kubernetes.io/service-account.uid': 'u', 'kubernetes.io/service-account.name': 'x' } },
      ),
      base(
        'Secret',
        { type: 'kubernetes.io/service-account-token', data: null },
        { annotations: { 'kubernetes.io/service-account.name': 'x' } },
      ),
    ],
    [
      'PVC: selected-node annotation goes',
      base('PersistentVolumeClaim', {}, { annotations: { 'volume.kubernetes.io/selected-node': 'n1' } }),
      base('PersistentVolumeClaim', {}, { annotations: {} }),
    ],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => {
      const before = structuredClone(input);
      assert.deepEqual(pruneIrrelevantFields(input), want);
      assert.deepEqual(input, before, 'input not modified');
    });
  }
});

describe('renderWork: overrides come last (ApplyOverridePolicies)', () => {
  const replicas5: OverrideSpec = {
    overrideRules: [{ overriders: { plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 5 }] } }],
  };

  it('a plaintext override of /spec/replicas wins over the revised replicas', () => {
    assert.equal(spec(render({ overridePolicies: [op('scale', replicas5)] })).replicas, 5);
  });

  it('applied overrides are recorded on the Work, not on the manifest (RecordAppliedOverrides)', () => {
    const work = render({ overridePolicies: [op('scale', replicas5)] });
    assert.ok(work.annotations[APPLIED_OVERRIDES_ANNOTATION]?.includes('"policyName":"scale"'));
    assert.equal(work.manifest.metadata.annotations?.[APPLIED_OVERRIDES_ANNOTATION], undefined);
  });

  it('an override only for another cluster does not apply here', () => {
    const onlyMember2: OverrideSpec = {
      overrideRules: [{ ...replicas5.overrideRules![0]!, targetCluster: { clusterNames: ['member2'] } }],
    };
    assert.equal(spec(render({ clusterOverridePolicies: [cop('scale', onlyMember2)] })).replicas, 2);
  });

  it('an override of a pruned field does not survive (pruning runs after overrides in CreateOrUpdateWork)', () => {
    const setStatus: OverrideSpec = {
      overrideRules: [{ overriders: { plaintext: [{ path: '/status/replicas', operator: 'replace', value: 9 }] } }],
    };
    assert.equal(render({ overridePolicies: [op('status', setStatus)] }).manifest.status, undefined);
  });

  it('an override that fails returns ok:false with the policy and renders no Work', () => {
    const broken: OverrideSpec = {
      overrideRules: [{ overriders: { plaintext: [{ path: '/spec/missing/field', operator: 'replace', value: 1 }] } }],
    };
    const result = renderWork({
      template: deployment(),
      binding: rb(),
      cluster: member1,
      overridePolicies: [op('bad', broken)],
    });
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.error.startsWith('OverridePolicy default/bad'), JSON.stringify(result));
    assert.deepEqual(!result.ok && result.policy, { kind: 'OverridePolicy', name: 'bad', namespace: 'default' });
    assert.equal('work' in result, false);
  });
});

describe('renderWork: the Work and its manifest metadata (mergeLabel, mergeAnnotations, CreateOrUpdateWork)', () => {
  it('ResourceBinding: exact Work labels/annotations and manifest metadata', () => {
    const work = render({});
    assert.equal(work.name, 'nginx-687f7fb96f');
    assert.equal(work.namespace, 'karmada-es-member1');
    assert.deepEqual(work.labels, { 'resourcebinding.karmada.io/permanent-id': 'rb-id' });
    assert.deepEqual(work.annotations, {
      'resourcebinding.karmada.io/namespace': 'default',
      'resourcebinding.karmada.io/name': 'nginx-deployment',
      'work.karmada.io/conflict-resolution': 'abort',
    });
    assert.deepEqual(work.manifest.metadata, {
      name: 'nginx',
      namespace: 'default',
      labels: { app: 'nginx', 'resourcebinding.karmada.io/permanent-id': 'rb-id', 'karmada.io/managed': 'true' },
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
        'resourcetemplate.karmada.io/generation': '4',
        'resourcebinding.karmada.io/namespace': 'default',
        'resourcebinding.karmada.io/name': 'nginx-deployment',
        'resourcetemplate.karmada.io/uid': 'tpl-uid',
        'work.karmada.io/name': 'nginx-687f7fb96f',
        'work.karmada.io/namespace': 'karmada-es-member1',
        'work.karmada.io/conflict-resolution': 'abort',
        'resourcetemplate.karmada.io/managed-annotations': [
          'kubectl.kubernetes.io/last-applied-configuration',
          'resourcebinding.karmada.io/name',
          'resourcebinding.karmada.io/namespace',
          'resourcetemplate.karmada.io/generation',
          'resourcetemplate.karmada.io/managed-annotations',
          'resourcetemplate.karmada.io/managed-labels',
          'resourcetemplate.karmada.io/uid',
          'work.karmada.io/conflict-resolution',
          'work.karmada.io/name',
          'work.karmada.io/namespace',
        ].join(','),
        'resourcetemplate.karmada.io/managed-labels': 'app,karmada.io/managed,resourcebinding.karmada.io/permanent-id',
      },
    });
    assert.equal(work.manifest.status, undefined);
    assert.equal(work.suspendDispatching, false);
    assert.equal(work.preserveResourcesOnDeletion, false);
  });

  it('ClusterResourceBinding: its own id label and name annotation, no ResourceBinding keys', () => {
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:reader', uid: 'role-uid', labels: { tier: 'x' } },
      rules: [],
    };
    const work = render({
      template: role,
      binding: rb({ replicas: 0, placement: duplicated }, 'ClusterResourceBinding'),
    });
    assert.equal(work.name, generateWorkName('ClusterRole', 'system:reader'));
    assert.ok(work.name.startsWith('system.reader-'));
    assert.deepEqual(work.labels, { 'clusterresourcebinding.karmada.io/permanent-id': 'rb-id' });
    assert.deepEqual(work.annotations, {
      'clusterresourcebinding.karmada.io/name': 'nginx-deployment',
      'work.karmada.io/conflict-resolution': 'abort',
    });
    assert.deepEqual(work.manifest.metadata.labels, {
      tier: 'x',
      'clusterresourcebinding.karmada.io/permanent-id': 'rb-id',
      'karmada.io/managed': 'true',
    });
    const annotations = work.manifest.metadata.annotations ?? {};
    assert.equal(annotations['clusterresourcebinding.karmada.io/name'], 'nginx-deployment');
    assert.equal(annotations['resourcebinding.karmada.io/name'], undefined);
    assert.equal(annotations['resourcetemplate.karmada.io/generation'], undefined, 'generation 0: no annotation');
  });

  it("the existing Work's permanent id is stamped on the manifest and listed in managed-labels", () => {
    const work = render({ workPermanentId: 'work-id' });
    assert.equal(work.manifest.metadata.labels?.['work.karmada.io/permanent-id'], 'work-id');
    assert.equal(
      work.manifest.metadata.annotations?.[MANAGED_LABELS_ANNOTATION],
      'app,karmada.io/managed,resourcebinding.karmada.io/permanent-id,work.karmada.io/permanent-id',
    );
  });

  it('neither the template nor the policies are modified, and the output shares nothing with them', () => {
    const template = deployment();
    const policies = [
      op('scale', { overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { a: 'b' } }] } }] }),
    ];
    const before = structuredClone({ template, policies });
    const work = render({ template, overridePolicies: policies });
    assert.deepEqual({ template, policies }, before);
    (work.manifest.metadata.labels as Record<string, string>).app = 'changed';
    (
      work.manifest.spec as { template: { spec: { containers: { image: string }[] } } }
    ).template.spec.containers[0]!.image = 'x';
    assert.deepEqual({ template, policies }, before);
  });
});

describe('renderWork: conflict resolution (mergeConflictResolution)', () => {
  const cases: [string, string | undefined, ResourceBindingSpec['conflictResolution'], string][] = [
    ['template overwrite wins over binding Abort', 'overwrite', 'Abort', 'overwrite'],
    ['template abort wins over binding Overwrite', 'abort', 'Overwrite', 'abort'],
    ['an invalid template value is ignored: binding Overwrite', 'Overwrite', 'Overwrite', 'overwrite'],
    ['no template value, binding Abort', undefined, 'Abort', 'abort'],
    ['no template value, binding unset: abort', undefined, undefined, 'abort'],
  ];
  for (const [name, annotation, policy, want] of cases) {
    it(name, () => {
      const template = deployment(
        { replicas: 3 },
        annotation === undefined ? {} : { annotations: { [CONFLICT_RESOLUTION_ANNOTATION]: annotation } },
      );
      const work = render({ template, binding: rb({ conflictResolution: policy }) });
      assert.equal(work.annotations[CONFLICT_RESOLUTION_ANNOTATION], want);
      assert.equal(work.manifest.metadata.annotations?.[CONFLICT_RESOLUTION_ANNOTATION], want);
    });
  }
});

describe('renderWork: suspension and preservation (shouldSuspendDispatching, PreserveResourcesOnDeletion)', () => {
  const cases: [string, Partial<ResourceBindingSpec>, typeof member1, boolean, boolean][] = [
    ['nothing set', {}, member1, false, false],
    ['suspension.dispatching suspends every cluster', { suspension: { dispatching: true } }, member2, true, false],
    [
      'dispatchingOnClusters suspends the named cluster',
      { suspension: { dispatchingOnClusters: { clusterNames: ['member1'] } } },
      member1,
      true,
      false,
    ],
    [
      'dispatchingOnClusters leaves other clusters alone',
      { suspension: { dispatchingOnClusters: { clusterNames: ['member1'] } } },
      member2,
      false,
      false,
    ],
    ['preserveResourcesOnDeletion is copied', { preserveResourcesOnDeletion: true }, member1, false, true],
  ];
  for (const [name, bindingSpec, target, suspend, preserve] of cases) {
    it(name, () => {
      const work = render({ binding: rb(bindingSpec), cluster: target });
      assert.equal(work.suspendDispatching, suspend);
      assert.equal(work.preserveResourcesOnDeletion, preserve);
    });
  }
});
