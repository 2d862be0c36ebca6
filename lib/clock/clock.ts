/**
 * Time as a port. Decision code never reads the clock: it takes `now` as a parameter. Runtime code
 * (adapters, the event-source runner, the local timer) asks a {@link Clock}, so tests can swap in a
 * {@link VirtualClock} and drive hours of timers in microseconds, deterministically.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason if aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * A clock that moves only when told to. `advance(ms)` wakes sleepers in time order, letting the
 * microtasks each wake-up schedules run before the next, so code that sleeps in a loop behaves as it
 * would in real time.
 */
export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { at: this.#now + Math.max(0, ms), seq: this.#seq++, resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Number of pending sleepers (useful to assert a loop is parked). */
  get pendingSleepers(): number {
    return this.#sleepers.length;
  }

  /** Moves time forward by `ms`, waking every sleeper due on the way, in order. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.#now + ms);
  }

  /** Moves time forward to `target` (never backwards). */
  async advanceTo(target: number): Promise<void> {
    for (;;) {
      await flushMicrotasks();
      const next = this.#nextDue(target);
      if (!next) break;
      this.#now = Math.max(this.#now, next.at);
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      next.resolve();
    }
    this.#now = Math.max(this.#now, target);
    await flushMicrotasks();
  }

  #nextDue(target: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const s of this.#sleepers) {
      if (s.at > target) continue;
      if (!best || s.at < best.at || (s.at === best.at && s.seq < best.seq)) best = s;
    }
    return best;
  }
}

/**
 * Lets every queued promise continuation run: microtasks always drain before a macrotask, so one
 * `setImmediate` turn settles every chain that is not waiting on real I/O.
 */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
