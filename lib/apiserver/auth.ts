/**
 * Bearer-token authentication and a small authorization model.
 *
 * Tokens look like `skt_<id>_<secret>`. Only a SHA-256 of the secret is stored (as an internal
 * object, never served by the API), looked up by id, and compared in constant time; the plaintext
 * exists once, when the token is created. Authorization is by group: `system:masters` may do
 * anything, `serverless-karmada:viewers` may read (as Kubernetes' `view` role: no Secrets, no exec or
 * proxy into workloads), and every authenticated user may read discovery.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { CLUSTER_GROUP } from '../api/karmada-names.ts';
import type { KubeObject } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import { bearerToken, type KubeRequest } from '../kube/base/http.ts';
import type { RequestAttributes, UserInfo } from '../kube/rest/index.ts';
import type { ObjectStore } from '../store/port.ts';

/** Internal kind holding token hashes; not in any served catalog. */
export const TOKEN_GROUP = 'auth.serverless-karmada.io';
export const TOKEN_KIND = 'ApiToken';
export const ADMIN_GROUP = 'system:masters';
export const VIEWER_GROUP = 'serverless-karmada:viewers';

const TOKEN_FORMAT = /^skt_([a-z0-9]{10})_([A-Za-z0-9_-]{32,})$/;

export interface TokenSpec {
  user: string;
  groups: string[];
  /** Hex SHA-256 of the secret part. */
  secretHash: string;
  /** ISO time after which the token is refused. */
  expires?: string;
}

export interface IssuedToken {
  id: string;
  token: string;
  user: string;
  groups: string[];
}

function hash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Issues a token and stores its hash. The returned plaintext is not kept anywhere. */
export async function issueToken(
  store: ObjectStore,
  input: { user: string; groups: string[]; expires?: string; description?: string },
): Promise<IssuedToken> {
  const id = randomBytes(16)
    .toString('hex')
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 10)
    .padEnd(10, '0');
  const secret = randomBytes(32).toString('base64url');
  const spec: TokenSpec = {
    user: input.user,
    groups: input.groups,
    secretHash: hash(secret),
    ...(input.expires ? { expires: input.expires } : {}),
  };
  await store.create({
    apiVersion: `${TOKEN_GROUP}/v1`,
    kind: TOKEN_KIND,
    metadata: { name: id, ...(input.description ? { annotations: { description: input.description } } : {}) },
    spec,
  });
  return { id, token: `skt_${id}_${secret}`, user: input.user, groups: input.groups };
}

/**
 * Authenticates `Authorization: Bearer skt_...` against stored hashes, caching verified tokens for
 * a few seconds so a burst of kubectl requests costs one read.
 */
export class TokenAuthenticator {
  readonly #store: ObjectStore;
  readonly #clock: Clock;
  readonly #cache = new Map<string, { user: UserInfo; until: number }>();
  readonly #ttlMs: number;

  constructor(store: ObjectStore, clock: Clock, options: { cacheTtlMs?: number } = {}) {
    this.#store = store;
    this.#clock = clock;
    this.#ttlMs = options.cacheTtlMs ?? 10_000;
  }

  async authenticate(req: KubeRequest): Promise<UserInfo | undefined> {
    const token = bearerToken(req.headers.authorization);
    return token === undefined ? undefined : this.verify(token);
  }

  /** The user a token authenticates as, or undefined when it is unknown, wrong or expired. */
  async verify(token: string): Promise<UserInfo | undefined> {
    const now = this.#clock.now();
    const cached = this.#cache.get(token);
    if (cached && cached.until > now) return cached.user;
    const m = TOKEN_FORMAT.exec(token);
    if (!m) return undefined;
    const stored = await this.#store.get({ group: TOKEN_GROUP, kind: TOKEN_KIND, name: m[1]! });
    const spec = (stored as (KubeObject & { spec?: TokenSpec }) | undefined)?.spec;
    if (!spec) return undefined;
    const expected = Buffer.from(spec.secretHash, 'hex');
    const actual = Buffer.from(hash(m[2]!), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
    if (spec.expires && Date.parse(spec.expires) <= now) return undefined;
    const user: UserInfo = { name: spec.user, groups: [...spec.groups, 'system:authenticated'] };
    this.#cache.set(token, { user, until: now + this.#ttlMs });
    return user;
  }
}

const READ_VERBS = new Set(['get', 'list', 'watch']);

/**
 * The subresources a viewer may read, as Kubernetes' `view` role grants them: an object's `status`
 * and `scale`, a pod's `log`. The others reach into a workload or a node rather than read an object
 * (`pods/exec`, `pods/attach`, `pods/portforward`, `pods|services|nodes/proxy`, an aggregated API's
 * consoles), and a GET is enough for several of them.
 */
const VIEWER_SUBRESOURCES = new Set(['status', 'scale', 'log']);

/**
 * Non-resource paths every authenticated user may GET: Kubernetes' `system:discovery` and
 * `system:public-info-viewer` roles (`/api/*` and `/apis/*` reach here only as discovery: deeper paths
 * are resource requests).
 */
export function isDiscoveryPath(path: string): boolean {
  return (
    ['/api', '/apis', '/healthz', '/livez', '/readyz', '/version', '/version/', '/openapi'].includes(path) ||
    ['/api/', '/apis/', '/openapi/'].some((prefix) => path.startsWith(prefix))
  );
}

/** `true`, or why the request is denied. */
export function authorize(user: UserInfo, attrs: RequestAttributes): true | string {
  if (user.groups.includes(ADMIN_GROUP)) return true;
  if (attrs.path !== undefined) {
    // Only the proxies ask (for what they forward to a member): /metrics, /logs, /debug/pprof … are
    // an administrator's.
    if (attrs.verb === 'get' && isDiscoveryPath(attrs.path)) return true;
    return 'only discovery, version, health and OpenAPI paths are open to users who are not administrators';
  }
  if (user.groups.includes(VIEWER_GROUP)) {
    // As Kubernetes' `view` role: no Secrets (bootstrap tokens live there, and they register clusters).
    if (attrs.group === '' && attrs.resource === 'secrets') return 'viewers may not read secrets';
    // The cluster proxy itself is open to viewers: the request it carries is authorized on its own.
    const clusterProxy =
      attrs.group === CLUSTER_GROUP && attrs.resource === 'clusters' && attrs.subresource === 'proxy';
    if (attrs.subresource !== undefined && !VIEWER_SUBRESOURCES.has(attrs.subresource) && !clusterProxy) {
      return `viewers may read an object's status, scale and log, not ${attrs.resource}/${attrs.subresource}`;
    }
    if (READ_VERBS.has(attrs.verb)) return true;
    return 'viewers may only get and list';
  }
  return 'no role grants this request';
}
