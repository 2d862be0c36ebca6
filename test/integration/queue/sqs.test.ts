/**
 * The SQS adapter and the Lambda event-source runner against an in-process SQS-compatible server
 * (fauxqs), in real time: what local mode runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { SqsQueueAdmin } from '../../../lib/adapters/sqs/queue-admin.ts';
import { createSqsClient, SqsTransport } from '../../../lib/adapters/sqs/transport.ts';
import { systemClock } from '../../../lib/clock/clock.ts';
import type { ControllerSpec } from '../../../lib/controllers/specs.ts';
import { provisionControllerQueues, queueUrlBase } from '../../../lib/local/queues.ts';
import { startSqsServer } from '../../../lib/local/emulators.ts';
import type { LocalSqsServer } from '../../../lib/local/servers.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import { createMetrics } from '../../../lib/observability/metrics.ts';
import { EventSourceRunner, type EventSourceSpec } from '../../../lib/queue/event-source.ts';
import { deadLetterQueueName, queueName, queueNameFromArn } from '../../../lib/queue/naming.ts';
import { LANES } from '../../../lib/queue/port.ts';
import { TransportWorkQueue } from '../../../lib/queue/work-queue.ts';
import type { Controller } from '../../../lib/reconcile/controller.ts';
import { createControllerHandler } from '../../../lib/reconcile/handler.ts';

let server: LocalSqsServer;
let client: SQSClient;
let transport: SqsTransport;
let admin: SqsQueueAdmin;
let seq = 0;

before(async () => {
  server = await startSqsServer();
  client = createSqsClient({ region: 'us-east-1', endpoint: server.endpoint });
  transport = new SqsTransport(client);
  admin = new SqsQueueAdmin(client);
});
after(async () => {
  client.destroy();
  await server.stop();
});

function spec(name: string, overrides: Partial<ControllerSpec> = {}): ControllerSpec {
  return {
    name,
    description: 'test',
    watches: [],
    sendsTo: [],
    timeoutSeconds: 1,
    memoryMB: 128,
    maxReceiveCount: 3,
    lanes: {
      priority: { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: 1 },
      standard: { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: 1 },
    },
    ...overrides,
  };
}

/** Provisions queues for one controller and runs it under the real-time runner. */
async function runController(s: ControllerSpec, controller: Controller) {
  const prefix = `it${seq++}`;
  const queues = await provisionControllerQueues(admin, prefix, [s]);
  const base = queueUrlBase(queues);
  const workQueue = new TransportWorkQueue(transport, (c, lane) => base + queueName(prefix, c, lane), systemClock);
  const sources: EventSourceSpec[] = LANES.map((lane) => {
    const q = queues.find((x) => x.lane === lane)!;
    return {
      name: `${s.name}/${lane}`,
      functionName: `${prefix}-${s.name}`,
      queue: q.url,
      queueArn: q.arn,
      ...s.lanes[lane],
      visibilityTimeoutSeconds: s.timeoutSeconds * 6,
      timeoutSeconds: s.timeoutSeconds,
      createHandler: () =>
        createControllerHandler(controller, {
          workQueue,
          clock: systemClock,
          logger: createLogger({ format: 'json', level: 'SILENT', service: s.name }),
          metrics: createMetrics({ service: s.name, sink: () => {} }),
          backoff: { baseSeconds: 1, maxSeconds: 1 },
          changeVisibility: (arn, handle, seconds) =>
            transport.changeVisibility(base + queueNameFromArn(arn), handle, seconds),
        }),
    };
  });
  const runner = new EventSourceRunner({ transport, clock: systemClock, sources });
  runner.start();
  return { prefix, base, workQueue, runner };
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SQS adapter on fauxqs', () => {
  it('sends in batches and receives every message with its attributes', async () => {
    const [q] = await provisionControllerQueues(admin, `it${seq++}`, [spec('batch')]);
    await transport.send(
      q!.url,
      Array.from({ length: 25 }, (_, i) => ({
        body: `m${i}`,
        attributes: { lane: 'standard', reason: 'test' },
      })),
    );
    const bodies = new Set<string>();
    for (let i = 0; i < 10 && bodies.size < 25; i++) {
      const got = await transport.receive(q!.url, { maxMessages: 10, waitTimeSeconds: 1 });
      for (const m of got) {
        bodies.add(m.body);
        assert.deepEqual(m.attributes, { lane: 'standard', reason: 'test' });
        assert.equal(m.receiveCount, 1);
        assert.ok(m.sentTimestamp > 0);
      }
      await transport.delete(
        q!.url,
        got.map((m) => m.receiptHandle),
      );
    }
    assert.equal(bodies.size, 25);
  });

  it('holds a delayed message back until its delay has passed', async () => {
    const [q] = await provisionControllerQueues(admin, `it${seq++}`, [spec('delay')]);
    await transport.send(q!.url, [{ body: 'later', delaySeconds: 2 }]);
    assert.equal((await transport.receive(q!.url, { maxMessages: 10, waitTimeSeconds: 0 })).length, 0);
    let got: string[] = [];
    await until('the delayed message', async () => {
      got = (await transport.receive(q!.url, { maxMessages: 10, waitTimeSeconds: 1 })).map((m) => m.body);
      return got.length > 0;
    });
    assert.deepEqual(got, ['later']);
  });
});

describe('controllers under the Lambda event-source runner on fauxqs', () => {
  it('a partial batch failure retries only the failed key', async () => {
    const calls: string[] = [];
    const { workQueue, runner } = await runController(spec('partial'), {
      name: 'partial',
      async reconcile({ key }) {
        calls.push(key);
        if (key === 'b' && calls.filter((k) => k === 'b').length === 1) throw new Error('transient');
        return undefined;
      },
    });
    try {
      await workQueue.enqueue(
        ['a', 'b', 'c'].map((key) => ({ controller: 'partial', lane: 'standard' as const, key })),
      );
      await until('b to be retried', () => calls.filter((k) => k === 'b').length === 2);
    } finally {
      await runner.stop();
    }
    assert.deepEqual(calls.filter((k) => k !== 'b').sort(), ['a', 'c'], 'a and c ran exactly once');
  });

  it('a poison message ends in the dead-letter queue after maxReceiveCount receives', async () => {
    let attempts = 0;
    const { prefix, workQueue, runner } = await runController(spec('poison', { maxReceiveCount: 2 }), {
      name: 'poison',
      async reconcile() {
        attempts++;
        throw new Error('always');
      },
    });
    try {
      await workQueue.enqueue([{ controller: 'poison', lane: 'priority', key: 'bad' }]);
      await until('the DLQ to hold the message', async () => {
        const dlq = await server.inspect(deadLetterQueueName(prefix, 'poison'));
        return (dlq?.ready.length ?? 0) === 1;
      });
    } finally {
      await runner.stop();
    }
    assert.equal(attempts, 2);
    const main = await server.inspect(queueName(prefix, 'poison', 'priority'));
    assert.equal((main?.ready.length ?? 0) + (main?.inflight.length ?? 0) + (main?.delayed.length ?? 0), 0);
  });

  it('a 5,000-message standard backlog does not delay a priority message', async () => {
    const order: string[] = [];
    const { workQueue, runner } = await runController(spec('lanes'), {
      name: 'lanes',
      async reconcile({ key }) {
        order.push(key);
        return undefined;
      },
    });
    try {
      await workQueue.enqueue(
        Array.from({ length: 5000 }, (_, i) => ({
          controller: 'lanes',
          lane: 'standard' as const,
          key: `backlog-${i}`,
        })),
      );
      await until('the backlog to start draining', () => order.length > 0);
      await workQueue.enqueue([{ controller: 'lanes', lane: 'priority', key: 'user-edit' }]);
      await until('the priority message', () => order.includes('user-edit'));
      const position = order.indexOf('user-edit');
      // An ordering assertion, not a timing one: the priority lane has its own poller, so the edit
      // overtakes all but the few standard batches already in flight.
      assert.ok(position < 1000, `priority message handled after ${position} backlog messages`);
      await until('the backlog to drain', () => order.length === 5001, 60_000);
    } finally {
      await runner.stop();
    }
  });

  it('stop() leaves nothing hidden in flight: a message sent while stopping is handled or stays visible', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    // Two standard pollers: while one invokes, the other is in a long poll when 'second' is sent.
    const s = spec('stopping', {
      lanes: {
        priority: { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: 1 },
        standard: { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: 2 },
      },
    });
    const { prefix, workQueue, runner } = await runController(s, {
      name: 'stopping',
      async reconcile({ key }) {
        seen.push(key);
        if (key === 'first') {
          await gate;
          await workQueue.enqueue([{ controller: 'stopping', lane: 'standard', key: 'second' }]);
        }
        return undefined;
      },
    });
    await workQueue.enqueue([{ controller: 'stopping', lane: 'standard', key: 'first' }]);
    await until('the first reconcile', () => seen.includes('first'));
    const stopped = runner.stop();
    release();
    await stopped;
    const q = await server.inspect(queueName(prefix, 'stopping', 'standard'));
    assert.equal(q?.inflight.length, 0, 'no message left hidden behind a visibility timeout');
    assert.ok(
      seen.includes('second') || q?.ready.some((m) => m.body.includes('second')),
      'second handled or still visible',
    );
  });
});
