import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachLimited, InFlight } from '../../../lib/util/concurrency.ts';

describe('InFlight', () => {
  it('is idle at once with nothing running, and once the last counted operation ends (even by throwing)', async () => {
    const inFlight = new InFlight();
    await inFlight.idle();
    const order: string[] = [];
    let release!: () => void;
    const slow = inFlight.around(() => new Promise<void>((r) => (release = r)).then(() => order.push('slow done')));
    const failing = inFlight.around(async () => {
      throw new Error('read failed');
    });
    await assert.rejects(failing, /read failed/);
    const idle = inFlight.idle().then(() => order.push('idle'));
    await Promise.resolve();
    assert.deepEqual(order, [], 'still one operation running');
    release();
    await Promise.all([slow, idle]);
    assert.deepEqual(order, ['slow done', 'idle']);
  });
});

describe('forEachLimited', () => {
  it('never runs more than the limit at once, and runs every item', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setImmediate(r));
      seen.push(n);
      running--;
    });
    assert.equal(most, 3);
    assert.deepEqual(seen.sort(), [1, 2, 3, 4, 5, 6, 7]);
  });
});
