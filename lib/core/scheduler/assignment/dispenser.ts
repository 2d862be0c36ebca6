/**
 * Karmada v1.15's replica dispenser (`pkg/util/helper/binding.go`: `Dispenser.TakeByWeight`,
 * `SpreadReplicasByTargetClusters`, `pkg/util/binding.go MergeTargetClusters`), used here for the
 * dynamic strategies (Aggregated, DynamicWeight).
 *
 * Deliberate difference: Karmada v1.15 orders equal weights with equal previous replicas by a
 * crypto-random coin flip, so the same input can give different results. Here that last tie goes to
 * the name in ascending order, which makes every dynamic result reproducible (docs/decisions/0007-scheduler.md).
 */
import type { TargetCluster } from '../../model/types.ts';

/** A cluster's weight for one division (Karmada `ClusterWeightInfo`). */
export interface ClusterWeight {
  name: string;
  weight: number;
  /** Its replicas in the previous result: among equal weights, more previous replicas go first. */
  lastReplicas: number;
}

/** Order of the dispenser: weight desc, lastReplicas desc, then name asc (Karmada: a coin flip). */
export function compareClusterWeights(a: ClusterWeight, b: ClusterWeight): number {
  if (a.weight !== b.weight) return b.weight - a.weight;
  if (a.lastReplicas !== b.lastReplicas) return b.lastReplicas - a.lastReplicas;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Divides `numReplicas` by `weights` and adds the shares to `init` (Karmada `TakeByWeight`): each
 * cluster gets `floor(weight * numReplicas / Σweight)`, and the remainder is handed out one by one
 * to the clusters in dispenser order — highest weight first, not largest fraction first. Returns
 * `init` unchanged when there is nothing to divide (`numReplicas` 0 with a non-empty `init`, or all
 * weights 0). Clusters whose share is 0 stay in the result with 0 replicas.
 *
 * @example takeByWeight(12, [], [w('m1', 20), w('m2', 12), w('m3', 6)]) // m1 7, m2 4, m3 1
 */
export function takeByWeight(
  numReplicas: number,
  init: readonly TargetCluster[],
  weights: readonly ClusterWeight[],
): TargetCluster[] {
  if (numReplicas === 0 && init.length !== 0) return init.map((t) => ({ ...t }));
  const sum = weights.reduce((s, w) => s + w.weight, 0);
  if (sum === 0) return init.map((t) => ({ ...t }));

  const sorted = [...weights].sort(compareClusterWeights);
  const result = sorted.map((w) => ({ name: w.name, replicas: floorMulDiv(w.weight, numReplicas, sum) }));
  let remain = numReplicas - result.reduce((s, t) => s + t.replicas, 0);
  for (const t of result) {
    if (remain === 0) break;
    t.replicas++;
    remain--;
  }
  return mergeTargetClusters(init, result);
}

/**
 * Divides `numReplicas` using the replicas of `clusters` as weights and adds the result to `init`
 * (Karmada `SpreadReplicasByTargetClusters`); `lastReplicas` of each weight is its replicas in `init`.
 */
export function spreadByTargetClusters(
  numReplicas: number,
  clusters: readonly TargetCluster[],
  init: readonly TargetCluster[],
): TargetCluster[] {
  const weights = clusters.map((c) => ({
    name: c.name,
    weight: c.replicas ?? 0,
    lastReplicas: init.find((i) => i.name === c.name)?.replicas ?? 0,
  }));
  return takeByWeight(numReplicas, init, weights);
}

/**
 * Adds the replicas of same-named entries (Karmada `MergeTargetClusters`): the entries of `added` in
 * their order, then the entries only `previous` has in `previous`'s order (Karmada appends those in
 * Go map order, i.e. randomly).
 */
export function mergeTargetClusters(
  previous: readonly TargetCluster[],
  added: readonly TargetCluster[],
): TargetCluster[] {
  if (previous.length === 0) return added.map((t) => ({ ...t }));
  if (added.length === 0) return previous.map((t) => ({ ...t }));
  const old = new Map<string, number>();
  for (const t of previous) old.set(t.name, t.replicas ?? 0);
  const out: TargetCluster[] = added.map((t) => {
    const before = old.get(t.name);
    if (before === undefined) return { ...t };
    old.delete(t.name);
    return { ...t, replicas: (t.replicas ?? 0) + before };
  });
  for (const [name, replicas] of old) out.push({ name, replicas });
  return out;
}

/** `floor(a * b / c)` for non-negative integers, exact even when `a * b` exceeds 2^53 (Go int64 math). */
function floorMulDiv(a: number, b: number, c: number): number {
  const product = a * b;
  if (Number.isSafeInteger(product)) {
    const q = Math.floor(product / c);
    // The float quotient can round up across an integer boundary; step back when it did.
    return q * c > product ? q - 1 : q;
  }
  return Number((BigInt(a) * BigInt(b)) / BigInt(c));
}
