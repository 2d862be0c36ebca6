/**
 * How much the simulated members take from the control plane's event loop (decision 0015). Starts
 * the local control plane in memory with 4 members and runs one scenario, printing one JSON line:
 * the main thread's event-loop delay and utilisation, and the process's CPU time (all threads).
 *
 * - `propagation`: 30 Deployments of 4 replicas propagated to every member (480 pods created,
 *   scheduled, started and their status collected back); until every template shows all its
 *   replicas ready.
 * - `busy-members`: the members churn on their own (a 200-replica Deployment created on each
 *   member and deleted again, over and over, through their APIs) while one-replica Deployments are
 *   propagated to one member, one after the other: how long the control plane takes to put each on
 *   the member, next to the same propagations with the members idle.
 *
 *   node --import tsx scripts/member-thread-delay.ts [propagation|busy-members] [--in-process]
 *
 * `--in-process` keeps the members on the main thread, as before the worker thread.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { apiClient, kubeconfigClient, membersReady, simulatedMembers, sleep, until } from '../bench/local-plane.ts';
import type { KubeObject } from '../lib/api/object.ts';
import { type LocalRuntime, startLocalRuntime } from '../lib/local/runtime.ts';
import { deployment as factoryDeployment } from '../test/support/factories.ts';

const MEMBERS = 4;
const scenario = process.argv.find((a) => !a.startsWith('-') && a !== process.argv[0] && a !== process.argv[1]);
const inProcess = process.argv.includes('--in-process');

/** A Deployment of `replicas` pods asking 10m of CPU each (the shared factory, with requests). */
function deployment(name: string, replicas: number): KubeObject {
  const d = factoryDeployment(name, { replicas });
  const containers = (d.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec
    .containers;
  containers[0]!.resources = { requests: { cpu: '10m' } };
  return d;
}

const policy = (name: string, placement: Record<string, unknown>, names?: string[]) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace: 'default' },
  spec: {
    resourceSelectors: names
      ? names.map((n) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: n }))
      : [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    placement,
  },
});

/** Measures the main thread while `run` runs. */
async function measured<T>(run: () => Promise<T>) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = performance.now();
  delay.enable();
  const result = await run();
  delay.disable();
  const wallMs = performance.now() - started;
  const used = performance.eventLoopUtilization(elu);
  const { user, system } = process.cpuUsage(cpu);
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  return {
    result,
    wallMs: Math.round(wallMs),
    loopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    mainThreadBusy: Math.round(used.utilization * 1000) / 1000,
    /** CPU time of every thread of the process (members included wherever they run), per wall second. */
    processCpuPerSecond: Math.round(((user + system) / 1000 / wallMs) * 100) / 100,
  };
}

async function propagation(rt: LocalRuntime) {
  const api = apiClient(rt, 60_000);
  const deployments = 30;
  const replicas = 4;
  await api.send(
    'POST',
    '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies',
    policy('everywhere', { replicaScheduling: { replicaSchedulingType: 'Duplicated' } }),
  );
  const m = await measured(async () => {
    for (let i = 0; i < deployments; i++)
      await api.send('POST', '/apis/apps/v1/namespaces/default/deployments', deployment(`load-${i}`, replicas));
    await until(
      'every replica ready on every member',
      async () => {
        const page = await rt.runtime.store.list({ group: 'apps', kind: 'Deployment', namespace: 'default' });
        const ready = page.items.filter(
          (d) => (d.status as { readyReplicas?: number } | undefined)?.readyReplicas === replicas * MEMBERS,
        );
        return ready.length === deployments;
      },
      600_000,
      250,
    );
  });
  api.close();
  return { scenario: 'propagation', allReadyMs: m.wallMs, ...m, result: undefined };
}

async function busyMembers(rt: LocalRuntime) {
  const api = apiClient(rt, 60_000);
  const target = rt.members.get('m01')!;
  const probes = 8;
  await api.send(
    'POST',
    '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies',
    policy(
      'to-m01',
      { clusterAffinity: { clusterNames: ['m01'] } },
      Array.from({ length: 2 * probes }, (_, i) => `probe-${i}`),
    ),
  );
  /** Propagation latency of `probes` one-replica Deployments, one after the other, from `first`. */
  const propagate = async (first: number) => {
    const latencies: number[] = [];
    for (let i = first; i < first + probes; i++) {
      const name = `probe-${i}`;
      const started = performance.now();
      await api.send('POST', '/apis/apps/v1/namespaces/default/deployments', deployment(name, 1));
      await until(
        `${name} on m01`,
        async () =>
          (await target.store.get({ group: 'apps', kind: 'Deployment', namespace: 'default', name })) !== undefined,
        120_000,
        10,
      );
      latencies.push(Math.round(performance.now() - started));
    }
    return latencies.sort((a, b) => a - b);
  };
  const idle = await measured(() => propagate(0));

  // The members churn through their own APIs, as a workload running on them would.
  let churning = true;
  const churn = [...rt.members.values()].map(async (member) => {
    const client = kubeconfigClient(member.kubeconfig, 60_000);
    for (let round = 0; churning; round++) {
      const name = `churn-${round}`;
      await client.send('POST', '/apis/apps/v1/namespaces/default/deployments', deployment(name, 200));
      await sleep(1_500);
      await client.send('DELETE', `/apis/apps/v1/namespaces/default/deployments/${name}`);
      await sleep(500);
    }
    client.close();
  });
  await sleep(2_000);
  const busy = await measured(() => propagate(probes));
  churning = false;
  await Promise.all(churn);
  api.close();
  const summary = (m: Awaited<ReturnType<typeof measured<number[]>>>) => ({
    propagationMs: { p50: m.result[Math.floor(probes / 2)], max: m.result[probes - 1] },
    loopDelayMs: m.loopDelayMs,
    mainThreadBusy: m.mainThreadBusy,
    processCpuPerSecond: m.processCpuPerSecond,
  });
  return { scenario: 'busy-members', idle: summary(idle), busy: summary(busy) };
}

const rt = await startLocalRuntime({
  inMemory: true,
  apiPort: 0,
  logLevel: 'ERROR',
  membersInWorker: !inProcess,
  simulation: simulatedMembers(MEMBERS, { cpu: '64', memory: '256Gi', pods: '500', 'ephemeral-storage': '100Gi' }),
  clusterTimings: {
    statusUpdateFrequencyMs: 2_000,
    successThresholdMs: 1_000,
    failureThresholdMs: 10_000,
    monitorGracePeriodMs: 40_000,
    startupGracePeriodMs: 60_000,
  },
});
try {
  await membersReady(rt, MEMBERS, 120_000);
  const outcome = scenario === 'busy-members' ? await busyMembers(rt) : await propagation(rt);
  console.log(JSON.stringify({ members: inProcess ? 'main thread' : 'worker thread', ...outcome }));
} finally {
  await rt.stop();
}
