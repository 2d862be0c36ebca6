import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { durationFlag, parseDuration, UsageError } from '../../../lib/cli/args.ts';
import { formatTable, parseTargets } from '../../../lib/cli/get.ts';

describe('durations as Go flags write them', () => {
  const cases: [string, number | undefined][] = [
    ['500ms', 500],
    ['5s', 5000],
    ['1m30s', 90_000],
    ['1h0m0s', 3_600_000],
    ['1.5h', 5_400_000],
    ['40', 40_000],
    ['', undefined],
    ['5 s', undefined],
    ['5d', undefined],
    ['1h-5m', undefined],
  ];
  for (const [text, ms] of cases) it(`${JSON.stringify(text)} → ${ms}`, () => assert.equal(parseDuration(text), ms));

  it('names the flag when a value is not a duration', () => {
    assert.throws(
      () => durationFlag('up', 'event-ttl', 'soon'),
      (e: Error) => e instanceof UsageError && /--event-ttl must be a duration such as/.test(e.message),
    );
  });
});

describe('skctl get arguments and tables', () => {
  it('reads types, names and type/name pairs as kubectl does', () => {
    assert.deepEqual(parseTargets(['deploy,pp']), [
      { resource: 'deploy', names: [] },
      { resource: 'pp', names: [] },
    ]);
    assert.deepEqual(parseTargets(['deploy', 'a', 'b']), [{ resource: 'deploy', names: ['a', 'b'] }]);
    assert.deepEqual(parseTargets(['deploy/a', 'pp/b', 'deploy/c']), [
      { resource: 'deploy', names: ['a', 'c'] },
      { resource: 'pp', names: ['b'] },
    ]);
    assert.throws(() => parseTargets([]), UsageError);
    assert.throws(() => parseTargets(['deploy,pp', 'a']), /names can follow only one type/);
    assert.throws(() => parseTargets(['deploy/a', 'b']), /use <type>\/<name> for every argument/);
  });

  it('pads columns by three spaces, hides wide columns unless asked, and prints <none> for missing cells', () => {
    const table = {
      kind: 'Table' as const,
      columnDefinitions: [
        { name: 'Name', type: 'string', priority: 0 },
        { name: 'Ready', type: 'string', priority: 0 },
        { name: 'IP', type: 'string', priority: 1 },
      ],
      rows: [
        { cells: ['nginx', '2/2', '10.0.0.1'], object: { metadata: { namespace: 'default' } } },
        { cells: ['a-much-longer-name', '0/1', null], object: { metadata: { namespace: 'team-a' } } },
      ],
    };
    assert.deepEqual(formatTable(table), [
      'NAME                 READY',
      'nginx                2/2',
      'a-much-longer-name   0/1',
    ]);
    assert.deepEqual(formatTable(table, { wide: true, namespaceColumn: true, headers: false }), [
      'default   nginx                2/2   10.0.0.1',
      'team-a    a-much-longer-name   0/1   <none>',
    ]);
  });
});
