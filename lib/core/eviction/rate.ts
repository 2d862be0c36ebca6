/**
 * How fast evictions may go. A control plane that loses its own network sees every cluster fail at
 * once; evicting everything then would move the whole fleet for nothing (Karmada #5150). As
 * Kubernetes' node lifecycle controller does for nodes:
 *
 * - normally, at most `--resource-eviction-rate` evictions per second (Karmada ≥ 1.16's flag) with a
 *   burst of `--resource-eviction-burst`;
 * - when more than `--unhealthy-cluster-threshold` (0.55) of the clusters are unhealthy, at the
 *   secondary rate `--secondary-resource-eviction-rate` (0.1/s, Karmada #6777's proposal);
 * - when every cluster is unhealthy (a full disruption: the problem is most likely the control plane's
 *   own view), not at all.
 *
 * The limiter is a token bucket whose state is stored (one item), so restarts and concurrent
 * functions share it; this module only computes.
 */

export interface EvictionRateSettings {
  /** Evictions per second in normal conditions (`--resource-eviction-rate`, default 0.5). */
  ratePerSecond: number;
  /** Evictions allowed at once before the rate applies (`--resource-eviction-burst`, default 10). */
  burst: number;
  /** Evictions per second when too many clusters are unhealthy (`--secondary-resource-eviction-rate`, 0.1). */
  secondaryRatePerSecond: number;
  /** Fraction of unhealthy clusters above which the secondary rate applies (`--unhealthy-cluster-threshold`, 0.55). */
  unhealthyThreshold: number;
}

export const DEFAULT_EVICTION_RATE: EvictionRateSettings = {
  ratePerSecond: 0.5,
  burst: 10,
  secondaryRatePerSecond: 0.1,
  unhealthyThreshold: 0.55,
};

export type EvictionRateMode = 'normal' | 'secondary' | 'halted';

export interface FleetEvictionRate {
  mode: EvictionRateMode;
  ratePerSecond: number;
  unhealthy: number;
  total: number;
}

/**
 * The rate that applies to the fleet now, from each cluster's health (`true` = Ready). An empty
 * fleet evicts nothing.
 */
export function fleetEvictionRate(healthy: readonly boolean[], settings: EvictionRateSettings): FleetEvictionRate {
  const total = healthy.length;
  const unhealthy = healthy.filter((h) => !h).length;
  if (total === 0 || unhealthy === total) return { mode: 'halted', ratePerSecond: 0, unhealthy, total };
  if (unhealthy / total > settings.unhealthyThreshold) {
    return { mode: 'secondary', ratePerSecond: settings.secondaryRatePerSecond, unhealthy, total };
  }
  return { mode: 'normal', ratePerSecond: settings.ratePerSecond, unhealthy, total };
}

/** The stored state of the eviction limiter. */
export interface TokenBucket {
  tokens: number;
  updatedMs: number;
}

/**
 * Takes up to `want` tokens from a bucket refilled at `ratePerSecond` up to `burst` (a missing bucket
 * is full). A rate of 0 grants nothing, even from a full bucket. Returns what was granted, the bucket to store, and — when fewer than wanted were granted
 * — when the next token will be there (undefined while the rate is 0: nothing will come until the
 * mode changes).
 */
export function takeTokens(args: {
  bucket: TokenBucket | undefined;
  nowMs: number;
  ratePerSecond: number;
  burst: number;
  want: number;
}): { granted: number; bucket: TokenBucket; retryAtMs?: number } {
  const burst = Math.max(1, args.burst);
  const previous = args.bucket ?? { tokens: burst, updatedMs: args.nowMs };
  // Halted (a full disruption): nothing is granted, whatever the bucket holds.
  if (args.ratePerSecond <= 0) return { granted: 0, bucket: previous };
  const elapsed = Math.max(0, args.nowMs - previous.updatedMs) / 1000;
  const available = Math.min(burst, previous.tokens + elapsed * args.ratePerSecond);
  const granted = Math.max(0, Math.min(args.want, Math.floor(available)));
  const left = available - granted;
  const bucket = { tokens: left, updatedMs: args.nowMs };
  if (granted >= args.want) return { granted, bucket };
  return { granted, bucket, retryAtMs: args.nowMs + Math.ceil(((1 - left) / args.ratePerSecond) * 1000) };
}
