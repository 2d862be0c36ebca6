/** String helpers shared by layers that must order text as Go does. */

/** Go's `strings.Compare` / `a < b`: UTF-8 byte order, i.e. code point order (not UTF-16 unit order). */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && cb >= 0xd800) {
      // Surrogates encode code points above U+FFFF, which sort after U+E000..U+FFFF.
      ca = ca <= 0xdfff ? ca + 0x2000 : ca - 0x800;
      cb = cb <= 0xdfff ? cb + 0x2000 : cb - 0x800;
    }
    return ca < cb ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

/**
 * `k8s.io/apimachinery/pkg/util/rand`'s alphabet: no vowels and no look-alikes, so generated names
 * never spell words (generateName suffixes, Work and label hashes).
 */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `rand.SafeEncodeString`: each character mapped to `SAFE_ALPHABET[codePoint % 27]`. */
export function safeEncodeString(text: string): string {
  let out = '';
  for (const ch of text) out += SAFE_ALPHABET[ch.codePointAt(0)! % SAFE_ALPHABET.length];
  return out;
}
