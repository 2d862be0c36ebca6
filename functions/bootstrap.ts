/**
 * Lambda: the deploy-time bootstrap custom resource (default namespaces; the admin kubeconfig in
 * its Secrets Manager secret, named by SK_ADMIN_SECRET_ID). Wiring only — lib/apiserver/bootstrap.ts.
 */
import { createSecretsManagerClient } from '../lib/adapters/secrets-manager/client.ts';
import { SecretsManagerSecret } from '../lib/adapters/secrets-manager/secret.ts';
import { createBootstrapHandler } from '../lib/apiserver/bootstrap-resource.ts';
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { observabilityFor, wireRuntime } from '../lib/wiring/wire.ts';

// Built on first use inside the handler, so a configuration error still answers CloudFormation.
export const handler = createBootstrapHandler(() => {
  const runtime = wireRuntime(loadRuntimeConfig());
  const secretId = runtime.config.adminSecretId;
  if (!secretId) throw new Error('SK_ADMIN_SECRET_ID is not set: the stack passes the admin kubeconfig secret ARN');
  return {
    runtime,
    logger: observabilityFor('bootstrap', runtime.config).logger,
    secret: new SecretsManagerSecret(createSecretsManagerClient({ region: runtime.config.region }), secretId),
  };
});
