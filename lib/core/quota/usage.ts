/**
 * What one ResourceBinding charges to the FederatedResourceQuotas of its namespace: Karmada's
 * `CalculateResourceUsage` (`pkg/util/helper/binding.go`), exactly, plus two additions of ours that
 * Karmada does not compute — the pod count (`pods`) and, when the caller knows them, the limit sums
 * (`limits.<name>`) — so that quotas on `pods` and `limits.*` can be enforced (Karmada #7864).
 */
import { addQuantities, isZeroQuantity, multiplyQuantity, type Quantity } from '../../api/quantity.ts';
import type { Component, ResourceBindingSpec, ResourceList } from '../model/types.ts';
import { formatResourceList, quantityOf } from './resource-list.ts';

/** The binding fields a usage is computed from (a whole `ResourceBindingSpec` will do). */
export type QuotaBindingSpec = Pick<ResourceBindingSpec, 'clusters' | 'components' | 'replicaRequirements'>;

/** Our addition: the pod-count entry of a usage (Kubernetes' quota name for it). */
export const POD_COUNT_RESOURCE = 'pods';

/** Our addition: the prefix of the limit-sum entries of a usage (`limits.cpu`, `limits.memory`). */
export const LIMITS_PREFIX = 'limits.';

/** Options of {@link calculateResourceUsage}. */
export interface ResourceUsageOptions {
  /**
   * Per-replica limits of a single-template binding (no `spec.components`); adds `limits.<name>`
   * entries. The binding does not carry limits (Karmada's `ReplicaRequirements` has requests only),
   * so the caller reads them from the workload's pod template.
   */
  replicaLimits?: ResourceList;
  /** Per-replica limits by component name, for a binding with `spec.components`. */
  componentLimits?: Readonly<Record<string, ResourceList>>;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['replicaLimits', 'componentLimits']);

/** An option of {@link calculateResourceUsage} that does not exist (a typo fails loudly). */
export class ResourceUsageOptionsError extends Error {
  override readonly name = 'ResourceUsageOptionsError';
  /** The option that does not exist. */
  readonly option: string;
  constructor(option: string) {
    super(`calculateResourceUsage: unknown option "${option}" (known: ${[...OPTION_KEYS].join(', ')})`);
    this.option = option;
  }
}

/** True for the entries of a usage that Karmada's `CalculateResourceUsage` does not produce. */
export function isUsageAddition(resource: string): boolean {
  return resource === POD_COUNT_RESOURCE || resource.startsWith(LIMITS_PREFIX);
}

/**
 * A usage without our additions (`pods`, `limits.*`): exactly what Karmada's `CalculateResourceUsage`
 * returns for the same binding.
 */
export function withoutUsageAdditions(usage: ResourceList): ResourceList {
  return Object.fromEntries(Object.entries(usage).filter(([name]) => !isUsageAddition(name)));
}

/** `per × times` into `into` under `prefix + name`, skipping zero amounts (Karmada's `IsZero` checks). */
function accumulate(into: Map<string, Quantity>, per: ResourceList | undefined, times: number, prefix = ''): void {
  for (const [name, value] of Object.entries(per ?? {})) {
    const q = quantityOf(name, value);
    if (isZeroQuantity(q)) continue;
    const key = prefix + name;
    const total = multiplyQuantity(q, times);
    const existing = into.get(key);
    into.set(key, existing ? addQuantities(existing, total) : total);
  }
}

function scaled(perSet: Map<string, Quantity>, times: number): [string, Quantity][] {
  return [...perSet]
    .map(([name, q]): [string, Quantity] => [name, multiplyQuantity(q, times)])
    .filter(([, q]) => !isZeroQuantity(q));
}

/**
 * The resources one binding uses across its scheduled clusters, as Karmada's `CalculateResourceUsage`:
 * - with `spec.components`: Σ over components of `replicas × resourceRequest` (components with no
 *   replicas or no requests skipped) — one "set" — times the number of scheduled clusters. Per-cluster
 *   replica counts are ignored (Karmada's rule: every target cluster runs a whole set); no clusters ⇒ `{}`;
 * - otherwise: `replicaRequirements.resourceRequest × Σ spec.clusters[].replicas` (scheduled
 *   replicas, not `spec.replicas`); nothing scheduled ⇒ `{}`;
 * - zero amounts are dropped; values are canonical quantities (`1.024 + 2.048` prints `3072m`).
 *
 * Our additions (not Karmada's; drop them with {@link withoutUsageAdditions}, or see them with
 * {@link isUsageAddition}):
 * - `pods`: the number of pods — Σ scheduled replicas, or Σ component replicas × clusters — whether
 *   or not requests are set (a zero count is dropped like any zero);
 * - `limits.<name>`: per-replica limits × the same multiplier, when `replicaLimits` (single template)
 *   or `componentLimits` (components) is given. Each option applies to its own shape only.
 *
 * Throws `QuantityError` on a value that is not a quantity and {@link ResourceUsageOptionsError} on an
 * unknown option.
 *
 * @example
 * // Karmada's FlinkDeployment interpreter: memory "1024m" (Flink's MiB) becomes the quantity 1.024
 * calculateResourceUsage({
 *   clusters: [{ name: 'member1' }],
 *   components: [
 *     { name: 'jobmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1', memory: '1.024' } } },
 *     { name: 'taskmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '2', memory: '2.048' } } },
 *   ],
 * }); // { cpu: '3', memory: '3072m', pods: '2' }
 */
export function calculateResourceUsage(spec: QuotaBindingSpec, options: ResourceUsageOptions = {}): ResourceList {
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) throw new ResourceUsageOptionsError(key);
  const clusters = spec.clusters ?? [];
  const components = spec.components ?? [];

  if (components.length > 0) {
    if (clusters.length === 0) return {};
    return formatResourceList(scaled(componentSet(components, options.componentLimits), clusters.length));
  }

  const scheduled = clusters.reduce((sum, c) => sum + (c.replicas ?? 0), 0);
  if (scheduled === 0) return {};
  const perReplica = new Map<string, Quantity>();
  accumulate(perReplica, spec.replicaRequirements?.resourceRequest, 1);
  accumulate(perReplica, options.replicaLimits, 1, LIMITS_PREFIX);
  perReplica.set(POD_COUNT_RESOURCE, quantityOf(POD_COUNT_RESOURCE, '1'));
  return formatResourceList(scaled(perReplica, scheduled));
}

/**
 * One set of a multi-template workload's components — what each target cluster runs: Σ over components
 * of `replicas × resourceRequest` (Karmada's component aggregation in `CalculateResourceUsage`;
 * components with no replicas or no requests skipped, zero amounts dropped), plus our additions:
 * `pods` (Σ component replicas) and, with `componentLimits` (per-replica limits by component name),
 * `limits.<name>`. {@link calculateResourceUsage} multiplies this by the number of scheduled clusters.
 *
 * @example
 * calculateComponentsUsage([
 *   { name: 'jobmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1', memory: '1.024' } } },
 *   { name: 'taskmanager', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '2', memory: '2.048' } } },
 * ]); // { cpu: '5', memory: '5120m', pods: '3' }
 */
export function calculateComponentsUsage(
  components: readonly Component[],
  options: Pick<ResourceUsageOptions, 'componentLimits'> = {},
): ResourceList {
  return formatResourceList(componentSet(components, options.componentLimits));
}

function componentSet(
  components: readonly Component[],
  componentLimits: ResourceUsageOptions['componentLimits'],
): Map<string, Quantity> {
  const perSet = new Map<string, Quantity>();
  let podsPerSet = 0;
  for (const component of components) {
    if (!component.replicas) continue;
    podsPerSet += component.replicas;
    accumulate(perSet, component.replicaRequirements?.resourceRequest, component.replicas);
    accumulate(perSet, componentLimits?.[component.name], component.replicas, LIMITS_PREFIX);
  }
  if (podsPerSet !== 0) perSet.set(POD_COUNT_RESOURCE, quantityOf(POD_COUNT_RESOURCE, String(podsPerSet)));
  return perSet;
}
