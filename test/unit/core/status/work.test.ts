/**
 * Work status → binding status (Karmada v1.15.9): `work_status_controller.go` `reflectStatus` /
 * `buildStatusIdentifier` (manifest status), `pkg/util/helper/workstatus.go` `assembleWorkStatus`,
 * `worksFullyApplied`, `generateFullyAppliedCondition` (`workstatus_test.go`), and `binding.go`
 * `ObtainBindingSpecExistingClusters`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  type AggregatedStatusItem,
  aggregatedStatusItems,
  bindingExistingClusters,
  fullyAppliedCondition,
  type ManifestStatus,
  manifestStatusOf,
  REPORT_FILL_LIMIT,
  unreportedTargets,
  withReportedWorks,
} from '../../../../lib/core/status/index.ts';
import type { KubeObject, ResourceBindingSpec } from '../../../../lib/core/model/types.ts';

describe('manifestStatusOf (work status controller reflectStatus + buildStatusIdentifier)', () => {
  const cases: { name: string; ordinal: number; live: KubeObject; want: ManifestStatus }[] = [
    {
      name: 'Deployment: apps group, reflected counters, native health',
      ordinal: 0,
      live: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: 'nginx',
          namespace: 'default',
          generation: 2,
          annotations: { 'resourcetemplate.karmada.io/generation': '5' },
        },
        spec: { replicas: 2 },
        status: { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
      },
      want: {
        identifier: {
          ordinal: 0,
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          namespace: 'default',
          name: 'nginx',
        },
        status: {
          generation: 2,
          resourceTemplateGeneration: 5,
          observedGeneration: 2,
          replicas: 2,
          updatedReplicas: 2,
          readyReplicas: 2,
          availableReplicas: 2,
        },
        health: 'Healthy',
      },
    },
    {
      name: 'core group Pod: group "", whole status, Unhealthy while Pending',
      ordinal: 1,
      live: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, status: { phase: 'Pending' } },
      want: {
        identifier: { ordinal: 1, group: '', version: 'v1', kind: 'Pod', namespace: 'ns', name: 'p' },
        status: { phase: 'Pending' },
        health: 'Unhealthy',
      },
    },
    {
      name: 'cluster-scoped ClusterRole without status: namespace "", no status, Healthy (no health hook)',
      ordinal: 0,
      live: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' }, rules: [] },
      want: {
        identifier: {
          ordinal: 0,
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          kind: 'ClusterRole',
          namespace: '',
          name: 'r',
        },
        health: 'Healthy',
      },
    },
    {
      name: 'Deployment without the generation annotation: Karmada cannot reflect it ⇒ no status',
      ordinal: 0,
      live: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'nginx', namespace: 'default', generation: 1 },
        spec: { replicas: 1 },
        status: { observedGeneration: 1, updatedReplicas: 1, availableReplicas: 1 },
      },
      want: {
        identifier: {
          ordinal: 0,
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          namespace: 'default',
          name: 'nginx',
        },
        health: 'Healthy',
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(manifestStatusOf(c.ordinal, c.live), c.want);
    });
  }
});

const TEMPLATE: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'test-deployment', namespace: 'test-ns' },
};
const IDENTIFIER = {
  ordinal: 0,
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  namespace: 'test-ns',
  name: 'test-deployment',
};

function work(status?: Record<string, unknown>, extra: { deleting?: boolean; manifests?: unknown[] } = {}): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: 'test-work',
      namespace: 'karmada-es-member1',
      ...(extra.deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: { workload: { manifests: extra.manifests ?? [TEMPLATE] } },
    ...(status ? { status } : {}),
  };
}

const applied = (status: string, message?: string) => [{ type: 'Applied', status, ...(message ? { message } : {}) }];

describe('aggregatedStatusItems (assembleWorkStatus)', () => {
  const cases: { name: string; works: { cluster: string; work: KubeObject }[]; want: AggregatedStatusItem[] }[] = [
    { name: 'empty work list', works: [], want: [] },
    {
      name: 'work being deleted is skipped',
      works: [{ cluster: 'member1', work: work(undefined, { deleting: true }) }],
      want: [],
    },
    {
      name: 'work applied successfully with health status',
      works: [
        {
          cluster: 'member1',
          work: work({
            conditions: applied('True'),
            manifestStatuses: [{ identifier: IDENTIFIER, status: { replicas: 3 }, health: 'Healthy' }],
          }),
        },
      ],
      want: [{ clusterName: 'member1', status: { replicas: 3 }, applied: true, health: 'Healthy' }],
    },
    {
      name: 'work not applied with error message (applied:false omitted, health Unknown)',
      works: [{ cluster: 'member1', work: work({ conditions: applied('False', 'Failed to apply') }) }],
      want: [{ clusterName: 'member1', appliedMessage: 'Failed to apply', health: 'Unknown' }],
    },
    {
      name: 'work with unknown condition status',
      works: [{ cluster: 'member1', work: work({ conditions: applied('Unknown', 'Status unknown') }) }],
      want: [{ clusterName: 'member1', appliedMessage: 'Status unknown', health: 'Unknown' }],
    },
    {
      name: 'work without Applied condition yet: not applied, no message',
      works: [{ cluster: 'member1', work: work() }],
      want: [{ clusterName: 'member1', health: 'Unknown' }],
    },
    {
      name: 'applied but no manifest status collected yet ⇒ health Unknown, no status',
      works: [{ cluster: 'member1', work: work({ conditions: applied('True') }) }],
      want: [{ clusterName: 'member1', applied: true, health: 'Unknown' }],
    },
    {
      name: 'a manifest status for another identifier (wrong ordinal / other object) is not used',
      works: [
        {
          cluster: 'member1',
          work: work({
            conditions: applied('True'),
            manifestStatuses: [
              { identifier: { ...IDENTIFIER, ordinal: 1 }, status: { replicas: 9 }, health: 'Healthy' },
              { identifier: { ...IDENTIFIER, name: 'other' }, status: { replicas: 8 }, health: 'Healthy' },
              { identifier: { ...IDENTIFIER, version: 'v1beta1' }, status: { replicas: 7 }, health: 'Healthy' },
            ],
          }),
        },
      ],
      want: [{ clusterName: 'member1', applied: true, health: 'Unknown' }],
    },
    {
      name: 'the template is found at its ordinal among several manifests',
      works: [
        {
          cluster: 'member1',
          work: work(
            {
              conditions: applied('True'),
              manifestStatuses: [
                { identifier: { ...IDENTIFIER, ordinal: 1 }, status: { replicas: 1 }, health: 'Unhealthy' },
              ],
            },
            {
              manifests: [
                { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'test-ns' } },
                TEMPLATE,
              ],
            },
          ),
        },
      ],
      want: [{ clusterName: 'member1', status: { replicas: 1 }, applied: true, health: 'Unhealthy' }],
    },
    {
      name: 'a matching manifest status without health leaves the item without health (Health "" omitted)',
      works: [
        {
          cluster: 'member1',
          work: work({
            conditions: applied('True'),
            manifestStatuses: [{ identifier: IDENTIFIER, status: { replicas: 1 } }],
          }),
        },
      ],
      want: [{ clusterName: 'member1', status: { replicas: 1 }, applied: true }],
    },
    {
      name: 'items sorted by cluster name; deleting Works skipped',
      works: [
        { cluster: 'member3', work: work({ conditions: applied('False', 'boom') }) },
        { cluster: 'member1', work: work({ conditions: applied('True') }) },
        { cluster: 'member0', work: work({ conditions: applied('True') }, { deleting: true }) },
        {
          cluster: 'member2',
          work: work({
            conditions: applied('True'),
            manifestStatuses: [{ identifier: IDENTIFIER, health: 'Healthy' }],
          }),
        },
      ],
      want: [
        { clusterName: 'member1', applied: true, health: 'Unknown' },
        { clusterName: 'member2', applied: true, health: 'Healthy' },
        { clusterName: 'member3', appliedMessage: 'boom', health: 'Unknown' },
      ],
    },
    {
      name: 'a Work that does not hold the template (Karmada: aggregation error) gives an item without status',
      works: [
        {
          cluster: 'member1',
          work: work(
            { conditions: applied('True'), manifestStatuses: [{ identifier: IDENTIFIER, status: { replicas: 1 } }] },
            { manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'test-ns' } }] },
          ),
        },
      ],
      want: [{ clusterName: 'member1', applied: true, health: 'Unknown' }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(aggregatedStatusItems(TEMPLATE, c.works), c.want);
    });
  }
});

describe('fullyAppliedCondition (worksFullyApplied + generateFullyAppliedCondition)', () => {
  const TRUE = {
    type: 'FullyApplied',
    status: 'True',
    reason: 'FullyAppliedSuccess',
    message: 'All works have been successfully applied',
  };
  const FALSE = {
    type: 'FullyApplied',
    status: 'False',
    reason: 'FullyAppliedFailed',
    message: 'Failed to apply all works, see status.aggregatedStatus for details',
  };
  const ok = (clusterName: string): AggregatedStatusItem => ({ clusterName, applied: true, health: 'Healthy' });
  const failed = (clusterName: string): AggregatedStatusItem => ({
    clusterName,
    appliedMessage: 'x',
    health: 'Unknown',
  });
  const cases: { name: string; targets: string[]; items: AggregatedStatusItem[]; want: typeof TRUE }[] = [
    { name: 'all applied', targets: ['member1', 'member2'], items: [ok('member1'), ok('member2')], want: TRUE },
    {
      name: 'applied with health Unknown still counts (health is not checked)',
      targets: ['member1'],
      items: [{ clusterName: 'member1', applied: true, health: 'Unknown' }],
      want: TRUE,
    },
    { name: 'one failed', targets: ['member1', 'member2'], items: [ok('member1'), failed('member2')], want: FALSE },
    {
      name: 'fewer items than targets (lack of status)',
      targets: ['member1', 'member2'],
      items: [ok('member1')],
      want: FALSE,
    },
    { name: 'no items', targets: ['member1'], items: [], want: FALSE },
    { name: 'no targets (not scheduled)', targets: [], items: [ok('member1')], want: FALSE },
    { name: 'no targets and no items', targets: [], items: [], want: FALSE },
    { name: 'target clusters do not match the items', targets: ['member2'], items: [ok('member1')], want: FALSE },
    {
      name: 'targets are a set: duplicates count once',
      targets: ['member1', 'member1', 'member2'],
      items: [ok('member1'), ok('member2')],
      want: TRUE,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(fullyAppliedCondition(c.targets, c.items), c.want);
    });
  }
});

describe('bindingExistingClusters (ObtainBindingSpecExistingClusters)', () => {
  const resource = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ns', name: 'd' };
  const task = (fromCluster: string, purgeMode?: string) => ({
    fromCluster,
    reason: 'ApplicationFailure',
    producer: 'x',
    ...(purgeMode ? { purgeMode } : {}),
  });
  const cases: { name: string; spec: ResourceBindingSpec; want: string[] }[] = [
    { name: 'not scheduled', spec: { resource }, want: [] },
    {
      name: 'spec.clusters and requiredBy clusters, deduplicated and sorted',
      spec: {
        resource,
        clusters: [{ name: 'm3', replicas: 1 }, { name: 'm1' }],
        requiredBy: [{ name: 'rb', clusters: [{ name: 'm2' }, { name: 'm1' }] }],
      },
      want: ['m1', 'm2', 'm3'],
    },
    {
      name: 'graceful eviction tasks keep their cluster unless purged Immediately/Directly',
      spec: {
        resource,
        clusters: [{ name: 'm1' }],
        gracefulEvictionTasks: [
          task('m2'),
          task('m3', 'Gracefully'),
          task('m4', 'Immediately'),
          task('m5', 'Directly'),
        ],
      },
      want: ['m1', 'm2', 'm3'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(bindingExistingClusters(c.spec), c.want);
    });
  }
});

describe('unreportedTargets (which Works a fold of reports reads to finish a rollout: one binding write, not one per batch)', () => {
  const ok = (clusterName: string): AggregatedStatusItem => ({ clusterName, applied: true, health: 'Healthy' });
  const failed = (clusterName: string): AggregatedStatusItem => ({
    clusterName,
    appliedMessage: 'x',
    health: 'Unknown',
  });
  const created = (clusterName: string): AggregatedStatusItem => ({ clusterName, health: 'Unknown' });
  const many = (n: number) => Array.from({ length: n }, (_, i) => `m${String(i).padStart(3, '0')}`);
  const cases: {
    name: string;
    targets: string[];
    before: AggregatedStatusItem[];
    after: AggregatedStatusItem[];
    want: string[];
  }[] = [
    {
      name: 'every target reported: nothing to read',
      targets: ['m1', 'm2'],
      before: [ok('m1')],
      after: [ok('m1'), ok('m2')],
      want: [],
    },
    {
      name: 'a first report; the rest of a small rollout read, sorted',
      targets: ['m3', 'm1', 'm2'],
      before: [],
      after: [ok('m2')],
      want: ['m1', 'm3'],
    },
    {
      name: 'the binder’s own pass wrote not-yet-applied items: they are not reports, read',
      targets: ['m1', 'm2'],
      before: [created('m1'), created('m2')],
      after: [created('m1'), ok('m2')],
      want: ['m1'],
    },
    {
      name: 'a first refusal is progress too; a refused target is reported (its retry reports again)',
      targets: ['m1', 'm2', 'm3'],
      before: [],
      after: [failed('m1'), ok('m2')],
      want: ['m3'],
    },
    {
      name: 'a status update of a reported target: no progress, nothing read (a suspended or away target costs no read per report)',
      targets: ['m1', 'm2'],
      before: [ok('m1'), created('m2')],
      after: [{ ...ok('m1'), health: 'Unhealthy' }, created('m2')],
      want: [],
    },
    {
      name: 'targets are a set: duplicates read once',
      targets: ['m1', 'm1', 'm2'],
      before: [],
      after: [ok('m2')],
      want: ['m1'],
    },
    { name: 'no targets (not scheduled): nothing', targets: [], before: [], after: [], want: [] },
    {
      name: `${REPORT_FILL_LIMIT} missing: read (ten reads cost one binding write)`,
      targets: many(REPORT_FILL_LIMIT + 1),
      before: [],
      after: [ok('m000')],
      want: many(REPORT_FILL_LIMIT + 1).slice(1),
    },
    {
      name: `${REPORT_FILL_LIMIT + 1} missing: none read (a large rollout early on; its reports come anyway)`,
      targets: many(REPORT_FILL_LIMIT + 2),
      before: [],
      after: [ok('m000')],
      want: [],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(unreportedTargets(c.targets, c.before, c.after), c.want));
});

describe('withReportedWorks (the Works read for unreportedTargets join the aggregation only once they reported)', () => {
  const stored: AggregatedStatusItem[] = [{ clusterName: 'member1', applied: true, health: 'Unknown' }];
  const targets = ['member1', 'member2'];
  const cases: { name: string; work: KubeObject; want: string[] }[] = [
    { name: 'applied: joins', work: work({ conditions: applied('True') }), want: ['member1', 'member2'] },
    {
      name: 'refused with a message: joins',
      work: work({ conditions: applied('False', 'denied') }),
      want: ['member1', 'member2'],
    },
    { name: 'created, not applied yet: changes nothing', work: work(), want: ['member1'] },
    {
      name: 'being deleted: changes nothing',
      work: work({ conditions: applied('True') }, { deleting: true }),
      want: ['member1'],
    },
  ];
  for (const c of cases)
    it(c.name, () =>
      assert.deepEqual(
        withReportedWorks(TEMPLATE, stored, targets, [{ cluster: 'member2', work: c.work }]).map((i) => i.clusterName),
        c.want,
      ),
    );
});
