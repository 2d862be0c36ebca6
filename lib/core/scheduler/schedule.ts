/**
 * One scheduling decision for one binding (Karmada `pkg/scheduler/core/generic_scheduler.go` and
 * `scheduler.go scheduleResourceBindingWithClusterAffinities`): filter the snapshot's clusters with
 * the framework's filter plugins, score the survivors, estimate what each can take, select clusters
 * under the spread constraints, divide the replicas. Pure: the snapshot is the only input besides the
 * binding, and the only side effect is the reservation the result adds to the snapshot.
 *
 * Deliberate differences from Karmada v1.15 (docs/decisions/0007-scheduler.md):
 * - capacity another binding took earlier in the batch, or moments ago (reservations), is not offered
 *   again (Karmada #6783);
 * - multi-template bindings (`spec.components`) are scheduled as whole component sets (Karmada ≥ 1.16);
 * - static weights use Webster with a deterministic tie-break (Karmada ≥ 1.16), never a coin flip.
 */
import { clusterMatches } from '../placement/affinity.ts';
import { AFFINITY_MISMATCH_REASON } from './plugins/cluster-affinity/index.ts';
import { assignReplicas } from './assignment/index.ts';
import { type CompiledRequest, compileRequest, estimateReplicas, requestFromUnits } from './estimate.ts';
import type { ClusterInfo, ScheduleUnit } from './framework/interface.ts';
import type { Framework } from './plugins/registry.ts';
import {
  applyDelta,
  estimateOn,
  replicaDelta,
  type ReservationDelta,
  type Snapshot,
  type SnapshotCluster,
} from './snapshot.ts';
import { selectBestClusters, sortClusters } from './spread/index.ts';
import { keptGrowth, mergeDeltas } from './growth.ts';
import { type ClusterDetail, fail, MAX_INT32, ok, type Outcome, type ScheduleFailure } from './framework/types.ts';
import type { ClusterAffinity, Component, ResourceBinding, TargetCluster } from '../model/types.ts';
import type { WorkloadPeers } from './framework/interface.ts';
import { overflowEnabled, overflowOrder } from './framework/overflow.ts';
import { observedTriggerOf } from './reschedule.ts';

export interface ScheduleOptions {
  /** Karmada `--enable-empty-workload-propagation`: keep selected clusters that got 0 replicas. */
  enableEmptyWorkloadPropagation?: boolean;
  /** Where the binding's workload (anti-)affinity peers are ({@link workloadPeersOf}). */
  workloadPeers?: WorkloadPeers;
}

export interface ScheduleDecision {
  /** The new `spec.clusters`. */
  clusters: TargetCluster[];
  /** The `clusterAffinities` term that produced it (sets `status.schedulerObservingAffinityName`). */
  affinityName?: string;
  /** Capacity this result newly takes, already added to the snapshot's reservations. */
  reserved: ReservationDelta[];
}

export interface ScheduleResult {
  outcome: Outcome<ScheduleDecision>;
  /**
   * On a failure, what `spec.clusters` must become, `undefined` to leave it unchanged. When no cluster
   * fit, Karmada patches the result to empty (a FitError "cleans up"), which removes the workload from
   * every member even when the clusters only failed for a while — all NotReady at once, say, when
   * the control plane lost its own network. Here a FitError drops only the clusters the placement
   * itself no longer allows (its affinity) or that are gone; those that failed a health filter
   * (taints, eviction, API enablement) keep what they run ({@link keptOnNoFit}, found by the
   * deterministic simulation).
   */
  clustersOnFailure?: TargetCluster[];
  /** The affinity term to record on failure (Karmada keeps the previous one). */
  affinityNameOnFailure?: string;
  /**
   * On a failure, the growth of the requests of the replicas it keeps ({@link keptGrowth}): the members
   * roll the new requests out onto them all the same. Already added to the snapshot's reservations.
   */
  reservedOnFailure?: ReservationDelta[];
}

/** `group/version/Kind` of a binding's resource (core group: `v1/Kind`). */
export function bindingGvk(binding: ResourceBinding): string {
  return `${binding.spec.resource.apiVersion}/${binding.spec.resource.kind}`;
}

/**
 * Schedules `binding` on `snapshot`. With `placement.clusterAffinities`, terms are tried in order from
 * the one the binding last observed (`status.schedulerObservingAffinityName`) until one fits.
 */
export function scheduleBinding(
  binding: ResourceBinding,
  snapshot: Snapshot,
  framework: Framework,
  options: ScheduleOptions = {},
): ScheduleResult {
  // Requests raised since the binding's replicas were reserved: the estimate sees the replicas it has
  // grown, and the result reserves the growth of those it keeps ({@link keptGrowth}).
  const grown = keptGrowth(binding);
  for (const d of grown) applyDelta(snapshot, d);
  const result = decide(binding, snapshot, framework, options);
  for (const d of grown) applyDelta(snapshot, d, -1);
  if (result.outcome.ok) {
    const decision = result.outcome.value;
    const growth = keptGrowth(binding, decision.clusters);
    for (const d of growth) applyDelta(snapshot, d);
    return growth.length
      ? { ...result, outcome: ok({ ...decision, reserved: mergeDeltas(decision.reserved, growth) }) }
      : result;
  }
  const growth = keptGrowth(binding, result.clustersOnFailure ?? binding.spec.clusters ?? []);
  for (const d of growth) applyDelta(snapshot, d);
  return { ...result, reservedOnFailure: growth };
}

/**
 * The binding's placement kept as it is (no rescheduling trigger; the scheduler charges or observes it):
 * what it reserves is the growth of its requests ({@link keptGrowth}), added to the snapshot.
 */
export function keepPlacement(binding: ResourceBinding, snapshot: Snapshot): ScheduleResult {
  const growth = keptGrowth(binding);
  for (const d of growth) applyDelta(snapshot, d);
  return { outcome: ok({ clusters: binding.spec.clusters ?? [], reserved: growth }) };
}

function decide(
  binding: ResourceBinding,
  snapshot: Snapshot,
  framework: Framework,
  options: ScheduleOptions,
): ScheduleResult {
  const placement = binding.spec.placement ?? {};
  const terms = placement.clusterAffinities ?? [];
  if (terms.length === 0) {
    const outcome = scheduleOnce(binding, snapshot, framework, placement.clusterAffinity, options);
    if (outcome.ok) return { outcome };
    return {
      outcome,
      ...(outcome.failure.reason === 'NoClusterFit'
        ? { clustersOnFailure: keptOnNoFit(binding, snapshot, outcome.failure.diagnosis) }
        : {}),
    };
  }
  const observed = binding.status?.schedulerObservingAffinityName;
  let start = observed ? terms.findIndex((t) => t.affinityName === observed) : 0;
  if (start < 0) start = 0;
  let first: ScheduleFailure | undefined;
  const messages: string[] = [];
  for (let i = start; i < terms.length; i++) {
    const term = terms[i]!;
    const outcome = scheduleOnce(binding, snapshot, framework, term, options);
    if (outcome.ok) return { outcome: ok({ ...outcome.value, affinityName: term.affinityName }) };
    first ??= outcome.failure;
    messages.push(`affinity ${term.affinityName}: ${outcome.failure.message}`);
  }
  const failure: ScheduleFailure = {
    reason: first!.reason,
    message: messages.length === 1 ? first!.message : messages.join('; '),
    ...(first!.diagnosis ? { diagnosis: first!.diagnosis } : {}),
  };
  return {
    outcome: { ok: false, failure },
    ...(first!.reason === 'NoClusterFit'
      ? { clustersOnFailure: keptOnNoFit(binding, snapshot, first!.diagnosis) }
      : {}),
    ...(observed ? { affinityNameOnFailure: observed } : {}),
  };
}

function scheduleOnce(
  binding: ResourceBinding,
  snapshot: Snapshot,
  framework: Framework,
  affinity: ClusterAffinity | undefined,
  options: ScheduleOptions,
): Outcome<ScheduleDecision> {
  const spec = binding.spec;
  const previous = spec.clusters ?? [];
  const unit: ScheduleUnit = {
    spec,
    gvk: bindingGvk(binding),
    ...(affinity ? { affinity } : {}),
    scheduled: new Set(previous.map((t) => t.name)),
    ...(options.workloadPeers ? { workloadPeers: options.workloadPeers } : {}),
  };

  // Filter.
  const feasible: SnapshotCluster[] = [];
  let diagnosis: Record<string, string[]> | undefined;
  for (const cluster of snapshot.clusters) {
    const reasons = runFilters(framework, unit, cluster);
    if (reasons) (diagnosis ??= {})[cluster.name] = reasons;
    else feasible.push(cluster);
  }
  if (feasible.length === 0) {
    // Karmada counts every cluster of the snapshot (`NumOfClusters`), the deleting ones it skipped too.
    const total = snapshot.clusters.length + snapshot.deleting.size;
    return fail('NoClusterFit', fitErrorMessage(total, diagnosis ?? {}), diagnosis ?? {});
  }

  // Score and estimate.
  const components = spec.components?.length ? spec.components : undefined;
  const request = components ? undefined : requestOf(binding);
  const replicas = spec.replicas ?? 0;
  const details: ClusterDetail[] = [];
  const overflow = overflowEnabled(spec, affinity);
  for (const cluster of feasible) {
    let score = 0;
    for (const p of framework.scores) score += p.score(unit, cluster);
    let allocatable: number;
    if (components) allocatable = componentSets(snapshot, cluster, components);
    else if (replicas === 0) allocatable = MAX_INT32;
    else {
      allocatable = estimateOn(snapshot, cluster, request);
      if (allocatable === MAX_INT32) allocatable = replicas;
    }
    const already = previous.length === 0 ? 0 : (previous.find((t) => t.name === cluster.name)?.replicas ?? 0);
    details.push({
      name: cluster.name,
      cluster: cluster.cluster,
      score,
      allocatableReplicas: allocatable,
      availableReplicas: allocatable + already,
      ...(overflow ? { overflowOrder: overflowOrder(cluster.cluster, affinity) } : {}),
    });
  }
  const sorted = sortClusters(details);

  // Select and assign.
  const selected = selectBestClusters({ placement: spec.placement ?? {}, spec, clusters: sorted });
  // Karmada wraps selection errors: `failed to select clusters: <why>`.
  if (!selected.ok) return fail(selected.failure.reason, `failed to select clusters: ${selected.failure.message}`);
  const observed = observedTriggerOf(binding);
  const assignment = {
    spec,
    ...(binding.status ? { status: binding.status } : {}),
    ...(observed === undefined ? {} : { observedTrigger: observed }),
    candidates: selected.value,
    uid: binding.metadata.uid ?? `${binding.metadata.namespace ?? ''}/${binding.metadata.name ?? ''}`,
    enableEmptyWorkloadPropagation: options.enableEmptyWorkloadPropagation ?? false,
  };
  const assigned =
    overflow && !components && replicas > 0 ? assignByOverflowGroups(assignment) : assignReplicas(assignment);
  // Karmada wraps assignment errors too: `failed to assign replicas: <why>`.
  if (!assigned.ok) return fail(assigned.failure.reason, `failed to assign replicas: ${assigned.failure.message}`);

  // Reserve what this result newly takes.
  const reserved: ReservationDelta[] = [];
  if (components) {
    const set = componentSetRequest(components);
    for (const t of assigned.value) {
      if (unit.scheduled.has(t.name)) continue;
      reserved.push({ cluster: t.name, pods: set.pods, units: new Map(set.request.resources) });
    }
  } else {
    // Without replicaRequirements a replica still takes a pod (the estimate is bounded by pods).
    const perReplica = request ?? compileRequest(undefined);
    for (const t of assigned.value) {
      const more = (t.replicas ?? 0) - (previous.find((p) => p.name === t.name)?.replicas ?? 0);
      if (more > 0) reserved.push(replicaDelta(t.name, perReplica, more));
    }
  }
  for (const d of reserved) applyDelta(snapshot, d);
  return ok({ clusters: assigned.value, reserved });
}

/**
 * Karmada ≥ 1.18 `assignWorkloadReplicas` with overflow: each group, in order, takes
 * `min(remaining, its available replicas)` assigned by the placement's strategy among its own clusters
 * (their previous replicas only, so a group scales on its own); what no group can take is
 * `Clusters available replicas are not enough to schedule.` Scaling down empties the last groups first.
 */
function assignByOverflowGroups(input: Parameters<typeof assignReplicas>[0]): Outcome<TargetCluster[]> {
  const groups = new Map<number, ClusterDetail[]>();
  for (const c of input.candidates) {
    const order = c.overflowOrder ?? 0;
    groups.set(order, [...(groups.get(order) ?? []), c]);
  }
  let remaining = input.spec.replicas ?? 0;
  const out: TargetCluster[] = [];
  for (const order of [...groups.keys()].sort((a, b) => a - b)) {
    const members = groups.get(order)!;
    const take = Math.min(
      remaining,
      members.reduce((n, c) => n + c.availableReplicas, 0),
    );
    if (take <= 0) continue;
    const names = new Set(members.map((c) => c.name));
    const result = assignReplicas({
      ...input,
      spec: { ...input.spec, replicas: take, clusters: (input.spec.clusters ?? []).filter((t) => names.has(t.name)) },
      candidates: members,
    });
    if (!result.ok) return result;
    out.push(...result.value);
    remaining -= take;
    if (remaining <= 0) break;
  }
  if (remaining > 0) return fail('Unschedulable', 'Clusters available replicas are not enough to schedule.');
  return ok(out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
}

/** Runs the filter plugins in order; the reasons of the first that fails, or undefined when all pass. */
function runFilters(framework: Framework, unit: ScheduleUnit, cluster: ClusterInfo): string[] | undefined {
  for (const p of framework.filters) {
    const result = p.filter(unit, cluster);
    if (result.code !== 'Success') return result.reasons.length ? result.reasons : [`${p.name}: ${result.code}`];
  }
  return undefined;
}

/**
 * Whether `binding` keeps a cluster it is placed on: the cluster exists, is not being deleted, and the
 * placement's affinity (with `clusterAffinities`, the term being observed) still selects it. A kept
 * cluster that fails this is one the scheduler is about to drop — no copy an eviction can count on.
 */
export function keptByPlacement(binding: ResourceBinding, snapshot: Snapshot): (cluster: string) => boolean {
  const placement = binding.spec.placement ?? {};
  const terms = placement.clusterAffinities ?? [];
  const observed = binding.status?.schedulerObservingAffinityName;
  const affinity = placement.clusterAffinity ?? terms.find((t) => t.affinityName === observed) ?? terms[0];
  return (name) => {
    const info = snapshot.byName.get(name);
    return !!info && !snapshot.deleting.has(name) && (!affinity || clusterMatches(info.cluster, affinity));
  };
}

/**
 * What a binding keeps when no cluster fits: its current clusters that still exist and that no filter
 * refused for not matching the placement's affinity (see {@link ScheduleResult.clustersOnFailure}).
 */
export function keptOnNoFit(
  binding: ResourceBinding,
  snapshot: Snapshot,
  diagnosis: Record<string, string[]> | undefined,
): TargetCluster[] {
  return (binding.spec.clusters ?? []).filter(
    (t) =>
      snapshot.byName.has(t.name) &&
      !snapshot.deleting.has(t.name) &&
      !(diagnosis?.[t.name] ?? []).includes(AFFINITY_MISMATCH_REASON),
  );
}

/**
 * Karmada's `FitError.Error()`: `0/3 clusters are available: 1 cluster(s) had untolerated taint
 * {…}, 2 cluster(s) did not match the placement cluster affinity constraint.` (reasons counted and sorted).
 */
export function fitErrorMessage(total: number, diagnosis: Record<string, string[]>): string {
  const counts = new Map<string, number>();
  for (const reasons of Object.values(diagnosis)) {
    for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  }
  const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort();
  return `0/${total} clusters are available: ${parts.join(', ')}.`;
}

function requestOf(binding: ResourceBinding): CompiledRequest | undefined {
  const requirements = binding.spec.replicaRequirements;
  return requirements ? compileRequest(requirements.resourceRequest) : undefined;
}

interface SetRequest {
  request: CompiledRequest;
  pods: number;
}

const setRequests = new WeakMap<object, SetRequest>();

/** What one whole component set needs: Σ replicas × request per resource, and Σ replicas pods. */
function componentSetRequest(components: readonly Component[]): SetRequest {
  let cached = setRequests.get(components);
  if (!cached) {
    const units = new Map<string, number>();
    let pods = 0;
    for (const c of components) {
      const replicas = Math.max(0, c.replicas ?? 0);
      pods += replicas;
      for (const [name, u] of compileRequest(c.replicaRequirements?.resourceRequest).resources) {
        units.set(name, (units.get(name) ?? 0) + u * replicas);
      }
    }
    cached = { request: requestFromUnits(units), pods };
    setRequests.set(components, cached);
  }
  return cached;
}

/**
 * How many whole component sets a cluster can host: every component's replicas must fit (the general
 * estimator per component, so resource models bound each pod's size), and together they must fit the
 * cluster's remaining resources and pods.
 */
export function componentSets(snapshot: Snapshot, cluster: SnapshotCluster, components: readonly Component[]): number {
  const reserved = snapshot.reservations.get(cluster.name);
  let sets = MAX_INT32;
  for (const c of components) {
    const replicas = c.replicas ?? 0;
    if (replicas <= 0) continue;
    const n = estimateReplicas(cluster.capacity, compileRequest(c.replicaRequirements?.resourceRequest), reserved);
    sets = Math.min(sets, Math.floor(n / replicas));
  }
  const set = componentSetRequest(components);
  if (set.pods > 0) {
    const capacity = cluster.capacity;
    if (capacity.noSummary) return 0;
    sets = Math.min(sets, Math.floor((capacity.allowedPods - (reserved?.pods ?? 0)) / set.pods));
    for (const [name, units] of set.request.resources) {
      if (units <= 0) continue;
      const available = (capacity.available.get(name) ?? 0) - (reserved?.units.get(name) ?? 0);
      sets = Math.min(sets, Math.floor(available / units));
    }
  }
  return Math.max(0, sets);
}
