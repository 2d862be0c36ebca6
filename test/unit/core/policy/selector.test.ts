import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compareGoStrings,
  highestPriorityPolicy,
  ImplicitPriority as P,
  matchingTemplates,
  policyImplicitPriority,
  selectorPriority,
} from '../../../../lib/core/policy/index.ts';
import type { KubeObject, PropagationPolicy, ResourceSelector } from '../../../../lib/core/model/types.ts';
import { cpp, pp, sel, template } from './fixtures.ts';

const web = template('web', { labels: { app: 'web', tier: 'front' } });

describe('selectorPriority (Karmada ResourceSelectorPriority)', () => {
  const cases: [string, KubeObject, ResourceSelector, number][] = [
    ['apiVersion mismatch is MisMatch', web, sel({ apiVersion: 'apps/v1beta1' }), P.MisMatch],
    ['kind mismatch is MisMatch', web, sel({ kind: 'StatefulSet' }), P.MisMatch],
    ['namespace mismatch is MisMatch', web, sel({ namespace: 'other' }), P.MisMatch],
    ['empty selector namespace matches any namespace', web, sel({ namespace: '' }), P.MatchAll],
    [
      'selector namespace never matches a cluster-scoped template',
      template('web', { namespace: '' }),
      sel({ namespace: 'default' }),
      P.MisMatch,
    ],
    ['no name nor labelSelector is MatchAll', web, sel({ namespace: 'default' }), P.MatchAll],
    ['equal name is MatchName', web, sel({ name: 'web' }), P.MatchName],
    ['other name is MisMatch', web, sel({ name: 'api' }), P.MisMatch],
    [
      'name selector ignores a non-matching labelSelector',
      web,
      sel({ name: 'web', labelSelector: { matchLabels: { app: 'x' } } }),
      P.MatchName,
    ],
    [
      'name mismatch is not rescued by a matching labelSelector',
      web,
      sel({ name: 'api', labelSelector: { matchLabels: { app: 'web' } } }),
      P.MisMatch,
    ],
    [
      'matching matchLabels is MatchLabelSelector',
      web,
      sel({ labelSelector: { matchLabels: { app: 'web' } } }),
      P.MatchLabelSelector,
    ],
    [
      'matching matchExpressions is MatchLabelSelector',
      web,
      sel({ labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] } }),
      P.MatchLabelSelector,
    ],
    [
      'non-matching labelSelector is MisMatch',
      web,
      sel({ labelSelector: { matchLabels: { app: 'api' } } }),
      P.MisMatch,
    ],
    [
      'empty labelSelector {} matches everything as MatchLabelSelector (LabelSelectorAsSelector: Everything)',
      template('bare'),
      sel({ labelSelector: {} }),
      P.MatchLabelSelector,
    ],
    [
      'labelSelector on a template without labels',
      template('bare'),
      sel({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] } }),
      P.MatchLabelSelector,
    ],
    [
      'invalid selector (empty key) is MisMatch',
      web,
      sel({ labelSelector: { matchExpressions: [{ key: '', operator: 'Exists' }] } }),
      P.MisMatch,
    ],
    [
      'invalid selector (unknown operator) is MisMatch',
      web,
      sel({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] } }),
      P.MisMatch,
    ],
    [
      'invalid selector (In without values) is MisMatch',
      web,
      sel({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
      P.MisMatch,
    ],
  ];
  for (const [name, obj, selector, expected] of cases) {
    it(name, () => assert.equal(selectorPriority(obj, selector), expected));
  }

  it('policy implicit priority is the best of its selectors (Karmada ResourceMatchSelectorsPriority)', () => {
    const policy = pp('p', {
      resourceSelectors: [sel({ name: 'api' }), sel(), sel({ labelSelector: { matchLabels: { app: 'web' } } })],
    });
    assert.equal(policyImplicitPriority(web, policy), P.MatchLabelSelector);
    assert.equal(policyImplicitPriority(web, pp('q', { resourceSelectors: [sel({ kind: 'Service' })] })), P.MisMatch);
  });
});

describe('highestPriorityPolicy (Karmada getHighestPriorityPropagationPolicy, A.1)', () => {
  const byName = (name: string) => sel({ name });
  const cases: [string, PropagationPolicy[], string | undefined][] = [
    ['no policies: none', [], undefined],
    [
      'implicit priority 0 is skipped even with a high explicit priority',
      [pp('a', { priority: 100, resourceSelectors: [byName('api')] }), pp('b')],
      'b',
    ],
    ['only non-matching policies: none', [pp('a', { resourceSelectors: [byName('api')] })], undefined],
    [
      'explicit priority beats implicit priority',
      [pp('by-name', { resourceSelectors: [byName('web')] }), pp('match-all', { priority: 1 })],
      'match-all',
    ],
    [
      'absent priority counts as 0',
      [pp('neg', { priority: -1, resourceSelectors: [byName('web')] }), pp('zero')],
      'zero',
    ],
    [
      'negative explicit priorities still win when alone (initial best is MinInt32)',
      [pp('neg', { priority: -2147483648 })],
      'neg',
    ],
    [
      'same explicit priority: MatchName beats MatchLabelSelector beats MatchAll',
      [
        pp('all'),
        pp('label', { resourceSelectors: [sel({ labelSelector: { matchLabels: { app: 'web' } } })] }),
        pp('name', { resourceSelectors: [byName('web')] }),
      ],
      'name',
    ],
    [
      'same explicit priority: MatchLabelSelector beats MatchAll',
      [pp('all'), pp('label', { resourceSelectors: [sel({ labelSelector: { matchLabels: { app: 'web' } } })] })],
      'label',
    ],
    ['full tie: smallest name wins, whatever the order', [pp('b'), pp('a'), pp('c')], 'a'],
    ['full tie: Go byte order puts uppercase before lowercase', [pp('a'), pp('B')], 'B'],
    ['full tie: byte order, not locale ("a-b" < "a.b" < "ab")', [pp('ab'), pp('a.b'), pp('a-b')], 'a-b'],
    [
      'a deleting policy is skipped (metadata.deletionTimestamp set)',
      [pp('a', { priority: 5, deleting: true }), pp('b')],
      'b',
    ],
    [
      'later higher explicit priority replaces an earlier better implicit match',
      [pp('name', { resourceSelectors: [byName('web')] }), pp('all', { priority: 3 }), pp('all2', { priority: 2 })],
      'all',
    ],
  ];
  for (const [name, policies, expected] of cases) {
    it(name, () => assert.equal(highestPriorityPolicy(policies, web)?.metadata.name, expected));
  }

  it('compares names in UTF-8 byte order, not UTF-16 units (Go string <)', () => {
    assert.ok(compareGoStrings('\uffff', '\u{10000}') < 0);
    assert.ok('\uffff' > '\u{10000}'); // JS's own order disagrees
    assert.ok(compareGoStrings('Z', 'a') < 0);
    assert.ok(compareGoStrings('a', 'ab') < 0);
    assert.equal(compareGoStrings('x', 'x'), 0);
  });
});

describe('matchingTemplates (policy change fan-out)', () => {
  const templates = [
    template('web', { labels: { app: 'web' } }),
    template('api'),
    template('web', { namespace: 'other', labels: { app: 'web' } }),
    template('ns-scoped', { namespace: '', kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1' }),
  ];
  const key = (t: KubeObject) => `${t.metadata.namespace ?? ''}/${t.metadata.name}`;
  const cases: [string, PropagationPolicy, string[]][] = [
    [
      'a PropagationPolicy only matches templates in its own namespace',
      pp('p', { resourceSelectors: [sel()] }),
      ['default/web', 'default/api'],
    ],
    ['a PropagationPolicy in another namespace matches there', pp('p', { namespace: 'other' }), ['other/web']],
    [
      'a ClusterPropagationPolicy matches namespaced templates in every namespace',
      cpp('c'),
      ['default/web', 'default/api', 'other/web'],
    ],
    [
      'a ClusterPropagationPolicy matches cluster-scoped templates',
      cpp('c', { resourceSelectors: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }] }),
      ['/ns-scoped'],
    ],
    [
      'label selectors are applied',
      cpp('c', { resourceSelectors: [sel({ labelSelector: { matchLabels: { app: 'web' } } })] }),
      ['default/web', 'other/web'],
    ],
    [
      'selector namespace narrows a ClusterPropagationPolicy',
      cpp('c', { resourceSelectors: [sel({ namespace: 'other' })] }),
      ['other/web'],
    ],
  ];
  for (const [name, policy, expected] of cases) {
    it(name, () => assert.deepEqual(matchingTemplates(policy, templates).map(key), expected));
  }
});
