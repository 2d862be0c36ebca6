import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { gcmOpen, gcmSeal } from '../../../lib/crypto/aes-gcm.ts';
import { assertSealed, contextAad, type SealedSecret, SealError } from '../../../lib/crypto/cipher.ts';

const sealed: SealedSecret = {
  v: 1,
  alg: 'A256GCM',
  keyId: 'local:0123456789abcdef',
  iv: Buffer.alloc(12, 1).toString('base64'),
  tag: Buffer.alloc(16, 2).toString('base64'),
  data: Buffer.from('ciphertext').toString('base64'),
};

describe('contextAad', () => {
  it('is the JSON of the entries sorted by key, whatever the insertion order', () => {
    const a = contextAad({ kind: 'token', cluster: 'member1' });
    const b = contextAad({ cluster: 'member1', kind: 'token' });
    assert.equal(a.toString('utf8'), '[["cluster","member1"],["kind","token"]]');
    assert.deepEqual(a, b);
  });

  it('sorts by code unit, not by locale', () => {
    assert.equal(contextAad({ b: '1', B: '2', a: '3' }).toString('utf8'), '[["B","2"],["a","3"],["b","1"]]');
  });

  it('tells apart contexts that would collide if concatenated', () => {
    assert.notDeepEqual(contextAad({ a: 'b=c' }), contextAad({ 'a=b': 'c' }));
    assert.equal(contextAad({}).toString('utf8'), '[]');
  });

  it('refuses a value that is not a string', () => {
    assert.throws(() => contextAad({ cluster: 1 } as unknown as Record<string, string>), SealError);
  });
});

describe('assertSealed', () => {
  it('accepts a well-formed value and returns only the known fields', () => {
    const extra = { ...sealed, extra: 'x' };
    assert.deepEqual(assertSealed(extra), sealed);
    const envelope = { ...sealed, encryptedKey: Buffer.from('blob').toString('base64') };
    assert.deepEqual(assertSealed(envelope), envelope);
  });

  const cases: [string, unknown, RegExp][] = [
    ['null', null, /expected an object, got object/],
    ['an array', [], /got an array/],
    ['a string', 'x', /got string/],
    ['another version', { ...sealed, v: 2 }, /"v" must be 1/],
    ['another algorithm', { ...sealed, alg: 'A128GCM' }, /"alg"/],
    ['an empty keyId', { ...sealed, keyId: '' }, /"keyId"/],
    ['a short iv', { ...sealed, iv: Buffer.alloc(8).toString('base64') }, /"iv" must decode to 12 bytes/],
    ['a short tag', { ...sealed, tag: Buffer.alloc(12).toString('base64') }, /"tag" must decode to 16 bytes/],
    ['data that is not base64', { ...sealed, data: 'not base64!' }, /"data" must be a base64 string/],
    ['a missing data', { ...sealed, data: undefined }, /"data"/],
    ['an empty encryptedKey', { ...sealed, encryptedKey: '' }, /"encryptedKey" must not be empty/],
    ['a numeric encryptedKey', { ...sealed, encryptedKey: 5 }, /"encryptedKey" must be a base64 string/],
  ];
  for (const [what, value, message] of cases) {
    it(`refuses ${what}`, () => {
      assert.throws(
        () => assertSealed(value),
        (err: unknown) => err instanceof SealError && err.name === 'SealError' && message.test(err.message),
      );
    });
  }
});

describe('AES-256-GCM with a context', () => {
  const key = randomBytes(32);
  const context = { cluster: 'member1' };

  it('round-trips, including an empty plaintext', () => {
    for (const plaintext of [Buffer.from('token'), new Uint8Array(0), randomBytes(5000)]) {
      const parts = gcmSeal(key, plaintext, context);
      assert.deepEqual(new Uint8Array(gcmOpen(key, parts, context)), new Uint8Array(plaintext));
    }
  });

  it('uses a fresh IV for every message', () => {
    const ivs = new Set(Array.from({ length: 50 }, () => gcmSeal(key, Buffer.from('x'), context).iv));
    assert.equal(ivs.size, 50);
  });

  it('refuses a key of the wrong length', () => {
    assert.throws(() => gcmSeal(randomBytes(16), Buffer.from('x'), context), SealError);
  });
});
