/**
 * The registering side of Pull registration (`skctl register`, as `karmadactl register` / kubeadm's
 * token discovery): fetch the public `kube-public/cluster-info` without trusting the server yet,
 * check its JWS signature with the bootstrap token (only a server that knows the token could have
 * signed it), pin the CA it names against `--discovery-token-ca-cert-hash`, fetch it again over the
 * now-trusted TLS and require the same, then exchange the token for the cluster's own credential.
 */
import { request } from 'node:https';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../api/object.ts';
import { parseBootstrapToken } from '../registration/bootstrap-token.ts';
import { caCertHash, verifyCaPin } from '../registration/ca-pin.ts';
import {
  CLUSTER_INFO_NAME,
  CLUSTER_INFO_NAMESPACE,
  verifiedClusterInfoKubeconfig,
} from '../registration/cluster-info.ts';
import type { AgentConfig } from './agent.ts';

export class RegistrationError extends Error {
  override readonly name = 'RegistrationError';
}

export interface RegisterRequest {
  /** The control plane's API address, e.g. `https://127.0.0.1:7070` or `127.0.0.1:7070`. */
  server: string;
  token: string;
  /** `sha256:<hex>` of the CA's public key (printed by `skctl token create --print-register-command`). */
  caCertHash?: string;
  /** Skip CA pinning (the JWS still authenticates cluster-info, but a MITM could pick the CA). */
  unsafeSkipCaVerification?: boolean;
  clusterName: string;
  provider?: string;
  region?: string;
  zones?: string[];
}

interface Reply {
  status: number;
  body: string;
}

function call(
  url: URL,
  method: string,
  trust: { caPem?: string; insecure?: boolean },
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          accept: 'application/json',
          'user-agent': 'skctl-register',
          ...headers,
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
            : {}),
        },
        ...(trust.caPem ? { ca: trust.caPem } : {}),
        rejectUnauthorized: !trust.insecure,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', (err) =>
      reject(new RegistrationError(`cannot reach the control plane at ${url.host}: ${err.message}`)),
    );
    req.end(body);
  });
}

function baseUrl(server: string): URL {
  const text = /^https?:\/\//.test(server) ? server : `https://${server}`;
  const url = new URL(text);
  if (url.protocol !== 'https:')
    throw new RegistrationError(`the control plane address must be https://, got ${server}`);
  return url;
}

const CLUSTER_INFO_PATH = `/api/v1/namespaces/${CLUSTER_INFO_NAMESPACE}/configmaps/${CLUSTER_INFO_NAME}`;

/** The signed cluster-info kubeconfig, fetched with the given trust. */
async function fetchClusterInfo(
  base: URL,
  trust: { caPem?: string; insecure?: boolean },
  id: string,
  secret: string,
): Promise<string> {
  const res = await call(new URL(CLUSTER_INFO_PATH, base), 'GET', trust);
  if (res.status === 404)
    throw new RegistrationError(
      `the control plane at ${base.host} publishes no ${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME}`,
    );
  if (res.status !== 200)
    throw new RegistrationError(`reading ${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME} failed: HTTP ${res.status}`);
  const configMap = JSON.parse(res.body) as KubeObject;
  const kubeconfig = verifiedClusterInfoKubeconfig(configMap, id, secret);
  if (!kubeconfig) {
    throw new RegistrationError(
      `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME} is not signed for token ${id}: the token is wrong, expired or deleted (skctl token list shows the live ones)`,
    );
  }
  return kubeconfig;
}

/** Registers a Pull cluster; returns what its agent needs. */
export async function registerPullCluster(input: RegisterRequest): Promise<AgentConfig> {
  const token = parseBootstrapToken(input.token);
  if (!token)
    throw new RegistrationError('the token must look like abcdef.0123456789abcdef (skctl token create makes one)');
  const base = baseUrl(input.server);

  // 1. Not trusting the server yet: the signature is what authenticates the answer.
  const kubeconfig = await fetchClusterInfo(base, { insecure: true }, token.id, token.secret);
  const config = parseYaml(kubeconfig) as {
    clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[];
  };
  if (config.clusters?.length !== 1) throw new RegistrationError('cluster-info must name exactly one cluster');
  const cluster = config.clusters[0]!.cluster ?? {};
  const caData = cluster['certificate-authority-data'];
  const caPem = caData ? Buffer.from(caData, 'base64').toString('utf8') : undefined;
  const server = cluster.server ?? base.toString();

  // 2. Pin the CA it names.
  if (caPem) {
    if (input.caCertHash) {
      let pinned: boolean;
      try {
        pinned = verifyCaPin(caPem, input.caCertHash);
      } catch (err) {
        throw new RegistrationError(`--discovery-token-ca-cert-hash: ${(err as Error).message}`);
      }
      if (!pinned) {
        throw new RegistrationError(
          `the control plane's CA does not match --discovery-token-ca-cert-hash: it is ${caCertHash(caPem)}; check the address and the hash`,
        );
      }
    } else if (!input.unsafeSkipCaVerification) {
      throw new RegistrationError(
        'pass --discovery-token-ca-cert-hash sha256:<hash> (printed by skctl token create --print-register-command), ' +
          'or --discovery-token-unsafe-skip-ca-verification to trust the CA the server names',
      );
    }
  }
  const trust = caPem ? { caPem } : {};
  const serverUrl = baseUrl(server);

  // 3. Again over the trusted connection: the same kubeconfig, or someone is in the middle.
  const again = await fetchClusterInfo(serverUrl, trust, token.id, token.secret);
  if (again !== kubeconfig)
    throw new RegistrationError('cluster-info changed between the untrusted and the trusted read');

  // 4. The token for the cluster's own credential.
  const res = await call(
    new URL('/webhooks/v1/register', serverUrl),
    'POST',
    trust,
    { authorization: `Bearer ${input.token}` },
    JSON.stringify({
      clusterName: input.clusterName,
      ...(input.provider ? { provider: input.provider } : {}),
      ...(input.region ? { region: input.region } : {}),
      ...(input.zones?.length ? { zones: input.zones } : {}),
    }),
  );
  const answer = JSON.parse(res.body || '{}') as { credential?: string; message?: string };
  if (res.status !== 201 || !answer.credential) {
    throw new RegistrationError(
      `the control plane refused the registration (${res.status}): ${answer.message ?? res.body}`,
    );
  }
  return { server, ...(caPem ? { caPem } : {}), cluster: input.clusterName, credential: answer.credential };
}
