import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxAvailableReplicas } from '../../../../lib/core/clusters/resources.ts';
import {
  clusterCapacity,
  compileRequest,
  emptyReservation,
  estimateReplicas,
  type Reservation,
} from '../../../../lib/core/scheduler/estimate.ts';
import { MAX_INT32 } from '../../../../lib/core/scheduler/framework/types.ts';
import type { Cluster, ResourceList, ResourceModel } from '../../../../lib/core/model/types.ts';
import { clusterFactory, lcg, summary } from './fixtures.ts';

type Rng = ReturnType<typeof lcg>;

function estimate(cluster: Cluster, request: ResourceList | undefined, gate = true, reserved?: Reservation): number {
  return estimateReplicas(
    clusterCapacity(cluster, { customizedClusterResourceModeling: gate }),
    request ? compileRequest(request) : undefined,
    reserved,
  );
}

// ---------------------------------------------------------------------------------------------------
// Random clusters and requests

function cpuText(r: Rng, maxCores: number): string {
  switch (r.int(0, 3)) {
    case 0:
      return String(r.int(0, maxCores));
    case 1:
      return `${r.int(0, maxCores * 1000)}m`;
    case 2:
      return `${r.int(0, maxCores)}.5`;
    default:
      return `${r.int(0, maxCores * 100) / 100}`;
  }
}

function memoryText(r: Rng, maxGi: number): string {
  switch (r.int(0, 4)) {
    case 0:
      return `${r.int(0, maxGi)}Gi`;
    case 1:
      return `${r.int(0, maxGi * 1024)}Mi`;
    case 2:
      return String(r.int(0, maxGi * 1_073_741_824));
    case 3:
      return `${r.int(0, maxGi)}.5Gi`;
    default:
      return `${r.int(0, maxGi * 1000)}M`;
  }
}

/** A resource list with some of cpu, memory, a GPU and ephemeral storage (each present at `p`). */
function resources(r: Rng, scale: number, p: number): ResourceList {
  const out: ResourceList = {};
  if (r.next() < p) out.cpu = cpuText(r, Math.max(1, Math.round(64 * scale)));
  if (r.next() < p) out.memory = memoryText(r, Math.max(1, Math.round(256 * scale)));
  if (r.next() < p / 2) out['nvidia.com/gpu'] = String(r.int(0, Math.max(1, Math.round(8 * scale))));
  if (r.next() < p / 4) out['ephemeral-storage'] = `${r.int(0, Math.max(1, Math.round(500 * scale)))}Gi`;
  return out;
}

/**
 * Ascending resource models with whole-unit minimums (millicores for cpu, bytes otherwise), the last
 * unbounded. Sometimes a model lacks memory (Karmada's mis-aligned minMap) or carries a GPU range.
 */
function randomModels(r: Rng): ResourceModel[] {
  const grades = r.int(1, 7);
  const models: ResourceModel[] = [];
  let cpuMilli = 0;
  let memMi = 0;
  const withGpu = r.next() < 0.2;
  for (let g = 0; g < grades; g++) {
    const nextCpu = cpuMilli + r.int(1, 8) * 500;
    const nextMem = memMi + r.int(1, 16) * 1024;
    const ranges = [
      {
        name: 'cpu',
        min: r.next() < 0.5 && cpuMilli % 1000 === 0 ? String(cpuMilli / 1000) : `${cpuMilli}m`,
        max: g === grades - 1 ? '9223372036854775807' : `${nextCpu}m`,
      },
    ];
    if (!(g > 0 && r.next() < 0.1)) {
      ranges.push({
        name: 'memory',
        min: r.next() < 0.5 && memMi % 1024 === 0 ? `${memMi / 1024}Gi` : `${memMi}Mi`,
        max: g === grades - 1 ? '9223372036854775807' : `${nextMem}Mi`,
      });
    }
    if (withGpu) ranges.push({ name: 'nvidia.com/gpu', min: String(g), max: String(g + 1) });
    models.push({ grade: g, ranges });
    cpuMilli = nextCpu;
    memMi = nextMem;
  }
  return models;
}

function randomCluster(r: Rng, i: number): Cluster {
  if (r.next() < 0.05) return clusterFactory(`c${i}`);
  const allocatable: ResourceList = { pods: String(r.int(0, 120)), ...resources(r, 1, 0.85) };
  if (r.next() < 0.05) allocatable.pods = '1k';
  const allocated: ResourceList = { ...resources(r, 0.4, 0.6) };
  const allocating: ResourceList = { ...resources(r, 0.1, 0.3) };
  if (r.next() < 0.8) allocated.pods = String(r.int(0, 60));
  if (r.next() < 0.3) allocating.pods = String(r.int(0, 10));
  const rs = { allocatable, allocated, allocating };
  if (r.next() < 0.55) {
    const models = randomModels(r);
    let modelings = models.map((m) => ({ grade: m.grade, count: r.int(0, 5) }));
    const shape = r.next();
    if (shape < 0.1) modelings = [];
    else if (shape < 0.2) modelings = modelings.slice(0, r.int(1, modelings.length));
    return clusterFactory(`c${i}`, {
      resourceSummary: { ...rs, allocatableModelings: modelings },
      resourceModels: models,
    });
  }
  return clusterFactory(`c${i}`, { resourceSummary: rs });
}

function randomRequest(r: Rng): ResourceList | undefined {
  if (r.next() < 0.08) return undefined;
  const out: ResourceList = {};
  if (r.next() < 0.85) out.cpu = r.pick(['0', '0m', '0.0015', `${r.int(1, 4000)}m`, String(r.int(1, 8)), '1.5']);
  if (r.next() < 0.75) out.memory = r.pick(['0', '1.5', `${r.int(1, 8192)}Mi`, `${r.int(1, 64)}Gi`, '1m']);
  if (r.next() < 0.15) out['nvidia.com/gpu'] = r.pick(['0', '1', '2']);
  if (r.next() < 0.05) out['ephemeral-storage'] = `${r.int(1, 100)}Gi`;
  return out;
}

describe('compiled general estimator agrees with the exact BigInt reference (A.5, §2.3)', () => {
  it('estimateReplicas(clusterCapacity(c), compileRequest(req)) === maxAvailableReplicas(c, req) over 3,000 seeded random cases', () => {
    const r = lcg(0x5eed_2026);
    const coverage = { noSummary: 0, models: 0, modelsPositive: 0, summaryPositive: 0, zero: 0, gateOff: 0 };
    for (let i = 0; i < 3000; i++) {
      const cluster = randomCluster(r, i);
      const request = randomRequest(r);
      const gate = r.next() < 0.75;
      const want = maxAvailableReplicas(cluster, request, { customizedClusterResourceModeling: gate });
      const got = estimate(cluster, request, gate);
      if (got !== want) {
        assert.fail(
          `case ${i} (gate ${gate}): compiled ${got} != reference ${want}\n` +
            `request ${JSON.stringify(request)}\ncluster ${JSON.stringify({ spec: cluster.spec, status: cluster.status?.resourceSummary })}`,
        );
      }
      const rs = cluster.status?.resourceSummary;
      const viaModels = gate && (rs?.allocatableModelings?.length ?? 0) > 0 && request !== undefined;
      if (!rs) coverage.noSummary++;
      if (!gate) coverage.gateOff++;
      if (viaModels) coverage.models++;
      if (want === 0) coverage.zero++;
      else if (viaModels) coverage.modelsPositive++;
      else coverage.summaryPositive++;
    }
    // The generator reaches every path often enough for the comparison to mean something.
    assert.ok(coverage.noSummary >= 50, JSON.stringify(coverage));
    assert.ok(coverage.gateOff >= 300, JSON.stringify(coverage));
    assert.ok(coverage.models >= 800, JSON.stringify(coverage));
    assert.ok(coverage.modelsPositive >= 200, JSON.stringify(coverage));
    assert.ok(coverage.summaryPositive >= 300, JSON.stringify(coverage));
    assert.ok(coverage.zero >= 300, JSON.stringify(coverage));
  });

  it('answers are cached per cluster object and gate, and stay equal on a second read', () => {
    const cluster = clusterFactory('m1', { resourceSummary: summary({ cpu: '4' }) });
    assert.equal(clusterCapacity(cluster), clusterCapacity(cluster, { customizedClusterResourceModeling: true }));
    assert.notEqual(clusterCapacity(cluster), clusterCapacity(cluster, { customizedClusterResourceModeling: false }));
    const request = { cpu: '1' };
    assert.equal(compileRequest(request), compileRequest(request));
    assert.equal(estimate(cluster, request), 4);
    assert.equal(estimate(cluster, request), 4);
  });
});

/** Default-like models: cpu 0,1,2,4 cores and memory 0,4,16,32 Gi, last grade unbounded. */
const MODELS: ResourceModel[] = [
  [0, '0', '0'],
  [1, '1', '4Gi'],
  [2, '2', '16Gi'],
  [3, '4', '32Gi'],
].map(([grade, cpu, memory], i, all) => {
  const next = all[i + 1];
  return {
    grade: grade as number,
    ranges: [
      { name: 'cpu', min: cpu as string, max: next ? (next[1] as string) : '9223372036854775807' },
      { name: 'memory', min: memory as string, max: next ? (next[2] as string) : '9223372036854775807' },
    ],
  };
});

interface Row {
  name: string;
  cluster: Cluster;
  request?: ResourceList;
  gate?: boolean;
  reserved?: Reservation;
  want: number;
}

function reservation(pods: number, units: Record<string, number>): Reservation {
  const r = emptyReservation();
  r.pods = pods;
  for (const [k, v] of Object.entries(units)) r.units.set(k, v);
  return r;
}

describe('general estimator rows (A.5, §2.3, §4 item 14)', () => {
  const modelled = (counts: number[], free: ResourceList = { cpu: '100', memory: '1Ti' }) =>
    clusterFactory('m', {
      resourceSummary: summary(free),
      resourceModels: MODELS,
      allocatableModelings: counts.map((count, grade) => ({ grade, count })),
    });
  const rows: Row[] = [
    { name: 'no resourceSummary ⇒ 0', cluster: clusterFactory('m'), request: { cpu: '1' }, want: 0 },
    { name: 'no resourceSummary ⇒ 0 even without a request', cluster: clusterFactory('m'), want: 0 },
    {
      name: 'no request ⇒ allowed pods (allocatable − allocated − allocating)',
      cluster: clusterFactory('m', {
        resourceSummary: { allocatable: { pods: '10' }, allocated: { pods: '3' }, allocating: { pods: '2' } },
      }),
      want: 5,
    },
    {
      name: 'pods exhausted ⇒ 0 although cpu is free',
      cluster: clusterFactory('m', {
        resourceSummary: { allocatable: { pods: '10', cpu: '8' }, allocated: { pods: '6' }, allocating: { pods: '4' } },
      }),
      request: { cpu: '100m' },
      want: 0,
    },
    {
      name: 'pods over-used (negative) ⇒ 0',
      cluster: clusterFactory('m', {
        resourceSummary: { allocatable: { pods: '10', cpu: '8' }, allocated: { pods: '12' }, allocating: {} },
      }),
      request: { cpu: '100m' },
      want: 0,
    },
    {
      name: 'summary path: min over resources, cpu in millicores, capped by pods',
      cluster: clusterFactory('m', { resourceSummary: summary({ cpu: '2500m', memory: '8Gi' }) }),
      request: { cpu: '500m', memory: '1Gi' },
      want: 5,
    },
    {
      name: 'summary path: allocated and allocating are subtracted',
      cluster: clusterFactory('m', {
        resourceSummary: {
          allocatable: { pods: '110', cpu: '8' },
          allocated: { cpu: '3' },
          allocating: { cpu: '1500m' },
        },
      }),
      request: { cpu: '1' },
      want: 3,
    },
    {
      name: 'summary path: capped by allowed pods',
      cluster: clusterFactory('m', { resourceSummary: { allocatable: { pods: '3', cpu: '64' } } }),
      request: { cpu: '1' },
      want: 3,
    },
    {
      name: 'missing resource in allocatable ⇒ 0',
      cluster: clusterFactory('m', { resourceSummary: summary({ cpu: '8' }) }),
      request: { cpu: '1', 'nvidia.com/gpu': '1' },
      want: 0,
    },
    {
      name: 'resource used up (available ≤ 0) ⇒ 0',
      cluster: clusterFactory('m', { resourceSummary: summary({ cpu: '2' }, { cpu: '2' }) }),
      request: { cpu: '100m' },
      want: 0,
    },
    {
      name: 'zero request resources are ignored (a 0 GPU the cluster lacks does not zero the answer)',
      cluster: clusterFactory('m', { resourceSummary: summary({ cpu: '4' }) }),
      request: { cpu: '1', 'nvidia.com/gpu': '0', memory: '0' },
      want: 4,
    },
    {
      name: 'a request with only zero resources ⇒ allowed pods',
      cluster: clusterFactory('m', { resourceSummary: summary({ cpu: '4' }) }),
      request: { cpu: '0m', memory: '0' },
      want: 110,
    },
    {
      name: 'models path: Σ count × per-node replicas from the first grade whose min ≥ request',
      // request 1 cpu / 2Gi: first grade with cpu min ≥ 1 is 1, memory min ≥ 2Gi is 1 ⇒ from grade 1:
      // grade1 2×min(1/1, 4Gi/2Gi)=2×1, grade2 1×min(2,8)=2, grade3 1×min(4,16)=4 ⇒ 8.
      cluster: modelled([5, 2, 1, 1]),
      request: { cpu: '1', memory: '2Gi' },
      want: 8,
    },
    {
      name: 'models path: the summary is not consulted (models may exceed it), only pods cap',
      cluster: modelled([0, 0, 0, 50], { cpu: '1', memory: '1Gi' }),
      request: { cpu: '1', memory: '1Gi' },
      want: 110,
    },
    {
      name: 'models path: per-node 0 is bumped to 1',
      // request 3 cpu: first grade with cpu min ≥ 3 is grade 3 (min 4): 4/3 = 1 per node; grade counts 0,0,0,2.
      cluster: modelled([0, 0, 0, 2]),
      request: { cpu: '3' },
      want: 2,
    },
    {
      name: 'request larger than the last grade min ⇒ 0 although the last grade is unbounded (§4 item 14)',
      cluster: modelled([1, 1, 1, 10]),
      request: { cpu: '5' },
      want: 0,
    },
    {
      name: 'same cluster with the CustomizedClusterResourceModeling gate off ⇒ summary path (100 cpu / 5)',
      cluster: modelled([1, 1, 1, 10]),
      request: { cpu: '5' },
      gate: false,
      want: 20,
    },
    {
      name: 'a requested resource without model ranges ⇒ falls back to the summary path',
      cluster: modelled([1, 1, 1, 10], { cpu: '100', memory: '1Ti', 'nvidia.com/gpu': '3' }),
      request: { cpu: '1', 'nvidia.com/gpu': '1' },
      want: 3,
    },
    {
      name: 'empty allocatableModelings ⇒ summary path',
      cluster: clusterFactory('m', {
        resourceSummary: summary({ cpu: '6' }),
        resourceModels: MODELS,
        allocatableModelings: [],
      }),
      request: { cpu: '1' },
      want: 6,
    },
    {
      name: 'reservations reduce the summary path: 4 cpu free, 2 cpu and 1 pod reserved ⇒ 2',
      cluster: clusterFactory('m', { resourceSummary: summary({ cpu: '4' }) }),
      request: { cpu: '1' },
      reserved: reservation(1, { cpu: 2000 }),
      want: 2,
    },
    {
      name: 'reservations reduce allowed pods on the summary path',
      cluster: clusterFactory('m', { resourceSummary: { allocatable: { pods: '5', cpu: '64' } } }),
      request: { cpu: '1' },
      reserved: reservation(4, {}),
      want: 1,
    },
    {
      name: 'reservations reduce allowed pods without a request',
      cluster: clusterFactory('m', { resourceSummary: { allocatable: { pods: '5' } } }),
      reserved: reservation(5, {}),
      want: 0,
    },
    {
      name: 'reservations reduce the models path by the replicas they hold (8 − ceil(3000m/1000m))',
      cluster: modelled([5, 2, 1, 1]),
      request: { cpu: '1', memory: '2Gi' },
      reserved: reservation(3, { cpu: 3000, memory: 3 * 2 * 1024 ** 3 }),
      want: 5,
    },
    {
      name: 'reservations never drive the models path below 0',
      cluster: modelled([5, 2, 1, 1]),
      request: { cpu: '1', memory: '2Gi' },
      reserved: reservation(3, { cpu: 100_000 }),
      want: 0,
    },
    {
      name: 'results are capped at MaxInt32',
      cluster: clusterFactory('m', { resourceSummary: { allocatable: { pods: '1T', cpu: '1P' } } }),
      request: { cpu: '1m' },
      want: MAX_INT32,
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(estimate(row.cluster, row.request, row.gate ?? true, row.reserved), row.want);
      if (!row.reserved) {
        // Every row without reservations is also what the exact reference says.
        assert.equal(
          maxAvailableReplicas(row.cluster, row.request, { customizedClusterResourceModeling: row.gate ?? true }),
          row.want,
        );
      }
    });
  }
});
