import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from './table.ts';

/**
 * Creates the object table on a local endpoint if it is missing and waits until it is ACTIVE.
 * (In AWS the CDK stack owns the table; this is never called there.)
 */
export async function ensureTable(client: DynamoDBClient, tableName: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
  }
  for (;;) {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
      if (Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
    if (Date.now() > deadline) throw new Error(`table ${tableName} did not become ACTIVE within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
