import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareSortKeys } from '../../../lib/store/layout.ts';

/** A seeded generator, so a failure reproduces. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

// ASCII, Latin-1, the BMP edges around the surrogates, astral characters and lone surrogates.
const ALPHABET = [
  'a',
  'b',
  'z',
  '-',
  '/',
  '.',
  '0',
  'é',
  'ÿ',
  '\u07ff',
  '\u0800',
  '\ud7ff',
  '\ue000',
  '\uffff',
  '😀',
  '𐀀',
  '\ud800',
  '\udfff',
];

describe('compareSortKeys', () => {
  it('orders exactly as DynamoDB does (UTF-8 bytes) on 50,000 random pairs', () => {
    const rand = lcg(2026);
    const word = () =>
      Array.from({ length: Math.floor(rand() * 6) }, () => ALPHABET[Math.floor(rand() * ALPHABET.length)]).join('');
    for (let i = 0; i < 50_000; i++) {
      const a = word();
      const b = rand() < 0.2 ? a + word() : word();
      const expected = Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
      assert.equal(Math.sign(compareSortKeys(a, b)), expected, JSON.stringify([a, b]));
    }
  });
});
