/**
 * Issue 13's eviction storm without the emulators: the same storm in the deterministic simulation's
 * world — every controller through its real handler, on the in-memory table and queues, the simulated
 * members in process, time virtual (no fault injected). What one evicted binding costs our code, from
 * the failure to its new copy applied and reported, as wall and process CPU time on one thread.
 *
 * The simulation's runner is not Lambda's: it hands out batches of 1–10 messages, at most two
 * invocations of a lane at once, and lets every member's controllers settle after each round. So this
 * bounds the code's cost from above rather than measuring what AWS would do; the local plane's row is
 * the end-to-end figure. The idle part of the same window (probes, sweeps) is measured first and taken
 * off.
 */
import { performance } from 'node:perf_hooks';
import { Rng } from '../test/sim/rng.ts';
import { SimWorld } from '../test/sim/world.ts';
import { median, type Measurement } from './harness.ts';
import {
  type StormBinding as Binding,
  STORM_CONFIGMAPS_PATH,
  STORM_POLICIES_PATH,
  stormConfigMap,
  stormPolicy,
} from './eviction.bench.ts';

const GROUP = 'Failover (issue 13)';
/** Virtual time per step while waiting for the storm to end. */
const STEP_MS = 5_000;
/** Enough steps for the failure threshold, the eviction timeout and the toleration (about 2 minutes). */
const MAX_STEPS = 200;

async function stormOnce(
  bindings: number,
  members: number,
): Promise<{ wall: number; cpu: number; invocations: number }> {
  const world = await SimWorld.create({
    rng: new Rng(13),
    members,
    config: { failover: { resourceEvictionRate: 100_000, resourceEvictionBurst: 100_000 } },
  });
  const names = [...world.members.keys()];
  const ok = async (r: Promise<{ status: number; body: unknown }>) => {
    const res = await r;
    if (res.status >= 300) throw new Error(`API answered ${res.status}: ${JSON.stringify(res.body)}`);
  };
  await ok(
    world.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'storm' } }),
  );
  await ok(world.api('POST', STORM_POLICIES_PATH, stormPolicy(names)));
  await world.run(STEP_MS);
  for (let i = 0; i < bindings; i++) await ok(world.api('POST', STORM_CONFIGMAPS_PATH, stormConfigMap(i)));
  await world.run(30_000);
  const placed = (await world.list('work.karmada.io', 'ResourceBinding', 'storm')) as Binding[];
  const target = placed[0]?.spec.clusters?.[0]?.name;
  if (!target || placed.filter((b) => b.spec.clusters?.[0]?.name === target).length !== bindings)
    throw new Error(`the ${bindings} bindings are not all on one member`);

  // Virtual steps until `until` says so: the wall time, CPU and invocations they took.
  const steps = async (until: () => Promise<boolean>) => {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const invocations = world.invocations;
    let n = 0;
    while (n < MAX_STEPS) {
      await world.run(STEP_MS);
      n++;
      if (await until()) break;
    }
    const used = process.cpuUsage(cpu);
    return {
      n,
      wall: performance.now() - wall,
      cpu: (used.user + used.system) / 1000,
      invocations: world.invocations - invocations,
    };
  };
  const left = async () =>
    ((await world.list('work.karmada.io', 'ResourceBinding', 'storm')) as Binding[]).filter(
      (b) => !b.spec.clusters?.length || b.spec.clusters.some((c) => c.name === target),
    ).length;
  world.members.get(target)!.setFault({ mode: 'unreachable' });
  // Until every binding is re-placed, and one step more: their new copies applied and reported.
  let replaced = false;
  const storm = await steps(async () => {
    if (replaced) return true;
    replaced = (await left()) === 0;
    return false;
  });
  if (!replaced) throw new Error('the storm did not end');
  world.members.get(target)!.recover();
  // The member comes back, its stale copies go, the tasks end: then it is quiet.
  await world.run(300_000);
  // The idle window after it, as long: the members are back and the plane is quiet again.
  let count = 0;
  const idle = await steps(async () => ++count >= storm.n);
  return {
    wall: Math.max(0, storm.wall - idle.wall) / 1000,
    cpu: Math.max(0, storm.cpu - idle.cpu),
    invocations: storm.invocations - idle.invocations,
  };
}

export async function benchEvictionInMemory(options: {
  bindings: number;
  members: number;
  trials: number;
}): Promise<Measurement[]> {
  const rates: number[] = [];
  const cpu: number[] = [];
  const invocations: number[] = [];
  for (let t = 0; t < options.trials; t++) {
    const r = await stormOnce(options.bindings, options.members);
    rates.push(options.bindings / Math.max(0.001, r.wall));
    cpu.push(r.cpu / options.bindings);
    invocations.push(r.invocations / options.bindings);
  }
  const what = `${options.bindings.toLocaleString('en-US')} bindings on 1 of ${options.members} members`;
  return [
    {
      id: 'eviction-storm-memory-rate',
      group: GROUP,
      what: `eviction storm without the emulators (the simulation's world: in-memory table and queues, members in process, one thread): ${what}, evicted, re-placed and their new copies applied and reported`,
      unit: 'bindings/s',
      median: median(rates),
      trials: rates,
      higherIsBetter: true,
      note: "wall time of the storm's window less the same window idle; the simulation's runner (batches of 1–10, two invocations a lane) is slower than Lambda's; target ≥ 250/s",
    },
    {
      id: 'eviction-storm-memory-cpu',
      group: GROUP,
      what: 'process CPU per evicted binding in that run (every controller, the in-memory store and queues, the members)',
      unit: 'ms',
      median: median(cpu),
      trials: cpu,
      higherIsBetter: false,
      note: `handler invocations (batches) per evicted binding ${median(invocations).toFixed(2)}`,
    },
  ];
}
