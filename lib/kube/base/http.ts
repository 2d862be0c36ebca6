/**
 * The transport-neutral request/response the REST layer works on. Adapters turn a Node HTTP request,
 * an API Gateway event, or a test call into a {@link KubeRequest}, and write back a
 * {@link KubeResponse}.
 */

export interface KubeRequest {
  method: string;
  /** The path without query string, e.g. `/apis/apps/v1/namespaces/default/deployments`. */
  path: string;
  query: URLSearchParams;
  /** Header names lower-cased. */
  headers: Readonly<Record<string, string | undefined>>;
  body: Buffer;
}

export interface KubeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A streamed body (watch): chunks written as they come; `body` is ignored. Ends when the iterator does. */
  stream?: AsyncIterable<string>;
}

/** Largest request body accepted: kube-apiserver's default (3 MiB). */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

export function jsonResponse(status: number, value: unknown, extraHeaders: Record<string, string> = {}): KubeResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...extraHeaders },
    body: JSON.stringify(value),
  };
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** One entry of an Accept header with its parameters (`as`, `g`, `v`). */
export interface AcceptEntry {
  type: string;
  params: Record<string, string>;
}

export function parseAccept(accept: string | undefined): AcceptEntry[] {
  if (!accept) return [{ type: '*/*', params: {} }];
  return accept.split(',').map((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim());
    const out: Record<string, string> = {};
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq > 0) out[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    return { type: (type ?? '').toLowerCase(), params: out };
  });
}

/**
 * The bearer token of an `Authorization` header, parsed as kube-apiserver parses it: the header is
 * trimmed and split on single spaces, the scheme is `Bearer` in any case, and the token is the second
 * part. `Bearer  <token>` (two spaces) therefore carries an empty token and authenticates nobody.
 * Undefined when there is no bearer token.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token === '' ? undefined : token;
}
