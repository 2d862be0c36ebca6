/**
 * File helpers for key material: reads that tell "absent" from "unreadable", and writes that never
 * leave a half-written file nor a key readable by others, even for an instant.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';

/** Mode of files holding private keys or credentials: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Mode of certificates, which are public. */
export const PUBLIC_FILE_MODE = 0o644;

/** Reads a UTF-8 file; `undefined` if it does not exist, any other failure is thrown. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes `data` to `path` with `mode`, atomically: a temporary file in the same directory, created
 * with the mode (so a key is never readable by others), then renamed over the target. A crash leaves
 * either the old file or the new one, and the mode is enforced even if the target existed.
 */
export async function writeFileAtomic(path: string, data: string, mode: number): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data, { mode, flag: 'wx' });
    await chmod(temp, mode); // the umask may have removed bits the mode asked for
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
