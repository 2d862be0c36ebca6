import type { Clock } from '../clock/clock.ts';
import { encodeMessage } from './messages.ts';
import type { EnqueueItem, Lane, OutgoingMessage, QueueTransport, WorkQueue } from './port.ts';

/**
 * {@link WorkQueue} over a {@link QueueTransport}: groups items by target queue, drops exact
 * duplicates, and sends in batches. Calls made in the same turn of the event loop (the concurrent
 * reconciles of one batch each telling the next controller) are coalesced into one send per queue —
 * SQS takes ten messages per request — and each caller's promise settles when that send has: an
 * awaited enqueue is as durable as before, it just shares its requests.
 */
export class TransportWorkQueue implements WorkQueue {
  readonly #transport: QueueTransport;
  readonly #address: (controller: string, lane: Lane) => string;
  readonly #clock: Clock;

  /** @param address maps a controller and lane to the transport's queue id (URL or name). */
  constructor(transport: QueueTransport, address: (controller: string, lane: Lane) => string, clock: Clock) {
    this.#transport = transport;
    this.#address = address;
    this.#clock = clock;
  }

  #pending: EnqueueItem[] = [];
  #flush: Promise<void> | undefined;

  enqueue(items: readonly EnqueueItem[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    this.#pending.push(...items);
    this.#flush ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const batch = this.#pending;
      this.#pending = [];
      this.#flush = undefined;
      return this.#send(batch);
    });
    return this.#flush;
  }

  async #send(items: readonly EnqueueItem[]): Promise<void> {
    const now = this.#clock.now();
    const byQueue = new Map<string, { seen: Set<string>; messages: OutgoingMessage[] }>();
    for (const item of items) {
      const queue = this.#address(item.controller, item.lane);
      let group = byQueue.get(queue);
      if (!group) {
        group = { seen: new Set(), messages: [] };
        byQueue.set(queue, group);
      }
      const identity = `${item.key}\u0000${item.delayMs ?? 0}`;
      if (group.seen.has(identity)) continue;
      group.seen.add(identity);
      group.messages.push(encodeMessage(item, now));
    }
    await Promise.all([...byQueue].map(([queue, group]) => this.#transport.send(queue, group.messages)));
  }
}
