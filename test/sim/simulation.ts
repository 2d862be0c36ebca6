/**
 * One seeded run: a world, a schedule of user actions and faults drawn from the seed, the `always`
 * invariants at every quiescent point, then the faults stop, the world settles, and the `settled`
 * invariants are checked. Same seed, same options: the same run, step for step.
 */
import { type Checked, type Invariant, type Violation, checkAlways, checkSettled } from './invariants.ts';
import type { GuardBreak } from './faults.ts';
import { Rng, installDeterminism } from './rng.ts';
import { Workload } from './workload.ts';
import { SimWorld } from './world.ts';
import { MANAGED_BY_KARMADA_LABEL, MANAGED_BY_KARMADA_LABEL_VALUE } from '../../lib/api/well-known.ts';
import type { FaultMode } from '../../lib/sim/member.ts';

export const FAULT_KINDS = [
  'messages',
  'crash',
  'member-unreachable',
  'member-not-ready',
  'member-slow',
  'member-errors',
  'drift',
  'restart',
  'clock-jump',
  'unhealthy',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface RunOptions {
  seed: number;
  /** User actions and faults drawn from the seed. */
  steps: number;
  faults: readonly FaultKind[];
  members?: number;
  broken?: GuardBreak;
  /** Receives one line per step (reproducing a seed). */
  trace?: (line: string) => void;
  /** Upper bound of the settling phase, in virtual ms (default 20 minutes). */
  settleMs?: number;
  /** Called after every step, before the invariants (to print or inspect a world while reproducing). */
  onStep?: (world: SimWorld, step: number) => Promise<void>;
}

export interface RunResult {
  seed: number;
  violations: Violation[];
  /** The step after which the first `always` violation was seen (undefined: none, or only when settled). */
  failedAtStep?: number;
  steps: number;
  faults: Record<string, number>;
  invocations: number;
  virtualMs: number;
  apiAnswers: Record<string, number>;
  /** What the settled check compared at the end. */
  checked: Checked;
}

/** Open fault windows: what to undo, and when. */
interface OpenFault {
  until: number;
  heal: () => void;
}

export async function runSeed(options: RunOptions): Promise<RunResult> {
  const rng = new Rng(options.seed);
  const restore = installDeterminism(rng.fork('process'));
  try {
    return await run(options, rng);
  } finally {
    restore();
  }
}

async function run(options: RunOptions, rng: Rng): Promise<RunResult> {
  const trace = options.trace;
  const world = await SimWorld.create({
    rng,
    members: options.members ?? 3,
    ...(options.broken ? { broken: options.broken } : {}),
    ...(trace ? { trace } : {}),
  });
  const started = world.clock.now();
  const workload = new Workload(world, rng.fork('workload'));
  await workload.setup();
  await world.run(5_000);
  const schedule = rng.fork('schedule');
  const faults = rng.fork('faults');
  // Its own stream, so how slow a slow member is does not shift the rest of the fault schedule.
  const slowness = rng.fork('slow-answers');
  const enabled = new Set(options.faults);
  const open: OpenFault[] = [];
  const violations: Violation[] = [];
  const seen = new Set<string>();
  let failedAtStep: number | undefined;
  const record = (found: Violation[], step: number) => {
    for (const v of found) {
      const key = `${v.invariant}|${v.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      violations.push(v);
      failedAtStep ??= step;
    }
  };
  const memberFault = (mode: FaultMode) => {
    const name = faults.pick([...world.members.keys()]);
    const member = world.members.get(name)!;
    if (member.fault) return `${name} already faulty`;
    // Slow: half the time slower than the controllers' client waits (their requests time out), half
    // the time answering late within it (1–4 s: within any client’s timeout).
    const delayMs = mode === 'slow' ? (slowness.chance(0.5) ? slowness.int(1, 4) * 1000 : 30_000) : undefined;
    member.setFault({ mode, ...(delayMs !== undefined ? { delayMs } : {}) });
    world.counters.memberFaults++;
    const until = world.clock.now() + faults.int(10, 240) * 1000;
    open.push({ until, heal: () => member.recover() });
    const how = delayMs === undefined ? '' : delayMs < 30_000 ? ` (answers in ${delayMs / 1000}s)` : ' (no answer)';
    return `${name} ${mode}${how} until +${Math.round((until - world.clock.now()) / 1000)}s`;
  };

  for (let step = 1; step <= options.steps; step++) {
    // Close the fault windows whose time is up.
    for (const f of open.filter((o) => o.until <= world.clock.now())) {
      f.heal();
      open.splice(open.indexOf(f), 1);
    }
    const kinds = [...enabled];
    const action = kinds.length > 0 && schedule.chance(0.3) ? schedule.pick(kinds) : 'user';
    let line: string;
    switch (action) {
      case 'user':
        line = await workload.step();
        break;
      case 'messages': {
        world.transport.rates = { duplicate: 0.25, delay: 0.25, lose: 0.02, reorder: true };
        open.push({ until: world.clock.now() + faults.int(20, 120) * 1000, heal: () => world.transport.heal() });
        line = 'messages: duplicated, delayed, reordered, some lost';
        break;
      }
      case 'crash': {
        world.crashing.rate = 0.05;
        open.push({ until: world.clock.now() + faults.int(20, 120) * 1000, heal: () => (world.crashing.rate = 0) });
        line = 'functions die after some of their writes';
        break;
      }
      case 'member-unreachable':
        line = memberFault('unreachable');
        break;
      case 'member-not-ready':
        line = memberFault('not-ready');
        break;
      case 'member-slow':
        line = memberFault('slow');
        break;
      case 'member-errors':
        line = memberFault('errors');
        break;
      case 'drift':
        line = await drift(world, faults);
        break;
      case 'restart':
        world.restart();
        line = 'control plane restarted: every cache dropped';
        break;
      case 'clock-jump': {
        const ms = faults.int(5, 150) * 1000;
        await world.jump(ms);
        line = `clock jumped ${ms / 1000}s`;
        break;
      }
      case 'unhealthy':
        line = await unhealthy(world, faults, open);
        break;
    }
    trace?.(`#${step} ${action}: ${line}`);
    await world.run(schedule.int(1, 20) * 1000);
    await options.onStep?.(world, step);
    record(await checkAlways(world, workload), step);
  }

  // The faults stop; the control plane gets time to converge, checked once a minute.
  for (const f of open) f.heal();
  open.length = 0;
  for (const m of world.members.values()) {
    m.recover();
    for (const ref of m.unhealthyWorkloads) m.markHealthy(ref);
  }
  trace?.('faults stop; settling');
  const settleUntil = world.clock.now() + (options.settleMs ?? 20 * 60_000);
  let settled: Violation[];
  // At least the longest window a fault can leave behind (graceful eviction, failover timers).
  await world.run(4 * 60_000);
  let checked: Checked;
  for (;;) {
    record(await checkAlways(world, workload), options.steps + 1);
    checked = { placed: 0, copies: 0, dependencies: 0, memberObjects: 0 };
    settled = await checkSettled(world, workload, checked);
    if (settled.length === 0 || world.clock.now() >= settleUntil) break;
    await world.run(60_000);
  }
  for (const v of settled) {
    const key = `${v.invariant}|${v.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      violations.push(v);
    }
  }
  for (const e of world.invocationErrors.slice(0, 5)) {
    violations.push({ invariant: 'handler-errors' as Invariant, message: `${e.source}: ${e.error.split('\n')[0]}` });
  }
  return {
    seed: options.seed,
    violations,
    ...(failedAtStep !== undefined ? { failedAtStep } : {}),
    steps: options.steps,
    faults: { ...world.counters },
    invocations: world.invocations,
    virtualMs: world.clock.now() - started,
    apiAnswers: workload.answers,
    checked,
  };
}

/** A random member and, when it runs any, one of the Deployments the control plane put there. */
async function managedDeployment(world: SimWorld, rng: Rng) {
  const name = rng.pick([...world.members.keys()]);
  const member = world.members.get(name)!;
  const page = await member.store.list({ group: 'apps', kind: 'Deployment' });
  const managed = page.items.filter(
    (o) => o.metadata.labels?.[MANAGED_BY_KARMADA_LABEL] === MANAGED_BY_KARMADA_LABEL_VALUE,
  );
  if (managed.length === 0) return { name, member };
  const victim = rng.pick(managed);
  const ref = {
    group: 'apps',
    kind: 'Deployment',
    namespace: victim.metadata.namespace ?? '',
    name: victim.metadata.name ?? '',
  };
  return { name, member, victim, ref };
}

/** A member's copy edited or deleted behind the control plane's back. */
async function drift(world: SimWorld, rng: Rng): Promise<string> {
  const { name, member, victim, ref } = await managedDeployment(world, rng);
  if (!victim) return `nothing to drift on ${name}`;
  world.counters.drift++;
  if (rng.chance(0.5)) {
    await member.store.delete(ref);
    return `deleted ${ref.namespace}/${ref.name} on ${name}`;
  }
  const edited = structuredClone(victim) as typeof victim & { spec: { replicas?: number } };
  edited.spec.replicas = (edited.spec.replicas ?? 1) + 3;
  await member.store.update(edited);
  return `scaled ${ref.namespace}/${ref.name} on ${name} by hand`;
}

/** A workload that starts crash-looping on one member for a while (application failover's trigger). */
async function unhealthy(world: SimWorld, rng: Rng, open: OpenFault[]): Promise<string> {
  const { name, member, victim, ref } = await managedDeployment(world, rng);
  if (!victim) return `no workload on ${name}`;
  member.markUnhealthy(ref);
  world.counters.unhealthy++;
  const until = world.clock.now() + rng.int(10, 180) * 1000;
  open.push({ until, heal: () => member.markHealthy(ref) });
  return `${ref.namespace}/${ref.name} unhealthy on ${name} for ${Math.round((until - world.clock.now()) / 1000)}s`;
}
