/**
 * One Secrets Manager secret as a {@link SecretPort}: the admin kubeconfig of an AWS deployment.
 * The secret is created by the stateful stack (encrypted with the data key); this only reads and
 * puts versions of it.
 */
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { SecretPort } from '../../apiserver/bootstrap.ts';

export class SecretsManagerSecret implements SecretPort {
  readonly #client: SecretsManagerClient;
  readonly #secretId: string;

  constructor(client: SecretsManagerClient, secretId: string) {
    this.#client = client;
    this.#secretId = secretId;
  }

  async read(): Promise<string | undefined> {
    try {
      const out = await this.#client.send(new GetSecretValueCommand({ SecretId: this.#secretId }));
      return out.SecretString;
    } catch (err) {
      if (err instanceof ResourceNotFoundException) return undefined;
      throw err;
    }
  }

  async write(value: string): Promise<void> {
    await this.#client.send(new PutSecretValueCommand({ SecretId: this.#secretId, SecretString: value }));
  }
}
