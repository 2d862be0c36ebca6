/**
 * The local control plane's PKI directory: a CA and the API server's certificate, made on the first
 * start and reused afterwards. The CA outlives everything else because kubeconfigs embed it; the
 * server certificate is cheap and is re-issued whenever it no longer fits (expiring, new host, made by
 * another CA, key lost).
 */
import { chmod, mkdir } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import {
  type CertificateAndKey,
  type CertificateAuthority,
  checkCertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  issueCertificate,
  parseCertificate,
  parsePrivateKey,
} from './certificates.ts';
import { PkiFileError, PkiOptionsError } from './errors.ts';
import { PRIVATE_FILE_MODE, PUBLIC_FILE_MODE, readIfExists, writeFileAtomic } from './files.ts';
import { x509 } from './x509.ts';
import { assertDnsName, assertIpAddress, assertKnownKeys, assertTime, checkList } from './validate.ts';

/** File names inside the PKI directory. */
export const LOCAL_PKI_FILES = {
  caCert: 'ca.crt',
  caKey: 'ca.key',
  serverCert: 'server.crt',
  serverKey: 'server.key',
} as const;

/** Hosts the server certificate always covers: the local API server listens on the loopback. */
export const DEFAULT_SERVER_HOSTS: readonly string[] = Object.freeze(['127.0.0.1', 'localhost']);

/** Validity of a new local CA: ten years, since replacing it invalidates every kubeconfig written. */
export const LOCAL_CA_VALIDITY_DAYS = 3650;

/** Validity of a server certificate issued by {@link ensureLocalPki}. */
export const LOCAL_SERVER_VALIDITY_DAYS = 365;

/** A server certificate expiring within this many days is re-issued at the next start. */
export const SERVER_RENEW_BEFORE_DAYS = 30;

/** Options of {@link ensureLocalPki}. */
export interface LocalPkiOptions {
  /** Current time, milliseconds since the epoch. */
  now: number;
  /** Extra hosts (IP addresses or DNS names) the server certificate must cover, besides the defaults. */
  hosts?: readonly string[];
}

/** The local PKI, loaded or made by {@link ensureLocalPki}. */
export interface LocalPki {
  /** The PKI directory, absolute. */
  dir: string;
  /** The CA, to embed in kubeconfigs and to sign client certificates. */
  ca: CertificateAuthority;
  /** The API server's certificate, to serve HTTPS with (see `tlsServerOptions`). */
  server: IssuedCertificate;
  /** True if this call made a new CA (first start, or the directory was deleted). */
  created: boolean;
  /** Why an existing CA's server certificate was issued again on this call; undefined if kept. */
  reissueReason: string | undefined;
}

const DAY_MS = 86_400_000;

/**
 * Loads the PKI in `dir`, making what is missing. On the first call it creates the directory (mode
 * 0700), a CA and a server certificate for {@link DEFAULT_SERVER_HOSTS} plus `hosts`, as `ca.crt`,
 * `ca.key`, `server.crt`, `server.key` (keys mode 0600). On later calls it loads them and issues a new
 * server certificate only if {@link serverCertificateRenewal} gives a reason; the CA is never
 * replaced, because kubeconfigs embed it.
 *
 * Throws a {@link PkiFileError} naming the file, with the way to recover (delete `dir`), if a file
 * cannot be used: not PEM, a CA key not matching its certificate, the CA expired, or only one of
 * `ca.crt`/`ca.key` present. Not safe against two processes making the first CA at once: the caller
 * holds the data directory's lock.
 *
 * @example
 * const pki = await ensureLocalPki(join(dataDir, 'pki'), { now: Date.now(), hosts: ['10.0.0.5'] });
 * https.createServer(tlsServerOptions(pki), handler);
 */
export async function ensureLocalPki(dir: string, options: LocalPkiOptions): Promise<LocalPki> {
  assertKnownKeys(options, ['now', 'hosts'], 'ensureLocalPki');
  assertTime(options.now, 'now');
  const hosts = serverHosts(options.hosts);
  const root = resolve(dir);
  const path = (name: string) => join(root, name);
  const { now } = options;

  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700); // mkdir leaves an existing directory's mode alone
  const [caCert, caKey, serverCert, serverKey] = await Promise.all(
    [LOCAL_PKI_FILES.caCert, LOCAL_PKI_FILES.caKey, LOCAL_PKI_FILES.serverCert, LOCAL_PKI_FILES.serverKey].map((name) =>
      readIfExists(path(name)),
    ),
  );

  if (caCert === undefined && caKey === undefined) {
    const ca = await createCertificateAuthority({
      commonName: `serverless-karmada-ca@${Math.floor(now / 1000)}`,
      now,
      validityDays: LOCAL_CA_VALIDITY_DAYS,
    });
    const server = await issueServerCertificate(ca, hosts, now);
    // The key first: a crash in between leaves a lone key, which is reported, never a lone certificate
    // that the next start would take for a CA whose key was lost.
    await writeFileAtomic(path(LOCAL_PKI_FILES.caKey), ca.keyPem, PRIVATE_FILE_MODE);
    await writeFileAtomic(path(LOCAL_PKI_FILES.caCert), ca.certPem, PUBLIC_FILE_MODE);
    await writeServer(root, server);
    return { dir: root, ca, server, created: true, reissueReason: undefined };
  }
  if (caCert === undefined || caKey === undefined) {
    const [present, missing] =
      caCert === undefined
        ? [LOCAL_PKI_FILES.caKey, LOCAL_PKI_FILES.caCert]
        : [LOCAL_PKI_FILES.caCert, LOCAL_PKI_FILES.caKey];
    throw new PkiFileError(path(missing), root, `missing, while ${present} exists, so the CA cannot be used`);
  }

  const ca = { certPem: caCert, keyPem: caKey };
  const files = {
    'ca.certPem': path(LOCAL_PKI_FILES.caCert),
    'ca.keyPem': path(LOCAL_PKI_FILES.caKey),
    'server.certPem': path(LOCAL_PKI_FILES.serverCert),
    'server.keyPem': path(LOCAL_PKI_FILES.serverKey),
    caCertPem: path(LOCAL_PKI_FILES.caCert),
  };
  inFiles(files, root, () => checkCertificateAuthority(ca, now));
  let reason: string | undefined;
  if (serverCert === undefined) reason = `${LOCAL_PKI_FILES.serverCert} is missing`;
  else if (serverKey === undefined) reason = `${LOCAL_PKI_FILES.serverKey} is missing`;
  else {
    const kept = { certPem: serverCert, keyPem: serverKey };
    reason = inFiles(files, root, () => serverCertificateRenewal(kept, ca.certPem, hosts, now));
    if (reason === undefined) return { dir: root, ca, server: kept, created: false, reissueReason: undefined };
  }
  const server = await issueServerCertificate(ca, hosts, now);
  await writeServer(root, server);
  return { dir: root, ca, server, created: false, reissueReason: reason };
}

/**
 * Why a server certificate must be issued again, or `undefined` if it can be kept: its key does not
 * match it, the CA did not sign it, it is not valid yet, it expires within
 * {@link SERVER_RENEW_BEFORE_DAYS} days (or has expired), or it lacks one of `hosts` (compared exactly:
 * a `*.example.com` SAN does not stand for a requested `a.example.com`). Pure: decides on the PEM
 * given and `now`.
 *
 * Throws a {@link PkiOptionsError} (`server.certPem`, `server.keyPem` or `caCertPem`) if a PEM does not
 * parse.
 */
export function serverCertificateRenewal(
  server: CertificateAndKey,
  caCertPem: string,
  hosts: readonly string[],
  now: number,
): string | undefined {
  const cert = parseCertificate(server.certPem, 'server.certPem');
  const key = parsePrivateKey(server.keyPem, 'server.keyPem');
  const caCert = parseCertificate(caCertPem, 'caCertPem');
  if (!cert.checkPrivateKey(key)) return `${LOCAL_PKI_FILES.serverKey} does not match ${LOCAL_PKI_FILES.serverCert}`;
  if (!cert.checkIssued(caCert) || !cert.verify(caCert.publicKey)) {
    return `${LOCAL_PKI_FILES.serverCert} was not signed by the CA in ${LOCAL_PKI_FILES.caCert}`;
  }
  const notBefore = Date.parse(cert.validFrom);
  const notAfter = Date.parse(cert.validTo);
  if (now < notBefore) return `the server certificate is not valid before ${new Date(notBefore).toISOString()}`;
  if (notAfter <= now) return `the server certificate expired on ${new Date(notAfter).toISOString()}`;
  if (notAfter - now < SERVER_RENEW_BEFORE_DAYS * DAY_MS) {
    return `the server certificate expires on ${new Date(notAfter).toISOString()}, within ${SERVER_RENEW_BEFORE_DAYS} days`;
  }
  const san = new x509.X509Certificate(server.certPem).getExtension(x509.SubjectAlternativeNameExtension);
  const dnsNames = new Set(
    (san?.names.items ?? []).filter((name) => name.type === 'dns').map((name) => name.value.toLowerCase()),
  );
  const missing = hosts.filter((host) =>
    isIP(host) === 0 ? !dnsNames.has(host.toLowerCase()) : cert.checkIP(host) === undefined,
  );
  if (missing.length > 0) return `the server certificate lacks host ${missing.join(', ')}`;
  return undefined;
}

function serverHosts(extra: readonly string[] | undefined): readonly string[] {
  const given = checkList(extra, 'hosts', (host, option) =>
    typeof host === 'string' && isIP(host) !== 0 ? assertIpAddress(host, option) : assertDnsName(host, option),
  );
  return [
    ...new Set([...DEFAULT_SERVER_HOSTS, ...given.map((host) => (isIP(host) === 0 ? host.toLowerCase() : host))]),
  ];
}

function issueServerCertificate(ca: CertificateAuthority, hosts: readonly string[], now: number) {
  return issueCertificate(ca, {
    commonName: 'serverless-karmada-apiserver',
    dnsNames: hosts.filter((host) => isIP(host) === 0),
    ipAddresses: hosts.filter((host) => isIP(host) !== 0),
    usage: 'server',
    now,
    validityDays: LOCAL_SERVER_VALIDITY_DAYS,
  });
}

async function writeServer(root: string, server: IssuedCertificate): Promise<void> {
  // The key first: if the certificate write is lost, the next start finds them mismatched and re-issues.
  await writeFileAtomic(join(root, LOCAL_PKI_FILES.serverKey), server.keyPem, PRIVATE_FILE_MODE);
  await writeFileAtomic(join(root, LOCAL_PKI_FILES.serverCert), server.certPem, PUBLIC_FILE_MODE);
}

/** Runs `check`, turning a {@link PkiOptionsError} about one of `files`' options into a {@link PkiFileError}. */
function inFiles<T>(files: Record<string, string>, root: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    const file = err instanceof PkiOptionsError ? files[err.option] : undefined;
    if (err instanceof PkiOptionsError && file !== undefined)
      throw new PkiFileError(file, root, err.problem, { cause: err });
    throw err;
  }
}
