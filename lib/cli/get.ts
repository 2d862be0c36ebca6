/**
 * `skctl get`: kubectl's `get` for the resources of a Serverless Karmada control plane (or any
 * Kubernetes API): the server's own Table columns, `-o wide|yaml|json|name`, label and field
 * selectors, one or all namespaces.
 */
import { stringify } from 'yaml';
import { parseFlags, UsageError } from './args.ts';
import { collectionPath, type DiscoveredResource, KubeApiError, KubeClient, kubeconfigPath } from './kube-client.ts';

export const GET_HELP = `Display one or many resources, as kubectl get does.

Usage:
  skctl get <type>[,<type>...] [<name>...] [flags]
  skctl get <type>/<name> [flags]

Examples:
  skctl get deployments
  skctl get pp -A
  skctl get deploy nginx -o yaml
  skctl get rb -l app=nginx -o wide
  skctl get clusters --kubeconfig ~/.kube/karmada.config

Flags:
  -n, --namespace <ns>       the namespace (default: the context's, else default)
  -A, --all-namespaces       list across every namespace
  -l, --selector <sel>       label selector, e.g. app=nginx,tier!=cache
      --field-selector <sel> field selector, e.g. metadata.name=nginx
  -o, --output <format>      wide, yaml, json or name (default: a table)
      --no-headers           leave out the table header
      --kubeconfig <path>    the kubeconfig (default: $KUBECONFIG, .skctl/kubeconfig, ~/.kube/config)
      --context <name>       a context of the kubeconfig other than the current one
`;

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const OUTPUTS = ['wide', 'yaml', 'json', 'name'] as const;

interface Table {
  kind: 'Table';
  columnDefinitions: { name: string; type: string; priority: number }[];
  rows: { cells: unknown[]; object?: { metadata?: { namespace?: string; name?: string } } }[];
}

interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
}

/** Formats a server Table the way kubectl prints it (columns padded by three spaces). */
export function formatTable(
  table: Table,
  options: { wide?: boolean; namespaceColumn?: boolean; headers?: boolean; namePrefix?: string } = {},
): string[] {
  const shown = table.columnDefinitions
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => options.wide || (c.priority ?? 0) === 0);
  const nameIndex = table.columnDefinitions.findIndex((c) => c.name === 'Name');
  const grid: string[][] = [];
  if (options.headers !== false) {
    grid.push([...(options.namespaceColumn ? ['NAMESPACE'] : []), ...shown.map(({ c }) => c.name.toUpperCase())]);
  }
  for (const row of table.rows) {
    grid.push([
      ...(options.namespaceColumn ? [row.object?.metadata?.namespace ?? ''] : []),
      ...shown.map(({ i }) => {
        const text = cellText(row.cells[i]);
        return i === nameIndex && options.namePrefix ? `${options.namePrefix}${text}` : text;
      }),
    ]);
  }
  const widths = grid[0]?.map((_, col) => Math.max(...grid.map((r) => r[col]!.length))) ?? [];
  return grid.map((r) =>
    r
      .map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]! + 3)))
      .join('')
      .trimEnd(),
  );
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '<none>';
  if (typeof cell === 'object') return JSON.stringify(cell);
  return String(cell);
}

/** `deployment.apps` — the prefix kubectl puts before names (`-o name`, several types). */
export function qualifiedKind(r: Pick<DiscoveredResource, 'kind' | 'group'>): string {
  return r.group ? `${r.kind.toLowerCase()}.${r.group}` : r.kind.toLowerCase();
}

interface Request {
  resource: string;
  names: string[];
}

/** Splits `deploy,pp nginx` and `deploy/nginx pp/x` into requests per type. */
export function parseTargets(positionals: string[]): Request[] {
  if (positionals.length === 0) {
    throw new UsageError(
      'skctl get: say what to get, e.g. "skctl get deployments" or "skctl get pp nginx-propagation"\n  see: skctl get --help',
    );
  }
  if (positionals.some((p) => p.includes('/'))) {
    const out: Request[] = [];
    for (const p of positionals) {
      const [resource, name, ...extra] = p.split('/');
      if (!resource || !name || extra.length) {
        throw new UsageError(
          `skctl get: ${JSON.stringify(p)}: use <type>/<name> for every argument once one has a slash`,
        );
      }
      const existing = out.find((r) => r.resource === resource);
      if (existing) existing.names.push(name);
      else out.push({ resource, names: [name] });
    }
    return out;
  }
  const [types, ...names] = positionals;
  const resources = types!.split(',').filter(Boolean);
  if (names.length && resources.length > 1) {
    throw new UsageError('skctl get: names can follow only one type; use <type>/<name> to name several types');
  }
  return resources.map((resource) => ({ resource, names }));
}

/**
 * GETs `path`, following `continue` tokens for a collection (pages of 500, as kubectl does) and
 * joining the pages' `rows` (Table) or `items` (list). A single object is one request.
 */
async function getPaged(
  client: KubeClient,
  path: string,
  query: URLSearchParams,
  accept: string,
  field: 'rows' | 'items',
): Promise<unknown> {
  let first: Record<string, unknown> | undefined;
  let token: string | undefined;
  do {
    const q = new URLSearchParams(query);
    q.set('limit', '500');
    if (token) q.set('continue', token);
    const page = (await client.get(`${path}?${q}`, accept)) as Record<string, unknown> & {
      metadata?: { continue?: string };
    };
    if (!Array.isArray(page[field])) return page; // a single object
    if (first) (first[field] as unknown[]).push(...(page[field] as unknown[]));
    else first = page;
    token = page.metadata?.continue || undefined;
  } while (token);
  return first;
}

export async function runGet(
  args: string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseFlags('get', args, {
    namespace: { type: 'string', short: 'n' },
    'all-namespaces': { type: 'boolean', short: 'A' },
    selector: { type: 'string', short: 'l' },
    'field-selector': { type: 'string' },
    output: { type: 'string', short: 'o' },
    'no-headers': { type: 'boolean' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    out(GET_HELP);
    return 0;
  }
  const output = (values.output as string | undefined) ?? 'table';
  if (output !== 'table' && !(OUTPUTS as readonly string[]).includes(output)) {
    throw new UsageError(`skctl get: --output must be one of ${OUTPUTS.join(', ')}, got ${JSON.stringify(output)}`);
  }
  const requests = parseTargets(positionals);
  const client = new KubeClient(kubeconfigPath(values.kubeconfig as string | undefined), values.context as string);
  const allNamespaces = Boolean(values['all-namespaces']);
  const namespace = allNamespaces ? undefined : ((values.namespace as string | undefined) ?? client.namespace);
  const query = new URLSearchParams();
  if (values.selector) query.set('labelSelector', String(values.selector));
  if (values['field-selector']) query.set('fieldSelector', String(values['field-selector']));

  const objects: KubeObjectLike[] = [];
  const blocks: string[][] = [];
  let failed = false;
  let found = 0;
  let namespaced = false;
  const several = requests.length > 1;
  for (const request of requests) {
    let resource: DiscoveredResource;
    try {
      resource = await client.resolve(request.resource);
    } catch (e) {
      if (!(e instanceof KubeApiError)) throw e;
      // Discovery failed: say it as kubectl does.
      if (e.code === 401) err('error: You must be logged in to the server (Unauthorized)');
      else if (e.code === 404) err(`error: ${e.message}`);
      else err(`Error from server (${e.reason}): ${e.message}`);
      failed = true;
      continue;
    }
    if (allNamespaces && request.names.length) {
      throw new UsageError('skctl get: a resource cannot be retrieved by name across all namespaces (drop -A)');
    }
    namespaced ||= resource.namespaced;
    const base = collectionPath(resource, resource.namespaced ? namespace : undefined);
    const paths = request.names.length ? request.names.map((n) => `${base}/${encodeURIComponent(n)}`) : [base];
    for (const path of paths) {
      try {
        if (output === 'table' || output === 'wide') {
          const table = (await getPaged(client, path, query, TABLE_ACCEPT, 'rows')) as Table;
          found += table.rows.length;
          if (table.rows.length === 0) continue;
          blocks.push(
            formatTable(table, {
              wide: output === 'wide',
              namespaceColumn: allNamespaces && resource.namespaced,
              headers: !values['no-headers'] && (blocks.length === 0 || several),
              ...(several ? { namePrefix: `${qualifiedKind(resource)}/` } : {}),
            }),
          );
        } else {
          const answer = (await getPaged(client, path, query, 'application/json', 'items')) as KubeObjectLike & {
            items?: KubeObjectLike[];
          };
          const items = answer.items
            ? answer.items.map((i) => ({ apiVersion: answer.apiVersion, kind: resource.kind, ...i }))
            : [answer];
          found += items.length;
          if (output === 'name') for (const i of items) out(`${qualifiedKind(resource)}/${i.metadata?.name}`);
          else objects.push(...items);
        }
      } catch (e) {
        if (!(e instanceof KubeApiError)) throw e;
        err(`Error from server (${e.reason}): ${e.message}`);
        failed = true;
      }
    }
  }
  // Tables of one type continue one another; tables of several types are separated by a blank line.
  if (blocks.length) out((several ? blocks.map((b) => b.join('\n')).join('\n\n') : blocks.flat().join('\n')).trimEnd());
  if (output === 'yaml' || output === 'json') {
    const single = objects.length === 1 && requests.length === 1 && requests[0]!.names.length === 1;
    const doc = single
      ? objects[0]
      : { apiVersion: 'v1', kind: 'List', items: objects, metadata: { resourceVersion: '' } };
    out(output === 'json' ? JSON.stringify(doc, null, 4) : stringify(doc, { sortMapEntries: true }).trimEnd());
  }
  if (found === 0 && !failed && output !== 'yaml' && output !== 'json') {
    err(namespaced && !allNamespaces ? `No resources found in ${namespace} namespace.` : 'No resources found');
  }
  return failed ? 1 : 0;
}
