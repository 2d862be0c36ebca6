/**
 * Kubeconfig files for the local API server (and, later, for member clusters): one cluster with the
 * CA embedded, one user with a bearer token or a client certificate, one context made current.
 */
import { createPrivateKey } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import { parseCertificate } from './certificates.ts';
import { PkiOptionsError } from './errors.ts';
import { PRIVATE_FILE_MODE, writeFileAtomic } from './files.ts';
import { assertKnownKeys, assertName } from './validate.ts';

/** Options of {@link kubeconfigYaml}; give either `token` or both `clientCertPem` and `clientKeyPem`. */
export interface KubeconfigOptions {
  /** Name of the cluster entry, e.g. `serverless-karmada`. */
  clusterName: string;
  /** Name of the context, made `current-context`. */
  contextName: string;
  /** Name of the user entry. */
  userName: string;
  /** API server URL; must be `https://` since kubectl never sends credentials over plain HTTP. */
  server: string;
  /**
   * The CA that signed the server's certificate, PEM; embedded as `certificate-authority-data`.
   * Leave out for a server with a publicly trusted certificate (API Gateway).
   */
  caCertPem?: string;
  /** Bearer token the user authenticates with. */
  token?: string;
  /** Client certificate the user authenticates with, PEM (with `clientKeyPem`). */
  clientCertPem?: string;
  /** Private key of `clientCertPem`, PEM. */
  clientKeyPem?: string;
  /** Default namespace of the context. */
  namespace?: string;
}

const KNOWN = [
  'clusterName',
  'contextName',
  'userName',
  'server',
  'caCertPem',
  'token',
  'clientCertPem',
  'clientKeyPem',
  'namespace',
] as const;
const DNS_LABEL = /^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Renders a kubeconfig (`apiVersion: v1`, `kind: Config`) as YAML: the cluster with `server` and
 * `certificate-authority-data` (base64 of the CA PEM, as kubectl expects), the user with `token` or
 * `client-certificate-data`/`client-key-data`, and the context as `current-context`. Throws a
 * {@link PkiOptionsError} on an invalid option: a non-HTTPS server, a PEM that does not parse, a client
 * key not matching its certificate, no credential or both kinds.
 *
 * @example
 * kubeconfigYaml({ clusterName: 'skctl', contextName: 'skctl', userName: 'admin',
 *   server: 'https://127.0.0.1:6443', caCertPem: pki.ca.certPem, token });
 */
export function kubeconfigYaml(options: KubeconfigOptions): string {
  assertKnownKeys(options, KNOWN, 'kubeconfigYaml');
  assertName(options.clusterName, 'clusterName');
  assertName(options.contextName, 'contextName');
  assertName(options.userName, 'userName');
  checkServer(options.server);
  if (options.caCertPem !== undefined) parseCertificate(options.caCertPem, 'caCertPem');
  if (
    options.namespace !== undefined &&
    !(typeof options.namespace === 'string' && DNS_LABEL.test(options.namespace))
  ) {
    throw new PkiOptionsError('namespace', `expected a DNS label such as "default", got ${String(options.namespace)}`);
  }

  const context: Record<string, string> = { cluster: options.clusterName, user: options.userName };
  if (options.namespace !== undefined) context.namespace = options.namespace;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: options.clusterName,
        cluster: {
          server: options.server,
          ...(options.caCertPem !== undefined ? { 'certificate-authority-data': base64(options.caCertPem) } : {}),
        },
      },
    ],
    users: [{ name: options.userName, user: credentials(options) }],
    contexts: [{ name: options.contextName, context }],
    'current-context': options.contextName,
    preferences: {},
  };
  // lineWidth 0: never fold, so long base64 values stay on one line as every kubeconfig tool writes them.
  return stringify(config, { lineWidth: 0 });
}

/**
 * Writes {@link kubeconfigYaml}'s output to `path` with mode 0600 (it holds a credential), atomically,
 * creating the parent directory (mode 0700) if needed.
 */
export async function writeKubeconfig(path: string, options: KubeconfigOptions): Promise<void> {
  await writeKubeconfigText(path, kubeconfigYaml(options));
}

/** Writes kubeconfig text as {@link writeKubeconfig} does: 0600, atomically, parent 0700. */
export async function writeKubeconfigText(path: string, yaml: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, yaml, PRIVATE_FILE_MODE);
}

function checkServer(server: unknown): void {
  let url: URL | undefined;
  try {
    url = typeof server === 'string' ? new URL(server) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') {
    throw new PkiOptionsError(
      'server',
      `expected an https:// URL such as "https://127.0.0.1:6443" (kubectl sends no credentials over plain HTTP), got ${String(server)}`,
    );
  }
}

function credentials(options: KubeconfigOptions): Record<string, string> {
  const { token, clientCertPem, clientKeyPem } = options;
  const hasCert = clientCertPem !== undefined || clientKeyPem !== undefined;
  if ((token === undefined) === !hasCert) {
    throw new PkiOptionsError(
      'token/clientCertPem',
      'give exactly one credential: a token, or a client certificate and its key',
    );
  }
  if (token !== undefined) {
    assertName(token, 'token');
    return { token };
  }
  if (clientCertPem === undefined || clientKeyPem === undefined) {
    throw new PkiOptionsError(
      'clientCertPem/clientKeyPem',
      'a client certificate needs its key, and a key its certificate',
    );
  }
  const cert = parseCertificate(clientCertPem, 'clientCertPem');
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(clientKeyPem));
  } catch (err) {
    throw new PkiOptionsError('clientKeyPem', `not a valid unencrypted PEM private key (${(err as Error).message})`, {
      cause: err,
    });
  }
  if (!matches) throw new PkiOptionsError('clientKeyPem', 'the key does not belong to clientCertPem');
  return { 'client-certificate-data': base64(clientCertPem), 'client-key-data': base64(clientKeyPem) };
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
