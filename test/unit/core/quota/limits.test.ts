/**
 * Per-replica limits of a workload template, for `limits.*` quota keys (ours: Karmada's bindings carry
 * no limits, so a `limits.cpu`-only quota enforced nothing, #7864).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calculateResourceUsage, replicaLimitsOf, usageForQuotaKeys } from '../../../../lib/core/index.ts';

const container = (limits?: Record<string, string>, requests?: Record<string, string>) => ({
  name: 'c',
  image: 'x',
  resources: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) },
});

describe('replicaLimitsOf', () => {
  const deployment = (containers: unknown[], initContainers: unknown[] = []) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    spec: { template: { spec: { containers, initContainers } } },
  });
  for (const [name, template, want] of [
    [
      'app containers are summed',
      deployment([container({ cpu: '300m' }), container({ cpu: '200m', memory: '1Gi' })]),
      { cpu: '500m', memory: '1Gi' },
    ],
    [
      'an init container raises a resource to its own limit',
      deployment([container({ cpu: '100m' })], [container({ cpu: '1' })]),
      { cpu: '1' },
    ],
    ['no limits anywhere: none', deployment([container(undefined, { cpu: '1' })]), undefined],
    [
      'a bare Pod: its own spec',
      { apiVersion: 'v1', kind: 'Pod', spec: { containers: [container({ cpu: '2' })] } },
      { cpu: '2' },
    ],
    [
      'a CronJob: its job template',
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        spec: { jobTemplate: { spec: { template: { spec: { containers: [container({ memory: '64Mi' })] } } } } },
      },
      { memory: '64Mi' },
    ],
    [
      'a custom kind: none (no known pod template)',
      {
        apiVersion: 'example.com/v1',
        kind: 'Thing',
        spec: { template: { spec: { containers: [container({ cpu: '1' })] } } },
      },
      undefined,
    ],
  ] as const) {
    it(name, () => assert.deepEqual(replicaLimitsOf(template as never), want));
  }
  it('limits.cpu of a binding: per-replica limits × scheduled replicas, not the requests', () => {
    const usage = calculateResourceUsage(
      { clusters: [{ name: 'm1', replicas: 2 }], replicaRequirements: { resourceRequest: { cpu: '100m' } } },
      { replicaLimits: { cpu: '300m' } },
    );
    assert.deepEqual(usageForQuotaKeys(usage, ['limits.cpu', 'requests.cpu']), {
      'limits.cpu': '600m',
      'requests.cpu': '200m',
    });
  });
});
