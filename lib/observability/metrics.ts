/**
 * Metrics: CloudWatch Embedded Metric Format through Powertools' Metrics. In AWS the EMF documents go
 * to stdout, where CloudWatch turns them into metrics; in local mode and tests they go to a sink
 * (never to the terminal), so a test can assert what a reconcile would have published.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'ServerlessKarmada';

/** Metric names, one place. */
export const METRIC = {
  /** Keys reconciled (one per distinct key in a batch). */
  reconciles: 'Reconciles',
  /** Reconciles that threw (the key is retried). */
  reconcileErrors: 'ReconcileErrors',
  /** Milliseconds per reconcile. */
  reconcileLatency: 'ReconcileLatency',
  /** Messages received (before de-duplication). */
  messages: 'MessagesReceived',
  /** Messages folded into another message for the same key in the same batch. */
  duplicateMessages: 'DuplicateMessages',
  /** Timer messages that arrived early and were re-armed (timers longer than 15 minutes). */
  timersRearmed: 'TimersRearmed',
  /** Messages that could not be read; they go to the DLQ after their retries. */
  malformedMessages: 'MalformedMessages',
  /** Keys re-enqueued by a reconcile asking to run again later. */
  requeues: 'Requeues',
  /** API requests answered. */
  apiRequests: 'ApiRequests',
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

export { MetricUnit };

/** An EMF document as serialised by Powertools. */
export type EmfDocument = ReturnType<Metrics['serializeMetrics']>;

/** Powertools Metrics that hands each EMF document to `sink` instead of printing it. */
export class SinkMetrics extends Metrics {
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
    }
    return this;
  }
}

const SERVICES = new WeakMap<Metrics, string>();

/** Metrics for one function. With a `sink`, EMF documents go there instead of stdout. */
export function createMetrics(options: { service: string; sink?: (doc: EmfDocument) => void }): Metrics {
  const base = { namespace: METRICS_NAMESPACE, serviceName: options.service };
  const metrics = options.sink ? new SinkMetrics(base, options.sink) : new Metrics(base);
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

export type { Metrics };
