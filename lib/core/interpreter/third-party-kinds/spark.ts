/**
 * `sparkoperator.k8s.io/v1beta2` SparkApplication, ported from the `componentResource`
 * (`GetComponents`) Lua script of Karmada's built-in customization (added in v1.16.0, unchanged up to
 * f8fdd02, v1.19.0-rc.0+). Spark declares no pod templates; the script derives them:
 *
 * - `driver`: 1 replica; `executor`: `spec.executor.instances` (default 1), raised to
 *   `dynamicAllocation.initialExecutors` / `minExecutors` (default 1 each) when dynamic allocation
 *   is enabled.
 * - `cpu`: `cores` (default 1). `memory`: `memory` (Java notation, default `1g`) plus
 *   `memoryOverhead`, or else `max(memory × factor, 384m)` where the factor is
 *   `spec.memoryOverheadFactor`, else 0.10 for Java/Scala jobs and 0.40 otherwise; summed in the
 *   smaller binary unit and printed with `%f` (`1408.000000Mi`), which Kubernetes then reads as a
 *   quantity (canonically `1408Mi`; `1433.600000Mi` is `1503238553600m`). `gpu.name` gets
 *   `gpu.quantity` when positive.
 * - node claim (`nodeSelector`, `tolerations`, `affinity.nodeAffinity.requiredDuringScheduling…`)
 *   and `priorityClassName` from the driver/executor spec.
 *
 * Where the script raises — no `spec.type`, a memory without a unit (`1024`) or with a unit Kubernetes
 * cannot read (`b` gives `…B`) — this port reads a missing type as non-JVM and leaves `memory` out.
 */
import type { Component, KubeObject, NodeClaim } from '../../model/types.ts';
import { isObject } from '../hooks/requirements.ts';
import { canonicalQuantity } from '../hooks/resource.ts';
import {
  type ComponentRequirements,
  cloneTable,
  get,
  isEmpty,
  isEmptyTable,
  isNil,
  luaNumberText,
  replicaCount,
  stringMap,
  toNum,
  truthy,
} from './lua.ts';

const MIN_MEMORY_OVERHEAD = '384m';
const JVM_DEFAULT_OVERHEAD_FACTOR = 0.1;
const NON_JVM_DEFAULT_OVERHEAD_FACTOR = 0.4;

type Unit = 'B' | 'Ki' | 'Mi' | 'Gi' | 'Ti' | 'Pi';
const UNIT_ORDER: Record<Unit, number> = { B: 0, Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5 };
const UNIT_SCALE: Record<Unit, number> = { B: 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5 };
const JAVA_UNITS: Record<string, Unit> = {
  b: 'B',
  kb: 'Ki',
  k: 'Ki',
  mb: 'Mi',
  m: 'Mi',
  gb: 'Gi',
  g: 'Gi',
  tb: 'Ti',
  t: 'Ti',
  pb: 'Pi',
  p: 'Pi',
};

/** Lua `tostring` of a JSON scalar. */
function luaToString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** `parse_java_memory`: `512m` → 512 Mi, `1.5g` → 1.5 Gi; undefined where the script would fail. */
function parseJavaMemory(value: unknown): { value: number; unit: Unit } | undefined {
  const text = luaToString(value);
  const m = text === undefined ? null : /^(\d+\.?\d*)([a-z]*)$/.exec(text.toLowerCase());
  if (!m) return undefined;
  const unit = JAVA_UNITS[m[2]!];
  return unit ? { value: Number(m[1]), unit } : undefined;
}

function convertUnit(value: number, from: Unit, to: Unit): number {
  return from === to ? value : value * (UNIT_SCALE[from] / UNIT_SCALE[to]);
}

function smallerUnit(a: Unit, b: Unit): Unit {
  return UNIT_ORDER[a] < UNIT_ORDER[b] ? a : b;
}

/** `calculate_total_memory_request`: the `%f<unit>` text, or undefined where the script would fail. */
function totalMemoryRequest(memory: unknown, overhead: unknown, factor: number): string | undefined {
  const mem = parseJavaMemory(memory);
  if (!mem) return undefined;
  let over: { value: number; unit: Unit } | undefined;
  if (truthy(overhead)) {
    over = parseJavaMemory(overhead);
  } else {
    const min = parseJavaMemory(MIN_MEMORY_OVERHEAD)!;
    const unit = smallerUnit(mem.unit, min.unit);
    const computed = convertUnit(mem.value * factor, mem.unit, unit);
    over = { value: Math.max(computed, convertUnit(min.value, min.unit, unit)), unit };
  }
  if (!over) return undefined;
  const unit = smallerUnit(mem.unit, over.unit);
  const total = convertUnit(mem.value, mem.unit, unit) + convertUnit(over.value, over.unit, unit);
  return `${total.toFixed(6)}${unit}`;
}

/** `apply_pod_template(spec.driver | spec.executor, requires)`. */
function applyPodSpec(podSpec: unknown, requires: ComponentRequirements): void {
  if (!isObject(podSpec)) return;
  const nodeSelector = podSpec['nodeSelector'];
  const tolerations = cloneTable(podSpec['tolerations']);
  const affinity = podSpec['affinity'];
  const nodeAffinity = isObject(affinity) ? affinity['nodeAffinity'] : undefined;
  const hardNodeAffinity = isObject(nodeAffinity)
    ? cloneTable(nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution'])
    : undefined;
  if (isObject(nodeSelector) || tolerations !== undefined || hardNodeAffinity !== undefined) {
    const claim: NodeClaim = {};
    if (isObject(nodeSelector) && !isEmptyTable(nodeSelector)) claim.nodeSelector = stringMap(nodeSelector);
    if (Array.isArray(tolerations) && !isEmptyTable(tolerations)) claim.tolerations = tolerations.filter(isObject);
    if (isObject(hardNodeAffinity) && !isEmptyTable(hardNodeAffinity)) claim.hardNodeAffinity = hardNodeAffinity;
    requires.nodeClaim = claim;
  }
  const priority = podSpec['priorityClassName'];
  if (typeof priority === 'string' && !isEmpty(priority)) requires.priorityClassName = priority;
}

function roleRequirements(object: KubeObject, role: 'driver' | 'executor', factor: number): ComponentRequirements {
  const spec = get(object, ['spec', role]);
  const resourceRequest: Record<string, string> = {};
  const cores = get(spec, ['cores']);
  const cpu = canonicalQuantity(truthy(cores) ? cores : 1);
  if (cpu !== undefined) resourceRequest['cpu'] = cpu;
  const memoryText = totalMemoryRequest(
    truthy(get(spec, ['memory'])) ? get(spec, ['memory']) : '1g',
    get(spec, ['memoryOverhead']),
    factor,
  );
  const memory = memoryText === undefined ? undefined : canonicalQuantity(memoryText);
  if (memory !== undefined) resourceRequest['memory'] = memory;
  const gpu = get(spec, ['gpu']);
  if (!isNil(gpu)) {
    const name = get(gpu, ['name']);
    const quantity = toNum(get(gpu, ['quantity']), 0);
    if (typeof name === 'string' && !isEmpty(name) && quantity > 0) {
      const text = canonicalQuantity(luaNumberText(quantity));
      if (text !== undefined) resourceRequest[name] = text;
    }
  }
  const requires: ComponentRequirements = {};
  if (Object.keys(resourceRequest).length > 0) requires.resourceRequest = resourceRequest;
  applyPodSpec(spec, requires);
  return requires;
}

/** SparkApplication `GetComponents`: `driver` then `executor`. */
export function sparkApplicationComponents(object: KubeObject): Component[] {
  const type = get(object, ['spec', 'type']);
  const job = typeof type === 'string' ? type.toLowerCase() : '';
  const defaultFactor =
    job === 'java' || job === 'scala' ? JVM_DEFAULT_OVERHEAD_FACTOR : NON_JVM_DEFAULT_OVERHEAD_FACTOR;
  const factor = toNum(get(object, ['spec', 'memoryOverheadFactor']), defaultFactor);

  let executors = toNum(get(object, ['spec', 'executor', 'instances']), 1);
  if (truthy(get(object, ['spec', 'dynamicAllocation', 'enabled']))) {
    const initial = toNum(get(object, ['spec', 'dynamicAllocation', 'initialExecutors']), 1);
    const min = toNum(get(object, ['spec', 'dynamicAllocation', 'minExecutors']), 1);
    executors = Math.max(executors, initial, min);
  }
  return [
    { name: 'driver', replicas: 1, replicaRequirements: roleRequirements(object, 'driver', factor) },
    {
      name: 'executor',
      replicas: replicaCount(executors, 1),
      replicaRequirements: roleRequirements(object, 'executor', factor),
    },
  ];
}
