import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** Where to reach Secrets Manager. No local endpoint: local mode keeps the admin kubeconfig in a file. */
export interface SecretsManagerConnection {
  region: string;
}

/** A Secrets Manager client on the default credential chain (the bootstrap function's role). */
export function createSecretsManagerClient(connection: SecretsManagerConnection): SecretsManagerClient {
  return new SecretsManagerClient({ region: connection.region });
}
