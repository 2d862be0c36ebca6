/**
 * A member cluster's capacity as Karmada v1.15 reports and reads it, as pure functions:
 * - `status.nodeSummary`, `status.resourceSummary` and `resourceSummary.allocatableModelings`, as the
 *   cluster status controller computes them from the member's Nodes and Pods
 *   (`pkg/controllers/status/cluster_status_controller.go`, `pkg/modeling/modeling.go`,
 *   `pkg/util/resource.go`);
 * - the general estimator's `maxAvailableReplicas` (`pkg/estimator/client/general.go`), which the
 *   scheduler reads them through.
 *
 * Quantities are handled exactly: parsed into BigInt nano-units (lib/api/quantity.ts), so millicores
 * never drift and `9223372036854775807` (MaxInt64, the last model's max) is represented as it is. Like Karmada's `util.Resource`, pod requests are rounded up per pod to millicores
 * for cpu and to whole units for everything else (`Quantity.MilliValue()` / `Value()`).
 */
import type { KubeObject } from '../../api/object.ts';
import { formatBytes, formatCpu, millisOf, nanoOf, unitsOf } from '../../api/quantity.ts';

export interface ResourceModelRange {
  name: string;
  min: string;
  max: string;
}

export interface ResourceModel {
  grade: number;
  ranges: ResourceModelRange[];
}

export interface AllocatableModeling {
  grade: number;
  count: number;
}

export interface ResourceSummary {
  allocatable: Record<string, string>;
  allocating: Record<string, string>;
  allocated: Record<string, string>;
  allocatableModelings?: AllocatableModeling[];
}

export interface EstimatorOptions {
  /** Feature gate `CustomizedClusterResourceModeling` (beta, default true): read allocatableModelings. */
  customizedClusterResourceModeling?: boolean;
}

type Obj = Record<string, unknown>;
/** Resource name → amount in nano-units (1e-9 of the base unit). */
type Amounts = Map<string, bigint>;

const NANO = 1_000_000_000n;
const MILLI_IN_NANO = 1_000_000n;
const MAX_INT64 = 9223372036854775807n;
const MAX_INT32 = 2147483647n;

const BYTE_RESOURCES = new Set(['memory', 'ephemeral-storage', 'storage']);
const isByteResource = (name: string) => BYTE_RESOURCES.has(name) || name.startsWith('hugepages-');

/** Canonical text of an amount: cpu as cores/millicores, byte-sized resources in binary units, counts as integers. */
function formatAmount(name: string, nano: bigint): string {
  if (name === 'cpu') return formatCpu(Number(millisOf(nano)) / 1000);
  if (isByteResource(name)) return formatBytes(Number(unitsOf(nano)));
  if (nano % NANO === 0n) return String(nano / NANO);
  return `${millisOf(nano)}m`;
}

function formatAmounts(amounts: Amounts, keep: (nano: bigint) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...amounts.keys()].sort()) {
    const nano = amounts.get(name)!;
    if (keep(nano)) out[name] = formatAmount(name, nano);
  }
  return out;
}

/** A `ResourceList` (object of quantities) in nano-units; absent or non-object ⇒ empty. */
function amountsOf(list: unknown): Amounts {
  const out: Amounts = new Map();
  if (!list || typeof list !== 'object') return out;
  for (const [name, q] of Object.entries(list as Obj)) {
    if (typeof q === 'string' || typeof q === 'number') out.set(name, nanoOf(q));
  }
  return out;
}

function addInto(target: Amounts, source: Amounts): void {
  for (const [name, nano] of source) target.set(name, (target.get(name) ?? 0n) + nano);
}

function maxInto(target: Amounts, source: Amounts): void {
  for (const [name, nano] of source) if (nano > (target.get(name) ?? 0n)) target.set(name, nano);
}

function field(o: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Obj)[k] : undefined), o);
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Obj[]) : [];
}

// ---------------------------------------------------------------------------------------------------
// Pod requests

/** Resources `util.Resource` tracks: cpu, memory, ephemeral-storage and scalar resources (extended, hugepages, …). */
function tracked(name: string): boolean {
  return (
    name === 'cpu' ||
    name === 'memory' ||
    name === 'ephemeral-storage' ||
    name.includes('/') ||
    name.startsWith('hugepages-') ||
    name.startsWith('attachable-volumes-')
  );
}

/** A container's requests, defaulted from its limits where a request is absent (API-server defaulting). */
function containerRequests(container: Obj): Amounts {
  const requests = amountsOf(field(container, 'resources', 'requests'));
  for (const [name, nano] of amountsOf(field(container, 'resources', 'limits'))) {
    if (!requests.has(name)) requests.set(name, nano);
  }
  return requests;
}

/** Pod-level resources (`spec.resources`, PodLevelResources) apply to these. */
const POD_LEVEL_RESOURCES = new Set(['cpu', 'memory']);

/**
 * A pod's effective requests as Kubernetes computes them (`component-helpers` `PodRequests`):
 * Σ app containers + restartable (sidecar) init containers; each regular init container's request plus
 * the sidecars started before it; the larger of the two per resource; pod-level `spec.resources`
 * requests (cpu, memory) replacing the container aggregate when set; plus `spec.overhead`. Then filtered
 * to the resources Karmada tracks and rounded up (cpu to millicores, others to whole units).
 */
function podRequestAmounts(pod: KubeObject): Amounts {
  const spec = field(pod, 'spec');
  const reqs: Amounts = new Map();
  for (const c of list(field(spec, 'containers'))) addInto(reqs, containerRequests(c));
  const sidecars: Amounts = new Map();
  const init: Amounts = new Map();
  for (const c of list(field(spec, 'initContainers'))) {
    const own = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      addInto(reqs, own);
      addInto(sidecars, own);
      maxInto(init, sidecars);
    } else {
      const withSidecars: Amounts = new Map(sidecars);
      addInto(withSidecars, own);
      maxInto(init, withSidecars);
    }
  }
  maxInto(reqs, init);
  const podLevel = amountsOf(field(spec, 'resources', 'requests'));
  for (const [name, nano] of amountsOf(field(spec, 'resources', 'limits'))) {
    if (!podLevel.has(name)) podLevel.set(name, nano);
  }
  for (const [name, nano] of podLevel) if (POD_LEVEL_RESOURCES.has(name)) reqs.set(name, nano);
  addInto(reqs, amountsOf(field(spec, 'overhead')));

  const out: Amounts = new Map();
  for (const [name, nano] of reqs) {
    if (!tracked(name)) continue;
    out.set(name, name === 'cpu' ? millisOf(nano) * MILLI_IN_NANO : unitsOf(nano) * NANO);
  }
  return out;
}

/** A pod's effective resource requests (see {@link resourceSummary}), canonically formatted; zero amounts omitted. */
export function podRequests(pod: KubeObject): Record<string, string> {
  return formatAmounts(podRequestAmounts(pod), (nano) => nano > 0n);
}

const nodeNameOf = (pod: KubeObject) => String(field(pod, 'spec', 'nodeName') ?? '');
/** Pods the scheduler counts on their node: bound, and neither Succeeded nor Failed. */
function occupiesNode(pod: KubeObject): boolean {
  const phase = field(pod, 'status', 'phase');
  return nodeNameOf(pod) !== '' && phase !== 'Succeeded' && phase !== 'Failed';
}

// ---------------------------------------------------------------------------------------------------
// nodeSummary / resourceSummary

/** `getNodeSummary`: all nodes, and those whose first `Ready` condition is `True` (`helper.NodeReady`). */
export function nodeSummary(nodes: readonly KubeObject[]): { totalNum: number; readyNum: number } {
  let readyNum = 0;
  for (const node of nodes) {
    const ready = list(field(node, 'status', 'conditions')).find((c) => c.type === 'Ready');
    if (ready?.status === 'True') readyNum++;
  }
  return { totalNum: nodes.length, readyNum };
}

/**
 * `getResourceSummary` (Karmada `pkg/controllers/status/cluster_status_controller.go`):
 * - allocatable = Σ `node.status.allocatable`, every resource a node lists (zeros kept);
 * - allocating = Σ requests of pods without `spec.nodeName` (any phase), plus their count as `pods`;
 * - allocated = Σ requests of pods with `spec.nodeName` and phase neither Succeeded nor Failed, plus
 *   their count as `pods`.
 * Allocating/allocated list only positive amounts (`util.Resource.ResourceList`), so either may be `{}`.
 * Quantities are canonical: cpu `formatCpu`, memory/ephemeral-storage/storage/hugepages `formatBytes`,
 * counts and other resources as integers (Kubernetes would print large DecimalSI counts as `2k`; the
 * amounts are the same). Keys are sorted.
 */
export function resourceSummary(
  nodes: readonly KubeObject[],
  pods: readonly KubeObject[],
): Omit<ResourceSummary, 'allocatableModelings'> {
  const allocatable: Amounts = new Map();
  for (const node of nodes) addInto(allocatable, amountsOf(field(node, 'status', 'allocatable')));
  const allocating: Amounts = new Map();
  const allocated: Amounts = new Map();
  let allocatingPods = 0n;
  let allocatedPods = 0n;
  for (const pod of pods) {
    if (nodeNameOf(pod) === '') {
      addInto(allocating, podRequestAmounts(pod));
      allocatingPods++;
    } else if (occupiesNode(pod)) {
      addInto(allocated, podRequestAmounts(pod));
      allocatedPods++;
    }
  }
  addInto(allocating, new Map([['pods', allocatingPods * NANO]]));
  addInto(allocated, new Map([['pods', allocatedPods * NANO]]));
  return {
    allocatable: formatAmounts(allocatable, () => true),
    allocating: formatAmounts(allocating, (nano) => nano > 0n),
    allocated: formatAmounts(allocated, (nano) => nano > 0n),
  };
}

// ---------------------------------------------------------------------------------------------------
// allocatableModelings

/**
 * `modeling.InitSummary`: the model resource names (taken from the first model, Karmada's way) and,
 * per name, the mins of every model in order (a model lacking the resource contributes 0).
 * Undefined when the models are inconsistent (Karmada logs and reports no modelings).
 */
function initSummary(models: readonly ResourceModel[]): { names: string[]; mins: bigint[][] } | undefined {
  const names: string[] = [];
  const perModel: Amounts[] = [];
  for (const model of models) {
    const ranges = model.ranges ?? [];
    const mins: Amounts = new Map();
    for (const range of ranges) {
      if (names.length !== ranges.length) names.push(range.name);
      mins.set(range.name, nanoOf(range.min));
    }
    perModel.push(mins);
  }
  if (names.length !== 0 && perModel.length !== 0 && names.length !== perModel[0]!.size) return undefined;
  return { names, mins: names.map((name) => perModel.map((m) => m.get(name) ?? 0n)) };
}

/** `searchLastLessElement`: binary search for the last index whose value ≤ target (−1 if none); expects ascending values. */
function searchLastLessElement(nums: readonly bigint[], target: bigint): number {
  let low = 0;
  let high = nums.length - 1;
  while (low <= high) {
    const mid = low + ((high - low) >> 1);
    if (nums[mid]! <= target) {
      if (mid === nums.length - 1 || nums[mid + 1]! > target) return mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return -1;
}

/**
 * `getAllocatableModelings` (`pkg/controllers/status/cluster_status_controller.go`): for each node,
 * available = `status.allocatable` − Σ requests of the pods occupying it (bound, not Succeeded/Failed),
 * the pod count subtracted from `pods`; resources a node does not list count as 0. The node's grade
 * index = min over the model resources of the last model whose min ≤ available (found by Karmada's
 * binary search, so models must be in ascending order, as defaulting leaves them); a node with no such
 * grade (negative availability) is not counted. Result: `{grade: models[i].grade, count}` for every
 * model, in model order; `[]` when there are no models or they are inconsistent.
 *
 * Deviation: Karmada v1.15 (and master) `break`s out of the node loop at the first node whose pod
 * capacity is used up (`allocatable.pods − pods ≤ 0`), silently dropping every later node (in informer
 * list order). We skip only that node — what Karmada's log line says it intends ("we won't add the node
 * to cluster resource models") — and keep counting the rest. A full node is not counted in any grade:
 * it cannot take a replica, and counting it would overstate capacity in {@link maxAvailableReplicas}.
 */
export function allocatableModelings(
  models: readonly ResourceModel[],
  nodes: readonly KubeObject[],
  pods: readonly KubeObject[],
): AllocatableModeling[] {
  if (models.length === 0) return [];
  const summary = initSummary(models);
  if (!summary) return [];

  const used = new Map<string, Amounts>();
  for (const pod of pods) {
    if (!occupiesNode(pod)) continue;
    const name = nodeNameOf(pod);
    let amounts = used.get(name);
    if (!amounts) used.set(name, (amounts = new Map()));
    addInto(amounts, podRequestAmounts(pod));
    addInto(amounts, new Map([['pods', NANO]]));
  }

  const counts = models.map(() => 0);
  for (const node of nodes) {
    const available = amountsOf(field(node, 'status', 'allocatable'));
    const podsUsed = used.get(String(node.metadata.name ?? ''));
    if (podsUsed) {
      const allowedPods = unitsOf(available.get('pods') ?? 0n) - unitsOf(podsUsed.get('pods') ?? 0n);
      if (allowedPods <= 0n) continue; // Karmada: `break` (see above)
      for (const [name, nano] of podsUsed) {
        const have = available.get(name);
        if (have !== undefined) available.set(name, have - nano);
      }
    }
    let index = Number.MAX_SAFE_INTEGER;
    summary.names.forEach((name, i) => {
      index = Math.min(index, searchLastLessElement(summary.mins[i]!, available.get(name) ?? 0n));
    });
    if (index < 0 || index >= counts.length) continue;
    counts[index]!++;
  }
  return models.map((m, i) => ({ grade: m.grade, count: counts[i]! }));
}

// ---------------------------------------------------------------------------------------------------
// General estimator

function podsOf(list: unknown): bigint {
  const q = field(list, 'pods');
  return typeof q === 'string' || typeof q === 'number' ? unitsOf(nanoOf(q)) : 0n;
}

/** `requested / available` in the estimator's units: millicores for cpu, whole units otherwise (floored). */
function replicasFor(name: string, available: bigint, requested: bigint): bigint {
  return name === 'cpu' ? millisOf(available) / millisOf(requested) : unitsOf(available) / unitsOf(requested);
}

/** `getMaximumReplicasBasedOnClusterSummary`. */
function bySummary(summary: Obj, request: Amounts): bigint {
  const allocatable = amountsOf(summary.allocatable);
  const allocated = amountsOf(summary.allocated);
  const allocating = amountsOf(summary.allocating);
  let max = MAX_INT64;
  for (const [name, requested] of request) {
    if (unitsOf(requested) <= 0n) continue;
    const total = allocatable.get(name);
    if (total === undefined) return 0n;
    const available = total - (allocated.get(name) ?? 0n) - (allocating.get(name) ?? 0n);
    if (unitsOf(available) <= 0n) return 0n;
    const n = replicasFor(name, available, requested);
    if (n < max) max = n;
  }
  return max;
}

/**
 * `getMaximumReplicasBasedOnResourceModels`; undefined when a requested resource has no model range
 * (Karmada's error, after which the summary path is used).
 */
function byModels(models: readonly ResourceModel[], modelings: readonly Obj[], request: Amounts): bigint | undefined {
  const minMap = new Map<string, bigint[]>();
  for (const model of models) {
    for (const range of model.ranges ?? []) {
      let mins = minMap.get(range.name);
      if (!mins) minMap.set(range.name, (mins = []));
      mins.push(nanoOf(range.min));
    }
  }
  const requested = [...request].filter(([, nano]) => unitsOf(nano) > 0n);
  // Go iterates the request map in random order, so "missing resource" (error) vs "no grade" (0) is a
  // race there; here a missing resource always wins, falling back to the summary path.
  if (requested.some(([name]) => !minMap.has(name))) return undefined;
  let minIndex = 0;
  for (const [name, nano] of requested) {
    const index = minMap.get(name)!.findIndex((min) => min >= nano);
    if (index === -1) return 0n;
    if (index > minIndex) minIndex = index;
  }
  let total = 0n;
  for (let i = minIndex; i < models.length; i++) {
    const count = Number(field(modelings[i], 'count') ?? 0);
    if (!Number.isFinite(count) || count <= 0) continue;
    let perNode = MAX_INT64;
    for (const [name, nano] of requested) {
      const n = replicasFor(name, minMap.get(name)![i] ?? 0n, nano);
      if (n < perNode) perNode = n;
    }
    total += BigInt(Math.trunc(count)) * (perNode === 0n ? 1n : perNode);
  }
  return total;
}

/**
 * The general estimator's `maxAvailableReplicas` (`pkg/estimator/client/general.go`) for one replica
 * with the given resource request (`ReplicaRequirements.resourceRequest`), read from the Cluster's
 * `status.resourceSummary` and `spec.resourceModels`:
 * - no resourceSummary ⇒ 0; allowed pods = allocatable.pods − allocated.pods − allocating.pods, ≤ 0 ⇒ 0;
 *   no request ⇒ allowed pods;
 * - with the `CustomizedClusterResourceModeling` gate (default on) and non-empty allocatableModelings:
 *   Σ over grades from the first whose min ≥ request (every requested resource; none ⇒ 0) of
 *   count × per-node replicas at that grade's mins (0 bumped to 1), capped by allowed pods — unless a
 *   requested resource has no model range, then:
 * - the summary path: min over requested resources of ⌊(allocatable − allocated − allocating) / request⌋
 *   (cpu in millicores; a resource missing from allocatable or exhausted ⇒ 0), capped by allowed pods.
 * Requests whose whole-unit value is 0 are ignored. The result is capped at MaxInt32.
 *
 * Where Go misbehaves we don't: a request with no positive resource on the models path is unbounded
 * per node (Go overflows int64 multiplying counts by MaxInt64); allocatableModelings shorter than the
 * models, or a model without a requested resource, read as count 0 / min 0 (Go panics on the index).
 */
export function maxAvailableReplicas(
  cluster: KubeObject,
  request?: Record<string, string>,
  options: EstimatorOptions = {},
): number {
  const summary = field(cluster, 'status', 'resourceSummary');
  if (!summary || typeof summary !== 'object') return 0;
  const rs = summary as Obj;
  let max = podsOf(rs.allocatable) - podsOf(rs.allocated) - podsOf(rs.allocating);
  if (max <= 0n) return 0;
  const cap = (n: bigint) => Number(n > MAX_INT32 ? MAX_INT32 : n < 0n ? 0n : n);
  if (!request) return cap(max);

  const req = amountsOf(request);
  const modelings = list(rs.allocatableModelings);
  if ((options.customizedClusterResourceModeling ?? true) && modelings.length > 0) {
    const models = (field(cluster, 'spec', 'resourceModels') ?? []) as ResourceModel[];
    const n = byModels(Array.isArray(models) ? models : [], modelings, req);
    if (n !== undefined) return cap(n < max ? n : max);
  }
  const n = bySummary(rs, req);
  if (n < max) max = n;
  return cap(max);
}
