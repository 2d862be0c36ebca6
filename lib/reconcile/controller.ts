/**
 * A controller is `key → reconcile`, level-triggered: a message only names a key; the reconcile
 * reads the current state, decides with a pure function, writes once with a conditional write and
 * enqueues downstream keys. Duplicated, reordered or retried messages are therefore harmless.
 */
import type { Logger } from '../observability/logger.ts';
import type { Lane } from '../queue/port.ts';

export interface ReconcileRequest {
  key: string;
  /** `priority` if any message for this key in the batch came from the priority queue. */
  lane: Lane;
  /** Why the key was enqueued (from every message folded into this request). */
  reasons: string[];
}

export interface ReconcileContext {
  /** Carries `controller`, `key`, `reconcileID`, `queue`; add `cluster` with `appendKeys` when known. */
  logger: Logger;
  reconcileId: string;
  /** When this reconcile started (ms since epoch): decisions take time as a parameter. */
  now: number;
  /** What the controller's {@link Controller.openBatch} returned for the batch this key is in. */
  batch?: BatchScope;
  /** Counts an occurrence in the controller's metrics (EMF in AWS), e.g. one eviction. */
  count?(metric: string, n?: number): void;
}

/**
 * State a controller shares across the keys of one batch (e.g. the scheduler's cluster snapshot, so a
 * batch of bindings is decided on one read of the clusters). `close` runs after every key of the batch
 * has been reconciled, whatever their outcome.
 */
export interface BatchScope {
  close?(): Promise<void>;
  /** The batch's keys in the order their reconciles should start (default: arrival order). */
  readonly order?: readonly string[];
}

/**
 * What a reconcile asks for besides its own writes. Expected outcomes (a member cluster is down,
 * capacity is not there yet) are results — `requeueAfterMs` — not exceptions; a thrown error means
 * a bug or an unexpected I/O failure and is retried with backoff, then dead-lettered.
 */
export interface ReconcileResult {
  requeueAfterMs?: number;
  /**
   * The lane of the requeue (default `standard`). A timer whose firing a user waits on (an eviction at
   * the end of a toleration) takes the priority lane, so a backlog cannot delay it.
   */
  requeueLane?: Lane;
}

export interface Controller {
  readonly name: string;
  reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined>;
  /**
   * Keys of one batch reconciled at once, when this controller knows better than the runtime's
   * `SK_RECONCILE_CONCURRENCY` (the scheduler decides in microseconds and waits on the store).
   */
  readonly reconcileConcurrency?: number;
  /** Optional: opened once per batch, before its keys are reconciled; passed to each as `context.batch`. */
  openBatch?(context: { logger: Logger; now: number; keys: readonly string[] }): Promise<BatchScope>;
}
