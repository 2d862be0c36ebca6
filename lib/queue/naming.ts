/**
 * Queue names, identical in AWS and local mode: `<prefix>-<controller>-<lane>`, and one dead-letter
 * queue per controller, `<prefix>-<controller>-dlq`, shared by both lanes (SQS's redrive to source sends
 * each message back to its lane: docs/decisions/0018-idle-cost.md). The CDK stack creates them with
 * these names; functions derive URLs from them, so no queue URL has to cross a stack boundary.
 */
import type { Lane } from './port.ts';

export function queueName(prefix: string, controller: string, lane: Lane): string {
  return `${prefix}-${controller}-${lane}`;
}

/** A controller's dead-letter queue, shared by its two lanes. */
export function deadLetterQueueName(prefix: string, controller: string): string {
  return `${prefix}-${controller}-dlq`;
}

/** The queue name at the end of an SQS ARN (`arn:aws:sqs:region:account:name`). */
export function queueNameFromArn(arn: string): string {
  return arn.slice(arn.lastIndexOf(':') + 1);
}

/** The lane a queue name (or ARN) belongs to, if it is one of ours. */
export function laneOfQueue(nameOrArn: string): Lane | undefined {
  const name = queueNameFromArn(nameOrArn);
  if (name.endsWith('-priority')) return 'priority';
  if (name.endsWith('-standard')) return 'standard';
  return undefined;
}
