/**
 * Choosing topology groups (Karmada v1.15 `core/spreadconstraint/select_groups.go`).
 *
 * Karmada sorts the groups by (value asc, weight desc, name asc), enumerates by DFS every
 * combination whose value sum reaches `target` with `min ≤ length ≤ max` (a branch stops at the
 * first such prefix), sorts all of them by (Σweight desc, Σvalue desc, discovery order asc), and then
 * walks that list preferring any later path that is a strict prefix of the current choice, paths
 * being listed by (weight desc, name asc).
 *
 * This port returns the same groups without materialising the paths: a first DFS keeps only the
 * best path (with a weight bound to skip hopeless branches), then the few strict prefixes of that
 * path are checked directly for whether the DFS would have recorded them.
 */

/** A group as the DFS sees it (Karmada `GroupInfo`): `value` = clusters in it, `weight` = its score. */
export interface GroupInfo {
  name: string;
  value: number;
  weight: number;
}

function compareForSearch(a: GroupInfo, b: GroupInfo): number {
  if (a.value !== b.value) return a.value - b.value;
  if (a.weight !== b.weight) return b.weight - a.weight;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Karmada `selectGroups(groups, minConstraint, maxConstraint, target)`: the best combination of
 * groups, listed by (weight desc, name asc); empty when no combination is feasible. Does not modify
 * `groups`.
 *
 * @param minConstraint fewest groups (region constraint's minGroups).
 * @param maxConstraint most groups (region constraint's maxGroups).
 * @param target least Σvalue (the cluster constraint's minGroups).
 * @example selectGroups([{name:'R1',value:1,weight:80}], 1, 3, 1) // [R1]
 */
export function selectGroups<G extends GroupInfo>(
  groups: readonly G[],
  minConstraint: number,
  maxConstraint: number,
  target: number,
): G[] {
  const n = groups.length;
  if (n === 0) return [];
  const gs = groups.slice();
  if (n > 1) gs.sort(compareForSearch);

  // Pass 1: the best recorded path by (Σweight desc, Σvalue desc, discovery asc).
  const onlyChain = n === minConstraint; // Karmada stops backtracking in that case
  const maxWeightFrom = new Array<number>(n + 1);
  maxWeightFrom[n] = -Infinity;
  for (let i = n - 1; i >= 0; i--) maxWeightFrom[i] = Math.max(gs[i]!.weight, maxWeightFrom[i + 1]!);
  const path = new Array<number>(n);
  let depth = 0;
  let best: number[] | null = null;
  let bestWeight = 0;
  let bestValue = 0;

  const dfs = (sumValue: number, sumWeight: number, begin: number): void => {
    if (sumValue >= target && depth >= minConstraint && depth <= maxConstraint) {
      if (best === null || sumWeight > bestWeight || (sumWeight === bestWeight && sumValue > bestValue)) {
        best = path.slice(0, depth);
        bestWeight = sumWeight;
        bestValue = sumValue;
      }
      return;
    }
    if (depth >= maxConstraint || begin >= n) return;
    if (best !== null) {
      // Every descendant adds 1..room more groups of weight ≤ maxWeightFrom[begin].
      const room = Math.min(maxConstraint - depth, n - begin);
      const top = maxWeightFrom[begin]!;
      if (sumWeight + (top >= 0 ? room * top : top) < bestWeight) return;
    }
    for (let i = begin; i < n; i++) {
      const g = gs[i]!;
      path[depth++] = i;
      dfs(sumValue + g.value, sumWeight + g.weight, i + 1);
      depth--;
      if (onlyChain) break;
    }
  };
  dfs(0, 0, 0);
  const p0 = best as number[] | null;
  if (p0 === null || p0.length === 0) return [];

  // The best path's groups as Karmada lists them: weight desc, name asc.
  const ordered = p0.slice().sort((a, b) => {
    const ga = gs[a]!;
    const gb = gs[b]!;
    if (ga.weight !== gb.weight) return gb.weight - ga.weight;
    return ga.name < gb.name ? -1 : ga.name > gb.name ? 1 : 0;
  });

  // Pass 2: Karmada then scans the sorted paths and switches to any path that is a strict prefix
  // of its current choice. Every such path is a prefix of the best one and sorts after it, so the
  // scan is a running minimum: the answer is the shortest strict prefix the DFS recorded. A chained
  // search (n = minConstraint) records only paths of n groups, hence no shorter prefix.
  let finalLen = ordered.length;
  if (!onlyChain) {
    const recorded = (len: number, sumValue: number) =>
      sumValue >= target && len >= minConstraint && len <= maxConstraint;
    const seq: number[] = [];
    for (let k = 1; k < ordered.length; k++) {
      seq.push(ordered[k - 1]!);
      seq.sort((a, b) => a - b); // the order the DFS builds this set in
      let sumValue = 0;
      let reached = true;
      for (let j = 0; j < k - 1 && reached; j++) {
        sumValue += gs[seq[j]!]!.value;
        // A shorter prefix that was recorded ends the DFS branch before this set.
        if (recorded(j + 1, sumValue)) reached = false;
      }
      if (reached && recorded(k, sumValue + gs[seq[k - 1]!]!.value)) {
        finalLen = k;
        break;
      }
    }
  }
  const result = new Array<G>(finalLen);
  for (let i = 0; i < finalLen; i++) result[i] = gs[ordered[i]!]!;
  return result;
}
