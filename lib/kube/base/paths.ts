/**
 * Kubernetes API paths → routes. Pure; the catalog decides later whether a resource exists.
 *
 *   /version /healthz /readyz /livez
 *   /api                          /apis                 /apis/{group}
 *   /api/v1                       /apis/{group}/{version}
 *   /openapi/v3                   /openapi/v3/api/v1    /openapi/v3/apis/{group}/{version}
 *   /api/v1[/namespaces/{ns}]/{plural}[/{name}[/{subresource}]]
 *   /apis/{g}/{v}[/namespaces/{ns}]/{plural}[/{name}[/{subresource}]]
 */

export type Route =
  | { type: 'version' }
  | { type: 'health'; check: 'healthz' | 'readyz' | 'livez' }
  | { type: 'legacy-versions' }
  | { type: 'groups' }
  | { type: 'group'; group: string }
  | { type: 'resource-list'; group: string; version: string }
  | { type: 'openapi-root' }
  | { type: 'openapi-group-version'; group: string; version: string }
  | {
      type: 'resource';
      group: string;
      version: string;
      namespace?: string;
      plural: string;
      name?: string;
      subresource?: string;
    }
  | { type: 'unknown' };

function resourceRoute(group: string, version: string, rest: string[]): Route {
  // rest: [plural] | [plural, name] | [plural, name, sub] | [namespaces, ns, plural, ...]
  if (rest.length === 0) return { type: 'resource-list', group, version };
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const [, namespace, plural, name, subresource, ...extra] = rest;
    // /api/v1/namespaces/{name}/status|finalize are the Namespace's own subresources.
    if (group === '' && (plural === 'status' || plural === 'finalize') && name === undefined) {
      return { type: 'resource', group, version, plural: 'namespaces', name: namespace!, subresource: plural };
    }
    if (extra.length > 0) return { type: 'unknown' };
    return {
      type: 'resource',
      group,
      version,
      namespace: namespace!,
      plural: plural!,
      ...(name !== undefined ? { name } : {}),
      ...(subresource !== undefined ? { subresource } : {}),
    };
  }
  const [plural, name, subresource, ...extra] = rest;
  if (extra.length > 0) return { type: 'unknown' };
  return {
    type: 'resource',
    group,
    version,
    plural: plural!,
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}

/** A path's non-empty segments, each percent-decoded (kept as sent when its escape is malformed). */
export function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
}

export function parsePath(path: string): Route {
  const parts = pathSegments(path);
  const [first, second, third, ...rest] = parts;
  switch (first) {
    case 'version':
      return parts.length === 1 ? { type: 'version' } : { type: 'unknown' };
    case 'healthz':
    case 'readyz':
    case 'livez':
      return { type: 'health', check: first };
    case 'api':
      if (second === undefined) return { type: 'legacy-versions' };
      return resourceRoute(
        '',
        second,
        [third, ...rest].filter((p): p is string => p !== undefined),
      );
    case 'apis':
      if (second === undefined) return { type: 'groups' };
      if (third === undefined) return { type: 'group', group: second };
      return resourceRoute(second, third, rest);
    case 'openapi':
      if (second !== 'v3') return { type: 'unknown' };
      if (third === undefined) return { type: 'openapi-root' };
      if (third === 'api' && rest.length === 1) return { type: 'openapi-group-version', group: '', version: rest[0]! };
      if (third === 'apis' && rest.length === 2)
        return { type: 'openapi-group-version', group: rest[0]!, version: rest[1]! };
      return { type: 'unknown' };
    default:
      return { type: 'unknown' };
  }
}

/** The URL path of a collection or an object. */
export function resourcePath(
  def: { group: string; version: string; plural: string },
  namespace?: string,
  name?: string,
): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${def.plural}${name ? `/${encodeURIComponent(name)}` : ''}`;
}
