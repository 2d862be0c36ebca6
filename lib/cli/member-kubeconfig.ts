/**
 * A member cluster's kubeconfig (the one a user has for it) read into a {@link MemberConnection}:
 * the server, its CA, and a bearer token or client certificate. Credentials that only work on the
 * user's machine (exec plugins, auth providers, username/password) cannot be handed to the control
 * plane and are refused with what to use instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { MemberConnection } from '../members/client.ts';
import { UsageError } from './args.ts';

/** Makes `context` (when given) the current context of `config`, or says which contexts `path` has. */
export function useContext(config: KubeConfig, context: string | undefined, path: string): void {
  if (!context) return;
  if (!config.getContextObject(context)) {
    throw new UsageError(
      `context ${JSON.stringify(context)} is not in ${path} (it has: ${config.contexts.map((c) => c.name).join(', ')})`,
    );
  }
  config.setCurrentContext(context);
}

export function memberConnectionFromKubeconfig(path: string, context?: string): MemberConnection {
  if (!existsSync(path)) throw new UsageError(`no kubeconfig at ${path} (the member cluster's kubeconfig)`);
  const config = new KubeConfig();
  try {
    config.loadFromFile(path);
  } catch (err) {
    throw new UsageError(`cannot read kubeconfig ${path}: ${(err as Error).message}`);
  }
  useContext(config, context, path);
  const cluster = config.getCurrentCluster();
  const user = config.getCurrentUser();
  if (!cluster || !user) throw new UsageError(`kubeconfig ${path} has no current context with a cluster and a user`);
  const read = (data: string | undefined, file: string | undefined, what: string): string | undefined => {
    if (data) return Buffer.from(data, 'base64').toString('utf8');
    if (!file) return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read the ${what} file ${file} named in ${path}: ${(err as Error).message}`);
    }
  };
  if (user.exec || user.authProvider) {
    throw new UsageError(
      `the user of context ${config.getCurrentContext()} authenticates with an ${user.exec ? 'exec plugin' : 'auth provider'}, ` +
        'which only works on this machine: create a ServiceAccount token (kubectl create token) or use a client certificate',
    );
  }
  const conn: MemberConnection = { server: cluster.server };
  const caPem = read(cluster.caData, cluster.caFile, 'certificate-authority');
  if (caPem) conn.caPem = caPem;
  if (cluster.skipTLSVerify) conn.insecureSkipTLSVerify = true;
  const token = user.token ?? readTokenFile(user as { tokenFile?: string });
  if (token) conn.token = token.trim();
  const certPem = read(user.certData, user.certFile, 'client-certificate');
  const keyPem = read(user.keyData, user.keyFile, 'client-key');
  if (certPem && keyPem) {
    conn.certPem = certPem;
    conn.keyPem = keyPem;
  }
  if (!conn.token && !conn.certPem) {
    throw new UsageError(
      `the user of context ${config.getCurrentContext()} in ${path} has neither a token nor a client certificate and key`,
    );
  }
  if (!conn.server.startsWith('https://')) {
    throw new UsageError(`the member's server ${conn.server} is not https://: credentials are only sent over TLS`);
  }
  return conn;
}

function readTokenFile(user: { tokenFile?: string }): string | undefined {
  if (!user.tokenFile) return undefined;
  try {
    return readFileSync(user.tokenFile, 'utf8');
  } catch {
    return undefined;
  }
}
