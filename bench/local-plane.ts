/**
 * What the benchmarks that drive the whole local control plane share: simulated members named m01…,
 * an API client with the admin kubeconfig, and waiting for members, namespaces and other conditions.
 */
import { Buffer } from 'node:buffer';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../lib/api/object.ts';
import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '../lib/local/runtime.ts';
import { MemberClient } from '../lib/members/client.ts';
import type { SimulationConfig } from '../lib/sim/config.ts';
import { listAll } from '../lib/store/list-all.ts';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it answers true; throws after `timeoutMs`. */
export async function until(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 300_000,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`benchmark timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** `count` one-node members `m01`, `m02`, … of the given node size, in one region and zone. */
export function simulatedMembers(count: number, node: SimulationConfig['members'][number]['node']): SimulationConfig {
  return {
    podStartupMs: 50,
    jobDurationMs: 200,
    members: memberNames(count).map((name) => ({
      name,
      provider: 'sim',
      region: 'local',
      zones: ['local-a'],
      kubernetesVersion: 'v1.31.0',
      nodes: 1,
      node,
    })),
  };
}

export function memberNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `m${String(i + 1).padStart(2, '0')}`);
}

/** A client of the control plane's API with the admin kubeconfig `skctl up` writes. */
export function apiClient(rt: LocalRuntime, timeoutMs = 30_000): MemberClient {
  return kubeconfigClient(rt.kubeconfig, timeoutMs);
}

/** A client of the API server a kubeconfig file names (its current context, bearer token). */
export function kubeconfigClient(path: string, timeoutMs = 30_000): MemberClient {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  const cluster = kc.getCurrentCluster()!;
  return new MemberClient({
    server: cluster.server,
    caPem: Buffer.from(cluster.caData!, 'base64').toString('utf8'),
    token: kc.getCurrentUser()!.token!,
    timeoutMs,
  });
}

/** Whether the object's condition `type` is True. */
export const conditionTrue = (o: KubeObject, type: string) =>
  ((o.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (x) => x.type === type && x.status === 'True',
  );

/** Waits until `count` clusters exist and are all Ready. */
export async function membersReady(rt: LocalRuntime, count: number, timeoutMs?: number): Promise<void> {
  await until(
    'members Ready',
    async () => {
      const clusters = await listAll(rt.runtime.store, { group: 'cluster.karmada.io', kind: 'Cluster' });
      return clusters.length === count && clusters.every((c) => conditionTrue(c, 'Ready'));
    },
    timeoutMs,
  );
}

/** Waits until namespace `name` exists on every member (auto-propagation). */
export async function namespaceOnMembers(rt: LocalRuntime, name: string, timeoutMs?: number): Promise<void> {
  await until(
    `namespace ${name} on every member`,
    async () => {
      for (const m of rt.members.values())
        if (!(await m.store.get({ group: '', kind: 'Namespace', name }))) return false;
      return true;
    },
    timeoutMs,
  );
}

/**
 * The cluster-health timings of the local-plane benches: probes every `statusUpdateFrequencyMs`,
 * thresholds of 1 s (so a member failure shows within seconds), Karmada's grace periods.
 */
export function benchTimings(statusUpdateFrequencyMs = 10_000, failureThresholdMs = 1_000) {
  return {
    statusUpdateFrequencyMs,
    successThresholdMs: 1_000,
    failureThresholdMs,
    monitorGracePeriodMs: 40_000,
    startupGracePeriodMs: 60_000,
  };
}

/**
 * The local control plane as the benchmarks run it: in memory, any free API port, logs at
 * `BENCH_LOG_LEVEL` (default ERROR), with the given members, timings and flags.
 */
export function startBenchPlane(options: Partial<LocalRuntimeOptions>): Promise<LocalRuntime> {
  return startLocalRuntime({
    inMemory: true,
    apiPort: 0,
    logLevel: (process.env.BENCH_LOG_LEVEL as 'ERROR' | undefined) ?? 'ERROR',
    ...options,
  });
}
