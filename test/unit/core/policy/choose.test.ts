import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyClaim, choosePolicy, type PolicyChoice } from '../../../../lib/core/policy/index.ts';
import type { KubeObject, PropagationPolicy } from '../../../../lib/core/model/types.ts';
import { cpp, pp, sel, template } from './fixtures.ts';

/** `outcome` plus the chosen policy as `Kind/ns/name`, for compact expectations. */
function summary(choice: PolicyChoice): string {
  if (choice.outcome === 'none') return 'none';
  if (choice.outcome === 'claimed-gone')
    return `claimed-gone ${choice.claim.kind}/${choice.claim.namespace ?? ''}/${choice.claim.name}`;
  const p = choice.policy;
  return `${choice.outcome} ${p.kind}/${p.metadata.namespace ?? ''}/${p.metadata.name}`;
}

const web = template('web', { labels: { app: 'web' } });
const clusterRole = template('admin', {
  namespace: '',
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
});
const allClusterRoles = [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }];

describe('choosePolicy (Karmada propagateResource, §2.1)', () => {
  const cases: [string, KubeObject, PropagationPolicy[], PropagationPolicy[], string][] = [
    ['no policy: none (waiting list)', web, [], [], 'none'],
    [
      'unclaimed: highest PP in the template namespace',
      web,
      [pp('low'), pp('high', { priority: 2 })],
      [],
      'matched PropagationPolicy/default/high',
    ],
    [
      'unclaimed: PPs of other namespaces are not candidates',
      web,
      [pp('elsewhere', { namespace: 'other', resourceSelectors: [sel({ namespace: 'default' })] })],
      [],
      'none',
    ],
    [
      'unclaimed: PP beats CPP even with lower priority',
      web,
      [pp('p', { priority: -5 })],
      [cpp('c', { priority: 100 })],
      'matched PropagationPolicy/default/p',
    ],
    [
      'unclaimed: CPP when no PP matches',
      web,
      [pp('p', { resourceSelectors: [sel({ name: 'api' })] })],
      [cpp('c')],
      'matched ClusterPropagationPolicy//c',
    ],
    [
      'unclaimed: highest CPP by explicit priority',
      web,
      [],
      [cpp('a'), cpp('b', { priority: 1 })],
      'matched ClusterPropagationPolicy//b',
    ],
    [
      'unclaimed: deleting PP skipped, falls through to CPP',
      web,
      [pp('p', { deleting: true })],
      [cpp('c')],
      'matched ClusterPropagationPolicy//c',
    ],
    ['unclaimed: deleting CPP skipped', web, [], [cpp('c', { deleting: true })], 'none'],
    ['cluster-scoped template ignores PPs', clusterRole, [pp('p', { resourceSelectors: allClusterRoles })], [], 'none'],
    [
      'cluster-scoped template matches a CPP',
      clusterRole,
      [pp('p', { resourceSelectors: allClusterRoles })],
      [cpp('c', { resourceSelectors: allClusterRoles })],
      'matched ClusterPropagationPolicy//c',
    ],
    [
      'sticky PP claim: not re-evaluated against a higher-priority PP',
      applyClaim(web, pp('old')),
      [pp('old'), pp('new', { priority: 10, resourceSelectors: [sel({ name: 'web' })] })],
      [],
      'claimed PropagationPolicy/default/old',
    ],
    [
      'sticky CPP claim: not re-evaluated against a PP that now matches',
      applyClaim(web, cpp('c')),
      [pp('p', { priority: 10 })],
      [cpp('c')],
      'claimed ClusterPropagationPolicy//c',
    ],
    [
      'claimed PP gone: caller unclaims, then re-matches',
      applyClaim(web, pp('gone')),
      [pp('other')],
      [],
      'claimed-gone PropagationPolicy/default/gone',
    ],
    [
      'claimed CPP gone',
      applyClaim(web, cpp('gone')),
      [],
      [cpp('other')],
      'claimed-gone ClusterPropagationPolicy//gone',
    ],
    [
      'claimed PP deleting: retry',
      applyClaim(web, pp('p')),
      [pp('p', { deleting: true }), pp('q')],
      [],
      'claimed-deleting PropagationPolicy/default/p',
    ],
    [
      'claimed CPP deleting: retry',
      applyClaim(web, cpp('c')),
      [],
      [cpp('c', { deleting: true })],
      'claimed-deleting ClusterPropagationPolicy//c',
    ],
    [
      'claimed policy no longer selects the template: ignored, not unclaimed',
      applyClaim(web, pp('p')),
      [pp('p', { resourceSelectors: [sel({ name: 'api' })] }), pp('q')],
      [],
      'claimed-mismatch PropagationPolicy/default/p',
    ],
    [
      'claimed PP looked up by namespace/name, not only name',
      applyClaim(web, pp('p')),
      [pp('p', { namespace: 'other' })],
      [],
      'claimed-gone PropagationPolicy/default/p',
    ],
  ];
  for (const [name, tmpl, pps, cpps, expected] of cases) {
    it(name, () =>
      assert.equal(
        summary(choosePolicy({ template: tmpl, propagationPolicies: pps, clusterPropagationPolicies: cpps })),
        expected,
      ),
    );
  }

  it('a PP recreated under the claimed name is still "claimed"; applyClaim then rewrites the id (Karmada ClaimPolicyForObject)', () => {
    const tmpl = applyClaim(web, pp('p', { id: 'old' }));
    const choice = choosePolicy({
      template: tmpl,
      propagationPolicies: [pp('p', { id: 'new' })],
      clusterPropagationPolicies: [],
    });
    assert.equal(choice.outcome, 'claimed');
    assert.equal(choice.outcome === 'claimed' && choice.claim.permanentId, 'old');
    assert.notEqual(applyClaim(tmpl, (choice as { policy: PropagationPolicy }).policy), tmpl);
  });
});
