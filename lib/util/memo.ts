/**
 * Loads shared by the keys of one batch (a controller's batch scope): each is started once and its
 * promise shared; a load that fails is forgotten, so the next caller tries again.
 */

/** `load(key)` at most once per key while it has not failed. */
export function memoize<K, V>(load: (key: K) => Promise<V>, keyOf: (key: K) => unknown = (k) => k) {
  const started = new Map<unknown, Promise<V>>();
  return (key: K): Promise<V> => {
    const id = keyOf(key);
    let value = started.get(id);
    if (!value) {
      value = load(key);
      started.set(id, value);
      value.catch(() => started.delete(id));
    }
    return value;
  };
}

/** `load()` at most once while it has not failed. */
export function once<V>(load: () => Promise<V>): () => Promise<V> {
  const memo = memoize<undefined, V>(() => load());
  return () => memo(undefined);
}
