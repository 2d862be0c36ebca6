/**
 * Native `GetReplicas` (Karmada `pkg/resourceinterpreter/default/native/replica.go`) and
 * `GenerateReplicaRequirements` (`pkg/util/helper/binding.go`, `pkg/util/resource.go`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  generateReplicaRequirements,
  interpretReplicas,
  podTemplateRequests,
} from '../../../../lib/core/interpreter/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';

function container(requests?: Record<string, unknown>, limits?: Record<string, unknown>): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  if (requests) resources['requests'] = requests;
  if (limits) resources['limits'] = limits;
  return { name: 'c', image: 'nginx', resources };
}

function workload(kind: string, spec: Record<string, unknown>, apiVersion = 'apps/v1'): KubeObject {
  return { apiVersion, kind, metadata: { name: 'w', namespace: 'ns1' }, spec };
}

function deployment(replicas: unknown, podSpec: Record<string, unknown>): KubeObject {
  return workload('Deployment', {
    ...(replicas === undefined ? {} : { replicas }),
    selector: { matchLabels: { app: 'w' } },
    template: { metadata: { labels: { app: 'w' } }, spec: podSpec },
  });
}

describe('interpretReplicas: replica counts', () => {
  const podSpec = { containers: [container({ cpu: '100m' })] };
  const cases: { name: string; template: KubeObject; replicas: number | undefined }[] = [
    { name: 'Deployment spec.replicas', template: deployment(3, podSpec), replicas: 3 },
    {
      name: 'Deployment nil replicas → 0 (the API server defaults them)',
      template: deployment(undefined, podSpec),
      replicas: 0,
    },
    { name: 'Deployment replicas 0', template: deployment(0, podSpec), replicas: 0 },
    { name: 'Deployment non-integer replicas count as nil', template: deployment('3', podSpec), replicas: 0 },
    { name: 'Deployment fractional replicas count as nil', template: deployment(1.5, podSpec), replicas: 0 },
    {
      name: 'StatefulSet',
      template: workload('StatefulSet', { replicas: 4, serviceName: 's', template: { spec: podSpec } }),
      replicas: 4,
    },
    { name: 'ReplicaSet', template: workload('ReplicaSet', { replicas: 2, template: { spec: podSpec } }), replicas: 2 },
    {
      name: 'Job parallelism below completions',
      template: workload('Job', { parallelism: 2, completions: 10, template: { spec: podSpec } }, 'batch/v1'),
      replicas: 2,
    },
    {
      name: 'Job parallelism capped at completions',
      template: workload('Job', { parallelism: 5, completions: 3, template: { spec: podSpec } }, 'batch/v1'),
      replicas: 3,
    },
    {
      name: 'Job without completions keeps parallelism',
      template: workload('Job', { parallelism: 4, template: { spec: podSpec } }, 'batch/v1'),
      replicas: 4,
    },
    {
      name: 'Job nil parallelism → 0',
      template: workload('Job', { completions: 3, template: { spec: podSpec } }, 'batch/v1'),
      replicas: 0,
    },
    {
      name: 'Job completions 0',
      template: workload('Job', { parallelism: 3, completions: 0, template: { spec: podSpec } }, 'batch/v1'),
      replicas: 0,
    },
    { name: 'Pod is always 1', template: workload('Pod', podSpec, 'v1'), replicas: 1 },
    {
      name: 'DaemonSet has no replica hook',
      template: workload('DaemonSet', { template: { spec: podSpec } }),
      replicas: undefined,
    },
    {
      name: 'an unserved version has no hook',
      template: workload('Deployment', { replicas: 3, template: { spec: podSpec } }, 'extensions/v1beta1'),
      replicas: undefined,
    },
    {
      name: 'ConfigMap has no replica hook',
      template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      replicas: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(interpretReplicas(c.template)?.replicas, c.replicas);
    });
  }
});

describe('interpretReplicas: resource requests', () => {
  const cases: { name: string; podSpec: Record<string, unknown>; want: Record<string, string> | undefined }[] = [
    {
      name: 'sums containers (100m+200m, 1Gi+512Mi)',
      podSpec: { containers: [container({ cpu: '100m', memory: '1Gi' }), container({ cpu: '200m', memory: '512Mi' })] },
      want: { cpu: '300m', memory: '1536Mi' },
    },
    {
      name: 'whole cores print as cores',
      podSpec: { containers: [container({ cpu: '500m' }), container({ cpu: 0.5 }), container({ cpu: 1 })] },
      want: { cpu: '2' },
    },
    {
      name: 'requests default to limits per resource',
      podSpec: { containers: [container({ cpu: '250m' }, { cpu: '1', memory: '256Mi' })] },
      want: { cpu: '250m', memory: '256Mi' },
    },
    {
      name: 'limits only',
      podSpec: { containers: [container(undefined, { cpu: 2, memory: '1Gi' })] },
      want: { cpu: '2', memory: '1Gi' },
    },
    {
      name: 'init containers raise each resource to their largest request',
      podSpec: {
        initContainers: [container({ cpu: '500m', memory: '64Mi' }), container({ cpu: '200m', memory: '128Mi' })],
        containers: [container({ cpu: '100m', memory: '256Mi' }), container({ cpu: '200m' })],
      },
      want: { cpu: '500m', memory: '256Mi' },
    },
    {
      name: 'an init container can add a resource the containers lack',
      podSpec: {
        initContainers: [container({ 'ephemeral-storage': '1Gi' })],
        containers: [container({ cpu: '100m' })],
      },
      want: { cpu: '100m', 'ephemeral-storage': '1Gi' },
    },
    {
      name: 'overhead is added after the init-container max',
      podSpec: {
        initContainers: [container({ cpu: '1' })],
        containers: [container({ cpu: '100m', memory: '100Mi' })],
        overhead: { cpu: '250m', memory: '20Mi' },
      },
      want: { cpu: '1250m', memory: '120Mi' },
    },
    {
      name: 'extended and hugepages resources are counted, unprefixed unknown names are not',
      podSpec: {
        containers: [
          container({
            'nvidia.com/gpu': 1,
            'hugepages-2Mi': '100Mi',
            storage: '1Gi',
            foo: '1',
            'example.com/dongle': '2',
          }),
          container({ 'nvidia.com/gpu': '1' }),
        ],
      },
      want: { 'example.com/dongle': '2', 'hugepages-2Mi': '100Mi', 'nvidia.com/gpu': '2' },
    },
    {
      name: 'memory rounds up to whole bytes and prints as Go does',
      podSpec: { containers: [container({ memory: '1000' }), container({ memory: 0.5 })] },
      want: { memory: '1001' },
    },
    {
      name: 'small byte counts print in decimal SI',
      podSpec: { containers: [container({ memory: '1000' })] },
      want: { memory: '1k' },
    },
    {
      name: 'byte counts that are not a power-of-1024 multiple print as integers',
      podSpec: { containers: [container({ memory: '1G' }), container({ memory: '500M' })] },
      want: { memory: '1500000000' },
    },
    { name: 'cpu rounds up to millicores', podSpec: { containers: [container({ cpu: '100u' })] }, want: { cpu: '1m' } },
    {
      name: 'malformed quantities are skipped, the rest counted',
      podSpec: { containers: [container({ cpu: 'lots', memory: '1Gi' }), container({ cpu: true, memory: '1Mi' })] },
      want: { memory: '1025Mi' },
    },
    {
      name: 'zero requests give no resourceRequest',
      podSpec: { containers: [container({ cpu: '0', memory: '0' })] },
      want: undefined,
    },
    { name: 'no containers', podSpec: {}, want: undefined },
    {
      name: 'malformed containers and resources',
      podSpec: { containers: [null, 'x', { resources: 'x' }, { resources: { requests: [] } }] },
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(podTemplateRequests(c.podSpec), c.want);
      const got = interpretReplicas(deployment(2, c.podSpec));
      assert.deepEqual(got?.replicaRequirements?.resourceRequest, c.want);
    });
  }

  it('resource names come out sorted', () => {
    const got = podTemplateRequests({
      containers: [container({ pods: '1', memory: '1Gi', 'nvidia.com/gpu': 1, cpu: '1' })],
    });
    assert.deepEqual(Object.keys(got ?? {}), ['cpu', 'memory', 'nvidia.com/gpu', 'pods']);
  });
});

describe('interpretReplicas: node claim, priority class, namespace', () => {
  const requests = { containers: [container({ cpu: '100m' })] };
  const tolerations = [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }];
  const required = {
    nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }],
  };
  const cases: { name: string; podSpec: Record<string, unknown>; want: Record<string, unknown> | undefined }[] = [
    { name: 'no constraints, no claim', podSpec: requests, want: undefined },
    {
      name: 'nodeSelector',
      podSpec: { ...requests, nodeSelector: { disk: 'ssd' } },
      want: { nodeSelector: { disk: 'ssd' } },
    },
    { name: 'tolerations', podSpec: { ...requests, tolerations }, want: { tolerations } },
    { name: 'empty tolerations make no claim', podSpec: { ...requests, tolerations: [] }, want: undefined },
    {
      name: 'an empty nodeSelector still makes a (empty) claim, as Go’s non-nil map',
      podSpec: { ...requests, nodeSelector: {} },
      want: {},
    },
    {
      name: 'required node affinity → hardNodeAffinity',
      podSpec: {
        ...requests,
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } },
      },
      want: { hardNodeAffinity: required },
    },
    {
      name: 'preferred node affinity and pod affinity are not claims',
      podSpec: {
        ...requests,
        affinity: {
          nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }] },
          podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] },
        },
      },
      want: undefined,
    },
    {
      name: 'all three',
      podSpec: {
        ...requests,
        nodeSelector: { disk: 'ssd' },
        tolerations,
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } },
      },
      want: { hardNodeAffinity: required, nodeSelector: { disk: 'ssd' }, tolerations },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(interpretReplicas(deployment(1, c.podSpec))?.replicaRequirements?.nodeClaim, c.want);
    });
  }

  it('a claim alone makes requirements', () => {
    assert.deepEqual(interpretReplicas(deployment(1, { nodeSelector: { disk: 'ssd' } })), {
      replicas: 1,
      replicaRequirements: { nodeClaim: { nodeSelector: { disk: 'ssd' } } },
    });
  });

  it('no requests and no claim: no replicaRequirements', () => {
    assert.deepEqual(interpretReplicas(deployment(5, { containers: [{ name: 'c' }] })), { replicas: 5 });
  });

  it('priorityClassName and namespace only with the ResourceQuotaEstimate gate', () => {
    const template = deployment(2, { ...requests, priorityClassName: 'high' });
    assert.deepEqual(interpretReplicas(template), {
      replicas: 2,
      replicaRequirements: { resourceRequest: { cpu: '100m' } },
    });
    assert.deepEqual(interpretReplicas(template, { resourceQuotaEstimate: true }), {
      replicas: 2,
      replicaRequirements: { resourceRequest: { cpu: '100m' }, priorityClassName: 'high', namespace: 'ns1' },
    });
  });

  it('the gate adds no requirements where there are none', () => {
    const template = deployment(2, { containers: [{ name: 'c' }], priorityClassName: 'high' });
    assert.deepEqual(interpretReplicas(template, { resourceQuotaEstimate: true }), { replicas: 2 });
  });

  it('Pod requirements come from its own spec', () => {
    const pod = workload('Pod', { ...requests, nodeSelector: { disk: 'ssd' }, priorityClassName: 'p' }, 'v1');
    assert.deepEqual(interpretReplicas(pod, { resourceQuotaEstimate: true }), {
      replicas: 1,
      replicaRequirements: {
        nodeClaim: { nodeSelector: { disk: 'ssd' } },
        resourceRequest: { cpu: '100m' },
        priorityClassName: 'p',
        namespace: 'ns1',
      },
    });
  });

  it('generateReplicaRequirements takes a pod template', () => {
    assert.deepEqual(generateReplicaRequirements({ spec: { ...requests, tolerations } }), {
      nodeClaim: { tolerations },
      resourceRequest: { cpu: '100m' },
    });
    assert.equal(generateReplicaRequirements(undefined), undefined);
    assert.equal(generateReplicaRequirements({ spec: 'x' }), undefined);
  });
});

describe('interpretReplicas: robustness', () => {
  const malformed: KubeObject[] = [
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a' } },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a' }, spec: null },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a' }, spec: 'x' },
    deployment(2, {
      containers: 'x',
      initContainers: {},
      overhead: 'x',
      nodeSelector: 'x',
      tolerations: {},
      affinity: 'x',
    }),
    workload('Deployment', { replicas: 1, template: 'x' }),
    workload('Job', { parallelism: 'x', completions: null }, 'batch/v1'),
    workload('Pod', [] as unknown as Record<string, unknown>, 'v1'),
    { apiVersion: 7, kind: null, metadata: {} } as unknown as KubeObject,
  ];
  for (const [i, template] of malformed.entries()) {
    it(`never throws (#${i})`, () => {
      assert.doesNotThrow(() => interpretReplicas(template));
    });
  }

  it('outputs do not alias the template', () => {
    const tolerations = [{ key: 'gpu', operator: 'Exists' }];
    const required = { nodeSelectorTerms: [{ matchExpressions: [{ key: 'z', operator: 'In', values: ['a'] }] }] };
    const template = deployment(1, {
      tolerations,
      nodeSelector: { disk: 'ssd' },
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } },
    });
    const before = structuredClone(template);
    const claim = interpretReplicas(template)?.replicaRequirements?.nodeClaim;
    assert.ok(claim?.tolerations && claim.nodeSelector && claim.hardNodeAffinity);
    claim.tolerations[0]!['key'] = 'changed';
    claim.nodeSelector['disk'] = 'changed';
    (claim.hardNodeAffinity['nodeSelectorTerms'] as unknown[]).length = 0;
    assert.deepEqual(template, before);
  });
});
