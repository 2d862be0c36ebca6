import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { probeDelays, probeSlotsPerMinute } from '../../../../lib/core/index.ts';

describe('probe schedule (Karmada probes each cluster every --cluster-status-update-frequency)', () => {
  const slotCases = [
    { behaviour: 'the default 10 s period: six probes a minute', periodMs: 10_000, slots: 6 },
    { behaviour: 'a 7 s period: eight whole periods fit in the minute', periodMs: 7_000, slots: 8 },
    { behaviour: 'below a second is probed every second', periodMs: 200, slots: 60 },
    { behaviour: 'a period longer than the minute: one probe per sweep', periodMs: 120_000, slots: 1 },
  ];
  for (const c of slotCases) {
    it(c.behaviour, () => {
      assert.equal(probeSlotsPerMinute(c.periodMs), c.slots);
      assert.equal(probeDelays(c.periodMs).length, c.slots);
      assert.ok(Math.max(...probeDelays(c.periodMs)) < 60_000, 'none past the minute');
    });
  }

  it('probes at once, then one period apart', () => {
    assert.deepEqual(probeDelays(10_000), [0, 10_000, 20_000, 30_000, 40_000, 50_000]);
  });

  it('a cluster that just joined (and was just probed) starts at the next slot', () => {
    assert.deepEqual(probeDelays(10_000, 1), [10_000, 20_000, 30_000, 40_000, 50_000]);
  });
});
