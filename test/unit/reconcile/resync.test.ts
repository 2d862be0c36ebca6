import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { createResyncController, RESYNC_ALL } from '../../../lib/reconcile/resync.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';
import { cluster, deployment } from '../../support/factories.ts';
import { createHarness, recordingController } from '../../support/harness.ts';

async function setup(deployments: number) {
  const clock = new VirtualClock();
  const store = new RowObjectStore(new MemoryRowStore(), { clock });
  for (let i = 0; i < deployments; i++) await store.create(deployment(`d${i}`, { namespace: `ns${i % 7}` }));
  await store.create(cluster('member1'));
  const detector = recordingController('detector', clock);
  const clusterCtl = recordingController('cluster', clock);
  // The harness needs the controllers and resync needs the harness's queue: tie the knot through a holder.
  const holder: { resync?: ReturnType<typeof createResyncController> } = {};
  const h = createHarness({
    clock,
    controllers: [
      { name: 'resync', reconcile: (req, ctx) => holder.resync!.reconcile(req, ctx) },
      detector,
      clusterCtl,
    ],
  });
  holder.resync = createResyncController({
    store,
    workQueue: h.workQueue,
    pageSize: 100,
    targets: [
      { controller: 'detector', kinds: [{ group: 'apps', kind: 'Deployment' }] },
      { controller: 'cluster', kinds: [{ group: 'cluster.karmada.io', kind: 'Cluster' }] },
    ],
  });
  return { h, detector, clusterCtl };
}

describe('resync controller', () => {
  it('re-enqueues every key of every watched kind, once, on the standard lane, paging through the queue', async () => {
    const { h, detector, clusterCtl } = await setup(1234);
    await h.workQueue.enqueue([{ controller: 'resync', lane: 'standard', key: RESYNC_ALL, reason: 'schedule' }]);
    await h.settle(0);
    const keys = detector.calls.map((c) => c.key);
    assert.equal(keys.length, 1234);
    assert.equal(new Set(keys).size, 1234, 'each key exactly once');
    assert.ok(keys.every((k) => /^Deployment\.apps\/ns\d\/d\d+$/.test(k)));
    assert.ok(detector.calls.every((c) => c.lane === 'standard' && c.reasons.includes('resync')));
    assert.deepEqual(
      clusterCtl.calls.map((c) => c.key),
      ['Cluster.cluster.karmada.io/member1'],
    );
  });

  it('drops a key for a controller or kind nobody watches instead of retrying it forever', async () => {
    const { h, detector } = await setup(3);
    await h.workQueue.enqueue([{ controller: 'resync', lane: 'standard', key: 'detector|Secret' }]);
    await h.settle(60_000);
    assert.equal(detector.calls.length, 0);
    assert.equal(h.transport.depth(h.dlq('resync')), 0);
    assert.ok(h.logs.some((l) => l.includes('ignoring resync key')));
  });
});
