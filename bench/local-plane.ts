/**
 * What the benchmarks that drive the whole local control plane share: simulated members named m01…,
 * an API client with the admin kubeconfig, and waiting for members, namespaces and other conditions.
 */
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
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

/** CPU spent over a window of the local plane, by where it ran. */
export interface PlaneCpu {
  /** This process's CPU (the control plane's thread, the members' thread, libuv's pool, the bench's own polling), ms. */
  processMs: number;
  /** Share of the window the control plane's thread was busy (its event loop's utilization, 0–1). */
  mainThreadBusy: number;
  /** The emulators' process's CPU (dynalite and fauxqs), ms; undefined where /proc cannot tell. */
  emulatorsMs: number | undefined;
}

/** Starts measuring where the local plane spends its CPU; the returned function ends the window. */
export function measurePlaneCpu(rt: LocalRuntime): () => PlaneCpu {
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  const emulators = processCpuMs(rt.emulatorsPid);
  return () => {
    const used = process.cpuUsage(cpu);
    const after = processCpuMs(rt.emulatorsPid);
    return {
      processMs: (used.user + used.system) / 1000,
      mainThreadBusy: performance.eventLoopUtilization(elu).utilization,
      emulatorsMs: emulators !== undefined && after !== undefined ? after - emulators : undefined,
    };
  };
}

/** User + system CPU of a process from /proc (Linux; clock ticks of 10 ms), ms. */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces, so split after its closing parenthesis).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15)
  } catch {
    return undefined;
  }
}

/** "a ms of the process's CPU (its thread busy b %), c ms of the emulators'", per `unit`. */
export function describePlaneCpu(cpu: PlaneCpu, units: number, unit: string): string {
  const per = (ms: number) => (ms / units).toFixed(1);
  const emulators = cpu.emulatorsMs === undefined ? '' : `, ${per(cpu.emulatorsMs)} ms of the emulators' process`;
  return `CPU per ${unit}: ${per(cpu.processMs)} ms of the control plane's process (its thread busy ${Math.round(cpu.mainThreadBusy * 100)} % of the window)${emulators}`;
}
