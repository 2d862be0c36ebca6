/**
 * A FederatedResourceQuota's recomputed status (Karmada's enforcement controller:
 * `calculateUsedWithResourceBinding`, `quotaStatus.Overall = quota.Spec.Overall`), with the #7864 fix.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calculateResourceUsage, overallUsedFromUsages, quotaStatusOverall } from '../../../../lib/core/quota/index.ts';
import type { ResourceList } from '../../../../lib/core/model/types.ts';
import { component, componentSpec, replicaSpec } from './factories.ts';

const BINDINGS: ResourceList[] = [
  calculateResourceUsage(replicaSpec({ cpu: '500m', memory: '1Gi' }, { m1: 2 })),
  calculateResourceUsage(
    componentSpec(
      [
        component('jobmanager', 1, { cpu: '1', memory: '1.024' }),
        component('taskmanager', 1, { cpu: '2', memory: '2.048' }),
      ],
      ['m1'],
    ),
  ),
  calculateResourceUsage(replicaSpec({ cpu: '1' })), // not scheduled: uses nothing
];

describe('overallUsedFromUsages', () => {
  const rows: { name: string; usages: ResourceList[]; overall: ResourceList; want: ResourceList }[] = [
    {
      name: "Karmada: the namespace's bindings summed, for the overall keys only",
      usages: BINDINGS,
      overall: { cpu: '10', memory: '10Gi' },
      want: { cpu: '4', memory: '2147483651072m' },
    },
    {
      name: '#7864 fix: requests.*, limits.* (from requests when no limits) and pods keys are counted',
      usages: BINDINGS,
      overall: { 'requests.cpu': '10', 'limits.cpu': '20', pods: '10' },
      want: { 'limits.cpu': '4', pods: '4', 'requests.cpu': '4' },
    },
    {
      name: 'every enforceable key is present, a zero as "0" (Karmada leaves it out)',
      usages: BINDINGS,
      overall: { cpu: '10', 'nvidia.com/gpu': '4', 'requests.ephemeral-storage': '1Ti' },
      want: { cpu: '4', 'nvidia.com/gpu': '0', 'requests.ephemeral-storage': '0' },
    },
    {
      name: 'keys no binding can tell (object counts, services) stay absent: not enforced',
      usages: BINDINGS,
      overall: { 'count/deployments.apps': '5', services: '2', cpu: '10' },
      want: { cpu: '4' },
    },
    {
      name: 'no bindings: every enforceable key is "0"',
      usages: [],
      overall: { cpu: '1', pods: '3' },
      want: { cpu: '0', pods: '0' },
    },
    {
      name: 'sums are exact in the first format seen (1Gi + 512Mi = 1536Mi)',
      usages: [{ memory: '1Gi' }, { memory: '512Mi' }],
      overall: { memory: '4Gi' },
      want: { memory: '1536Mi' },
    },
  ];
  for (const row of rows)
    it(row.name, () => assert.deepEqual(overallUsedFromUsages(row.usages, row.overall), row.want));
});

describe('quotaStatusOverall', () => {
  it('status.overall is spec.overall as written (Karmada copies it)', () => {
    const overall = { cpu: '1000m', 'count/deployments.apps': '5' };
    const status = quotaStatusOverall({ overall });
    assert.deepEqual(status, overall);
    assert.notEqual(status, overall);
  });
  it('no spec.overall: an empty overall', () => assert.deepEqual(quotaStatusOverall({}), {}));
});
