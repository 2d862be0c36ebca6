import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LEAN_CLIENT_OPTIONS, leanClient } from '../lean-client.ts';

/** Where and how to reach DynamoDB. `endpoint` is set for local servers (dynalite, DynamoDB Local). */
export interface DynamoConnection {
  region: string;
  endpoint?: string;
}

/**
 * A DynamoDB client. Against a local endpoint it uses dummy credentials, so local mode needs no AWS
 * account; against AWS it uses the default credential chain (the Lambda role).
 */
export function createDynamoClient(connection: DynamoConnection): DynamoDBClient {
  return leanClient(
    new DynamoDBClient({
      ...LEAN_CLIENT_OPTIONS,
      region: connection.region,
      maxAttempts: 5,
      ...(connection.endpoint
        ? // The SDK's 50 sockets stay: measured, more concurrent calls slow the in-process server down.
          { endpoint: connection.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    }),
  );
}
