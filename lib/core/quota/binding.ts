/**
 * A ResourceBinding as the FederatedResourceQuotas of its namespace see it: what the quotas were
 * charged for it, what its spec uses now, whether a new placement would be admitted, and the marks the
 * scheduler writes with a placement. Karmada keeps none of this on the binding (its webhook recomputes
 * the old usage from the old object); here the charge is recorded with the placement (annotation
 * `resourcebinding.serverless-karmada.io/quota-charged`, ours), so the next change is charged from what
 * the quota actually holds.
 */
import { compareQuantities, isQuantityError, parseQuantity } from '../../api/quantity.ts';
import type { KubeObject } from '../../api/object.ts';
import {
  QUOTA_CHARGED_ANNOTATION,
  RENDERED_GENERATION_ANNOTATION,
  REPLICA_LIMITS_ANNOTATION,
} from '../../api/well-known.ts';
import type { ResourceBinding, ResourceList } from '../model/types.ts';
import { canonical } from '../scheduler/reschedule.ts';
import { admitUsageChange, QUOTA_EXCEEDED_REASON, type QuotaUsageView } from './admission.ts';
import { calculateResourceUsage } from './usage.ts';

/** A FederatedResourceQuota object as admission reads it (`spec.overall`, `status.overallUsed`). */
export function quotaUsageView(frq: KubeObject): QuotaUsageView {
  return {
    namespace: frq.metadata.namespace ?? '',
    name: frq.metadata.name ?? '',
    overall: (frq.spec as { overall?: ResourceList } | undefined)?.overall ?? {},
    overallUsed: (frq.status as { overallUsed?: ResourceList } | undefined)?.overallUsed ?? {},
  };
}

/**
 * Karmada's usage of `spec` (`calculateResourceUsage`), with the binding's per-replica limits for
 * `limits.*` keys (annotation `resourcebinding.serverless-karmada.io/replica-limits`, recorded by the
 * detector; absent, `limits.*` are not produced and the keys fall back to requests).
 */
export function usageOf(binding: ResourceBinding, spec: ResourceBinding['spec']): ResourceList {
  const limits = readResourceList(binding.metadata.annotations?.[REPLICA_LIMITS_ANNOTATION]);
  return calculateResourceUsage(spec, limits ? { replicaLimits: limits } : {});
}

/**
 * What the quotas have been charged for a binding: the usage written with its placement, or — for a
 * binding placed before its namespace had a quota — its usage as Karmada computes it.
 */
export function chargedUsageOf(binding: ResourceBinding): ResourceList {
  return readResourceList(binding.metadata.annotations?.[QUOTA_CHARGED_ANNOTATION]) ?? usageOf(binding, binding.spec);
}

/**
 * Whether the namespace's quotas (as `quotas` shows them) would admit `binding` placed on `clusters`
 * instead of what it is charged for now: the scheduler's own check, asked dry by the failovers before
 * they take a last copy away (an eviction whose replacement the quota refuses leaves nothing running).
 */
export function placementAdmitted(
  binding: ResourceBinding,
  clusters: ResourceBinding['spec']['clusters'],
  quotas: readonly KubeObject[],
): boolean {
  if (quotas.length === 0) return true;
  return admitUsageChange({
    quotas: quotas.map(quotaUsageView),
    from: chargedUsageOf(binding),
    to: usageOf(binding, { ...binding.spec, clusters }),
  }).allowed;
}

/**
 * Whether what `binding`'s spec uses now (its placement × its per-replica requests) is covered by what
 * its quotas were charged. Not when requests or replicas went up and the scheduler has not charged the
 * difference yet — or refused it: such a spec is not rolled out (the members would otherwise run more
 * than the quota admitted, with the binding still on its old placement). A binding never charged
 * (its namespace had no quota) is covered.
 */
export function chargeCovers(binding: ResourceBinding): boolean {
  const charged = readResourceList(binding.metadata.annotations?.[QUOTA_CHARGED_ANNOTATION]);
  if (!charged) return true;
  for (const [key, value] of Object.entries(usageOf(binding, binding.spec))) {
    const now = parseQuantity(value);
    const before = parseQuantity(charged[key] ?? '0');
    if (isQuantityError(now) || isQuantityError(before)) continue;
    if (compareQuantities(now, before) > 0) return false;
  }
  return true;
}

/**
 * What a change of a binding's usage from `from` to `to` is charged as: for each key the larger of the
 * two. An increase is charged before the placement is written, as Karmada's webhook admits it; a
 * decrease stays charged until the binder has rendered it ({@link releasableSurplus}) — given back at
 * once, another workload could be placed in the room while the members still run the larger rendering
 * of this one (found by the deterministic simulation: seed 962, 13–14 CPUs rendered against 10 while a
 * scale-down's Works waited for a retry).
 */
export function chargeUntilRendered(from: ResourceList, to: ResourceList): ResourceList {
  const out: ResourceList = { ...from };
  for (const [key, value] of Object.entries(to)) {
    const held = out[key];
    if (held === undefined) {
      out[key] = value;
      continue;
    }
    const a = parseQuantity(held);
    const b = parseQuantity(value);
    if (isQuantityError(a) || isQuantityError(b) || compareQuantities(b, a) > 0) out[key] = value;
  }
  return out;
}

/**
 * The usage to give the quotas back down to, when `binding` is charged more than its spec uses and its
 * Works for this generation are rendered (the binder's {@link RENDERED_GENERATION_ANNOTATION}):
 * its spec's usage. Undefined otherwise — no surplus, or not rendered yet.
 */
export function releasableSurplus(binding: ResourceBinding): ResourceList | undefined {
  const rendered = binding.metadata.annotations?.[RENDERED_GENERATION_ANNOTATION];
  if (rendered === undefined || rendered !== String(binding.metadata.generation ?? '')) return undefined;
  return chargedSurplus(binding);
}

/**
 * The spec's usage when the binding's recorded charge exceeds it on some key (and covers it on every
 * key); undefined when there is nothing to give back.
 */
export function chargedSurplus(binding: ResourceBinding): ResourceList | undefined {
  const charged = readResourceList(binding.metadata.annotations?.[QUOTA_CHARGED_ANNOTATION]);
  if (!charged) return undefined;
  const usage = usageOf(binding, binding.spec);
  let surplus = false;
  for (const key of new Set([...Object.keys(charged), ...Object.keys(usage)])) {
    const held = parseQuantity(charged[key] ?? '0');
    const used = parseQuantity(usage[key] ?? '0');
    if (isQuantityError(held) || isQuantityError(used)) return undefined;
    const order = compareQuantities(held, used);
    if (order < 0) return undefined;
    if (order > 0) surplus = true;
  }
  return surplus ? usage : undefined;
}

/**
 * What the binder writes once it has rendered `binding`'s Works in full: the binding marked as rendered
 * at its generation, when it is charged more than it uses and not marked so already; else undefined
 * (nothing to write).
 */
export function renderedMark(binding: ResourceBinding): ResourceBinding | undefined {
  if (binding.metadata.annotations?.[RENDERED_GENERATION_ANNOTATION] === String(binding.metadata.generation ?? ''))
    return undefined;
  return chargedSurplus(binding) ? withRenderedGeneration(binding) : undefined;
}

/** The binding marked as rendered in full at its generation (see {@link releasableSurplus}). */
export function withRenderedGeneration(binding: ResourceBinding): ResourceBinding {
  return {
    ...binding,
    metadata: {
      ...binding.metadata,
      annotations: {
        ...binding.metadata.annotations,
        [RENDERED_GENERATION_ANNOTATION]: String(binding.metadata.generation ?? ''),
      },
    },
  };
}

/** The binding with the usage its quotas were charged, recorded with its placement. */
export function withChargedUsage(binding: ResourceBinding, usage: ResourceList): ResourceBinding {
  return {
    ...binding,
    metadata: {
      ...binding.metadata,
      annotations: { ...binding.metadata.annotations, [QUOTA_CHARGED_ANNOTATION]: canonical(usage) },
    },
  };
}

/** The binding's last decision was held for quota (`Scheduled=False`, reason `QuotaExceeded`). */
export function wasHeldForQuota(binding: ResourceBinding): boolean {
  return (binding.status?.conditions ?? []).some(
    (c) => c.type === 'Scheduled' && c.status === 'False' && c.reason === QUOTA_EXCEEDED_REASON,
  );
}

/** A resource list stored as JSON in an annotation; undefined when absent or mangled. */
export function readResourceList(text: string | undefined): ResourceList | undefined {
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return undefined;
  }
}
