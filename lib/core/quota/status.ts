/**
 * A FederatedResourceQuota's status under enforcement, recomputed from scratch: Karmada's
 * `federated_resource_quota_enforcement_controller.go` (`calculateUsedWithResourceBinding`,
 * `quotaStatus.Overall = quota.Spec.Overall`), which heals whatever the incremental admission
 * charges left behind.
 */
import { addQuantities, type Quantity } from '../../api/quantity.ts';
import type { ResourceList } from '../model/types.ts';
import { isEnforceableQuotaKey, usageForQuotaKeys } from './keys.ts';
import { formatResourceList, quantityOf } from './resource-list.ts';

/** The parts of a FederatedResourceQuota spec the status is made from. */
export interface QuotaOverallSpec {
  overall?: ResourceList;
}

/** `status.overall`: a copy of `spec.overall` (Karmada copies it as it is). */
export function quotaStatusOverall(spec: QuotaOverallSpec): ResourceList {
  return { ...(spec.overall ?? {}) };
}

/**
 * `status.overallUsed` from the usages (`calculateResourceUsage`) of every ResourceBinding in the
 * quota's namespace: per `spec.overall` key, the sum of each usage as that key reads it
 * ({@link usageForQuotaKeys}: `requests.cpu` counts cpu requests, `pods` pods, …). Every enforceable
 * key of `overall` is present, a zero as `"0"`, in name order.
 *
 * Differences from Karmada, on purpose: Karmada sums its usage names and keeps only names that are
 * `spec.overall` keys verbatim, so `requests.*` / `limits.*` / `pods` keys never appear (#7864) and a
 * key with no usage is absent; here those keys are counted and a zero is shown. Keys no binding can
 * tell (`count/deployments.apps`, `services`) stay absent rather than claim a "0" never counted.
 *
 * @example overallUsedFromUsages([{ cpu: '1', pods: '1' }, { cpu: '500m', pods: '1' }], { 'requests.cpu': '4', pods: '10', memory: '1Gi' })
 * // { memory: '0', pods: '2', 'requests.cpu': '1500m' }
 */
export function overallUsedFromUsages(usages: readonly ResourceList[], overall: ResourceList): ResourceList {
  const keys = Object.keys(overall).filter(isEnforceableQuotaKey);
  const totals = new Map<string, Quantity>(keys.map((k) => [k, quantityOf(k, '0')]));
  for (const usage of usages) {
    for (const [key, value] of Object.entries(usageForQuotaKeys(usage, keys))) {
      totals.set(key, addQuantities(totals.get(key)!, quantityOf(key, value)));
    }
  }
  return formatResourceList(totals);
}
