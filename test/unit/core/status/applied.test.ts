/**
 * A Work's `Applied` condition and manifest statuses, as the execution controller and the agent write
 * them (Karmada v1.15.9 execution controller `updateAppliedCondition`, work status controller).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Condition } from '../../../../lib/api/conditions.ts';
import {
  appliedCurrent,
  appliedFailureMessage,
  dispatchingStarts,
  failedCurrent,
  type ManifestStatus,
  workStatusAfter,
  workStatusChanged,
} from '../../../../lib/core/status/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';

const NOW = '2026-01-02T03:04:05Z';
const applied = (status: 'True' | 'False', observedGeneration?: number): Condition => ({
  type: 'Applied',
  status,
  reason: status === 'True' ? 'AppliedSuccessful' : 'AppliedFailed',
  message: 'm',
  lastTransitionTime: '2026-01-01T00:00:00Z',
  ...(observedGeneration !== undefined ? { observedGeneration } : {}),
});
const work = (generation: number, conditions?: Condition[], manifestStatuses?: ManifestStatus[]): KubeObject => ({
  apiVersion: 'work.karmada.io/v1alpha1',
  kind: 'Work',
  metadata: { name: 'w', namespace: 'karmada-es-member1', generation },
  ...(conditions || manifestStatuses
    ? { status: { ...(conditions ? { conditions } : {}), ...(manifestStatuses ? { manifestStatuses } : {}) } }
    : {}),
});
const ms = (name: string): ManifestStatus => ({
  identifier: { ordinal: 0, group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'default', name },
  health: 'Healthy',
});

describe('appliedCurrent / failedCurrent (was this generation of the Work applied?)', () => {
  const cases: [string, KubeObject, boolean, boolean][] = [
    ['no status yet: neither', work(1), false, false],
    ['Applied=True for this generation', work(2, [applied('True', 2)]), true, false],
    ['Applied=True for an older generation: apply again', work(3, [applied('True', 2)]), false, false],
    ['Applied=False for this generation: refused', work(2, [applied('False', 2)]), false, true],
    ['Applied=False for an older generation: try the new one', work(3, [applied('False', 2)]), false, false],
  ];
  for (const [name, w, isApplied, isFailed] of cases) {
    it(name, () => {
      assert.equal(appliedCurrent(w), isApplied);
      assert.equal(failedCurrent(w), isFailed);
    });
  }
});

describe('dispatchingStarts (WorkDispatching as Dispatching turns True; on a binding only for a dispatch that resumes, decision 0016)', () => {
  const dispatching = (status: 'True' | 'False'): Condition => ({
    type: 'Dispatching',
    status,
    reason: status === 'True' ? 'Dispatching' : 'SuspendDispatching',
    message: 'm',
    lastTransitionTime: '2026-01-01T00:00:00Z',
  });
  const cases: [string, KubeObject, 'first' | 'resumed' | undefined][] = [
    ['a new Work (no status): a first dispatch, said on a binding by SyncSucceed', work(1), 'first'],
    [
      'applied before, Dispatching=True: no new dispatch',
      work(1, [applied('True', 1), dispatching('True')]),
      undefined,
    ],
    ['suspended (Dispatching=False, SuspendDispatching): it resumes', work(2, [dispatching('False')]), 'resumed'],
    [
      'a status written before Dispatching existed (no such condition): a first dispatch, not a resume',
      work(1, [applied('True', 1)]),
      'first',
    ],
  ];
  for (const [name, w, starts] of cases) it(name, () => assert.equal(dispatchingStarts(w), starts));
});

describe('workStatusAfter / workStatusChanged (the status written after an apply)', () => {
  it('success: Applied=True, AppliedSuccessful, for this generation, with the new statuses', () => {
    const next = workStatusAfter(work(2), { manifestStatuses: [ms('a')] }, NOW);
    assert.deepEqual(next, {
      conditions: [
        {
          type: 'Applied',
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
          observedGeneration: 2,
          lastTransitionTime: NOW,
        },
        // Karmada's execution controller: Dispatching=True on the first dispatch (agent and executor alike).
        {
          type: 'Dispatching',
          status: 'True',
          reason: 'Dispatching',
          message: 'Work is being dispatched to member clusters.',
          lastTransitionTime: NOW,
        },
      ],
      manifestStatuses: [ms('a')],
    });
  });
  it('failure: Applied=False, AppliedFailed, with the member’s message', () => {
    const next = workStatusAfter(work(2), { failure: 'forbidden', manifestStatuses: [] }, NOW);
    assert.deepEqual(
      next.conditions?.map((c) => [c.status, c.reason, c.message, c.observedGeneration]),
      [
        ['False', 'AppliedFailed', 'forbidden', 2],
        ['True', 'Dispatching', 'Work is being dispatched to member clusters.', undefined],
      ],
    );
  });
  it('a failure with no manifest status keeps the last reported ones', () => {
    const next = workStatusAfter(
      work(2, [applied('True', 1)], [ms('old')]),
      { failure: 'x', manifestStatuses: [] },
      NOW,
    );
    assert.deepEqual(next.manifestStatuses, [ms('old')]);
  });
  it('the same outcome again changes nothing', () => {
    const first = workStatusAfter(work(2), { manifestStatuses: [ms('a')] }, NOW);
    const stored = { ...work(2), status: first };
    const again = workStatusAfter(stored, { manifestStatuses: [ms('a')] }, '2026-02-01T00:00:00Z');
    assert.equal(workStatusChanged(stored, again), false);
    assert.equal(workStatusChanged(work(2), first), true);
  });
});

describe('appliedFailureMessage (Karmada execution controller: "Failed to apply all manifests (n/m): ...")', () => {
  const rows: [string, number, number, string[], string][] = [
    ['one error: as is', 0, 1, ['boom'], 'Failed to apply all manifests (0/1): boom'],
    ['several: as errors.NewAggregate prints them', 1, 3, ['a', 'b'], 'Failed to apply all manifests (1/3): [a, b]'],
    ['duplicates collapse, as the aggregate does', 0, 2, ['a', 'a'], 'Failed to apply all manifests (0/2): a'],
  ];
  for (const [name, ok, total, errors, want] of rows) {
    it(name, () => assert.equal(appliedFailureMessage(ok, total, errors), want));
  }
});
