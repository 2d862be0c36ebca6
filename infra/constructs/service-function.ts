import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { INDEX } from '../../lib/adapters/dynamodb/table.ts';
import { clusterTimingsFromFlags, runtimeEnvironment } from '../../lib/config/runtime.ts';
import { failoverSettingsFromFlags } from '../../lib/config/failover.ts';
import type { EnvironmentConfig } from '../config/environments.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServiceFunctionProps {
  config: EnvironmentConfig;
  /** The file under functions/ (without .ts) and the function's name suffix. */
  name: string;
  description: string;
  memoryMB: number;
  timeoutSeconds: number;
  table: dynamodb.ITable;
  dataKey: kms.IKey;
  /** The admin kubeconfig secret (the bootstrap function only). */
  adminSecretId?: string;
  /**
   * Member-cluster credentials: `open` (controllers that call members) or `seal` (also seal them:
   * the API). Grants the data key directly, only with the credentials' encryption context.
   */
  credentials?: 'open' | 'seal';
  reservedConcurrency?: number;
}

export interface ServiceFunction {
  function: NodejsFunction;
  role: iam.Role;
  functionName: string;
}

/**
 * Adds a function of this system to `scope` (as its children `Logs`, `Role`, `Function`), the one
 * opinionated way: ESM bundle for ARM64 on the newest Node runtime, AWS SDK left to the runtime; its own
 * log group with retention; an explicit role allowed its own log group, the object table's item
 * operations and the data key only through DynamoDB. Callers add what else the function does (queues,
 * secrets) to `role`.
 */
export function addServiceFunction(scope: Construct, props: ServiceFunctionProps): ServiceFunction {
  const { config } = props;
  const functionName = `${config.prefix}-${props.name}`;
  const queueUrlBase = `https://sqs.${Aws.REGION}.${Aws.URL_SUFFIX}/${Aws.ACCOUNT_ID}/`;

  const logGroup = new logs.LogGroup(scope, 'Logs', {
    logGroupName: `/aws/lambda/${functionName}`,
    retention: config.logRetentionDays as logs.RetentionDays,
    removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });

  // An explicit role instead of AWSLambdaBasicExecutionRole: logs only to its own group.
  const role = new iam.Role(scope, 'Role', {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Serverless Karmada ${props.name} (${config.name})`,
  });
  role.addToPolicy(
    new iam.PolicyStatement({
      sid: 'OwnLogGroup',
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [logGroup.logGroupArn],
    }),
  );
  role.addToPolicy(
    new iam.PolicyStatement({
      sid: 'ObjectTable',
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query'],
      resources: [
        props.table.tableArn,
        ...Object.values(INDEX).map((index) => `${props.table.tableArn}/index/${index}`),
      ],
    }),
  );
  role.addToPolicy(
    new iam.PolicyStatement({
      sid: 'DataKeyThroughDynamoDB',
      actions: [
        'kms:Decrypt',
        'kms:Encrypt',
        'kms:GenerateDataKey',
        'kms:ReEncryptFrom',
        'kms:ReEncryptTo',
        'kms:DescribeKey',
      ],
      resources: [props.dataKey.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Aws.REGION}.${Aws.URL_SUFFIX}` } },
    }),
  );

  if (props.credentials) {
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'DataKeyForClusterCredentials',
        actions: props.credentials === 'seal' ? ['kms:GenerateDataKey', 'kms:Decrypt'] : ['kms:Decrypt'],
        resources: [props.dataKey.keyArn],
        conditions: { StringEquals: { 'kms:EncryptionContext:purpose': 'cluster-credential' } },
      }),
    );
  }

  const fn = new NodejsFunction(scope, 'Function', {
    functionName: functionName,
    description: props.description,
    entry: join(ROOT, 'functions', `${props.name}.ts`),
    handler: 'handler',
    projectRoot: ROOT,
    depsLockFilePath: join(ROOT, 'package-lock.json'),
    runtime: lambda.Runtime.NODEJS_24_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memoryMB,
    timeout: Duration.seconds(props.timeoutSeconds),
    role,
    logGroup,
    ...(props.reservedConcurrency !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
    environment: {
      ...runtimeEnvironment({
        environment: config.name,
        tableName: props.table.tableName,
        queuePrefix: config.prefix,
        queueUrlBase,
        reconcileConcurrency: 8,
        metrics: 'emf',
        eventTtlSeconds: config.eventTtlSeconds,
        logFormat: 'json',
        logLevel: config.logLevel,
        ...(props.adminSecretId ? { adminSecretId: props.adminSecretId } : {}),
        ...(props.credentials ? { credentialsKmsKey: props.dataKey.keyArn } : {}),
        ...(config.clusterFlags ? { clusterTimings: clusterTimingsFromFlags(config.clusterFlags) } : {}),
        ...(config.failoverFlags
          ? { failover: failoverSettingsFromFlags(config.failoverFlags as Record<string, string>) }
          : {}),
      }),
      NODE_OPTIONS: '--enable-source-maps',
    },
    bundling: {
      format: OutputFormat.ESM,
      target: 'node24',
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      mainFields: ['module', 'main'],
      externalModules: ['@aws-sdk/*'],
      // Some dependencies are CommonJS and call require(); give the ESM bundle one.
      banner:
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return { function: fn, role, functionName };
}
