/**
 * The deterministic simulation's fast profile (the long runs are `npm run sim`, docs/testing.md): a
 * handful of seeds of the full fault mix over the whole control plane must keep every invariant; a
 * seed must replay exactly; and the harness must be able to fail — with a guard of the control plane
 * broken on purpose, some seed within the default count has to break an invariant.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAULT_KINDS, type RunResult, runSeed } from './simulation.ts';

const FAST_SEEDS = 10;
const FAST_STEPS = 25;

function explain(r: RunResult, extra = ''): string {
  return `seed ${r.seed}: ${r.violations.map((v) => `[${v.invariant}] ${v.message}`).join('; ')}\n  reproduce: npm run sim -- --seed ${r.seed} --steps ${r.steps}${extra} --trace`;
}

describe('deterministic simulation (fast profile)', () => {
  it(`${FAST_SEEDS} seeds of ${FAST_STEPS} steps with every fault keep every invariant`, async () => {
    const failed: string[] = [];
    let verified = 0;
    let injected = 0;
    for (let seed = 1; seed <= FAST_SEEDS; seed++) {
      const r = await runSeed({ seed, steps: FAST_STEPS, faults: FAULT_KINDS });
      if (r.violations.length) failed.push(explain(r));
      verified += r.checked.copies;
      injected += Object.values(r.faults).reduce((n, k) => n + k, 0);
    }
    assert.deepEqual(failed, []);
    // A run that compared nothing, or injected nothing, would pass vacuously.
    assert.ok(verified > FAST_SEEDS, `only ${verified} member copies were compared at the end`);
    assert.ok(injected > FAST_SEEDS * 5, `only ${injected} faults were injected`);
  });

  it('a seed replays exactly: the same steps, the same faults, the same end', async () => {
    const run = async () => {
      const lines: string[] = [];
      const r = await runSeed({ seed: 7, steps: 20, faults: FAULT_KINDS, trace: (l) => lines.push(l) });
      return { lines, faults: r.faults, invocations: r.invocations, virtualMs: r.virtualMs, checked: r.checked };
    };
    const first = await run();
    const second = await run();
    assert.ok(first.lines.length > 20);
    assert.deepEqual(second, first);
  });

  it('the harness can fail: with the binding finalizer broken on purpose, a seed breaks convergence', async () => {
    // Karmada's binding controller holds a ResourceBinding until its Works are gone. Without that
    // finalizer a binding deleted and made again leaves Works (and member copies) nobody owns.
    let found: RunResult | undefined;
    for (let seed = 1; seed <= 30 && !found; seed++) {
      const r = await runSeed({ seed, steps: 40, faults: FAULT_KINDS, broken: 'binding-finalizer' });
      if (r.violations.length) found = r;
    }
    assert.ok(found, 'no seed of 30 noticed the missing finalizer');
    assert.ok(
      found.violations.some((v) => v.invariant === 'convergence'),
      explain(found, ' --break binding-finalizer'),
    );
    // The same seed with the guard in place passes: it is the guard that was missed, not the seed.
    const intact = await runSeed({ seed: found.seed, steps: 40, faults: FAULT_KINDS });
    assert.deepEqual(intact.violations, [], explain(intact));
  });
});
