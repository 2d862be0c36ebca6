/**
 * Content-defined chunks of a member's list, so a sync of a quiet member reads nothing from the
 * cache: the collector cuts the list into chunks at keys whose hash hits a boundary (about one key in
 * {@link CHUNK_EVERY}, so an inserted or deleted object moves no other boundary), fingerprints each
 * chunk by its keys and resourceVersions, and compares the fingerprint with the one recorded at the
 * last sync. Only a chunk whose fingerprint changed is compared entry by entry with the cache.
 */

/** About one key in this many ends a chunk. */
export const CHUNK_EVERY = 256;
/**
 * A chunk is cut here at the latest, whatever its keys (an unlucky run of keys stays bounded; a Pull
 * agent posts a chunk in one request).
 */
export const MAX_CHUNK = 500;

/** 32-bit FNV-1a of a string (stable across processes). */
function fnv1a32(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** True when `key` ends a chunk. */
export function isChunkBoundary(key: string): boolean {
  return fnv1a32(key) % CHUNK_EVERY === 0;
}

/** A chunk's fingerprint: its keys and their resourceVersions, in order (two FNV-1a lanes, 64 bits). */
export function chunkFingerprint(entries: readonly { key: string; resourceVersion: string }[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const e of entries) {
    const text = `${e.key}\u0000${e.resourceVersion}\u0001`;
    a = fnv1a32(text, a);
    b = fnv1a32(text, b ^ 0x5bd1e995);
  }
  return `${a.toString(36)}.${b.toString(36)}.${entries.length}`;
}

/**
 * The identity of a chunk as recorded: the key range it covers (`after` the previous chunk's last key,
 * `through` its own last key or the end of its namespace) and its fingerprint.
 */
export function chunkRecord(range: { prefix?: string; after?: string; through?: string }, fingerprint: string): string {
  return `${range.prefix ?? ''}\t${range.after ?? ''}\t${range.through ?? ''}\t${fingerprint}`;
}

/** Every chunk is compared with the cache at least this often, unchanged or not. */
export const FULL_COMPARE_EVERY_MS = 3_600_000;

/**
 * The recorded chunks a sync may skip: those of the last sync while its full compare is recent, or
 * those a sync cut short finished. Undefined: compare every chunk.
 */
export function trustedChunks(
  kind: { chunks?: string[]; verifiedAt?: string; partial?: boolean } | undefined,
  nowMs: number,
): string[] | undefined {
  if (!kind?.chunks) return undefined;
  const verifiedAt = Date.parse(kind.verifiedAt ?? '');
  const recent = !Number.isNaN(verifiedAt) && nowMs - verifiedAt < FULL_COMPARE_EVERY_MS;
  return recent || kind.partial ? kind.chunks : undefined;
}
