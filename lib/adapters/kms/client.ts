import { KMSClient } from '@aws-sdk/client-kms';
import { LEAN_CLIENT_OPTIONS, leanClient } from '../lean-client.ts';

/** Where and how to reach KMS. `endpoint` is set for a local KMS emulator (local-kms, LocalStack, moto). */
export interface KmsConnection {
  region: string;
  endpoint?: string;
}

/**
 * A KMS client. Against a local endpoint it uses dummy credentials, so a local emulator needs no AWS
 * account; against AWS it uses the default credential chain (the Lambda role). Same conventions as
 * `createDynamoClient`.
 */
export function createKmsClient(connection: KmsConnection): KMSClient {
  return leanClient(
    new KMSClient({
      ...LEAN_CLIENT_OPTIONS,
      region: connection.region,
      maxAttempts: 5,
      ...(connection.endpoint
        ? { endpoint: connection.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    }),
  );
}
