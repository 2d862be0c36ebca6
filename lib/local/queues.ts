/**
 * Creates every controller's queues on a local SQS-compatible server, exactly as the stateful stack
 * does in AWS: a priority and a standard queue per controller, each with its own DLQ and redrive
 * policy, visibility timeout six times the function timeout.
 */
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type ControllerSpec, visibilityTimeoutSeconds } from '../controllers/specs.ts';
import { deadLetterQueueName, queueName } from '../queue/naming.ts';
import type { EventSourceSpec, SqsHandler } from '../queue/event-source.ts';
import { LANES, type Lane } from '../queue/port.ts';

export const QUEUE_RETENTION_SECONDS = 4 * 24 * 3600;
export const DLQ_RETENTION_SECONDS = 14 * 24 * 3600;

export interface ProvisionedQueue {
  controller: string;
  lane: Lane;
  url: string;
  arn: string;
  dlqUrl: string;
}

async function create(
  client: SQSClient,
  name: string,
  attributes: Record<string, string>,
): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  if (!QueueUrl || !Attributes?.QueueArn) throw new Error(`creating queue ${name} returned no URL or ARN`);
  return { url: QueueUrl, arn: Attributes.QueueArn };
}

export async function provisionControllerQueues(
  client: SQSClient,
  prefix: string,
  specs: readonly ControllerSpec[],
): Promise<ProvisionedQueue[]> {
  const out: ProvisionedQueue[] = [];
  for (const spec of specs) {
    for (const lane of LANES) {
      const dlq = await create(client, deadLetterQueueName(prefix, spec.name, lane), {
        MessageRetentionPeriod: String(DLQ_RETENTION_SECONDS),
      });
      const queue = await create(client, queueName(prefix, spec.name, lane), {
        VisibilityTimeout: String(visibilityTimeoutSeconds(spec)),
        MessageRetentionPeriod: String(QUEUE_RETENTION_SECONDS),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlq.arn,
          maxReceiveCount: spec.maxReceiveCount,
        }),
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
