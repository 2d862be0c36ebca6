import { RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ATTR, createTableInput } from '../../lib/adapters/dynamodb/table.ts';
import { CONTROLLER_SPECS } from '../../lib/controllers/specs.ts';
import { ControllerQueues } from '../constructs/controller-queues.ts';
import type { EnvironmentConfig } from '../config/environments.ts';

export interface StatefulStackProps extends StackProps {
  config: EnvironmentConfig;
}

/** The table's name in an environment. */
export function tableName(config: EnvironmentConfig): string {
  return `${config.prefix}-objects`;
}

const ATTRIBUTE_TYPES: Record<string, dynamodb.AttributeType> = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
  B: dynamodb.AttributeType.BINARY,
};

/**
 * Everything that holds state: the object table (encrypted with a customer-managed key, point-in-time
 * recovery, retained and deletion-protected where the environment says so), the admin kubeconfig
 * secret, and every controller's queues. The table's shape comes from lib/adapters/dynamodb/table.ts, the same definition local mode
 * and the tests create, so the three cannot drift.
 */
export class StatefulStack extends Stack {
  readonly table: dynamodb.Table;
  readonly dataKey: kms.Key;
  readonly adminSecret: secretsmanager.Secret;
  readonly queues: Record<string, ControllerQueues> = {};

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.dataKey = new kms.Key(this, 'DataKey', {
      alias: `alias/${config.prefix}-data`,
      description: `Encrypts the Serverless Karmada object table (${config.name})`,
      enableKeyRotation: true,
      removalPolicy,
    });

    const definition = createTableInput(tableName(config));
    const attribute = (name: string): dynamodb.Attribute => {
      const def = definition.AttributeDefinitions?.find((a) => a.AttributeName === name);
      if (!def?.AttributeType) throw new Error(`table definition has no attribute ${name}`);
      return { name, type: ATTRIBUTE_TYPES[def.AttributeType]! };
    };
    const hash = definition.KeySchema!.find((k) => k.KeyType === 'HASH')!.AttributeName!;
    this.table = new dynamodb.Table(this, 'Objects', {
      tableName: definition.TableName,
      partitionKey: attribute(hash),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.dataKey,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: config.retainData,
      // Events carry an expiry (SK_EVENT_TTL_SECONDS); DynamoDB deletes them for free once past it.
      timeToLiveAttribute: ATTR.expiresAt,
      removalPolicy,
    });
    for (const index of definition.GlobalSecondaryIndexes ?? []) {
      const key = (type: string) => index.KeySchema!.find((k) => k.KeyType === type)?.AttributeName;
      const sortKey = key('RANGE');
      this.table.addGlobalSecondaryIndex({
        indexName: index.IndexName!,
        partitionKey: attribute(key('HASH')!),
        ...(sortKey ? { sortKey: attribute(sortKey) } : {}),
        projectionType:
          index.Projection?.ProjectionType === 'KEYS_ONLY'
            ? dynamodb.ProjectionType.KEYS_ONLY
            : dynamodb.ProjectionType.ALL,
      });
    }

    // The admin kubeconfig of the API, written by the bootstrap at deploy (the plaintext token lives
    // only here; the table keeps its hash). Starts with a placeholder the bootstrap replaces.
    this.adminSecret = new secretsmanager.Secret(this, 'AdminKubeconfig', {
      secretName: `${config.prefix}/admin-kubeconfig`,
      description: `Serverless Karmada ${config.name}: admin kubeconfig of the Kubernetes API (written by the bootstrap)`,
      encryptionKey: this.dataKey,
      removalPolicy,
    });
    Validations.of(this.adminSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Holds an API bearer token, not a database password: rotating means issuing a new token and revoking the old one (docs/deploy.md), which automatic rotation cannot do for the kubeconfigs users hold',
    });

    for (const spec of CONTROLLER_SPECS) {
      this.queues[spec.name] = new ControllerQueues(this, `Queues-${spec.name}`, {
        prefix: config.prefix,
        spec,
        retain: config.retainData,
      });
    }
  }
}
