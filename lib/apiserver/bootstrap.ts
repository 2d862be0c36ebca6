/**
 * What every start of a control plane makes sure of, locally (`skctl up`) and in AWS (the
 * bootstrap custom resource at each deploy): the default namespaces exist, and an admin kubeconfig
 * holds a token that works. The kubeconfig is kept as long as its token still authenticates as an
 * admin (only the server address is refreshed); otherwise a new admin token is issued. Only the
 * token's hash is stored in the table; the plaintext lives only in the kubeconfig (a 0600 file
 * locally, a KMS-encrypted secret in AWS).
 */
import { parse as parseYaml } from 'yaml';
import type { Clock } from '../clock/clock.ts';
import { kubeconfigYaml } from '../pki/kubeconfig.ts';
import type { ObjectStore } from '../store/port.ts';
import { ADMIN_GROUP, TokenAuthenticator } from './auth.ts';
import { refreshClusterInfo } from './cluster-info.ts';
import { ensureDefaultNamespaces, issueAdminToken } from './server.ts';

export interface AdminKubeconfigOptions {
  store: ObjectStore;
  clock: Clock;
  /** The current kubeconfig text, if any (it may be garbage: then a new one is made). */
  existing: string | undefined;
  server: string;
  /** The CA of the server's certificate (local mode); absent for a publicly trusted one. */
  caCertPem?: string;
  clusterName: string;
  contextName: string;
  /** Recorded on a newly issued token, e.g. `skctl up local admin`. */
  description: string;
}

/** The admin kubeconfig to keep, and whether it differs from `existing` (so must be written). */
export async function ensureAdminKubeconfig(
  options: AdminKubeconfigOptions,
): Promise<{ kubeconfig: string; changed: boolean; issued: boolean }> {
  let token = await validAdminToken(options);
  const issued = token === undefined;
  token ??= (await issueAdminToken(options.store, options.description)).token;
  const kubeconfig = kubeconfigYaml({
    clusterName: options.clusterName,
    contextName: options.contextName,
    userName: 'admin',
    server: options.server,
    ...(options.caCertPem !== undefined ? { caCertPem: options.caCertPem } : {}),
    token,
    namespace: 'default',
  });
  return { kubeconfig, changed: kubeconfig !== options.existing, issued };
}

async function validAdminToken(options: AdminKubeconfigOptions): Promise<string | undefined> {
  if (!options.existing) return undefined;
  let token: unknown;
  try {
    const config = parseYaml(options.existing) as { users?: { user?: { token?: unknown } }[] } | null;
    token = config?.users?.[0]?.user?.token;
  } catch {
    return undefined;
  }
  if (typeof token !== 'string') return undefined;
  const user = await new TokenAuthenticator(options.store, options.clock).verify(token);
  return user?.groups.includes(ADMIN_GROUP) ? token : undefined;
}

/** The bootstrap of an AWS deployment: namespaces, then the admin kubeconfig in its secret. */
export async function bootstrapControlPlane(options: {
  store: ObjectStore;
  clock: Clock;
  apiUrl: string;
  environment: string;
  secret: SecretPort;
}): Promise<{ issued: boolean; changed: boolean }> {
  await ensureDefaultNamespaces(options.store);
  // Pull registration discovers the API from here (API Gateway's certificate is public: no CA).
  await refreshClusterInfo(options.store, options.clock, { server: options.apiUrl });
  const result = await ensureAdminKubeconfig({
    store: options.store,
    clock: options.clock,
    existing: await options.secret.read(),
    server: options.apiUrl,
    clusterName: `serverless-karmada-${options.environment}`,
    contextName: `karmada-${options.environment}`,
    description: `bootstrap admin (${options.environment})`,
  });
  if (result.changed) await options.secret.write(result.kubeconfig);
  return { issued: result.issued, changed: result.changed };
}

/** Where the admin kubeconfig is kept in AWS (Secrets Manager adapter; a map in tests). */
export interface SecretPort {
  read(): Promise<string | undefined>;
  write(value: string): Promise<void>;
}
