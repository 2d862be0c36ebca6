/**
 * Requests raised on a kept placement (ours; Karmada has no ledger, #6783): what the replicas a result
 * keeps take beyond the requests they were reserved at, and the record of those requests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildFramework,
  buildSnapshot,
  keptGrowth,
  recordReservedRequest,
  type ReservationDelta,
  scheduleBinding,
} from '../../../../lib/core/scheduler/index.ts';
import { RESERVED_REQUEST_ANNOTATION } from '../../../../lib/api/well-known.ts';
import type { ResourceBinding, TargetCluster } from '../../../../lib/core/model/types.ts';
import { AGGREGATED, bindingFactory, clusterFactory, summary, targets } from './fixtures.ts';

/** A binding placed on `clusters`, its replicas reserved at `reservedAt` (raw annotation), asking `request` now. */
function placed(
  clusters: Record<string, number>,
  request: Record<string, string> | undefined,
  reservedAt: string | undefined,
  extra: Partial<ResourceBinding['spec']> = {},
): ResourceBinding {
  const b = bindingFactory('web', {
    replicas: Object.values(clusters).reduce((n, r) => n + r, 0),
    ...(request ? { request } : {}),
    clusters: targets(clusters),
    placement: { replicaScheduling: AGGREGATED },
  });
  return {
    ...b,
    metadata: {
      ...b.metadata,
      ...(reservedAt !== undefined ? { annotations: { [RESERVED_REQUEST_ANNOTATION]: reservedAt } } : {}),
    },
    spec: { ...b.spec, ...extra },
  };
}

const cpu = (cluster: string, millis: number): ReservationDelta => ({
  cluster,
  pods: 0,
  units: new Map([['cpu', millis]]),
});

describe('keptGrowth (simulation seeds 494, 1094)', () => {
  const rows: {
    name: string;
    binding: ResourceBinding;
    kept?: TargetCluster[];
    want: ReservationDelta[];
  }[] = [
    {
      name: 'requests raised, placement kept: each cluster’s replicas × the growth, no pods',
      binding: placed({ m1: 2, m2: 1 }, { cpu: '2' }, '{"cpu":"1"}'),
      want: [cpu('m1', 2000), cpu('m2', 1000)],
    },
    {
      name: 'a result that keeps fewer replicas on a cluster: only those; a cluster it leaves: none',
      binding: placed({ m1: 3, m2: 1 }, { cpu: '2' }, '{"cpu":"1"}'),
      kept: targets({ m1: 1, m3: 4 }),
      want: [cpu('m1', 1000)],
    },
    {
      name: 'requests lowered or unchanged: nothing (never negative)',
      binding: placed({ m1: 2 }, { cpu: '500m' }, '{"cpu":"1"}'),
      want: [],
    },
    {
      name: 'a resource newly requested: all of it is growth',
      binding: placed({ m1: 2 }, { cpu: '1', memory: '1Gi' }, '{"cpu":"1"}'),
      want: [{ cluster: 'm1', pods: 0, units: new Map([['memory', 2 * 1024 ** 3]]) }],
    },
    {
      name: 'reserved without requests, asking 1 CPU now',
      binding: placed({ m1: 2 }, { cpu: '1' }, '{}'),
      want: [cpu('m1', 2000)],
    },
    {
      name: 'no record (placed before it existed): nothing known to have grown',
      binding: placed({ m1: 2 }, { cpu: '2' }, undefined),
      want: [],
    },
    { name: 'a mangled record: nothing', binding: placed({ m1: 2 }, { cpu: '2' }, 'not json'), want: [] },
    {
      name: 'a multi-template binding: nothing (component sets are reserved whole)',
      binding: placed({ m1: 1 }, { cpu: '2' }, '{"cpu":"1"}', {
        components: [{ name: 'jm', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '2' } } }],
      }),
      want: [],
    },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(keptGrowth(row.binding, row.kept), row.want));
});

describe('recordReservedRequest', () => {
  it('placed: the requests are recorded as canonical JSON; already recorded: the same object', () => {
    const b = placed({ m1: 1 }, { memory: '1Gi', cpu: '1' }, undefined);
    const recorded = recordReservedRequest(b);
    assert.equal(recorded.metadata.annotations?.[RESERVED_REQUEST_ANNOTATION], '{"cpu":"1","memory":"1Gi"}');
    assert.equal(recordReservedRequest(recorded), recorded);
  });
  it('placed nowhere, or multi-template: left as it is', () => {
    const nowhere = placed({}, { cpu: '1' }, undefined);
    assert.equal(recordReservedRequest(nowhere), nowhere);
    const components = placed({ m1: 1 }, undefined, undefined, {
      components: [{ name: 'jm', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '2' } } }],
    });
    assert.equal(recordReservedRequest(components), components);
  });
});

describe('scheduleBinding with requests raised on the replicas it has', () => {
  const framework = buildFramework(['*']);
  // m1: 8 CPUs, 2 taken by the binding's two pods as they run now (1 CPU each); they now ask 2 CPUs.
  const fleet = () =>
    buildSnapshot([clusterFactory('m1', { resourceSummary: summary({ cpu: '8' }, { cpu: '2', pods: '2' }) })]);
  const raised = (replicas: number) => placed({ m1: 2 }, { cpu: '2' }, '{"cpu":"1"}', { replicas });
  it('a scale-up that fits once the kept replicas have grown: its new replicas and their growth reserved', () => {
    const result = scheduleBinding(raised(4), fleet(), framework);
    assert.ok(result.outcome.ok);
    assert.deepEqual(result.outcome.value.clusters, targets({ m1: 4 }));
    assert.deepEqual(result.outcome.value.reserved, [{ cluster: 'm1', pods: 2, units: new Map([['cpu', 6000]]) }]);
  });
  it('one that would fit only at the old requests: Unschedulable, the kept replicas’ growth reserved all the same', () => {
    const snapshot = fleet();
    const result = scheduleBinding(raised(5), snapshot, framework);
    assert.equal(result.outcome.ok, false);
    assert.deepEqual(result.reservedOnFailure, [cpu('m1', 2000)]);
    assert.deepEqual(snapshot.reservations.get('m1'), { pods: 0, units: new Map([['cpu', 2000]]) });
  });
});
