import { Aws, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type ControllerSpec, queueTargets } from '../../lib/controllers/specs.ts';
import { METRIC, METRICS_NAMESPACE } from '../../lib/observability/metrics.ts';
import { deadLetterQueueName, queueName } from '../../lib/queue/naming.ts';
import { LANES, type Lane } from '../../lib/queue/port.ts';
import type { EnvironmentConfig } from '../config/environments.ts';
import { addServiceFunction } from './service-function.ts';

export interface ControllerFunctionProps {
  config: EnvironmentConfig;
  spec: ControllerSpec;
  table: dynamodb.ITable;
  dataKey: kms.IKey;
  alarmTopic: sns.ITopic;
}

/**
 * One controller as a Lambda function, the one opinionated way: ESM bundle for ARM64 on the newest Node
 * runtime, AWS SDK left to the runtime; its own log group with retention; a role allowed exactly what
 * the controller does (its table operations, the data key only through DynamoDB, sends to the queues it
 * targets); a priority and a standard SQS event source with partial batch responses and capped
 * concurrency; alarms on its dead-letter queue (one, shared by the lanes), each lane's oldest message
 * and its errors — one metric each, since CloudWatch bills an alarm per metric it evaluates.
 */
export class ControllerFunction extends Construct {
  readonly function: NodejsFunction;
  /** Imported controller queues by lane (their names are deterministic). */
  readonly queues: Record<Lane, sqs.IQueue>;

  constructor(scope: Construct, id: string, props: ControllerFunctionProps) {
    super(scope, id);
    const { config, spec } = props;
    const stack = Stack.of(this);
    const functionName = `${config.prefix}-${spec.name}`;
    const queueArn = (name: string) => stack.formatArn({ service: 'sqs', resource: name });
    const queueUrlBase = `https://sqs.${Aws.REGION}.${Aws.URL_SUFFIX}/${Aws.ACCOUNT_ID}/`;

    if (config.reservedConcurrency !== undefined) {
      const needed = spec.lanes.priority.maxConcurrency + spec.lanes.standard.maxConcurrency;
      if (config.reservedConcurrency < needed) {
        throw new Error(
          `${spec.name}: reservedConcurrency ${config.reservedConcurrency} is below the ${needed} its two event sources may use; ` +
            'raise it so the priority lane keeps its share',
        );
      }
    }

    const service = addServiceFunction(this, {
      config,
      name: spec.name,
      description: spec.description,
      memoryMB: spec.memoryMB,
      timeoutSeconds: spec.timeoutSeconds,
      table: props.table,
      dataKey: props.dataKey,
      ...(config.reservedConcurrency !== undefined ? { reservedConcurrency: config.reservedConcurrency } : {}),
      ...(spec.opensCredentials ? { credentials: 'open' as const } : {}),
    });
    this.function = service.function;
    service.role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'SendToControllerQueues',
        actions: ['sqs:SendMessage'],
        resources: queueTargets(spec).flatMap((target) =>
          LANES.map((lane) => queueArn(queueName(config.prefix, target, lane))),
        ),
      }),
    );

    const queues = {} as Record<Lane, sqs.IQueue>;
    for (const lane of LANES) {
      const name = queueName(config.prefix, spec.name, lane);
      const title = lane[0]!.toUpperCase() + lane.slice(1);
      queues[lane] = sqs.Queue.fromQueueAttributes(this, `${title}Queue`, {
        queueArn: queueArn(name),
        queueUrl: queueUrlBase + name,
      });
      const tuning = spec.lanes[lane];
      this.function.addEventSource(
        new SqsEventSource(queues[lane], {
          batchSize: tuning.batchSize,
          maxConcurrency: tuning.maxConcurrency,
          reportBatchItemFailures: true,
          ...(tuning.maximumBatchingWindowSeconds > 0
            ? { maxBatchingWindow: Duration.seconds(tuning.maximumBatchingWindowSeconds) }
            : {}),
        }),
      );
      this.#ageAlarm(config, spec, lane, props.alarmTopic);
    }
    this.queues = queues;

    const dlqName = deadLetterQueueName(config.prefix, spec.name);
    const dlq = new cloudwatch.Alarm(this, 'DeadLetterAlarm', {
      alarmName: `${dlqName}-depth`,
      alarmDescription:
        `Messages of ${spec.name} failed ${spec.maxReceiveCount} times and were dead-lettered; inspect ${dlqName} ` +
        '(each message has its lane in the lane attribute) and, once fixed, redrive to the source queues.',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/SQS',
        metricName: 'ApproximateNumberOfMessagesVisible',
        dimensionsMap: { QueueName: dlqName },
        statistic: 'Maximum',
        period: Duration.minutes(1),
      }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    dlq.addAlarmAction(new cwActions.SnsAction(props.alarmTopic));

    const errors = new cloudwatch.Alarm(this, 'ErrorsAlarm', {
      alarmName: `${functionName}-errors`,
      alarmDescription: `${functionName} invocations failed as a whole (handler crash or timeout): every message of the batch is retried.`,
      metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    errors.addAlarmAction(new cwActions.SnsAction(props.alarmTopic));
  }

  #ageAlarm(config: EnvironmentConfig, spec: ControllerSpec, lane: Lane, topic: sns.ITopic): void {
    const title = lane[0]!.toUpperCase() + lane.slice(1);
    const name = queueName(config.prefix, spec.name, lane);
    const age = new cloudwatch.Alarm(this, `${title}AgeAlarm`, {
      alarmName: `${name}-oldest-message-age`,
      alarmDescription: `The oldest message on ${name} has waited over ${config.oldestMessageAlarmSeconds[lane]} s: ${spec.name} is not keeping up or not running.`,
      metric: new cloudwatch.Metric({
        namespace: 'AWS/SQS',
        metricName: 'ApproximateAgeOfOldestMessage',
        dimensionsMap: { QueueName: name },
        statistic: 'Maximum',
        period: Duration.minutes(1),
      }),
      threshold: config.oldestMessageAlarmSeconds[lane],
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    age.addAlarmAction(new cwActions.SnsAction(topic));
  }

  /**
   * Dashboard widgets for this controller: reconciles, errors and latency (its EMF metrics, per
   * controller); messages received, queue depth (the lanes and the dead-letter queue) and the oldest
   * message's age per lane (AWS/SQS).
   */
  widgets(config: EnvironmentConfig, spec: ControllerSpec): cloudwatch.IWidget[] {
    const emf = (metricName: string, statistic: string, label: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: spec.name, controller: spec.name },
        statistic,
        period: Duration.minutes(1),
        label,
      });
    const sqsMetric = (metricName: string, queue: string, statistic: string, label: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/SQS',
        metricName,
        dimensionsMap: { QueueName: queue },
        statistic,
        period: Duration.minutes(1),
        label,
      });
    const lane = (l: Lane) => queueName(config.prefix, spec.name, l);
    return [
      new cloudwatch.TextWidget({ markdown: `### ${spec.name}\n${spec.description}`, width: 24, height: 1 }),
      new cloudwatch.GraphWidget({
        title: 'Reconciles / errors',
        // Each reconcile records one latency: their count is the number of reconciles.
        left: [emf(METRIC.reconcileLatency, 'SampleCount', 'reconciles')],
        right: [emf(METRIC.reconcileErrors, 'Sum', 'errors')],
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Reconcile latency (ms)',
        left: [emf(METRIC.reconcileLatency, 'p50', 'p50'), emf(METRIC.reconcileLatency, 'p99', 'p99')],
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Messages received / queue depth',
        left: LANES.map((l) => sqsMetric('NumberOfMessagesReceived', lane(l), 'Sum', `${l} received`)),
        right: [
          ...LANES.map((l) => sqsMetric('ApproximateNumberOfMessagesVisible', lane(l), 'Maximum', `${l} depth`)),
          sqsMetric(
            'ApproximateNumberOfMessagesVisible',
            deadLetterQueueName(config.prefix, spec.name),
            'Maximum',
            'dead-lettered',
          ),
        ],
        width: 6,
      }),
      new cloudwatch.GraphWidget({
        title: 'Oldest message age (s)',
        left: LANES.map((l) => sqsMetric('ApproximateAgeOfOldestMessage', lane(l), 'Maximum', l)),
        width: 6,
      }),
    ];
  }
}
