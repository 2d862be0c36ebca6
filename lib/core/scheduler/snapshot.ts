/**
 * A snapshot of the member clusters one scheduling batch decides on (Karmada
 * `pkg/scheduler/cache/snapshot.go`): each Cluster parsed once — API enablements, capacity — plus the
 * capacity reservations the batch and recent batches hold (Karmada #6783: two bindings scheduled at once
 * must not both take the last free capacity). Scheduling a binding reserves what it newly takes, so
 * the next binding in the same batch sees it gone.
 */
import type { Cluster } from '../model/types.ts';
import {
  addToReservation,
  type ClusterCapacity,
  clusterCapacity,
  type CompiledRequest,
  emptyReservation,
  type EstimatorOptions,
  estimateReplicas,
  type Reservation,
  type Units,
} from './estimate.ts';
import type { ClusterInfo } from './framework/interface.ts';

export interface SnapshotCluster extends ClusterInfo {
  readonly capacity: ClusterCapacity;
}

export interface Snapshot {
  /** Clusters not being deleted, sorted by name. */
  readonly clusters: readonly SnapshotCluster[];
  readonly byName: ReadonlyMap<string, SnapshotCluster>;
  /** Reserved capacity per cluster name (mutable: scheduling adds to it). */
  readonly reservations: Map<string, Reservation>;
  readonly estimator: EstimatorOptions;
  /** Names of clusters that exist but are being deleted. */
  readonly deleting: ReadonlySet<string>;
}

const infos = new WeakMap<object, Omit<SnapshotCluster, 'capacity'>>();

function clusterInfo(cluster: Cluster): Omit<SnapshotCluster, 'capacity'> {
  let info = infos.get(cluster);
  if (!info) {
    const gvks = new Set<string>();
    const enablements = cluster.status?.apiEnablements ?? [];
    for (const e of enablements) {
      for (const r of e.resources ?? []) gvks.add(`${e.groupVersion}/${r.kind}`);
    }
    const complete = cluster.status?.conditions?.find((c) => c.type === 'CompleteAPIEnablements');
    info = {
      name: cluster.metadata.name ?? '',
      cluster,
      deleting: Boolean(cluster.metadata.deletionTimestamp),
      gvks,
      apiEnablementsComplete: complete ? complete.status === 'True' : enablements.length > 0,
    };
    infos.set(cluster, info);
  }
  return info;
}

/**
 * Builds a snapshot. `reservations` (cluster name → reserved capacity) come from the store's
 * reservation ledger; they are copied, so the caller's map is not changed by scheduling.
 */
export function buildSnapshot(
  clusters: readonly Cluster[],
  options: { reservations?: ReadonlyMap<string, Reservation>; estimator?: EstimatorOptions } = {},
): Snapshot {
  const estimator = options.estimator ?? {};
  const list: SnapshotCluster[] = [];
  const deleting = new Set<string>();
  for (const cluster of clusters) {
    const info = clusterInfo(cluster);
    if (info.deleting) {
      deleting.add(info.name);
      continue;
    }
    list.push({ ...info, capacity: clusterCapacity(cluster, estimator) });
  }
  list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const reservations = new Map<string, Reservation>();
  for (const [name, r] of options.reservations ?? []) {
    reservations.set(name, { pods: r.pods, units: new Map(r.units) });
  }
  return { clusters: list, byName: new Map(list.map((c) => [c.name, c])), reservations, estimator, deleting };
}

/** The general estimator's answer for one cluster, less the snapshot's reservations there. */
export function estimateOn(snapshot: Snapshot, cluster: SnapshotCluster, request: CompiledRequest | undefined): number {
  return estimateReplicas(cluster.capacity, request, snapshot.reservations.get(cluster.name));
}

/** What a scheduling result newly takes on one cluster: pods and resources in estimator units. */
export interface ReservationDelta {
  cluster: string;
  pods: number;
  units: Units;
}

/** `replicas` more replicas of `request` on `cluster`. */
export function replicaDelta(cluster: string, request: CompiledRequest, replicas: number): ReservationDelta {
  const r = emptyReservation();
  addToReservation(r, request, replicas);
  return { cluster, pods: r.pods, units: r.units };
}

/**
 * Adds a delta to the snapshot's reservations, so later decisions on it see the capacity taken; with
 * `sign` -1 takes it back out (never below zero).
 */
export function applyDelta(snapshot: Snapshot, delta: ReservationDelta, sign: 1 | -1 = 1): void {
  let r = snapshot.reservations.get(delta.cluster);
  if (!r) {
    if (sign < 0) return;
    snapshot.reservations.set(delta.cluster, (r = emptyReservation()));
  }
  r.pods = Math.max(0, r.pods + sign * delta.pods);
  for (const [name, n] of delta.units) r.units.set(name, Math.max(0, (r.units.get(name) ?? 0) + sign * n));
}
