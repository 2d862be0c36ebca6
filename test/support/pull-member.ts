/**
 * What the e2e tests that run a Pull member share: a simulated member started outside the local
 * plane (it serves its own HTTPS, as an edge cluster would), the register command `skctl token
 * create --print-register-command` prints, and an agent with Karmada's timing flags shortened.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentConfig, PullAgent } from '../../lib/agent/agent.ts';
import { systemClock } from '../../lib/clock/clock.ts';
import { runToken } from '../../lib/cli/token.ts';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import { MemberClient } from '../../lib/members/client.ts';
import { createLogger } from '../../lib/observability/logger.ts';
import { ensureLocalPki, tlsServerOptions } from '../../lib/pki/index.ts';
import { defaultSimulation } from '../../lib/sim/config.ts';
import { SimulatedMember } from '../../lib/sim/member.ts';

/** A simulated member of its own (its own CA and port), for registering in Pull mode; `stop` removes its files. */
export async function startEdgeMember(
  name: string,
  place: { region: string; zones: string[] },
): Promise<{ member: SimulatedMember; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const pki = await ensureLocalPki(join(dir, 'pki'), { now: Date.now() });
  const member = await SimulatedMember.start({
    config: { ...defaultSimulation(1).members[0]!, name, ...place },
    timings: { podStartupMs: 50, jobDurationMs: 100 },
    clock: systemClock,
    tls: tlsServerOptions(pki),
    caCertPem: pki.ca.certPem,
    port: 0,
    kubeconfigPath: join(dir, `${name}.kubeconfig`),
  });
  return {
    member,
    async stop() {
      await member.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A client for the member's API, as its agent reaches it (its CA from its kubeconfig). */
export function memberClientOf(member: SimulatedMember): MemberClient {
  const config = readFileSync(member.kubeconfig, 'utf8');
  const caPem = Buffer.from(/certificate-authority-data: (\S+)/.exec(config)![1]!, 'base64').toString('utf8');
  return new MemberClient({ server: member.url, caPem, token: member.token });
}

/** The command `skctl token create --print-register-command` prints, and its flags' values. */
export async function registerCommand(rt: LocalRuntime): Promise<{ text: string; arg(flag: string): string }> {
  const out: string[] = [];
  const code = await runToken(['create', '--print-register-command', '--karmada-kubeconfig', rt.kubeconfig], {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  const text = out.join('\n');
  assert.equal(code, 0, text);
  return { text, arg: (flag) => new RegExp(`${flag} (\\S+)`).exec(text)![1]! };
}

/** A Pull agent for `member` with the e2e timings (status and lease every 500 ms, thresholds 1 s). */
export function e2eAgent(config: AgentConfig, member: MemberClient): PullAgent {
  return new PullAgent({
    config,
    member,
    clock: systemClock,
    logger: createLogger({ format: 'json', level: 'SILENT', service: 'agent', write: () => {} }),
    timings: { statusUpdateFrequencyMs: 500, leaseRenewMs: 500, successThresholdMs: 1_000, failureThresholdMs: 1_000 },
  });
}
