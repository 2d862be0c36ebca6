/**
 * Karmada's sweep-period flags as EventBridge schedules: `--federated-resource-quota-sync-period`
 * (Karmada default 5m) sets the quota controller's recompute schedule, in whole minutes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { periodExpression, scheduleExpression, SchedulePeriodError } from '../../../lib/config/schedule-periods.ts';
import { controllerSpec, FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME } from '../../../lib/controllers/specs.ts';

describe('schedule period flags', () => {
  const quotaSync = controllerSpec(FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME).schedules!.find(
    (s) => s.name === 'quota-sync',
  )!;

  it('the quota recompute runs every 5 minutes by default, as Karmada’s --federated-resource-quota-sync-period', () => {
    assert.equal(scheduleExpression(quotaSync, undefined), 'rate(5 minutes)');
    assert.equal(quotaSync.periodFlag, 'federated-resource-quota-sync-period');
  });

  const rows: { value: string; want: string | RegExp }[] = [
    { value: '1m', want: 'rate(1 minute)' },
    { value: '2m0s', want: 'rate(2 minutes)' },
    { value: '1h', want: 'rate(60 minutes)' },
    { value: '30s', want: /30s is not a whole number of minutes \(EventBridge schedules run at most once a minute\)/ },
    { value: '90s', want: /1m30s is not a whole number of minutes/ },
    { value: 'soon', want: /"soon" is not a duration such as 5m/ },
  ];
  for (const row of rows) {
    it(`--federated-resource-quota-sync-period ${row.value}`, () => {
      const run = () => scheduleExpression(quotaSync, { 'federated-resource-quota-sync-period': row.value });
      if (typeof row.want === 'string') assert.equal(run(), row.want);
      else assert.throws(run, (e: Error) => e instanceof SchedulePeriodError && (row.want as RegExp).test(e.message));
    });
  }

  it('a schedule without a period flag keeps its expression', () => {
    assert.equal(
      scheduleExpression({ expression: 'rate(1 minute)' }, { 'federated-resource-quota-sync-period': '10m' }),
      'rate(1 minute)',
    );
    assert.equal(periodExpression('x', '5m'), 'rate(5 minutes)');
  });
});
