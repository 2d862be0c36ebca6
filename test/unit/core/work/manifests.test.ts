/**
 * A Work's manifests and what their live copies say (Karmada v1.15.9 execution controller and
 * `objectwatcher.NeedsUpdate`): apply again when missing or drifted, else report their statuses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import {
  describeManifest,
  manifestsOf,
  observeWork,
  removedWhileAway,
  retriedWhileNotReady,
  withManifestType,
} from '../../../../lib/core/work/index.ts';

const manifest: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx', namespace: 'default' },
  spec: { replicas: 2 },
};
const work = (manifests: unknown[]): KubeObject => ({
  apiVersion: 'work.karmada.io/v1alpha1',
  kind: 'Work',
  metadata: { name: 'nginx-687f7fb96f', namespace: 'karmada-es-member1' },
  spec: { workload: { manifests } },
});

describe('manifestsOf (spec.workload.manifests, objects only)', () => {
  const cases: [string, KubeObject, KubeObject[]][] = [
    ['one manifest', work([manifest]), [manifest]],
    ['no workload', { ...work([]), spec: {} }, []],
    ['entries that are not objects are ignored', work([manifest, null, 'x', [1]]), [manifest]],
  ];
  for (const [name, w, expected] of cases) {
    it(name, () => assert.deepEqual(manifestsOf(w), expected));
  }
});

describe('describeManifest / withManifestType', () => {
  it('names a namespaced manifest Kind namespace/name and a cluster-scoped one Kind name', () => {
    assert.equal(describeManifest(manifest), 'Deployment default/nginx');
    assert.equal(
      describeManifest({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } }),
      'Namespace apps',
    );
  });
  it('an object from a list takes apiVersion and kind from its manifest', () => {
    const listed = { metadata: { name: 'nginx' } } as KubeObject;
    assert.deepEqual(withManifestType(listed, manifest), { ...listed, apiVersion: 'apps/v1', kind: 'Deployment' });
    const typed = { ...manifest };
    assert.equal(withManifestType(typed, manifest), typed);
  });
});

describe('observeWork (member sync: re-apply what is missing or drifted, else report statuses)', () => {
  const live = (spec: unknown, status?: unknown): KubeObject => ({
    ...manifest,
    spec: spec as Record<string, unknown>,
    ...(status ? { status: status as Record<string, unknown> } : {}),
  });
  it('a missing object is applied again', () => {
    assert.deepEqual(
      observeWork(work([manifest]), () => undefined),
      {
        apply: true,
        reason: 'Deployment default/nginx is missing on the member',
      },
    );
  });
  it('an object edited on the member is applied again', () => {
    assert.deepEqual(
      observeWork(work([manifest]), () => live({ replicas: 5 })),
      {
        apply: true,
        reason: 'Deployment default/nginx drifted at /spec/replicas',
      },
    );
  });
  it('fields only the member sets are not drift: the statuses are reported', () => {
    const seen = observeWork(work([manifest]), () => live({ replicas: 2, paused: false }, { readyReplicas: 2 }));
    assert.equal(seen.apply, false);
    assert.deepEqual(
      seen.apply ? [] : seen.manifestStatuses.map((s) => [s.identifier.ordinal, s.identifier.kind, s.identifier.name]),
      [[0, 'Deployment', 'nginx']],
    );
  });
});

describe('retriedWhileNotReady: which Works keep their own retry while their cluster is not Ready', () => {
  const at = Date.parse('2026-01-05T09:00:00Z');
  const work = (status: Record<string, unknown> | undefined, createdSecondsAgo = 120): KubeObject => ({
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: 'w',
      namespace: 'karmada-es-m1',
      generation: 2,
      creationTimestamp: new Date(at - createdSecondsAgo * 1000).toISOString(),
    },
    ...(status ? { status } : {}),
  });
  const applied = (status: string, observedGeneration: number) => ({
    conditions: [{ type: 'Applied', status, observedGeneration }],
  });
  const rows: [string, KubeObject, boolean][] = [
    [
      'refused by the member at its generation: the member sync leaves it to its retry',
      work(applied('False', 2)),
      true,
    ],
    ['created moments ago, never reported: left to its own message (NEW_WORK_GRACE_MS)', work(undefined, 5), true],
    ['never reported, past the grace: the member sync applies it', work(undefined, 60), false],
    ['refused at an older generation: the member sync applies the new one', work(applied('False', 1)), false],
    ['applied before and changed since: the member sync applies it', work(applied('True', 1)), false],
  ];
  for (const [name, w, want] of rows) it(name, () => assert.equal(retriedWhileNotReady(w, at), want));
});

describe('removedWhileAway: whether a deleted Work’s copy, removed now, was a stale copy (StaleCopyRemoved)', () => {
  const deleted = '2026-01-05T09:00:00Z';
  const ready = (status: string, since: string) => ({ type: 'Ready', status, lastTransitionTime: since });
  const rows: [string, Parameters<typeof removedWhileAway>[0], string | undefined, boolean][] = [
    [
      'Push: the member sync of a cluster Ready again after the deletion (the copy ran through the partition)',
      ready('True', '2026-01-05T09:05:00Z'),
      deleted,
      true,
    ],
    [
      'a cluster Ready since before the deletion: an ordinary removal, no stale-copy event',
      ready('True', '2026-01-05T08:00:00Z'),
      deleted,
      false,
    ],
    [
      'Pull: the agent back before the control plane marks the cluster Ready (still Unknown)',
      ready('Unknown', '2026-01-05T08:58:00Z'),
      deleted,
      true,
    ],
    [
      'Ready again in the very second of the deletion: not told apart (whole-second times), no event claimed',
      ready('True', deleted),
      deleted,
      false,
    ],
    [
      'deleted while Ready, the cluster gone away only afterwards (its agent stalled): not a stale copy',
      ready('Unknown', '2026-01-05T09:02:00Z'),
      deleted,
      false,
    ],
    ['a cluster with no Ready condition yet: away', undefined, deleted, true],
    ['a Work that is not being deleted: nothing to say', ready('True', '2026-01-05T09:05:00Z'), undefined, false],
  ];
  for (const [name, r, ts, want] of rows) it(name, () => assert.equal(removedWhileAway(r, ts), want));
});
