/**
 * Simulated members for integration tests: one temporary directory and local CA per test file, members
 * started on it with fast timings (pods start in 30 ms, Jobs run 60 ms), all stopped and the directory
 * removed after the file's tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type Clock, systemClock } from '../../lib/clock/clock.ts';
import { ensureLocalPki, type LocalPki, tlsServerOptions } from '../../lib/pki/index.ts';
import { parseSimulation } from '../../lib/sim/config.ts';
import { SimulatedMember } from '../../lib/sim/member.ts';

/** Registers the file's `before`/`after` hooks; `start` makes a member named `<prefix><n>` (overrides: raw member settings, as in a members file). */
export function simulatedMemberFixture(prefix: string) {
  let dir = '';
  let pki: LocalPki;
  const members: SimulatedMember[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), `sim-${prefix}-test-`));
    pki = await ensureLocalPki(join(dir, 'pki'), { now: Date.now() });
  });
  after(async () => {
    for (const m of members) await m.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** The file's temporary directory (for snapshots and sockets). */
    dir: () => dir,
    /** The local CA the members' certificates come from. */
    pki: () => pki,
    async start(overrides: Record<string, unknown> = {}, snapshot?: string): Promise<SimulatedMember> {
      const sim = parseSimulation({
        members: [
          { name: `${prefix}${members.length}`, region: 'us-east-1', zones: ['us-east-1a'], nodes: 2, ...overrides },
        ],
        podStartupMs: 30,
        jobDurationMs: 60,
      });
      const member = await SimulatedMember.start({
        config: sim.members[0]!,
        timings: { podStartupMs: sim.podStartupMs, jobDurationMs: sim.jobDurationMs },
        clock: systemClock,
        tls: tlsServerOptions(pki),
        caCertPem: pki.ca.certPem,
        port: 0,
        kubeconfigPath: join(dir, `${sim.members[0]!.name}.kubeconfig`),
        ...(snapshot ? { snapshotPath: snapshot } : {}),
      });
      members.push(member);
      return member;
    },
  };
}

/**
 * A member answering in this process through its API handler (no server, no TLS): `m1`, one node in
 * us-east-1a, fast timings, bearer token `member-token` (`member.client(...)` reaches it).
 */
export function inProcessMember(clock: Clock = systemClock): Promise<SimulatedMember> {
  return SimulatedMember.inProcess({
    config: {
      name: 'm1',
      region: 'us-east-1',
      zones: ['us-east-1a'],
      nodes: 1,
      node: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      provider: 'sim',
      kubernetesVersion: 'v1.31.0',
    } as never,
    timings: { podStartupMs: 10, jobDurationMs: 100 },
    clock,
    token: 'member-token',
  });
}
