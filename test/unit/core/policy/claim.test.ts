import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyClaim, claimedBy, claimMetadata, removeClaim } from '../../../../lib/core/policy/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import {
  CPP_NAME_ANNOTATION,
  CPP_PERMANENT_ID_LABEL,
  PP_NAME_ANNOTATION,
  PP_NAMESPACE_ANNOTATION,
  PP_PERMANENT_ID_LABEL,
} from '../../../../lib/api/well-known.ts';
import { cpp, pp, template } from './fixtures.ts';

const PP_LABEL = PP_PERMANENT_ID_LABEL;
const CPP_LABEL = CPP_PERMANENT_ID_LABEL;
const ppClaim = { [PP_NAMESPACE_ANNOTATION]: 'default', [PP_NAME_ANNOTATION]: 'p' };

describe('claim metadata (Karmada AddPPClaimMetadata / AddCPPClaimMetadata)', () => {
  it('a PropagationPolicy claim is its permanent-id label plus namespace and name annotations', () => {
    assert.deepEqual(claimMetadata(pp('p', { id: 'uuid-1' })), {
      labels: { 'propagationpolicy.karmada.io/permanent-id': 'uuid-1' },
      annotations: { 'propagationpolicy.karmada.io/namespace': 'default', 'propagationpolicy.karmada.io/name': 'p' },
    });
  });
  it('a ClusterPropagationPolicy claim is its permanent-id label plus a name annotation', () => {
    assert.deepEqual(claimMetadata(cpp('c', { id: 'uuid-2' })), {
      labels: { 'clusterpropagationpolicy.karmada.io/permanent-id': 'uuid-2' },
      annotations: { 'clusterpropagationpolicy.karmada.io/name': 'c' },
    });
  });
  it('a policy without a permanent-id label claims with an empty id (Karmada reads a missing label as "")', () => {
    const policy = pp('p');
    delete policy.metadata.labels;
    assert.deepEqual(claimMetadata(policy).labels, { [PP_LABEL]: '' });
  });
});

describe('claimedBy (Karmada propagateResource reads the claim)', () => {
  const cases: [string, KubeObject, ReturnType<typeof claimedBy>][] = [
    ['unlabelled template is unclaimed', template('web'), undefined],
    [
      'full PP claim',
      template('web', { labels: { [PP_LABEL]: 'id1' }, annotations: ppClaim }),
      { kind: 'PropagationPolicy', namespace: 'default', name: 'p', permanentId: 'id1' },
    ],
    ['PP claim without the permanent-id label does not count', template('web', { annotations: ppClaim }), undefined],
    [
      'PP claim without the namespace annotation does not count',
      template('web', { labels: { [PP_LABEL]: 'id1' }, annotations: { [PP_NAME_ANNOTATION]: 'p' } }),
      undefined,
    ],
    [
      'PP claim with an empty id does not count',
      template('web', { labels: { [PP_LABEL]: '' }, annotations: ppClaim }),
      undefined,
    ],
    [
      'full CPP claim',
      template('web', { labels: { [CPP_LABEL]: 'id2' }, annotations: { [CPP_NAME_ANNOTATION]: 'c' } }),
      { kind: 'ClusterPropagationPolicy', name: 'c', permanentId: 'id2' },
    ],
    [
      'CPP claim without the name annotation does not count',
      template('web', { labels: { [CPP_LABEL]: 'id2' } }),
      undefined,
    ],
    [
      'a PP claim is read before a CPP claim',
      template('web', {
        labels: { [PP_LABEL]: 'id1', [CPP_LABEL]: 'id2' },
        annotations: { ...ppClaim, [CPP_NAME_ANNOTATION]: 'c' },
      }),
      { kind: 'PropagationPolicy', namespace: 'default', name: 'p', permanentId: 'id1' },
    ],
  ];
  for (const [name, obj, expected] of cases) {
    it(name, () => assert.deepEqual(claimedBy(obj), expected));
  }
});

describe('applyClaim (Karmada ClaimPolicyForObject / ClaimClusterPolicyForObject)', () => {
  it('claims an unclaimed template, keeping its other labels and annotations, without mutating it', () => {
    const before = template('web', { labels: { app: 'web' }, annotations: { note: 'x' } });
    const snapshot = structuredClone(before);
    const after = applyClaim(before, pp('p', { id: 'id1' }));
    assert.deepEqual(before, snapshot);
    assert.deepEqual(after.metadata.labels, { app: 'web', [PP_LABEL]: 'id1' });
    assert.deepEqual(after.metadata.annotations, { note: 'x', ...ppClaim });
    assert.deepEqual(claimedBy(after), {
      kind: 'PropagationPolicy',
      namespace: 'default',
      name: 'p',
      permanentId: 'id1',
    });
  });
  it('returns the same object when already claimed by the same policy (no-op write skipped)', () => {
    const claimed = applyClaim(template('web'), pp('p'));
    assert.equal(applyClaim(claimed, pp('p')), claimed);
    const cppClaimed = applyClaim(template('web'), cpp('c'));
    assert.equal(applyClaim(cppClaimed, cpp('c')), cppClaimed);
  });
  it('re-claims when a policy of the same name was recreated with a new permanent id', () => {
    const claimed = applyClaim(template('web'), pp('p', { id: 'old' }));
    assert.equal(claimedBy(applyClaim(claimed, pp('p', { id: 'new' })))?.permanentId, 'new');
  });
  it('a PP claim removes a CPP claim (Karmada excludeClusterPolicy: PP preempts CPP)', () => {
    const cppClaimed = applyClaim(template('web', { labels: { app: 'web' } }), cpp('c'));
    const after = applyClaim(cppClaimed, pp('p', { id: 'id1' }));
    assert.deepEqual(after.metadata.labels, { app: 'web', [PP_LABEL]: 'id1' });
    assert.deepEqual(after.metadata.annotations, ppClaim);
  });
  it('a PP claim still removes a stale CPP claim when the PP label already matches', () => {
    const both = applyClaim(applyClaim(template('web'), pp('p')), cpp('c'));
    const after = applyClaim(both, pp('p'));
    assert.notEqual(after, both);
    assert.equal(after.metadata.labels?.[CPP_LABEL], undefined);
  });
  it('a CPP claim leaves a PP claim alone (a CPP never preempts a PP)', () => {
    const after = applyClaim(applyClaim(template('web'), pp('p', { id: 'id1' })), cpp('c', { id: 'id2' }));
    assert.deepEqual(after.metadata.labels, { [PP_LABEL]: 'id1', [CPP_LABEL]: 'id2' });
  });
  it('claims a binding the same way as its template', () => {
    const binding: KubeObject = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'web-deployment', namespace: 'default' },
    };
    assert.deepEqual(applyClaim(binding, pp('p')).metadata.labels, claimMetadata(pp('p')).labels);
  });
});

describe('removeClaim (Karmada Cleanup*ClaimMetadata / NeedCleanupClaimMetadata)', () => {
  const claimed = applyClaim(template('web', { labels: { app: 'web' } }), pp('p', { id: 'id1' }));
  it('removes the PP claim, keeping other metadata', () => {
    const after = removeClaim(claimed, 'PropagationPolicy');
    assert.deepEqual(after.metadata.labels, { app: 'web' });
    assert.equal(after.metadata.annotations, undefined);
    assert.equal(claimedBy(after), undefined);
  });
  it('returns the same object when there is no claim of that kind', () => {
    assert.equal(removeClaim(claimed, 'ClusterPropagationPolicy'), claimed);
    const bare = template('web');
    assert.equal(removeClaim(bare, 'PropagationPolicy'), bare);
  });
  it('with a permanent id, removes only a claim carrying that id (delete-and-recreate race, karmada#5307)', () => {
    assert.equal(removeClaim(claimed, 'PropagationPolicy', 'other-id'), claimed);
    assert.equal(claimedBy(removeClaim(claimed, 'PropagationPolicy', 'id1')), undefined);
  });
  it('removes a CPP claim', () => {
    const c = applyClaim(template('web'), cpp('c'));
    const after = removeClaim(c, 'ClusterPropagationPolicy', 'c-id');
    assert.deepEqual(after.metadata, { name: 'web', namespace: 'default' });
  });
});
