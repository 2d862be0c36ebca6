/**
 * The scheduler's reservation ledger (our answer to Karmada #6783): capacity promised to bindings
 * scheduled moments ago, which the member's resource summary does not show yet. One internal object
 * per cluster (`ClusterReservation`, not served by the API) holds an entry per binding —
 * `{pods, resources, expiresAt}` in the estimator's units — written with a conditional write, so two
 * scheduler batches deciding at once cannot both take a cluster's last free capacity: the second
 * write conflicts, re-reads, and is refused when the cluster would be over-committed (its bindings are
 * then decided again on the fresh ledger).
 *
 * Entries expire after a TTL (default 60 s: several summary collections), by which time the pods are
 * in the summary. Until then both count, so an estimate errs on the side of too little, never too much.
 * Writes are coalesced: one write per touched cluster per flush, shared by every binding of a batch.
 */
import type { KubeObject } from '../api/object.ts';
import { emptyReservation, type Reservation } from '../core/scheduler/estimate.ts';
import type { ReservationDelta, Snapshot } from '../core/scheduler/snapshot.ts';
import { AlreadyExistsError, ConflictError } from '../store/errors.ts';
import { listAll } from '../store/list-all.ts';
import type { ObjectStore } from '../store/port.ts';

export const CLUSTER_RESERVATION = { group: 'work.serverless-karmada.io', kind: 'ClusterReservation' };
export const DEFAULT_RESERVATION_TTL_MS = 60_000;

export interface LedgerEntry {
  pods: number;
  resources: Record<string, number>;
  /** ms since epoch. */
  expiresAt: number;
}

type Entries = Record<string, LedgerEntry>;

function entriesOf(item: KubeObject | undefined, now: number): Entries {
  const raw = (item?.spec as { entries?: Entries } | undefined)?.entries ?? {};
  const out: Entries = {};
  for (const [key, e] of Object.entries(raw)) if (e && e.expiresAt > now) out[key] = e;
  return out;
}

function total(entries: Iterable<LedgerEntry>): Reservation {
  const r = emptyReservation();
  for (const e of entries) {
    r.pods += e.pods;
    for (const [name, n] of Object.entries(e.resources)) r.units.set(name, (r.units.get(name) ?? 0) + n);
  }
  return r;
}

/** Loads every cluster's live reservations (one list). */
export async function loadLedger(store: ObjectStore): Promise<Map<string, KubeObject>> {
  return new Map((await listAll(store, CLUSTER_RESERVATION)).map((item) => [item.metadata.name!, item]));
}

/** Cluster name → total live reservation, for {@link buildSnapshot}. */
export function ledgerReservations(items: ReadonlyMap<string, KubeObject>, now: number): Map<string, Reservation> {
  const out = new Map<string, Reservation>();
  for (const [name, item] of items) {
    const entries = Object.values(entriesOf(item, now));
    if (entries.length > 0) out.set(name, total(entries));
  }
  return out;
}

interface Waiter {
  binding: string;
  clusters: Set<string>;
  resolve: (ok: boolean) => void;
}

/**
 * The ledger as one scheduler batch sees it: commits from the batch's bindings are coalesced into one
 * conditional write per cluster.
 */
export class BatchLedger {
  readonly #store: ObjectStore;
  readonly #snapshot: Snapshot;
  readonly #items: Map<string, KubeObject>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** cluster → binding → entry, waiting for the next flush. */
  #pending = new Map<string, Map<string, LedgerEntry>>();
  #waiters: Waiter[] = [];
  #flushQueued = false;
  /** Writes made (for metrics and the benchmark). */
  writes = 0;
  conflicts = 0;

  constructor(options: {
    store: ObjectStore;
    snapshot: Snapshot;
    items: Map<string, KubeObject>;
    ttlMs: number;
    now: () => number;
  }) {
    this.#store = options.store;
    this.#snapshot = options.snapshot;
    this.#items = options.items;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now;
  }

  /**
   * Records a binding's deltas; resolves true once they are in the ledger, false when a cluster
   * would be over-committed by what other schedulers reserved meanwhile (the snapshot has then been
   * refreshed and the binding's deltas removed from it: decide again).
   */
  commit(binding: string, deltas: readonly ReservationDelta[]): Promise<boolean> {
    const useful = deltas.filter((d) => d.pods > 0 || [...d.units.values()].some((n) => n > 0));
    if (useful.length === 0) return Promise.resolve(true);
    const now = this.#now();
    for (const d of useful) {
      let byBinding = this.#pending.get(d.cluster);
      if (!byBinding) this.#pending.set(d.cluster, (byBinding = new Map()));
      const previous = byBinding.get(binding) ?? entriesOf(this.#items.get(d.cluster), now)[binding];
      const resources: Record<string, number> = { ...(previous?.resources ?? {}) };
      for (const [name, n] of d.units) resources[name] = (resources[name] ?? 0) + n;
      byBinding.set(binding, { pods: (previous?.pods ?? 0) + d.pods, resources, expiresAt: now + this.#ttlMs });
    }
    return new Promise<boolean>((resolve) => {
      this.#waiters.push({ binding, clusters: new Set(useful.map((d) => d.cluster)), resolve });
      if (!this.#flushQueued) {
        this.#flushQueued = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const pending = this.#pending;
    const waiters = this.#waiters;
    this.#pending = new Map();
    this.#waiters = [];
    this.#flushQueued = false;
    const refused = new Map<string, Set<string>>();
    await Promise.all(
      [...pending].map(async ([cluster, ours]) => {
        const lost = await this.#write(cluster, ours).catch(() => new Set(ours.keys()));
        if (lost.size > 0) refused.set(cluster, lost);
      }),
    );
    for (const w of waiters) {
      const ok = ![...w.clusters].some((c) => refused.get(c)?.has(w.binding));
      w.resolve(ok);
    }
  }

  /** Writes one cluster's entries; returns the bindings refused (over-commit after a conflict). */
  async #write(cluster: string, ours: Map<string, LedgerEntry>): Promise<Set<string>> {
    let item = this.#items.get(cluster);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const now = this.#now();
      const entries = { ...entriesOf(item, now), ...Object.fromEntries(ours) };
      try {
        this.writes++;
        item = item
          ? await this.#store.update({ ...item, spec: { entries } })
          : await this.#store.create({
              apiVersion: `${CLUSTER_RESERVATION.group}/v1`,
              kind: CLUSTER_RESERVATION.kind,
              metadata: { name: cluster },
              spec: { entries },
            });
        this.#items.set(cluster, item);
        return new Set();
      } catch (err) {
        if (!(err instanceof ConflictError) && !(err instanceof AlreadyExistsError)) throw err;
        this.conflicts++;
        const before = entriesOf(item, now);
        const fresh = await this.#store.get({ ...CLUSTER_RESERVATION, name: cluster });
        const after = entriesOf(fresh, now);
        if (fresh) this.#items.set(cluster, fresh);
        else this.#items.delete(cluster);
        item = fresh;
        const othersGrew = Object.entries(after).some(
          ([key, e]) =>
            !ours.has(key) && (!before[key] || before[key].pods < e.pods || before[key].expiresAt < e.expiresAt),
        );
        const merged = { ...after, ...Object.fromEntries(ours) };
        if (othersGrew && this.#overcommitted(cluster, Object.values(merged))) {
          this.#refresh(cluster, after);
          return new Set(ours.keys());
        }
        this.#refresh(cluster, merged);
      }
    }
    this.#refresh(cluster, entriesOf(item, this.#now()));
    return new Set(ours.keys());
  }

  /** Sets the snapshot's reservation on `cluster` to `entries` plus what waits for the next flush. */
  #refresh(cluster: string, entries: Entries): void {
    const next = this.#pending.get(cluster);
    const all = { ...entries, ...(next ? Object.fromEntries(next) : {}) };
    this.#snapshot.reservations.set(cluster, total(Object.values(all)));
  }

  #overcommitted(cluster: string, entries: LedgerEntry[]): boolean {
    const info = this.#snapshot.byName.get(cluster);
    if (!info) return false;
    const sum = total(entries);
    if (sum.pods > info.capacity.allowedPods) return true;
    for (const [name, n] of sum.units) {
      const available = info.capacity.available.get(name);
      if (available !== undefined && n > available) return true;
    }
    return false;
  }
}
