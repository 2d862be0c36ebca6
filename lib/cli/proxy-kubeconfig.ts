/**
 * `skctl proxy-kubeconfig`: a kubeconfig whose server is the global proxy (every member's objects
 * through one URL, as karmada-search's proxy) or, with `--cluster`, one member's cluster proxy — the
 * same user and CA as the control plane's kubeconfig, only the server URL changes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { GLOBAL_PROXY_PREFIX } from '../search/proxy-paths.ts';
import { isDNS1123Label } from '../util/validation.ts';
import { parseFlags, UsageError } from './args.ts';
import { CONTROL_PLANE_FLAGS, type Io } from './cluster-command.ts';
import { kubeconfigPath } from './kube-client.ts';

export const PROXY_KUBECONFIG_HELP = `Write a kubeconfig that reaches member clusters through the control plane.

Usage:
  skctl proxy-kubeconfig [-o <file>] [--cluster <member>]

Without --cluster, its server is the global proxy
(${GLOBAL_PROXY_PREFIX}): kinds a ResourceRegistry selects are
listed across the clusters it selects, and writes go to the cluster holding the object. With
--cluster, its server is that member's cluster proxy
(/apis/cluster.karmada.io/v1alpha1/clusters/<member>/proxy).

Flags:
  -o, --output <file>        where to write it (default: standard output)
  --cluster <member>         one member's cluster proxy instead of the global proxy
  --karmada-kubeconfig <path>, --karmada-context <name>   the control plane's kubeconfig
`;

interface Kubeconfig {
  clusters?: { name: string; cluster: { server: string } & Record<string, unknown> }[];
  contexts?: { name: string; context: { cluster: string; user: string } & Record<string, unknown> }[];
  users?: { name: string; user: Record<string, unknown> }[];
  'current-context'?: string;
}

export async function runProxyKubeconfig(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags('proxy-kubeconfig', args, {
    output: { type: 'string', short: 'o' },
    cluster: { type: 'string' },
    ...CONTROL_PLANE_FLAGS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(PROXY_KUBECONFIG_HELP);
    return 0;
  }
  if (positionals.length) throw new UsageError(`skctl proxy-kubeconfig: unexpected ${positionals.join(' ')}`);
  const path = kubeconfigPath(values['karmada-kubeconfig'] as string | undefined);
  if (!path) throw new UsageError('skctl proxy-kubeconfig: pass --karmada-kubeconfig (KUBECONFIG lists several files)');
  const config = parse(readFileSync(path, 'utf8')) as Kubeconfig;
  const contextName = (values['karmada-context'] as string | undefined) ?? config['current-context'];
  const context = config.contexts?.find((c) => c.name === contextName);
  const cluster = config.clusters?.find((c) => c.name === context?.context.cluster);
  const user = config.users?.find((u) => u.name === context?.context.user);
  if (!context || !cluster || !user) {
    throw new UsageError(`skctl proxy-kubeconfig: ${path} has no complete context ${JSON.stringify(contextName)}`);
  }
  const member = values.cluster as string | undefined;
  if (member !== undefined && isDNS1123Label(member).length > 0) {
    throw new UsageError(`skctl proxy-kubeconfig: --cluster ${JSON.stringify(member)} is not a cluster name`);
  }
  const suffix = member ? `/apis/cluster.karmada.io/v1alpha1/clusters/${member}/proxy` : GLOBAL_PROXY_PREFIX;
  const name = member ? `${context.name}-${member}` : `${context.name}-proxy`;
  const proxy: Kubeconfig = {
    clusters: [
      { name, cluster: { ...cluster.cluster, server: `${cluster.cluster.server.replace(/\/+$/, '')}${suffix}` } },
    ],
    contexts: [{ name, context: { ...context.context, cluster: name } }],
    users: [user],
    'current-context': name,
  };
  const text = stringify({ apiVersion: 'v1', kind: 'Config', ...proxy });
  if (values.output) {
    writeFileSync(values.output as string, text, { mode: 0o600 });
    io.out(`wrote ${values.output as string}: kubectl --kubeconfig ${values.output as string} get pods -A`);
  } else {
    io.out(text.trimEnd());
  }
  return 0;
}
