import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from './table.ts';

/**
 * Creates the object table on a local endpoint if it is missing, adds any index a newer version
 * defines to a table an older version created (a data directory kept across upgrades), and waits
 * until it is ACTIVE. (In AWS the CDK stack owns the table; this is never called there.)
 */
export async function ensureTable(client: DynamoDBClient, tableName: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const input = createTableInput(tableName);
  try {
    await client.send(new CreateTableCommand(input));
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
    await waitActive(client, tableName, deadline, timeoutMs);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
    // DynamoDB adds one index per UpdateTable.
    for (const index of input.GlobalSecondaryIndexes ?? []) {
      if (existing.has(index.IndexName)) continue;
      const create = { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection };
      const update = (withThroughput: boolean) =>
        client.send(
          new UpdateTableCommand({
            TableName: tableName,
            AttributeDefinitions: input.AttributeDefinitions,
            GlobalSecondaryIndexUpdates: [
              {
                Create: withThroughput
                  ? { ...create, ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 } }
                  : create,
              },
            ],
          }),
        );
      try {
        await update(false);
      } catch (err) {
        // dynalite predates on-demand index creation and insists on a (meaningless) throughput.
        if (!/provisionedThroughput/i.test((err as Error).message)) throw err;
        await update(true);
      }
      await waitActive(client, tableName, deadline, timeoutMs);
    }
  }
  await waitActive(client, tableName, deadline, timeoutMs);
}

async function waitActive(
  client: DynamoDBClient,
  tableName: string,
  deadline: number,
  timeoutMs: number,
): Promise<void> {
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
