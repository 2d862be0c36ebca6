/**
 * Karmada's `util.Resource` (`pkg/util/resource.go`): the int64 accumulator the interpreter sums pod
 * requests into, and its `ResourceList()` rendering. Amounts are exact (BigInt): cpu in millicores
 * (`Quantity.MilliValue()`, rounded up), every other resource in whole units (`Quantity.Value()`,
 * rounded up). Output quantities print as Go's `resource.Quantity.String()` would
 * (`NewMilliQuantity(m, DecimalSI)` for cpu, `NewQuantity(n, BinarySI)` for memory, ephemeral-storage
 * and hugepages, `NewQuantity(n, DecimalSI)` for pods and other scalar resources).
 *
 * A value that is not a quantity (a malformed string, a boolean, an object) is skipped: Karmada's typed
 * conversion would fail the whole interpretation, whereas this interpreter never throws and counts
 * the resources it can read.
 */
import { isQualifiedName } from '../../../util/validation.ts';
import { formatQuantity, type Quantity, readQuantity, scaledValue } from '../../../api/quantity.ts';
import type { ResourceList } from '../../model/types.ts';

const CPU = 'cpu';
const MEMORY = 'memory';
const PODS = 'pods';
const EPHEMERAL_STORAGE = 'ephemeral-storage';
const HUGEPAGES_PREFIX = 'hugepages-';
const ATTACHABLE_VOLUMES_PREFIX = 'attachable-volumes-';
const DEFAULT_NAMESPACE_PREFIX = 'kubernetes.io/';
const REQUESTS_PREFIX = 'requests.';

/**
 * The canonical text of a quantity value (`Quantity.String()` after a JSON round trip), or undefined
 * when it does not parse: `1` → `1`, `0.5` → `500m`, `1.024` → `1.024` (canonical input is kept as
 * written), `1408.000000Mi` → `1408Mi`.
 */
export function canonicalQuantity(value: unknown): string | undefined {
  const q = readQuantity(value);
  return q ? formatQuantity(q) : undefined;
}

/** `IsNativeResource`: unprefixed names and `*kubernetes.io/` names. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes(DEFAULT_NAMESPACE_PREFIX);
}

/** `IsExtendedResourceName`: domain-prefixed, not native, and a qualified name as a quota key. */
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isQualifiedName(`${REQUESTS_PREFIX}${name}`).length === 0;
}

/** `lifted.IsHugePageResourceName`. */
export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGEPAGES_PREFIX);
}

/**
 * `lifted.IsScalarResourceName`: extended resources (`nvidia.com/gpu`), hugepages, prefixed native
 * resources and attachable volumes. Other names (`storage`, `foo`) are not tracked.
 */
export function isScalarResourceName(name: string): boolean {
  return (
    isExtendedResourceName(name) ||
    isHugePageResourceName(name) ||
    name.includes(DEFAULT_NAMESPACE_PREFIX) ||
    name.startsWith(ATTACHABLE_VOLUMES_PREFIX)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The amount `util.Resource` keeps for a resource: millicores for cpu, whole units otherwise. */
function amountOf(name: string, q: Quantity): bigint {
  return scaledValue(q, name === CPU ? -3 : 0);
}

/** Karmada's `util.Resource`: exact int64-style amounts per tracked resource. */
export class ResourceAccumulator {
  /** cpu, in millicores. */
  milliCPU = 0n;
  /** memory, in bytes. */
  memory = 0n;
  /** ephemeral-storage, in bytes. */
  ephemeralStorage = 0n;
  /** pods. */
  allowedPodNumber = 0n;
  /** Scalar resources (`nvidia.com/gpu`, `hugepages-2Mi`, …), in whole units. */
  readonly scalarResources = new Map<string, bigint>();

  /** `Resource.Add`: adds every tracked resource of a resource list (untracked names are ignored). */
  add(list: unknown): this {
    if (!isObject(list)) return this;
    for (const [name, raw] of Object.entries(list)) {
      const q = readQuantity(raw);
      if (!q) continue;
      const amount = amountOf(name, q);
      switch (name) {
        case CPU:
          this.milliCPU += amount;
          break;
        case MEMORY:
          this.memory += amount;
          break;
        case PODS:
          this.allowedPodNumber += amount;
          break;
        case EPHEMERAL_STORAGE:
          this.ephemeralStorage += amount;
          break;
        default:
          if (isScalarResourceName(name)) {
            this.scalarResources.set(name, (this.scalarResources.get(name) ?? 0n) + amount);
          }
      }
    }
    return this;
  }

  /** `Resource.SetMaxResource`: raises each tracked resource to the list's amount where that is larger. */
  setMax(list: unknown): this {
    if (!isObject(list)) return this;
    for (const [name, raw] of Object.entries(list)) {
      const q = readQuantity(raw);
      if (!q) continue;
      const amount = amountOf(name, q);
      switch (name) {
        case CPU:
          if (amount > this.milliCPU) this.milliCPU = amount;
          break;
        case MEMORY:
          if (amount > this.memory) this.memory = amount;
          break;
        case EPHEMERAL_STORAGE:
          if (amount > this.ephemeralStorage) this.ephemeralStorage = amount;
          break;
        case PODS:
          if (amount > this.allowedPodNumber) this.allowedPodNumber = amount;
          break;
        default:
          if (isScalarResourceName(name) && amount > (this.scalarResources.get(name) ?? 0n)) {
            this.scalarResources.set(name, amount);
          }
      }
    }
    return this;
  }

  /**
   * `Resource.ResourceList`: the positive amounts as canonical quantities, keys sorted (as Go marshals
   * a map); undefined when nothing is positive.
   */
  resourceList(): ResourceList | undefined {
    const entries: [string, string][] = [];
    if (this.milliCPU > 0n)
      entries.push([CPU, formatQuantity({ unscaled: this.milliCPU, scale: 3, format: 'DecimalSI' })]);
    if (this.memory > 0n)
      entries.push([MEMORY, formatQuantity({ unscaled: this.memory, scale: 0, format: 'BinarySI' })]);
    if (this.ephemeralStorage > 0n) {
      entries.push([
        EPHEMERAL_STORAGE,
        formatQuantity({ unscaled: this.ephemeralStorage, scale: 0, format: 'BinarySI' }),
      ]);
    }
    if (this.allowedPodNumber > 0n) {
      entries.push([PODS, formatQuantity({ unscaled: this.allowedPodNumber, scale: 0, format: 'DecimalSI' })]);
    }
    for (const [name, amount] of this.scalarResources) {
      if (amount <= 0n) continue;
      const format = isHugePageResourceName(name) ? 'BinarySI' : 'DecimalSI';
      entries.push([name, formatQuantity({ unscaled: amount, scale: 0, format })]);
    }
    if (entries.length === 0) return undefined;
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }
}
