/**
 * Bootstrap tokens, as `kubeadm token` and `karmadactl token create` make them: a public 6-character
 * id and a private 16-character secret (`<id>.<secret>`, characters `[a-z0-9]`), stored in the Secret
 * `kube-system/bootstrap-token-<id>` of type `bootstrap.kubernetes.io/token`. A Pull-mode member cluster
 * uses the token twice while registering (`karmadactl register`): to check the JWS on
 * `kube-public/cluster-info` (usage `signing`) and as a bearer token for its CSRs (usage
 * `authentication`, user `system:bootstrap:<id>`, groups `system:bootstrappers` + `auth-extra-groups`).
 *
 * Transcribed from Kubernetes `staging/src/k8s.io/cluster-bootstrap/token/{api/types.go,util/helpers.go}`,
 * `cluster-bootstrap/util/secrets/secrets.go`, and Karmada
 * `pkg/karmadactl/util/bootstraptoken/bootstraptoken.go` (`encodeTokenSecretData`,
 * `GetBootstrapTokenFromSecret`). Pure: time is a parameter, randomness injectable.
 */
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import { isBase64 } from '../crypto/cipher.ts';

/** `<id>.<secret>`; `api.BootstrapTokenPattern` (Go's `\A…\z`: a JS regexp without `m` is equally anchored). */
export const BOOTSTRAP_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
/** `api.BootstrapTokenIDPattern`. */
export const BOOTSTRAP_TOKEN_ID_PATTERN = /^[a-z0-9]{6}$/;
const TOKEN_SECRET_PATTERN = /^[a-z0-9]{16}$/;
/** `api.BootstrapGroupPattern`: what every `auth-extra-groups` entry must match. */
export const BOOTSTRAP_GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** `api.SecretTypeBootstrapToken`. */
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
/** `api.BootstrapTokenSecretPrefix`. */
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
/** The namespace bootstrap-token Secrets live in (`metav1.NamespaceSystem`). */
export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
/** Karmada's `DefaultTokenDuration` (24h). */
export const DEFAULT_TOKEN_TTL_MS = 24 * 60 * 60_000;
/** Karmada's `DefaultGroups`. */
export const DEFAULT_TOKEN_GROUPS: readonly string[] = Object.freeze([
  'system:bootstrappers:karmada:default-cluster-token',
]);
/** `api.KnownTokenUsages` (Karmada's `DefaultUsages`). */
export const KNOWN_TOKEN_USAGES = Object.freeze(['signing', 'authentication'] as const);
/** A bootstrap-token usage. */
export type BootstrapTokenUsage = (typeof KNOWN_TOKEN_USAGES)[number];

/** Data keys of the Secret (`api.BootstrapToken*Key`). */
export const BOOTSTRAP_TOKEN_KEYS = Object.freeze({
  id: 'token-id',
  secret: 'token-secret',
  expiration: 'expiration',
  description: 'description',
  extraGroups: 'auth-extra-groups',
  usagePrefix: 'usage-bootstrap-',
});

/** `validBootstrapTokenChars`. */
const TOKEN_CHARS = '0123456789abcdefghijklmnopqrstuvwxyz';
/** 256 mod 36 = 4: bytes ≥ 252 are discarded so every character is equally likely (as `randBytes` does). */
const MAX_BYTE_VALUE = 252;

/** Random bytes source: `n` bytes per call. */
export type RandomBytes = (n: number) => Buffer;

const defaultRandom: RandomBytes = (n) => randomBytes(n);

/**
 * `length` characters uniform over `[a-z0-9]`, by rejection sampling exactly as Kubernetes' `randBytes`
 * (bytes ≥ 252 discarded, then `byte % 36`). Reads `random` in chunks of `2 × length` bytes.
 */
function randomTokenChars(length: number, random: RandomBytes): string {
  let out = '';
  // A broken `random` (e.g. always 0xff) must fail rather than loop forever; a real one needs more
  // than 64 chunks with probability ~ (4/256)^(2·length·64).
  for (let chunks = 0; out.length < length; chunks++) {
    if (chunks >= 64) throw new Error('bootstrap token: the random source keeps returning bytes ≥ 252');
    const bytes = random(length * 2);
    if (!(bytes instanceof Uint8Array) || bytes.length !== length * 2) {
      throw new Error(
        `bootstrap token: the random source returned ${bytes?.length ?? 'no'} bytes, expected ${length * 2}`,
      );
    }
    for (const b of bytes) {
      if (out.length === length) break;
      if (b < MAX_BYTE_VALUE) out += TOKEN_CHARS[b % TOKEN_CHARS.length];
    }
  }
  return out;
}

/**
 * A new random bootstrap token (`GenerateBootstrapToken`): id 6 and secret 16 characters, each uniform
 * over `[a-z0-9]`. `random` defaults to `crypto.randomBytes`.
 */
export function generateBootstrapToken(random: RandomBytes = defaultRandom): {
  id: string;
  secret: string;
  token: string;
} {
  const id = randomTokenChars(6, random);
  const secret = randomTokenChars(16, random);
  return { id, secret, token: `${id}.${secret}` };
}

/** Splits `<id>.<secret>`; `undefined` unless `text` matches {@link BOOTSTRAP_TOKEN_PATTERN} exactly (no trimming). */
export function parseBootstrapToken(text: string): { id: string; secret: string } | undefined {
  if (typeof text !== 'string') return undefined;
  const m = BOOTSTRAP_TOKEN_PATTERN.exec(text);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

/** `bootstrap-token-<id>` (`BootstrapTokenSecretName`). */
export function bootstrapTokenSecretName(id: string): string {
  return BOOTSTRAP_TOKEN_SECRET_PREFIX + id;
}

/**
 * Go's `t.UTC().Format(time.RFC3339)`: `YYYY-MM-DDTHH:MM:SSZ`, sub-second part truncated (not rounded).
 */
export function formatRfc3339(ms: number): string {
  const seconds = Math.floor(ms / 1000) * 1000;
  const iso = new Date(seconds).toISOString();
  if (!/^\d{4}-/.test(iso)) throw new Error(`bootstrap token: time ${ms} is outside years 0000-9999`);
  return iso.replace(/\.\d{3}Z$/, 'Z');
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Go's `time.Parse(time.RFC3339, s)`, in milliseconds since the epoch (fraction beyond ms truncated);
 * `undefined` if Go would reject it (bad shape, month/day/hour/minute/second or offset out of range).
 */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate(); // leap-year-agnostic upper bound
  if (day < 1 || day > daysInMonth) return undefined;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return undefined;
  let offsetMin = 0;
  if (m[8]) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // setUTCFullYear, unlike Date.UTC, keeps years 0-99 literal
  date.setUTCHours(hour, minute, second, m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0);
  return date.getTime() - offsetMin * 60_000;
}

/** Input of {@link bootstrapTokenSecret}. */
export interface BootstrapTokenSecretInput {
  id: string;
  secret: string;
  /** Now, ms since the epoch: the expiration is `nowMs + ttlMs`. */
  nowMs: number;
  /** Time to live; `0` = never expires (no `expiration` key). Default 24h. */
  ttlMs?: number;
  /** Human-readable purpose; omitted from the Secret when empty. */
  description?: string;
  /** `auth-extra-groups`; default `['system:bootstrappers:karmada:default-cluster-token']`; `[]` omits the key. */
  groups?: readonly string[];
  /** Default both `signing` and `authentication`. */
  usages?: readonly BootstrapTokenUsage[];
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * The Secret `kube-system/bootstrap-token-<id>` exactly as Karmada's `ConvertBootstrapTokenToSecret`
 * (= kubeadm's) writes it: type `bootstrap.kubernetes.io/token`, base64 `data` with `token-id`,
 * `token-secret`, `expiration` (RFC3339 UTC, whole seconds; only when the TTL is > 0),
 * `usage-bootstrap-<usage>: "true"` per usage, `auth-extra-groups` (comma-joined; only if any) and
 * `description` (only if non-empty). Keys are in sorted order (as Go marshals a map).
 *
 * Throws on a malformed id/secret, a negative or non-finite TTL, an unknown usage or a group not matching
 * {@link BOOTSTRAP_GROUP_PATTERN} (kubeadm validates these; an invalid group would make the API server
 * reject the token at authentication time).
 */
export function bootstrapTokenSecret(input: BootstrapTokenSecretInput): KubeObject {
  const { id, secret, nowMs } = input;
  if (typeof id !== 'string' || !BOOTSTRAP_TOKEN_ID_PATTERN.test(id)) {
    throw new Error(`bootstrap token id must match ${BOOTSTRAP_TOKEN_ID_PATTERN.source}`);
  }
  if (typeof secret !== 'string' || !TOKEN_SECRET_PATTERN.test(secret)) {
    throw new Error(`bootstrap token secret must match ${TOKEN_SECRET_PATTERN.source}`);
  }
  if (!Number.isFinite(nowMs)) throw new Error('bootstrap token: nowMs must be a finite number');
  const ttlMs = input.ttlMs ?? DEFAULT_TOKEN_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs < 0) {
    throw new Error(`bootstrap token: ttlMs must be ≥ 0 (0 = never expires), got ${ttlMs}`);
  }
  const usages = input.usages ?? KNOWN_TOKEN_USAGES;
  for (const usage of usages) {
    if (!(KNOWN_TOKEN_USAGES as readonly string[]).includes(usage)) {
      throw new Error(`invalid bootstrap token usage "${usage}", valid: ${KNOWN_TOKEN_USAGES.join(',')}`);
    }
  }
  const groups = input.groups ?? DEFAULT_TOKEN_GROUPS;
  for (const group of groups) {
    if (!BOOTSTRAP_GROUP_PATTERN.test(group)) {
      throw new Error(`bootstrap group "${group}" is invalid (must match ${BOOTSTRAP_GROUP_PATTERN.source})`);
    }
  }

  const data: Record<string, string> = {
    [BOOTSTRAP_TOKEN_KEYS.id]: id,
    [BOOTSTRAP_TOKEN_KEYS.secret]: secret,
  };
  if (input.description) data[BOOTSTRAP_TOKEN_KEYS.description] = input.description;
  if (ttlMs > 0) data[BOOTSTRAP_TOKEN_KEYS.expiration] = formatRfc3339(nowMs + ttlMs);
  for (const usage of usages) data[BOOTSTRAP_TOKEN_KEYS.usagePrefix + usage] = 'true';
  if (groups.length > 0) data[BOOTSTRAP_TOKEN_KEYS.extraGroups] = groups.join(',');

  const encoded: Record<string, string> = {};
  for (const key of Object.keys(data).sort()) encoded[key] = b64(data[key]!);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: bootstrapTokenSecretName(id), namespace: BOOTSTRAP_TOKEN_NAMESPACE },
    type: BOOTSTRAP_TOKEN_SECRET_TYPE,
    data: encoded,
  };
}

/** What {@link readBootstrapTokenSecret} reads from a Secret. */
export interface BootstrapTokenInfo {
  id: string;
  secret: string;
  /** Expiration, ms since the epoch; absent = never expires. */
  expiresMs?: number;
  /** `expiresMs <= nowMs` (Kubernetes' `GetExpiration`: remaining ≤ 0 is expired). */
  expired: boolean;
  /** Usages whose `usage-bootstrap-<usage>` value is exactly `"true"`, sorted (unknown usages included). */
  usages: string[];
  /** `auth-extra-groups` split on commas; `[]` when absent or empty. */
  groups: string[];
  description?: string;
}

/** Go's `StdEncoding` (what `[]byte` JSON fields use) is strict: canonical alphabet, padding required. */

/**
 * The Secret's data as strings: base64 `data`, with `stringData` (if present, e.g. an unapplied manifest)
 * written over it as the API server does. `undefined` if either is not a string map or a value is not
 * valid base64 (or not valid UTF-8).
 */
function secretData(secret: KubeObject): Record<string, string> | undefined {
  const out: Record<string, string> = Object.create(null) as Record<string, string>; // a "__proto__" key stays data
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const { data, stringData } = secret as { data?: unknown; stringData?: unknown };
  if (data !== undefined && data !== null) {
    if (typeof data !== 'object' || Array.isArray(data)) return undefined;
    for (const [k, v] of Object.entries(data)) {
      if (typeof v !== 'string' || !isBase64(v)) return undefined;
      try {
        out[k] = decoder.decode(Buffer.from(v, 'base64'));
      } catch {
        return undefined;
      }
    }
  }
  if (stringData !== undefined && stringData !== null) {
    if (typeof stringData !== 'object' || Array.isArray(stringData)) return undefined;
    for (const [k, v] of Object.entries(stringData)) {
      if (typeof v !== 'string') return undefined;
      out[k] = v;
    }
  }
  return out;
}

const SECRET_NAME = /^bootstrap-token-([a-z0-9]{6})$/;

/**
 * Reads a bootstrap-token Secret the way Karmada's `GetBootstrapTokenFromSecret` does, plus the expiry
 * check of Kubernetes' `GetExpiration`. Returns `undefined` unless the Secret is well formed: kind
 * `Secret` (core `v1`), type `bootstrap.kubernetes.io/token`, namespace `kube-system` (or absent, for a
 * manifest), name `bootstrap-token-<token-id>`, `<token-id>.<token-secret>` matching
 * {@link BOOTSTRAP_TOKEN_PATTERN}, and an `expiration`, if any, that parses as RFC3339 (Karmada errors on
 * an unparseable one; the signer and authenticator treat it as expired — either way it is unusable).
 *
 * Callers deciding whether a token may sign `cluster-info` or authenticate must still check
 * `!expired` and the usage (`signing` / `authentication`).
 */
export function readBootstrapTokenSecret(secret: KubeObject, nowMs: number): BootstrapTokenInfo | undefined {
  if (!secret || typeof secret !== 'object') return undefined;
  if (secret.apiVersion !== 'v1' || secret.kind !== 'Secret') return undefined;
  if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return undefined;
  const meta = secret.metadata ?? {};
  if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== BOOTSTRAP_TOKEN_NAMESPACE) {
    return undefined;
  }
  const nameMatch = typeof meta.name === 'string' ? SECRET_NAME.exec(meta.name) : null;
  if (!nameMatch) return undefined;
  const data = secretData(secret);
  if (!data) return undefined;
  const id = data[BOOTSTRAP_TOKEN_KEYS.id] ?? '';
  const tokenSecret = data[BOOTSTRAP_TOKEN_KEYS.secret] ?? '';
  if (id !== nameMatch[1]) return undefined;
  const token = parseBootstrapToken(`${id}.${tokenSecret}`);
  if (!token) return undefined;

  const info: BootstrapTokenInfo = { id, secret: tokenSecret, expired: false, usages: [], groups: [] };
  const expiration = data[BOOTSTRAP_TOKEN_KEYS.expiration] ?? '';
  if (expiration.length > 0) {
    const expiresMs = parseRfc3339(expiration);
    if (expiresMs === undefined) return undefined;
    info.expiresMs = expiresMs;
    info.expired = expiresMs - nowMs <= 0;
  }
  for (const [key, value] of Object.entries(data)) {
    if (key.startsWith(BOOTSTRAP_TOKEN_KEYS.usagePrefix) && value === 'true') {
      info.usages.push(key.slice(BOOTSTRAP_TOKEN_KEYS.usagePrefix.length));
    }
  }
  info.usages.sort();
  const groups = (data[BOOTSTRAP_TOKEN_KEYS.extraGroups] ?? '').split(',');
  if (groups[0]) info.groups = groups;
  const description = data[BOOTSTRAP_TOKEN_KEYS.description];
  if (description) info.description = description;
  return info;
}
