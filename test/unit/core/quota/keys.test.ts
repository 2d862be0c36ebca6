/**
 * How a FederatedResourceQuota's `spec.overall` keys read a usage, as Kubernetes' ResourceQuota does
 * (the Karmada #7864 fix: `requests.*` / `limits.*` keys are enforced instead of silently dropped).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isEnforceableQuotaKey, usageForQuotaKeys } from '../../../../lib/core/quota/index.ts';
import type { ResourceList } from '../../../../lib/core/model/types.ts';

const USAGE: ResourceList = { cpu: '3', memory: '3072m', 'nvidia.com/gpu': '2', pods: '2' };
const WITH_LIMITS: ResourceList = { ...USAGE, 'limits.cpu': '6', 'limits.memory': '4Gi' };

describe('usageForQuotaKeys', () => {
  const rows: { name: string; usage: ResourceList; keys: string[]; want: ResourceList }[] = [
    {
      name: 'Karmada: a bare key reads the request sum of the same name',
      usage: USAGE,
      keys: ['cpu', 'memory'],
      want: { cpu: '3', memory: '3072m' },
    },
    {
      name: '#7864 fix: requests.cpu / requests.memory read the request sums, like cpu / memory',
      usage: USAGE,
      keys: ['requests.cpu', 'requests.memory', 'cpu'],
      want: { 'requests.cpu': '3', 'requests.memory': '3072m', cpu: '3' },
    },
    {
      name: 'extended resources: nvidia.com/gpu and requests.nvidia.com/gpu both read the gpu requests',
      usage: USAGE,
      keys: ['nvidia.com/gpu', 'requests.nvidia.com/gpu'],
      want: { 'nvidia.com/gpu': '2', 'requests.nvidia.com/gpu': '2' },
    },
    {
      name: '#7864 fix: limits.cpu reads the limit sum when limits were computed',
      usage: WITH_LIMITS,
      keys: ['limits.cpu', 'limits.memory', 'requests.cpu'],
      want: { 'limits.cpu': '6', 'limits.memory': '4Gi', 'requests.cpu': '3' },
    },
    {
      name: 'approximation: limits.cpu falls back to the request sum when no limit was computed for cpu',
      usage: { ...USAGE, 'limits.memory': '4Gi' },
      keys: ['limits.cpu', 'limits.memory'],
      want: { 'limits.cpu': '3', 'limits.memory': '4Gi' },
    },
    {
      name: 'our addition: pods reads the pod count',
      usage: USAGE,
      keys: ['pods'],
      want: { pods: '2' },
    },
    {
      name: 'not computable from a binding (object counts, services, storage): absent, not enforced',
      usage: USAGE,
      keys: ['count/deployments.apps', 'services', 'configmaps', 'requests.storage', 'persistentvolumeclaims'],
      want: {},
    },
    {
      name: 'a computable key with no usage is absent (zero), and zero entries of the usage are not returned',
      usage: { cpu: '0', pods: '1' },
      keys: ['cpu', 'memory', 'requests.ephemeral-storage', 'pods'],
      want: { pods: '1' },
    },
    {
      name: 'a limits.* usage entry is not a request: cpu does not read limits.cpu',
      usage: { 'limits.cpu': '6' },
      keys: ['cpu', 'requests.cpu'],
      want: {},
    },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(usageForQuotaKeys(row.usage, row.keys), row.want));
});

describe('isEnforceableQuotaKey', () => {
  const rows: { key: string; want: boolean }[] = [
    { key: 'cpu', want: true },
    { key: 'requests.memory', want: true },
    { key: 'limits.ephemeral-storage', want: true },
    { key: 'requests.hugepages-2Mi', want: true },
    { key: 'nvidia.com/gpu', want: true },
    { key: 'requests.nvidia.com/gpu', want: true },
    { key: 'pods', want: true },
    { key: 'count/deployments.apps', want: false },
    { key: 'count/pods', want: false },
    { key: 'services', want: false },
    { key: 'requests.storage', want: false },
    { key: 'requests.requests.cpu', want: false },
  ];
  for (const row of rows) {
    it(`${row.key}: ${row.want ? 'computed from bindings (enforced)' : 'not computable (not enforced)'}`, () =>
      assert.equal(isEnforceableQuotaKey(row.key), row.want));
  }
});
