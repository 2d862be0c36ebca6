import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { type SealedSecret, SealError } from '../../../lib/crypto/cipher.ts';

/** A credential distinctive enough that finding it anywhere in an error is a leak. */
export const SECRET_TOKEN = 'sk-TOKEN-5f1c9e2a7b3d48c6a0e4f7b2d9c1a3e5';

/** A temporary directory and its removal. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `crypto-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Flips one bit of the decoded base64 field `field` (at byte `index`, default the first). */
export function tamper(sealed: SealedSecret, field: 'iv' | 'tag' | 'data' | 'encryptedKey', index = 0): SealedSecret {
  const bytes = Buffer.from(sealed[field] ?? '', 'base64');
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return { ...sealed, [field]: bytes.toString('base64') };
}

/**
 * Awaits `promise`, asserts it rejects with a SealError whose message matches `message`, and that
 * none of `secrets` appears in the error: message, stack, cause or any other property.
 */
export async function rejectsSealError(
  promise: Promise<unknown>,
  message: RegExp,
  secrets: readonly (string | Uint8Array)[] = [],
): Promise<SealError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof SealError, `expected a SealError, got ${String(caught)}`);
  assert.equal(caught.name, 'SealError');
  assert.match(caught.message, message);
  assertNoSecrets(caught, secrets);
  return caught;
}

/** Asserts that no form (text, base64, hex) of any of `secrets` appears in `err`. */
export function assertNoSecrets(err: unknown, secrets: readonly (string | Uint8Array)[]): void {
  const text = [
    inspect(err, { depth: 10, showHidden: true }),
    err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : '',
    JSON.stringify(err),
  ].join('\n');
  for (const secret of secrets) {
    const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    for (const form of [bytes.toString('utf8'), bytes.toString('base64'), bytes.toString('hex')]) {
      if (form.length >= 8) assert.ok(!text.includes(form), 'the error reveals a secret');
    }
  }
}
