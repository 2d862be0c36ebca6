import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { probeDelays, probeSlotsPerMinute } from '../../../../lib/core/index.ts';

describe('probe schedule (Karmada probes each cluster every --cluster-status-update-frequency on a ticker of its own)', () => {
  const slotCases = [
    { behaviour: 'the default 10 s period: six probes a minute', periodMs: 10_000, slots: 6 },
    { behaviour: 'a 7 s period: eight whole periods fit in the minute', periodMs: 7_000, slots: 8 },
    { behaviour: 'below a second is probed every second', periodMs: 200, slots: 60 },
    { behaviour: 'a period longer than the minute: one probe per sweep', periodMs: 120_000, slots: 1 },
  ];
  for (const c of slotCases) {
    it(c.behaviour, () => {
      assert.equal(probeSlotsPerMinute(c.periodMs), c.slots);
      assert.equal(probeDelays(c.periodMs, 3).length, c.slots);
    });
  }

  it('the first cluster of a sweep is probed at once, then one period apart', () => {
    assert.deepEqual(probeDelays(10_000, 0), [0, 10_000, 20_000, 30_000, 40_000, 50_000]);
  });

  it('a cluster that just joined (and was just probed) starts at the next slot', () => {
    assert.deepEqual(probeDelays(10_000, 0, 1), [10_000, 20_000, 30_000, 40_000, 50_000]);
  });

  it('a cluster keeps one offset for all its probes, so they stay one period apart', () => {
    const delays = probeDelays(10_000, 5);
    assert.deepEqual(
      delays.slice(1).map((d, i) => d - delays[i]!),
      [10_000, 10_000, 10_000, 10_000, 10_000],
    );
  });

  for (const n of [2, 3, 10, 50, 500]) {
    it(`${n} clusters are spread over the period (not fired together), none past the minute`, () => {
      const offsets = Array.from({ length: n }, (_, i) => probeDelays(10_000, i)[0]!).sort((a, b) => a - b);
      assert.equal(new Set(offsets).size, n);
      const gaps = [...offsets.slice(1).map((o, i) => o - offsets[i]!), 10_000 - offsets.at(-1)! + offsets[0]!];
      // Evenly spread is 10 s ÷ n apart; the golden-ratio sequence's widest gap stays within 3× of that.
      assert.ok(Math.max(...gaps) <= (3 * 10_000) / n, `widest gap ${Math.max(...gaps)} ms`);
      for (let i = 0; i < n; i++) assert.ok(Math.max(...probeDelays(10_000, i)) < 60_000);
    });
  }
});
