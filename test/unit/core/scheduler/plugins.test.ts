import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type FilterPlugin,
  MAX_CLUSTER_SCORE,
  type Plugin,
  type PluginResult,
  type ScorePlugin,
  SUCCESS,
} from '../../../../lib/core/scheduler/framework/interface.ts';
import {
  buildFramework,
  IN_TREE_PLUGINS,
  parsePluginsFlag,
  PluginConfigError,
  type PluginFactory,
} from '../../../../lib/core/scheduler/plugins/registry.ts';
import * as apiEnablement from '../../../../lib/core/scheduler/plugins/api-enablement/index.ts';
import * as clusterAffinity from '../../../../lib/core/scheduler/plugins/cluster-affinity/index.ts';
import * as clusterEviction from '../../../../lib/core/scheduler/plugins/cluster-eviction/index.ts';
import * as clusterLocality from '../../../../lib/core/scheduler/plugins/cluster-locality/index.ts';
import * as spreadConstraint from '../../../../lib/core/scheduler/plugins/spread-constraint/index.ts';
import * as taintToleration from '../../../../lib/core/scheduler/plugins/taint-toleration/index.ts';
import { toleratesTaint } from '../../../../lib/core/placement/tolerations.ts';
import type { Cluster, ClusterAffinity, ResourceBinding } from '../../../../lib/core/model/types.ts';
import { bindingFactory, clusterFactory, clusterInfo, targets, unitFor } from './fixtures.ts';

interface FilterRow {
  name: string;
  cluster: Cluster;
  binding: ResourceBinding;
  /** Affinity term being tried (defaults to `placement.clusterAffinity`). */
  affinity?: ClusterAffinity;
  /** The single reason expected, or undefined for Success. */
  reason?: string;
}

function runFilter(plugin: FilterPlugin, row: FilterRow): PluginResult {
  return plugin.filter(unitFor(row.binding, row.affinity), clusterInfo(row.cluster));
}

function checkFilterRows(plugin: FilterPlugin, rows: FilterRow[]): void {
  for (const row of rows) {
    it(row.name, () => {
      const result = runFilter(plugin, row);
      if (row.reason === undefined) assert.deepEqual(result, SUCCESS);
      else assert.deepEqual(result, { code: 'Unschedulable', reasons: [row.reason] });
    });
  }
}

const deployment = bindingFactory('web');

describe('APIEnablement filter (§2.2 step 2, §4 item 4)', () => {
  const plugin = apiEnablement.create();
  assert.equal(plugin.name, 'APIEnablement');
  checkFilterRows(plugin, [
    {
      name: 'APIEnablement: cluster listing apps/v1 Deployment passes',
      cluster: clusterFactory('m1'),
      binding: deployment,
    },
    {
      name: 'APIEnablement: complete enablements without the kind ⇒ "cluster(s) did not have the API resource"',
      cluster: clusterFactory('m1', {
        apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'statefulsets', kind: 'StatefulSet' }] }],
      }),
      binding: deployment,
      reason: 'cluster(s) did not have the API resource',
    },
    {
      name: 'APIEnablement: the group/version must match too (apps/v1beta1 Deployment is not apps/v1)',
      cluster: clusterFactory('m1', {
        apiEnablements: [{ groupVersion: 'apps/v1beta1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
      }),
      binding: deployment,
      reason: 'cluster(s) did not have the API resource',
    },
    {
      name: 'APIEnablement: core-group kinds are matched as v1/Kind',
      cluster: clusterFactory('m1', {
        apiEnablements: [{ groupVersion: 'v1', resources: [{ name: 'configmaps', kind: 'ConfigMap' }] }],
      }),
      binding: bindingFactory('cm', { apiVersion: 'v1', kind: 'ConfigMap' }),
    },
    {
      name: 'APIEnablement: incomplete enablements (CompleteAPIEnablements=False) not listing the kind ⇒ filtered out (APIUnknown)',
      cluster: clusterFactory('m1', { apiEnablements: [], completeAPIEnablements: false }),
      binding: deployment,
      reason: 'cluster(s) API enablements are incomplete and do not list the API resource',
    },
    {
      name: 'APIEnablement: incomplete enablements that do list the kind pass',
      cluster: clusterFactory('m1', { completeAPIEnablements: false }),
      binding: deployment,
    },
    {
      name: 'APIEnablement: no condition and no enablements at all reads as incomplete ⇒ filtered out',
      cluster: clusterFactory('m1', { apiEnablements: [], completeAPIEnablements: null }),
      binding: deployment,
      reason: 'cluster(s) API enablements are incomplete and do not list the API resource',
    },
    {
      name: 'APIEnablement: no condition but a non-empty list reads as complete',
      cluster: clusterFactory('m1', {
        apiEnablements: [{ groupVersion: 'v1', resources: [{ name: 'pods', kind: 'Pod' }] }],
        completeAPIEnablements: null,
      }),
      binding: deployment,
      reason: 'cluster(s) did not have the API resource',
    },
    {
      name: 'APIEnablement: cluster already in spec.clusters passes although it lacks the API (Karmada §4.4)',
      cluster: clusterFactory('m1', { apiEnablements: [] }),
      binding: bindingFactory('web', { clusters: targets({ m1: 1 }) }),
    },
    {
      name: 'APIEnablement: another cluster in spec.clusters does not lend its bypass',
      cluster: clusterFactory('m1', { apiEnablements: [] }),
      binding: bindingFactory('web', { clusters: targets({ m2: 1 }) }),
      reason: 'cluster(s) did not have the API resource',
    },
  ]);
});

describe('TaintToleration filter (§2.2 step 2, §4 item 4)', () => {
  const plugin = taintToleration.create();
  assert.equal(plugin.name, 'TaintToleration');
  const tolerating = (clusterTolerations: NonNullable<ResourceBinding['spec']['placement']>['clusterTolerations']) =>
    bindingFactory('web', { placement: { clusterTolerations } });
  checkFilterRows(plugin, [
    { name: 'TaintToleration: no taints ⇒ pass', cluster: clusterFactory('m1'), binding: deployment },
    {
      name: 'TaintToleration: untolerated NoSchedule ⇒ "cluster(s) had untolerated taint {key=value:NoSchedule}"',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      binding: deployment,
      reason: 'cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}',
    },
    {
      name: 'TaintToleration: untolerated NoExecute without a value prints as {key:NoExecute}',
      cluster: clusterFactory('m1', {
        taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }],
      }),
      binding: deployment,
      reason: 'cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoExecute}',
    },
    {
      name: 'TaintToleration: PreferNoSchedule taints are ignored',
      cluster: clusterFactory('m1', { taints: [{ key: 'soft', value: 'x', effect: 'PreferNoSchedule' }] }),
      binding: deployment,
    },
    {
      name: 'TaintToleration: Exists with the key tolerates any value',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      binding: tolerating([{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }]),
    },
    {
      name: 'TaintToleration: Exists without a key tolerates every taint',
      cluster: clusterFactory('m1', {
        taints: [
          { key: 'a', value: '1', effect: 'NoSchedule' },
          { key: 'b', effect: 'NoExecute' },
        ],
      }),
      binding: tolerating([{ operator: 'Exists' }]),
    },
    {
      name: 'TaintToleration: Equal with the same value tolerates',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      binding: tolerating([{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }]),
    },
    {
      name: 'TaintToleration: operator omitted means Equal',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      binding: tolerating([{ key: 'dedicated', value: 'gpu' }]),
    },
    {
      name: 'TaintToleration: Equal with another value does not tolerate',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      binding: tolerating([{ key: 'dedicated', operator: 'Equal', value: 'cpu', effect: 'NoSchedule' }]),
      reason: 'cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}',
    },
    {
      name: 'TaintToleration: empty effect tolerates every effect of the key',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] }),
      binding: tolerating([{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: '' }]),
    },
    {
      name: 'TaintToleration: a NoSchedule toleration does not tolerate the NoExecute taint of the same key',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] }),
      binding: tolerating([{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }]),
      reason: 'cluster(s) had untolerated taint {dedicated=gpu:NoExecute}',
    },
    {
      name: 'TaintToleration: an unknown operator tolerates nothing',
      cluster: clusterFactory('m1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      binding: tolerating([{ key: 'dedicated', operator: 'Gt', value: 'gpu' }]),
      reason: 'cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}',
    },
    {
      name: 'TaintToleration: the first untolerated taint (in the cluster order) is reported',
      cluster: clusterFactory('m1', {
        taints: [
          { key: 'a', value: '1', effect: 'NoSchedule' },
          { key: 'b', value: '2', effect: 'NoSchedule' },
          { key: 'c', value: '3', effect: 'NoExecute' },
        ],
      }),
      binding: tolerating([{ key: 'a', operator: 'Exists' }]),
      reason: 'cluster(s) had untolerated taint {b=2:NoSchedule}',
    },
    {
      name: 'TaintToleration: cluster already in spec.clusters bypasses untolerated NoExecute (Karmada §4.4)',
      cluster: clusterFactory('m1', { taints: [{ key: 'cluster.karmada.io/unreachable', effect: 'NoExecute' }] }),
      binding: bindingFactory('web', { clusters: targets({ m1: 2 }) }),
    },
  ]);

  it('TaintToleration: toleratesTaint follows Kubernetes Toleration.ToleratesTaint', () => {
    const taint = { key: 'k', value: 'v', effect: 'NoSchedule' as const };
    const cases: [Parameters<typeof toleratesTaint>[0], boolean][] = [
      [{ key: 'k', operator: 'Equal', value: 'v' }, true],
      [{ key: 'k', operator: '', value: 'v' }, true],
      [{ key: 'k', operator: 'Exists' }, true],
      [{ key: 'other', operator: 'Exists' }, false],
      [{ operator: 'Exists', effect: 'NoExecute' }, false],
      [{ key: 'k', value: 'v', effect: 'NoSchedule' }, true],
      [{ key: 'k' }, false],
    ];
    for (const [toleration, want] of cases) {
      assert.equal(toleratesTaint(toleration, taint), want, JSON.stringify(toleration));
    }
  });
});

describe('ClusterAffinity filter and score (§2.2, A.2, §4 item 6)', () => {
  const plugin = clusterAffinity.create();
  assert.equal(plugin.name, 'ClusterAffinity');
  const NO_MATCH = 'cluster(s) did not match the placement cluster affinity constraint';
  const zoned = (zones: string[]) => clusterFactory('m1', { zones, region: 'eu', provider: 'aws' });
  const field = (key: string, operator: string, values?: string[]): ClusterAffinity => ({
    fieldSelector: { matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] },
  });
  checkFilterRows(plugin, [
    { name: 'ClusterAffinity: no affinity ⇒ every cluster passes', cluster: clusterFactory('m1'), binding: deployment },
    {
      name: 'ClusterAffinity: labelSelector matchLabels matches the cluster labels',
      cluster: clusterFactory('m1', { labels: { env: 'prod' } }),
      binding: deployment,
      affinity: { labelSelector: { matchLabels: { env: 'prod' } } },
    },
    {
      name: 'ClusterAffinity: labelSelector mismatch ⇒ filtered out',
      cluster: clusterFactory('m1', { labels: { env: 'dev' } }),
      binding: deployment,
      affinity: { labelSelector: { matchLabels: { env: 'prod' } } },
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: labelSelector matchExpressions NotIn',
      cluster: clusterFactory('m1', { labels: { env: 'dev' } }),
      binding: deployment,
      affinity: { labelSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] } },
    },
    {
      name: 'ClusterAffinity: an invalid label selector matches nothing',
      cluster: clusterFactory('m1', { labels: { env: 'prod' } }),
      binding: deployment,
      affinity: { labelSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] } },
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: zone In needs ALL the cluster zones listed (Karmada §4.6) — one of two listed ⇒ no',
      cluster: zoned(['z1', 'z2']),
      binding: deployment,
      affinity: field('zone', 'In', ['z1']),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: zone In with every cluster zone listed (and more) ⇒ yes',
      cluster: zoned(['z1', 'z2']),
      binding: deployment,
      affinity: field('zone', 'In', ['z1', 'z2', 'z3']),
    },
    {
      name: 'ClusterAffinity: zone In on a cluster without zones ⇒ no',
      cluster: clusterFactory('m1'),
      binding: deployment,
      affinity: field('zone', 'In', ['z1']),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: zone In reads the deprecated spec.zone when spec.zones is empty',
      cluster: clusterFactory('m1', { zone: 'z1' }),
      binding: deployment,
      affinity: field('zone', 'In', ['z1']),
    },
    {
      name: 'ClusterAffinity: zone NotIn fails when any zone is listed',
      cluster: zoned(['z1', 'z2']),
      binding: deployment,
      affinity: field('zone', 'NotIn', ['z2']),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: zone Exists needs a zone; DoesNotExist needs none',
      cluster: clusterFactory('m1'),
      binding: deployment,
      affinity: field('zone', 'Exists'),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: zone DoesNotExist on a cluster without zones ⇒ yes',
      cluster: clusterFactory('m1'),
      binding: deployment,
      affinity: field('zone', 'DoesNotExist'),
    },
    {
      name: 'ClusterAffinity: zone with another operator (Gt) ⇒ no',
      cluster: zoned(['1']),
      binding: deployment,
      affinity: field('zone', 'Gt', ['0']),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: fieldSelector provider In',
      cluster: zoned(['z1']),
      binding: deployment,
      affinity: field('provider', 'In', ['aws', 'gcp']),
    },
    {
      name: 'ClusterAffinity: fieldSelector region In with another region ⇒ no',
      cluster: zoned(['z1']),
      binding: deployment,
      affinity: field('region', 'In', ['us']),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: fieldSelector region In on a cluster without region ⇒ no (absent fields never match In)',
      cluster: clusterFactory('m1'),
      binding: deployment,
      affinity: field('region', 'In', ['eu']),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: fieldSelector region NotIn on a cluster without region ⇒ yes',
      cluster: clusterFactory('m1'),
      binding: deployment,
      affinity: field('region', 'NotIn', ['eu']),
    },
    {
      name: 'ClusterAffinity: fieldSelector on an unknown key with In never matches',
      cluster: zoned(['z1']),
      binding: deployment,
      affinity: field('kubernetesVersion', 'In', ['v1.31']),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: invalid fieldSelector (In without values) matches nothing',
      cluster: zoned(['z1']),
      binding: deployment,
      affinity: field('region', 'In', []),
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: exclude wins over clusterNames',
      cluster: clusterFactory('m1'),
      binding: deployment,
      affinity: { clusterNames: ['m1', 'm2'], exclude: ['m1'] },
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: clusterNames lists the cluster',
      cluster: clusterFactory('m1'),
      binding: deployment,
      affinity: { clusterNames: ['m1', 'm2'] },
    },
    {
      name: 'ClusterAffinity: clusterNames without the cluster ⇒ no',
      cluster: clusterFactory('m3'),
      binding: deployment,
      affinity: { clusterNames: ['m1', 'm2'] },
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: every clause is ANDed (labels match, names match, region does not)',
      cluster: clusterFactory('m1', { labels: { env: 'prod' }, region: 'eu' }),
      binding: deployment,
      affinity: {
        labelSelector: { matchLabels: { env: 'prod' } },
        clusterNames: ['m1'],
        ...field('region', 'In', ['us']),
      },
      reason: NO_MATCH,
    },
    {
      name: 'ClusterAffinity: placement.clusterAffinity is used when no term is given',
      cluster: clusterFactory('m2'),
      binding: bindingFactory('web', { placement: { clusterAffinity: { clusterNames: ['m1'] } } }),
      reason: NO_MATCH,
    },
  ]);

  it('ClusterAffinity: score is always 0 (MinClusterScore)', () => {
    const unit = unitFor(bindingFactory('web', { clusters: targets({ m1: 1 }) }), { clusterNames: ['m1'] });
    assert.equal(plugin.score(unit, clusterInfo(clusterFactory('m1'))), 0);
  });
});

describe('SpreadConstraint filter (§2.2 step 2, §4 item 5)', () => {
  const plugin = spreadConstraint.create();
  assert.equal(plugin.name, 'SpreadConstraint');
  const spreadBy = (...fields: ('cluster' | 'region' | 'zone' | 'provider')[]) =>
    bindingFactory('web', {
      placement: { spreadConstraints: fields.map((f) => ({ spreadByField: f, minGroups: 1, maxGroups: 2 })) },
    });
  checkFilterRows(plugin, [
    { name: 'SpreadConstraint: no constraints ⇒ pass', cluster: clusterFactory('m1'), binding: deployment },
    {
      name: 'SpreadConstraint: a cluster constraint needs no property',
      cluster: clusterFactory('m1'),
      binding: spreadBy('cluster'),
    },
    {
      name: 'SpreadConstraint: region constraint on a cluster without region ⇒ "cluster(s) did not have region property"',
      cluster: clusterFactory('m1', { provider: 'aws', zones: ['z1'] }),
      binding: spreadBy('region'),
      reason: 'cluster(s) did not have region property',
    },
    {
      name: 'SpreadConstraint: zone constraint on a cluster without zones ⇒ "cluster(s) did not have zones property"',
      cluster: clusterFactory('m1', { region: 'eu', provider: 'aws' }),
      binding: spreadBy('zone'),
      reason: 'cluster(s) did not have zones property',
    },
    {
      name: 'SpreadConstraint: provider constraint on a cluster without provider ⇒ "cluster(s) did not have provider property"',
      cluster: clusterFactory('m1', { region: 'eu', zones: ['z1'] }),
      binding: spreadBy('provider'),
      reason: 'cluster(s) did not have provider property',
    },
    {
      name: 'SpreadConstraint: the first failing constraint (in placement order) is reported',
      cluster: clusterFactory('m1'),
      binding: spreadBy('cluster', 'zone', 'region'),
      reason: 'cluster(s) did not have zones property',
    },
    {
      name: 'SpreadConstraint: a cluster with provider, region and zones passes them all',
      cluster: clusterFactory('m1', { region: 'eu', provider: 'aws', zones: ['z1'] }),
      binding: spreadBy('provider', 'region', 'zone', 'cluster'),
    },
  ]);
});

describe('ClusterEviction filter (§2.2 step 2)', () => {
  const plugin = clusterEviction.create();
  assert.equal(plugin.name, 'ClusterEviction');
  const evicting = bindingFactory('web', {
    gracefulEvictionTasks: [{ fromCluster: 'm1', reason: 'TaintUntolerated', producer: 'taint-manager' }],
  });
  checkFilterRows(plugin, [
    {
      name: 'ClusterEviction: a cluster the binding is being evicted from ⇒ "cluster(s) is in the process of eviction"',
      cluster: clusterFactory('m1'),
      binding: evicting,
      reason: 'cluster(s) is in the process of eviction',
    },
    { name: 'ClusterEviction: other clusters pass', cluster: clusterFactory('m2'), binding: evicting },
    { name: 'ClusterEviction: no eviction tasks ⇒ pass', cluster: clusterFactory('m1'), binding: deployment },
  ]);
});

describe('ClusterLocality score (§2.2 step 3)', () => {
  const plugin = clusterLocality.create();
  assert.equal(plugin.name, 'ClusterLocality');
  const rows: { name: string; binding: ResourceBinding; cluster: string; want: number }[] = [
    {
      name: 'ClusterLocality: a cluster in spec.clusters scores MaxClusterScore (100)',
      binding: bindingFactory('web', { clusters: targets({ m1: 1, m2: 1 }) }),
      cluster: 'm2',
      want: MAX_CLUSTER_SCORE,
    },
    {
      name: 'ClusterLocality: a cluster outside spec.clusters scores 0',
      binding: bindingFactory('web', { clusters: targets({ m1: 1 }) }),
      cluster: 'm3',
      want: 0,
    },
    { name: 'ClusterLocality: no previous result ⇒ 0 for everyone', binding: deployment, cluster: 'm1', want: 0 },
  ];
  for (const row of rows) {
    it(row.name, () => {
      assert.equal(plugin.score(unitFor(row.binding), clusterInfo(clusterFactory(row.cluster))), row.want);
    });
  }
});

describe('plugin registry and --plugins (Karmada plugins/registry.go)', () => {
  const ALL = [
    'APIEnablement',
    'TaintToleration',
    'ClusterAffinity',
    'SpreadConstraint',
    'ClusterLocality',
    'ClusterEviction',
    // Karmada ≥ 1.17, gate WorkloadAffinity.
    'WorkloadAntiAffinity',
    'WorkloadAffinity',
  ];
  const names = (ps: readonly { name: string }[]) => ps.map((p) => p.name);

  it('registry: the in-tree plugins, in Karmada order', () => {
    assert.deepEqual([...IN_TREE_PLUGINS.keys()], ALL);
  });

  it("registry: default ['*'] enables every plugin; filters and scores are split by capability, in order", () => {
    const fw = buildFramework();
    assert.deepEqual(fw.enabled, ALL);
    assert.deepEqual(names(fw.filters), [
      'APIEnablement',
      'TaintToleration',
      'ClusterAffinity',
      'SpreadConstraint',
      'ClusterEviction',
      'WorkloadAntiAffinity',
      'WorkloadAffinity',
    ]);
    assert.deepEqual(names(fw.scores), ['ClusterAffinity', 'ClusterLocality']);
  });

  it("registry: ['*', '-ClusterLocality'] disables one plugin", () => {
    const fw = buildFramework(['*', '-ClusterLocality']);
    assert.deepEqual(
      fw.enabled,
      ALL.filter((n) => n !== 'ClusterLocality'),
    );
    assert.deepEqual(names(fw.scores), ['ClusterAffinity']);
  });

  it('registry: a disable wins whatever its position (-X before *)', () => {
    assert.deepEqual(
      buildFramework(['-TaintToleration', '*']).enabled,
      ALL.filter((n) => n !== 'TaintToleration'),
    );
  });

  it('registry: naming plugins enables only those, in registry order (not flag order)', () => {
    const fw = buildFramework(['ClusterEviction', 'APIEnablement']);
    assert.deepEqual(fw.enabled, ['APIEnablement', 'ClusterEviction']);
    assert.deepEqual(names(fw.filters), ['APIEnablement', 'ClusterEviction']);
    assert.deepEqual(fw.scores, []);
  });

  it('registry: an empty list (or blank entries) enables nothing', () => {
    assert.deepEqual(buildFramework([]).enabled, []);
    assert.deepEqual(buildFramework([' ', '']).enabled, []);
  });

  it('registry: an unknown plugin name is an error (a typo must not silently drop a filter)', () => {
    assert.throws(
      () => buildFramework(['*', 'TaintTolerations']),
      (err: unknown) => {
        assert.ok(err instanceof PluginConfigError);
        assert.match(
          err.message,
          /unknown scheduler plugin "TaintTolerations" in --plugins; known plugins: APIEnablement, /,
        );
        return true;
      },
    );
    assert.throws(() => buildFramework(['*', '-NoSuchPlugin']), PluginConfigError);
  });

  it('registry: out-of-tree factories are enabled the same way', () => {
    const veto: Plugin = { name: 'Veto', filter: () => ({ code: 'Unschedulable', reasons: ['vetoed'] }) };
    const registry = new Map<string, PluginFactory>([...IN_TREE_PLUGINS, ['Veto', () => veto]]);
    const fw = buildFramework(['*', '-ClusterLocality'], registry);
    assert.deepEqual(fw.enabled, [...ALL.filter((n) => n !== 'ClusterLocality'), 'Veto']);
    assert.equal((fw.filters.at(-1) as FilterPlugin).name, 'Veto');
    assert.throws(() => buildFramework(['Veto']), PluginConfigError);
  });

  it('registry: each build makes fresh plugin instances', () => {
    const a = buildFramework();
    const b = buildFramework();
    assert.notEqual(a.filters[0], b.filters[0]);
    assert.ok((a.scores as ScorePlugin[]).every((p) => typeof p.score === 'function'));
  });

  it('parsePluginsFlag: unset or blank ⇒ ["*"]; otherwise comma-separated, trimmed by buildFramework', () => {
    assert.deepEqual(parsePluginsFlag(undefined), ['*']);
    assert.deepEqual(parsePluginsFlag('  '), ['*']);
    assert.deepEqual(parsePluginsFlag('*,-ClusterLocality'), ['*', '-ClusterLocality']);
    assert.deepEqual(
      buildFramework(parsePluginsFlag(' * , -ClusterLocality ')).enabled,
      ALL.filter((n) => n !== 'ClusterLocality'),
    );
  });
});
