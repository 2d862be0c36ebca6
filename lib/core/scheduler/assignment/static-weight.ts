/**
 * Divided + Weighted with static weights (Karmada `assignByStaticWeightStrategy`,
 * `division_algorithm.go getStaticWeightInfoList`), divided by the Webster method as Karmada ≥ 1.16
 * does (v1.15 used the dispenser with a random tie-break). Capacity is not checked: a static weight is
 * the user's explicit choice.
 */
import { clusterMatches } from '../../placement/affinity.ts';
import type { ClusterPreferences, TargetCluster } from '../../model/types.ts';
import type { ClusterDetail } from '../framework/types.ts';
import type { ClusterWeight } from './dispenser.ts';
import { websterAllocate } from './webster.ts';

/**
 * Each candidate's static weight (Karmada `getStaticWeightInfoList`):
 * - `weightPreference` undefined ⇒ weight 1 for every candidate;
 * - otherwise the MAX weight over the `staticWeightList` rules whose `targetCluster` matches it;
 *   candidates with weight 0 (no rule matches) are left out;
 * - when that leaves nothing (or only zeros), every candidate gets weight 1.
 * `lastReplicas` is the candidate's replicas in `previous` (kept for parity; Webster ignores it).
 */
export function staticWeights(
  candidates: readonly ClusterDetail[],
  weightPreference: ClusterPreferences | undefined,
  previous: readonly TargetCluster[],
): ClusterWeight[] {
  const lastReplicas = (name: string) => previous.find((t) => t.name === name)?.replicas ?? 0;
  if (!weightPreference)
    return candidates.map((c) => ({ name: c.name, weight: 1, lastReplicas: lastReplicas(c.name) }));

  const rules = weightPreference.staticWeightList ?? [];
  const list: ClusterWeight[] = [];
  for (const c of candidates) {
    let weight = 0;
    for (const rule of rules) {
      if (rule.weight > weight && clusterMatches(c.cluster, rule.targetCluster)) weight = rule.weight;
    }
    if (weight > 0) list.push({ name: c.name, weight, lastReplicas: lastReplicas(c.name) });
  }
  if (list.reduce((s, w) => s + w.weight, 0) === 0) {
    return candidates.map((c) => ({ name: c.name, weight: 1, lastReplicas: 0 }));
  }
  return list;
}

/**
 * Divides `replicas` among `candidates` by their static weights with the Webster method; ties are
 * broken per object by `uid` (see `websterAllocate`). Returns every weighted candidate sorted by name,
 * including those that got 0 replicas.
 *
 * @example
 * // weights m1:2, m2:1, m3 unmatched
 * assignByStaticWeight(candidates, 3, preference, [], uid) // m1 2, m2 1
 */
export function assignByStaticWeight(
  candidates: readonly ClusterDetail[],
  replicas: number,
  weightPreference: ClusterPreferences | undefined,
  previous: readonly TargetCluster[],
  uid: string,
): TargetCluster[] {
  const weights = staticWeights(candidates, weightPreference, previous);
  const seats = websterAllocate(
    replicas,
    weights.map((w) => ({ name: w.name, weight: w.weight })),
    uid,
  );
  return seats.map((s) => ({ name: s.name, replicas: s.seats }));
}
