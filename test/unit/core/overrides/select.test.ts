/**
 * Which override rules apply and in what order (Karmada v1.15.9 `overridemanager.go`
 * `ApplyOverridePolicies` / `getOverridersFromOverridePolicies`, `TestGetMatchingOverridePolicies`),
 * and the applied-overrides annotations.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APPLIED_CLUSTER_OVERRIDES_ANNOTATION, APPLIED_OVERRIDES_ANNOTATION } from '../../../../lib/api/well-known.ts';
import {
  applicablePolicies,
  appliedOverridesAnnotations,
  applyOverrides,
  overrideForCluster,
  type Overriders,
  type PolicyOverriders,
} from '../../../../lib/core/overrides/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import { cluster, cop, deployment, dig, op } from './fixtures.ts';

const deploy = { ...deployment(), metadata: { name: 'test', namespace: 'default', labels: { app: 'nginx' } } };
const member1 = cluster('cluster1', { env: 'prod' });
const member2 = cluster('cluster2', { env: 'dev' }, { region: 'eu' });

const annotate = (value: string): Overriders => ({
  plaintext: [{ path: '/metadata/annotations', operator: 'add', value: { who: value } }],
});
const overriders1 = annotate('foo: bar');
const overriders2 = annotate('aaa: bbb');
const overriders3 = annotate('hello: world');

/** `name[#rule]` per entry, for compact expectations. */
function order(entries: PolicyOverriders[]): string[] {
  return entries.map(
    (e) =>
      `${e.policy.kind === 'ClusterOverridePolicy' ? 'cop' : 'op'}/${e.policy.name}${e.rule === undefined ? '' : `#${e.rule}`}`,
  );
}

describe('applicablePolicies (TestGetMatchingOverridePolicies)', () => {
  // High implicit priority: selects the Deployment by name; two rules.
  const overridePolicy1 = op('overridePolicy1', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' }],
    overrideRules: [
      { targetCluster: { clusterNames: ['cluster1', 'cluster2'] }, overriders: overriders1 },
      { targetCluster: { clusterNames: ['cluster2'] }, overriders: overriders2 },
    ],
  });
  // Low implicit priority: no resource selectors (all resources in the namespace).
  const overridePolicy2 = op('overridePolicy2', {
    overrideRules: [{ targetCluster: { clusterNames: ['cluster1', 'cluster2'] }, overriders: overriders3 }],
  });
  const overridePolicy3 = op('overridePolicy3', {
    resourceSelectors: [],
    overrideRules: [{ targetCluster: { clusterNames: ['cluster1', 'cluster2'] }, overriders: overriders3 }],
  });
  const oldOverridePolicy = cop('oldOverridePolicy', {
    targetCluster: { clusterNames: ['cluster1'] },
    overriders: overriders3,
  });

  it('OverrideRules test 1: less specific first; only rules targeting cluster1', () => {
    const got = applicablePolicies({
      template: deploy,
      cluster: member1,
      overridePolicies: [overridePolicy1, overridePolicy2],
    });
    assert.deepEqual(order(got), ['op/overridePolicy2#0', 'op/overridePolicy1#0']);
    assert.deepEqual(got[1]!.overriders, overriders1);
    assert.deepEqual(got[1]!.policy, { kind: 'OverridePolicy', name: 'overridePolicy1', namespace: 'default' });
  });

  it('OverrideRules test 2: on cluster2 both rules of overridePolicy1, in spec order', () => {
    const got = applicablePolicies({
      template: deploy,
      cluster: member2,
      overridePolicies: [overridePolicy1, overridePolicy2],
    });
    assert.deepEqual(order(got), ['op/overridePolicy2#0', 'op/overridePolicy1#0', 'op/overridePolicy1#1']);
    assert.deepEqual(
      got.map((g) => g.overriders),
      [overriders3, overriders1, overriders2],
    );
  });

  it('OverrideRules test 3: empty resourceSelectors matches every resource (§4.8)', () => {
    const got = applicablePolicies({ template: deploy, cluster: member2, overridePolicies: [overridePolicy3] });
    assert.deepEqual(order(got), ['op/overridePolicy3#0']);
    const configMap: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'any', namespace: 'default' },
    };
    assert.deepEqual(
      order(applicablePolicies({ template: configMap, cluster: member2, overridePolicies: [overridePolicy3] })),
      ['op/overridePolicy3#0'],
    );
  });

  it('TargetCluster and Overriders test: the deprecated form is one rule', () => {
    const got = applicablePolicies({
      template: deploy,
      cluster: member1,
      clusterOverridePolicies: [oldOverridePolicy],
    });
    assert.deepEqual(got, [
      { policy: { kind: 'ClusterOverridePolicy', name: 'oldOverridePolicy' }, overriders: overriders3 },
    ]);
    assert.deepEqual(
      applicablePolicies({ template: deploy, cluster: member2, clusterOverridePolicies: [oldOverridePolicy] }),
      [],
    );
  });

  it('ClusterOverridePolicies come before OverridePolicies, whatever their specificity', () => {
    const byName = cop('z-by-name', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' }],
      overriders: {},
    });
    const all = op('a-all', { overriders: {} });
    const got = applicablePolicies({
      template: deploy,
      cluster: member1,
      overridePolicies: [all],
      clusterOverridePolicies: [byName],
    });
    assert.deepEqual(order(got), ['cop/z-by-name', 'op/a-all']);
  });

  it('within a kind: MatchAll < MatchLabelSelector < MatchName, then name ascending (Go byte order)', () => {
    const policies = [
      op('b-name', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' }],
        overriders: {},
      }),
      op('a-name', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' }],
        overriders: {},
      }),
      op('label', {
        resourceSelectors: [
          { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'nginx' } } },
        ],
        overriders: {},
      }),
      op('kind', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], overriders: {} }),
      op('Z-empty', { overriders: {} }),
      op('a-empty', { resourceSelectors: [], overriders: {} }),
      // Best selector counts: a MisMatch selector next to a name match is MatchName.
      op('mixed', {
        resourceSelectors: [
          { apiVersion: 'v1', kind: 'Pod' },
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' },
        ],
        overriders: {},
      }),
    ];
    const got = applicablePolicies({ template: deploy, cluster: member1, overridePolicies: policies });
    assert.deepEqual(order(got), [
      'op/Z-empty',
      'op/a-empty',
      'op/kind',
      'op/label',
      'op/a-name',
      'op/b-name',
      'op/mixed',
    ]);
  });

  it('policies whose selectors do not match are skipped', () => {
    const policies = [
      op('other-name', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        overriders: {},
      }),
      op('other-kind', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'StatefulSet' }], overriders: {} }),
      op('other-ns', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'prod' }],
        overriders: {},
      }),
      op('labels', {
        resourceSelectors: [
          { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'db' } } },
        ],
        overriders: {},
      }),
    ];
    assert.deepEqual(applicablePolicies({ template: deploy, cluster: member1, overridePolicies: policies }), []);
  });

  it('OverridePolicies of other namespaces never apply, nor to cluster-scoped templates', () => {
    const elsewhere = op('elsewhere', { overriders: {} }, 'prod');
    assert.deepEqual(applicablePolicies({ template: deploy, cluster: member1, overridePolicies: [elsewhere] }), []);
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
    };
    const all = op('all', { overriders: {} });
    const allCop = cop('all', { overriders: {} });
    assert.deepEqual(
      order(
        applicablePolicies({
          template: role,
          cluster: member1,
          overridePolicies: [all],
          clusterOverridePolicies: [allCop],
        }),
      ),
      ['cop/all'],
    );
  });

  it('targetCluster via ClusterMatches: labels, fields, exclude; absent = every cluster', () => {
    const policy = op('p', {
      overrideRules: [
        { overriders: {} },
        { targetCluster: { labelSelector: { matchLabels: { env: 'prod' } } }, overriders: {} },
        {
          targetCluster: { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['eu'] }] } },
          overriders: {},
        },
        { targetCluster: { exclude: ['cluster1'] }, overriders: {} },
        { targetCluster: null, overriders: {} },
        { targetCluster: {}, overriders: {} },
      ],
    });
    assert.deepEqual(order(applicablePolicies({ template: deploy, cluster: member1, overridePolicies: [policy] })), [
      'op/p#0',
      'op/p#1',
      'op/p#4',
      'op/p#5',
    ]);
    assert.deepEqual(order(applicablePolicies({ template: deploy, cluster: member2, overridePolicies: [policy] })), [
      'op/p#0',
      'op/p#2',
      'op/p#3',
      'op/p#4',
      'op/p#5',
    ]);
  });
});

describe('applyOverrides across policies: the most specific policy is applied last and wins (§4.8)', () => {
  const setImage = (image: string): Overriders => ({
    plaintext: [{ path: '/spec/template/spec/containers/0/image', operator: 'replace', value: image }],
  });
  const policies = [
    op('by-name', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' }],
      overriders: setImage('by-name:1'),
    }),
    op('all', { overriders: setImage('all:1') }),
  ];
  const clusterPolicies = [
    cop('cluster-wide', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' }],
      overriders: setImage('cop:1'),
    }),
  ];

  it('OP by name beats OP for all, which beats the COP', () => {
    const result = overrideForCluster({
      template: deploy,
      cluster: member1,
      overridePolicies: policies,
      clusterOverridePolicies: clusterPolicies,
    });
    assert.ok(result.ok);
    assert.equal(dig(result.object, 'spec.template.spec.containers.0.image'), 'by-name:1');
    assert.deepEqual(order(result.applied), ['cop/cluster-wide', 'op/all', 'op/by-name']);
  });

  it('a failing rule aborts everything and names its policy', () => {
    const broken = op('broken', {
      overrideRules: [
        { overriders: {} },
        { overriders: { plaintext: [{ path: '/nope/x', operator: 'replace', value: 1 }] } },
      ],
    });
    const result = overrideForCluster({
      template: deploy,
      cluster: member1,
      overridePolicies: [...policies, broken],
      clusterOverridePolicies: clusterPolicies,
    });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(result.policy, { kind: 'OverridePolicy', name: 'broken', namespace: 'default' });
    assert.equal(result.rule, 1);
    assert.match(
      result.error,
      /^OverridePolicy default\/broken \(rule 1\): plaintext: json patch operation 0 \(replace \/nope\/x\)/,
    );
  });

  it('no rules: an equal copy, not the same object', () => {
    const result = applyOverrides(deploy, []);
    assert.ok(result.ok);
    assert.deepEqual(result.object, deploy);
    assert.notEqual(result.object, deploy);
  });
});

describe('appliedOverridesAnnotations (RecordAppliedOverrides)', () => {
  it('one annotation per kind, items sorted by policy name, Go field order, empty lists omitted', () => {
    const applied: PolicyOverriders[] = [
      {
        policy: { kind: 'ClusterOverridePolicy', name: 'c' },
        overriders: { labelsOverrider: [{ operator: 'add', value: { a: 'b' } }], plaintext: [] },
      },
      { policy: { kind: 'OverridePolicy', name: 'z', namespace: 'default' }, rule: 0, overriders: {} },
      {
        policy: { kind: 'OverridePolicy', name: 'a', namespace: 'default' },
        rule: 0,
        overriders: {
          labelsOverrider: [{ operator: 'add', value: { x: 'y' } }],
          plaintext: [{ path: '/a', operator: 'remove' }],
        },
      },
    ];
    assert.deepEqual(appliedOverridesAnnotations(applied), {
      [APPLIED_CLUSTER_OVERRIDES_ANNOTATION]:
        '[{"policyName":"c","overriders":{"labelsOverrider":[{"operator":"add","value":{"a":"b"}}]}}]',
      [APPLIED_OVERRIDES_ANNOTATION]:
        '[{"policyName":"a","overriders":{"plaintext":[{"path":"/a","operator":"remove","value":null}],"labelsOverrider":[{"operator":"add","value":{"x":"y"}}]}},{"policyName":"z","overriders":{}}]',
    });
  });

  it('Go struct order and omitempty inside each overrider', () => {
    const applied: PolicyOverriders[] = [
      {
        policy: { kind: 'OverridePolicy', name: 'p', namespace: 'default' },
        overriders: {
          fieldOverrider: [{ yaml: [{ value: 1, operator: 'add', subPath: '/a' }], fieldPath: '/data/x' }],
          imageOverrider: [
            { value: '', operator: 'remove', component: 'Tag' },
            { predicate: { path: '/p' }, component: 'Registry', operator: 'add', value: 'r' },
          ],
          commandOverrider: [{ operator: 'add', containerName: 'c', value: [] }],
        },
      },
    ];
    assert.equal(
      appliedOverridesAnnotations(applied)[APPLIED_OVERRIDES_ANNOTATION],
      '[{"policyName":"p","overriders":{' +
        '"imageOverrider":[{"component":"Tag","operator":"remove"},{"predicate":{"path":"/p"},"component":"Registry","operator":"add","value":"r"}],' +
        '"commandOverrider":[{"containerName":"c","operator":"add"}],' +
        '"fieldOverrider":[{"fieldPath":"/data/x","yaml":[{"subPath":"/a","operator":"add","value":1}]}]}}]',
    );
  });

  it('nothing applied: no annotations', () => {
    assert.deepEqual(appliedOverridesAnnotations([]), {});
  });
});
