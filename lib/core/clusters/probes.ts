/**
 * When each member cluster is probed within the minute a sweep covers: Karmada's cluster status
 * controller probes every cluster every `--cluster-status-update-frequency` (10 s), each cluster on a
 * ticker of its own that started when the cluster joined, so the probes of a fleet fall at different
 * instants. Here one sweep a minute enqueues the minute's probes as delayed messages; without an offset
 * of its own every cluster would be probed in the same instant, and the whole fleet's probes (and the
 * member syncs that follow them) would land on the control plane as one burst every period.
 */

/** The golden ratio's fractional part: consecutive positions land as far apart as any set of them can. */
const GOLDEN_FRACTION = 0.6180339887498949;

/** Probe slots in the minute a sweep covers: one per update period, at least one. */
export function probeSlotsPerMinute(statusUpdateFrequencyMs: number): number {
  return Math.max(1, Math.floor(60_000 / probePeriodMs(statusUpdateFrequencyMs)));
}

/** The update period probes are spaced by: at least a second, at most the sweep's minute. */
function probePeriodMs(statusUpdateFrequencyMs: number): number {
  return Math.min(60_000, Math.max(1_000, statusUpdateFrequencyMs));
}

/**
 * The delays, from the sweep, of one cluster's probes in the coming minute: one per slot from `first`,
 * each shifted by the cluster's offset within the period. The offset of the cluster at `position` in
 * the sweep's listing is the fractional part of `position × φ` of a period, so N clusters fall about a
 * period ÷ N apart whatever N is, and a cluster keeps its offset from sweep to sweep while the fleet
 * does not change (its probes stay one period apart). Every delay stays inside the minute, so the next
 * sweep's probes do not overlap these.
 */
export function probeDelays(statusUpdateFrequencyMs: number, position: number, first = 0): number[] {
  const period = probePeriodMs(statusUpdateFrequencyMs);
  const slots = probeSlotsPerMinute(statusUpdateFrequencyMs);
  const offset = Math.floor(((position * GOLDEN_FRACTION) % 1) * period);
  return Array.from({ length: Math.max(0, slots - first) }, (_, i) => (i + first) * period + offset);
}
