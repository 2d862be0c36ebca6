import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type ControllerSpec, visibilityTimeoutSeconds } from '../../lib/controllers/specs.ts';
import { DLQ_RETENTION_SECONDS, QUEUE_RETENTION_SECONDS } from '../../lib/queue/retention.ts';
import { deadLetterQueueName, queueName } from '../../lib/queue/naming.ts';
import { LANES, type Lane } from '../../lib/queue/port.ts';

export interface ControllerQueuesProps {
  prefix: string;
  spec: ControllerSpec;
  retain: boolean;
}

/**
 * A controller's two queues (priority, standard) and the dead-letter queue both redrive to: encrypted
 * (SSE-SQS), TLS-only, visibility timeout six times the function timeout, redrive after the
 * controller's `maxReceiveCount`. One DLQ per controller, not per lane (docs/decisions/0018-idle-cost.md):
 * one depth alarm instead of two, and nothing lost — SQS remembers each dead-lettered message's source
 * queue, so a redrive without a destination (the console's "redrive to source queue", or
 * `aws sqs start-message-move-task --source-arn <dlq arn>`) sends each message back to its own lane, and
 * every message carries its lane as the `lane` attribute besides. Names are deterministic
 * (`<prefix>-<controller>-<lane>`, `<prefix>-<controller>-dlq`) so functions derive URLs from names and no
 * queue reference crosses a stack boundary.
 */
export class ControllerQueues extends Construct {
  readonly queues: Record<Lane, sqs.Queue>;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ControllerQueuesProps) {
    super(scope, id);
    const { prefix, spec } = props;
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetter', {
      queueName: deadLetterQueueName(prefix, spec.name),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.seconds(DLQ_RETENTION_SECONDS),
      removalPolicy,
    });
    const queues = {} as Record<Lane, sqs.Queue>;
    for (const lane of LANES) {
      const title = lane[0]!.toUpperCase() + lane.slice(1);
      queues[lane] = new sqs.Queue(this, title, {
        queueName: queueName(prefix, spec.name, lane),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(spec)),
        retentionPeriod: Duration.seconds(QUEUE_RETENTION_SECONDS),
        deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: spec.maxReceiveCount },
        removalPolicy,
      });
    }
    this.queues = queues;
  }
}
