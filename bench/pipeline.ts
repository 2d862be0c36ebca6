/**
 * One controller on real local queues, as the local runtime runs it: its two SQS queues provisioned on
 * the local SQS-compatible server, the event-source runner polling them, the real handler with silent
 * logs and metrics. Benchmarks start the runner when their backlog is in place.
 */
import { SqsQueueAdmin } from '../lib/adapters/sqs/queue-admin.ts';
import { createSqsClient, SqsTransport } from '../lib/adapters/sqs/transport.ts';
import { systemClock } from '../lib/clock/clock.ts';
import type { ControllerSpec } from '../lib/controllers/specs.ts';
import {
  eventSourcesFor,
  type ProvisionedQueue,
  provisionControllerQueues,
  queueUrlBase,
} from '../lib/local/queues.ts';
import { createLogger } from '../lib/observability/logger.ts';
import { createMetrics } from '../lib/observability/metrics.ts';
import { EventSourceRunner } from '../lib/queue/event-source.ts';
import { MemoryQueueTransport } from '../lib/queue/memory-transport.ts';
import { type Lane, LANES, type QueueTransport } from '../lib/queue/port.ts';
import { queueName } from '../lib/queue/naming.ts';
import { TransportWorkQueue } from '../lib/queue/work-queue.ts';
import type { Controller } from '../lib/reconcile/controller.ts';
import { createControllerHandler } from '../lib/reconcile/handler.ts';

let seq = 0;

export async function controllerOnQueues<C extends Controller>(
  server: { endpoint: string },
  spec: ControllerSpec,
  make: (workQueue: TransportWorkQueue) => C,
  options: { visibilityTimeoutSeconds?: number } = {},
) {
  const client = createSqsClient({ region: 'us-east-1', endpoint: server.endpoint });
  const prefix = `bench${seq++}x${Date.now() % 100_000}`;
  const queues = await provisionControllerQueues(new SqsQueueAdmin(client), prefix, [spec]);
  const base = queueUrlBase(queues);
  const wired = wire(
    new SqsTransport(client),
    queues,
    (c, lane) => base + queueName(prefix, c, lane),
    spec,
    make,
    options,
  );
  return { client, ...wired };
}

/**
 * The same controller on in-memory queues with SQS's semantics (lib/queue/memory-transport.ts), the
 * same runner and handler: what our own code allows when neither the store nor the queues are an
 * emulator behind HTTP.
 */
export function controllerInMemory<C extends Controller>(
  spec: ControllerSpec,
  make: (workQueue: TransportWorkQueue) => C,
  options: { visibilityTimeoutSeconds?: number } = {},
) {
  const transport = new MemoryQueueTransport(systemClock);
  const prefix = `mem${seq++}`;
  const queues = LANES.map((lane) => {
    const url = queueName(prefix, spec.name, lane);
    transport.createQueue(url, { visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 600 });
    return { controller: spec.name, lane, url, arn: `arn:aws:sqs:us-east-1:000000000000:${url}`, dlqUrl: '' };
  });
  return wire(transport, queues, (c, lane) => queueName(prefix, c, lane), spec, make, options);
}

/** The work queue, the controller, its handler with silent logs and metrics, and the runner polling its queues. */
function wire<C extends Controller>(
  transport: QueueTransport,
  queues: readonly ProvisionedQueue[],
  address: (controller: string, lane: Lane) => string,
  spec: ControllerSpec,
  make: (workQueue: TransportWorkQueue) => C,
  options: { visibilityTimeoutSeconds?: number },
) {
  const workQueue = new TransportWorkQueue(transport, address, systemClock);
  const controller = make(workQueue);
  const handler = () =>
    createControllerHandler(controller, {
      workQueue,
      clock: systemClock,
      logger: createLogger({ format: 'json', level: 'SILENT', service: spec.name, write: () => {} }),
      metrics: createMetrics({ service: spec.name, sink: () => {} }),
    });
  const runner = new EventSourceRunner({
    transport,
    clock: systemClock,
    sources: eventSourcesFor(spec, queues, handler, options),
  });
  return { workQueue, runner, controller };
}
