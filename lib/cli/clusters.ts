/**
 * skctl's member-cluster commands, as karmadactl's: `join` / `unjoin` (Push), `token` (bootstrap
 * tokens), `register` (Pull, then runs the agent) and `agent` (the Pull agent itself).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PullAgent, type AgentConfig } from '../agent/agent.ts';
import { registerPullCluster, RegistrationError } from '../agent/register.ts';
import type { KubeObject } from '../api/object.ts';
import { systemClock } from '../clock/clock.ts';
import { MemberClient, type MemberConnection } from '../members/client.ts';
import { JoinError, joinPushCluster, unjoinCluster } from '../members/join.ts';
import { createLogger } from '../observability/logger.ts';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
  bootstrapTokenSecret,
  bootstrapTokenSecretName,
  generateBootstrapToken,
  readBootstrapTokenSecret,
} from '../registration/bootstrap-token.ts';
import { caCertHash } from '../registration/ca-pin.ts';
import { durationFlag, parseFlags, UsageError } from './args.ts';
import { formatTable } from './get.ts';
import { KubeApiError, KubeClient, kubeconfigPath } from './kube-client.ts';
import { memberConnectionFromKubeconfig } from './member-kubeconfig.ts';
import { agentCredentialSecretName, CREDENTIALS_NAMESPACE } from '../members/credentials.ts';

export const JOIN_HELP = `Join a member cluster in Push mode: the control plane reaches it with the given credentials.

Usage: skctl join <name> --kubeconfig <member kubeconfig> [flags]

Flags:
  --kubeconfig <path>          the member cluster's kubeconfig (its credentials are sealed by the control plane)
  --context <name>             a context of that kubeconfig other than the current one
  --karmada-kubeconfig <path>  the control plane's kubeconfig (default: $KUBECONFIG, .skctl/kubeconfig, ~/.kube/config)
  --karmada-context <name>     a context of that kubeconfig
  --cluster-provider, --cluster-region <text>, --cluster-zones <a,b>   the Cluster's topology
`;

export const UNJOIN_HELP = `Remove a member cluster (Push or Pull) and its credentials.

Usage: skctl unjoin <name> [--karmada-kubeconfig <path>] [--karmada-context <name>]
`;

export const TOKEN_HELP = `Manage bootstrap tokens for Pull registration.

Usage:
  skctl token create [--ttl 24h] [--description <text>] [--print-register-command]
  skctl token list
  skctl token delete <token id or token>

Flags:
  --ttl <duration>           lifetime (default 24h; 0 = never expires)
  --print-register-command   print the skctl register command a member runs
  --karmada-kubeconfig <path>, --karmada-context <name>   the control plane's kubeconfig
`;

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

export const AGENT_HELP = `Run the Pull-mode agent for a registered member cluster until Ctrl-C.

Usage: skctl agent --config <path> [--kubeconfig <member kubeconfig>] [--context <name>]

The config (written by skctl register, mode 0600) holds the control plane's address, its CA and the
cluster's credential. Without --kubeconfig the agent uses the in-cluster service account.

Flags:
  --cluster-status-update-frequency <duration>   how often status is reported (default 10s)
  --cluster-lease-renew-interval <duration>      how often the lease is renewed (default 10s)
  --cluster-success-threshold, --cluster-failure-threshold <duration>   Ready smoothing (default 30s)
`;

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  stopRequested?: Promise<void>;
}

const CONTROL_PLANE_FLAGS = {
  'karmada-kubeconfig': { type: 'string' },
  'karmada-context': { type: 'string' },
} as const;

function controlPlane(values: Record<string, unknown>): KubeClient {
  return new KubeClient(
    kubeconfigPath(values['karmada-kubeconfig'] as string | undefined),
    values['karmada-context'] as string | undefined,
  );
}

function zones(value: unknown): string[] | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  return value
    .split(',')
    .map((z) => z.trim())
    .filter(Boolean);
}

function one(positionals: string[], what: string, command: string): string {
  if (positionals.length !== 1)
    throw new UsageError(`skctl ${command}: give exactly one ${what}\n  see: skctl ${command} --help`);
  return positionals[0]!;
}

/** Prints a KubeApiError as kubectl does; returns the exit code. */
function serverError(io: Io, err: unknown): number {
  if (err instanceof KubeApiError) {
    io.err(
      err.code === 401
        ? 'error: You must be logged in to the server (Unauthorized)'
        : `Error from server (${err.reason}): ${err.message}`,
    );
    return 1;
  }
  if (err instanceof JoinError || err instanceof RegistrationError) {
    io.err(`error: ${err.message}`);
    return 1;
  }
  throw err;
}

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

export async function runToken(args: string[], io: Io): Promise<number> {
  const [verb, ...rest] = args;
  const { values, positionals } = parseFlags('token', rest, {
    ttl: { type: 'string' },
    description: { type: 'string' },
    'print-register-command': { type: 'boolean' },
    ...CONTROL_PLANE_FLAGS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help || verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    io.out(TOKEN_HELP);
    return 0;
  }
  const api = controlPlane(values);
  const secretsPath = `/api/v1/namespaces/${BOOTSTRAP_TOKEN_NAMESPACE}/secrets`;
  try {
    switch (verb) {
      case 'create': {
        const ttlMs = durationFlag('token', 'ttl', values.ttl, 24 * 3_600_000)!;
        const token = generateBootstrapToken();
        await api.send(
          'POST',
          secretsPath,
          bootstrapTokenSecret({
            id: token.id,
            secret: token.secret,
            nowMs: Date.now(),
            ttlMs,
            ...(values.description ? { description: String(values.description) } : {}),
          }),
        );
        if (!values['print-register-command']) {
          io.out(token.token);
          return 0;
        }
        const info = (await api.get(`/api/v1/namespaces/kube-public/configmaps/cluster-info`)) as KubeObject;
        const kubeconfig = (info.data as Record<string, string> | undefined)?.kubeconfig ?? '';
        const caData = /certificate-authority-data:\s*(\S+)/.exec(kubeconfig)?.[1];
        const hash = caData
          ? ` --discovery-token-ca-cert-hash ${caCertHash(Buffer.from(caData, 'base64').toString('utf8'))}`
          : '';
        io.out(
          `skctl register ${api.server.host} --token ${token.token}${hash} --cluster-name <name> --kubeconfig <member kubeconfig>`,
        );
        return 0;
      }
      case 'list': {
        const list = (await api.get(secretsPath)) as { items: KubeObject[] };
        const now = Date.now();
        const tokens = list.items
          .filter((s) => (s as { type?: string }).type === BOOTSTRAP_TOKEN_SECRET_TYPE)
          .map((s) => readBootstrapTokenSecret(s, now))
          .filter((t) => t !== undefined);
        if (tokens.length === 0) {
          io.err('No bootstrap tokens found');
          return 0;
        }
        const lines = formatTable({
          kind: 'Table',
          columnDefinitions: ['Token', 'TTL', 'Expires', 'Usages', 'Description', 'Extra Groups'].map((name) => ({
            name,
            type: 'string',
            priority: 0,
          })),
          rows: tokens.map((t) => ({
            cells: [
              `${t.id}.${t.secret}`,
              t.expiresMs === undefined
                ? '<forever>'
                : t.expired
                  ? '<invalid>'
                  : `${Math.round((t.expiresMs - now) / 3_600_000)}h`,
              t.expiresMs === undefined ? '<never>' : new Date(t.expiresMs).toISOString().replace('.000Z', 'Z'),
              t.usages.join(','),
              t.description ?? '<none>',
              t.groups.join(','),
            ],
          })),
        });
        for (const l of lines) io.out(l);
        return 0;
      }
      case 'delete': {
        const target = one(positionals, 'token id or token', 'token delete');
        const id = target.split('.')[0]!;
        await api.send('DELETE', `${secretsPath}/${bootstrapTokenSecretName(id)}`);
        io.out(`bootstrap token "${id}" deleted`);
        return 0;
      }
      default:
        throw new UsageError(`skctl token: unknown subcommand ${JSON.stringify(verb)}\n\n${TOKEN_HELP}`);
    }
  } catch (err) {
    return serverError(io, err);
  }
}

/** The member connection of the agent: a kubeconfig, or the in-cluster service account. */
function agentMember(values: Record<string, unknown>): MemberConnection {
  if (values.kubeconfig)
    return memberConnectionFromKubeconfig(String(values.kubeconfig), values.context as string | undefined);
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const sa = '/var/run/secrets/kubernetes.io/serviceaccount';
  if (!host || !existsSync(`${sa}/token`)) {
    throw new UsageError('pass --kubeconfig <member kubeconfig> (not running inside a cluster with a service account)');
  }
  const port = process.env.KUBERNETES_SERVICE_PORT ?? '443';
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    token: readFileSync(`${sa}/token`, 'utf8').trim(),
    caPem: readFileSync(`${sa}/ca.crt`, 'utf8'),
  };
}

async function runAgentLoop(
  config: AgentConfig,
  member: MemberConnection,
  values: Record<string, unknown>,
  io: Io,
): Promise<number> {
  const logger = createLogger({
    format: 'text',
    level: 'INFO',
    service: 'agent',
    persistentKeys: { cluster: config.cluster },
  });
  const client = new MemberClient(member);
  const agent = new PullAgent({
    config,
    member: client,
    clock: systemClock,
    logger,
    timings: {
      ...(values['cluster-status-update-frequency']
        ? {
            statusUpdateFrequencyMs: durationFlag(
              'agent',
              'cluster-status-update-frequency',
              values['cluster-status-update-frequency'],
            )!,
          }
        : {}),
      ...(values['cluster-lease-renew-interval']
        ? {
            leaseRenewMs: durationFlag(
              'agent',
              'cluster-lease-renew-interval',
              values['cluster-lease-renew-interval'],
            )!,
          }
        : {}),
      ...(values['cluster-success-threshold']
        ? {
            successThresholdMs: durationFlag(
              'agent',
              'cluster-success-threshold',
              values['cluster-success-threshold'],
            )!,
          }
        : {}),
      ...(values['cluster-failure-threshold']
        ? {
            failureThresholdMs: durationFlag(
              'agent',
              'cluster-failure-threshold',
              values['cluster-failure-threshold'],
            )!,
          }
        : {}),
    },
  });
  try {
    await agent.start();
  } catch (err) {
    client.close();
    io.err(`error: the agent could not reach the control plane: ${(err as Error).message}`);
    return 1;
  }
  io.out(`agent for cluster ${config.cluster} is running against ${config.server}. Press Ctrl-C to stop.`);
  await (io.stopRequested ?? new Promise<void>(() => {}));
  await agent.stop();
  client.close();
  io.out('agent stopped');
  return 0;
}

const AGENT_TIMING_FLAGS = {
  'cluster-status-update-frequency': { type: 'string' },
  'cluster-lease-renew-interval': { type: 'string' },
  'cluster-success-threshold': { type: 'string' },
  'cluster-failure-threshold': { type: 'string' },
} as const;

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

export async function runAgent(args: string[], io: Io): Promise<number> {
  const { values } = parseFlags('agent', args, {
    config: { type: 'string' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    ...AGENT_TIMING_FLAGS,
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(AGENT_HELP);
    return 0;
  }
  if (!values.config) throw new UsageError('skctl agent: --config <path> (written by skctl register) is required');
  let stored: AgentConfig & { kubeconfig?: string };
  try {
    stored = JSON.parse(readFileSync(String(values.config), 'utf8')) as AgentConfig & { kubeconfig?: string };
  } catch (err) {
    throw new UsageError(`skctl agent: cannot read --config ${String(values.config)}: ${(err as Error).message}`);
  }
  if (!stored.server || !stored.cluster || !stored.credential) {
    throw new UsageError(`skctl agent: ${String(values.config)} is not an agent config (written by skctl register)`);
  }
  // The kubeconfig recorded at registration, if it exists here (not inside a pod, where the service account is used).
  const recorded = stored.kubeconfig && existsSync(stored.kubeconfig) ? stored.kubeconfig : undefined;
  const member = agentMember({ ...values, kubeconfig: values.kubeconfig ?? recorded });
  return runAgentLoop(stored, member, values, io);
}
