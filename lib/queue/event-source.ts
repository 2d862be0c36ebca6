/**
 * An SQS event-source mapping, as Lambda runs it, for local mode and tests: pollers receive
 * messages, gather a batch (batch size, batching window), invoke the handler with a real-shaped
 * SQSEvent, delete what succeeded and leave the reported failures (partial batch response) to come
 * back after their visibility timeout; the queue's redrive policy moves poison messages to its DLQ.
 * `maxConcurrency` workers per source, each with its own handler instance, as each Lambda execution
 * environment has its own module state.
 */
import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Clock } from '../clock/clock.ts';
import type { QueueTransport, ReceivedMessage } from './port.ts';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

export interface EventSourceSpec {
  /** For logs, e.g. `resync/standard`. */
  name: string;
  functionName: string;
  /** The transport's id of the queue (URL for SQS). */
  queue: string;
  queueArn: string;
  /** 1..10000. */
  batchSize: number;
  /** 0..300: how long to keep gathering a batch after its first message. */
  maximumBatchingWindowSeconds: number;
  /** Concurrent invocations for this source (Lambda: 2..1000). */
  maxConcurrency: number;
  visibilityTimeoutSeconds: number;
  /** The function's timeout, reported by `context.getRemainingTimeInMillis()`. */
  timeoutSeconds: number;
  /** Builds a handler for one worker (one "execution environment"). */
  createHandler: () => SqsHandler;
}

/** What happened in one invocation. */
export interface InvocationReport {
  source: string;
  messages: number;
  /** Messages left for retry (reported failures, or the whole batch when the handler threw). */
  retried: number;
  durationMs: number;
  error?: unknown;
}

export interface EventSourceRunnerOptions {
  transport: QueueTransport;
  clock: Clock;
  sources: readonly EventSourceSpec[];
  region?: string;
  onInvocation?: (report: InvocationReport) => void;
  /** A poller failed (e.g. the queue server is unreachable); it retries after a second. */
  onPollError?: (source: string, error: unknown) => void;
}

interface Worker {
  spec: EventSourceSpec;
  handler: SqsHandler | undefined;
}

const LONG_POLL_SECONDS = 1;

export class EventSourceRunner {
  readonly #options: EventSourceRunnerOptions;
  /** Cancels the one-second pause after a failed poll; polls themselves are never aborted. */
  readonly #abort = new AbortController();
  readonly #loops: Promise<void>[] = [];
  #stopping = false;
  /** Deterministic mode keeps one worker per source. */
  readonly #steppers = new Map<string, Worker>();
  #started = false;

  constructor(options: EventSourceRunnerOptions) {
    this.#options = options;
  }

  /** Starts `maxConcurrency` polling workers per source. */
  start(): void {
    if (this.#started) throw new Error('event-source runner already started');
    this.#started = true;
    for (const spec of this.#options.sources) {
      for (let i = 0; i < spec.maxConcurrency; i++) this.#loops.push(this.#loop({ spec, handler: undefined }));
    }
  }

  /**
   * Stops polling: no new poll starts, polls under way finish (within a second) and every message
   * already received is handled. Resolves when every worker is idle.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#abort.abort();
    await Promise.all(this.#loops);
  }

  /**
   * Deterministic mode: runs rounds in which every source (in the order given, so list priority
   * sources first) gets one receive-and-invoke cycle, until a whole round delivers nothing.
   * Returns the number of messages delivered. Does not move the clock.
   *
   * With `concurrent`, each round starts every source's `maxConcurrency` workers at once, as Lambda
   * runs its pollers' invocations side by side: their handlers interleave wherever they await, so two
   * invocations race on the store as they would in AWS. With in-memory ports the interleaving is still
   * the same on every run (the deterministic simulation).
   */
  async runUntilIdle(
    maxRounds = 10_000,
    options: {
      concurrent?: boolean;
      /** How many messages a worker gathers this time (at most the batch size): SQS answers a poll with any number. */
      batchLimit?: (spec: EventSourceSpec) => number;
    } = {},
  ): Promise<number> {
    const limit = options.batchLimit;
    let total = 0;
    for (let round = 0; round < maxRounds; round++) {
      let delivered = 0;
      if (options.concurrent) {
        const workers = this.#options.sources.flatMap((spec) =>
          Array.from({ length: Math.max(1, spec.maxConcurrency) }, (_, i) => this.#stepper(spec, i)),
        );
        for (const n of await Promise.all(workers.map((w) => this.#cycle(w, false, limit?.(w.spec))))) delivered += n;
      } else {
        for (const spec of this.#options.sources)
          delivered += await this.#cycle(this.#stepper(spec, 0), false, limit?.(spec));
      }
      total += delivered;
      if (delivered === 0) return total;
    }
    throw new Error(`event sources still busy after ${maxRounds} rounds`);
  }

  /** The `index`-th deterministic worker of a source (each keeps its own handler, as an environment does). */
  #stepper(spec: EventSourceSpec, index: number): Worker {
    const id = `${spec.name}#${index}`;
    let worker = this.#steppers.get(id);
    if (!worker) {
      worker = { spec, handler: undefined };
      this.#steppers.set(id, worker);
    }
    return worker;
  }

  async #loop(worker: Worker): Promise<void> {
    while (!this.#stopping) {
      try {
        await this.#cycle(worker, true);
      } catch (err) {
        if (this.#stopping) break;
        this.#options.onPollError?.(worker.spec.name, err);
        await this.#options.clock.sleep(1000, this.#abort.signal).catch(() => {});
      }
    }
  }

  /** Gathers one batch and invokes the handler with it. Returns the number of messages delivered. */
  async #cycle(worker: Worker, wait: boolean, limit?: number): Promise<number> {
    const batch = await this.#gather(worker.spec, wait, limit);
    if (batch.length === 0) return 0;
    await this.#invoke(worker, batch);
    return batch.length;
  }

  /**
   * Receives until the batch is full or its window has passed. Polls are never abandoned: an aborted
   * long poll would still take messages on the server and hide them for a visibility timeout, so each
   * poll waits at most LONG_POLL_SECONDS and stopping simply starts no new one.
   */
  async #gather(spec: EventSourceSpec, wait: boolean, limit?: number): Promise<ReceivedMessage[]> {
    const { transport, clock } = this.#options;
    const batch: ReceivedMessage[] = [];
    const size = limit === undefined ? spec.batchSize : Math.max(1, Math.min(spec.batchSize, limit));
    let windowEnds: number | undefined;
    for (;;) {
      const remaining = size - batch.length;
      if (remaining <= 0) break;
      if (wait && this.#stopping) break;
      let waitTimeSeconds = 0;
      if (wait) {
        waitTimeSeconds =
          windowEnds === undefined
            ? LONG_POLL_SECONDS
            : Math.min(LONG_POLL_SECONDS, Math.max(0, Math.ceil((windowEnds - clock.now()) / 1000)));
      }
      let got: ReceivedMessage[];
      try {
        got = await transport.receive(spec.queue, {
          maxMessages: Math.min(10, remaining),
          waitTimeSeconds,
          visibilityTimeoutSeconds: spec.visibilityTimeoutSeconds,
        });
      } catch (err) {
        // Keep what was already gathered: those messages are in flight and must be handled.
        if (batch.length > 0) break;
        throw err;
      }
      batch.push(...got);
      if (batch.length === 0) {
        if (!wait) break;
        continue;
      }
      if (windowEnds === undefined) windowEnds = clock.now() + spec.maximumBatchingWindowSeconds * 1000;
      // With no batching window Lambda invokes with what one poll returned.
      if (spec.maximumBatchingWindowSeconds === 0 || clock.now() >= windowEnds) break;
      if (got.length === 0 && !wait) break;
    }
    return batch;
  }

  async #invoke(worker: Worker, batch: ReceivedMessage[]): Promise<void> {
    const { spec } = worker;
    const { transport, clock } = this.#options;
    worker.handler ??= spec.createHandler();
    const started = clock.now();
    const event: SQSEvent = { Records: batch.map((m) => this.#record(spec, m)) };
    let retried = batch.length;
    let error: unknown;
    try {
      const response = await worker.handler(event, this.#context(spec, started));
      const failed = failedIds(response, batch);
      const done = batch.filter((m) => !failed.has(m.messageId)).map((m) => m.receiptHandle);
      if (done.length > 0) await transport.delete(spec.queue, done);
      retried = failed.size;
    } catch (err) {
      // A thrown handler fails the whole batch: every message comes back after its visibility timeout.
      error = err;
    }
    this.#options.onInvocation?.({
      source: spec.name,
      messages: batch.length,
      retried,
      durationMs: clock.now() - started,
      ...(error !== undefined ? { error } : {}),
    });
  }

  #record(spec: EventSourceSpec, m: ReceivedMessage): SQSRecord {
    return {
      messageId: m.messageId,
      receiptHandle: m.receiptHandle,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentTimestamp),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(this.#options.clock.now()),
      },
      messageAttributes: Object.fromEntries(
        Object.entries(m.attributes).map(([k, v]) => [
          k,
          { stringValue: v, stringListValues: [], binaryListValues: [], dataType: 'String' },
        ]),
      ),
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: spec.queueArn,
      awsRegion: this.#options.region ?? 'us-east-1',
    };
  }

  #context(spec: EventSourceSpec, started: number): Context {
    const deadline = started + spec.timeoutSeconds * 1000;
    const clock = this.#options.clock;
    return {
      callbackWaitsForEmptyEventLoop: false,
      functionName: spec.functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${this.#options.region ?? 'us-east-1'}:000000000000:function:${spec.functionName}`,
      memoryLimitInMB: '1024',
      awsRequestId: randomUUID(),
      logGroupName: `/aws/lambda/${spec.functionName}`,
      logStreamName: 'local',
      getRemainingTimeInMillis: () => Math.max(0, deadline - clock.now()),
      done: () => {},
      fail: () => {},
      succeed: () => {},
    };
  }
}

/**
 * The messages a partial batch response asks to retry. As in Lambda, an identifier that is empty or
 * not in the batch makes the whole batch a failure.
 */
function failedIds(response: SQSBatchResponse | undefined, batch: ReceivedMessage[]): Set<string> {
  const failures = response?.batchItemFailures ?? [];
  const ids = new Set(batch.map((m) => m.messageId));
  if (failures.some((f) => !f.itemIdentifier || !ids.has(f.itemIdentifier))) return ids;
  return new Set(failures.map((f) => f.itemIdentifier));
}
