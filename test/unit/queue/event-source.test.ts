/**
 * The Lambda SQS event-source semantics, end to end through the real handler factory, on in-memory
 * queues and a virtual clock (deterministic: no sleeps, no timing assertions).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SQSBatchResponse } from 'aws-lambda';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { EventSourceRunner } from '../../../lib/queue/event-source.ts';
import { MemoryQueueTransport } from '../../../lib/queue/memory-transport.ts';
import { createHarness, recordingController } from '../../support/harness.ts';

describe('event sources with Lambda semantics (deterministic)', () => {
  it('a partial batch failure retries only the failed key', async () => {
    const clock = new VirtualClock();
    const c = recordingController('ctl', clock, (key, attempt) => {
      if (key === 'b' && attempt === 1) throw new Error('transient');
      return undefined;
    });
    const h = createHarness({ clock, controllers: [c], backoff: { baseSeconds: 2, maxSeconds: 60 } });
    await h.workQueue.enqueue(['a', 'b', 'c'].map((key) => ({ controller: 'ctl', lane: 'standard' as const, key })));
    await h.settle(60_000);
    assert.deepEqual(
      c.calls.map((x) => x.key),
      ['a', 'b', 'c', 'b'],
    );
    assert.equal(
      c.calls[3]!.at - c.calls[1]!.at,
      2_000,
      'retried after the 2 s backoff, not the 30 s visibility timeout',
    );
    assert.equal(h.transport.depth(h.address('ctl', 'standard')), 0);
  });

  it('a poison message lands in the DLQ after maxReceiveCount receives', async () => {
    const clock = new VirtualClock();
    const c = recordingController('ctl', clock, () => {
      throw new Error('always broken');
    });
    const h = createHarness({ clock, controllers: [c], maxReceiveCount: 3 });
    await h.workQueue.enqueue([{ controller: 'ctl', lane: 'priority', key: 'poison' }]);
    await h.settle(3_600_000);
    assert.equal(c.calls.length, 3);
    assert.equal(h.transport.depth(h.address('ctl', 'priority')), 0);
    const dead = h.transport.peek(h.dlq('ctl'));
    assert.equal(dead.length, 1);
    assert.equal(JSON.parse(dead[0]!.body).key, 'poison');
    // Both lanes share the controller's DLQ: the message says which lane it came from.
    assert.equal(dead[0]!.attributes.lane, 'priority');
  });

  it('a delayed message fires on time, and a 40-minute timer fires at 40 minutes (re-armed past SQS 15-minute limit)', async () => {
    const clock = new VirtualClock();
    const start = clock.now();
    const c = recordingController('ctl', clock);
    const h = createHarness({ clock, controllers: [c] });
    await h.workQueue.enqueue([
      { controller: 'ctl', lane: 'standard', key: 'short', delayMs: 30_000 },
      { controller: 'ctl', lane: 'standard', key: 'long', delayMs: 40 * 60_000 },
    ]);
    await h.settle(29_999);
    assert.equal(c.calls.length, 0, 'nothing before 30 s');
    await h.settle(1);
    assert.deepEqual(
      c.calls.map((x) => [x.key, x.at - start]),
      [['short', 30_000]],
    );
    await h.settle(40 * 60_000);
    assert.deepEqual(
      c.calls.map((x) => [x.key, x.at - start]),
      [
        ['short', 30_000],
        ['long', 40 * 60_000],
      ],
    );
    const rearms = h.emf.map((d) => (d as unknown as Record<string, unknown>).TimersRearmed).filter(Boolean);
    assert.equal(rearms.length, 2, '900 s + 900 s + 600 s: re-armed twice');
  });

  it('a 5,000-message standard backlog does not delay a priority message', async () => {
    const clock = new VirtualClock();
    const c = recordingController('ctl', clock);
    const h = createHarness({ clock, controllers: [c] });
    await h.workQueue.enqueue(
      Array.from({ length: 5000 }, (_, i) => ({
        controller: 'ctl',
        lane: 'standard' as const,
        key: `backlog-${i}`,
      })),
    );
    await h.workQueue.enqueue([{ controller: 'ctl', lane: 'priority', key: 'user-edit' }]);
    await h.settle(0);
    const position = c.calls.findIndex((x) => x.key === 'user-edit');
    assert.equal(c.calls.length, 5001);
    assert.equal(position, 0, 'the priority lane has its own pollers: the user edit is handled first');
  });

  it('a handler that throws fails the whole batch: every message comes back', async () => {
    const clock = new VirtualClock();
    const transport = new MemoryQueueTransport(clock);
    transport.createQueue('q', { visibilityTimeoutSeconds: 10 });
    let invocations = 0;
    const runner = new EventSourceRunner({
      transport,
      clock,
      sources: [
        {
          name: 'q',
          functionName: 'f',
          queue: 'q',
          queueArn: 'arn:aws:sqs:us-east-1:000000000000:q',
          batchSize: 10,
          maximumBatchingWindowSeconds: 0,
          maxConcurrency: 1,
          visibilityTimeoutSeconds: 10,
          timeoutSeconds: 30,
          createHandler: () => async () => {
            invocations++;
            if (invocations === 1) throw new Error('crash');
            return { batchItemFailures: [] };
          },
        },
      ],
    });
    await transport.send('q', [{ body: '1' }, { body: '2' }]);
    await runner.runUntilIdle();
    assert.equal(transport.depth('q'), 2, 'both still there after the crash');
    await clock.advance(10_000);
    await runner.runUntilIdle();
    assert.equal(transport.depth('q'), 0);
    assert.equal(invocations, 2);
  });

  it('a partial batch response naming an unknown message fails the whole batch, as Lambda does', async () => {
    const clock = new VirtualClock();
    const transport = new MemoryQueueTransport(clock);
    transport.createQueue('q', { visibilityTimeoutSeconds: 10 });
    const responses: SQSBatchResponse[] = [
      { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] },
      { batchItemFailures: [] },
    ];
    const runner = new EventSourceRunner({
      transport,
      clock,
      sources: [
        {
          name: 'q',
          functionName: 'f',
          queue: 'q',
          queueArn: 'arn:aws:sqs:us-east-1:000000000000:q',
          batchSize: 10,
          maximumBatchingWindowSeconds: 0,
          maxConcurrency: 1,
          visibilityTimeoutSeconds: 10,
          timeoutSeconds: 30,
          createHandler: () => async () => responses.shift(),
        },
      ],
    });
    await transport.send('q', [{ body: '1' }, { body: '2' }]);
    await runner.runUntilIdle();
    assert.equal(transport.depth('q'), 2);
  });

  for (const [window, expected] of [
    [0, [10, 10, 10, 10, 10, 10]],
    [1, [25, 25, 10]],
  ] as const) {
    it(`batch size 25 with a ${window} s batching window gives batches of ${expected.join(', ')} (without a window, one poll: at most 10)`, async () => {
      const clock = new VirtualClock();
      const c = recordingController('ctl', clock);
      const h = createHarness({
        clock,
        controllers: [c],
        batchSize: 25,
        maximumBatchingWindowSeconds: window,
      });
      await h.workQueue.enqueue(
        Array.from({ length: 60 }, (_, i) => ({
          controller: 'ctl',
          lane: 'standard' as const,
          key: `k${i}`,
        })),
      );
      await h.settle(0);
      const sizes = h.emf.map((d) => (d as unknown as Record<string, number>).MessagesReceived);
      assert.deepEqual(sizes, expected);
    });
  }

  it('stop() ends an open batching window at once and hands over what was gathered (no spinning, no lost batch)', async () => {
    const clock = new VirtualClock();
    const transport = new MemoryQueueTransport(clock);
    transport.createQueue('q', { visibilityTimeoutSeconds: 30 });
    const sizes: number[] = [];
    const runner = new EventSourceRunner({
      transport,
      clock,
      sources: [
        {
          name: 'q',
          functionName: 'f',
          queue: 'q',
          queueArn: 'arn:aws:sqs:us-east-1:000000000000:q',
          batchSize: 25,
          maximumBatchingWindowSeconds: 60,
          maxConcurrency: 1,
          visibilityTimeoutSeconds: 30,
          timeoutSeconds: 30,
          createHandler: () => async (event) => {
            sizes.push(event.Records.length);
            return { batchItemFailures: [] };
          },
        },
      ],
    });
    runner.start();
    await transport.send('q', [{ body: '1' }, { body: '2' }, { body: '3' }]);
    await clock.advance(0);
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await clock.advance(1_000);
    await stopping;
    assert.ok(stopped, 'stopped after the poll under way (1 s), not after the 60 s window');
    assert.deepEqual(sizes, [3]);
    assert.equal(transport.depth('q'), 0);
  });
});
