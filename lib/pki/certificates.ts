/**
 * Certificates for the local control plane: a CA, leaf certificates it signs, and the CA hash used by
 * bootstrap tokens. Keys are ECDSA P-256 (small, fast, accepted by kubectl's Go TLS stack), made and
 * used through Node's WebCrypto; certificates are built with `@peculiar/x509`.
 *
 * Time is a parameter (`now`, milliseconds since the epoch): nothing here reads the clock.
 */
import { createHash, createPrivateKey, type KeyObject, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { PkiOptionsError } from './errors.ts';
import {
  assertDays,
  assertDnsName,
  assertIpAddress,
  assertKnownKeys,
  assertName,
  assertTime,
  checkList,
} from './validate.ts';
import { x509 } from './x509.ts';

/** A certificate and its private key, both PEM; the key is PKCS#8 (`-----BEGIN PRIVATE KEY-----`). */
export interface CertificateAndKey {
  certPem: string;
  keyPem: string;
}

/**
 * A certificate authority: its self-signed certificate and private key, PEM. The certificate is what
 * kubeconfigs embed (`certificate-authority-data`) and what bootstrap tokens pin (see
 * {@link caCertHash}); the key signs the API server's and member clusters' certificates.
 */
export type CertificateAuthority = CertificateAndKey;

/** A leaf certificate signed by a {@link CertificateAuthority}, with its own private key, PEM. */
export type IssuedCertificate = CertificateAndKey;

/** Options of {@link createCertificateAuthority}. */
export interface CertificateAuthorityOptions {
  /** Subject CN, e.g. `serverless-karmada-ca`. */
  commonName: string;
  /** Issue time, milliseconds since the epoch. */
  now: number;
  /** How long the CA is valid, in days from `now`. */
  validityDays: number;
}

/**
 * What a leaf certificate may be used for, i.e. its extendedKeyUsage: `server` (serverAuth, for the
 * API server), `client` (clientAuth, for a member cluster or user authenticating with it), or both.
 */
export type CertificateUsage = 'server' | 'client' | 'server-and-client';

/** Options of {@link issueCertificate}. */
export interface IssueCertificateOptions {
  /** Subject CN. For a client certificate, Kubernetes reads it as the user name. */
  commonName: string;
  /** DNS SANs, e.g. `localhost`. Clients ignore the CN: a server must list every name it is reached by. */
  dnsNames?: readonly string[];
  /** IP SANs, e.g. `127.0.0.1`. */
  ipAddresses?: readonly string[];
  /** What the certificate may be used for (extendedKeyUsage). */
  usage: CertificateUsage;
  /** Subject O. For a client certificate, Kubernetes reads it as the user's group. */
  organization?: string;
  /** Issue time, milliseconds since the epoch. */
  now: number;
  /** How long the certificate is valid, in days from `now` (cut to the CA's own expiry). */
  validityDays: number;
}

/**
 * How far `notBefore` is set before `now`, so a client whose clock is a little behind does not reject
 * a certificate made a moment ago (kubeadm backdates by the same amount).
 */
export const CERTIFICATE_BACKDATE_MS = 5 * 60_000;

const DAY_MS = 86_400_000;
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const USAGES: Record<CertificateUsage, string[]> = {
  server: [x509.ExtendedKeyUsage.serverAuth],
  client: [x509.ExtendedKeyUsage.clientAuth],
  'server-and-client': [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
};

/**
 * Makes a self-signed certificate authority: a fresh ECDSA P-256 key; basicConstraints CA:true and
 * keyUsage keyCertSign + cRLSign, both critical; a subject key identifier (which the certificates it
 * signs reference as their authority key identifier); a random positive serial.
 *
 * @example
 * const ca = await createCertificateAuthority({ commonName: 'serverless-karmada-ca', now: Date.now(), validityDays: 3650 });
 */
export async function createCertificateAuthority(options: CertificateAuthorityOptions): Promise<CertificateAuthority> {
  assertKnownKeys(options, ['commonName', 'now', 'validityDays'], 'createCertificateAuthority');
  assertName(options.commonName, 'commonName');
  assertTime(options.now, 'now');
  assertDays(options.validityDays, 'validityDays');

  const keys = await generateKeyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: [{ CN: [options.commonName] }],
    notBefore: new Date(options.now - CERTIFICATE_BACKDATE_MS),
    notAfter: new Date(options.now + options.validityDays * DAY_MS),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: certificatePem(cert), keyPem: await privateKeyPem(keys.privateKey) };
}

/**
 * Issues a leaf certificate signed by `ca`: a fresh ECDSA P-256 key; the SANs given; extendedKeyUsage
 * serverAuth and/or clientAuth; keyUsage digitalSignature (critical); basicConstraints CA:false
 * (critical); authority key identifier = the CA's subject key identifier. The validity never outlasts
 * the CA's. A client certificate carries `organization` as O= (the Kubernetes group).
 *
 * Throws a {@link PkiOptionsError} if an option is invalid, if `ca` is not a usable CA (not a CA,
 * key not matching, not EC P-256, expired at `now`), or if a server certificate has no SAN (Go clients,
 * kubectl included, ignore the CN and would reject it).
 *
 * @example
 * const server = await issueCertificate(ca, {
 *   commonName: 'skctl-apiserver', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'],
 *   usage: 'server', now: Date.now(), validityDays: 365,
 * });
 */
export async function issueCertificate(
  ca: CertificateAuthority,
  options: IssueCertificateOptions,
): Promise<IssuedCertificate> {
  assertKnownKeys(
    options,
    ['commonName', 'dnsNames', 'ipAddresses', 'usage', 'organization', 'now', 'validityDays'],
    'issueCertificate',
  );
  assertName(options.commonName, 'commonName');
  const dnsNames = checkList(options.dnsNames, 'dnsNames', assertDnsName);
  const ipAddresses = checkList(options.ipAddresses, 'ipAddresses', assertIpAddress);
  if (!Object.hasOwn(USAGES, options.usage)) {
    throw new PkiOptionsError(
      'usage',
      `expected one of ${Object.keys(USAGES).join(', ')}, got ${String(options.usage)}`,
    );
  }
  if (options.organization !== undefined) assertName(options.organization, 'organization');
  assertTime(options.now, 'now');
  assertDays(options.validityDays, 'validityDays');
  if (options.usage !== 'client' && dnsNames.length + ipAddresses.length === 0) {
    throw new PkiOptionsError(
      'dnsNames/ipAddresses',
      'a server certificate needs at least one SAN: clients match the host against SANs only, never the CN',
    );
  }

  const authority = await signingAuthority(ca, options.now);
  const keys = await generateKeyPair();
  const names = [
    ...dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...ipAddresses.map((value) => ({ type: 'ip' as const, value })),
  ];
  const subject: Record<string, string[]>[] = [
    ...(options.organization === undefined ? [] : [{ O: [options.organization] }]),
    { CN: [options.commonName] },
  ];
  const notAfter = Math.min(options.now + options.validityDays * DAY_MS, authority.notAfter);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject,
    // The CA's encoded name as is: Go chains a certificate to its issuer by comparing these bytes.
    issuer: authority.subjectName,
    notBefore: new Date(options.now - CERTIFICATE_BACKDATE_MS),
    notAfter: new Date(notAfter),
    publicKey: keys.publicKey,
    signingKey: authority.signingKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(USAGES[options.usage]),
      ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      authority.authorityKeyIdentifier,
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: certificatePem(cert), keyPem: await privateKeyPem(keys.privateKey) };
}

/**
 * The hash that pins a CA in a bootstrap join: `sha256:` + lowercase hex SHA-256 of the CA
 * certificate's DER SubjectPublicKeyInfo — the format of kubeadm's and Karmada's
 * `--discovery-token-ca-cert-hash`. Throws a {@link PkiOptionsError} if `caCertPem` is not a certificate.
 *
 * @example
 * caCertHash(ca.certPem); // 'sha256:5b1a…'
 */
export function caCertHash(caCertPem: string): string {
  const cert = parseCertificate(caCertPem, 'caCertPem');
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(spki).digest('hex')}`;
}

/**
 * Checks that `ca` can sign at `now`: the certificate parses, is a CA and has not expired; the key is
 * an unencrypted EC P-256 private key matching it. Returns both, parsed. Throws a
 * {@link PkiOptionsError} whose `option` is `ca.certPem` or `ca.keyPem`, so a caller that read them
 * from files can name the file.
 */
export function checkCertificateAuthority(
  ca: CertificateAuthority,
  now: number,
): { cert: X509Certificate; key: KeyObject } {
  const cert = parseCertificate(ca.certPem, 'ca.certPem');
  if (!cert.ca) throw new PkiOptionsError('ca.certPem', `${cert.subject} is not a CA certificate (basicConstraints)`);
  if (now > Date.parse(cert.validTo)) {
    throw new PkiOptionsError('ca.certPem', `the CA certificate expired on ${new Date(cert.validTo).toISOString()}`);
  }
  const key = parsePrivateKey(ca.keyPem, 'ca.keyPem');
  if (!cert.checkPrivateKey(key)) {
    throw new PkiOptionsError('ca.keyPem', 'the private key does not belong to the CA certificate');
  }
  return { cert, key };
}

/** What signing with a checked CA needs. */
async function signingAuthority(ca: CertificateAuthority, now: number) {
  const { cert, key } = checkCertificateAuthority(ca, now);
  const peculiar = new x509.X509Certificate(ca.certPem);
  const ski = peculiar.getExtension(x509.SubjectKeyIdentifierExtension);
  return {
    subjectName: peculiar.subjectName,
    notAfter: Date.parse(cert.validTo),
    signingKey: await webcrypto.subtle.importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), EC_KEY, false, [
      'sign',
    ]),
    // A CA made elsewhere may lack a subject key identifier; derive one from its key then.
    authorityKeyIdentifier: ski
      ? new x509.AuthorityKeyIdentifierExtension(ski.keyId)
      : await x509.AuthorityKeyIdentifierExtension.create(peculiar.publicKey),
  };
}

/** Parses a PEM certificate with Node; throws a {@link PkiOptionsError} naming `option` if it is not one. */
export function parseCertificate(pem: string, option: string): X509Certificate {
  if (typeof pem !== 'string' || !pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new PkiOptionsError(option, 'expected a PEM certificate (-----BEGIN CERTIFICATE-----)');
  }
  try {
    return new X509Certificate(pem);
  } catch (err) {
    throw new PkiOptionsError(option, `not a valid PEM certificate (${(err as Error).message})`, { cause: err });
  }
}

/**
 * Parses a PEM private key with Node and requires EC P-256, the only kind this module makes; throws a
 * {@link PkiOptionsError} naming `option` otherwise.
 */
export function parsePrivateKey(pem: string, option: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (err) {
    throw new PkiOptionsError(option, `not a valid unencrypted PEM private key (${(err as Error).message})`, {
      cause: err,
    });
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new PkiOptionsError(
      option,
      `expected an ECDSA P-256 key, got ${key.asymmetricKeyType ?? 'unknown'} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim(),
    );
  }
  return key;
}

async function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  // Extractable, so the private key can be exported to PKCS#8 PEM for the files and the kubeconfig.
  return webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}

function certificatePem(cert: InstanceType<typeof x509.X509Certificate>): string {
  const pem = cert.toString('pem');
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}

/**
 * 126 random bits as 16 octets, the top bit clear and the next set: positive and at most 20 octets as
 * RFC 5280 requires, and always 16 octets long (no sign-padding byte, no stripped leading zero).
 */
function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x40;
  return bytes.toString('hex');
}
