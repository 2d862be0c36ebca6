import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { LEAN_CLIENT_OPTIONS, leanClient } from '../lean-client.ts';

/** Where to reach Secrets Manager. No local endpoint: local mode keeps the admin kubeconfig in a file. */
export interface SecretsManagerConnection {
  region: string;
}

/** A Secrets Manager client on the default credential chain (the bootstrap function's role). */
export function createSecretsManagerClient(connection: SecretsManagerConnection): SecretsManagerClient {
  return leanClient(new SecretsManagerClient({ ...LEAN_CLIENT_OPTIONS, region: connection.region }));
}
