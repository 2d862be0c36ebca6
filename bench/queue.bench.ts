/**
 * Queue throughput on the local SQS-compatible server through the real adapter, and the full event
 * source → handler framework path; plus how long a priority message waits behind a 5,000-message
 * standard backlog.
 */
import type { ControllerSpec } from '../lib/controllers/specs.ts';
import { type Measurement, median, percentile } from './harness.ts';
import { controllerOnQueues } from './pipeline.ts';

function spec(name: string, pollers: number): ControllerSpec {
  return {
    name,
    description: 'bench',
    watches: [],
    sendsTo: [],
    timeoutSeconds: 30,
    memoryMB: 512,
    maxReceiveCount: 5,
    lanes: {
      priority: { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: 2 },
      standard: { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: pollers },
    },
  };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('benchmark step timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}

export async function benchQueues(
  server: { endpoint: string },
  options: { messages: number; trials: number },
): Promise<Measurement[]> {
  const n = options.messages;
  const send: number[] = [];
  const drain: number[] = [];
  // Trial 0 is a discarded warm-up (JIT, sockets).
  for (let t = -1; t < options.trials; t++) {
    let handled = 0;
    const { client, workQueue, runner } = await controllerOnQueues(server, spec('drain', 4), () => ({
      name: 'drain',
      async reconcile() {
        handled++;
        return undefined;
      },
    }));
    const items = Array.from({ length: n }, (_, i) => ({
      controller: 'drain',
      lane: 'standard' as const,
      key: `k${i}`,
    }));
    let started = performance.now();
    await workQueue.enqueue(items);
    const sendRate = n / ((performance.now() - started) / 1000);
    started = performance.now();
    runner.start();
    await until(() => handled >= n, 120_000);
    if (t >= 0) {
      send.push(sendRate);
      drain.push(n / ((performance.now() - started) / 1000));
    }
    await runner.stop();
    client.destroy();
  }

  // A priority message sent while 5,000 standard messages drain: time until its reconcile starts.
  const waits: number[] = [];
  for (let t = 0; t < options.trials * 3; t++) {
    let handled = 0;
    let sentAt = 0;
    let waited = -1;
    const { client, workQueue, runner } = await controllerOnQueues(server, spec('lanes', 2), () => ({
      name: 'lanes',
      async reconcile({ key }) {
        if (key === 'user-edit') waited = performance.now() - sentAt;
        handled++;
        return undefined;
      },
    }));
    await workQueue.enqueue(
      Array.from({ length: 5000 }, (_, i) => ({
        controller: 'lanes',
        lane: 'standard' as const,
        key: `b${i}`,
      })),
    );
    runner.start();
    await until(() => handled > 100, 60_000);
    sentAt = performance.now();
    await workQueue.enqueue([{ controller: 'lanes', lane: 'priority', key: 'user-edit' }]);
    await until(() => waited >= 0, 60_000);
    waits.push(waited);
    await runner.stop();
    client.destroy();
  }

  return [
    {
      id: 'queue.send',
      group: `Queues on fauxqs (${n} messages per trial)`,
      what: 'enqueue (SendMessageBatch, 16 requests in flight)',
      unit: 'messages/s',
      median: median(send),
      trials: send,
      higherIsBetter: true,
    },
    {
      id: 'queue.drain',
      group: `Queues on fauxqs (${n} messages per trial)`,
      what: 'receive → Lambda-style handler → delete (4 pollers, batches of 10)',
      unit: 'messages/s',
      median: median(drain),
      trials: drain,
      higherIsBetter: true,
    },
    {
      id: 'queue.priority-wait',
      group: `Queues on fauxqs (${n} messages per trial)`,
      what: 'priority message behind a 5,000-message standard backlog: send → reconcile starts',
      unit: 'ms',
      median: median(waits),
      trials: waits,
      higherIsBetter: false,
      note: `max ${percentile(waits, 100).toFixed(0)} ms over ${waits.length} trials`,
    },
  ];
}
