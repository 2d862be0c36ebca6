/**
 * `npm run sim`: runs seeded simulations of the whole control plane and reports, per invariant, how
 * many seeds broke it, then each failing seed with its first violations and the command that replays
 * it. See docs/testing.md.
 *
 *   npm run sim -- --seeds 1000                 seeds 1..1000 with every fault
 *   npm run sim -- --seed 42 --trace            one seed, step by step
 *   npm run sim -- --seeds 200 --faults messages,crash --steps 60
 *   npm run sim -- --seed 42 --shrink           the shortest prefix (and fewest fault kinds) still failing
 *   npm run sim -- --seeds 50 --break binding-finalizer   a guard broken on purpose
 */
import { parseArgs } from 'node:util';
import { GUARD_BREAKS, type GuardBreak } from './faults.ts';
import { INVARIANTS } from './invariants.ts';
import { FAULT_KINDS, type FaultKind, type RunOptions, type RunResult, runSeed } from './simulation.ts';

export const DEFAULT_STEPS = 40;

function usage(message: string): never {
  console.error(`sim: ${message}`);
  console.error(
    'usage: npm run sim -- [--seeds N | --seed N] [--from N] [--steps N] [--faults k1,k2|all|none] [--members N] [--break G] [--trace] [--shrink]',
  );
  console.error(`fault kinds: ${FAULT_KINDS.join(', ')}`);
  console.error(`guards: ${GUARD_BREAKS.join(', ')}`);
  process.exit(2);
}

function parseFaults(text: string | undefined): FaultKind[] {
  if (text === undefined || text === 'all') return [...FAULT_KINDS];
  if (text === 'none' || text === '') return [];
  const kinds = text.split(',').map((s) => s.trim());
  for (const k of kinds)
    if (!(FAULT_KINDS as readonly string[]).includes(k)) usage(`unknown fault kind ${JSON.stringify(k)}`);
  return kinds as FaultKind[];
}

function command(o: RunOptions): string {
  const all = o.faults.length === FAULT_KINDS.length;
  return [
    'npm run sim --',
    `--seed ${o.seed}`,
    `--steps ${o.steps}`,
    ...(all ? [] : [`--faults ${o.faults.length ? o.faults.join(',') : 'none'}`]),
    ...(o.members && o.members !== 3 ? [`--members ${o.members}`] : []),
    ...(o.broken ? [`--break ${o.broken}`] : []),
    '--trace',
  ].join(' ');
}

/** The shortest prefix of the schedule, then the fewest fault kinds, with which the seed still fails. */
async function shrink(options: RunOptions): Promise<RunOptions> {
  const fails = async (o: RunOptions) => (await runSeed({ ...o, trace: undefined })).violations.length > 0;
  let best = options;
  let lo = 1;
  let hi = options.steps;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await fails({ ...best, steps: mid })) hi = mid;
    else lo = mid + 1;
  }
  best = { ...best, steps: hi };
  for (const kind of [...best.faults]) {
    const fewer = { ...best, faults: best.faults.filter((k) => k !== kind) };
    if (await fails(fewer)) best = fewer;
  }
  return best;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string' },
      seed: { type: 'string' },
      from: { type: 'string' },
      steps: { type: 'string' },
      faults: { type: 'string' },
      members: { type: 'string' },
      break: { type: 'string' },
      trace: { type: 'boolean' },
      shrink: { type: 'boolean' },
    },
    strict: true,
  });
  const int = (name: string, v: string | undefined, dflt: number) => {
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) usage(`--${name} must be a whole number, got ${JSON.stringify(v)}`);
    return n;
  };
  if (values.break && !(GUARD_BREAKS as readonly string[]).includes(values.break))
    usage(`unknown guard ${values.break}`);
  const base = {
    steps: int('steps', values.steps, DEFAULT_STEPS),
    faults: parseFaults(values.faults),
    members: int('members', values.members, 3),
    ...(values.break ? { broken: values.break as GuardBreak } : {}),
  };
  const seeds =
    values.seed !== undefined
      ? [int('seed', values.seed, 1)]
      : Array.from({ length: int('seeds', values.seeds, 100) }, (_, i) => int('from', values.from, 1) + i);

  const started = performance.now();
  const results: RunResult[] = [];
  const broken: Record<string, number> = Object.fromEntries(INVARIANTS.map((i) => [i, 0]));
  const faults: Record<string, number> = {};
  let invocations = 0;
  let virtualMs = 0;
  const checked = { placed: 0, copies: 0, dependencies: 0, memberObjects: 0 };
  for (const seed of seeds) {
    const options: RunOptions = {
      seed,
      ...base,
      ...(values.trace ? { trace: (line: string) => console.log(`  ${line}`) } : {}),
    };
    let result: RunResult;
    try {
      result = await runSeed(options);
    } catch (err) {
      result = {
        seed,
        violations: [{ invariant: 'handler-errors', message: `the run itself failed: ${(err as Error).stack}` }],
        steps: base.steps,
        faults: {},
        invocations: 0,
        virtualMs: 0,
        apiAnswers: {},
        checked: { placed: 0, copies: 0, dependencies: 0, memberObjects: 0 },
      };
    }
    results.push(result);
    invocations += result.invocations;
    virtualMs += result.virtualMs;
    for (const [k, n] of Object.entries(result.faults)) faults[k] = (faults[k] ?? 0) + n;
    for (const k of Object.keys(checked) as (keyof typeof checked)[]) checked[k] += result.checked[k];
    for (const inv of new Set(result.violations.map((v) => v.invariant))) broken[inv] = (broken[inv] ?? 0) + 1;
    const mark = result.violations.length ? 'FAIL' : 'ok';
    if (seeds.length <= 20 || result.violations.length) {
      console.log(
        `seed ${seed}: ${mark}${result.failedAtStep ? ` (first seen after step ${result.failedAtStep})` : ''}`,
      );
    } else if (results.length % 50 === 0) {
      console.log(`… ${results.length}/${seeds.length} seeds`);
    }
  }
  const wallS = (performance.now() - started) / 1000;
  const failing = results.filter((r) => r.violations.length > 0);

  console.log('');
  console.log(
    `${seeds.length} seed(s), ${base.steps} steps each, faults: ${base.faults.length ? base.faults.join(', ') : 'none'}${base.broken ? `, guard broken: ${base.broken}` : ''}`,
  );
  console.log(
    `wall ${wallS.toFixed(1)} s (${((wallS * 1000) / seeds.length).toFixed(0)} ms/seed); virtual ${(virtualMs / 3_600_000).toFixed(1)} h; ${invocations} handler invocations`,
  );
  console.log(
    `faults injected: ${Object.entries(faults)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  console.log(
    `verified when settled: ${checked.placed} placed workloads, ${checked.copies} member copies, ${checked.dependencies} dependency copies, ${checked.memberObjects} managed member objects`,
  );
  console.log('invariants:');
  for (const inv of INVARIANTS) {
    console.log(`  ${broken[inv] ? 'FAIL' : 'pass'}  ${inv}${broken[inv] ? ` (${broken[inv]} seed(s))` : ''}`);
  }
  if (failing.length === 0) {
    console.log('all seeds passed');
    return;
  }
  console.log(`\n${failing.length} failing seed(s): ${failing.map((r) => r.seed).join(' ')}`);
  for (const r of failing.slice(0, 10)) {
    console.log(`\nseed ${r.seed}:`);
    for (const v of r.violations.slice(0, 5)) console.log(`  [${v.invariant}] ${v.message}`);
    let repro: RunOptions = { seed: r.seed, ...base };
    if (values.shrink) repro = await shrink(repro);
    console.log(`  reproduce: ${command(repro)}`);
  }
  process.exitCode = 1;
}

await main();
