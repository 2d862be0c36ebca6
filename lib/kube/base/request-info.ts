/**
 * What a request asks, as kube-apiserver's authorization reads it (`k8s.io/apiserver`
 * `pkg/endpoints/request/requestinfo.go`): a resource request's verb, group, resource, subresource,
 * namespace and name, or a non-resource path. The proxies authorize what they forward to a member
 * with it, so what is authorized is what the member will serve — not this server's own routing
 * ({@link parsePath}), which knows only the paths this server answers and calls the rest `unknown`:
 *
 *   /api/v1/watch/namespaces/ns/secrets       watch of secrets (legacy watch paths)
 *   /api/v1/namespaces/ns/pods/p/proxy/x/y    pods/proxy (anything after the subresource is its own)
 *   /api/v1/proxy/nodes/n/x                   nodes/proxy (legacy proxy paths; kube's verb `proxy`)
 *   /api/v1/namespaces/ns/pods/p/exec         pods/exec, with the method's verb
 *   /metrics, /logs/x, /apis, /api/v1         non-resource paths
 */
import { ApiError, apiErrors } from './errors.ts';
import { pathSegments } from './paths.ts';
import type { RequestAttributes } from './types.ts';

/** The verb of a method on a resource path before list/watch/deletecollection are told apart. */
const METHOD_VERBS: Readonly<Record<string, RequestAttributes['verb']>> = {
  GET: 'get',
  HEAD: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** The verb of `method` on a named object or subresource (POST there is a create), undefined for none. */
export function methodVerb(method: string): RequestAttributes['verb'] | undefined {
  return Object.hasOwn(METHOD_VERBS, method) ? METHOD_VERBS[method] : undefined;
}

/** `/api/v1/namespaces/<name>/status|finalize` are the Namespace's own subresources. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * The attributes kube-apiserver authorizes for `method` on `path` (as sent, not decoded) with `query`.
 * Throws 405 for a method no Kubernetes verb has, and 400 for a legacy `/watch` or `/proxy` prefix
 * naming nothing (kube-apiserver cannot read those either).
 */
export function requestAttributes(method: string, path: string, query: URLSearchParams): RequestAttributes {
  const named = methodVerb(method);
  if (!named) throw apiErrors.methodNotAllowed(method, path);
  const nonResource: RequestAttributes = { verb: named, group: '', resource: '', path };
  let parts = pathSegments(path);
  // /api, /api/v1, /apis, /apis/g and /apis/g/v are discovery; other prefixes are not resources.
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return nonResource;
  let group = '';
  if (parts[0] === 'apis') {
    if (parts.length < 4) return nonResource;
    group = parts[1]!;
    parts = parts.slice(3);
  } else {
    parts = parts.slice(2);
  }

  // The legacy `/watch/…` and `/proxy/…` prefixes name a verb, the rest of the path what it acts on.
  let special: 'watch' | 'proxy' | undefined;
  if (parts[0] === 'watch' || parts[0] === 'proxy') {
    if (parts.length < 2) {
      throw new ApiError(400, 'BadRequest', `unable to determine kind and namespace from url ${JSON.stringify(path)}`);
    }
    special = parts[0];
    parts = parts.slice(1);
  }
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    // /namespaces/<ns>/<plural>/…, unless it is the Namespace's own subresource.
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  const [resource, name, subresource] = parts;
  let verb = named;
  if (special === 'watch' && named === 'get') verb = 'watch';
  else if (name === undefined && named === 'get') verb = watchRequested(query) ? 'watch' : 'list';
  else if (name === undefined && named === 'delete') verb = 'deletecollection';
  return {
    verb,
    group,
    resource: resource!,
    // kube-apiserver's verb `proxy` on the object is its `proxy` subresource here (the same permission
    // for every role this server has: only administrators reach into a workload).
    ...(special === 'proxy' ? { subresource: 'proxy' } : subresource !== undefined ? { subresource } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/**
 * `?watch=…` as kube-apiserver decodes it into a boolean: present and not `0` or `false` (so
 * `?watch` and `?watch=yes` watch too).
 */
function watchRequested(query: URLSearchParams): boolean {
  const value = query.get('watch');
  return value !== null && value !== '0' && value.toLowerCase() !== 'false';
}
