/**
 * What one binding charges to quotas: Karmada's `CalculateResourceUsage` (pkg/util/helper/binding.go,
 * rows of its binding_test.go reused) and our additions (`pods`, `limits.*`). Rows name what they pin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuantityError } from '../../../../lib/api/quantity.ts';
import {
  calculateComponentsUsage,
  calculateResourceUsage,
  isUsageAddition,
  type QuotaBindingSpec,
  type ResourceUsageOptions,
  ResourceUsageOptionsError,
  withoutUsageAdditions,
} from '../../../../lib/core/quota/index.ts';
import type { Component, ResourceList } from '../../../../lib/core/model/types.ts';
import { component, componentSpec, replicaSpec } from './factories.ts';

/** Karmada's FlinkDeployment: memory "1024m"/"2048m" (Flink MiB) interpreted as the quantities 1.024 / 2.048. */
const FLINK = componentSpec(
  [
    component('jobmanager', 1, { cpu: '1', memory: '1.024' }),
    component('taskmanager', 1, { cpu: '2', memory: '2.048' }),
  ],
  ['member1'],
);

describe('calculateResourceUsage', () => {
  const rows: {
    name: string;
    spec: QuotaBindingSpec;
    options?: ResourceUsageOptions;
    want: ResourceList;
    /** Karmada's own answer: the usage without our additions (`pods`, `limits.*`). */
    karmada: ResourceList;
  }[] = [
    {
      name: 'seed: Flink components on one cluster give cpu 3, memory 3072m (Karmada exactly) and 2 pods',
      spec: FLINK,
      want: { cpu: '3', memory: '3072m', pods: '2' },
      karmada: { cpu: '3', memory: '3072m' },
    },
    {
      name: 'Karmada binding_test "with replica requirements": request × Σ scheduled replicas (3 + 2)',
      spec: replicaSpec({ cpu: '1', memory: '2Gi' }, { cluster1: 3, cluster2: 2 }),
      want: { cpu: '5', memory: '10Gi', pods: '5' },
      karmada: { cpu: '5', memory: '10Gi' },
    },
    {
      name: 'Karmada binding_test "with components": one set (2 × request) per target cluster',
      spec: componentSpec([component('c', 2, { cpu: '500m', memory: '1Gi' })], ['cluster1', 'cluster2']),
      want: { cpu: '2', memory: '4Gi', pods: '4' },
      karmada: { cpu: '2', memory: '4Gi' },
    },
    {
      name: 'scheduled replicas count, not spec.replicas',
      spec: { ...replicaSpec({ cpu: '100m' }, { m1: 2 }), replicas: 10 } as QuotaBindingSpec,
      want: { cpu: '200m', pods: '2' },
      karmada: { cpu: '200m' },
    },
    {
      name: 'millicores and binary units multiply exactly and print canonically (3 × 100m = 300m, 3 × 128Mi = 384Mi)',
      spec: replicaSpec({ cpu: '100m', memory: '128Mi' }, { m1: 2, m2: 1 }),
      want: { cpu: '300m', memory: '384Mi', pods: '3' },
      karmada: { cpu: '300m', memory: '384Mi' },
    },
    {
      name: 'nothing scheduled (no clusters) uses nothing',
      spec: replicaSpec({ cpu: '1' }),
      want: {},
      karmada: {},
    },
    {
      name: 'clusters with zero replicas (Σ scheduled 0) use nothing',
      spec: replicaSpec({ cpu: '1' }, { m1: 0, m2: 0 }),
      want: {},
      karmada: {},
    },
    {
      name: 'no requests: Karmada charges nothing; we still count the pods',
      spec: replicaSpec(undefined, { m1: 2, m2: 1 }),
      want: { pods: '3' },
      karmada: {},
    },
    {
      name: 'zero request entries are dropped (Karmada IsZero)',
      spec: replicaSpec({ cpu: '0', memory: '1Gi' }, { m1: 2 }),
      want: { memory: '2Gi', pods: '2' },
      karmada: { memory: '2Gi' },
    },
    {
      name: 'extended resources are charged like any request (nvidia.com/gpu)',
      spec: replicaSpec({ cpu: '1', 'nvidia.com/gpu': '1' }, { m1: 3, m2: 1 }),
      want: { cpu: '4', 'nvidia.com/gpu': '4', pods: '4' },
      karmada: { cpu: '4', 'nvidia.com/gpu': '4' },
    },
    {
      name: 'Karmada webhook_test components: (2 × 25m + 30m) × 2 clusters = 160m; per-cluster replicas ignored',
      spec: {
        components: [component('comp1', 2, { cpu: '25m' }), component('comp2', 1, { cpu: '30m' })],
        clusters: [
          { name: 'm1', replicas: 7 },
          { name: 'm2', replicas: 0 },
        ],
      },
      want: { cpu: '160m', pods: '6' },
      karmada: { cpu: '160m' },
    },
    {
      name: 'components with no target cluster use nothing',
      spec: componentSpec([component('c', 2, { cpu: '1' })], []),
      want: {},
      karmada: {},
    },
    {
      name: 'a component with zero replicas is skipped; one without requests still runs pods',
      spec: componentSpec(
        [component('idle', 0, { cpu: '8' }), component('sidecar', 2), component('main', 1, { cpu: '1' })],
        ['m1'],
      ),
      want: { cpu: '1', pods: '3' },
      karmada: { cpu: '1' },
    },
    {
      name: 'limits: per-replica limits × Σ scheduled replicas, as limits.<name>',
      spec: replicaSpec({ cpu: '250m', memory: '128Mi' }, { m1: 2, m2: 1 }),
      options: { replicaLimits: { cpu: '500m', memory: '256Mi', 'nvidia.com/gpu': '0' } },
      want: { cpu: '750m', 'limits.cpu': '1500m', 'limits.memory': '768Mi', memory: '384Mi', pods: '3' },
      karmada: { cpu: '750m', memory: '384Mi' },
    },
    {
      name: 'limits of components: per component, × its replicas, × clusters',
      spec: componentSpec([component('jm', 1, { cpu: '1' }), component('tm', 2, { cpu: '2' })], ['m1', 'm2']),
      options: { componentLimits: { jm: { cpu: '2' }, tm: { cpu: '4', memory: '1Gi' } } },
      want: { cpu: '10', 'limits.cpu': '20', 'limits.memory': '4Gi', pods: '6' },
      karmada: { cpu: '10' },
    },
    {
      name: 'replicaLimits do not apply to a component binding (componentLimits do)',
      spec: componentSpec([component('c', 1, { cpu: '1' })], ['m1']),
      options: { replicaLimits: { cpu: '2' } },
      want: { cpu: '1', pods: '1' },
      karmada: { cpu: '1' },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const usage = calculateResourceUsage(row.spec, row.options);
      assert.deepEqual(usage, row.want);
      assert.deepEqual(withoutUsageAdditions(usage), row.karmada);
    });
  }

  it('marks our additions: pods and limits.* (not Karmada names)', () => {
    assert.deepEqual(['pods', 'limits.cpu', 'cpu', 'requests.cpu', 'nvidia.com/gpu'].map(isUsageAddition), [
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('an unknown option fails loudly (a typo is not silently ignored)', () => {
    assert.throws(
      () => calculateResourceUsage(FLINK, { replicaLimit: { cpu: '1' } } as ResourceUsageOptions),
      (e: unknown) => e instanceof ResourceUsageOptionsError && e.option === 'replicaLimit',
    );
  });

  it('a value that is not a quantity is a bug: QuantityError naming the resource', () => {
    assert.throws(() => calculateResourceUsage(replicaSpec({ cpu: 'lots' }, { m1: 1 })), QuantityError);
    assert.throws(() => calculateResourceUsage(replicaSpec({ cpu: 'lots' }, { m1: 1 })), /resource cpu/);
  });
});

describe('calculateComponentsUsage', () => {
  const rows: {
    name: string;
    components: Component[];
    componentLimits?: Record<string, ResourceList>;
    want: ResourceList;
  }[] = [
    {
      name: 'seed: one set of the Flink components is cpu 3, memory 3072m (what each target cluster runs) and 2 pods',
      components: FLINK.components!,
      want: { cpu: '3', memory: '3072m', pods: '2' },
    },
    {
      name: 'Karmada webhook_test components: 2 × 25m + 30m = 80m per set',
      components: [component('comp1', 2, { cpu: '25m' }), component('comp2', 1, { cpu: '30m' })],
      want: { cpu: '80m', pods: '3' },
    },
    {
      name: 'a component with zero replicas is skipped; one without requests still counts its pods',
      components: [component('idle', 0, { cpu: '8' }), component('sidecar', 2), component('main', 1, { cpu: '1' })],
      want: { cpu: '1', pods: '3' },
    },
    {
      name: 'componentLimits: limits.<name> per component × its replicas',
      components: [component('jm', 1, { cpu: '1' }), component('tm', 2, { cpu: '2' })],
      componentLimits: { jm: { cpu: '2' }, tm: { cpu: '4', memory: '1Gi' } },
      want: { cpu: '5', 'limits.cpu': '10', 'limits.memory': '2Gi', pods: '3' },
    },
    {
      name: 'no components: nothing',
      components: [],
      want: {},
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const set = calculateComponentsUsage(
        row.components,
        row.componentLimits ? { componentLimits: row.componentLimits } : {},
      );
      assert.deepEqual(set, row.want);
    });
  }

  it('calculateResourceUsage of a component binding is one set × the scheduled clusters', () => {
    const spec = componentSpec(FLINK.components!, ['m1', 'm2', 'm3']);
    assert.deepEqual(calculateComponentsUsage(spec.components!), { cpu: '3', memory: '3072m', pods: '2' });
    assert.deepEqual(calculateResourceUsage(spec), { cpu: '9', memory: '9216m', pods: '6' });
  });
});
