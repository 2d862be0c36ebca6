/**
 * CA public-key pins (`--discovery-token-ca-cert-hash sha256:<hex>`), as kubeadm's
 * `cmd/kubeadm/app/util/pubkeypin/pubkeypin.go` (lifted by Karmada into `pkg/util/lifted/pubkeypin`):
 * `sha256:` + lowercase hex of SHA-256 over the certificate's `RawSubjectPublicKeyInfo`, i.e. the DER
 * SubjectPublicKeyInfo bytes exactly as they appear inside the certificate.
 *
 * The SPKI is sliced out of the certificate's DER (not re-encoded from the parsed key), so the hash is
 * Go's even for keys a library might re-encode differently. Node's
 * `publicKey.export({ type: 'spki', format: 'der' })` gives the same bytes for ordinary RSA/EC/Ed25519
 * keys (the tests check both).
 */
import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';

/** A DER TLV's tag and where its header and contents are. */
interface Tlv {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

function readTlv(der: Uint8Array, offset: number, limit: number): Tlv {
  if (offset + 2 > limit) throw new Error('truncated DER');
  const tag = der[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('multi-byte DER tags are not expected in a certificate');
  let pos = offset + 1;
  const first = der[pos++]!;
  let length: number;
  if (first < 0x80) {
    length = first;
  } else {
    const n = first & 0x7f;
    if (n === 0 || n > 4) throw new Error('unsupported DER length (indefinite or > 4 bytes)');
    if (pos + n > limit) throw new Error('truncated DER');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + der[pos++]!;
  }
  const end = pos + length;
  if (end > limit) throw new Error('truncated DER');
  return { tag, start: offset, contentStart: pos, end };
}

/**
 * The raw DER SubjectPublicKeyInfo of a DER certificate (Go's `Certificate.RawSubjectPublicKeyInfo`):
 * Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber INTEGER,
 * signature AlgorithmIdentifier, issuer Name, validity Validity, subject Name, subjectPublicKeyInfo, … } … }.
 */
export function rawSubjectPublicKeyInfo(certDer: Uint8Array): Buffer {
  const cert = readTlv(certDer, 0, certDer.length);
  if (cert.tag !== 0x30) throw new Error('not a DER certificate (expected SEQUENCE)');
  const tbs = readTlv(certDer, cert.contentStart, cert.end);
  if (tbs.tag !== 0x30) throw new Error('not a DER certificate (tbsCertificate is not a SEQUENCE)');
  let field = readTlv(certDer, tbs.contentStart, tbs.end);
  if (field.tag === 0xa0) field = readTlv(certDer, field.end, tbs.end); // explicit [0] version
  const expected = [0x02, 0x30, 0x30, 0x30, 0x30]; // serial, signature, issuer, validity, subject
  for (const tag of expected) {
    if (field.tag !== tag) throw new Error('not a DER certificate (unexpected tbsCertificate field)');
    field = readTlv(certDer, field.end, tbs.end);
  }
  if (field.tag !== 0x30) throw new Error('not a DER certificate (subjectPublicKeyInfo is not a SEQUENCE)');
  return Buffer.from(certDer.subarray(field.start, field.end));
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Parses every `CERTIFICATE` block of a PEM bundle with Node; throws if there is none or one is invalid. */
function parseCertificates(caPem: string): X509Certificate[] {
  if (typeof caPem !== 'string') throw new Error('CA certificate: expected a PEM string');
  const blocks = caPem.match(PEM_CERT) ?? [];
  if (blocks.length === 0) throw new Error('CA certificate: no PEM certificate (-----BEGIN CERTIFICATE-----) found');
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new Error(`CA certificate #${i + 1}: not a valid PEM certificate (${(err as Error).message})`, {
        cause: err,
      });
    }
  });
}

function hashOf(cert: X509Certificate): string {
  return `sha256:${createHash('sha256').update(rawSubjectPublicKeyInfo(cert.raw)).digest('hex')}`;
}

/**
 * `pubkeypin.Hash` of the (first) certificate in `caPem`: `sha256:<64 lowercase hex>`. Throws if `caPem`
 * holds no valid certificate.
 *
 * @example
 * caCertHash(ca.certPem); // 'sha256:5b1a…'
 */
export function caCertHash(caPem: string): string {
  return hashOf(parseCertificates(caPem)[0]!);
}

/** The pin of every certificate in a PEM bundle, in order (what `token create --print-register-command` prints, comma-joined). */
export function caCertHashes(caPem: string): string[] {
  return parseCertificates(caPem).map(hashOf);
}

/**
 * Validates a pin as kubeadm's `Set.Allow` does and returns its canonical form `sha256:<lowercase hex>`.
 * The format name is case-insensitive (`SHA256:` is accepted) and so is the hex, as in kubeadm; anything
 * else throws: no `format:value` shape, an unknown format, or a value that is not 64 hex digits.
 */
export function parseCaPin(pin: string): string {
  if (typeof pin !== 'string') throw new Error('invalid CA pin: expected a string "sha256:<64 hex digits>"');
  const parts = pin.split(':');
  if (parts.length !== 2) {
    throw new Error('invalid CA pin, expected "format:hex-value". Known format(s) are: sha256');
  }
  const [format, value] = parts as [string, string];
  if (format.toLowerCase() !== 'sha256') {
    throw new Error(`unknown CA pin format "${format}". Known format(s) are: sha256`);
  }
  if (value.length !== 64) {
    throw new Error(`invalid CA pin: expected a 32 byte SHA-256 hash (64 hex digits), found ${value.length} digits`);
  }
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new Error('invalid CA pin: could not decode SHA-256 from hex');
  return `sha256:${value.toLowerCase()}`;
}

/**
 * Whether `pin` matches a certificate in `caPem` (kubeadm `Set.CheckAny`: any certificate of the bundle
 * may match). Throws on a malformed pin (see {@link parseCaPin}) or if `caPem` holds no valid certificate.
 */
export function verifyCaPin(caPem: string, pin: string): boolean {
  const wanted = Buffer.from(parseCaPin(pin), 'ascii');
  let ok = false;
  for (const hash of caCertHashes(caPem)) {
    const actual = Buffer.from(hash, 'ascii');
    if (actual.length === wanted.length && timingSafeEqual(actual, wanted)) ok = true;
  }
  return ok;
}
