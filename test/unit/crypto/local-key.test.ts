import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SealError } from '../../../lib/crypto/cipher.ts';
import { LocalKeyCipher, localKeyId } from '../../../lib/crypto/local-key.ts';
import { assertNoSecrets, rejectsSealError, SECRET_TOKEN, tamper, tempDir } from './fixtures.ts';

const POSIX = process.platform !== 'win32';
const MEMBER1 = { cluster: 'member1' };

describe('LocalKeyCipher.fromKeyFile', () => {
  const temp = tempDir('local-key');
  after(temp.cleanup);

  it('creates a 32-byte key, mode 0600, in a new directory with mode 0700', async () => {
    const path = join(temp.dir, 'nested', 'keys', 'credentials.key');
    const cipher = await LocalKeyCipher.fromKeyFile(path);
    const text = readFileSync(path, 'utf8');
    const key = Buffer.from(text.trim(), 'base64');
    assert.equal(key.length, 32);
    assert.equal(cipher.keyId, `local:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
    assert.match(cipher.keyId, /^local:[0-9a-f]{16}$/);
    if (POSIX) {
      assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.equal(statSync(join(temp.dir, 'nested', 'keys')).mode & 0o777, 0o700);
      assert.equal(statSync(join(temp.dir, 'nested')).mode & 0o777, 0o700);
    }
    assert.deepEqual(readdirSync(join(temp.dir, 'nested', 'keys')), ['credentials.key'], 'no temporary file left');
  });

  it('reuses the key on the second call: what one seals, the other opens', async () => {
    const path = join(temp.dir, 'reuse.key');
    const first = await LocalKeyCipher.fromKeyFile(path);
    const before = readFileSync(path, 'utf8');
    const second = await LocalKeyCipher.fromKeyFile(path);
    assert.equal(readFileSync(path, 'utf8'), before);
    assert.equal(second.keyId, first.keyId);
    const sealed = await first.seal(Buffer.from(SECRET_TOKEN), MEMBER1);
    assert.equal(Buffer.from(await second.open(sealed, MEMBER1)).toString('utf8'), SECRET_TOKEN);
  });

  it('agrees on one key when several processes start at once', async () => {
    const path = join(temp.dir, 'race', 'race.key');
    const ciphers = await Promise.all(Array.from({ length: 8 }, () => LocalKeyCipher.fromKeyFile(path)));
    assert.equal(new Set(ciphers.map((c) => c.keyId)).size, 1);
    assert.deepEqual(readdirSync(join(temp.dir, 'race')), ['race.key']);
  });

  it('accepts a key file written by hand (base64 with a trailing newline)', async () => {
    const path = join(temp.dir, 'by-hand.key');
    const key = randomBytes(32);
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600 });
    const cipher = await LocalKeyCipher.fromKeyFile(path);
    assert.equal(cipher.keyId, localKeyId(key));
  });

  it('refuses a key file readable by group or others, saying how to fix it', { skip: !POSIX }, async () => {
    const path = join(temp.dir, 'open.key');
    await LocalKeyCipher.fromKeyFile(path);
    const key = readFileSync(path, 'utf8').trim();
    for (const mode of [0o644, 0o640, 0o604, 0o620]) {
      chmodSync(path, mode);
      const err = await rejectsSealError(
        LocalKeyCipher.fromKeyFile(path),
        /accessible by group or others \(mode 06[0-9]{2}\).*chmod 600/,
        [key],
      );
      assert.ok(err.message.includes(path));
    }
    chmodSync(path, 0o600);
    await LocalKeyCipher.fromKeyFile(path);
  });

  const malformed: [string, string][] = [
    ['16 bytes', randomBytes(16).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['64 hex characters', randomBytes(32).toString('hex')],
    ['nothing', ''],
    ['base64url', randomBytes(32).toString('base64url')],
  ];
  for (const [what, content] of malformed) {
    it(`refuses a key file holding ${what}, without showing its content`, async () => {
      const path = join(temp.dir, `bad-${what.replace(/\W/g, '-')}.key`);
      writeFileSync(path, content, { mode: 0o600 });
      await rejectsSealError(
        LocalKeyCipher.fromKeyFile(path),
        /not a key file: it must hold the base64 of 32 bytes; restore the original key file, or delete it/,
        content.length >= 8 ? [content] : [],
      );
    });
  }

  it('refuses a directory in place of the key file', async () => {
    const path = join(temp.dir, 'a-directory.key');
    mkdirSync(path, { mode: 0o700 });
    await rejectsSealError(LocalKeyCipher.fromKeyFile(path), /not a regular file/);
  });
});

describe('LocalKeyCipher seal/open', () => {
  const cipher = new LocalKeyCipher(randomBytes(32));
  const plaintext = Buffer.from(SECRET_TOKEN);

  it('round-trips and writes the documented format', async () => {
    const sealed = await cipher.seal(plaintext, MEMBER1);
    assert.deepEqual(Object.keys(sealed).sort(), ['alg', 'data', 'iv', 'keyId', 'tag', 'v']);
    assert.equal(sealed.v, 1);
    assert.equal(sealed.alg, 'A256GCM');
    assert.equal(sealed.keyId, cipher.keyId);
    assert.equal(Buffer.from(sealed.iv, 'base64').length, 12);
    assert.equal(Buffer.from(sealed.tag, 'base64').length, 16);
    assert.ok(!JSON.stringify(sealed).includes(SECRET_TOKEN));
    assert.deepEqual(Buffer.from(await cipher.open(sealed, MEMBER1)), plaintext);
  });

  it('opens a sealed secret after a JSON round trip, with the context in another key order', async () => {
    const context = { cluster: 'member1', kind: 'token' };
    const stored = JSON.parse(JSON.stringify(await cipher.seal(plaintext, context)));
    assert.deepEqual(Buffer.from(await cipher.open(stored, { kind: 'token', cluster: 'member1' })), plaintext);
  });

  it('seals the same plaintext differently every time', async () => {
    const a = await cipher.seal(plaintext, MEMBER1);
    const b = await cipher.seal(plaintext, MEMBER1);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.data, b.data);
  });

  for (const field of ['data', 'tag', 'iv'] as const) {
    it(`refuses tampered ${field}`, async () => {
      const sealed = await cipher.seal(plaintext, MEMBER1);
      await rejectsSealError(cipher.open(tamper(sealed, field), MEMBER1), /does not authenticate/, [SECRET_TOKEN]);
      const last = Buffer.from(sealed[field], 'base64').length - 1;
      await rejectsSealError(cipher.open(tamper(sealed, field, last), MEMBER1), /does not authenticate/);
    });
  }

  it('refuses truncated or extended data', async () => {
    const sealed = await cipher.seal(plaintext, MEMBER1);
    const data = Buffer.from(sealed.data, 'base64');
    for (const changed of [data.subarray(0, -1), Buffer.concat([data, Buffer.from([0])])]) {
      await rejectsSealError(
        cipher.open({ ...sealed, data: changed.toString('base64') }, MEMBER1),
        /does not authenticate/,
      );
    }
  });

  it('refuses another context: another cluster, an extra entry, the empty context', async () => {
    const sealed = await cipher.seal(plaintext, MEMBER1);
    const contexts: Record<string, string>[] = [{ cluster: 'member2' }, { cluster: 'member1', kind: 'token' }, {}];
    for (const context of contexts) {
      await rejectsSealError(cipher.open(sealed, context), /does not authenticate.*context/, [SECRET_TOKEN]);
    }
  });

  it('refuses a secret sealed with another key, clearly', async () => {
    const other = new LocalKeyCipher(randomBytes(32));
    const sealed = await other.seal(plaintext, MEMBER1);
    const err = await rejectsSealError(cipher.open(sealed, MEMBER1), /sealed with another key/, [SECRET_TOKEN]);
    assert.ok(err.message.includes(other.keyId) && err.message.includes(cipher.keyId));
    await rejectsSealError(
      cipher.open({ ...sealed, keyId: 'arn:aws:kms:eu-west-1:111122223333:key/abc' }, MEMBER1),
      /sealed with another key.*KMS/,
    );
  });

  it('refuses a secret that is not a sealed secret', async () => {
    await rejectsSealError(cipher.open({ v: 2 } as unknown as never, MEMBER1), /"v" must be 1/);
    const sealed = await cipher.seal(plaintext, MEMBER1);
    await rejectsSealError(cipher.open({ ...sealed, encryptedKey: 'AAAA' }, MEMBER1), /encryptedKey/);
  });

  it('refuses a key of the wrong length', () => {
    assert.throws(() => new LocalKeyCipher(randomBytes(31)), SealError);
  });

  it('never shows the plaintext or the key in any error', async () => {
    const key = randomBytes(32);
    const local = new LocalKeyCipher(key);
    const sealed = await local.seal(plaintext, MEMBER1);
    const attempts = [
      local.open(tamper(sealed, 'data'), MEMBER1),
      local.open(sealed, { cluster: 'member2' }),
      new LocalKeyCipher(randomBytes(32)).open(sealed, MEMBER1),
      local.open({ ...sealed, data: 'x' }, MEMBER1),
    ];
    for (const attempt of attempts) {
      try {
        await attempt;
        assert.fail('expected a rejection');
      } catch (err) {
        assert.ok(err instanceof SealError);
        assertNoSecrets(err, [SECRET_TOKEN, key]);
      }
    }
  });
});
