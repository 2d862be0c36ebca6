/**
 * Selection under a `cluster` spread constraint alone (Karmada v1.15
 * `core/spreadconstraint/select_clusters_by_cluster.go`).
 */
import type { SpreadConstraint } from '../../model/types.ts';
import { fail, ok, type ClusterDetail, type Outcome } from '../framework/types.ts';
import { INVALID_REPLICAS, maxGroupsOf, minGroupsOf, notEnoughResourceMessage, SPREAD_ERRORS } from './util.ts';

/**
 * Max-heap over the not-selected clusters by (availableReplicas desc, position asc): Karmada's
 * `GetClusterWithMaxAvailableResource` picks the first cluster with the largest availableReplicas.
 */
class RestHeap {
  private readonly avail: number[] = [];
  private readonly pos: number[] = [];
  private readonly items: ClusterDetail[] = [];

  constructor(rest: readonly ClusterDetail[], from: number) {
    for (let i = from; i < rest.length; i++) {
      const c = rest[i]!;
      this.avail.push(c.availableReplicas);
      this.pos.push(i);
      this.items.push(c);
    }
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  topAvailable(): number {
    return this.avail[0]!;
  }

  topItem(): ClusterDetail {
    return this.items[0]!;
  }

  /** Puts `c` where the top was (it takes the top's position in the rest list). */
  replaceTop(c: ClusterDetail): void {
    this.avail[0] = c.availableReplicas;
    this.items[0] = c;
    this.down(0);
  }

  private before(a: number, b: number): boolean {
    const av = this.avail[a]!;
    const bv = this.avail[b]!;
    return av > bv || (av === bv && this.pos[a]! < this.pos[b]!);
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const m = r < n && this.before(r, l) ? r : l;
      if (!this.before(m, i)) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const av = this.avail[a]!;
    this.avail[a] = this.avail[b]!;
    this.avail[b] = av;
    const ap = this.pos[a]!;
    this.pos[a] = this.pos[b]!;
    this.pos[b] = ap;
    const ai = this.items[a]!;
    this.items[a] = this.items[b]!;
    this.items[b] = ai;
  }
}

/**
 * Karmada `selectBestClustersByCluster`: from `sorted` (in `compareClusters` order) take the
 * top `n = min(maxGroups, #clusters)`. With `needReplicas` = -1 that is the answer (maxGroups 0 ⇒
 * zero clusters, which Karmada's assignment then rejects with `no clusters available to schedule`).
 * Otherwise, while the taken clusters' Σavailable < `needReplicas`, walk the taken list from the end
 * and swap each entry for the not-taken cluster with the most availableReplicas when that is more
 * than its own; still short (or n = 0) ⇒ `no enough resource when selecting n clusters`.
 * Fewer clusters than minGroups ⇒ `the number of feasible clusters is less than spreadConstraint.MinGroups`.
 *
 * O(n + k log n) for k swaps. Does not modify `sorted`.
 */
export function selectByCluster(
  constraint: SpreadConstraint | undefined,
  sorted: readonly ClusterDetail[],
  needReplicas: number,
): Outcome<ClusterDetail[]> {
  const total = sorted.length;
  if (total < minGroupsOf(constraint)) return fail('SchedulerError', SPREAD_ERRORS.clusterMinGroups);
  const needCnt = Math.max(0, Math.min(total, maxGroupsOf(constraint)));
  const selected = sorted.slice(0, needCnt);
  if (needReplicas === INVALID_REPLICAS) return ok(selected);

  let sum = 0;
  for (const c of selected) sum += c.availableReplicas;
  if (sum < needReplicas && needCnt < total) {
    const rest = new RestHeap(sorted, needCnt);
    for (let u = needCnt - 1; sum < needReplicas && u >= 0; u--) {
      const current = selected[u]!;
      if (rest.topAvailable() <= current.availableReplicas) continue;
      const swapIn = rest.topItem();
      sum += swapIn.availableReplicas - current.availableReplicas;
      selected[u] = swapIn;
      rest.replaceTop(current);
    }
  }
  // Karmada returns an error for an empty selection even when nothing is needed.
  if (sum < needReplicas || needCnt === 0) return fail('SchedulerError', notEnoughResourceMessage(needCnt));
  return ok(selected);
}
