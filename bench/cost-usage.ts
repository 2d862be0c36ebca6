/** What a window of counts stands for in AWS usage, and the arithmetic on count maps the report needs. */
import { CONTROLLER_SPECS } from '../lib/controllers/specs.ts';
import type { BundleMeasurement } from './cost-bundles.ts';
import {
  cpuSlowdown,
  gbSeconds,
  HOURS_PER_MONTH,
  IDLE_RECEIVES_PER_QUEUE_MINUTE,
  MINUTES_PER_MONTH,
  type Usage,
} from './cost-model.ts';
import { type Counts, metric } from './cost-meter.ts';
import { ENV } from './cost-world.ts';

/** A stretch of counts and the minutes it took. */
export interface Window {
  counts: Counts;
  minutes: number;
}

/** The usage a window of counts stands for. */
export function usageOf(counts: Counts): Usage {
  return {
    apiRequests: metric(counts, 'api.requests'),
    lambdaRequests: metric(counts, 'lambda.invocations'),
    lambdaGbSeconds: metric(counts, 'lambda.gbSeconds'),
    dynamoWriteUnits:
      metric(counts, 'ddb.wru.table') +
      metric(counts, 'ddb.wru.byKind') +
      metric(counts, 'ddb.wru.byCluster') +
      metric(counts, 'ddb.wru.byOwner'),
    dynamoReadUnits: metric(counts, 'ddb.rru'),
    sqsRequests:
      metric(counts, 'sqs.send') +
      metric(counts, 'sqs.receive') +
      metric(counts, 'sqs.delete') +
      metric(counts, 'sqs.visibility'),
    schedulerInvocations: metric(counts, 'scheduler.invocations'),
    kmsRequests: metric(counts, 'kms.requests'),
    logBytes: metric(counts, 'logs.bytes'),
    logStoredGbMonths: (metric(counts, 'logs.bytes') / 1e9) * (ENV.logRetentionDays / (HOURS_PER_MONTH / 24)),
    dataOutBytes: metric(counts, 'member.bytesOut') + metric(counts, 'api.bytesOut'),
  };
}

/** Counts scaled by `factor` (a window to a month, a total to one change). */
export function scaleCounts(counts: Counts, factor: number): Counts {
  return new Map([...counts].map(([k, v]) => [k, v * factor]));
}

/** Usage of an idle month from a window: the window scaled, Lambda's idle polling and cold starts added. */
export function idleMonthUsage(
  window: Window,
  coldStarts: Map<string, number>,
  tableKeyRequests: number,
  bundles: readonly BundleMeasurement[],
  eventSources: number,
): { usage: Usage; coldStartGbSeconds: number; pollRequests: number; tableKeyRequests: number } {
  const factor = MINUTES_PER_MONTH / window.minutes;
  const usage = usageOf(scaleCounts(window.counts, factor));
  let coldStartGbSeconds = 0;
  for (const [fn, n] of coldStarts) {
    const spec = CONTROLLER_SPECS.find((s) => s.name === fn);
    const bundle = bundles.find((b) => b.name === `${ENV.prefix}-${fn}`);
    if (!spec || !bundle) continue;
    coldStartGbSeconds += n * factor * gbSeconds(bundle.initMs * cpuSlowdown(spec.memoryMB), spec.memoryMB);
  }
  const pollRequests = eventSources * IDLE_RECEIVES_PER_QUEUE_MINUTE * MINUTES_PER_MONTH;
  usage.lambdaGbSeconds += coldStartGbSeconds;
  usage.sqsRequests += pollRequests;
  usage.kmsRequests += tableKeyRequests * factor;
  return { usage, coldStartGbSeconds, pollRequests, tableKeyRequests: tableKeyRequests * factor };
}

/** The average of count maps, key by key. */
export function meanCounts(samples: readonly Counts[]): Counts {
  const sum = samples.reduce<Counts>((total, s) => addCounts(total, s), new Map());
  return scaleCounts(sum, 1 / Math.max(1, samples.length));
}

export function addCounts(a: Counts, b: Counts): Counts {
  const out: Counts = new Map(a);
  for (const [k, v] of b) out.set(k, (out.get(k) ?? 0) + v);
  return out;
}
