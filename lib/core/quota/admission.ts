/**
 * FederatedResourceQuota admission of one binding's usage change (Karmada's ResourceBinding
 * validating webhook, `pkg/webhook/resourcebinding/validating.go`, gate `FederatedQuotaEnforcement`):
 * charge `usage(new) − usage(old)` to every quota of the namespace, or refuse it with
 * `QuotaExceeded`. The caller writes the returned `overallUsed` values (Karmada's webhook writes them
 * itself) and maps a denial to the binding's `Scheduled=False/QuotaExceeded` condition.
 */
import {
  compareQuantities,
  formatQuantity,
  isZeroQuantity,
  type Quantity,
  subtractQuantities,
  ZERO_QUANTITY,
} from '../../api/quantity.ts';
import type { ResourceList } from '../model/types.ts';
import { isEnforceableQuotaKey, usageForQuotaKeys } from './keys.ts';
import { addQuantities } from '../../api/quantity.ts';
import { atLeastZero, formatResourceList, quantityOf } from './resource-list.ts';

/** Karmada's `util.QuotaExceededReason` / `BindingReasonQuotaExceeded`. */
export const QUOTA_EXCEEDED_REASON = 'QuotaExceeded';

/** One FederatedResourceQuota as admission reads it: `spec.overall` and `status.overallUsed`. */
export interface QuotaUsageView {
  namespace: string;
  name: string;
  overall: ResourceList;
  overallUsed: ResourceList;
}

/** A quota whose `status.overallUsed` the admitted change moves, and its new value. */
export interface QuotaUsageUpdate {
  namespace: string;
  name: string;
  overallUsed: ResourceList;
}

/** The change is refused: the first quota and resource (in name order) it would push over the limit. */
export interface QuotaDenial {
  allowed: false;
  reason: typeof QUOTA_EXCEEDED_REASON;
  namespace: string;
  name: string;
  resource: string;
  /** The usage the change would lead to (canonical quantity). */
  requested: string;
  /** The quota's `spec.overall` for the resource (canonical quantity). */
  limit: string;
  /** Karmada's text: `FederatedResourceQuota(ns/name) exceeded for resource R: requested sum X, limit Y.` */
  message: string;
}

/** What {@link admitUsageChange} decides. */
export type QuotaAdmission = { allowed: true; updates: QuotaUsageUpdate[] } | QuotaDenial;

/** What {@link admitUsageChange} decides on. */
export interface UsageChange {
  /** Every FederatedResourceQuota of the binding's namespace. */
  quotas: readonly QuotaUsageView[];
  /** The binding's usage before (`calculateResourceUsage(old)`, `{}` for a new binding). */
  from: ResourceList;
  /** The binding's usage after (`{}` for a deleted one). */
  to: ResourceList;
  /**
   * False: apply the change without checking the limits — for undoing a charge whose binding write did
   * not follow, which puts back what the members may still run even when the room it gave was taken
   * meanwhile (default true).
   */
  enforce?: boolean;
}

/** `a` before `b` (name, then namespace): the order quotas are listed and checked in. */
function byName(a: QuotaUsageView, b: QuotaUsageView): number {
  const x = `${a.name}\u0000${a.namespace}`;
  const y = `${b.name}\u0000${b.namespace}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Admits a change of one binding's usage from `from` to `to` against the quotas of its namespace.
 *
 * Per quota, in name order (the order the API lists them): the delta is the usage as the quota's
 * `spec.overall` keys read it ({@link usageForQuotaKeys}: `cpu` / `requests.cpu` the requests,
 * `limits.cpu` the limits, `pods` the pods — Karmada #7864 fixed) after minus before. A quota with
 * no `overall` keys, or whose keys the change leaves untouched, is skipped (no update). Otherwise
 * next = `overallUsed` + delta for every enforceable key (a negative result is clamped to zero; keys
 * of `overallUsed` outside `overall` are dropped, as the recompute drops them), and the change is
 * DENIED at the first resource, in name order, whose delta is positive and whose next usage exceeds
 * the limit (equal is allowed). A denial stops everything: no quota is updated. Allowed ⇒ one update
 * per quota the change touches.
 *
 * Deliberate difference from Karmada: Karmada checks every resource of the whole new `overallUsed`,
 * so once a namespace is over a lowered limit every quota-relevant change touching that quota is
 * denied — even a scale-down. Here a change that lowers (or does not raise) a resource's usage is
 * always allowed; only raising a resource past its limit is refused. Also, Karmada sums through
 * `util.Resource`, which rounds memory and extended resources up to whole units and cpu to
 * millicores; the sums here are exact.
 *
 * Throws `QuantityError` on a value that is not a quantity.
 *
 * @example
 * admitUsageChange({
 *   quotas: [{ namespace: 'ns', name: 'team', overall: { cpu: '150m' }, overallUsed: { cpu: '0' } }],
 *   from: {},
 *   to: { cpu: '200m', pods: '1' },
 * }).message; // 'FederatedResourceQuota(ns/team) exceeded for resource cpu: requested sum 200m, limit 150m.'
 */
export function admitUsageChange(change: UsageChange): QuotaAdmission {
  const updates: QuotaUsageUpdate[] = [];
  for (const quota of [...change.quotas].sort(byName)) {
    const keys = Object.keys(quota.overall).filter(isEnforceableQuotaKey).sort();
    const before = usageForQuotaKeys(change.from, keys);
    const after = usageForQuotaKeys(change.to, keys);
    const delta = new Map(keys.map((k) => [k, subtractQuantities(quantityOf(k, after[k]), quantityOf(k, before[k]))]));
    if ([...delta.values()].every(isZeroQuantity)) continue;

    const next = new Map<string, Quantity>();
    for (const key of keys) {
      const d = delta.get(key)!;
      const used = atLeastZero(addQuantities(quantityOf(key, quota.overallUsed[key]), d));
      next.set(key, used);
      const limit = quantityOf(key, quota.overall[key]);
      if (change.enforce !== false && compareQuantities(d, ZERO_QUANTITY) > 0 && compareQuantities(used, limit) > 0) {
        return denial(quota, key, formatQuantity(used), formatQuantity(limit));
      }
    }
    updates.push({ namespace: quota.namespace, name: quota.name, overallUsed: formatResourceList(next) });
  }
  return { allowed: true, updates };
}

function denial(quota: QuotaUsageView, resource: string, requested: string, limit: string): QuotaDenial {
  return {
    allowed: false,
    reason: QUOTA_EXCEEDED_REASON,
    namespace: quota.namespace,
    name: quota.name,
    resource,
    requested,
    limit,
    message: `FederatedResourceQuota(${quota.namespace}/${quota.name}) exceeded for resource ${resource}: requested sum ${requested}, limit ${limit}.`,
  };
}

/** The binding condition a denial leads to (Karmada's scheduler `getConditionByError`). */
export interface QuotaExceededCondition {
  type: 'Scheduled';
  status: 'False';
  reason: typeof QUOTA_EXCEEDED_REASON;
  message: string;
}

/**
 * The `Scheduled=False/QuotaExceeded` condition for a denied placement; the scheduler retries the
 * binding. Pass the denial's `message`; Karmada's own condition carries the apiserver's wrapping of
 * the webhook denial, which {@link webhookDenialMessage} reproduces.
 */
export function quotaExceededCondition(message: string): QuotaExceededCondition {
  return { type: 'Scheduled', status: 'False', reason: QUOTA_EXCEEDED_REASON, message };
}

/**
 * A webhook denial as the apiserver words it, which is the message of Karmada's condition:
 * `admission webhook "resourcebinding.karmada.io" denied the request: <message>`.
 */
export function webhookDenialMessage(message: string): string {
  return `admission webhook "resourcebinding.karmada.io" denied the request: ${message}`;
}
