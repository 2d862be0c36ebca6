/** Factories for the PKI tests: CAs and certificates, temp directories, and real local HTTPS servers. */
import { mkdtempSync, rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssueCertificateOptions,
  issueCertificate,
} from '../../../lib/pki/index.ts';

/** A fixed instant for tests that do not talk TLS to a real client (which checks the wall clock). */
export const NOW = Date.UTC(2026, 10, 21);

/** A CA valid for `validityDays` from `now`. */
export function caFactory(now = NOW, validityDays = 3650, commonName = 'test-ca'): Promise<CertificateAuthority> {
  return createCertificateAuthority({ commonName, now, validityDays });
}

/** A server certificate for 127.0.0.1 and localhost, any option overridable. */
export function serverCertFactory(ca: CertificateAuthority, overrides: Partial<IssueCertificateOptions> = {}) {
  return issueCertificate(ca, {
    commonName: 'test-server',
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    usage: 'server',
    now: NOW,
    validityDays: 365,
    ...overrides,
  });
}

/** A fresh temporary directory and the function that removes it. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `pki-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A running HTTPS server on 127.0.0.1 with an OS-chosen port. */
export interface TestHttpsServer {
  port: number;
  url: string;
  close: () => Promise<void>;
}

/** Starts an HTTPS server on 127.0.0.1, port 0. */
export async function startHttps(options: ServerOptions, handler: RequestListener): Promise<TestHttpsServer> {
  const server = createServer(options, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
