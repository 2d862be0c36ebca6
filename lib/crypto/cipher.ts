/**
 * Encryption at rest of member-cluster credentials (bearer tokens, client keys, CA bundles): the
 * {@link CredentialCipher} port, and the {@link SealedSecret} format that is stored.
 *
 * Two implementations: `LocalKeyCipher` (lib/crypto/local-key.ts, a key file, for local mode) and
 * `KmsEnvelopeCipher` (lib/adapters/kms/cipher.ts, AWS KMS envelope encryption). Both encrypt with
 * AES-256-GCM and bind a context (e.g. `{ cluster: 'member1' }`) to the ciphertext, so a sealed secret
 * copied to another cluster's record does not open.
 *
 * Nothing here ever puts plaintext or key material in an error message: errors name the field or
 * the step that failed, and say what to do.
 */

/** What is stored: everything base64; `encryptedKey` only for KMS envelopes. */
export interface SealedSecret {
  v: 1;
  alg: 'A256GCM';
  /** Which key sealed it: `local:<16 hex>` for a key file, the KMS key ARN for an envelope. */
  keyId: string;
  /** The data key, encrypted by KMS (the KMS CiphertextBlob). */
  encryptedKey?: string;
  /** The 12-byte AES-GCM nonce. */
  iv: string;
  /** The 16-byte AES-GCM authentication tag. */
  tag: string;
  /** The ciphertext. */
  data: string;
}

export interface CredentialCipher {
  /** Encrypts `plaintext`; `context` (e.g. { cluster: 'member1' }) is bound to the ciphertext (AES-GCM AAD / KMS EncryptionContext) so a sealed secret moved to another cluster does not open. */
  seal(plaintext: Uint8Array, context: Readonly<Record<string, string>>): Promise<SealedSecret>;
  /** Decrypts what {@link seal} made with the same `context`; any mismatch or tampering is a {@link SealError}. */
  open(sealed: SealedSecret, context: Readonly<Record<string, string>>): Promise<Uint8Array>;
}

/** Everything the crypto module throws on purpose. Messages never include plaintext or key material. */
export class SealError extends Error {
  override readonly name = 'SealError';
  /** The key service failed for a while (throttling, outage): retry later; the data is not at fault. */
  readonly transient: boolean;
  constructor(message: string, options: { transient?: boolean } = {}) {
    super(message);
    this.transient = options.transient ?? false;
  }
}

/** Strict standard base64 (with padding), as written by `Buffer#toString('base64')`. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True if `value` is strict, padded, standard base64 (the empty string included). */
export function isBase64(value: string): boolean {
  return BASE64.test(value);
}

/**
 * Canonical AAD bytes of a context: JSON of the entries sorted by key, e.g.
 * `[["cluster","member1"],["kind","token"]]`. Keys are compared by UTF-16 code unit (not locale), so
 * the bytes are the same on every machine. Throws a {@link SealError} if a value is not a string.
 */
export function contextAad(context: Readonly<Record<string, string>>): Buffer {
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    throw new SealError('the encryption context must be an object of string values');
  }
  const entries = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, value] of entries) {
    if (typeof value !== 'string') {
      throw new SealError(`the encryption context entry "${key}" must be a string, not ${typeof value}`);
    }
  }
  return Buffer.from(JSON.stringify(entries), 'utf8');
}

/** The names of a context's entries, for error messages (values are not secret, but need not be shown). */
export function describeContext(context: Readonly<Record<string, string>>): string {
  const keys = Object.keys(context).sort();
  return keys.length === 0 ? 'the empty context' : `the context (${keys.join(', ')})`;
}

/** Decoded sizes the format fixes. */
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** Validates the shape of an unknown value as a SealedSecret (throws SealError naming what is wrong). */
export function assertSealed(value: unknown): SealedSecret {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SealError(
      `not a sealed secret: expected an object, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  const record = value as Record<string, unknown>;
  if (record.v !== 1) throw new SealError('not a sealed secret: "v" must be 1 (unknown format version)');
  if (record.alg !== 'A256GCM') throw new SealError('not a sealed secret: "alg" must be "A256GCM"');
  if (typeof record.keyId !== 'string' || record.keyId === '') {
    throw new SealError('not a sealed secret: "keyId" must be a non-empty string');
  }
  const field = (name: 'encryptedKey' | 'iv' | 'tag' | 'data', bytes?: number): string => {
    const text = record[name];
    if (typeof text !== 'string' || !isBase64(text)) {
      throw new SealError(`not a sealed secret: "${name}" must be a base64 string`);
    }
    if (bytes !== undefined && Buffer.byteLength(text, 'base64') !== bytes) {
      throw new SealError(`not a sealed secret: "${name}" must decode to ${bytes} bytes`);
    }
    return text;
  };
  const sealed: SealedSecret = {
    v: 1,
    alg: 'A256GCM',
    keyId: record.keyId,
    iv: field('iv', IV_BYTES),
    tag: field('tag', TAG_BYTES),
    data: field('data'),
  };
  if (record.encryptedKey !== undefined) {
    const encryptedKey = field('encryptedKey');
    if (encryptedKey === '') throw new SealError('not a sealed secret: "encryptedKey" must not be empty');
    sealed.encryptedKey = encryptedKey;
  }
  return sealed;
}
