/** `skctl agent`: runs the Pull-mode agent of a registered member cluster until Ctrl-C. */
import { existsSync, readFileSync } from 'node:fs';
import { PullAgent, type AgentConfig } from '../agent/agent.ts';
import { systemClock } from '../clock/clock.ts';
import { MemberClient, type MemberConnection } from '../members/client.ts';
import { createLogger } from '../observability/logger.ts';
import { durationFlag, parseFlags, UsageError } from './args.ts';
import type { Io } from './cluster-command.ts';
import { memberConnectionFromKubeconfig } from './member-kubeconfig.ts';

export const AGENT_HELP = `Run the Pull-mode agent for a registered member cluster until Ctrl-C.

Usage: skctl agent --config <path> [--kubeconfig <member kubeconfig>] [--context <name>]

The config (written by skctl register, mode 0600) holds the control plane's address, its CA and the
cluster's credential. Without --kubeconfig the agent uses the in-cluster service account.

Flags:
  --cluster-status-update-frequency <duration>   how often status is reported (default 10s)
  --cluster-lease-renew-interval <duration>      how often the lease is renewed (default 10s)
  --cluster-success-threshold, --cluster-failure-threshold <duration>   Ready smoothing (default 30s)
`;

/** The member connection of the agent: a kubeconfig, or the in-cluster service account. */
export function agentMember(values: Record<string, unknown>): MemberConnection {
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

/** Runs the agent until stop is requested; returns the exit code. */
export async function runAgentLoop(
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

/** Karmada's agent timing flags (same names). */
export const AGENT_TIMING_FLAGS = {
  'cluster-status-update-frequency': { type: 'string' },
  'cluster-lease-renew-interval': { type: 'string' },
  'cluster-success-threshold': { type: 'string' },
  'cluster-failure-threshold': { type: 'string' },
} as const;

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
