/**
 * {@link CredentialCipher} with a local key file, for local mode: AES-256-GCM under a 32-byte key
 * kept base64 in a file only its owner can read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type CredentialCipher, type SealedSecret, SealError, assertSealed, isBase64 } from './cipher.ts';
import { gcmOpen, gcmSeal, KEY_BYTES } from './aes-gcm.ts';

/** Mode of the key file: owner read/write only. */
export const KEY_FILE_MODE = 0o600;
/** Mode of a key directory this module creates. */
export const KEY_DIR_MODE = 0o700;

/** `local:` + the first 16 hex characters of sha256(key): names the key without revealing it. */
export function localKeyId(key: Uint8Array): string {
  return `local:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

const IS_POSIX = process.platform !== 'win32';

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

export class LocalKeyCipher implements CredentialCipher {
  /** `local:<16 hex>`, stored in every {@link SealedSecret} this cipher makes. */
  readonly keyId: string;
  readonly #key: Buffer;

  /** A cipher over a 32-byte key (copied). Most callers want {@link LocalKeyCipher.fromKeyFile}. */
  constructor(key: Uint8Array) {
    if (!(key instanceof Uint8Array) || key.byteLength !== KEY_BYTES) {
      throw new SealError(`a local key must be ${KEY_BYTES} bytes`);
    }
    this.#key = Buffer.from(key);
    this.keyId = localKeyId(this.#key);
  }

  /**
   * The cipher of the key in `path`. When the file is missing, a random key is made and written
   * there (mode 0600, atomically: a temporary file in the same directory, then linked into place, so
   * two processes starting together agree on one key), creating the parent directory with mode 0700.
   * An existing file is refused, with a {@link SealError} saying how to fix it, when it is not a
   * regular file, is readable or writable by group or others (on POSIX), or does not hold the base64
   * of 32 bytes.
   */
  static async fromKeyFile(path: string): Promise<LocalKeyCipher> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await readKeyFile(path);
      if (existing) return new LocalKeyCipher(existing);
      const created = await createKeyFile(path);
      if (created) return new LocalKeyCipher(created);
      // Another process created the file between our read and our link: read theirs.
    }
    throw new SealError(`${path}: the key file keeps appearing and disappearing; check what else writes it`);
  }

  async seal(plaintext: Uint8Array, context: Readonly<Record<string, string>>): Promise<SealedSecret> {
    return { v: 1, alg: 'A256GCM', keyId: this.keyId, ...gcmSeal(this.#key, plaintext, context) };
  }

  async open(sealed: SealedSecret, context: Readonly<Record<string, string>>): Promise<Uint8Array> {
    const checked = assertSealed(sealed);
    if (checked.keyId !== this.keyId) {
      const hint = checked.keyId.startsWith('local:')
        ? 'the local key file was replaced; restore the original key file to open it, or write the credential again'
        : 'it is a KMS envelope; open it with the KMS cipher';
      throw new SealError(
        `the secret was sealed with another key (${checked.keyId}, this cipher has ${this.keyId}): ${hint}`,
      );
    }
    if (checked.encryptedKey !== undefined) {
      throw new SealError('the secret has an "encryptedKey", which a local-key secret never has: it was altered');
    }
    return gcmOpen(this.#key, checked, context);
  }
}

const RECOVER =
  'restore the original key file, or delete it so that a new key is made on the next start ' +
  '(credentials sealed with the old key can then no longer be opened and must be written again)';

/** The key in `path`, `undefined` if the file does not exist; refuses an unsafe or malformed file. */
async function readKeyFile(path: string): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw new SealError(`${path}: cannot open the key file (${errnoCode(err) ?? 'unknown error'})`);
  }
  try {
    // fstat on the open handle: the checks apply to the very file that is read.
    const stat = await handle.stat();
    if (!stat.isFile()) throw new SealError(`${path}: the key file is not a regular file; ${RECOVER}`);
    if (IS_POSIX && (stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      throw new SealError(
        `${path}: the key file is accessible by group or others (mode ${mode}); ` +
          `restrict it to its owner with: chmod 600 '${path}'`,
      );
    }
    if (stat.size > 1024) throw new SealError(`${path}: not a key file (too large); ${RECOVER}`);
    const text = (await handle.readFile('utf8')).trim();
    if (!isBase64(text) || Buffer.byteLength(text, 'base64') !== KEY_BYTES) {
      throw new SealError(`${path}: not a key file: it must hold the base64 of ${KEY_BYTES} bytes; ${RECOVER}`);
    }
    return Buffer.from(text, 'base64');
  } finally {
    await handle.close();
  }
}

/**
 * Makes a random key and writes it to `path` without ever replacing an existing file: the key goes to
 * a temporary file (created 0600, synced), which is then hard-linked to `path`. `undefined` if `path`
 * appeared meanwhile. On file systems without hard links it falls back to a rename.
 */
async function createKeyFile(path: string): Promise<Buffer | undefined> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: KEY_DIR_MODE });
  } catch (err) {
    throw new SealError(`${dirname(path)}: cannot create the key directory (${errnoCode(err) ?? 'unknown error'})`);
  }
  const key = randomBytes(KEY_BYTES);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx', KEY_FILE_MODE);
    try {
      await handle.chmod(KEY_FILE_MODE); // in case a umask or ACL changed the mode
      await handle.writeFile(`${key.toString('base64')}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, path);
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'EEXIST') return undefined;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
      await rename(temp, path);
    }
    return key;
  } catch (err) {
    if (err instanceof SealError) throw err;
    throw new SealError(`${path}: cannot write the key file (${errnoCode(err) ?? 'unknown error'})`);
  } finally {
    await rm(temp, { force: true });
  }
}
