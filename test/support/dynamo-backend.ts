import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../lib/adapters/dynamodb/client.ts';
import { ensureTable } from '../../lib/adapters/dynamodb/ensure-table.ts';
import { DynamoRowStore } from '../../lib/adapters/dynamodb/row-store.ts';
import { systemClock } from '../../lib/clock/index.ts';
import type { LocalServer } from '../../lib/local/servers.ts';
import { RowObjectStore } from '../../lib/store/index.ts';
import type { StoreBackend } from '../contract/object-store.contract.ts';

/** A contract-test backend over a DynamoDB-compatible server: a fresh table per test. */
export function dynamoBackend(name: string, startServer: () => Promise<LocalServer>): StoreBackend {
  let server: LocalServer | undefined;
  let client: DynamoDBClient | undefined;
  return {
    name,
    async start() {
      server = await startServer();
      client = createDynamoClient({ region: 'us-east-1', endpoint: server.endpoint });
    },
    async stop() {
      client?.destroy();
      await server?.stop();
    },
    async newStore(options) {
      const tableName = `objects-${randomUUID()}`;
      await ensureTable(client!, tableName);
      return new RowObjectStore(new DynamoRowStore({ client: client!, tableName }), {
        clock: systemClock,
        ...options,
      });
    },
  };
}
