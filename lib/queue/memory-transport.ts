/**
 * An in-memory {@link QueueTransport} with SQS's semantics (delays, visibility timeouts, receive
 * counts, redrive to a dead-letter queue after `maxReceiveCount` receives, long polling) on any
 * {@link Clock}. With a virtual clock it makes queue behaviour deterministic for unit tests and the
 * simulation; local mode uses the real SQS adapter against fauxqs instead.
 */
import type { Clock } from '../clock/clock.ts';
import type { OutgoingMessage, QueueTransport, ReceivedMessage, ReceiveOptions } from './port.ts';
import { MAX_DELAY_SECONDS } from './messages.ts';

export interface MemoryQueueConfig {
  visibilityTimeoutSeconds: number;
  redrive?: { deadLetterQueue: string; maxReceiveCount: number };
}

interface StoredMessage {
  messageId: string;
  body: string;
  attributes: Record<string, string>;
  sentTimestamp: number;
  visibleAt: number;
  receiveCount: number;
  receiptHandle: string | undefined;
  seq: number;
}

interface MemoryQueue {
  config: MemoryQueueConfig;
  messages: StoredMessage[];
}

export class MemoryQueueTransport implements QueueTransport {
  readonly #clock: Clock;
  readonly #queues = new Map<string, MemoryQueue>();
  #seq = 0;
  #wakers: (() => void)[] = [];

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  createQueue(name: string, config: MemoryQueueConfig): void {
    if (!this.#queues.has(name)) this.#queues.set(name, { config, messages: [] });
  }

  /** Every message in a queue, visible or not (for assertions). */
  peek(name: string): readonly Readonly<StoredMessage>[] {
    return this.#queue(name).messages;
  }

  /** Number of messages in a queue, visible or not. */
  depth(name: string): number {
    return this.#queue(name).messages.length;
  }

  /** Epoch ms at which the next hidden message becomes visible in any queue, if any. */
  nextVisibleAt(): number | undefined {
    const now = this.#clock.now();
    let next: number | undefined;
    for (const q of this.#queues.values()) {
      for (const m of q.messages) {
        if (m.visibleAt > now && (next === undefined || m.visibleAt < next)) next = m.visibleAt;
      }
    }
    return next;
  }

  async send(queue: string, messages: readonly OutgoingMessage[]): Promise<void> {
    const q = this.#queue(queue);
    const now = this.#clock.now();
    for (const m of messages) {
      if ((m.delaySeconds ?? 0) < 0 || (m.delaySeconds ?? 0) > MAX_DELAY_SECONDS) {
        throw new Error(`DelaySeconds must be between 0 and ${MAX_DELAY_SECONDS}, got ${m.delaySeconds}`);
      }
      const seq = this.#seq++;
      q.messages.push({
        messageId: `m-${seq}`,
        body: m.body,
        attributes: { ...(m.attributes ?? {}) },
        sentTimestamp: now,
        visibleAt: now + (m.delaySeconds ?? 0) * 1000,
        receiveCount: 0,
        receiptHandle: undefined,
        seq,
      });
    }
    this.#wake();
  }

  async receive(queue: string, options: ReceiveOptions): Promise<ReceivedMessage[]> {
    const q = this.#queue(queue);
    if (options.waitTimeSeconds < 0 || options.waitTimeSeconds > 20) {
      throw new Error(`WaitTimeSeconds must be between 0 and 20, got ${options.waitTimeSeconds}`);
    }
    if (options.maxMessages < 1 || options.maxMessages > 10) {
      throw new Error(`MaxNumberOfMessages must be between 1 and 10, got ${options.maxMessages}`);
    }
    const deadline = this.#clock.now() + options.waitTimeSeconds * 1000;
    for (;;) {
      const got = this.#take(q, options);
      if (got.length > 0 || this.#clock.now() >= deadline || options.signal?.aborted) return got;
      await this.#waitForWork(deadline, options.signal);
    }
  }

  async delete(queue: string, receiptHandles: readonly string[]): Promise<void> {
    const q = this.#queue(queue);
    const handles = new Set(receiptHandles);
    q.messages = q.messages.filter((m) => !(m.receiptHandle && handles.has(m.receiptHandle)));
  }

  async changeVisibility(queue: string, receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void> {
    const m = this.#queue(queue).messages.find((x) => x.receiptHandle === receiptHandle);
    if (!m) throw new Error(`receipt handle ${receiptHandle} is not valid for ${queue}`);
    m.visibleAt = this.#clock.now() + visibilityTimeoutSeconds * 1000;
    if (visibilityTimeoutSeconds === 0) this.#wake();
  }

  #queue(name: string): MemoryQueue {
    const q = this.#queues.get(name);
    if (!q) throw new Error(`queue ${name} does not exist`);
    return q;
  }

  #take(q: MemoryQueue, options: ReceiveOptions): ReceivedMessage[] {
    const now = this.#clock.now();
    const out: ReceivedMessage[] = [];
    const visible = q.messages.filter((m) => m.visibleAt <= now).sort((a, b) => a.seq - b.seq);
    for (const m of visible) {
      if (out.length >= options.maxMessages) break;
      const redrive = q.config.redrive;
      if (redrive && m.receiveCount >= redrive.maxReceiveCount) {
        // SQS moves a message to the DLQ when a receive would exceed maxReceiveCount.
        const dlq = this.#queue(redrive.deadLetterQueue);
        q.messages = q.messages.filter((x) => x !== m);
        dlq.messages.push({
          ...m,
          visibleAt: now,
          receiveCount: 0,
          receiptHandle: undefined,
          seq: this.#seq++,
        });
        continue;
      }
      m.receiveCount++;
      m.receiptHandle = `${m.messageId}#${m.receiveCount}`;
      m.visibleAt = now + (options.visibilityTimeoutSeconds ?? q.config.visibilityTimeoutSeconds) * 1000;
      out.push({
        messageId: m.messageId,
        receiptHandle: m.receiptHandle,
        body: m.body,
        attributes: { ...m.attributes },
        receiveCount: m.receiveCount,
        sentTimestamp: m.sentTimestamp,
      });
    }
    return out;
  }

  /** Sleeps until a message is sent, the next hidden message becomes visible, or the deadline. */
  async #waitForWork(deadline: number, signal: AbortSignal | undefined): Promise<void> {
    const next = this.nextVisibleAt();
    const until = Math.min(deadline, next ?? deadline);
    const sleeper = new AbortController();
    const onAbort = () => sleeper.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.#wakers.push(wake);
    try {
      await Promise.race([this.#clock.sleep(until - this.#clock.now(), sleeper.signal).catch(() => {}), woken]);
    } finally {
      sleeper.abort();
      signal?.removeEventListener('abort', onAbort);
      this.#wakers = this.#wakers.filter((w) => w !== wake);
    }
  }

  #wake(): void {
    const wakers = this.#wakers;
    this.#wakers = [];
    for (const w of wakers) w();
  }
}
