import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canPreempt,
  policiesToReenqueueOnPriorityLowered,
  preemptingPolicy,
  preemptionTargets,
} from '../../../../lib/core/policy/index.ts';
import type { PropagationPolicy } from '../../../../lib/core/model/types.ts';
import { cpp, pp, sel, template } from './fixtures.ts';

const always = { preemption: 'Always' as const };

describe('canPreempt (Karmada preemption.go: high PP > low PP > CPP; high CPP > low CPP)', () => {
  const cases: [string, PropagationPolicy, PropagationPolicy, boolean][] = [
    [
      'PP Always preempts a PP of strictly lower priority',
      pp('a', { ...always, priority: 2 }),
      pp('b', { priority: 1 }),
      true,
    ],
    [
      'PP Always does not preempt a PP of equal priority',
      pp('a', { ...always, priority: 1 }),
      pp('b', { priority: 1 }),
      false,
    ],
    [
      'PP Always does not preempt a PP of higher priority',
      pp('a', { ...always, priority: 1 }),
      pp('b', { priority: 2 }),
      false,
    ],
    [
      'PP Always preempts a CPP of higher priority (regardless of priority)',
      pp('a', { ...always, priority: 0 }),
      cpp('c', { priority: 100 }),
      true,
    ],
    ['PP Always preempts a CPP of equal priority', pp('a', always), cpp('c'), true],
    [
      'CPP Always preempts a CPP of strictly lower priority',
      cpp('a', { ...always, priority: 2 }),
      cpp('b', { priority: 1 }),
      true,
    ],
    ['CPP Always does not preempt a CPP of equal priority', cpp('a', always), cpp('b'), false],
    [
      'CPP Always never preempts a PP, even of lower priority',
      cpp('a', { ...always, priority: 100 }),
      pp('b', { priority: -1 }),
      false,
    ],
    ['preemption Never (default) preempts nothing', pp('a', { priority: 9 }), pp('b', { priority: 1 }), false],
    ['preemption Never does not preempt a CPP either', pp('a', { preemption: 'Never' }), cpp('c'), false],
    ['a policy never preempts itself', pp('a', { ...always, priority: 2 }), pp('a', { priority: 1 }), false],
    ['a deleting policy does not preempt', pp('a', { ...always, priority: 2, deleting: true }), pp('b'), false],
    [
      'implicit priority is not considered (name vs match-all, same explicit priority)',
      pp('a', { ...always, resourceSelectors: [sel({ name: 'web' })] }),
      pp('b'),
      false,
    ],
  ];
  for (const [name, preemptor, claimant, expected] of cases) {
    it(name, () => assert.equal(canPreempt(preemptor, claimant), expected));
  }
});

describe('preemptionTargets (Karmada handle(Cluster)PropagationPolicyPreemption)', () => {
  it('named selectors only; a PP fills its own namespace', () => {
    const policy = pp('a', {
      ...always,
      resourceSelectors: [sel({ name: 'web' }), sel({ labelSelector: {} }), sel({ name: 'api', namespace: 'default' })],
    });
    assert.deepEqual(preemptionTargets(policy), [
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'api' },
    ]);
  });
  it('a CPP target without a namespace is cluster-scoped', () => {
    const policy = cpp('c', {
      ...always,
      resourceSelectors: [
        { apiVersion: 'v1', kind: 'Namespace', name: 'team-a' },
        sel({ namespace: 'x', name: 'web' }),
      ],
    });
    assert.deepEqual(preemptionTargets(policy), [
      { apiVersion: 'v1', kind: 'Namespace', name: 'team-a' },
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'x', name: 'web' },
    ]);
  });
  it('no targets unless preemption is Always', () => {
    assert.deepEqual(preemptionTargets(pp('a', { resourceSelectors: [sel({ name: 'web' })] })), []);
  });
});

describe('policiesToReenqueueOnPriorityLowered (Karmada HandleDeprioritized(Cluster)PropagationPolicy)', () => {
  const names = (ps: PropagationPolicy[]) => ps.map((p) => p.metadata.name);
  const others = [
    pp('p4', { ...always, priority: 4 }),
    pp('p2', { ...always, priority: 2 }),
    pp('p3b', { ...always, priority: 3 }),
    pp('p3a', { ...always, priority: 3 }),
    pp('p5', { ...always, priority: 5 }),
    pp('p1', { ...always, priority: 1 }),
    pp('never4', { priority: 4 }),
    pp('unset', always),
    pp('other-ns', { ...always, namespace: 'other', priority: 3 }),
    cpp('cpp3', { ...always, priority: 3 }),
  ];
  const cases: [string, number, number, string[]][] = [
    [
      'Always policies with priority in (new, old), descending; same-priority ties by name',
      5,
      1,
      ['p4', 'p3a', 'p3b', 'p2'],
    ],
    ['bounds are exclusive', 4, 2, ['p3a', 'p3b']],
    ['raising the priority re-enqueues nothing', 1, 5, []],
    ['an unchanged priority re-enqueues nothing', 3, 3, []],
    ['new priority -1 below an unset one: unset priority (nil) is never re-enqueued', 1, -1, []],
  ];
  for (const [name, from, to, expected] of cases) {
    it(name, () => {
      const got = policiesToReenqueueOnPriorityLowered(pp('me', { priority: from }), pp('me', { priority: to }), [
        ...others,
        pp('me', { ...always, priority: to }),
      ]);
      assert.deepEqual(names(got), expected);
    });
  }
  it('CPPs re-enqueue only CPPs', () => {
    const got = policiesToReenqueueOnPriorityLowered(cpp('me', { priority: 5 }), cpp('me', { priority: 1 }), others);
    assert.deepEqual(names(got), ['cpp3']);
  });
});

describe('preemptingPolicy (Karmada preemption.go: which Always policy takes a claimed template)', () => {
  const nginx = template('nginx');
  const named = (name = 'nginx', namespace?: string) => [sel({ name, ...(namespace ? { namespace } : {}) })];
  const cases: [string, PropagationPolicy, PropagationPolicy[], string | undefined][] = [
    [
      'a higher-priority PP naming the template takes it from a PP',
      pp('low', { priority: 1 }),
      [pp('high', { ...always, priority: 2, resourceSelectors: named() })],
      'high',
    ],
    [
      'a PP that does not name the template does not',
      pp('low', { priority: 1 }),
      [pp('high', { ...always, priority: 2, resourceSelectors: [sel()] })],
      undefined,
    ],
    [
      'a PP naming another template does not',
      pp('low', { priority: 1 }),
      [pp('high', { ...always, priority: 2, resourceSelectors: named('other') })],
      undefined,
    ],
    [
      'a PP takes a template from a CPP; PPs before CPPs',
      cpp('c', { priority: 1 }),
      [
        cpp('c-high', { ...always, priority: 9, resourceSelectors: named('nginx', 'default') }),
        pp('p', { ...always, priority: 0, resourceSelectors: named() }),
      ],
      'p',
    ],
    [
      'among PPs, the highest explicit priority, then the name',
      pp('low'),
      [
        pp('b', { ...always, priority: 5, resourceSelectors: named() }),
        pp('a', { ...always, priority: 5, resourceSelectors: named() }),
        pp('c', { ...always, priority: 3, resourceSelectors: named() }),
      ],
      'a',
    ],
  ];
  for (const [name, claimant, policies, expected] of cases) {
    it(name, () => {
      assert.equal(preemptingPolicy(nginx, claimant, [claimant, ...policies])?.metadata.name, expected);
    });
  }
});
