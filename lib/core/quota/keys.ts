/**
 * How the keys of a FederatedResourceQuota's `spec.overall` read a usage, as Kubernetes'
 * ResourceQuota reads them: `cpu` and `requests.cpu` are both the request sum, `limits.cpu` the limit
 * sum, `pods` the pod count. Karmada matches `spec.overall` keys against its usage names verbatim, so
 * `requests.*` and `limits.*` keys never see any usage and are silently not enforced (Karmada #7864);
 * here they are.
 */
import { isZeroQuantity } from '../../api/quantity.ts';
import type { ResourceList } from '../model/types.ts';
import { quantityOf } from './resource-list.ts';
import { LIMITS_PREFIX, POD_COUNT_RESOURCE } from './usage.ts';

const REQUESTS_PREFIX = 'requests.';
const NATIVE_COMPUTE = new Set(['cpu', 'memory', 'ephemeral-storage']);

/**
 * A resource a pod requests: cpu, memory, ephemeral-storage, `hugepages-<size>`, or an extended
 * resource (`nvidia.com/gpu`: a domain-prefixed name outside `kubernetes.io/`). Object counts
 * (`count/deployments.apps`) are not.
 */
function isComputeResource(name: string): boolean {
  if (NATIVE_COMPUTE.has(name) || name.startsWith('hugepages-')) return true;
  return (
    name.includes('/') &&
    !name.startsWith('count/') &&
    !name.includes('kubernetes.io/') &&
    !name.startsWith(REQUESTS_PREFIX) &&
    !name.startsWith(LIMITS_PREFIX)
  );
}

/** The usage entry a quota key reads, or undefined when the key is not computed from a binding. */
function lookup(usage: ResourceList, key: string): { value: string | undefined } | undefined {
  if (key === POD_COUNT_RESOURCE) return { value: usage[POD_COUNT_RESOURCE] };
  if (key.startsWith(REQUESTS_PREFIX)) {
    const name = key.slice(REQUESTS_PREFIX.length);
    return isComputeResource(name) ? { value: usage[name] } : undefined;
  }
  if (key.startsWith(LIMITS_PREFIX)) {
    const name = key.slice(LIMITS_PREFIX.length);
    return isComputeResource(name) ? { value: usage[key] ?? usage[name] } : undefined;
  }
  return isComputeResource(key) ? { value: usage[key] } : undefined;
}

/**
 * True for a quota key a binding's usage gives an amount for (so it is enforced here): `pods`, a
 * compute resource (`cpu`, `memory`, `ephemeral-storage`, `hugepages-<size>`, `nvidia.com/gpu`) bare
 * or under `requests.` / `limits.`. False for the keys a binding cannot tell — object counts
 * (`count/deployments.apps`, `services`, `configmaps`), storage (`requests.storage`,
 * `persistentvolumeclaims`) — which are therefore NOT enforced.
 */
export function isEnforceableQuotaKey(key: string): boolean {
  return lookup({}, key) !== undefined;
}

/**
 * A usage (from `calculateResourceUsage`) as the given quota keys see it, like Kubernetes'
 * ResourceQuota:
 * - `cpu` and `requests.cpu` (likewise memory, ephemeral-storage, hugepages, extended resources such
 *   as `nvidia.com/gpu` / `requests.nvidia.com/gpu`) are the request sum;
 * - `limits.cpu` is the limit sum (the usage's `limits.cpu` entry). When the usage has no such entry
 *   — limits were not passed to `calculateResourceUsage`, or the workload sets none for that
 *   resource — it falls back to the request sum. An approximation: Kubernetes defaults a missing
 *   request from the limit, so limits ≥ requests, and the request sum is a lower bound of the limit
 *   sum (a pod without a limit would be refused by a Kubernetes quota on `limits.*`; here it counts
 *   its requests);
 * - `pods` is the pod count;
 * - keys that cannot be computed from a binding (see {@link isEnforceableQuotaKey}) are absent: not
 *   enforced.
 *
 * Only non-zero amounts are returned (absent means zero or not computed), values as in the usage.
 * This fixes Karmada #7864, where `requests.*` and `limits.*` keys were silently dropped.
 *
 * @example
 * usageForQuotaKeys({ cpu: '3', memory: '3072m', pods: '2' }, ['requests.cpu', 'limits.memory', 'pods', 'services'])
 * // { 'requests.cpu': '3', 'limits.memory': '3072m', pods: '2' }
 */
export function usageForQuotaKeys(usage: ResourceList, keys: readonly string[]): ResourceList {
  const out: ResourceList = {};
  for (const key of keys) {
    const value = lookup(usage, key)?.value;
    if (value !== undefined && !isZeroQuantity(quantityOf(key, value))) out[key] = value;
  }
  return out;
}
