/**
 * TLS options for the local API server, from the local PKI.
 */
import type { LocalPki } from './local.ts';

/** What {@link tlsServerOptions} returns: options for `node:https.createServer`. */
export interface TlsServerOptions {
  /** The server certificate, PEM. */
  cert: string;
  /** Its private key, PEM. */
  key: string;
  /** TLS 1.2 at least: what kubectl's Go client and current Kubernetes API servers require. */
  minVersion: 'TLSv1.2';
}

/**
 * Options to serve HTTPS with the local PKI's server certificate: pass them to
 * `https.createServer(tlsServerOptions(pki), handler)`. Only the server certificate is sent: clients
 * trust the CA itself (kubeconfigs embed it), so no chain is needed.
 */
export function tlsServerOptions(pki: Pick<LocalPki, 'server'>): TlsServerOptions {
  return { cert: pki.server.certPem, key: pki.server.keyPem, minVersion: 'TLSv1.2' };
}
