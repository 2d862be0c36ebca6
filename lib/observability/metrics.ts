/**
 * Metrics: CloudWatch Embedded Metric Format through Powertools' Metrics. In AWS the EMF documents go
 * to stdout, where CloudWatch turns them into metrics; in local mode and tests they go to a sink
 * (never to the terminal), so a test can assert what a reconcile would have published.
 *
 * What is a metric and what is not is a cost decision (docs/decisions/0018-idle-cost.md): CloudWatch
 * bills every metric name × dimension values for each hour it is published ($0.30 a month each), so
 * - a count whose value is zero is not published (missing data reads as zero; the alarms treat it as
 *   not breaching);
 * - what AWS publishes for free is not published again (messages per queue: AWS/SQS
 *   NumberOfMessagesReceived; invocations, errors, duration: AWS/Lambda);
 * - what another metric already holds is not published (reconciles: the SampleCount of
 *   ReconcileLatency);
 * - every metric has one dimension set, `service` and `controller` — the lane is not a dimension (the
 *   queues' own AWS/SQS metrics are per lane).
 * What is worth keeping per batch but not as a metric is a document property: a member of the EMF
 * document that no metric directive names, so CloudWatch Logs keeps it (Logs Insights can query it)
 * and CloudWatch does not extract it.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'ServerlessKarmada';

/** Metric names, one place. */
export const METRIC = {
  /**
   * Keys that failed (their reconcile threw, or the batch could not be opened): each is retried.
   * Published only when not zero.
   */
  reconcileErrors: 'ReconcileErrors',
  /**
   * Milliseconds per reconcile, one value per key reconciled: its SampleCount is the number of
   * reconciles (there is no separate count metric).
   */
  reconcileLatency: 'ReconcileLatency',
  /** Messages folded into another message for the same key in the same batch. */
  duplicateMessages: 'DuplicateMessages',
  /** Timer messages that arrived early and were re-armed (timers longer than 15 minutes). */
  timersRearmed: 'TimersRearmed',
  /** Messages that could not be read; they go to the DLQ after their retries. */
  malformedMessages: 'MalformedMessages',
  /** Keys re-enqueued by a reconcile asking to run again later. */
  requeues: 'Requeues',
  /** Milliseconds per API request. */
  apiLatency: 'ApiLatency',
  /** Bindings evicted from a cluster (one per binding and cluster). */
  evictions: 'Evictions',
  /** Evictions that were due but held back (last copy without a replacement, state not collected). */
  evictionsHeld: 'EvictionsHeld',
  /** Evictions that were due but waited for the fleet's eviction rate. */
  evictionsRateLimited: 'EvictionsRateLimited',
  /** Graceful eviction tasks ended (the old copy may go). */
  evictionTasksEnded: 'EvictionTasksEnded',
  /** Application failover: a copy turned Unhealthy and its toleration window started. */
  applicationWindowsStarted: 'ApplicationUnhealthyWindows',
  /** Application failover: a window closed because the copy became Healthy or Unknown. */
  applicationWindowsCleared: 'ApplicationRecoveries',
} as const;

/**
 * Document properties (logged with the EMF documents, never metrics): of a controller's batch, how many
 * keys it reconciled and messages it received — AWS/SQS NumberOfMessagesReceived has the latter per
 * queue as a metric — and the lane of the queue it came from; of an API request, that it was answered.
 */
export const DOCUMENT_PROPERTY = {
  /** Messages in the batch (before de-duplication); on the batch's first document. */
  messages: 'MessagesReceived',
  /** Keys reconciled in the batch; on the batch's first document. */
  reconciles: 'Reconciles',
  /** The lane (`priority` or `standard`) of the batch's queue; on every document of the batch. */
  queue: 'queue',
  /** 1 on each API request's document (ApiLatency's SampleCount and API Gateway's free Count count them). */
  apiRequests: 'ApiRequests',
} as const;

export { MetricUnit };

/** An EMF document as serialised by Powertools. */
export type EmfDocument = ReturnType<Metrics['serializeMetrics']>;

/**
 * Powertools Metrics with document properties: members of the EMF document that are not metrics.
 * Standing properties are on every document until replaced (a batch's lane, even when Powertools
 * flushes early at 100 values); the others are on the next document only, then cleared.
 */
export class EmfMetrics extends Metrics {
  #standing: Record<string, string | number> = {};
  #next: Record<string, string | number> = {};

  /** Replaces the properties every document carries. */
  setStandingProperties(properties: Record<string, string | number>): void {
    this.#standing = { ...properties };
  }

  /** Puts a property on the next document (published or flushed) only. */
  addDocumentProperty(name: string, value: string | number): void {
    this.#next[name] = value;
  }

  override serializeMetrics(): ReturnType<Metrics['serializeMetrics']> {
    // Metrics and dimensions win over a property of the same name.
    return { ...this.#standing, ...this.#next, ...super.serializeMetrics() } as ReturnType<Metrics['serializeMetrics']>;
  }

  override publishStoredMetrics(): this {
    try {
      return super.publishStoredMetrics();
    } finally {
      this.clearDocumentProperties();
    }
  }

  /** Drops the next document's properties (the standing ones stay). */
  protected clearDocumentProperties(): void {
    this.#next = {};
  }
}

/** EmfMetrics that hands each EMF document to `sink` instead of printing it. */
export class SinkMetrics extends EmfMetrics {
  readonly #sink: (doc: EmfDocument) => void;

  constructor(options: ConstructorParameters<typeof Metrics>[0], sink: (doc: EmfDocument) => void) {
    super(options);
    this.#sink = sink;
  }

  override publishStoredMetrics(): this {
    try {
      if (this.hasStoredMetrics()) this.#sink(this.serializeMetrics());
    } finally {
      this.clearMetrics();
      this.clearDimensions();
      this.clearMetadata();
      this.clearDocumentProperties();
    }
    return this;
  }
}

const SERVICES = new WeakMap<Metrics, string>();

/** Metrics for one function. With a `sink`, EMF documents go there instead of stdout. */
export function createMetrics(options: { service: string; sink?: (doc: EmfDocument) => void }): Metrics {
  const base = { namespace: METRICS_NAMESPACE, serviceName: options.service };
  const metrics = options.sink ? new SinkMetrics(base, options.sink) : new EmfMetrics(base);
  SERVICES.set(metrics, options.service);
  return metrics;
}

/**
 * Replaces the default dimensions (keeping `service`) without Powertools' "has already been added"
 * warning, which it prints whenever a default dimension is set again — every batch.
 */
export function resetDefaultDimensions(metrics: Metrics, dimensions: Record<string, string>): void {
  const service = SERVICES.get(metrics);
  metrics.clearDefaultDimensions();
  metrics.setDefaultDimensions({ ...(service ? { service } : {}), ...dimensions });
}

/** The standing document properties of `metrics` (see {@link EmfMetrics}); ignored for other Metrics. */
export function setStandingProperties(metrics: Metrics, properties: Record<string, string | number>): void {
  if (metrics instanceof EmfMetrics) metrics.setStandingProperties(properties);
}

/** A property of the next EMF document of `metrics` (see {@link EmfMetrics}); ignored for other Metrics. */
export function addDocumentProperty(metrics: Metrics, name: string, value: string | number): void {
  if (metrics instanceof EmfMetrics) metrics.addDocumentProperty(name, value);
}

export type { Metrics };
