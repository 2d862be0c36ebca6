/**
 * karmada-search's multi-cluster resourceVersion and continue tokens
 * (`pkg/search/proxy/store/util.go`): JSON, base64url without padding. A resourceVersion is
 * `{"<cluster>":"<rv>",…}` with clusters sorted; a continue token is
 * `{"rv":"<multi-cluster rv>","cluster":"<cluster to go on with>","continue":"<that cluster's token>"}`.
 * Karmada silently ignores a token it cannot decode (the list restarts from the first cluster); here
 * it is refused, so a client never pages through a list twice without knowing.
 */

/** The multi-cluster resourceVersion of these per-cluster versions ('' for none). */
export function encodeMultiClusterResourceVersion(rvs: Readonly<Record<string, string>>): string {
  const clusters = Object.keys(rvs).sort();
  if (clusters.length === 0) return '';
  const json = `{${clusters.map((c) => `${JSON.stringify(c)}:${JSON.stringify(rvs[c])}`).join(',')}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** Per-cluster versions of a multi-cluster resourceVersion, or undefined when `text` is not one. */
export function decodeMultiClusterResourceVersion(text: string): Record<string, string> | undefined {
  if (!text || text === '0') return undefined;
  const value = decodeJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [cluster, rv] of Object.entries(value)) {
    if (typeof rv !== 'string') return undefined;
    out[cluster] = rv;
  }
  return out;
}

export interface MultiClusterContinue {
  /** The multi-cluster resourceVersion the list started at. */
  rv: string;
  /** The cluster the next page starts in. */
  cluster: string;
  /** That cluster's own continue token ('' to start it from its beginning). */
  continue: string;
}

/** The continue token of a list page ('' when the list is complete). */
export function encodeMultiClusterContinue(token: MultiClusterContinue | undefined): string {
  if (!token || !token.cluster) return '';
  const value: Record<string, string> = { rv: token.rv, cluster: token.cluster };
  if (token.continue) value.continue = token.continue;
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** A continue token, or why it is not one (a message for a 400). */
export function decodeMultiClusterContinue(text: string): MultiClusterContinue | string {
  const value = decodeJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'the continue token is not one this server issued (not base64url-encoded JSON)';
  }
  const v = value as Record<string, unknown>;
  const rv = v.rv ?? '';
  const cont = v.continue ?? '';
  if (typeof v.cluster !== 'string' || v.cluster === '' || typeof rv !== 'string' || typeof cont !== 'string') {
    return 'the continue token is not one this server issued (it names no cluster)';
  }
  return { rv, cluster: v.cluster, continue: cont };
}

function decodeJson(text: string): unknown {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
