/** `skctl register`: registers a member cluster in Pull mode, then runs its agent, as `karmadactl register` does. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { AgentConfig } from '../agent/agent.ts';
import { registerPullCluster } from '../agent/register.ts';
import { AGENT_TIMING_FLAGS, agentMember, runAgentLoop } from './agent.ts';
import { parseFlags, UsageError } from './args.ts';
import { type Io, one, serverError, zones } from './cluster-command.ts';

export const REGISTER_HELP = `Register a member cluster in Pull mode and run its agent.

Usage: skctl register <control plane address> --token <token> --discovery-token-ca-cert-hash sha256:<hash> --cluster-name <name> [flags]

Flags:
  --token <token>                                    a bootstrap token (skctl token create)
  --discovery-token-ca-cert-hash sha256:<hash>       pins the control plane's CA (printed with the token)
  --discovery-token-unsafe-skip-ca-verification      trust the CA the control plane names (not recommended)
  --cluster-name <name>                              the Cluster's name
  --kubeconfig <path>, --context <name>              the member cluster (default: in-cluster service account)
  --cluster-provider, --cluster-region, --cluster-zones   the Cluster's topology
  --config <path>                                    where to keep the agent's credential (default .skctl/agents/<name>.json)
  --no-agent                                         register only; run skctl agent --config <path> later
`;

export async function runRegister(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags('register', args, {
    token: { type: 'string' },
    'discovery-token-ca-cert-hash': { type: 'string' },
    'discovery-token-unsafe-skip-ca-verification': { type: 'boolean' },
    'cluster-name': { type: 'string' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    'cluster-provider': { type: 'string' },
    'cluster-region': { type: 'string' },
    'cluster-zones': { type: 'string' },
    config: { type: 'string' },
    'no-agent': { type: 'boolean' },
    ...AGENT_TIMING_FLAGS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(REGISTER_HELP);
    return 0;
  }
  const server = one(positionals, 'control plane address', 'register');
  if (!values.token) throw new UsageError('skctl register: --token is required');
  if (!values['cluster-name']) throw new UsageError('skctl register: --cluster-name is required');
  const name = String(values['cluster-name']);
  const member = agentMember(values);
  let config: AgentConfig;
  try {
    config = await registerPullCluster({
      server,
      token: String(values.token),
      ...(values['discovery-token-ca-cert-hash'] ? { caCertHash: String(values['discovery-token-ca-cert-hash']) } : {}),
      unsafeSkipCaVerification: Boolean(values['discovery-token-unsafe-skip-ca-verification']),
      clusterName: name,
      ...(values['cluster-provider'] ? { provider: String(values['cluster-provider']) } : {}),
      ...(values['cluster-region'] ? { region: String(values['cluster-region']) } : {}),
      ...(zones(values['cluster-zones']) ? { zones: zones(values['cluster-zones'])! } : {}),
    });
  } catch (err) {
    return serverError(io, err);
  }
  const path = resolve(String(values.config ?? join('.skctl', 'agents', `${name}.json`)));
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(
    path,
    JSON.stringify(
      { ...config, ...(values.kubeconfig ? { kubeconfig: resolve(String(values.kubeconfig)) } : {}) },
      null,
      2,
    ),
    { mode: 0o600 },
  );
  io.out(`cluster(${name}) is registered successfully; the agent's credential is in ${path}`);
  if (values['no-agent']) return 0;
  return runAgentLoop(config, member, values, io);
}
