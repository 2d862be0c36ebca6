/**
 * When each member cluster is probed within the minute a sweep covers: Karmada's cluster status
 * controller probes every cluster every `--cluster-status-update-frequency` (10 s). Here one sweep a
 * minute enqueues the minute's probes as delayed messages, every cluster in the same slots, so the
 * probes of a fleet arrive together and are reconciled in a few batches (in AWS, a few invocations per
 * slot instead of one per cluster). Spreading each cluster over the period was tried and left out
 * (docs/decisions/0016-work-path-at-the-floor.md): it cost an invocation and two SQS requests per probe and
 * made no difference to local latency once member syncs with nothing to do became cheap.
 */

/** Probe slots in the minute a sweep covers: one per update period, at least one. */
export function probeSlotsPerMinute(statusUpdateFrequencyMs: number): number {
  return Math.max(1, Math.floor(60_000 / probePeriodMs(statusUpdateFrequencyMs)));
}

/** The update period probes are spaced by: at least a second, at most the sweep's minute. */
function probePeriodMs(statusUpdateFrequencyMs: number): number {
  return Math.min(60_000, Math.max(1_000, statusUpdateFrequencyMs));
}

/**
 * The delays, from the sweep, of a cluster's probes in the coming minute: one per slot from `first`
 * (a cluster that joined and was probed just now starts at the next slot), one period apart, all inside
 * the minute so the next sweep's probes do not overlap these.
 */
export function probeDelays(statusUpdateFrequencyMs: number, first = 0): number[] {
  const period = probePeriodMs(statusUpdateFrequencyMs);
  const slots = probeSlotsPerMinute(statusUpdateFrequencyMs);
  return Array.from({ length: Math.max(0, slots - first) }, (_, i) => (i + first) * period);
}
