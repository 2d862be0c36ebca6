/** Runs `fn` over `items` with at most `limit` calls in flight; rejects with the first error. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

/** Counts operations in flight; `idle()` resolves once none is. */
export class InFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  /** Runs `op`, counted while it runs. */
  async around<T>(op: () => Promise<T>): Promise<T> {
    this.#count++;
    try {
      return await op();
    } finally {
      if (--this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  /** Resolves once no counted operation is running (at once when none is). */
  idle(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve));
  }
}
