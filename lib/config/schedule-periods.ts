/**
 * Karmada's period flags that set how often a controller's sweep runs, by Karmada's names. Here a
 * sweep is an EventBridge schedule (`ControllerSpec.schedules`, with `periodFlag`), so a period becomes
 * a `rate()` expression — whole minutes, EventBridge's granularity. Read by `skctl up` and by the CDK
 * environments (`schedulePeriods`).
 */
import { formatDuration, parseDuration } from '../util/duration.ts';

export const SCHEDULE_PERIOD_FLAGS = {
  /** Karmada: how often every FederatedResourceQuota's usage is recomputed (default 5m). */
  'federated-resource-quota-sync-period': { default: '5m' },
} as const;

export type SchedulePeriodFlag = keyof typeof SCHEDULE_PERIOD_FLAGS;

/** A period flag's value is not a whole number of minutes (or not a duration). */
export class SchedulePeriodError extends Error {
  override readonly name = 'SchedulePeriodError';
}

/** The EventBridge expression of a period: `rate(1 minute)`, `rate(N minutes)`. */
export function periodExpression(flag: string, value: string): string {
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new SchedulePeriodError(`--${flag}: ${JSON.stringify(value)} is not a duration such as 5m`);
  const minutes = ms / 60_000;
  if (!Number.isInteger(minutes) || minutes < 1) {
    throw new SchedulePeriodError(
      `--${flag}: ${formatDuration(ms)} is not a whole number of minutes (EventBridge schedules run at most once a minute)`,
    );
  }
  return minutes === 1 ? 'rate(1 minute)' : `rate(${minutes} minutes)`;
}

/** A schedule's expression: from its period flag when that is set, else its own. */
export function scheduleExpression(
  schedule: { expression: string; periodFlag?: string },
  periods: Readonly<Partial<Record<string, string>>> | undefined,
): string {
  const value = schedule.periodFlag ? periods?.[schedule.periodFlag] : undefined;
  return value === undefined ? schedule.expression : periodExpression(schedule.periodFlag!, value);
}
