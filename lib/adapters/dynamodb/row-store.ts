/**
 * The DynamoDB {@link RowStore}: marshals rows and calls the SDK, nothing else. One conditional
 * PutItem/DeleteItem per write; a failed condition returns the current row when DynamoDB sends it
 * (`ReturnValuesOnConditionCheckFailure`), otherwise the caller reads it.
 */
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { inRange } from '../../store/layout.ts';
import type { IndexPage, IndexQuery, IndexRow, Row, RowStore, WriteCondition, WriteOutcome } from '../../store/rows.ts';
import { ATTR, INDEX } from './table.ts';

type Item = Record<string, AttributeValue>;

export interface DynamoRowStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  /** Largest item accepted (default 400 KB, DynamoDB's limit). */
  maxRowBytes?: number;
}

export class DynamoRowStore implements RowStore {
  readonly maxRowBytes: number;
  readonly #client: DynamoDBClient;
  readonly #table: string;

  constructor(options: DynamoRowStoreOptions) {
    this.#client = options.client;
    this.#table = options.tableName;
    this.maxRowBytes = options.maxRowBytes ?? 400 * 1024;
  }

  async get(pk: string): Promise<Row | undefined> {
    const { Item } = await this.#client.send(
      new GetItemCommand({ TableName: this.#table, Key: { [ATTR.pk]: { S: pk } }, ConsistentRead: true }),
    );
    return Item ? toRow(Item) : undefined;
  }

  async put(row: Row, condition: WriteCondition): Promise<WriteOutcome> {
    const item: Item = {
      [ATTR.pk]: { S: row.pk },
      [ATTR.kindShard]: { S: row.kindShard },
      [ATTR.sortKey]: { S: row.sortKey },
      [ATTR.version]: { N: String(row.version) },
      [ATTR.body]: { B: row.body },
    };
    if (row.clusterKey) item[ATTR.clusterKey] = { S: row.clusterKey };
    if (row.expiresAt !== undefined) item[ATTR.expiresAt] = { N: String(row.expiresAt) };
    if (row.ownerKey) item[ATTR.ownerKey] = { S: row.ownerKey };
    return this.#conditional(
      new PutItemCommand({
        TableName: this.#table,
        Item: item,
        ...conditionExpression(condition),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  }

  async delete(pk: string, version: number): Promise<WriteOutcome> {
    return this.#conditional(
      new DeleteItemCommand({
        TableName: this.#table,
        Key: { [ATTR.pk]: { S: pk } },
        ...conditionExpression({ kind: 'version', version }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  }

  async query(q: IndexQuery): Promise<IndexPage> {
    const partitionAttr = { byKind: ATTR.kindShard, byCluster: ATTR.clusterKey, byOwner: ATTR.ownerKey }[q.index];
    const sortAttr = q.index === 'byOwner' ? ATTR.pk : ATTR.sortKey;
    const names: Record<string, string> = { '#p': partitionAttr };
    const values: Item = { ':p': { S: q.partition } };
    let condition = '#p = :p';
    const { prefix, after } = q.range;
    if (prefix !== undefined || after !== undefined) names['#s'] = sortAttr;
    if (prefix !== undefined && after !== undefined) {
      // "Strictly after `after`, within `prefix`": an inclusive BETWEEN whose lower bound row (if any) is
      // dropped below. The upper bound is the prefix with its trailing '/' bumped to '0', the first string
      // past every `namespace/...` key.
      condition += ' AND #s BETWEEN :lo AND :hi';
      values[':lo'] = { S: after };
      values[':hi'] = { S: `${prefix.slice(0, -1)}0` };
    } else if (prefix !== undefined) {
      condition += ' AND begins_with(#s, :prefix)';
      values[':prefix'] = { S: prefix };
    } else if (after !== undefined) {
      condition += ' AND #s > :after';
      values[':after'] = { S: after };
    }
    const keysOnly = q.keysOnly || q.index === 'byOwner';
    if (keysOnly) {
      names['#k'] = sortAttr;
      // Version and expiry matter for kind lists; dependents are keys only (their index projects nothing else).
      if (q.index !== 'byOwner') {
        names['#v'] = ATTR.version;
        names['#xa'] = ATTR.expiresAt;
      }
    }
    const out = await this.#client.send(
      new QueryCommand({
        TableName: this.#table,
        IndexName: INDEX[q.index],
        KeyConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        Limit: q.limit,
        ...(keysOnly ? { ProjectionExpression: q.index === 'byOwner' ? '#k' : '#k, #v, #xa' } : {}),
      }),
    );
    const rows: IndexRow[] = [];
    for (const item of out.Items ?? []) {
      const sortKey = item[sortAttr]?.S ?? '';
      if (!inRange(sortKey, q.range)) continue;
      const version = item[ATTR.version]?.N;
      const row: IndexRow = keysOnly
        ? version !== undefined
          ? { sortKey, version: Number(version) }
          : { sortKey }
        : { sortKey, version: Number(version), body: item[ATTR.body]?.B ?? new Uint8Array() };
      const expiresAt = item[ATTR.expiresAt]?.N;
      if (expiresAt !== undefined) row.expiresAt = Number(expiresAt);
      rows.push(row);
    }
    return { rows, exhausted: !out.LastEvaluatedKey };
  }

  async #conditional(command: PutItemCommand | DeleteItemCommand): Promise<WriteOutcome> {
    try {
      await this.#client.send(command as PutItemCommand);
      return { ok: true };
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) {
        return { ok: false, current: err.Item ? toRow(err.Item) : undefined };
      }
      throw err;
    }
  }
}

function conditionExpression(condition: WriteCondition): {
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Item;
} {
  if (condition.kind === 'absent') {
    if (condition.expiredBefore === undefined) {
      return { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': ATTR.pk } };
    }
    return {
      ConditionExpression: 'attribute_not_exists(#pk) OR #xa < :now',
      ExpressionAttributeNames: { '#pk': ATTR.pk, '#xa': ATTR.expiresAt },
      ExpressionAttributeValues: { ':now': { N: String(condition.expiredBefore) } },
    };
  }
  return {
    ConditionExpression: '#v = :v',
    ExpressionAttributeNames: { '#v': ATTR.version },
    ExpressionAttributeValues: { ':v': { N: String(condition.version) } },
  };
}

function toRow(item: Item): Row {
  const row: Row = {
    pk: item[ATTR.pk]?.S ?? '',
    kindShard: item[ATTR.kindShard]?.S ?? '',
    sortKey: item[ATTR.sortKey]?.S ?? '',
    version: Number(item[ATTR.version]?.N),
    body: item[ATTR.body]?.B ?? new Uint8Array(),
  };
  const clusterKey = item[ATTR.clusterKey]?.S;
  if (clusterKey) row.clusterKey = clusterKey;
  const expiresAt = item[ATTR.expiresAt]?.N;
  if (expiresAt !== undefined) row.expiresAt = Number(expiresAt);
  const ownerKey = item[ATTR.ownerKey]?.S;
  if (ownerKey) row.ownerKey = ownerKey;
  return row;
}
