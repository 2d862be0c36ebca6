import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../lib/api/object.ts';
import {
  defaultClusterPropagationPolicy,
  defaultPropagationPolicy,
  validateKarmadaObject,
} from '../../../../lib/karmada/validation/index.ts';
import { clusterPropagationPolicy, context, messages, propagationPolicy } from './support.ts';

const QUALIFIED_NAME =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const bothAffinities = {
  clusterAffinity: { clusterNames: ['member1'] },
  clusterAffinities: [{ affinityName: 'primary', clusterNames: ['member1'] }],
};
const byFieldAndLabel = { spreadByField: 'cluster', spreadByLabel: 'topology', minGroups: 1 };
const negativeMin = { spreadByField: 'cluster', minGroups: -1 };
const negativeMax = { spreadByField: 'cluster', maxGroups: -1, minGroups: 1 };
const maxBelowMin = { spreadByField: 'cluster', maxGroups: 1, minGroups: 2 };
const tripleCluster = [1, 2, 3].map(() => ({ spreadByField: 'cluster', minGroups: 1 }));
const regionOnly = [{ spreadByField: 'region', minGroups: 1 }];
const duplicateAffinities = [
  { affinityName: 'a', clusterNames: ['member1'] },
  { affinityName: 'a', clusterNames: ['member2'] },
  { affinityName: 'a', clusterNames: ['member3'] },
];
const suspension = { dispatching: true, dispatchingOnClusters: { clusterNames: ['member1'] } };
const application = (app: Record<string, unknown>) => ({
  propagateDeps: true,
  failover: { application: { decisionConditions: { tolerationSeconds: 300 }, ...app } },
});

interface Case {
  rule: string;
  obj: KubeObject;
  old?: KubeObject;
  errors: string[];
}

const overflowTerm = {
  affinityName: 'main',
  clusterNames: ['member1'],
  overflowAffinities: [{ affinityName: 'burst', clusterNames: ['member2'] }],
};
const aggregated = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' };

const invalid: Case[] = [
  {
    rule: 'v1.18: overflowAffinities only with dynamic weight or aggregated scheduling',
    obj: propagationPolicy({ placement: { clusterAffinities: [overflowTerm] } }),
    errors: [
      `spec.placement.clusterAffinities[0].overflowAffinities: Invalid value: ${JSON.stringify(overflowTerm.overflowAffinities)}: overflowAffinities can only be used together with dynamic weight or aggregated scheduling`,
    ],
  },
  {
    rule: 'v1.18: overflowAffinities need a non-empty inline affinity, and unique names',
    obj: propagationPolicy({
      placement: {
        replicaScheduling: aggregated,
        clusterAffinities: [{ affinityName: 'main', overflowAffinities: [{ affinityName: 'main' }] }],
      },
    }),
    errors: [
      'spec.placement.clusterAffinities[0].overflowAffinities: Invalid value: [{"affinityName":"main"}]: overflowAffinities can only be used together with the inline ClusterAffinity',
      `spec.placement.clusterAffinities[0].overflowAffinities[0].affinityName: Invalid value: "main": overflow affinity name must be unique and must not duplicate the primary group's affinityName`,
    ],
  },
  {
    rule: 'v1.17: workloadAffinity affinity and antiAffinity must not use the same key',
    obj: propagationPolicy({
      placement: {
        workloadAffinity: { affinity: { groupByLabelKey: 'app' }, antiAffinity: { groupByLabelKey: 'app' } },
      },
    }),
    errors: [
      'spec.placement.workloadAffinity: Invalid value: {"affinity":{"groupByLabelKey":"app"},"antiAffinity":{"groupByLabelKey":"app"}}: affinity and antiAffinity must not use the same groupByLabelKey',
    ],
  },
  {
    rule: 'clusterAffinity and clusterAffinities cannot co-exist',
    obj: propagationPolicy({ placement: bothAffinities }),
    errors: [
      `spec.placement: Invalid value: ${JSON.stringify(bothAffinities)}: clusterAffinities cannot co-exist with clusterAffinity`,
    ],
  },
  {
    rule: 'field selector keys are provider, region or zone',
    obj: propagationPolicy({
      placement: {
        clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'city', operator: 'In', values: ['x'] }] } },
      },
    }),
    errors: [
      'spec.placement.clusterAffinity.fieldSelector: Invalid value: {"matchExpressions":[{"key":"city","operator":"In","values":["x"]}]}: unsupported key "city", must be provider, region, or zone',
    ],
  },
  {
    rule: 'field selector operators are In or NotIn',
    obj: propagationPolicy({
      placement: {
        clusterAffinities: [
          { affinityName: 'a', fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
        ],
      },
    }),
    errors: [
      'spec.placement.clusterAffinities[0].fieldSelector: Invalid value: {"matchExpressions":[{"key":"zone","operator":"Exists"}]}: unsupported operator "Exists", must be In or NotIn',
    ],
  },
  {
    rule: 'affinityName is a qualified name',
    obj: propagationPolicy({ placement: { clusterAffinities: [{ affinityName: 'bad name!' }] } }),
    errors: [`spec.placement.clusterAffinities[0]: Invalid value: "bad name!": name part ${QUALIFIED_NAME}`],
  },
  {
    rule: 'affinityName is required (empty is not a qualified name)',
    obj: propagationPolicy({ placement: { clusterAffinities: [{ clusterNames: ['member1'] }] } }),
    errors: [
      'spec.placement.clusterAffinities[0]: Invalid value: "": name part must be non-empty',
      `spec.placement.clusterAffinities[0]: Invalid value: "": name part ${QUALIFIED_NAME}`,
    ],
  },
  {
    rule: 'affinity names are unique (identical errors reported once, as ToAggregate does)',
    obj: propagationPolicy({ placement: { clusterAffinities: duplicateAffinities } }),
    errors: [
      `spec.placement.clusterAffinities: Invalid value: ${JSON.stringify(duplicateAffinities)}: each affinity term in a policy must have a unique name`,
    ],
  },
  {
    rule: 'spreadByField and spreadByLabel are exclusive',
    obj: propagationPolicy({ placement: { spreadConstraints: [byFieldAndLabel] } }),
    errors: [
      `spec.placement.spreadConstraints[0]: Invalid value: ${JSON.stringify(byFieldAndLabel)}: spreadByLabel should not co-exist with spreadByField`,
    ],
  },
  {
    rule: 'minGroups is not negative',
    obj: propagationPolicy({ placement: { spreadConstraints: [negativeMin] } }),
    errors: [
      `spec.placement.spreadConstraints[0]: Invalid value: ${JSON.stringify(negativeMin)}: minGroups lower than 0 is not allowed`,
    ],
  },
  {
    rule: 'maxGroups is not negative',
    obj: propagationPolicy({ placement: { spreadConstraints: [negativeMax] } }),
    errors: [
      `spec.placement.spreadConstraints[0]: Invalid value: ${JSON.stringify(negativeMax)}: maxGroups lower than 0 is not allowed`,
    ],
  },
  {
    rule: 'maxGroups is at least minGroups',
    obj: propagationPolicy({ placement: { spreadConstraints: [maxBelowMin] } }),
    errors: [
      `spec.placement.spreadConstraints[0]: Invalid value: ${JSON.stringify(maxBelowMin)}: maxGroups lower than minGroups is not allowed`,
    ],
  },
  {
    rule: 'each spreadByField at most once (reported once however often repeated)',
    obj: propagationPolicy({ placement: { spreadConstraints: tripleCluster } }),
    errors: [
      `spec.placement.spreadConstraints: Invalid value: ${JSON.stringify(tripleCluster)}: multiple cluster spread constraints are not allowed`,
    ],
  },
  {
    rule: 'a cluster spread constraint is required when spreading by field',
    obj: propagationPolicy({ placement: { spreadConstraints: regionOnly } }),
    errors: [
      `spec.placement.spreadConstraints: Invalid value: ${JSON.stringify(regionOnly)}: the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled`,
    ],
  },
  {
    rule: 'application failover requires propagateDeps',
    obj: propagationPolicy({ ...application({ purgeMode: 'Directly' }), propagateDeps: false }),
    errors: ['spec.propagateDeps: Invalid value: false: application failover is set, propagateDeps must be true'],
  },
  {
    rule: 'decisionConditions.tolerationSeconds is not negative',
    obj: propagationPolicy(application({ decisionConditions: { tolerationSeconds: -1 }, purgeMode: 'Directly' })),
    errors: [
      'spec.failover.application.decisionConditions.tolerationSeconds: Invalid value: -1: must be greater than or equal to 0',
    ],
  },
  {
    rule: 'gracePeriodSeconds only with a graceful purgeMode',
    obj: propagationPolicy(application({ purgeMode: 'Directly', gracePeriodSeconds: 60 })),
    errors: [
      'spec.failover.application.gracePeriodSeconds: Invalid value: 60: only takes effect when purgeMode is gracefully',
    ],
  },
  {
    rule: 'gracePeriodSeconds only with a graceful purgeMode (Never)',
    obj: propagationPolicy(application({ purgeMode: 'Never', gracePeriodSeconds: 60 })),
    errors: [
      'spec.failover.application.gracePeriodSeconds: Invalid value: 60: only takes effect when purgeMode is gracefully',
    ],
  },
  {
    rule: 'gracePeriodSeconds required with purgeMode Gracefully',
    obj: propagationPolicy(application({ purgeMode: 'Gracefully' })),
    errors: [
      'spec.failover.application.gracePeriodSeconds: Invalid value: null: should not be empty when purgeMode is gracefully',
    ],
  },
  {
    rule: 'gracePeriodSeconds required with the deprecated alias Graciously',
    obj: propagationPolicy(application({ purgeMode: 'Graciously' })),
    errors: [
      'spec.failover.application.gracePeriodSeconds: Invalid value: null: should not be empty when purgeMode is gracefully',
    ],
  },
  {
    rule: 'gracePeriodSeconds required when purgeMode is left to its default (Gracefully)',
    obj: propagationPolicy(application({})),
    errors: [
      'spec.failover.application.gracePeriodSeconds: Invalid value: null: should not be empty when purgeMode is gracefully',
    ],
  },
  {
    rule: 'gracePeriodSeconds is positive',
    obj: propagationPolicy(application({ purgeMode: 'Gracefully', gracePeriodSeconds: 0 })),
    errors: ['spec.failover.application.gracePeriodSeconds: Invalid value: 0: must be greater than 0'],
  },
  {
    rule: 'application statePreservation aliasLabelName is a label key',
    obj: propagationPolicy(
      application({
        purgeMode: 'Directly',
        statePreservation: { rules: [{ aliasLabelName: 'bad key', jsonPath: '{.replicas}' }] },
      }),
    ),
    errors: [
      `spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "bad key": name part ${QUALIFIED_NAME}`,
    ],
  },
  {
    rule: 'cluster failover statePreservation aliasLabelName is a label key',
    obj: propagationPolicy({
      failover: {
        cluster: { purgeMode: 'Directly', statePreservation: { rules: [{ aliasLabelName: '/x', jsonPath: '{.a}' }] } },
      },
    }),
    errors: [
      'spec.failover.cluster.statePreservation.rules[0].aliasLabelName: Invalid value: "/x": prefix part must be non-empty',
    ],
  },
  {
    rule: 'preemption Always requires named resource selectors',
    obj: propagationPolicy({
      preemption: 'Always',
      resourceSelectors: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' },
        { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'x' } } },
      ],
    }),
    errors: [
      'spec.resourceSelectors[1].name: Invalid value: "": name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption',
    ],
  },
  {
    rule: 'suspension.dispatching cannot co-exist with dispatchingOnClusters (reported at spec.suspension.suspension)',
    obj: propagationPolicy({ suspension }),
    errors: [
      `spec.suspension.suspension: Invalid value: ${JSON.stringify(suspension)}: suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames`,
    ],
  },
  {
    rule: 'the permanent-id label is required (set by the mutating webhook)',
    obj: propagationPolicy({}, { labels: {} }),
    errors: [
      'metadata.labels[propagationpolicy.karmada.io/permanent-id]: Required value: label propagationpolicy.karmada.io/permanent-id is required, it should be set by the mutating admission webhook during creation',
    ],
  },
  {
    rule: 'the permanent-id label cannot be removed on update',
    obj: propagationPolicy({}, { labels: {} }),
    old: propagationPolicy(),
    errors: [
      'metadata.labels[propagationpolicy.karmada.io/permanent-id]: Forbidden: label propagationpolicy.karmada.io/permanent-id is immutable, it can only be set by the system during creation',
    ],
  },
  {
    rule: 'the permanent-id label cannot be changed on update',
    obj: propagationPolicy({}, { labels: { 'propagationpolicy.karmada.io/permanent-id': 'other' } }),
    old: propagationPolicy(),
    errors: [
      'metadata.labels[propagationpolicy.karmada.io/permanent-id]: Forbidden: label propagationpolicy.karmada.io/permanent-id is immutable, it can only be set by the system during creation',
    ],
  },
  {
    rule: 'schedulerName cannot be updated (checked first; the spec is not validated then)',
    obj: propagationPolicy({ schedulerName: 'other', placement: bothAffinities }),
    old: propagationPolicy(),
    errors: ['spec.schedulerName: Forbidden: the schedulerName should not be updated'],
  },
  {
    rule: 'ClusterPropagationPolicy: the clusterpropagationpolicy permanent-id label is required',
    obj: clusterPropagationPolicy({}, { labels: { 'propagationpolicy.karmada.io/permanent-id': 'x' } }),
    errors: [
      'metadata.labels[clusterpropagationpolicy.karmada.io/permanent-id]: Required value: label clusterpropagationpolicy.karmada.io/permanent-id is required, it should be set by the mutating admission webhook during creation',
    ],
  },
  {
    rule: 'ClusterPropagationPolicy: the same spec rules apply',
    obj: clusterPropagationPolicy({ placement: { spreadConstraints: regionOnly } }),
    errors: [
      `spec.placement.spreadConstraints: Invalid value: ${JSON.stringify(regionOnly)}: the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled`,
    ],
  },
  {
    rule: 'several rules are reported together, in Karmada order',
    obj: propagationPolicy({
      placement: { spreadConstraints: [negativeMin] },
      failover: { application: { decisionConditions: { tolerationSeconds: -5 }, purgeMode: 'Directly' } },
    }),
    errors: [
      `spec.placement.spreadConstraints[0]: Invalid value: ${JSON.stringify(negativeMin)}: minGroups lower than 0 is not allowed`,
      'spec.propagateDeps: Invalid value: false: application failover is set, propagateDeps must be true',
      'spec.failover.application.decisionConditions.tolerationSeconds: Invalid value: -5: must be greater than or equal to 0',
    ],
  },
];

const valid: { rule: string; obj: KubeObject; old?: KubeObject }[] = [
  {
    rule: 'v1.18: overflowAffinities with aggregated scheduling',
    obj: propagationPolicy({ placement: { replicaScheduling: aggregated, clusterAffinities: [overflowTerm] } }),
  },
  {
    rule: 'v1.17: workloadAffinity with two label keys',
    obj: propagationPolicy({
      placement: {
        workloadAffinity: { affinity: { groupByLabelKey: 'app.group' }, antiAffinity: { groupByLabelKey: 'ha' } },
      },
    }),
  },
  {
    rule: 'purgeMode Directly without gracePeriodSeconds',
    obj: propagationPolicy(application({ purgeMode: 'Directly' })),
  },
  { rule: 'the deprecated purgeMode Immediately', obj: propagationPolicy(application({ purgeMode: 'Immediately' })) },
  { rule: 'purgeMode Never', obj: propagationPolicy(application({ purgeMode: 'Never' })) },
  {
    rule: 'tolerationSeconds 0',
    obj: propagationPolicy(application({ purgeMode: 'Directly', decisionConditions: { tolerationSeconds: 0 } })),
  },
  {
    rule: 'Graciously with gracePeriodSeconds',
    obj: propagationPolicy(application({ purgeMode: 'Graciously', gracePeriodSeconds: 30 })),
  },
  {
    rule: 'maxGroups 0 (unset) below minGroups',
    obj: propagationPolicy({ placement: { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 3 }] } }),
  },
  {
    rule: 'region spreading with a cluster constraint',
    obj: propagationPolicy({
      placement: {
        spreadConstraints: [
          { spreadByField: 'region', minGroups: 1, maxGroups: 2 },
          { spreadByField: 'cluster', minGroups: 1, maxGroups: 3 },
        ],
      },
    }),
  },
  {
    rule: 'spreadByLabel alone (no cluster constraint needed)',
    obj: propagationPolicy({ placement: { spreadConstraints: [{ spreadByLabel: 'rack', minGroups: 1 }] } }),
  },
  {
    rule: 'resource selectors in another namespace (rejected only from Karmada v1.17)',
    obj: propagationPolicy({ resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] }),
  },
  {
    rule: 'name together with labelSelector (the labelSelector is ignored, not rejected)',
    obj: propagationPolicy({
      resourceSelectors: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', labelSelector: { matchLabels: { a: 'b' } } },
      ],
    }),
  },
  {
    rule: 'suspension.dispatching false with dispatchingOnClusters',
    obj: propagationPolicy({
      suspension: { dispatching: false, dispatchingOnClusters: { clusterNames: ['member1'] } },
    }),
  },
  {
    rule: 'unchanged permanent id and scheduler on update',
    obj: propagationPolicy({ priority: 5 }),
    old: propagationPolicy(),
  },
  {
    rule: 'an omitted schedulerName equals the default-scheduler it defaults to',
    obj: propagationPolicy(),
    old: propagationPolicy({ schedulerName: 'default-scheduler' }),
  },
];

describe('PropagationPolicy / ClusterPropagationPolicy validation (Karmada v1.15 webhook)', () => {
  for (const c of invalid) {
    it(`rejects: ${c.rule}`, () => {
      assert.deepEqual(messages(validateKarmadaObject(c.obj, c.old)), c.errors);
    });
  }
  for (const c of valid) {
    it(`accepts: ${c.rule}`, () => {
      assert.deepEqual(messages(validateKarmadaObject(c.obj, c.old)), []);
    });
  }
});

describe('PropagationPolicy / ClusterPropagationPolicy defaulting (Karmada v1.15 mutating webhook)', () => {
  const bare = (spec: Record<string, unknown>): KubeObject => {
    const pp = propagationPolicy(spec, { labels: { team: 'a' } });
    return pp;
  };

  it('fills a selector without namespace with the policy namespace, keeping explicit ones', () => {
    const out = defaultPropagationPolicy(
      bare({
        resourceSelectors: [
          { apiVersion: 'v1', kind: 'ConfigMap' },
          { apiVersion: 'v1', kind: 'Secret', namespace: 'x' },
        ],
      }),
      context(),
    );
    assert.deepEqual((out.spec as { resourceSelectors: unknown[] }).resourceSelectors, [
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' },
      { apiVersion: 'v1', kind: 'Secret', namespace: 'x' },
    ]);
  });

  it('adds the permanent-id label (replacing a client-supplied one) and the finalizer on CREATE', () => {
    const input = bare({});
    input.metadata.labels = { team: 'a', 'propagationpolicy.karmada.io/permanent-id': 'forged' };
    input.metadata.finalizers = ['x'];
    const out = defaultPropagationPolicy(input, context());
    assert.deepEqual(out.metadata.labels, { team: 'a', 'propagationpolicy.karmada.io/permanent-id': 'uid-1' });
    assert.deepEqual(out.metadata.finalizers, ['x', 'karmada.io/propagation-policy-controller']);
    assert.deepEqual(input.metadata.labels['propagationpolicy.karmada.io/permanent-id'], 'forged', 'input untouched');
  });

  it('leaves labels and finalizers alone on UPDATE', () => {
    const out = defaultPropagationPolicy(bare({}), context('UPDATE'));
    assert.deepEqual(out.metadata.labels, { team: 'a' });
    assert.equal(out.metadata.finalizers, undefined);
  });

  it('ClusterPropagationPolicy: its own label and finalizer; selector namespaces untouched', () => {
    const out = defaultClusterPropagationPolicy(
      clusterPropagationPolicy(
        { resourceSelectors: [{ apiVersion: 'v1', kind: 'Namespace', name: 'a' }] },
        { labels: {} },
      ),
      context(),
    );
    assert.deepEqual(out.metadata.labels, { 'clusterpropagationpolicy.karmada.io/permanent-id': 'uid-1' });
    assert.deepEqual(out.metadata.finalizers, ['karmada.io/cluster-propagation-policy-controller']);
    assert.deepEqual((out.spec as { resourceSelectors: unknown[] }).resourceSelectors, [
      { apiVersion: 'v1', kind: 'Namespace', name: 'a' },
    ]);
  });

  const specDefaults: { rule: string; spec: Record<string, unknown>; expect: Record<string, unknown> }[] = [
    {
      rule: 'spread constraints default to spreadByField cluster and minGroups 1',
      spec: {
        placement: {
          spreadConstraints: [
            { maxGroups: 2 },
            { spreadByLabel: 'rack', minGroups: 0 },
            { spreadByField: 'region', minGroups: 2 },
          ],
        },
      },
      expect: {
        placement: {
          spreadConstraints: [
            { maxGroups: 2, spreadByField: 'cluster', minGroups: 1 },
            { spreadByLabel: 'rack', minGroups: 1 },
            { spreadByField: 'region', minGroups: 2 },
          ],
        },
      },
    },
    {
      rule: 'Divided without a division preference becomes Weighted',
      spec: { placement: { replicaScheduling: { replicaSchedulingType: 'Divided' } } },
      expect: {
        placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } },
      },
    },
    {
      rule: 'replicaScheduling {} (type defaults to Divided) becomes Weighted',
      spec: { placement: { replicaScheduling: {} } },
      expect: { placement: { replicaScheduling: { replicaDivisionPreference: 'Weighted' } } },
    },
    {
      rule: 'Duplicated gets no division preference',
      spec: { placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } } },
      expect: { placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } } },
    },
    {
      rule: 'an explicit Aggregated preference is kept',
      spec: {
        placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
      },
      expect: {
        placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
      },
    },
    {
      rule: 'graceful application failover gets gracePeriodSeconds 600',
      spec: { placement: {}, failover: { application: { purgeMode: 'Graciously' } } },
      expect: { placement: {}, failover: { application: { purgeMode: 'Graciously', gracePeriodSeconds: 600 } } },
    },
    {
      rule: 'an explicit gracePeriodSeconds is kept; Directly gets none',
      spec: {
        placement: {},
        failover: { application: { purgeMode: 'Directly' }, cluster: { purgeMode: 'Gracefully' } },
      },
      expect: {
        placement: {},
        failover: { application: { purgeMode: 'Directly' }, cluster: { purgeMode: 'Gracefully' } },
      },
    },
    {
      rule: 'selecting an MCS ServiceImport forces propagateDeps',
      spec: {
        placement: {},
        resourceSelectors: [
          { apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceImport', namespace: 'default', name: 's' },
        ],
      },
      expect: {
        placement: {},
        resourceSelectors: [
          { apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceImport', namespace: 'default', name: 's' },
        ],
        propagateDeps: true,
      },
    },
  ];
  for (const c of specDefaults) {
    it(c.rule, () => {
      const input: KubeObject = { ...bare({}), spec: { resourceSelectors: [], ...c.spec } };
      const out = defaultPropagationPolicy(input, context('UPDATE'));
      assert.deepEqual(out.spec, { resourceSelectors: [], ...c.expect });
      const cpp = defaultClusterPropagationPolicy({ ...input, kind: 'ClusterPropagationPolicy' }, context('UPDATE'));
      assert.deepEqual(cpp.spec, { resourceSelectors: [], ...c.expect });
    });
  }

  it('a defaulted policy validates; revalidating it unchanged on update does too', () => {
    const created = defaultPropagationPolicy(
      propagationPolicy(
        { propagateDeps: true, failover: { application: { decisionConditions: { tolerationSeconds: 60 } } } },
        { labels: {} },
      ),
      context(),
    );
    assert.deepEqual(messages(validateKarmadaObject(created, undefined)), []);
    const updated = defaultPropagationPolicy(created, context('UPDATE'));
    assert.deepEqual(messages(validateKarmadaObject(updated, created)), []);
  });
});
