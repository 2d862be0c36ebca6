/**
 * The general estimator (Karmada `pkg/estimator/client/general.go`) compiled for speed:
 * a cluster's `resourceSummary` and resource models are parsed once per cluster object, a request once
 * per request object, and each (cluster, request) answer is then plain arithmetic. The exact BigInt
 * implementation in `lib/core/clusters/resources.ts` ({@link maxAvailableReplicas}) is the reference; a
 * property test holds the two equal.
 *
 * Units are the estimator's own: millicores for cpu, whole units (rounded up) for everything else.
 * Amounts beyond 2^53 units (petabytes of memory) lose precision in the last digits; estimates are
 * capped at MaxInt32 anyway.
 *
 * On top of Karmada, a cluster can carry **reservations** — capacity promised to bindings scheduled
 * moments ago whose pods the cluster's summary does not show yet (Karmada #6783). Reserved amounts are
 * subtracted from what is available on the summary path; on the resource-model path the estimate is
 * reduced by the replicas the reservations would hold.
 */
import { millisOf, nanoOf, unitsOf } from '../../api/quantity.ts';
import type { Cluster, ResourceList } from '../model/types.ts';
import { MAX_INT32 } from './framework/types.ts';

/** Resource name → amount in estimator units. */
export type Units = Map<string, number>;

/** A cluster's capacity, parsed once. */
export interface ClusterCapacity {
  /** No `status.resourceSummary`: the estimator answers 0. */
  readonly noSummary: boolean;
  /** allocatable.pods − allocated.pods − allocating.pods. */
  readonly allowedPods: number;
  /** allocatable − allocated − allocating per resource present in allocatable. */
  readonly available: Units;
  /** Models path usable: the gate is on and allocatableModelings is non-empty. */
  readonly models?: CompiledModels;
}

interface CompiledModels {
  /**
   * Per resource, the grade minimums in model order (Karmada's `minMap`, `pkg/estimator/client/general.go`:
   * a model without the resource shifts the later ones, as there).
   */
  readonly mins: Map<string, number[]>;
  /** Node counts per model index (0 when absent). */
  readonly counts: number[];
  /** Answers by request key: the models path does not depend on reservations, so it is computed once. */
  readonly answers: Map<string, number | undefined>;
}

/** A per-replica request, parsed once: only resources with a positive whole-unit value count. */
export interface CompiledRequest {
  readonly resources: readonly (readonly [name: string, units: number])[];
  /** The resources as text (`cpu=250,memory=512`): equal requests share cached answers. */
  readonly key: string;
}

/** Capacity promised but not yet visible in the cluster's summary. */
export interface Reservation {
  pods: number;
  units: Units;
}

export interface EstimatorOptions {
  /** Feature gate `CustomizedClusterResourceModeling` (beta, default on). */
  customizedClusterResourceModeling?: boolean;
}

/** Estimator units of an exact nano amount: millicores for cpu, whole units otherwise (rounded up). */
function toUnits(name: string, nano: bigint): number {
  return Number(name === 'cpu' ? millisOf(nano) : unitsOf(nano));
}

function nanoOrUndefined(q: unknown): bigint | undefined {
  if (typeof q !== 'string' && typeof q !== 'number') return undefined;
  try {
    return nanoOf(q);
  } catch {
    return undefined;
  }
}

function nanoMap(list: unknown): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (!list || typeof list !== 'object') return out;
  for (const [name, q] of Object.entries(list as Record<string, unknown>)) {
    const nano = nanoOrUndefined(q);
    if (nano !== undefined) out.set(name, nano);
  }
  return out;
}

function wholeUnits(nano: bigint | undefined): bigint {
  return nano === undefined ? 0n : unitsOf(nano);
}

const capacities = new WeakMap<object, Map<boolean, ClusterCapacity>>();

/** A cluster's capacity as the estimator reads it; cached per cluster object (snapshots are immutable). */
export function clusterCapacity(cluster: Cluster, options: EstimatorOptions = {}): ClusterCapacity {
  const gate = options.customizedClusterResourceModeling ?? true;
  let byGate = capacities.get(cluster);
  if (!byGate) capacities.set(cluster, (byGate = new Map()));
  let capacity = byGate.get(gate);
  if (!capacity) byGate.set(gate, (capacity = compileCapacity(cluster, gate)));
  return capacity;
}

function compileCapacity(cluster: Cluster, gate: boolean): ClusterCapacity {
  const summary = cluster.status?.resourceSummary;
  if (!summary || typeof summary !== 'object') return { noSummary: true, allowedPods: 0, available: new Map() };
  const allocatable = nanoMap(summary.allocatable);
  const allocated = nanoMap(summary.allocated);
  const allocating = nanoMap(summary.allocating);
  const pods =
    wholeUnits(allocatable.get('pods')) - wholeUnits(allocated.get('pods')) - wholeUnits(allocating.get('pods'));
  const available: Units = new Map();
  for (const [name, total] of allocatable) {
    const nano = total - (allocated.get(name) ?? 0n) - (allocating.get(name) ?? 0n);
    // Karmada: `available.Value() <= 0` ⇒ 0 replicas; keep that as a non-positive amount.
    available.set(name, nano > 0n ? toUnits(name, nano) : 0);
  }
  const modelings = Array.isArray(summary.allocatableModelings) ? summary.allocatableModelings : [];
  let models: CompiledModels | undefined;
  if (gate && modelings.length > 0) {
    const mins = new Map<string, number[]>();
    for (const model of cluster.spec?.resourceModels ?? []) {
      for (const range of model.ranges ?? []) {
        let list = mins.get(range.name);
        if (!list) mins.set(range.name, (list = []));
        const nano = nanoOrUndefined(range.min) ?? 0n;
        list.push(toUnits(range.name, nano));
      }
    }
    const modelCount = cluster.spec?.resourceModels?.length ?? 0;
    const counts: number[] = [];
    for (let i = 0; i < modelCount; i++) {
      const c = Number((modelings[i] as { count?: unknown } | undefined)?.count ?? 0);
      counts.push(Number.isFinite(c) && c > 0 ? Math.trunc(c) : 0);
    }
    models = { mins, counts, answers: new Map() };
  }
  return {
    noSummary: false,
    allowedPods: pods > 0n ? Number(pods) : 0,
    available,
    ...(models ? { models } : {}),
  };
}

/**
 * What a cluster's summary shows taken, as the estimate subtracts it: allocated + allocating, in
 * estimator units, for `pods` and for each resource in allocatable (the resources the estimate reads).
 * Undefined without a summary. The scheduler's ledger compares it with what it reserved.
 */
export function summaryUsage(cluster: Cluster): Units | undefined {
  const summary = cluster.status?.resourceSummary;
  if (!summary || typeof summary !== 'object') return undefined;
  const allocatable = nanoMap(summary.allocatable);
  const allocated = nanoMap(summary.allocated);
  const allocating = nanoMap(summary.allocating);
  const usage: Units = new Map([
    ['pods', Number(wholeUnits(allocated.get('pods')) + wholeUnits(allocating.get('pods')))],
  ]);
  for (const name of allocatable.keys()) {
    if (name === 'pods') continue;
    usage.set(name, toUnits(name, (allocated.get(name) ?? 0n) + (allocating.get(name) ?? 0n)));
  }
  return usage;
}

const requests = new WeakMap<object, CompiledRequest>();
const EMPTY_REQUEST: CompiledRequest = { resources: [], key: '' };

/** A per-replica resource request (`replicaRequirements.resourceRequest`), parsed once per object. */
export function compileRequest(request: ResourceList | undefined): CompiledRequest {
  if (!request) return EMPTY_REQUEST;
  let compiled = requests.get(request);
  if (!compiled) {
    const resources: [string, number][] = [];
    for (const [name, q] of Object.entries(request)) {
      const nano = nanoOrUndefined(q);
      // Karmada skips resources whose Value() (whole units, rounded up) is not positive.
      if (nano === undefined || unitsOf(nano) <= 0n) continue;
      resources.push([name, toUnits(name, nano)]);
    }
    compiled = requestFromUnits(resources);
    requests.set(request, compiled);
  }
  return compiled;
}

/** A compiled request from per-replica amounts (estimator units), sorted by resource name and keyed. */
export function requestFromUnits(resources: Iterable<readonly [string, number]>): CompiledRequest {
  const sorted = [...resources].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { resources: sorted, key: sorted.map(([n, u]) => `${n}=${u}`).join(',') };
}

/** Whether a request has anything for capacity to bound (else only pods count). */
export function isEmptyRequest(request: CompiledRequest): boolean {
  return request.resources.length === 0;
}

/**
 * How many replicas of `request` the cluster can still take (the general estimator), less what
 * `reserved` holds. `hasRequest: false` means no replicaRequirements at all (answer: allowed pods).
 */
export function estimateReplicas(
  capacity: ClusterCapacity,
  request: CompiledRequest | undefined,
  reserved?: Reservation,
): number {
  if (capacity.noSummary) return 0;
  const pods = capacity.allowedPods - (reserved?.pods ?? 0);
  if (pods <= 0) return 0;
  if (!request) return Math.min(pods, MAX_INT32);
  let max = pods;
  if (capacity.models) {
    let n: number | undefined;
    if (capacity.models.answers.has(request.key)) n = capacity.models.answers.get(request.key);
    else capacity.models.answers.set(request.key, (n = byModels(capacity.models, request)));
    if (n !== undefined) {
      let held = 0;
      if (reserved) {
        for (const [name, units] of request.resources) {
          const r = reserved.units.get(name) ?? 0;
          if (r > 0) held = Math.max(held, Math.ceil(r / units));
        }
      }
      return Math.min(Math.max(0, n - held), max, MAX_INT32);
    }
  }
  for (const [name, units] of request.resources) {
    const total = capacity.available.get(name);
    if (total === undefined) return 0;
    const available = total - (reserved?.units.get(name) ?? 0);
    if (available <= 0) return 0;
    const n = Math.floor(available / units);
    if (n < max) max = n;
  }
  return Math.min(max, MAX_INT32);
}

function byModels(models: CompiledModels, request: CompiledRequest): number | undefined {
  for (const [name] of request.resources) if (!models.mins.has(name)) return undefined;
  let minIndex = 0;
  for (const [name, units] of request.resources) {
    const mins = models.mins.get(name)!;
    let index = -1;
    for (let i = 0; i < mins.length; i++) {
      if (mins[i]! >= units) {
        index = i;
        break;
      }
    }
    if (index === -1) return 0;
    if (index > minIndex) minIndex = index;
  }
  let total = 0;
  for (let i = minIndex; i < models.counts.length; i++) {
    const count = models.counts[i]!;
    if (count <= 0) continue;
    let perNode = Number.POSITIVE_INFINITY;
    for (const [name, units] of request.resources) {
      const n = Math.floor((models.mins.get(name)![i] ?? 0) / units);
      if (n < perNode) perNode = n;
    }
    if (perNode === Number.POSITIVE_INFINITY) return Number.MAX_SAFE_INTEGER;
    total += count * (perNode === 0 ? 1 : perNode);
  }
  return total;
}

/** Adds `replicas` × `request` (and as many pods) to a reservation. */
export function addToReservation(reservation: Reservation, request: CompiledRequest, replicas: number): void {
  if (replicas <= 0) return;
  reservation.pods += replicas;
  for (const [name, units] of request.resources) {
    reservation.units.set(name, (reservation.units.get(name) ?? 0) + units * replicas);
  }
}

export function emptyReservation(): Reservation {
  return { pods: 0, units: new Map() };
}
