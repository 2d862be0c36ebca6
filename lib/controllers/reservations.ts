/**
 * The scheduler's reservation ledger (our answer to Karmada #6783): capacity promised to bindings
 * scheduled moments ago, which the members' resource summaries do not show yet.
 *
 * One internal object (`ClusterReservation/fleet`, not served by the API) holds, per 10-second bucket,
 * the pods and resources (estimator units) reserved on each cluster. Every scheduler batch reads it
 * with the clusters, and adds what its results take with **one conditional write per flush** (flushes
 * are serialized per batch and coalesce every binding that reached the commit point meanwhile). When two
 * batches write at once, the loser re-reads; if the clusters it reserved on would now be over-committed
 * it refuses those bindings (they are decided again on the fresh ledger), otherwise it merges and
 * retries. So two schedulers cannot both take a cluster's last free capacity.
 *
 * A cluster's reservations in a bucket end once the cluster's summary shows them: past the TTL (default
 * 60 s) and with what the summary shows taken (allocated + allocating, as the estimate subtracts it) at
 * least what it was when the bucket was first written plus what the cluster's live buckets reserved
 * since — in pods and in each resource (see `bucketsOf`). Until then both count, so estimates err
 * towards too little, never too much. A member that is slow to run what it was given (its Works
 * applied late, a member fault, a backlog) keeps its reservations (found by the deterministic
 * simulation: with a bare TTL they lapsed before the pods existed and the cluster was promised twice);
 * so does one whose pod count moved for another reason (a Deployment scaled by hand on the member —
 * simulation seed 221 — is more pods, not the CPUs reserved), and the growth of a kept placement's
 * requests (no new pods at all). After {@link MAX_RESERVATION_MS} they end regardless (pods that never
 * start hold nothing forever).
 * Size: ~(TTL/10 s + 1) buckets × touched clusters × ~150 bytes — well under DynamoDB's 400 KB for
 * fleets of a few hundred clusters (see docs/decisions/0007-scheduler.md for sharding beyond).
 */
import type { KubeObject } from '../api/object.ts';
import { emptyReservation, type Reservation, summaryUsage, type Units } from '../core/scheduler/estimate.ts';
import type { Cluster, EstimatorOptions } from '../core/index.ts';
import { buildSnapshot, type ReservationDelta, type Snapshot } from '../core/scheduler/snapshot.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';

export const CLUSTER_RESERVATION = { group: 'work.serverless-karmada.io', kind: 'ClusterReservation' };
export const LEDGER_NAME = 'fleet';
export const DEFAULT_RESERVATION_TTL_MS = 60_000;
/** However slowly a member starts what it was given, its reservations end after this. */
export const MAX_RESERVATION_MS = 10 * 60_000;
const BUCKET_MS = 10_000;

/** What one cluster holds in one bucket. */
export interface LedgerAmount {
  pods: number;
  resources: Record<string, number>;
  /** The pods the cluster's summary showed taken when the bucket was first written for it. */
  basePods?: number;
  /** Likewise each resource (estimator units); a resource without one is judged by the pods alone. */
  baseResources?: Record<string, number>;
}

/** bucket start (ms, as text) → cluster → amount. */
type Buckets = Record<string, Record<string, LedgerAmount>>;

/**
 * What a cluster's summary shows taken now (pods and resources, estimator units; see
 * {@link summaryUsage}); undefined: unknown.
 */
export type ShownUsage = (cluster: string) => ReadonlyMap<string, number> | undefined;

function bucketsOf(item: KubeObject | undefined, now: number, ttlMs: number, shown?: ShownUsage): Buckets {
  const raw = (item?.spec as { buckets?: Buckets } | undefined)?.buckets ?? {};
  const out: Buckets = {};
  // Per cluster and per measure (pods, each resource), over its live buckets in time order: what they
  // reserved so far (`sum`), and the most any bucket's base asks beyond it (`lead`): bucket k is shown
  // once the summary shows, in every measure, max over j ≤ k of (base_j + r_j + … + r_k) = sum_k + lead_k.
  // A pod base not known when the bucket was written (the summary was missing) can never be shown: it
  // waits for the hard bound. A resource without a base (a bucket written before they were kept), or
  // that the summary does not list, is left to the pods.
  const seen = new Map<string, Map<string, { sum: number; lead: number }>>();
  const step = (runs: Map<string, { sum: number; lead: number }>, measure: string, n: number, base: number) => {
    let run = runs.get(measure);
    if (!run) runs.set(measure, (run = { sum: 0, lead: Number.NEGATIVE_INFINITY }));
    run.lead = Math.max(run.lead, base - run.sum);
    run.sum += n;
  };
  for (const start of Object.keys(raw).sort((a, b) => Number(a) - Number(b))) {
    const age = now - (Number(start) + BUCKET_MS);
    if (age >= MAX_RESERVATION_MS) continue;
    for (const [cluster, amount] of Object.entries(raw[start]!)) {
      let runs = seen.get(cluster);
      if (!runs) seen.set(cluster, (runs = new Map()));
      step(runs, PODS, amount.pods, amount.basePods ?? Number.POSITIVE_INFINITY);
      for (const [name, n] of Object.entries(amount.resources)) {
        step(runs, name, n, amount.baseResources?.[name] ?? Number.NEGATIVE_INFINITY);
      }
      if (age >= ttlMs) {
        // Without summaries to compare with (a caller that has none): the bare TTL.
        if (shown === undefined) continue;
        const usage = shown(cluster);
        if (
          usage?.has(PODS) &&
          [...runs].every(([m, r]) => (usage.get(m) ?? Number.POSITIVE_INFINITY) >= r.sum + r.lead)
        )
          continue;
      }
      (out[start] ??= {})[cluster] = amount;
    }
  }
  return out;
}

const PODS = 'pods';

/**
 * The fleet as the scheduler decides on it: the clusters, less what the ledger still reserves on them
 * (until their summaries show it). The scheduler and both failovers' replacement checks build it here,
 * so a replacement is never counted on room another binding was just given.
 */
export function fleetSnapshot(
  clusters: readonly Cluster[],
  ledger: KubeObject | undefined,
  options: { now: number; ttlMs?: number; estimator?: EstimatorOptions },
): { snapshot: Snapshot; shown: ShownUsage } {
  const shown = shownUsageOf(clusters);
  const reservations = ledgerReservations(ledger, options.now, options.ttlMs ?? DEFAULT_RESERVATION_TTL_MS, shown);
  return {
    snapshot: buildSnapshot(clusters, { reservations, ...(options.estimator ? { estimator: options.estimator } : {}) }),
    shown,
  };
}

/** What each cluster's summary shows taken, from the clusters' resource summaries. */
export function shownUsageOf(clusters: readonly Cluster[]): ShownUsage {
  const usage = new Map<string, Units>();
  for (const c of clusters) {
    const u = summaryUsage(c);
    // No summary yet (never collected): unknown, not zero.
    if (u) usage.set(c.metadata.name ?? '', u);
  }
  return (cluster) => usage.get(cluster);
}

function addAmount(
  target: Record<string, LedgerAmount>,
  cluster: string,
  pods: number,
  units: Iterable<[string, number]>,
) {
  const a = (target[cluster] ??= { pods: 0, resources: {} });
  a.pods += pods;
  for (const [name, n] of units) a.resources[name] = (a.resources[name] ?? 0) + n;
}

/** Cluster → total reserved over live buckets (plus `extra`, not yet written). */
function totals(buckets: Buckets, extra?: Record<string, LedgerAmount>): Map<string, Reservation> {
  const out = new Map<string, Reservation>();
  const add = (cluster: string, a: LedgerAmount) => {
    let r = out.get(cluster);
    if (!r) out.set(cluster, (r = emptyReservation()));
    r.pods += a.pods;
    for (const [name, n] of Object.entries(a.resources)) r.units.set(name, (r.units.get(name) ?? 0) + n);
  };
  for (const clusters of Object.values(buckets)) for (const [c, a] of Object.entries(clusters)) add(c, a);
  for (const [c, a] of Object.entries(extra ?? {})) add(c, a);
  return out;
}

/** Reads the ledger (one get). */
export async function loadLedger(store: ObjectStore): Promise<KubeObject | undefined> {
  return store.get({ ...CLUSTER_RESERVATION, name: LEDGER_NAME });
}

/** Cluster name → live reservation, for {@link buildSnapshot}. */
export function ledgerReservations(
  item: KubeObject | undefined,
  now: number,
  ttlMs: number,
  shown?: ShownUsage,
): Map<string, Reservation> {
  return totals(bucketsOf(item, now, ttlMs, shown));
}

interface Waiter {
  clusters: string[];
  resolve: (ok: boolean) => void;
}

/** The ledger as one scheduler batch sees it: serialized, coalesced conditional writes. */
export class BatchLedger {
  readonly #store: ObjectStore;
  readonly #snapshot: Snapshot;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #item: KubeObject | undefined;
  /** Waiting for the next flush: cluster → amount. */
  #pending: Record<string, LedgerAmount> = {};
  #waiters: Waiter[] = [];
  #flushing: Promise<void> | undefined;
  /** Writes made and conflicts met (for metrics and the benchmark). */
  writes = 0;
  conflicts = 0;

  constructor(options: {
    store: ObjectStore;
    snapshot: Snapshot;
    item: KubeObject | undefined;
    ttlMs: number;
    now: () => number;
    shown?: ShownUsage;
  }) {
    this.#store = options.store;
    this.#snapshot = options.snapshot;
    this.#item = options.item;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now;
    this.#shown = options.shown;
  }

  readonly #shown: ShownUsage | undefined;

  #live(now: number): Buckets {
    return bucketsOf(this.#item, now, this.#ttlMs, this.#shown);
  }

  /**
   * Records a binding's deltas (already applied to the snapshot); resolves true once they are written,
   * false when a cluster would be over-committed by what other schedulers reserved meanwhile — the
   * snapshot then reflects the fresh ledger without them: decide again.
   */
  commit(deltas: readonly ReservationDelta[]): Promise<boolean> {
    const useful = deltas.filter((d) => d.pods > 0 || [...d.units.values()].some((n) => n > 0));
    if (useful.length === 0 || this.#ttlMs <= 0) return Promise.resolve(true);
    for (const d of useful) addAmount(this.#pending, d.cluster, d.pods, d.units);
    return new Promise<boolean>((resolve) => {
      this.#waiters.push({ clusters: useful.map((d) => d.cluster), resolve });
      this.#kick();
    });
  }

  /** Starts a flush unless one is running (it picks up what accumulates meanwhile when it ends). */
  #kick(): void {
    if (this.#flushing) return;
    this.#flushing = new Promise<void>((r) => setImmediate(r))
      .then(() => this.#flush())
      .finally(() => {
        this.#flushing = undefined;
        if (this.#waiters.length > 0) this.#kick();
      });
  }

  async #flush(): Promise<void> {
    const ours = this.#pending;
    const waiters = this.#waiters;
    this.#pending = {};
    this.#waiters = [];
    let refused: Set<string>;
    try {
      refused = await this.#write(ours);
    } catch {
      refused = new Set(Object.keys(ours));
      this.#refresh(undefined);
    }
    for (const w of waiters) w.resolve(!w.clusters.some((c) => refused.has(c)));
  }

  /** Writes `ours` into the current bucket; returns the clusters refused after a conflict. */
  async #write(ours: Record<string, LedgerAmount>): Promise<Set<string>> {
    const refused = new Set<string>();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const now = this.#now();
      const buckets = this.#live(now);
      const bucket = String(Math.floor(now / BUCKET_MS) * BUCKET_MS);
      const current = structuredClone(buckets[bucket] ?? {});
      for (const [c, a] of Object.entries(ours)) {
        const first = !current[c];
        addAmount(current, c, a.pods, Object.entries(a.resources));
        // The bucket's bases: what the summary showed taken when it was first written for the cluster.
        const usage = first ? this.#shown?.(c) : undefined;
        if (usage?.has(PODS)) {
          const amount = current[c]!;
          amount.basePods = usage.get(PODS)!;
          amount.baseResources = Object.fromEntries([...usage].filter(([name]) => name !== PODS));
        }
      }
      const spec = { buckets: { ...buckets, [bucket]: current } };
      this.writes++;
      const item = this.#item;
      const written = await tryWrite(() =>
        item
          ? this.#store.update({ ...item, spec })
          : this.#store.create({
              apiVersion: `${CLUSTER_RESERVATION.group}/v1`,
              kind: CLUSTER_RESERVATION.kind,
              metadata: { name: LEDGER_NAME },
              spec,
            }),
      );
      if (written.ok) {
        this.#item = written.object;
        return refused;
      }
      // Lost to a concurrent scheduler (or the ledger went): re-read it and check what still fits.
      this.conflicts++;
      this.#item = await this.#store.get({ ...CLUSTER_RESERVATION, name: LEDGER_NAME });
      const fresh = totals(this.#live(this.#now()), ours);
      const over = Object.keys(ours).filter((c) => this.#overcommitted(c, fresh.get(c)));
      // Refused clusters' amounts are dropped; the rest is merged and written on the next attempt (a
      // refused binding's amounts on other clusters stay reserved until they expire: conservative).
      for (const c of over) {
        delete ours[c];
        refused.add(c);
      }
      this.#refresh(ours);
    }
    this.#refresh(undefined);
    for (const c of Object.keys(ours)) refused.add(c);
    return refused;
  }

  /** The snapshot's reservations := fresh ledger + `extra` (being written) + what waits for the next flush. */
  #refresh(extra: Record<string, LedgerAmount> | undefined): void {
    const combined: Record<string, LedgerAmount> = structuredClone(extra ?? {});
    for (const [c, a] of Object.entries(this.#pending)) addAmount(combined, c, a.pods, Object.entries(a.resources));
    const fresh = totals(this.#live(this.#now()), combined);
    this.#snapshot.reservations.clear();
    for (const [c, r] of fresh) this.#snapshot.reservations.set(c, r);
  }

  #overcommitted(cluster: string, reserved: Reservation | undefined): boolean {
    const info = this.#snapshot.byName.get(cluster);
    if (!info || !reserved) return false;
    if (reserved.pods > info.capacity.allowedPods) return true;
    for (const [name, n] of reserved.units) {
      const available = info.capacity.available.get(name);
      if (available !== undefined && n > available) return true;
    }
    return false;
  }
}
