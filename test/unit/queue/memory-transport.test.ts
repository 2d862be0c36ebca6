import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { MemoryQueueTransport } from '../../../lib/queue/memory-transport.ts';

function setup() {
  const clock = new VirtualClock();
  const t = new MemoryQueueTransport(clock);
  t.createQueue('dlq', { visibilityTimeoutSeconds: 30 });
  t.createQueue('q', {
    visibilityTimeoutSeconds: 30,
    redrive: { deadLetterQueue: 'dlq', maxReceiveCount: 2 },
  });
  return { clock, t };
}

const now = { maxMessages: 10, waitTimeSeconds: 0 };

describe('in-memory queue transport (SQS semantics on a virtual clock)', () => {
  it('hides a delayed message until its delay has passed', async () => {
    const { clock, t } = setup();
    await t.send('q', [{ body: 'later', delaySeconds: 10 }]);
    assert.equal((await t.receive('q', now)).length, 0);
    await clock.advance(9_999);
    assert.equal((await t.receive('q', now)).length, 0);
    await clock.advance(1);
    assert.deepEqual(
      (await t.receive('q', now)).map((m) => m.body),
      ['later'],
    );
  });

  it('returns an undeleted message after its visibility timeout, with its receive count', async () => {
    const { clock, t } = setup();
    await t.send('q', [{ body: 'x', attributes: { lane: 'priority' } }]);
    const [first] = await t.receive('q', now);
    assert.equal(first?.receiveCount, 1);
    assert.deepEqual(first?.attributes, { lane: 'priority' });
    assert.equal((await t.receive('q', now)).length, 0, 'in flight');
    await clock.advance(30_000);
    const [second] = await t.receive('q', now);
    assert.equal(second?.receiveCount, 2);
    assert.notEqual(second?.receiptHandle, first?.receiptHandle);
  });

  it('deletes by receipt handle', async () => {
    const { t } = setup();
    await t.send('q', [{ body: 'x' }]);
    const [m] = await t.receive('q', now);
    await t.delete('q', [m!.receiptHandle]);
    assert.equal(t.depth('q'), 0);
  });

  it('moves a message to the DLQ when a receive would exceed maxReceiveCount', async () => {
    const { clock, t } = setup();
    await t.send('q', [{ body: 'poison' }]);
    for (let i = 0; i < 2; i++) {
      assert.equal((await t.receive('q', now)).length, 1);
      await clock.advance(30_000);
    }
    assert.equal((await t.receive('q', now)).length, 0, 'third receive finds it gone');
    assert.equal(t.depth('q'), 0);
    assert.deepEqual(
      (await t.receive('dlq', now)).map((m) => m.body),
      ['poison'],
    );
  });

  it('changes visibility of an in-flight message', async () => {
    const { clock, t } = setup();
    await t.send('q', [{ body: 'x' }]);
    const [m] = await t.receive('q', now);
    await t.changeVisibility('q', m!.receiptHandle, 2);
    await clock.advance(2_000);
    assert.equal((await t.receive('q', now)).length, 1);
  });

  it('long-polls: a receive waiting for messages returns as soon as one is sent', async () => {
    const { t } = setup();
    const pending = t.receive('q', { maxMessages: 10, waitTimeSeconds: 20 });
    await t.send('q', [{ body: 'now' }]);
    assert.deepEqual(
      (await pending).map((m) => m.body),
      ['now'],
    );
  });

  it('refuses a delay SQS would refuse', async () => {
    const { t } = setup();
    await assert.rejects(t.send('q', [{ body: 'x', delaySeconds: 901 }]), /between 0 and 900/);
  });
});
