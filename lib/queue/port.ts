/**
 * Queues. Every controller has two: **priority** (user writes through the API, health changes from
 * member webhooks) and **standard** (resync, fan-out from a policy change, retries and timers).
 * Both feed the same handler; capacity is split so a standard backlog never starves priority work
 * (docs/decisions/0003-queues-and-retries.md).
 */

export type Lane = 'priority' | 'standard';
export const LANES: readonly Lane[] = ['priority', 'standard'];

/** A message to send. */
export interface OutgoingMessage {
  body: string;
  /** 0..900 (SQS's limit); longer timers are re-armed by the consumer (see messages.ts). */
  delaySeconds?: number;
  /** String message attributes. */
  attributes?: Record<string, string>;
}

/** A received message, normalised from SQS's ReceiveMessage or a Lambda SQS record. */
export interface ReceivedMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
  attributes: Record<string, string>;
  /** How many times it has been received, this time included. */
  receiveCount: number;
  /** Epoch ms when it was first sent. */
  sentTimestamp: number;
}

export interface ReceiveOptions {
  /** 1..10. */
  maxMessages: number;
  /** Long-poll up to this long when nothing is visible (0..20). */
  waitTimeSeconds: number;
  /** Hide received messages this long (default: the queue's own setting). */
  visibilityTimeoutSeconds?: number;
  signal?: AbortSignal;
}

/**
 * The handful of SQS operations the system uses. `queue` identifies a queue to the transport: a
 * queue URL for SQS, a name for the in-memory transport.
 */
export interface QueueTransport {
  /** Sends any number of messages (batched internally, at most 10 per request). */
  send(queue: string, messages: readonly OutgoingMessage[]): Promise<void>;
  receive(queue: string, options: ReceiveOptions): Promise<ReceivedMessage[]>;
  delete(queue: string, receiptHandles: readonly string[]): Promise<void>;
  changeVisibility(queue: string, receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void>;
}

/** One unit of work for a controller. */
export interface EnqueueItem {
  controller: string;
  lane: Lane;
  /** What to reconcile (an object key, or a controller-specific key). */
  key: string;
  /** Deliver no earlier than this many ms from now (any length: long timers are re-armed). */
  delayMs?: number;
  /** Why, for logs and metrics (e.g. `api-write`, `resync`, `requeue`). */
  reason?: string;
}

/** What controllers and the API use to hand work to controllers. */
export interface WorkQueue {
  enqueue(items: readonly EnqueueItem[]): Promise<void>;
}

/** A queue's settings, as the stateful stack sets them in AWS. */
export interface QueueSettings {
  /** Hide a received message this long (default: the server's). */
  visibilityTimeoutSeconds?: number;
  retentionSeconds: number;
  /** Move a message to this queue after `maxReceiveCount` receives. */
  deadLetter?: { queueArn: string; maxReceiveCount: number };
}

/**
 * Creating and watching queues: what local mode, the tests and the benchmarks do themselves, and the
 * stateful stack and CloudWatch do in AWS. `queue` is a URL, as for {@link QueueTransport}.
 */
export interface QueueAdmin {
  /** Creates a queue (or finds it, if one of that name has the same settings). */
  create(name: string, settings: QueueSettings): Promise<{ url: string; arn: string }>;
  /** How many messages a queue holds, visible or in flight (approximate, as SQS counts). */
  depth(queue: string): Promise<number>;
}
