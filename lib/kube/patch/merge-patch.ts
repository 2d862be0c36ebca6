import { PatchError } from '../../util/patch-error.ts';
import { cloneJson, getOwn, isJsonObject, type JsonObject, setOwn } from '../../util/json-value.ts';

/**
 * Applies an RFC 7386 JSON merge patch (`application/merge-patch+json`) to `doc` and returns the
 * patched copy; neither argument is modified. Objects merge key by key, `null` deletes a key, and any
 * other value (arrays included) replaces the target wholesale — the flavour custom resources use,
 * since they carry no strategic merge metadata.
 *
 * @example applyMergePatch({ metadata: { labels: { a: '1', b: '2' } } }, { metadata: { labels: { b: null } } })
 */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (patch === undefined) throw new PatchError(400, 'a merge patch must be a JSON value');
  return merge(cloneJson(doc), patch);
}

/** `owned` is already a private copy, so it is updated in place rather than copied at every level. */
function merge(owned: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result: JsonObject = isJsonObject(owned) ? owned : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setOwn(result, key, merge(getOwn(result, key), value));
  }
  return result;
}
