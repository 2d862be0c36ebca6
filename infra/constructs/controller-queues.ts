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
 * A controller's two queues (priority, standard), each with its own dead-letter queue: encrypted
 * (SSE-SQS), TLS-only, visibility timeout six times the function timeout, redrive after the
 * controller's `maxReceiveCount`. Names are deterministic (`<prefix>-<controller>-<lane>[-dlq]`) so
 * functions derive URLs from names and no queue reference crosses a stack boundary.
 */
export class ControllerQueues extends Construct {
  readonly queues: Record<Lane, sqs.Queue>;
  readonly deadLetterQueues: Record<Lane, sqs.Queue>;

  constructor(scope: Construct, id: string, props: ControllerQueuesProps) {
    super(scope, id);
    const { prefix, spec } = props;
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const queues = {} as Record<Lane, sqs.Queue>;
    const dlqs = {} as Record<Lane, sqs.Queue>;
    for (const lane of LANES) {
      const title = lane[0]!.toUpperCase() + lane.slice(1);
      dlqs[lane] = new sqs.Queue(this, `${title}DeadLetter`, {
        queueName: deadLetterQueueName(prefix, spec.name, lane),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.seconds(DLQ_RETENTION_SECONDS),
        removalPolicy,
      });
      queues[lane] = new sqs.Queue(this, title, {
        queueName: queueName(prefix, spec.name, lane),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(spec)),
        retentionPeriod: Duration.seconds(QUEUE_RETENTION_SECONDS),
        deadLetterQueue: { queue: dlqs[lane], maxReceiveCount: spec.maxReceiveCount },
        removalPolicy,
      });
    }
    this.queues = queues;
    this.deadLetterQueues = dlqs;
  }
}
