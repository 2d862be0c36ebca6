/**
 * EventBridge schedule expressions — `rate(value unit)` and `cron(min hour day-of-month month
 * day-of-week year)`, in UTC — parsed and validated as EventBridge does, with a pure `next(after)`.
 * Used by the local timer and to validate the CDK configuration before synth.
 */
import awsCronParser from 'aws-cron-parser';

export class ScheduleExpressionError extends Error {
  override readonly name = 'ScheduleExpressionError';
}

export interface Schedule {
  expression: string;
  /** The first firing strictly after `afterMs`, or `undefined` if there is none (a cron in the past). */
  next(afterMs: number): number | undefined;
}

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

function parseRate(expression: string, body: string, anchorMs: number): Schedule {
  const m = /^(\d+)\s+(minute|minutes|hour|hours|day|days)$/.exec(body.trim());
  if (!m) {
    throw new ScheduleExpressionError(
      `${expression}: expected rate(<value> <unit>) with unit minute(s), hour(s) or day(s), e.g. rate(5 minutes)`,
    );
  }
  const value = Number(m[1]);
  const unit = m[2]!;
  if (value < 1) throw new ScheduleExpressionError(`${expression}: the value must be a positive whole number`);
  const singular = !unit.endsWith('s');
  if (value === 1 && !singular)
    throw new ScheduleExpressionError(`${expression}: use the singular unit for 1, e.g. rate(1 ${unit.slice(0, -1)})`);
  if (value > 1 && singular)
    throw new ScheduleExpressionError(`${expression}: use the plural unit for ${value}, e.g. rate(${value} ${unit}s)`);
  const period = value * UNIT_MS[singular ? unit : unit.slice(0, -1)]!;
  return {
    expression,
    next: (after) => anchorMs + (Math.floor((after - anchorMs) / period) + 1) * period,
  };
}

function parseCron(expression: string, body: string): Schedule {
  const fields = body.trim().split(/\s+/);
  if (fields.length !== 6) {
    throw new ScheduleExpressionError(
      `${expression}: a cron expression has 6 fields (minutes hours day-of-month month day-of-week year), got ${fields.length}`,
    );
  }
  const [, , dayOfMonth, , dayOfWeek] = fields;
  if ((dayOfMonth === '?') === (dayOfWeek === '?')) {
    throw new ScheduleExpressionError(`${expression}: exactly one of day-of-month and day-of-week must be '?'`);
  }
  let parsed: ReturnType<typeof awsCronParser.parse>;
  try {
    parsed = awsCronParser.parse(fields.join(' '));
  } catch (err) {
    throw new ScheduleExpressionError(`${expression}: ${(err as Error).message}`);
  }
  return {
    expression,
    next: (after) => {
      const next = awsCronParser.next(parsed, new Date(after));
      return next ? next.getTime() : undefined;
    },
  };
}

/**
 * Parses a schedule expression. Rates fire at whole multiples of their period since `anchorMs`
 * (default: the epoch), so restarts keep the same rhythm.
 */
export function parseSchedule(expression: string, anchorMs = 0): Schedule {
  const m = /^(rate|cron)\((.*)\)$/.exec(expression.trim());
  if (!m) {
    throw new ScheduleExpressionError(
      `${JSON.stringify(expression)} is not a schedule expression: use rate(5 minutes) or cron(0 12 * * ? *)`,
    );
  }
  return m[1] === 'rate' ? parseRate(expression, m[2]!, anchorMs) : parseCron(expression, m[2]!);
}
