/** `skctl join`: joins a member cluster in Push mode, as `karmadactl join` does. */
import { joinPushCluster } from '../members/join.ts';
import { parseFlags, UsageError } from './args.ts';
import { CONTROL_PLANE_FLAGS, controlPlane, type Io, one, serverError, zones } from './cluster-command.ts';
import { memberConnectionFromKubeconfig } from './member-kubeconfig.ts';

export const JOIN_HELP = `Join a member cluster in Push mode: the control plane reaches it with the given credentials.

Usage: skctl join <name> --kubeconfig <member kubeconfig> [flags]

Flags:
  --kubeconfig <path>          the member cluster's kubeconfig (its credentials are sealed by the control plane)
  --context <name>             a context of that kubeconfig other than the current one
  --karmada-kubeconfig <path>  the control plane's kubeconfig (default: $KUBECONFIG, .skctl/kubeconfig, ~/.kube/config)
  --karmada-context <name>     a context of that kubeconfig
  --cluster-provider, --cluster-region <text>, --cluster-zones <a,b>   the Cluster's topology
`;

export async function runJoin(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags('join', args, {
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    ...CONTROL_PLANE_FLAGS,
    'cluster-provider': { type: 'string' },
    'cluster-region': { type: 'string' },
    'cluster-zones': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(JOIN_HELP);
    return 0;
  }
  const name = one(positionals, 'cluster name', 'join');
  if (!values.kubeconfig) throw new UsageError('skctl join: --kubeconfig <member kubeconfig> is required');
  const member = memberConnectionFromKubeconfig(String(values.kubeconfig), values.context as string | undefined);
  try {
    await joinPushCluster(controlPlane(values), {
      name,
      member,
      ...(values['cluster-provider'] ? { provider: String(values['cluster-provider']) } : {}),
      ...(values['cluster-region'] ? { region: String(values['cluster-region']) } : {}),
      ...(zones(values['cluster-zones']) ? { zones: zones(values['cluster-zones'])! } : {}),
    });
  } catch (err) {
    return serverError(io, err);
  }
  io.out(`cluster(${name}) is joined successfully`);
  return 0;
}
