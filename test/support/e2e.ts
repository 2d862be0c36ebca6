/**
 * What the end-to-end tests share: the cluster timings that make health changes show within seconds,
 * simulated members in one region, waiting for members to be Ready, reading objects through kubectl,
 * and the plane a test file starts.
 */
import { readFileSync } from 'node:fs';
import { after } from 'node:test';
import type { KubeObject } from '../../lib/api/object.ts';
import { type LocalRuntime, type LocalRuntimeOptions, startLocalRuntime } from '../../lib/local/runtime.ts';
import type { SimulationConfig } from '../../lib/sim/config.ts';
import { eventually } from './eventually.ts';
import { kubectlRunner } from './kubectl.ts';

type Kubectl = ReturnType<typeof kubectlRunner>;

/** Probes every 500 ms, health thresholds of 1 s: a member failure or recovery shows within seconds. */
export const E2E_TIMINGS = {
  statusUpdateFrequencyMs: 500,
  successThresholdMs: 1_000,
  failureThresholdMs: 1_000,
  monitorGracePeriodMs: 3_000,
  startupGracePeriodMs: 4_000,
};

/** One simulated node. */
export const E2E_NODE = { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' };

/** Members in `us-east-1`, one zone each (`us-east-1a`, `-b`, …), with `nodes` nodes of {@link E2E_NODE}. */
export function oneRegionMembers(names: readonly string[], nodes = 2): SimulationConfig {
  return {
    podStartupMs: 50,
    jobDurationMs: 200,
    members: names.map((name, i) => ({
      name,
      provider: 'aws',
      region: 'us-east-1',
      zones: [`us-east-1${String.fromCharCode(97 + i)}`],
      kubernetesVersion: 'v1.31.0',
      nodes,
      node: E2E_NODE,
    })),
  };
}

/** Whether the cluster's Ready condition has `status`. */
export async function clusterReady(rt: LocalRuntime, name: string, status = 'True'): Promise<boolean> {
  const c = await rt.runtime.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name });
  const conditions = (c?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
  return conditions?.some((x) => x.type === 'Ready' && x.status === status) ?? false;
}

/** Waits until every named member is Ready. */
export async function membersReady(rt: LocalRuntime, names: readonly string[]): Promise<void> {
  for (const name of names) await eventually(`${name} Ready`, () => clusterReady(rt, name));
}

/** `kubectl get <args> -o json`, or undefined when kubectl fails (e.g. NotFound). */
export async function getJson<T = KubeObject>(k: Kubectl, args: string[]): Promise<T | undefined> {
  const r = await k.run(['get', ...args, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as T) : undefined;
}

/**
 * The local control plane a test file drives: in memory, with one-region simulated members, kubectl
 * for it and for each member; started (members Ready) before the file's tests and stopped after.
 * Call at the top of the file and take the plane in the file's own hook with
 * `before(async () => ({ rt, kubectl } = await plane.started()))`: Node runs a file's root hooks without
 * waiting for each other, so `started()` waits for the start itself.
 */
export function e2ePlane(members: readonly string[], options: Partial<LocalRuntimeOptions> = {}) {
  type Plane = { rt: LocalRuntime; kubectl: Kubectl; onMember: Map<string, Kubectl> };
  let starting: Promise<Plane> | undefined;
  const start = async (): Promise<Plane> => {
    const rt = await startLocalRuntime({
      inMemory: true,
      apiPort: 0,
      simulation: oneRegionMembers(members),
      clusterTimings: E2E_TIMINGS,
      ...options,
    });
    const onMember = new Map(members.map((name) => [name, kubectlRunner(rt.members.get(name)!.kubeconfig)]));
    const plane = { rt, kubectl: kubectlRunner(rt.kubeconfig), onMember };
    try {
      await membersReady(rt, members);
    } catch (err) {
      await rt.stop();
      throw err;
    }
    return plane;
  };
  after(async () => {
    const plane = await starting?.catch(() => undefined);
    plane?.kubectl.cleanup();
    for (const k of plane?.onMember.values() ?? []) k.cleanup();
    await plane?.rt.stop();
  });
  return {
    started(): Promise<Plane> {
      starting ??= start();
      return starting;
    },
  };
}

/**
 * Registers the Flink CRD (`examples/flink/crd.yaml`) on the control plane and on `members` (which
 * must serve the kind for a placement there, as with Karmada), and waits until the API serves it.
 */
export async function installFlinkCrd(kubectl: Kubectl, members: readonly Kubectl[]): Promise<void> {
  const crd = readFileSync('examples/flink/crd.yaml', 'utf8');
  await kubectl.ok(['apply', '-f', '-'], crd);
  for (const member of members) await member.ok(['apply', '-f', '-'], crd);
  await eventually(
    'the Flink CRD established',
    async () => (await kubectl.run(['get', 'flinkdeployments'])).code === 0,
  );
}
