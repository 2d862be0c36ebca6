/**
 * Priority-based scheduling order (Karmada PriorityBasedScheduling: the queue pops the highest
 * `spec.schedulePriority.priority` first, FIFO within a priority; #7814 re-enqueues in priority order).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schedulingOrder, schedulingPriority } from '../../../../lib/core/index.ts';
import type { ResourceBinding } from '../../../../lib/core/model/types.ts';
import { PriorityGate } from '../../../../lib/util/priority-gate.ts';

const binding = (priority?: number) =>
  ({
    spec: { resource: {}, ...(priority === undefined ? {} : { schedulePriority: { priority } }) },
  }) as unknown as ResourceBinding;

describe('schedulingPriority / schedulingOrder', () => {
  it('a binding without schedulePriority counts as 0; negative priorities are kept', () => {
    assert.equal(schedulingPriority(binding()), 0);
    assert.equal(schedulingPriority(undefined), 0);
    assert.equal(schedulingPriority(binding(-5)), -5);
  });

  const rows: [string, [string, number][], string[]][] = [
    [
      'equal priorities keep arrival order (FIFO)',
      [
        ['a', 0],
        ['b', 0],
        ['c', 0],
      ],
      ['a', 'b', 'c'],
    ],
    [
      'higher first',
      [
        ['low', 1],
        ['high', 100],
        ['mid', 10],
      ],
      ['high', 'mid', 'low'],
    ],
    [
      'stable within a priority',
      [
        ['a', 1],
        ['b', 5],
        ['c', 1],
        ['d', 5],
      ],
      ['b', 'd', 'a', 'c'],
    ],
    [
      'negative after unprioritized',
      [
        ['neg', -1],
        ['none', 0],
      ],
      ['none', 'neg'],
    ],
  ];
  for (const [name, entries, want] of rows) {
    it(name, () => {
      const p = new Map(entries);
      assert.deepEqual(
        schedulingOrder([...p.keys()], (k) => p.get(k)!),
        want,
      );
    });
  }
});

describe('PriorityGate: lower priorities wait for higher ones to finish', () => {
  it('runs priority levels in order and equal priorities together', async () => {
    const gate = new PriorityGate([1, 10, 10, 5]);
    const log: string[] = [];
    const task = async (name: string, p: number, ms: number) => {
      await gate.wait(p);
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
      gate.release(p);
    };
    // Started lowest first: the gate, not the start order, decides.
    await Promise.all([task('low', 1, 1), task('mid', 5, 1), task('high-a', 10, 5), task('high-b', 10, 1)]);
    assert.deepEqual(log.slice(0, 2), ['start high-a', 'start high-b']);
    assert.ok(log.indexOf('start mid') > log.indexOf('end high-a'));
    assert.ok(log.indexOf('start low') > log.indexOf('end mid'));
  });
});
