/**
 * AES-256-GCM as both ciphers use it: a fresh random 12-byte IV per message, a 16-byte tag, and the
 * canonical context bytes ({@link contextAad}) as additional authenticated data.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { contextAad, describeContext, IV_BYTES, type SealedSecret, SealError, TAG_BYTES } from './cipher.ts';

/** Length of an AES-256 key. */
export const KEY_BYTES = 32;

/** The encrypted parts of a {@link SealedSecret}, base64. */
export type GcmParts = Pick<SealedSecret, 'iv' | 'tag' | 'data'>;

function checkKey(key: Uint8Array): void {
  if (key.byteLength !== KEY_BYTES) throw new SealError(`an AES-256 key must be ${KEY_BYTES} bytes`);
}

/** Encrypts `plaintext` under `key`, binding `context`. */
export function gcmSeal(key: Uint8Array, plaintext: Uint8Array, context: Readonly<Record<string, string>>): GcmParts {
  checkKey(key);
  if (!(plaintext instanceof Uint8Array)) throw new SealError('the plaintext must be a Uint8Array');
  const aad = contextAad(context);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/**
 * Decrypts and authenticates `parts` (already checked by `assertSealed`) under `key` and `context`.
 * A wrong key, a wrong context or any changed byte is the same {@link SealError}: GCM cannot tell them
 * apart. Plaintext decrypted before the tag check failed is zeroed, never returned.
 */
export function gcmOpen(key: Uint8Array, parts: GcmParts, context: Readonly<Record<string, string>>): Buffer {
  checkKey(key);
  const aad = contextAad(context);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts.iv, 'base64'), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(parts.tag, 'base64'));
  const head = decipher.update(Buffer.from(parts.data, 'base64'));
  let tail: Buffer;
  try {
    tail = decipher.final();
  } catch {
    head.fill(0);
    throw new SealError(
      `the sealed secret does not authenticate: it was changed after sealing, or ${describeContext(context)} ` +
        'differs from the one it was sealed with (a secret copied to another cluster does not open)',
    );
  }
  const plaintext = Buffer.concat([head, tail]);
  head.fill(0);
  return plaintext;
}
