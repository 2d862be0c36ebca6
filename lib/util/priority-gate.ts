/**
 * Lets concurrent tasks of different priorities run in priority order: a task waits until every task
 * of a higher priority registered with the gate has released it; tasks of equal priority run together.
 * Each registered task must call `release` exactly once (in a `finally`), or lower priorities wait forever.
 */
export class PriorityGate {
  /** Unreleased tasks per priority. */
  private readonly pending = new Map<number, number>();
  private waiters: { priority: number; resolve: () => void }[] = [];

  constructor(priorities: Iterable<number>) {
    for (const p of priorities) this.pending.set(p, (this.pending.get(p) ?? 0) + 1);
  }

  /** Resolves once no higher priority is pending. */
  async wait(priority: number): Promise<void> {
    if (!this.blocked(priority)) return;
    await new Promise<void>((resolve) => this.waiters.push({ priority, resolve }));
  }

  /** Marks one task of `priority` done and wakes the tasks no longer blocked. */
  release(priority: number): void {
    const left = (this.pending.get(priority) ?? 0) - 1;
    if (left > 0) this.pending.set(priority, left);
    else this.pending.delete(priority);
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.blocked(w.priority)) still.push(w);
      else w.resolve();
    }
    this.waiters = still;
  }

  private blocked(priority: number): boolean {
    for (const p of this.pending.keys()) if (p > priority) return true;
    return false;
  }
}
