/**
 * The object table's schema, defined once and used by the CDK stack, the local runtime and the tests,
 * so the three can never drift apart. See docs/decisions/0001-store-layout.md.
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/** Attribute names (short: DynamoDB bills their bytes on every item). */
export const ATTR = {
  /** Table partition key: the object key (`Deployment.apps/default/nginx`). */
  pk: 'pk',
  /** byKind partition: `Kind.group#shard`. */
  kindShard: 'ks',
  /** Sort key of both indexes: `namespace/name` or `name`. */
  sortKey: 'sk',
  /** byCluster partition: `Kind.group#cluster` (Works only; sparse). */
  clusterKey: 'ck',
  /** Numeric object version (the resourceVersion). */
  version: 'v',
  /** Compressed object body. */
  body: 'b',
  /** Epoch seconds after which the item is dead: the table's TTL attribute (Events only). */
  expiresAt: 'xa',
  /** byOwner partition: the uid of the object's controller (or first) owner (sparse). */
  ownerKey: 'ow',
} as const;

export const INDEX = {
  byKind: 'byKind',
  byCluster: 'byCluster',
  byOwner: 'byOwner',
} as const;

/** CreateTable input for local endpoints and tests (the CDK stack declares the same shape). */
export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: ATTR.pk, AttributeType: 'S' },
      { AttributeName: ATTR.kindShard, AttributeType: 'S' },
      { AttributeName: ATTR.sortKey, AttributeType: 'S' },
      { AttributeName: ATTR.clusterKey, AttributeType: 'S' },
      { AttributeName: ATTR.ownerKey, AttributeType: 'S' },
    ],
    KeySchema: [{ AttributeName: ATTR.pk, KeyType: 'HASH' }],
    GlobalSecondaryIndexes: [
      {
        IndexName: INDEX.byKind,
        KeySchema: [
          { AttributeName: ATTR.kindShard, KeyType: 'HASH' },
          { AttributeName: ATTR.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      {
        IndexName: INDEX.byCluster,
        KeySchema: [
          { AttributeName: ATTR.clusterKey, KeyType: 'HASH' },
          { AttributeName: ATTR.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
      {
        // The garbage collector's question: which objects does this uid own? Keys are enough.
        IndexName: INDEX.byOwner,
        KeySchema: [
          { AttributeName: ATTR.ownerKey, KeyType: 'HASH' },
          { AttributeName: ATTR.pk, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
  };
}
