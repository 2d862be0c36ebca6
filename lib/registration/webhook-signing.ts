/**
 * Authenticating member-cluster webhooks (`POST /webhooks/v1/clusters/{name}/...`) with the cluster's
 * own credential: an HMAC-SHA256 request signature. This is this project's scheme (Karmada's agents talk
 * to a kube-apiserver with client certificates instead), so the format is defined here:
 *
 * ```text
 * canonical = "KARMADA-WEBHOOK-V1" "\n" METHOD "\n" path "\n" cluster "\n" timestampMs "\n" nonce "\n" hex(sha256(body))
 * signature = "v1=" hex(HMAC-SHA256(key = UTF-8 bytes of the cluster credential, canonical))
 * ```
 *
 * - METHOD is upper-cased; `path` is the request target exactly as sent (path and query, no host, no
 *   re-encoding or query re-ordering): the verifier must be given the raw path it received.
 * - `timestampMs` is the sender's clock in integer milliseconds since the epoch, decimal.
 * - `nonce` is 16–64 characters of `[A-Za-z0-9_-]`, unique per request; remembering nonces (for at least
 *   the accepted clock skew window) to reject replays is the caller's job.
 * - Headers: {@link WEBHOOK_HEADERS}.
 *
 * Pure: time is a parameter and randomness injectable.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isDNS1123Label } from '../util/validation.ts';

/** The request headers carrying the signature. Lower-case (as Node and API Gateway v2 present them). */
export const WEBHOOK_HEADERS = {
  cluster: 'x-karmada-cluster',
  timestamp: 'x-karmada-timestamp',
  nonce: 'x-karmada-nonce',
  signature: 'x-karmada-signature',
} as const;

/** Domain separation: the first line of the canonical string. */
export const WEBHOOK_SIGNATURE_SCHEME = 'KARMADA-WEBHOOK-V1';
/** Default accepted difference between the sender's timestamp and the verifier's clock. */
export const DEFAULT_WEBHOOK_MAX_SKEW_MS = 5 * 60_000;

/** Nonce format: 16–64 characters of `[A-Za-z0-9_-]` (base64url alphabet). */
export const WEBHOOK_NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const TIMESTAMP = /^(?:0|[1-9][0-9]{0,14})$/;
const SIGNATURE = /^v1=([0-9a-f]{64})$/;
/** An HTTP method token (RFC 9110). */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Request target: starts with `/`, visible ASCII only (no spaces, controls or newlines). */
const PATH = /^\/[\x21-\x7e]*$/;

/** Cluster names are DNS-1123 labels (Karmada's cluster-name validation further caps them at 48). */
function isClusterName(name: string): boolean {
  return isDNS1123Label(name).length === 0;
}

/** Random bytes source: `n` bytes per call. */
export type RandomBytes = (n: number) => Buffer;
const defaultRandom: RandomBytes = (n) => randomBytes(n);

/** Fields the signature covers. */
export interface WebhookCanonicalInput {
  method: string;
  path: string;
  cluster: string;
  timestampMs: number;
  nonce: string;
  body: Uint8Array;
}

/** The string that is HMAC'd (see the module comment). Exposed so other implementations can be checked against it. */
export function webhookCanonicalString(input: WebhookCanonicalInput): string {
  const bodyHash = createHash('sha256').update(input.body).digest('hex');
  return [
    WEBHOOK_SIGNATURE_SCHEME,
    input.method.toUpperCase(),
    input.path,
    input.cluster,
    String(input.timestampMs),
    input.nonce,
    bodyHash,
  ].join('\n');
}

function hmac(secret: string, canonical: string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(canonical, 'utf8').digest();
}

/**
 * Signs a request: HMAC-SHA256 (key = the cluster credential secret) over a canonical string of method,
 * path (with query), cluster, timestamp (ms), nonce and the SHA-256 hex of the body. Returns the headers
 * to send (signature as `v1=<hex>`). `nonce` defaults to 16 random bytes, base64url (22 characters).
 *
 * Throws on inputs the verifier would reject (bad method, path, cluster name, timestamp or nonce, or an
 * empty secret).
 */
export function signWebhookRequest(input: {
  method: string;
  path: string;
  body: Uint8Array;
  cluster: string;
  secret: string;
  nowMs: number;
  nonce?: string;
  random?: RandomBytes;
}): Record<string, string> {
  const { method, path, body, cluster, secret, nowMs } = input;
  if (typeof method !== 'string' || !METHOD.test(method)) throw new Error('webhook signing: invalid HTTP method');
  if (typeof path !== 'string' || !PATH.test(path)) {
    throw new Error('webhook signing: path must start with "/" and contain only visible ASCII');
  }
  if (typeof cluster !== 'string' || !isClusterName(cluster)) {
    throw new Error(`webhook signing: invalid cluster name "${String(cluster)}"`);
  }
  if (typeof secret !== 'string' || secret.length === 0) throw new Error('webhook signing: empty cluster credential');
  if (!(body instanceof Uint8Array)) throw new Error('webhook signing: body must be a Uint8Array');
  const timestampMs = Math.floor(nowMs);
  if (!Number.isFinite(nowMs) || !TIMESTAMP.test(String(timestampMs))) {
    throw new Error('webhook signing: nowMs must be a non-negative time in milliseconds');
  }
  const nonce = input.nonce ?? (input.random ?? defaultRandom)(16).toString('base64url');
  if (!WEBHOOK_NONCE_PATTERN.test(nonce)) {
    throw new Error('webhook signing: nonce must be 16-64 characters of [A-Za-z0-9_-]');
  }
  const signature = hmac(secret, webhookCanonicalString({ method, path, cluster, timestampMs, nonce, body }));
  return {
    [WEBHOOK_HEADERS.cluster]: cluster,
    [WEBHOOK_HEADERS.timestamp]: String(timestampMs),
    [WEBHOOK_HEADERS.nonce]: nonce,
    [WEBHOOK_HEADERS.signature]: `v1=${signature.toString('hex')}`,
  };
}

/** The outcome of {@link verifyWebhookRequest}. Reasons never contain the secret or the expected signature. */
export type WebhookVerdict =
  { ok: true; cluster: string; nonce: string; timestampMs: number } | { ok: false; status: 401 | 403; reason: string };

/** A header, looked up case-insensitively (API Gateway REST events keep the sender's case). */
function header(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const exact = headers[name];
  if (typeof exact === 'string') return exact;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

const deny = (status: 401 | 403, reason: string): WebhookVerdict => ({ ok: false, status, reason });

/**
 * Verifies a signed webhook request:
 * 1. the four headers are present and well formed — else 401;
 * 2. the timestamp is within `maxSkewMs` (default 5 min) of `nowMs` — else 401 `stale or future timestamp`;
 * 3. `secretFor(cluster)` knows the header's cluster — else 401 (an empty secret counts as unknown);
 * 4. the signature matches (constant-time compare) — else 401;
 * 5. the cluster in the path (`pathCluster`, as the router parsed it from this same `path`) is the
 *    header's cluster — else 403 `cluster X may not post for cluster Y`.
 *
 * The cross-cluster check comes after authentication so that 403 means "authenticated as X but not
 * allowed", and an unauthenticated caller only ever gets 401. Replay detection (has this nonce been
 * seen) is the caller's job using the returned nonce. Errors thrown by `secretFor` propagate.
 */
export async function verifyWebhookRequest(input: {
  method: string;
  path: string;
  pathCluster: string;
  body: Uint8Array;
  headers: Readonly<Record<string, string | undefined>>;
  nowMs: number;
  maxSkewMs?: number;
  secretFor(cluster: string): Promise<string | undefined>;
}): Promise<WebhookVerdict> {
  const { method, path, pathCluster, body, headers, nowMs } = input;
  const maxSkewMs = input.maxSkewMs ?? DEFAULT_WEBHOOK_MAX_SKEW_MS;
  if (!Number.isFinite(maxSkewMs) || maxSkewMs < 0) throw new Error('webhook verification: maxSkewMs must be ≥ 0');
  if (!Number.isFinite(nowMs)) throw new Error('webhook verification: nowMs must be finite');

  const cluster = header(headers ?? {}, WEBHOOK_HEADERS.cluster);
  const timestamp = header(headers ?? {}, WEBHOOK_HEADERS.timestamp);
  const nonce = header(headers ?? {}, WEBHOOK_HEADERS.nonce);
  const signature = header(headers ?? {}, WEBHOOK_HEADERS.signature);
  const missing = [
    cluster === undefined && WEBHOOK_HEADERS.cluster,
    timestamp === undefined && WEBHOOK_HEADERS.timestamp,
    nonce === undefined && WEBHOOK_HEADERS.nonce,
    signature === undefined && WEBHOOK_HEADERS.signature,
  ].filter(Boolean);
  if (missing.length > 0) return deny(401, `missing header(s): ${missing.join(', ')}`);
  if (!isClusterName(cluster!)) return deny(401, `malformed ${WEBHOOK_HEADERS.cluster} header`);
  if (!TIMESTAMP.test(timestamp!)) return deny(401, `malformed ${WEBHOOK_HEADERS.timestamp} header`);
  if (!WEBHOOK_NONCE_PATTERN.test(nonce!)) {
    return deny(401, `malformed ${WEBHOOK_HEADERS.nonce} header (16-64 characters of [A-Za-z0-9_-])`);
  }
  const sigMatch = SIGNATURE.exec(signature!);
  if (!sigMatch) return deny(401, `malformed ${WEBHOOK_HEADERS.signature} header (expected v1=<64 hex digits>)`);
  if (typeof method !== 'string' || !METHOD.test(method)) return deny(401, 'malformed request method');
  if (typeof path !== 'string' || !PATH.test(path)) return deny(401, 'malformed request path');
  if (!(body instanceof Uint8Array)) return deny(401, 'malformed request body');

  const timestampMs = Number(timestamp);
  if (Math.abs(nowMs - timestampMs) > maxSkewMs) return deny(401, 'stale or future timestamp');

  const secret = await input.secretFor(cluster!);
  if (typeof secret !== 'string' || secret.length === 0) return deny(401, `unknown cluster "${cluster}"`);

  const expected = hmac(
    secret,
    webhookCanonicalString({ method, path, cluster: cluster!, timestampMs, nonce: nonce!, body }),
  );
  const provided = Buffer.from(sigMatch[1]!, 'hex');
  if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
    return deny(401, 'signature mismatch');
  }

  if (pathCluster !== cluster) return deny(403, `cluster ${cluster} may not post for cluster ${String(pathCluster)}`);
  return { ok: true, cluster: cluster!, nonce: nonce!, timestampMs };
}

/** A new cluster credential: 32 random bytes, base64url (43 characters). Used as the HMAC key as is (its UTF-8 text). */
export function generateClusterCredential(random: RandomBytes = defaultRandom): string {
  const bytes = random(32);
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) {
    throw new Error('cluster credential: the random source must return 32 bytes');
  }
  return Buffer.from(bytes).toString('base64url');
}
