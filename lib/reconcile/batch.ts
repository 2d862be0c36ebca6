/**
 * Runs one SQS batch through a controller with Lambda's partial-batch semantics:
 * - messages are decoded; timers that arrived early (longer than SQS's 15-minute delay) are re-armed;
 * - messages for the same key are folded into one reconcile (the key's lane is priority if any was);
 * - keys are reconciled concurrently (bounded); a failed key reports one of its messages as a batch
 *   item failure — only that key is retried — after pushing its visibility out exponentially;
 * - logs carry controller, key, reconcileID and the queue of origin; metrics (EMF) the controller, with
 *   the batch's lane and sizes as document properties (not metrics: docs/decisions/0018-idle-cost.md).
 */
import { randomUUID } from 'node:crypto';
import type { SQSBatchItemFailure, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import type { Clock } from '../clock/clock.ts';
import { deferredChild, type Logger } from '../observability/logger.ts';
import {
  addDocumentProperty,
  DOCUMENT_PROPERTY,
  METRIC,
  type Metrics,
  MetricUnit,
  resetDefaultDimensions,
  setStandingProperties,
} from '../observability/metrics.ts';
import { type ControllerMessage, decodeMessage, timerDue } from '../queue/messages.ts';
import { laneOfQueue } from '../queue/naming.ts';
import type { Lane, WorkQueue } from '../queue/port.ts';
import { forEachLimited } from '../util/concurrency.ts';
import type { BatchScope, Controller, ReconcileResult } from './controller.ts';
import { clusterOfKey } from './log-keys.ts';

export interface RetryBackoff {
  /** Visibility timeout after the first failure; doubles with each receive. */
  baseSeconds: number;
  maxSeconds: number;
}

export interface BatchDependencies {
  workQueue: WorkQueue;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** Keys reconciled at once (default 8). */
  concurrency?: number;
  /** Pushes a failed message's next attempt out (SQS ChangeMessageVisibility); optional. */
  changeVisibility?: (queueArn: string, receiptHandle: string, seconds: number) => Promise<void>;
  backoff?: RetryBackoff;
}

const DEFAULT_BACKOFF: RetryBackoff = { baseSeconds: 2, maxSeconds: 300 };

interface KeyGroup {
  key: string;
  lane: Lane;
  reasons: string[];
  records: SQSRecord[];
}

/** Seconds before the next attempt after `receiveCount` failed attempts. */
export function backoffSeconds(receiveCount: number, backoff: RetryBackoff): number {
  const exponent = Math.max(0, receiveCount - 1);
  return Math.min(backoff.maxSeconds, backoff.baseSeconds * 2 ** Math.min(exponent, 30));
}

function laneOf(record: SQSRecord): Lane {
  const attr = record.messageAttributes?.lane?.stringValue;
  if (attr === 'priority' || attr === 'standard') return attr;
  return laneOfQueue(record.eventSourceARN) ?? 'standard';
}

function receiveCount(record: SQSRecord): number {
  return Number(record.attributes?.ApproximateReceiveCount ?? '1');
}

export async function processBatch(
  controller: Controller,
  records: readonly SQSRecord[],
  deps: BatchDependencies,
): Promise<SQSBatchResponse> {
  const { clock, logger, metrics, workQueue } = deps;
  const failures: SQSBatchItemFailure[] = [];
  const batchLane = records.length > 0 ? laneOf(records[0]!) : 'standard';
  // Default dimensions and standing properties, not plain ones: Powertools flushes a metric early once
  // it holds 100 values and clears plain dimensions when it does, which would drop them from a large
  // batch's latencies. The lane is a property, not a dimension: a dimension would double the metrics.
  resetDefaultDimensions(metrics, { controller: controller.name });
  setStandingProperties(metrics, { [DOCUMENT_PROPERTY.queue]: batchLane });
  addDocumentProperty(metrics, DOCUMENT_PROPERTY.messages, records.length);

  // 1. Decode; re-arm early timers; group the rest by key.
  const groups = new Map<string, KeyGroup>();
  const rearm: { record: SQSRecord; message: ControllerMessage; remaining: number; lane: Lane }[] = [];
  let malformed = 0;
  for (const record of records) {
    let message: ControllerMessage;
    try {
      message = decodeMessage(record);
    } catch (err) {
      malformed++;
      logger.error('unreadable message; it will be retried and then dead-lettered', {
        controller: controller.name,
        messageId: record.messageId,
        error: err as Error,
      });
      failures.push({ itemIdentifier: record.messageId });
      continue;
    }
    const lane = laneOf(record);
    const remaining = timerDue(message, clock.now());
    if (remaining !== undefined) {
      rearm.push({ record, message, remaining, lane });
      continue;
    }
    let group = groups.get(message.key);
    if (!group) {
      group = { key: message.key, lane, reasons: [], records: [] };
      groups.set(message.key, group);
    }
    if (lane === 'priority') group.lane = 'priority';
    if (message.reason && !group.reasons.includes(message.reason)) group.reasons.push(message.reason);
    group.records.push(record);
  }
  if (malformed > 0) metrics.addMetric(METRIC.malformedMessages, MetricUnit.Count, malformed);

  if (rearm.length > 0) {
    try {
      await workQueue.enqueue(
        rearm.map(({ message, remaining, lane }) => ({
          controller: controller.name,
          lane,
          key: message.key,
          delayMs: remaining,
          ...(message.reason ? { reason: message.reason } : {}),
        })),
      );
      metrics.addMetric(METRIC.timersRearmed, MetricUnit.Count, rearm.length);
    } catch (err) {
      logger.error('could not re-arm timers; they will be retried', {
        controller: controller.name,
        error: err as Error,
      });
      for (const r of rearm) failures.push({ itemIdentifier: r.record.messageId });
    }
  }

  const duplicates = [...groups.values()].reduce((n, g) => n + g.records.length - 1, 0);
  if (duplicates > 0) metrics.addMetric(METRIC.duplicateMessages, MetricUnit.Count, duplicates);

  // 2. Reconcile each key once.
  const counts = { errors: 0, requeues: 0 };
  let scope: BatchScope | undefined;
  if (controller.openBatch && groups.size > 0) {
    try {
      scope = await controller.openBatch({ logger, now: clock.now(), keys: [...groups.keys()] });
    } catch (err) {
      // Without its batch state no key can be reconciled: retry them all.
      logger.error('could not open the batch; every key will be retried', {
        controller: controller.name,
        error: err as Error,
      });
      for (const g of groups.values()) failures.push({ itemIdentifier: g.records[0]!.messageId });
      metrics.addMetric(METRIC.reconcileErrors, MetricUnit.Count, groups.size);
      return { batchItemFailures: failures };
    }
  }
  // Every key is reconciled once from here: said on the batch's first document, before any latency is
  // added (Powertools prints a document early at 100 values of one metric: a batch of exactly 100 keys
  // would print its last latency with no document left for a property added after the loop).
  if (groups.size > 0) addDocumentProperty(metrics, DOCUMENT_PROPERTY.reconciles, groups.size);
  // Keys start in the order the batch asks for (the scheduler: higher priorities first).
  const ordered = [...groups.values()];
  if (scope?.order) {
    const rank = new Map(scope.order.map((key, i) => [key, i]));
    ordered.sort((a, b) => (rank.get(a.key) ?? rank.size) - (rank.get(b.key) ?? rank.size));
  }
  await forEachLimited(ordered, controller.reconcileConcurrency ?? deps.concurrency ?? 8, async (group) => {
    const outcome = await reconcileKey(controller, group, deps, scope);
    if (outcome === 'requeued') counts.requeues++;
    if (outcome !== 'failed') return;
    counts.errors++;
    // Retry the key through one of its messages: the most-received one, so a poison key reaches the
    // DLQ after maxReceiveCount attempts. Its siblings are deleted; the retry covers them.
    const retry = group.records.reduce((a, b) => (receiveCount(b) > receiveCount(a) ? b : a));
    failures.push({ itemIdentifier: retry.messageId });
    if (deps.changeVisibility) {
      const seconds = backoffSeconds(receiveCount(retry), deps.backoff ?? DEFAULT_BACKOFF);
      await deps.changeVisibility(retry.eventSourceARN, retry.receiptHandle, seconds).catch((err: unknown) => {
        logger.warn('could not set retry backoff; the queue visibility timeout applies', {
          controller: controller.name,
          key: group.key,
          error: err as Error,
        });
      });
    }
  });

  if (scope?.close) {
    await scope.close().catch((err: unknown) => {
      logger.error('closing the batch failed', { controller: controller.name, error: err as Error });
    });
  }
  // Reconciles are also the SampleCount of ReconcileLatency; errors only when there were some (a zero
  // is billed like any value and says what a missing datapoint says).
  if (counts.errors > 0) metrics.addMetric(METRIC.reconcileErrors, MetricUnit.Count, counts.errors);
  if (counts.requeues > 0) metrics.addMetric(METRIC.requeues, MetricUnit.Count, counts.requeues);
  return { batchItemFailures: failures };
}

/** Reconciles one key (recording its latency). */
async function reconcileKey(
  controller: Controller,
  group: KeyGroup,
  deps: BatchDependencies,
  batch: BatchScope | undefined,
): Promise<'done' | 'requeued' | 'failed'> {
  const { clock, logger, metrics, workQueue } = deps;
  const reconcileId = randomUUID();
  const cluster = clusterOfKey(group.key);
  const log = deferredChild(logger, {
    controller: controller.name,
    key: group.key,
    reconcileID: reconcileId,
    queue: group.lane,
    ...(cluster ? { cluster } : {}),
  });
  const started = clock.now();
  let result: ReconcileResult | undefined;
  try {
    result = await controller.reconcile(
      { key: group.key, lane: group.lane, reasons: group.reasons },
      {
        logger: log,
        reconcileId,
        now: started,
        ...(batch ? { batch } : {}),
        count: (metric, n = 1) => metrics.addMetric(metric, MetricUnit.Count, n),
      },
    );
    if (result?.requeueAfterMs !== undefined) {
      await workQueue.enqueue([
        {
          controller: controller.name,
          lane: result.requeueLane ?? 'standard',
          key: group.key,
          delayMs: result.requeueAfterMs,
          reason: 'requeue',
        },
      ]);
    }
  } catch (err) {
    const elapsed = clock.now() - started;
    metrics.addMetric(METRIC.reconcileLatency, MetricUnit.Milliseconds, elapsed);
    log.error('reconcile failed; the key will be retried', {
      attempt: Math.max(...group.records.map(receiveCount)),
      durationMs: elapsed,
      error: err as Error,
    });
    return 'failed';
  }
  const elapsed = clock.now() - started;
  metrics.addMetric(METRIC.reconcileLatency, MetricUnit.Milliseconds, elapsed);
  log.debug('reconciled', {
    durationMs: elapsed,
    reasons: group.reasons,
    ...(result?.requeueAfterMs !== undefined ? { requeueAfterMs: result.requeueAfterMs } : {}),
  });
  return result?.requeueAfterMs !== undefined ? 'requeued' : 'done';
}
