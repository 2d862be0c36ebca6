import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { startTimer } from '../../../lib/local/timer.ts';
import { parseSchedule, ScheduleExpressionError } from '../../../lib/timer/expression.ts';

const t = (iso: string) => Date.parse(iso);

describe('schedule expressions (EventBridge semantics, UTC)', () => {
  const cases: [string, string, string][] = [
    ['rate(1 minute)', '2026-11-21T10:00:30Z', '2026-11-21T10:01:00Z'],
    ['rate(10 minutes)', '2026-11-21T10:00:00Z', '2026-11-21T10:10:00Z'],
    ['rate(2 hours)', '2026-11-21T11:00:00Z', '2026-11-21T12:00:00Z'],
    ['rate(1 day)', '2026-11-21T10:00:00Z', '2026-11-22T00:00:00Z'],
    ['cron(0 12 * * ? *)', '2026-11-21T11:59:00Z', '2026-11-21T12:00:00Z'],
    ['cron(0 12 * * ? *)', '2026-11-21T12:00:00Z', '2026-11-22T12:00:00Z'],
    ['cron(0/15 * * * ? *)', '2026-11-21T10:07:00Z', '2026-11-21T10:15:00Z'],
    // AWS numbers weekdays 1-7 from Sunday: 2 is Monday. 2026-11-21 is a Saturday.
    ['cron(0 9 ? * 2 *)', '2026-11-21T10:00:00Z', '2026-11-23T09:00:00Z'],
    ['cron(0 9 ? * MON-FRI *)', '2026-11-21T10:00:00Z', '2026-11-23T09:00:00Z'],
    ['cron(0 0 L * ? *)', '2026-11-21T10:00:00Z', '2026-11-30T00:00:00Z'],
  ];
  for (const [expression, after, expected] of cases) {
    it(`${expression} after ${after} fires at ${expected}`, () => {
      assert.equal(
        new Date(parseSchedule(expression).next(t(after))!).toISOString(),
        new Date(t(expected)).toISOString(),
      );
    });
  }

  const invalid: [string, RegExp][] = [
    ['every 5 minutes', /not a schedule expression/],
    ['rate(5 minute)', /plural unit/],
    ['rate(1 minutes)', /singular unit/],
    ['rate(0 minutes)', /positive/],
    ['rate(5 weeks)', /minute\(s\), hour\(s\) or day\(s\)/],
    ['cron(0 12 * * *)', /6 fields/],
    ['cron(0 12 * * * *)', /exactly one of day-of-month and day-of-week/],
    ['cron(0 12 ? * ? *)', /exactly one of day-of-month and day-of-week/],
  ];
  for (const [expression, message] of invalid) {
    it(`rejects ${expression}`, () => {
      assert.throws(
        () => parseSchedule(expression),
        (e: Error) => e instanceof ScheduleExpressionError && message.test(e.message),
      );
    });
  }
});

describe('local EventBridge timer', () => {
  it('fires a rate rule on each period boundary, and not after stop', async () => {
    const clock = new VirtualClock(t('2026-11-21T10:00:30Z'));
    const fired: string[] = [];
    const timer = startTimer({
      clock,
      rules: [
        {
          name: 'resync',
          expression: 'rate(1 minute)',
          fire: async () => void fired.push(new Date(clock.now()).toISOString()),
        },
      ],
    });
    await clock.advance(150_000);
    assert.deepEqual(fired, ['2026-11-21T10:01:00.000Z', '2026-11-21T10:02:00.000Z', '2026-11-21T10:03:00.000Z']);
    await timer.stop();
    await clock.advance(600_000);
    assert.equal(fired.length, 3);
  });

  it('keeps firing after a target fails, reporting the error', async () => {
    const clock = new VirtualClock(t('2026-11-21T10:00:00Z'));
    const errors: string[] = [];
    let calls = 0;
    const timer = startTimer({
      clock,
      rules: [
        {
          name: 'flaky',
          expression: 'rate(1 minute)',
          fire: async () => {
            calls++;
            if (calls === 1) throw new Error('queue down');
          },
        },
      ],
      onError: (_rule, err) => errors.push((err as Error).message),
    });
    await clock.advance(120_000);
    await timer.stop();
    assert.equal(calls, 2);
    assert.deepEqual(errors, ['queue down']);
  });

  it('fires each slot once even when the clock wakes it a millisecond early', { timeout: 10_000 }, async () => {
    const clock = new VirtualClock(t('2026-11-21T10:00:30Z'));
    const early = {
      now: () => clock.now(),
      sleep: (ms: number, signal?: AbortSignal) => clock.sleep(Math.max(0, ms - 1), signal),
    };
    const fired: number[] = [];
    const timer = startTimer({
      clock: early,
      rules: [{ name: 'r', expression: 'rate(1 minute)', fire: async () => void fired.push(clock.now()) }],
    });
    await clock.advance(150_000);
    await timer.stop();
    assert.equal(fired.length, 3, `fired at ${fired.map((f) => new Date(f).toISOString()).join(', ')}`);
  });
});
