/**
 * EventBridge for local mode: fires each schedule at its next time (rate or cron, UTC) on a
 * {@link Clock}, and delivers the rule's target action. Missed firings while stopped are not replayed,
 * as EventBridge does not replay them either.
 */
import type { Clock } from '../clock/clock.ts';
import { parseSchedule, type Schedule } from '../timer/expression.ts';

export interface TimerRule {
  name: string;
  expression: string;
  /** The rule's target: e.g. send a constant message to a queue. */
  fire(): Promise<void>;
}

export interface TimerOptions {
  clock: Clock;
  rules: readonly TimerRule[];
  onFire?: (rule: string, at: number) => void;
  onError?: (rule: string, error: unknown) => void;
}

export interface RunningTimer {
  stop(): Promise<void>;
}

export function startTimer(options: TimerOptions): RunningTimer {
  const abort = new AbortController();
  const schedules: [TimerRule, Schedule][] = options.rules.map((r) => [r, parseSchedule(r.expression)]);
  const loops = schedules.map(async ([rule, schedule]) => {
    const { clock } = options;
    // The last slot fired: a timer that wakes a millisecond early must not fire the same slot twice.
    let last = Number.NEGATIVE_INFINITY;
    while (!abort.signal.aborted) {
      const next = schedule.next(Math.max(clock.now(), last));
      if (next === undefined) return;
      try {
        await clock.sleep(next - clock.now(), abort.signal);
      } catch {
        return;
      }
      last = next;
      try {
        await rule.fire();
        options.onFire?.(rule.name, next);
      } catch (err) {
        options.onError?.(rule.name, err);
      }
    }
  });
  return {
    async stop() {
      abort.abort();
      await Promise.all(loops);
    },
  };
}
