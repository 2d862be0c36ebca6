/**
 * Creates every controller's queues on a local SQS-compatible server, exactly as the stateful stack
 * does in AWS: a priority and a standard queue per controller, both redriving to the controller's one
 * DLQ, visibility timeout six times the function timeout.
 */
import { type ControllerSpec, visibilityTimeoutSeconds } from '../controllers/specs.ts';
import { deadLetterQueueName, queueName } from '../queue/naming.ts';
import type { EventSourceSpec, SqsHandler } from '../queue/event-source.ts';
import { LANES, type Lane, type QueueAdmin } from '../queue/port.ts';
import { DLQ_RETENTION_SECONDS, QUEUE_RETENTION_SECONDS } from '../queue/retention.ts';

export interface ProvisionedQueue {
  controller: string;
  lane: Lane;
  url: string;
  arn: string;
  dlqUrl: string;
}

/** Creates each controller's two queues, each with its dead-letter queue, in spec then lane order. */
export async function provisionControllerQueues(
  admin: QueueAdmin,
  prefix: string,
  specs: readonly ControllerSpec[],
): Promise<ProvisionedQueue[]> {
  const out: ProvisionedQueue[] = [];
  for (const spec of specs) {
    const dlq = await admin.create(deadLetterQueueName(prefix, spec.name), {
      retentionSeconds: DLQ_RETENTION_SECONDS,
    });
    for (const lane of LANES) {
      const queue = await admin.create(queueName(prefix, spec.name, lane), {
        visibilityTimeoutSeconds: visibilityTimeoutSeconds(spec),
        retentionSeconds: QUEUE_RETENTION_SECONDS,
        deadLetter: { queueArn: dlq.arn, maxReceiveCount: spec.maxReceiveCount },
      });
      out.push({ controller: spec.name, lane, url: queue.url, arn: queue.arn, dlqUrl: dlq.url });
    }
  }
  return out;
}

/** The common URL prefix of provisioned queues (what `SK_QUEUE_URL_BASE` holds). */
export function queueUrlBase(queues: readonly ProvisionedQueue[]): string {
  const first = queues[0];
  if (!first) throw new Error('no queues were provisioned');
  return first.url.slice(0, first.url.lastIndexOf('/') + 1);
}

/**
 * The two event sources (priority and standard lane) of one controller over its provisioned queues,
 * tuned by its spec: what a Lambda event source mapping is in AWS.
 */
export function eventSourcesFor(
  spec: ControllerSpec,
  queues: readonly ProvisionedQueue[],
  createHandler: () => SqsHandler,
  options: { functionName?: string; visibilityTimeoutSeconds?: number } = {},
): EventSourceSpec[] {
  return LANES.map((lane) => {
    const queue = queues.find((q) => q.controller === spec.name && q.lane === lane);
    if (!queue) throw new Error(`no ${lane} queue was provisioned for controller ${spec.name}`);
    return {
      name: `${spec.name}/${lane}`,
      functionName: options.functionName ?? spec.name,
      queue: queue.url,
      queueArn: queue.arn,
      ...spec.lanes[lane],
      visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? visibilityTimeoutSeconds(spec),
      timeoutSeconds: spec.timeoutSeconds,
      createHandler,
    };
  });
}
