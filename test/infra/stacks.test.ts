/**
 * CDK assertions on the properties that matter, for both environments, plus cdk-nag
 * (synth fails on any unacknowledged AwsSolutions finding) and the real function bundle.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../infra/build.ts';
import { ENVIRONMENTS, type EnvironmentConfig, loadEnvironment } from '../../infra/config/environments.ts';
import { ConfigError } from '../../lib/config/validate.ts';
import { CONTROLLER_SPECS, triggeredControllers, visibilityTimeoutSeconds } from '../../lib/controllers/specs.ts';
import { METRIC, METRICS_NAMESPACE } from '../../lib/observability/metrics.ts';
import { deadLetterQueueName, queueName } from '../../lib/queue/naming.ts';
import { LANES } from '../../lib/queue/port.ts';

const outdirs: string[] = [];
after(() => {
  for (const d of outdirs) rmSync(d, { recursive: true, force: true });
});

function synth(config: EnvironmentConfig, options: { bundle?: boolean } = {}) {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk-test-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] } });
  const built = buildApp(app, config);
  const assembly = app.synth();
  return {
    outdir,
    assembly,
    stateful: Template.fromJSON(assembly.getStackByName(built.stateful.stackName).template),
    stateless: Template.fromJSON(assembly.getStackByName(built.stateless.stackName).template),
  };
}

for (const env of ['dev', 'prod'] as const) {
  const config = ENVIRONMENTS[env]!;
  describe(`${env} environment`, () => {
    // Synthesising runs cdk-nag's AwsSolutions checks; a finding that is neither fixed nor
    // acknowledged with a reason throws here.
    const { stateful, stateless } = synth(config);

    it('passes cdk-nag AwsSolutions (synth would have thrown)', () => {
      assert.ok(stateful && stateless);
    });

    it('keeps objects in one table: KMS (customer key, rotated), point-in-time recovery, on-demand, the three indexes, Event TTL', () => {
      stateful.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
      stateful.hasResourceProperties('AWS::DynamoDB::Table', {
        TableName: `${config.prefix}-objects`,
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: Match.anyValue() },
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: Match.arrayWith([
          Match.objectLike({
            IndexName: 'byKind',
            KeySchema: [
              { AttributeName: 'ks', KeyType: 'HASH' },
              { AttributeName: 'sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          }),
          Match.objectLike({
            IndexName: 'byCluster',
            KeySchema: [
              { AttributeName: 'ck', KeyType: 'HASH' },
              { AttributeName: 'sk', KeyType: 'RANGE' },
            ],
          }),
          Match.objectLike({
            IndexName: 'byOwner',
            KeySchema: [
              { AttributeName: 'ow', KeyType: 'HASH' },
              { AttributeName: 'pk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          }),
        ]),
        TimeToLiveSpecification: { AttributeName: 'xa', Enabled: true },
      });
    });

    it(env === 'prod' ? 'retains and deletion-protects the table in prod' : 'lets dev tear the table down', () => {
      const tables = stateful.findResources('AWS::DynamoDB::Table');
      const table = Object.values(tables)[0] as {
        DeletionPolicy: string;
        Properties: Record<string, unknown>;
      };
      assert.equal(table.DeletionPolicy, env === 'prod' ? 'Retain' : 'Delete');
      assert.equal(table.Properties.DeletionProtectionEnabled, env === 'prod');
    });

    for (const spec of CONTROLLER_SPECS) {
      const dlqName = deadLetterQueueName(config.prefix, spec.name);
      it(`${spec.name}: one dead-letter queue (14 days) for both lanes, each redriving to it after ${spec.maxReceiveCount} receives`, () => {
        const dlqs = stateful.findResources('AWS::SQS::Queue', { Properties: { QueueName: dlqName } });
        assert.equal(Object.keys(dlqs).length, 1);
        const [dlqId, dlq] = Object.entries(dlqs)[0]! as [string, { Properties: Record<string, unknown> }];
        assert.equal(dlq.Properties.MessageRetentionPeriod, 14 * 24 * 3600);
        assert.equal(dlq.Properties.SqsManagedSseEnabled, true);
        for (const lane of LANES) {
          stateful.hasResourceProperties('AWS::SQS::Queue', {
            QueueName: queueName(config.prefix, spec.name, lane),
            SqsManagedSseEnabled: true,
            VisibilityTimeout: visibilityTimeoutSeconds(spec),
            RedrivePolicy: {
              deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
              maxReceiveCount: spec.maxReceiveCount,
            },
          });
        }
      });

      it(`${spec.name}: alarms once on its dead-letter queue's depth`, () => {
        const alarms = stateless.findResources('AWS::CloudWatch::Alarm', {
          Properties: {
            MetricName: 'ApproximateNumberOfMessagesVisible',
            Dimensions: [{ Name: 'QueueName', Value: dlqName }],
          },
        });
        assert.equal(Object.keys(alarms).length, 1);
        stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
          AlarmName: `${dlqName}-depth`,
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          AlarmActions: [Match.anyValue()],
        });
      });

      it(`${spec.name}: alarms on function errors`, () => {
        stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
          AlarmName: `${config.prefix}-${spec.name}-errors`,
          MetricName: 'Errors',
          Namespace: 'AWS/Lambda',
          Threshold: 1,
          AlarmActions: [Match.anyValue()],
        });
      });

      for (const lane of LANES) {
        it(`${spec.name}/${lane}: event source reports partial batch failures and caps concurrency at ${spec.lanes[lane].maxConcurrency}`, () => {
          stateless.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
            EventSourceArn: Match.objectLike({
              'Fn::Join': Match.arrayWith([Match.arrayWith([`:${queueName(config.prefix, spec.name, lane)}`])]),
            }),
            FunctionResponseTypes: ['ReportBatchItemFailures'],
            ScalingConfig: { MaximumConcurrency: spec.lanes[lane].maxConcurrency },
            BatchSize: spec.lanes[lane].batchSize,
          });
        });

        it(`${spec.name}/${lane}: alarms on the age of the oldest message`, () => {
          stateless.hasResourceProperties('AWS::CloudWatch::Alarm', {
            MetricName: 'ApproximateAgeOfOldestMessage',
            Dimensions: [{ Name: 'QueueName', Value: queueName(config.prefix, spec.name, lane) }],
            Threshold: config.oldestMessageAlarmSeconds[lane],
            AlarmActions: [Match.anyValue()],
          });
        });
      }

      it(`${spec.name}: ESM on ARM64, newest Node runtime, validated environment, own log group`, () => {
        stateless.hasResourceProperties('AWS::Lambda::Function', {
          FunctionName: `${config.prefix}-${spec.name}`,
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          Timeout: spec.timeoutSeconds,
          MemorySize: spec.memoryMB,
          Environment: {
            Variables: Match.objectLike({
              SK_ENVIRONMENT: config.name,
              SK_TABLE_NAME: Match.anyValue(),
              SK_QUEUE_PREFIX: config.prefix,
              SK_QUEUE_URL_BASE: Match.anyValue(),
              LOG_FORMAT: 'json',
              LOG_LEVEL: config.logLevel,
            }),
          },
          LoggingConfig: { LogGroup: Match.anyValue() },
          ...(config.reservedConcurrency ? { ReservedConcurrentExecutions: config.reservedConcurrency } : {}),
        });
        stateless.hasResourceProperties('AWS::Logs::LogGroup', {
          LogGroupName: `/aws/lambda/${config.prefix}-${spec.name}`,
          RetentionInDays: config.logRetentionDays,
        });
      });
    }

    it('alarms on one metric each (CloudWatch bills an alarm per metric): per controller its DLQ and errors, per lane the oldest message, and the API 5xx', () => {
      const alarms = Object.values(stateless.findResources('AWS::CloudWatch::Alarm')) as {
        Properties: Record<string, unknown>;
      }[];
      for (const alarm of alarms) {
        assert.equal(typeof alarm.Properties.MetricName, 'string', JSON.stringify(alarm.Properties));
        assert.equal(alarm.Properties.Metrics, undefined, 'no metric math');
        assert.equal((alarm.Properties.AlarmActions as unknown[]).length, 1, 'pages through the alarm topic');
      }
      assert.equal(alarms.length, CONTROLLER_SPECS.length * (2 + LANES.length) + 1);
    });

    it("graphs only metrics that are published: the controllers' EMF metrics per controller (no lane), SQS per queue", () => {
      const dashboard = Object.values(stateless.findResources('AWS::CloudWatch::Dashboard'))[0] as {
        Properties: { DashboardBody: string | { 'Fn::Join': [string, unknown[]] } };
      };
      const raw = dashboard.Properties.DashboardBody;
      // Deploy-time values (region) joined in as placeholders.
      const text =
        typeof raw === 'string' ? raw : raw['Fn::Join'][1].map((p) => (typeof p === 'string' ? p : 'x')).join('');
      const widgets = (JSON.parse(text) as { widgets: { properties: { metrics?: unknown[][] } }[] }).widgets;
      const graphed = widgets.flatMap((w) => w.properties.metrics ?? []);
      const emf = graphed.filter((m) => m[0] === METRICS_NAMESPACE);
      assert.ok(emf.length > 0);
      for (const m of emf) {
        assert.ok(
          ([METRIC.reconcileLatency, METRIC.reconcileErrors] as string[]).includes(m[1] as string),
          `the dashboard graphs ${String(m[1])}, which a reconcile does not publish`,
        );
        const dimensions = m.slice(2).filter((x) => typeof x === 'string');
        assert.deepEqual(dimensions.filter((_, i) => i % 2 === 0).sort(), ['controller', 'service'], String(m));
      }
      const queues = new Set(graphed.filter((m) => m[0] === 'AWS/SQS').map((m) => m[3]));
      for (const spec of CONTROLLER_SPECS) {
        assert.ok(queues.has(deadLetterQueueName(config.prefix, spec.name)));
        for (const lane of LANES) assert.ok(queues.has(queueName(config.prefix, spec.name, lane)));
      }
    });

    it('grants least privilege: no managed policies, no wildcard actions or resources, KMS only via a service or for credentials', () => {
      const roles = stateless.findResources('AWS::IAM::Role', {
        Properties: {
          AssumeRolePolicyDocument: {
            Statement: [Match.objectLike({ Principal: { Service: 'lambda.amazonaws.com' } })],
          },
        },
      });
      for (const role of Object.values(roles) as { Properties: Record<string, unknown> }[]) {
        assert.equal(role.Properties.ManagedPolicyArns, undefined);
      }
      const policies = stateless.findResources('AWS::IAM::Policy');
      for (const [id, policy] of Object.entries(policies) as [
        string,
        { Properties: { PolicyDocument: { Statement: Record<string, unknown>[] } } },
      ][]) {
        for (const st of policy.Properties.PolicyDocument.Statement) {
          const actions = ([] as string[]).concat(st.Action as string | string[]);
          assert.ok(!actions.some((a) => a.includes('*')), `${id} has a wildcard action: ${actions}`);
          const resources = ([] as unknown[]).concat(st.Resource);
          assert.ok(!resources.includes('*'), `${id} grants on every resource`);
          if (actions.some((a) => a.startsWith('kms:'))) {
            // The data key only through a service, or directly for member credentials only.
            const condition = st.Condition as { StringEquals?: Record<string, unknown> } | undefined;
            const keys = Object.keys(condition?.StringEquals ?? {});
            assert.ok(
              (keys.length === 1 && keys[0] === 'kms:ViaService') ||
                (keys.length === 1 &&
                  keys[0] === 'kms:EncryptionContext:purpose' &&
                  condition!.StringEquals!['kms:EncryptionContext:purpose'] === 'cluster-credential' &&
                  actions.every((a) => a === 'kms:Decrypt' || a === 'kms:GenerateDataKey')),
              `${id}: KMS granted too broadly: ${JSON.stringify(st)}`,
            );
          }
        }
      }
    });

    it('schedules the resync through EventBridge Scheduler onto the resync standard queue', () => {
      stateless.hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: config.resyncSchedule,
        Target: {
          Arn: Match.anyValue(),
          Input: JSON.stringify({ key: '*', reason: 'schedule' }),
          RoleArn: Match.anyValue(),
          RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 600 },
        },
      });
    });

    it('serves the Kubernetes API through a throttled, access-logged HTTP API to the api function', () => {
      stateless.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP', Name: `${config.prefix}-api` });
      stateless.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
      stateless.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
      stateless.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: {
          ThrottlingRateLimit: config.apiThrottle.rate,
          ThrottlingBurstLimit: config.apiThrottle.burst,
        },
        AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"status"') },
      });
      const stage = Object.values(stateless.findResources('AWS::ApiGatewayV2::Stage'))[0] as {
        Properties: { AccessLogSettings: { Format: string } };
      };
      assert.doesNotMatch(stage.Properties.AccessLogSettings.Format, /authorization|header/i, 'no credentials in logs');
      stateless.hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: `${config.prefix}-api`,
        Architectures: ['arm64'],
        Timeout: 29,
        Environment: { Variables: Match.objectLike({ SK_EVENT_TTL_SECONDS: String(config.eventTtlSeconds) }) },
      });
    });

    it('lets only the api seal member credentials (it also opens them for the proxies) and only the controllers that call members (cluster-status, executor, search) open them', () => {
      const policies = stateless.findResources('AWS::IAM::Policy') as Record<
        string,
        { Properties: { PolicyDocument: { Statement: { Sid?: string; Action: string | string[] }[] } } }
      >;
      const holders = Object.entries(policies)
        .filter(([, p]) =>
          p.Properties.PolicyDocument.Statement.some((st) => st.Sid === 'DataKeyForClusterCredentials'),
        )
        .map(([id, p]) => [
          id.replace(/[0-9A-F]{8}$/, ''),
          ([] as string[])
            .concat(
              p.Properties.PolicyDocument.Statement.find((st) => st.Sid === 'DataKeyForClusterCredentials')!.Action,
            )
            .sort(),
        ]);
      assert.deepEqual(holders.sort(), [
        ['ApiRoleDefaultPolicy', ['kms:Decrypt', 'kms:GenerateDataKey']],
        ['ControllerclusterstatusRoleDefaultPolicy', ['kms:Decrypt']],
        ['ControllerexecutorRoleDefaultPolicy', ['kms:Decrypt']],
        ['ControllersearchRoleDefaultPolicy', ['kms:Decrypt']],
      ]);
    });

    it('lets the api function send only to the priority queues of triggered controllers', () => {
      const policies = Object.entries(stateless.findResources('AWS::IAM::Policy')).filter(([id]) =>
        id.startsWith('ApiRole'),
      ) as [string, { Properties: { PolicyDocument: { Statement: { Sid: string; Resource: unknown }[] } } }][];
      assert.equal(policies.length, 1);
      const send = policies[0]![1].Properties.PolicyDocument.Statement.find(
        (st) => st.Sid === 'SendToTriggeredPriorityQueues',
      );
      const resources = JSON.stringify(send?.Resource);
      for (const c of triggeredControllers())
        assert.match(resources, new RegExp(queueName(config.prefix, c, 'priority')));
      assert.doesNotMatch(resources, /-standard/);
    });

    it('bootstraps at deploy: custom resource with the API URL; admin kubeconfig secret encrypted with the data key', () => {
      stateless.hasResourceProperties('Custom::ServerlessKarmadaBootstrap', {
        ServiceToken: Match.anyValue(),
        ApiUrl: Match.anyValue(),
      });
      stateful.hasResourceProperties('AWS::SecretsManager::Secret', {
        Name: `${config.prefix}/admin-kubeconfig`,
        KmsKeyId: Match.anyValue(),
      });
      stateless.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Sid: 'AdminKubeconfigSecret',
              Action: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
            }),
            Match.objectLike({
              Sid: 'DataKeyThroughSecretsManager',
              Condition: { StringEquals: { 'kms:ViaService': Match.anyValue() } },
            }),
          ]),
        },
      });
      stateless.hasOutput('*', { Description: 'The Kubernetes API server address' });
    });

    it('sends alarms to an encrypted, TLS-only topic', () => {
      stateless.hasResourceProperties('AWS::SNS::Topic', {
        TopicName: `${config.prefix}-alarms`,
        KmsMasterKeyId: Match.anyValue(),
      });
      stateless.hasResourceProperties('AWS::SNS::TopicPolicy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    });
  });
}

describe('environment configuration', () => {
  it('requires -c env and names the choices', () => {
    assert.throws(
      () => loadEnvironment(() => undefined),
      (e: Error) => e instanceof ConfigError && /pass -c env=<name> with one of: dev, prod/.test(e.message),
    );
    assert.throws(() => loadEnvironment((k) => (k === 'env' ? 'staging' : undefined)), /got "staging"/);
  });

  it('validates context overrides with messages that name the setting', () => {
    const ctx: Record<string, string> = {
      env: 'dev',
      account: '1234',
      region: 'mars-1',
      alarmEmail: 'not-an-email',
    };
    try {
      loadEnvironment((k) => ctx[k]);
      assert.fail('expected ConfigError');
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /account: must be a 12-digit AWS account id/);
      assert.match(e.message, /region: must be an AWS region such as eu-west-1/);
      assert.match(e.message, /alarmEmail: must be a valid email/);
    }
  });

  it('re-runs the bootstrap when given a new nonce', () => {
    const config = loadEnvironment((k) => ({ env: 'dev', bootstrapNonce: '1795255200' })[k]);
    const { stateless } = synth(config);
    stateless.hasResourceProperties('Custom::ServerlessKarmadaBootstrap', { Nonce: '1795255200' });
  });

  it('accepts a pinned account and region', () => {
    const c = loadEnvironment((k) => ({ env: 'prod', account: '123456789012', region: 'eu-west-1' })[k]);
    assert.equal(c.account, '123456789012');
    assert.equal(c.region, 'eu-west-1');
  });
});

describe('function bundles', () => {
  it('bundle each function (controllers, api, bootstrap) as one ESM file under the 600 KB budget, exporting handler', () => {
    const { outdir } = synth(ENVIRONMENTS.dev!, { bundle: true });
    const manifest = JSON.parse(readFileSync(join(outdir, 'sk-dev-stateless.assets.json'), 'utf8')) as {
      files: Record<string, { source: { path: string; packaging?: string } }>;
    };
    const bundles = Object.values(manifest.files).filter((f) => f.source.packaging === 'zip');
    assert.equal(bundles.length, CONTROLLER_SPECS.length + 2);
    for (const bundle of bundles) {
      const dir = join(outdir, bundle.source.path);
      assert.deepEqual(readdirSync(dir).sort(), ['index.mjs', 'index.mjs.map']);
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      const size = statSync(join(dir, 'index.mjs')).size;
      assert.ok(size < 600 * 1024, `bundle is ${size} bytes`);
      assert.match(code, /export\s*\{[^}]*\bhandler\b/);
      assert.doesNotMatch(code, /client-dynamodb\/dist-cjs/, 'the AWS SDK is left to the runtime');
    }
  });
});

describe('cluster health flags in an environment', () => {
  it('reach the functions as SK_CLUSTER_* settings; a bad duration fails with the setting named', () => {
    const config = { ...ENVIRONMENTS.dev!, clusterFlags: { 'cluster-failure-threshold': '1m30s' } };
    const { stateless } = synth(config);
    stateless.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${config.prefix}-cluster-status`,
      Environment: { Variables: Match.objectLike({ SK_CLUSTER_FAILURE_THRESHOLD: '1m30s' }) },
    });
    const saved = ENVIRONMENTS.dev!;
    ENVIRONMENTS.dev = { ...saved, clusterFlags: { 'cluster-failure-threshold': 'soon' } };
    try {
      assert.throws(
        () => loadEnvironment((k) => ({ env: 'dev' })[k]),
        (e: Error) =>
          e instanceof ConfigError && /clusterFlags.*cluster-failure-threshold.*must be a duration/s.test(e.message),
      );
    } finally {
      ENVIRONMENTS.dev = saved;
    }
  });
});
