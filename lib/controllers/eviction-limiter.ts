/**
 * The fleet's eviction rate, stored: one internal object holds the token bucket every eviction takes
 * from, so concurrent functions, restarts and redeploys share one limit (a bucket in memory would
 * reset with each process). A batch takes what it needs in one conditional write and gives back
 * what it did not use when it closes.
 */
import type { KubeObject } from '../api/object.ts';
import { takeTokens, type TokenBucket } from '../core/index.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';

/** Internal bookkeeping (not served by the API). */
export const EVICTION_LIMITER = { group: 'work.serverless-karmada.io', kind: 'EvictionLimiter' };
const NAME = 'fleet';

/** How many times a take or give-back re-reads after a concurrent write. */
const ATTEMPTS = 5;
/** When a batch that lost every race for the bucket tries again (ms). */
export const CONTENDED_RETRY_MS = 1_000;

/** The rate that applies to this batch (normal, secondary or halted), from the fleet's health. */
export interface LimiterRate {
  ratePerSecond: number;
  burst: number;
}

/** Tokens one batch holds: taken from the stored bucket as evictions need them. */
export class BatchEvictionTokens {
  readonly #store: ObjectStore;
  readonly #rate: LimiterRate;
  readonly #now: () => number;
  readonly #ahead: number;
  #held = 0;
  #lock: Promise<void> = Promise.resolve();
  /** When the next token comes (ms since epoch), after a refusal; undefined while halted. */
  retryAtMs: number | undefined;
  writes = 0;

  /** `ahead`: how many tokens to take at once when the batch runs out (e.g. the keys left in it). */
  constructor(options: { store: ObjectStore; rate: LimiterRate; now: () => number; ahead: number }) {
    this.#store = options.store;
    this.#rate = options.rate;
    this.#now = options.now;
    this.#ahead = Math.max(1, options.ahead);
  }

  /** One token for one eviction: true when granted. Serialised within the batch. */
  acquire(): Promise<boolean> {
    const run = this.#lock.then(async () => {
      if (this.#held > 0) {
        this.#held--;
        return true;
      }
      const granted = await this.#take(this.#ahead);
      if (granted === 0) return false;
      this.#held = granted - 1;
      return true;
    });
    this.#lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Gives back the tokens the batch took and did not use. */
  async close(): Promise<void> {
    await this.#lock;
    if (this.#held > 0) await this.#give(this.#held);
    this.#held = 0;
  }

  async #take(want: number): Promise<number> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const item = await this.#store.get({ ...EVICTION_LIMITER, name: NAME });
      const now = this.#now();
      const result = takeTokens({
        bucket: bucketOf(item),
        nowMs: now,
        ratePerSecond: this.#rate.ratePerSecond,
        burst: this.#rate.burst,
        want,
      });
      this.retryAtMs = result.retryAtMs;
      if (result.granted === 0) return 0;
      this.writes++;
      if ((await tryWrite(() => this.#write(item, result.bucket))).ok) return result.granted;
    }
    // Lost every race to other batches taking from the bucket: the tokens may well be there, so the
    // caller tries again in a second, not at the halted fleet's pace (the eviction storm bench saw
    // bindings wait 10 s for a bucket holding 100,000 tokens).
    this.retryAtMs = this.#now() + CONTENDED_RETRY_MS;
    return 0;
  }

  async #give(tokens: number): Promise<void> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const item = await this.#store.get({ ...EVICTION_LIMITER, name: NAME });
      const bucket = bucketOf(item);
      if (!bucket) return;
      const back = {
        tokens: Math.min(Math.max(1, this.#rate.burst), bucket.tokens + tokens),
        updatedMs: bucket.updatedMs,
      };
      this.writes++;
      if ((await tryWrite(() => this.#write(item, back))).ok) return;
    }
  }

  #write(item: KubeObject | undefined, bucket: TokenBucket): Promise<KubeObject> {
    return item
      ? this.#store.update({ ...item, spec: { ...bucket } }, { current: item })
      : this.#store.create({
          apiVersion: `${EVICTION_LIMITER.group}/v1`,
          kind: EVICTION_LIMITER.kind,
          metadata: { name: NAME },
          spec: { ...bucket },
        });
  }
}

function bucketOf(item: KubeObject | undefined): TokenBucket | undefined {
  const spec = item?.spec as Partial<TokenBucket> | undefined;
  return typeof spec?.tokens === 'number' && typeof spec.updatedMs === 'number'
    ? { tokens: spec.tokens, updatedMs: spec.updatedMs }
    : undefined;
}
