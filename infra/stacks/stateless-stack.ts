import { scheduleExpression } from '../../lib/config/schedule-periods.ts';
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { SqsSendMessage } from 'aws-cdk-lib/aws-scheduler-targets';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { CONTROLLER_SPECS } from '../../lib/controllers/specs.ts';
import { RESYNC_ALL, RESYNC_CONTROLLER } from '../../lib/reconcile/resync.ts';
import { ControlPlaneApi } from '../constructs/control-plane-api.ts';
import { ControllerFunction } from '../constructs/controller-function.ts';
import type { EnvironmentConfig } from '../config/environments.ts';

export interface StatelessStackProps extends StackProps {
  config: EnvironmentConfig;
  table: dynamodb.ITable;
  dataKey: kms.IKey;
  adminSecret: secretsmanager.ISecret;
}

/**
 * Everything that can be destroyed and re-created without losing data: one function per controller
 * with its event sources and alarms, the Kubernetes API (HTTP API, api and bootstrap functions), the
 * resync schedule, the alarm topic and a dashboard.
 */
export class StatelessStack extends Stack {
  readonly functions: Record<string, ControllerFunction> = {};
  readonly alarmTopic: sns.Topic;
  readonly api: ControlPlaneApi;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { config } = props;

    // CloudWatch cannot publish to a topic under the AWS-managed SNS key, so the topic has its own.
    const alarmKey = new kms.Key(this, 'AlarmTopicKey', {
      alias: `alias/${config.prefix}-alarms`,
      description: `Encrypts the Serverless Karmada alarm topic (${config.name})`,
      enableKeyRotation: true,
    });
    alarmKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    this.alarmTopic = new sns.Topic(this, 'Alarms', {
      topicName: `${config.prefix}-alarms`,
      displayName: `Serverless Karmada alarms (${config.name})`,
      masterKey: alarmKey,
      enforceSSL: true,
    });
    if (config.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));

    const widgets: cloudwatch.IWidget[][] = [];
    for (const spec of CONTROLLER_SPECS) {
      const fn = new ControllerFunction(this, `Controller-${spec.name}`, {
        config,
        spec,
        table: props.table,
        dataKey: props.dataKey,
        alarmTopic: this.alarmTopic,
      });
      this.functions[spec.name] = fn;
      widgets.push(fn.widgets(config, spec));
    }

    // EventBridge Scheduler → the resync controller's standard queue, as local mode's timer does.
    const resync = this.functions[RESYNC_CONTROLLER]!;
    new scheduler.Schedule(this, 'ResyncSchedule', {
      scheduleName: `${config.prefix}-resync`,
      description: 'Re-enqueues every key of every watched kind on its controller standard queue',
      schedule: scheduler.ScheduleExpression.expression(config.resyncSchedule),
      target: new SqsSendMessage(resync.queues.standard, {
        input: scheduler.ScheduleTargetInput.fromObject({ key: RESYNC_ALL, reason: 'schedule' }),
        retryAttempts: 3,
        maxEventAge: Duration.minutes(10),
      }),
    });

    // Controllers' own schedules (sweeps) → their standard queues.
    for (const spec of CONTROLLER_SPECS) {
      for (const schedule of spec.schedules ?? []) {
        new scheduler.Schedule(this, `Schedule-${schedule.name}`, {
          scheduleName: `${config.prefix}-${schedule.name}`,
          description: `Sends ${schedule.key} to the ${spec.name} controller's standard queue`,
          schedule: scheduler.ScheduleExpression.expression(scheduleExpression(schedule, config.schedulePeriods)),
          target: new SqsSendMessage(this.functions[spec.name]!.queues.standard, {
            input: scheduler.ScheduleTargetInput.fromObject({ key: schedule.key, reason: 'schedule' }),
            retryAttempts: 3,
            maxEventAge: Duration.minutes(2),
          }),
        });
      }
    }

    this.api = new ControlPlaneApi(this, 'Api', {
      config,
      table: props.table,
      dataKey: props.dataKey,
      adminSecret: props.adminSecret,
      alarmTopic: this.alarmTopic,
    });

    new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${config.prefix}-control-plane`,
      widgets,
    });
  }
}
