import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import { nanoOf } from '../../../../lib/api/quantity.ts';
import {
  allocatableModelings,
  maxAvailableReplicas,
  nodeSummary,
  podRequests,
  type ResourceModel,
  resourceSummary,
} from '../../../../lib/core/clusters/resources.ts';

const MAX_INT64 = '9223372036854775807';

/** Karmada's nine default resource models (SetDefaultClusterResourceModels). */
function defaultModels(): ResourceModel[] {
  const cpu = ['0', '1', '2', '4', '8', '16', '32', '64', '128'];
  const mem = [0, 4, 16, 32, 64, 128, 256, 512, 1024].map((g) => (g === 0 ? '0' : `${g}Gi`));
  return cpu.map((min, grade) => ({
    grade,
    ranges: [
      { name: 'cpu', min, max: cpu[grade + 1] ?? MAX_INT64 },
      { name: 'memory', min: mem[grade]!, max: mem[grade + 1] ?? MAX_INT64 },
    ],
  }));
}

function node(name: string, allocatable: Record<string, string>, ready: string | null = 'True'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: { allocatable, conditions: ready === null ? [] : [{ type: 'Ready', status: ready }] },
  };
}

type Container = { requests?: Record<string, string>; limits?: Record<string, string>; restartPolicy?: string };
function pod(
  name: string,
  opts: {
    nodeName?: string;
    phase?: string;
    containers?: Container[];
    initContainers?: Container[];
    overhead?: Record<string, string>;
    podRequests?: Record<string, string>;
  } = {},
): KubeObject {
  const toSpec = (c: Container, i: number) => ({
    name: `c${i}`,
    ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
    resources: { ...(c.requests ? { requests: c.requests } : {}), ...(c.limits ? { limits: c.limits } : {}) },
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
      containers: (opts.containers ?? []).map(toSpec),
      ...(opts.initContainers ? { initContainers: opts.initContainers.map(toSpec) } : {}),
      ...(opts.overhead ? { overhead: opts.overhead } : {}),
      ...(opts.podRequests ? { resources: { requests: opts.podRequests } } : {}),
    },
    status: { phase: opts.phase ?? (opts.nodeName ? 'Running' : 'Pending') },
  };
}

const req = (requests: Record<string, string>): Container => ({ requests });

describe('nanoOf (exact quantities)', () => {
  const cases: [string | number, bigint][] = [
    ['100m', 100_000_000n],
    ['1', 1_000_000_000n],
    ['4100m', 4_100_000_000n],
    ['1.1G', 1_100_000_000_000_000_000n],
    ['1.5Gi', 1_610_612_736_000_000_000n],
    ['1e3', 1_000_000_000_000n],
    ['1E', 1_000_000_000_000_000_000_000_000_000n],
    [MAX_INT64, 9223372036854775807_000_000_000n],
    ['1n', 1n],
    ['0.0000000001', 1n],
    [0.25, 250_000_000n],
    ['-2', -2_000_000_000n],
  ];
  for (const [q, want] of cases) {
    it(`${JSON.stringify(q)}`, () => assert.equal(nanoOf(q), want));
  }
  it('rejects malformed input', () => assert.throws(() => nanoOf('1.2.3')));
});

describe('nodeSummary', () => {
  const cases: { name: string; nodes: KubeObject[]; want: { totalNum: number; readyNum: number } }[] = [
    { name: 'no nodes', nodes: [], want: { totalNum: 0, readyNum: 0 } },
    {
      name: 'only Ready=True counts',
      nodes: [node('a', {}, 'True'), node('b', {}, 'False'), node('c', {}, 'Unknown'), node('d', {}, null)],
      want: { totalNum: 4, readyNum: 1 },
    },
    { name: 'all ready', nodes: [node('a', {}), node('b', {})], want: { totalNum: 2, readyNum: 2 } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(nodeSummary(c.nodes), c.want));
});

describe('podRequests (Kubernetes effective requests)', () => {
  const cases: { name: string; pod: KubeObject; want: Record<string, string> }[] = [
    {
      name: 'containers summed',
      pod: pod('p', { containers: [req({ cpu: '250m', memory: '128Mi' }), req({ cpu: '250m', memory: '128Mi' })] }),
      want: { cpu: '500m', memory: '256Mi' },
    },
    {
      name: 'init container larger than the containers wins per resource',
      pod: pod('p', {
        containers: [req({ cpu: '250m', memory: '1Gi' }), req({ cpu: '250m' })],
        initContainers: [req({ cpu: '2', memory: '64Mi' }), req({ cpu: '1' })],
      }),
      want: { cpu: '2', memory: '1Gi' },
    },
    {
      name: 'limits default missing requests',
      pod: pod('p', { containers: [{ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } }] }),
      want: { cpu: '500m', memory: '1Gi' },
    },
    {
      name: 'sidecars add to the containers and to later init containers',
      pod: pod('p', {
        containers: [req({ cpu: '1' })],
        initContainers: [
          req({ cpu: '500m' }),
          { restartPolicy: 'Always', requests: { cpu: '200m' } },
          req({ cpu: '2' }),
        ],
      }),
      // containers 1 + sidecar 200m = 1200m; later init container 2 + 200m = 2200m
      want: { cpu: '2200m' },
    },
    {
      name: 'overhead added',
      pod: pod('p', { containers: [req({ cpu: '100m' })], overhead: { cpu: '50m', memory: '10Mi' } }),
      want: { cpu: '150m', memory: '10Mi' },
    },
    {
      name: 'pod-level requests replace the container aggregate for cpu/memory',
      pod: pod('p', { containers: [req({ cpu: '100m', memory: '1Gi' })], podRequests: { cpu: '1' } }),
      want: { cpu: '1', memory: '1Gi' },
    },
    {
      name: 'extended resources kept, unknown plain names dropped, values rounded up',
      pod: pod('p', { containers: [req({ 'nvidia.com/gpu': '1', storage: '1Gi', cpu: '0.0001', memory: '100m' })] }),
      want: { cpu: '1m', memory: '1', 'nvidia.com/gpu': '1' },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(podRequests(c.pod), c.want));
});

describe('resourceSummary', () => {
  const nodes = [
    node('n1', { cpu: '3920m', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0' }),
    node('n2', { cpu: '4', memory: '16Gi', pods: '110', 'nvidia.com/gpu': '2' }),
  ];
  const allocatable = {
    cpu: '7920m',
    'ephemeral-storage': '100Gi',
    'hugepages-1Gi': '0',
    memory: '32Gi',
    'nvidia.com/gpu': '2',
    pods: '220',
  };
  const cases: {
    name: string;
    nodes: KubeObject[];
    pods: KubeObject[];
    want: ReturnType<typeof resourceSummary>;
  }[] = [
    { name: 'no nodes, no pods', nodes: [], pods: [], want: { allocatable: {}, allocating: {}, allocated: {} } },
    { name: 'nodes only', nodes, pods: [], want: { allocatable, allocating: {}, allocated: {} } },
    {
      name: 'bound running pods allocated, unbound pods allocating',
      nodes,
      pods: [
        pod('a', { nodeName: 'n1', containers: [req({ cpu: '500m', memory: '1Gi' })] }),
        pod('b', { nodeName: 'n2', containers: [req({ cpu: '1500m', memory: '512Mi', 'nvidia.com/gpu': '1' })] }),
        pod('c', { containers: [req({ cpu: '250m', memory: '256Mi' })] }),
      ],
      want: {
        allocatable,
        allocating: { cpu: '250m', memory: '256Mi', pods: '1' },
        allocated: { cpu: '2', memory: '1536Mi', 'nvidia.com/gpu': '1', pods: '2' },
      },
    },
    {
      name: 'terminated pods are excluded; init containers counted',
      nodes,
      pods: [
        pod('done', { nodeName: 'n1', phase: 'Succeeded', containers: [req({ cpu: '3' })] }),
        pod('failed', { nodeName: 'n1', phase: 'Failed', containers: [req({ cpu: '3' })] }),
        pod('init', {
          nodeName: 'n1',
          phase: 'Pending',
          containers: [req({ cpu: '100m' })],
          initContainers: [req({ cpu: '1', memory: '2Gi' })],
        }),
      ],
      want: { allocatable, allocating: {}, allocated: { cpu: '1', memory: '2Gi', pods: '1' } },
    },
    {
      name: 'pods without requests still count as pods',
      nodes: [],
      pods: [pod('x'), pod('y', { nodeName: 'n1' })],
      want: { allocatable: {}, allocating: { pods: '1' }, allocated: { pods: '1' } },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(resourceSummary(c.nodes, c.pods), c.want));
});

describe('allocatableModelings (default 9-grade models)', () => {
  const grades = (counts: number[]) => counts.map((count, grade) => ({ grade, count }));
  const cases: { name: string; nodes: KubeObject[]; pods: KubeObject[]; want: number[] }[] = [
    { name: 'no nodes', nodes: [], pods: [], want: [0, 0, 0, 0, 0, 0, 0, 0, 0] },
    {
      name: 'grade = min over resources of the last grade whose min ≤ available',
      nodes: [
        node('a', { cpu: '4', memory: '16Gi', pods: '110' }), // cpu 3, memory 2
        node('b', { cpu: '3999m', memory: '64Gi', pods: '110' }), // cpu 2, memory 4
        node('c', { cpu: '256', memory: '2Ti', pods: '110' }), // 8, 8
        node('d', { cpu: '500m', memory: '1Gi', pods: '110' }), // 0
      ],
      pods: [],
      want: [1, 0, 2, 0, 0, 0, 0, 0, 1],
    },
    {
      name: 'requests of active pods are subtracted; terminated and unbound pods are not',
      nodes: [node('a', { cpu: '8', memory: '32Gi', pods: '110' })],
      pods: [
        pod('p', { nodeName: 'a', containers: [req({ cpu: '1', memory: '1Gi' })] }), // 7 cpu ⇒ 3, 31Gi ⇒ 2
        pod('q', { nodeName: 'a', phase: 'Succeeded', containers: [req({ cpu: '7' })] }),
        pod('r', { containers: [req({ cpu: '7' })] }),
      ],
      want: [0, 0, 1, 0, 0, 0, 0, 0, 0],
    },
    {
      name: 'a resource the node lacks counts as 0',
      nodes: [node('a', { cpu: '16', pods: '110' })],
      pods: [],
      want: [1, 0, 0, 0, 0, 0, 0, 0, 0],
    },
    {
      name: 'a node without pod room is skipped, later nodes still counted (no Karmada `break`)',
      nodes: [
        node('full', { cpu: '16', memory: '64Gi', pods: '1' }),
        node('free', { cpu: '16', memory: '64Gi', pods: '110' }),
      ],
      pods: [pod('p', { nodeName: 'full', containers: [req({ cpu: '100m' })] })],
      want: [0, 0, 0, 0, 1, 0, 0, 0, 0],
    },
    {
      name: 'overcommitted node (negative availability) matches no grade',
      nodes: [node('a', { cpu: '1', memory: '4Gi', pods: '110' })],
      pods: [pod('p', { nodeName: 'a', containers: [req({ cpu: '2' })] })],
      want: [0, 0, 0, 0, 0, 0, 0, 0, 0],
    },
    {
      name: 'millicore precision',
      nodes: [node('a', { cpu: '4100m', memory: '8Gi', pods: '110' })],
      pods: [pod('p', { nodeName: 'a', containers: [req({ cpu: '100m' })] })], // exactly 4 cores left ⇒ cpu 3
      want: [0, 1, 0, 0, 0, 0, 0, 0, 0],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(allocatableModelings(defaultModels(), c.nodes, c.pods), grades(c.want)));
  }

  it('no models ⇒ []', () => assert.deepEqual(allocatableModelings([], [node('a', { cpu: '1' })], []), []));
  it('inconsistent models ⇒ []', () => {
    const models: ResourceModel[] = [
      { grade: 0, ranges: [{ name: 'cpu', min: '0', max: '1' }] },
      {
        grade: 1,
        ranges: [
          { name: 'cpu', min: '1', max: MAX_INT64 },
          { name: 'memory', min: '0', max: MAX_INT64 },
        ],
      },
    ];
    assert.deepEqual(allocatableModelings(models, [node('a', { cpu: '1' })], []), []);
  });
  it('grades are reported as the models name them', () => {
    const models: ResourceModel[] = [
      { grade: 3, ranges: [{ name: 'cpu', min: '0', max: '2' }] },
      { grade: 7, ranges: [{ name: 'cpu', min: '2', max: MAX_INT64 }] },
    ];
    assert.deepEqual(allocatableModelings(models, [node('a', { cpu: '2' }), node('b', { cpu: '1' })], []), [
      { grade: 3, count: 1 },
      { grade: 7, count: 1 },
    ]);
  });
});

describe('maxAvailableReplicas (general estimator)', () => {
  const summary = {
    allocatable: { cpu: '8', memory: '32Gi', pods: '110', 'nvidia.com/gpu': '4' },
    allocated: { cpu: '2', memory: '8Gi', pods: '10', 'nvidia.com/gpu': '1' },
    allocating: { cpu: '500m', pods: '2' },
  };
  const cluster = (resourceSummary: unknown, models: ResourceModel[] | undefined = undefined): KubeObject => ({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member1' },
    spec: { syncMode: 'Push', ...(models ? { resourceModels: models } : {}) },
    ...(resourceSummary === undefined ? {} : { status: { resourceSummary } }),
  });
  // Counts per default grade: two nodes at grade 1, one at grade 2, one at grade 4.
  const modelings = [0, 2, 1, 0, 1, 0, 0, 0, 0].map((count, grade) => ({ grade, count }));
  const withModels = cluster({ ...summary, allocatableModelings: modelings }, defaultModels());

  const cases: {
    name: string;
    cluster: KubeObject;
    request?: Record<string, string>;
    gate?: boolean;
    want: number;
  }[] = [
    { name: 'no resourceSummary ⇒ 0', cluster: cluster(undefined), request: { cpu: '1' }, want: 0 },
    {
      name: 'no pods left ⇒ 0',
      cluster: cluster({ ...summary, allocated: { ...summary.allocated, pods: '108' } }),
      want: 0,
    },
    { name: 'no request ⇒ allowed pods', cluster: cluster(summary), want: 98 },
    {
      name: 'summary: min over resources (cpu in millicores)',
      cluster: cluster(summary),
      request: { cpu: '500m', memory: '1Gi' },
      want: 11, // cpu (8000-2000-500)/500 = 11, memory 24
    },
    { name: 'summary: memory-bound', cluster: cluster(summary), request: { cpu: '100m', memory: '2Gi' }, want: 12 },
    { name: 'summary: capped by allowed pods', cluster: cluster(summary), request: { cpu: '10m' }, want: 98 },
    {
      name: 'summary: resource not allocatable ⇒ 0',
      cluster: cluster(summary),
      request: { 'example.com/x': '1' },
      want: 0,
    },
    {
      name: 'summary: exhausted resource ⇒ 0',
      cluster: cluster({ ...summary, allocating: { cpu: '6', pods: '2' } }),
      request: { cpu: '1m' },
      want: 0,
    },
    { name: 'summary: zero requests ignored', cluster: cluster(summary), request: { cpu: '0' }, want: 98 },
    { name: 'summary: extended resource', cluster: cluster(summary), request: { 'nvidia.com/gpu': '1' }, want: 3 },
    {
      name: 'models: Σ count × per-node replicas from the first grade whose min ≥ request',
      cluster: withModels,
      request: { cpu: '1', memory: '2Gi' },
      // idx 1; grade1 2×min(1,2)=2, grade2 1×min(2,8)=2, grade4 1×min(8,32)=8
      want: 12,
    },
    {
      name: 'models: request between grade mins skips to the next grade, 0 per node bumped to 1',
      cluster: withModels,
      request: { cpu: '1500m' },
      want: 1 + 5, // grade2: 2000/1500 = 1; grade4: 8000/1500 = 5
    },
    {
      name: 'models: summary is not consulted even when it is lower',
      cluster: cluster(
        { ...summary, allocatable: { ...summary.allocatable, cpu: '3' }, allocatableModelings: modelings },
        defaultModels(),
      ),
      request: { cpu: '1', memory: '2Gi' },
      want: 12,
    },
    { name: 'models: request beyond every grade ⇒ 0', cluster: withModels, request: { cpu: '200' }, want: 0 },
    { name: 'models: capped by allowed pods', cluster: withModels, request: { cpu: '1m' }, want: 98 },
    {
      name: 'models: resource without a model range falls back to the summary',
      cluster: withModels,
      request: { cpu: '1', 'nvidia.com/gpu': '1' },
      want: 3,
    },
    {
      name: 'models: feature gate off ⇒ summary',
      cluster: withModels,
      request: { cpu: '1', memory: '2Gi' },
      gate: false,
      want: 5,
    },
    {
      name: 'models: empty allocatableModelings ⇒ summary',
      cluster: cluster({ ...summary, allocatableModelings: [] }, defaultModels()),
      request: { cpu: '1', memory: '2Gi' },
      want: 5,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const options = c.gate === undefined ? {} : { customizedClusterResourceModeling: c.gate };
      assert.equal(maxAvailableReplicas(c.cluster, c.request, options), c.want);
    });
  }

  it('end to end: summary and modelings computed from nodes and pods', () => {
    const nodes = [
      node('a', { cpu: '4', memory: '16Gi', pods: '110' }),
      node('b', { cpu: '4', memory: '16Gi', pods: '110' }),
    ];
    const pods = [pod('p', { nodeName: 'a', containers: [req({ cpu: '1', memory: '1Gi' })] })];
    const rs = {
      ...resourceSummary(nodes, pods),
      allocatableModelings: allocatableModelings(defaultModels(), nodes, pods),
    };
    // a: 3 cores ⇒ cpu grade 2, 15Gi ⇒ memory grade 1 ⇒ 1; b: cpu 3, memory 2 ⇒ 2
    assert.deepEqual(
      rs.allocatableModelings.map((m) => m.count),
      [0, 1, 1, 0, 0, 0, 0, 0, 0],
    );
    // cpu 1 ⇒ idx 1: grade1 1×1, grade2 1×2 = 3 (the summary path would say 7)
    assert.equal(maxAvailableReplicas(cluster(rs, defaultModels()), { cpu: '1' }), 3);
    assert.equal(
      maxAvailableReplicas(cluster(rs, defaultModels()), { cpu: '1' }, { customizedClusterResourceModeling: false }),
      7,
    );
  });
});
