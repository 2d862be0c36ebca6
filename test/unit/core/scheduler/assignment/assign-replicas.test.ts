import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AssignmentInput,
  assignmentStrategy,
  assignReplicas,
} from '../../../../../lib/core/scheduler/assignment/index.ts';
import type { Placement } from '../../../../../lib/core/model/types.ts';
import {
  aggregated,
  candidates,
  duplicated,
  dynamicWeight,
  placement,
  staticByName,
  targets,
  weighted,
} from './factories.ts';

type Spec = AssignmentInput['spec'];

function run(spec: Spec, allocatable: Record<string, number>, extra: Partial<AssignmentInput> = {}) {
  return assignReplicas({ spec, candidates: candidates(allocatable), uid: 'uid', ...extra });
}

describe('assignReplicas (Karmada AssignReplicas)', () => {
  it('TestAssignReplicas "No clusters available": SchedulerError no clusters available to schedule', () => {
    assert.deepEqual(run({ replicas: 1 }, {}), {
      ok: false,
      failure: { reason: 'SchedulerError', message: 'no clusters available to schedule' },
    });
  });

  it('TestAssignReplicas "Non-workload scenario (zero replicas)": every candidate, without replicas', () => {
    assert.deepEqual(run({ replicas: 0, placement: placement(aggregated) }, { member1: 0, member2: 0 }), {
      ok: true,
      value: [{ name: 'member1' }, { name: 'member2' }],
    });
  });

  it('replicas unset (a non-workload such as a ConfigMap) goes to every candidate, whatever the strategy', () => {
    assert.deepEqual(
      run({ placement: placement(weighted(staticByName({ member1: 1 }))) }, { member1: 0, member2: 0 }),
      {
        ok: true,
        value: [{ name: 'member1' }, { name: 'member2' }],
      },
    );
  });

  it('Test_assignByDuplicatedStrategy "test with multiple cluster": every candidate gets spec.replicas', () => {
    assert.deepEqual(run({ replicas: 2, placement: placement(duplicated) }, { member1: 0, member2: 0 }), {
      ok: true,
      value: targets({ member1: 2, member2: 2 }),
    });
  });

  it('no replicaScheduling means Duplicated (Placement.ReplicaSchedulingType)', () => {
    assert.deepEqual(run({ replicas: 3 }, { member1: 0 }), { ok: true, value: targets({ member1: 3 }) });
    assert.deepEqual(run({ replicas: 3, placement: {} }, { member1: 0 }), { ok: true, value: targets({ member1: 3 }) });
  });

  it('TestAssignReplicas "Unsupported replica scheduling strategy": SchedulerError with Karmada\'s message', () => {
    const out = run(
      {
        replicas: 3,
        placement: {
          replicaScheduling: {
            replicaSchedulingType: 'UnsupportedType' as 'Divided',
            replicaDivisionPreference: 'UnsupportedPreference' as 'Weighted',
          },
        },
      },
      { member1: 0 },
    );
    assert.deepEqual(out, {
      ok: false,
      failure: {
        reason: 'SchedulerError',
        message:
          'unsupported replica scheduling strategy, replicaSchedulingType: UnsupportedType, ' +
          'replicaDivisionPreference: UnsupportedPreference, please try another scheduling strategy',
      },
    });
  });

  it('Divided without a division preference is unsupported (the API defaults it; the scheduler does not)', () => {
    const out = run({ replicas: 3, placement: placement({ replicaSchedulingType: 'Divided' }) }, { member1: 0 });
    assert.ok(!out.ok);
    assert.equal(out.failure.reason, 'SchedulerError');
    assert.match(out.failure.message, /^unsupported replica scheduling strategy, replicaSchedulingType: Divided, /);
  });

  it('drops entries that got 0 replicas (removeZeroReplicasCluster)', () => {
    assert.deepEqual(run({ replicas: 1, placement: placement(weighted()) }, { a: 0, b: 0, c: 0 }, { uid: '' }), {
      ok: true,
      value: targets({ a: 1 }),
    });
  });

  it('--enable-empty-workload-propagation lists the candidates that got nothing, without replicas', () => {
    assert.deepEqual(
      run(
        { replicas: 1, placement: placement(weighted()) },
        { c: 0, a: 0, b: 0 },
        { enableEmptyWorkloadPropagation: true, uid: '' },
      ),
      { ok: true, value: [{ name: 'a', replicas: 1 }, { name: 'b' }, { name: 'c' }] },
    );
  });

  it('returns targets sorted by name whatever the candidate order (stable spec.clusters)', () => {
    const rows: [string, Spec, Record<string, number>][] = [
      ['Duplicated', { replicas: 1, placement: placement(duplicated) }, { c: 5, a: 5, b: 5 }],
      ['DynamicWeight', { replicas: 6, placement: placement(dynamicWeight) }, { c: 5, a: 5, b: 5 }],
      [
        'Aggregated scale-up merged with previous',
        { replicas: 12, placement: placement(aggregated), clusters: targets({ c: 3 }) },
        { c: 5, a: 5, b: 5 },
      ],
      ['replicas 0', { replicas: 0 }, { c: 5, a: 5, b: 5 }],
    ];
    for (const [label, spec, alloc] of rows) {
      const out = run(spec, alloc);
      assert.ok(out.ok, label);
      const names = out.value.map((t) => t.name);
      assert.deepEqual(names, [...names].sort(), label);
    }
  });

  it('never mutates its input', () => {
    const spec: Spec = { replicas: 9, placement: placement(dynamicWeight), clusters: targets({ a: 2, b: 2 }) };
    const before = JSON.stringify(spec);
    const cands = candidates({ a: 5, b: 5 });
    const candsBefore = JSON.stringify(cands);
    assignReplicas({ spec, candidates: cands, uid: 'uid' });
    assert.equal(JSON.stringify(spec), before);
    assert.equal(JSON.stringify(cands), candsBefore);
  });
});

describe('assignmentStrategy (Karmada newAssignState)', () => {
  const rows: [string, Placement | undefined, string | undefined][] = [
    ['no placement ⇒ Duplicated', undefined, 'Duplicated'],
    ['no replicaScheduling ⇒ Duplicated', {}, 'Duplicated'],
    ['Duplicated ⇒ Duplicated', placement(duplicated), 'Duplicated'],
    ['Divided + Aggregated ⇒ Aggregated', placement(aggregated), 'Aggregated'],
    ['Divided + Weighted without weightPreference ⇒ StaticWeight', placement(weighted()), 'StaticWeight'],
    [
      'Divided + Weighted with a static list ⇒ StaticWeight',
      placement(weighted(staticByName({ a: 1 }))),
      'StaticWeight',
    ],
    ['Divided + Weighted with dynamicWeight ⇒ DynamicWeight', placement(dynamicWeight), 'DynamicWeight'],
    [
      'dynamicWeight wins over a static list given alongside it',
      placement(weighted({ ...staticByName({ a: 1 }), dynamicWeight: 'AvailableReplicas' })),
      'DynamicWeight',
    ],
    ['Divided without a preference ⇒ unsupported', placement({ replicaSchedulingType: 'Divided' }), undefined],
    ['replicaScheduling without a type ⇒ unsupported', placement({ replicaDivisionPreference: 'Weighted' }), undefined],
  ];
  for (const [name, p, want] of rows) it(name, () => assert.equal(assignmentStrategy(p), want));
});
