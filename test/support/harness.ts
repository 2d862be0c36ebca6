/**
 * A deterministic controller harness: in-memory queues with SQS semantics, the Lambda event-source
 * runner and the real handler factory, all on a virtual clock. Time moves only when `settle` says.
 */
import type { VirtualClock } from '../../lib/clock/clock.ts';
import { createLogger } from '../../lib/observability/logger.ts';
import { createMetrics, type EmfDocument } from '../../lib/observability/metrics.ts';
import { EventSourceRunner, type EventSourceSpec } from '../../lib/queue/event-source.ts';
import { MemoryQueueTransport } from '../../lib/queue/memory-transport.ts';
import { deadLetterQueueName, queueName, queueNameFromArn } from '../../lib/queue/naming.ts';
import { LANES, type Lane } from '../../lib/queue/port.ts';
import { TransportWorkQueue } from '../../lib/queue/work-queue.ts';
import type { Controller, ReconcileResult } from '../../lib/reconcile/controller.ts';
import { createControllerHandler } from '../../lib/reconcile/handler.ts';

export const PREFIX = 'test';

export interface HarnessOptions {
  clock: VirtualClock;
  controllers: Controller[];
  batchSize?: number;
  maximumBatchingWindowSeconds?: number;
  maxReceiveCount?: number;
  visibilityTimeoutSeconds?: number;
  backoff?: { baseSeconds: number; maxSeconds: number };
}

export function createHarness(options: HarnessOptions) {
  const { clock } = options;
  const transport = new MemoryQueueTransport(clock);
  const emf: EmfDocument[] = [];
  const logs: string[] = [];
  const address = (controller: string, lane: Lane) => queueName(PREFIX, controller, lane);
  const workQueue = new TransportWorkQueue(transport, address, clock);
  const visibility = options.visibilityTimeoutSeconds ?? 30;
  for (const c of options.controllers) {
    transport.createQueue(deadLetterQueueName(PREFIX, c.name), { visibilityTimeoutSeconds: visibility });
    for (const lane of LANES) {
      transport.createQueue(address(c.name, lane), {
        visibilityTimeoutSeconds: visibility,
        redrive: {
          deadLetterQueue: deadLetterQueueName(PREFIX, c.name),
          maxReceiveCount: options.maxReceiveCount ?? 3,
        },
      });
    }
  }
  // Priority sources first: in deterministic rounds each source gets one batch per round, as each
  // lane has its own pollers in Lambda.
  const sources: EventSourceSpec[] = LANES.flatMap((lane) =>
    options.controllers.map((c) => ({
      name: `${c.name}/${lane}`,
      functionName: `${PREFIX}-${c.name}`,
      queue: address(c.name, lane),
      queueArn: `arn:aws:sqs:us-east-1:000000000000:${address(c.name, lane)}`,
      batchSize: options.batchSize ?? 10,
      maximumBatchingWindowSeconds: options.maximumBatchingWindowSeconds ?? 0,
      maxConcurrency: 1,
      visibilityTimeoutSeconds: visibility,
      timeoutSeconds: 30,
      createHandler: () =>
        createControllerHandler(c, {
          workQueue,
          clock,
          logger: createLogger({
            format: 'text',
            level: 'DEBUG',
            service: c.name,
            write: (l) => logs.push(l),
          }),
          metrics: createMetrics({ service: c.name, sink: (d) => emf.push(d) }),
          changeVisibility: (arn, handle, seconds) =>
            transport.changeVisibility(queueNameFromArn(arn), handle, seconds),
          ...(options.backoff ? { backoff: options.backoff } : {}),
        }),
    })),
  );
  const runner = new EventSourceRunner({ transport, clock, sources });

  return {
    transport,
    workQueue,
    runner,
    emf,
    logs,
    address,
    /** The controller's dead-letter queue (both lanes redrive to it). */
    dlq: (controller: string) => deadLetterQueueName(PREFIX, controller),
    /** Delivers everything due, moving the clock to each next delivery, up to `ms` from now. */
    async settle(ms: number): Promise<void> {
      const until = clock.now() + ms;
      for (;;) {
        await runner.runUntilIdle();
        const next = transport.nextVisibleAt();
        if (next === undefined || next > until) break;
        await clock.advanceTo(next);
      }
      await clock.advanceTo(until);
      await runner.runUntilIdle();
    },
  };
}

export interface Call {
  key: string;
  lane: Lane;
  reasons: string[];
  at: number;
}

/** A controller that records its calls and behaves as `behave` says (throw to fail). */
export function recordingController(
  name: string,
  clock: VirtualClock,
  behave: (key: string, attempt: number) => ReconcileResult | undefined | Promise<ReconcileResult | undefined> = () =>
    undefined,
): Controller & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    name,
    calls,
    async reconcile(request) {
      calls.push({ key: request.key, lane: request.lane, reasons: request.reasons, at: clock.now() });
      const attempt = calls.filter((c) => c.key === request.key).length;
      return behave(request.key, attempt);
    },
  };
}
