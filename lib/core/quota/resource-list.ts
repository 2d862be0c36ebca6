/**
 * Resource lists (`cpu: 1500m`, `memory: 2Gi`) as exact quantities: sums, differences and the
 * non-zero filter that FederatedResourceQuota usage and admission are built from. Every result value
 * is Go's canonical `Quantity.String()` of the exact amount — no floats, no rounding.
 */
import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  isZeroQuantity,
  type Quantity,
  QuantityError,
  readQuantity,
  subtractQuantities,
  ZERO_QUANTITY,
} from '../../api/quantity.ts';
import type { ResourceList } from '../model/types.ts';

/** One entry of a resource list as a quantity; a value that is not one is a bug upstream. */
export function quantityOf(resource: string, value: string | undefined): Quantity {
  if (value === undefined) return ZERO_QUANTITY;
  const q = readQuantity(value);
  if (!q) throw new QuantityError(`resource ${resource}: ${JSON.stringify(value)} is not a quantity`);
  return q;
}

/** The greater of `q` and zero (a usage never goes below nothing). */
export function atLeastZero(q: Quantity): Quantity {
  return compareQuantities(q, ZERO_QUANTITY) < 0 ? ZERO_QUANTITY : q;
}

/** Entries by resource name, in name order, as canonical text. */
export function formatResourceList(entries: Iterable<[string, Quantity]>): ResourceList {
  const out: ResourceList = {};
  for (const [name, q] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[name] = formatQuantity(q);
  return out;
}

function combine(a: ResourceList, b: ResourceList, op: (x: Quantity, y: Quantity) => Quantity): ResourceList {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return formatResourceList([...names].map((n) => [n, op(quantityOf(n, a[n]), quantityOf(n, b[n]))]));
}

/**
 * `a + b` per resource, exactly, over the names of either list (a zero sum stays, as `"0"`).
 * Throws `QuantityError` when a value is not a quantity.
 *
 * @example addResourceLists({ cpu: '500m' }, { cpu: '1', memory: '1Gi' }) // { cpu: '1500m', memory: '1Gi' }
 */
export function addResourceLists(a: ResourceList, b: ResourceList): ResourceList {
  return combine(a, b, addQuantities);
}

/**
 * `a − b` per resource, exactly, over the names of either list; results may be negative or zero (a
 * delta, as Karmada's webhook `calculateDelta` computes before dropping zeros — see
 * {@link nonZeroResources}). Throws `QuantityError` when a value is not a quantity.
 *
 * @example subtractResourceLists({ cpu: '1' }, { cpu: '250m', memory: '1Gi' }) // { cpu: '750m', memory: '-1Gi' }
 */
export function subtractResourceLists(a: ResourceList, b: ResourceList): ResourceList {
  return combine(a, b, subtractQuantities);
}

/**
 * The entries whose amount is not zero (negative ones stay), values as given. Throws `QuantityError`
 * when a value is not a quantity.
 *
 * @example nonZeroResources({ cpu: '0', memory: '-1Gi', pods: '0m' }) // { memory: '-1Gi' }
 */
export function nonZeroResources(list: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [name, value] of Object.entries(list)) if (!isZeroQuantity(quantityOf(name, value))) out[name] = value;
  return out;
}
