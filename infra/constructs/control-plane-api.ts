import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Aws, CfnOutput, CustomResource, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { triggeredControllers } from '../../lib/controllers/specs.ts';
import { queueName } from '../../lib/queue/naming.ts';
import type { EnvironmentConfig } from '../config/environments.ts';
import { addServiceFunction } from './service-function.ts';

export interface ControlPlaneApiProps {
  config: EnvironmentConfig;
  table: dynamodb.ITable;
  dataKey: kms.IKey;
  adminSecret: secretsmanager.ISecret;
  alarmTopic: sns.ITopic;
}

/**
 * The Kubernetes-compatible API in AWS: an HTTP API (API Gateway v2, throttled, access-logged)
 * whose every route goes to the `api` function, and the deploy-time bootstrap (a custom resource
 * backed by the `bootstrap` function) that creates the default namespaces and keeps an admin
 * kubeconfig for this API in the KMS-encrypted secret.
 */
export class ControlPlaneApi extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  readonly function: NodejsFunction;
  readonly bootstrapFunction: NodejsFunction;
  readonly url: string;

  constructor(scope: Construct, id: string, props: ControlPlaneApiProps) {
    super(scope, id);
    const { config } = props;
    const stack = Stack.of(this);

    const api = addServiceFunction(this, {
      config,
      name: 'api',
      description: 'Serverless Karmada Kubernetes-compatible API (API Gateway HTTP API)',
      memoryMB: 1024,
      // API Gateway gives up on an integration after 30 s.
      timeoutSeconds: 29,
      table: props.table,
      dataKey: props.dataKey,
      // Seals member credentials written through the API; opens Pull agents' webhook credentials.
      credentials: 'seal',
    });
    this.function = api.function;
    // An accepted write enqueues its key on the priority queue of each controller its kind triggers.
    api.role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'SendToTriggeredPriorityQueues',
        actions: ['sqs:SendMessage'],
        resources: triggeredControllers().map((c) =>
          stack.formatArn({ service: 'sqs', resource: queueName(config.prefix, c, 'priority') }),
        ),
      }),
    );

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      logGroupName: `/aws/apigateway/${config.prefix}-api`,
      retention: config.logRetentionDays as logs.RetentionDays,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `${config.prefix}-api`,
      description: `Serverless Karmada ${config.name}: Kubernetes-compatible API (kubectl, client-go)`,
      defaultIntegration: new HttpLambdaIntegration('Api', api.function, {
        payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
      }),
      createDefaultStage: false,
    });
    new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.apiThrottle.rate, burstLimit: config.apiThrottle.burst },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        // Method, path, status and timing; never headers (they carry bearer tokens) or the query.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
    this.url = this.httpApi.apiEndpoint;

    const errors = new cloudwatch.Alarm(this, 'ServerErrorsAlarm', {
      alarmName: `${config.prefix}-api-5xx`,
      alarmDescription: `The Kubernetes API of ${config.name} answered 5xx: see the ${api.functionName} logs.`,
      metric: new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName: '5xx',
        dimensionsMap: { ApiId: this.httpApi.apiId, Stage: '$default' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: 5,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    errors.addAlarmAction(new cwActions.SnsAction(props.alarmTopic));

    // The bootstrap: default namespaces and the admin kubeconfig, at every deploy that changes it.
    const bootstrap = addServiceFunction(new Construct(this, 'Bootstrap'), {
      config,
      name: 'bootstrap',
      description: 'Serverless Karmada deploy-time bootstrap: default namespaces, admin kubeconfig secret',
      memoryMB: 256,
      timeoutSeconds: 60,
      table: props.table,
      dataKey: props.dataKey,
      adminSecretId: props.adminSecret.secretArn,
    });
    this.bootstrapFunction = bootstrap.function;
    bootstrap.role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'AdminKubeconfigSecret',
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
        resources: [props.adminSecret.secretArn],
      }),
    );
    bootstrap.role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'DataKeyThroughSecretsManager',
        actions: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'],
        resources: [props.dataKey.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${Aws.REGION}.${Aws.URL_SUFFIX}` } },
      }),
    );
    new CustomResource(this, 'BootstrapResource', {
      serviceToken: bootstrap.function.functionArn,
      resourceType: 'Custom::ServerlessKarmadaBootstrap',
      properties: { ApiUrl: this.url, ...(config.bootstrapNonce ? { Nonce: config.bootstrapNonce } : {}) },
    });

    new CfnOutput(this, 'ApiUrl', { value: this.url, description: 'The Kubernetes API server address' });
    new CfnOutput(this, 'AdminKubeconfigCommand', {
      description: 'Writes the admin kubeconfig (keep it secret: it holds the admin token)',
      value: `aws secretsmanager get-secret-value --secret-id ${props.adminSecret.secretName} --query SecretString --output text > karmada-${config.name}.kubeconfig && chmod 600 karmada-${config.name}.kubeconfig`,
    });

    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Every request is authenticated by the api function with Kubernetes bearer tokens (stored hashed, compared in constant time) and authorized per verb; an API Gateway authorizer would repeat that lookup',
    });
  }
}
