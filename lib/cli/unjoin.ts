/** `skctl unjoin`: removes a member cluster (Push or Pull) and its credentials, as `karmadactl unjoin` does. */
import { unjoinCluster } from '../members/join.ts';
import { agentCredentialSecretName, CREDENTIALS_NAMESPACE } from '../members/credentials.ts';
import { parseFlags } from './args.ts';
import { CONTROL_PLANE_FLAGS, controlPlane, type Io, one, serverError } from './cluster-command.ts';
import { KubeApiError } from './kube-client.ts';

export const UNJOIN_HELP = `Remove a member cluster (Push or Pull) and its credentials.

Usage: skctl unjoin <name> [--karmada-kubeconfig <path>] [--karmada-context <name>]
`;

export async function runUnjoin(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags('unjoin', args, {
    ...CONTROL_PLANE_FLAGS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(UNJOIN_HELP);
    return 0;
  }
  const name = one(positionals, 'cluster name', 'unjoin');
  try {
    const api = controlPlane(values);
    await unjoinCluster(api, name);
    // A Pull cluster's agent credential goes too.
    await api
      .send('DELETE', `/api/v1/namespaces/${CREDENTIALS_NAMESPACE}/secrets/${agentCredentialSecretName(name)}`)
      .catch((err: unknown) => {
        if (!(err instanceof KubeApiError && err.code === 404)) throw err;
      });
  } catch (err) {
    return serverError(io, err);
  }
  io.out(`cluster(${name}) is unjoined successfully`);
  return 0;
}
