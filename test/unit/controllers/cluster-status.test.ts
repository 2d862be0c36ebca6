import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/index.ts';
import { featureGates } from '../../../lib/config/failover.ts';
import { DEFAULT_CLUSTER_TIMINGS } from '../../../lib/config/runtime.ts';
import { createClusterStatusController } from '../../../lib/controllers/cluster-status.ts';
import { LocalKeyCipher } from '../../../lib/crypto/local-key.ts';
import { sealCredentialSecret } from '../../../lib/members/credentials.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';
import { crd } from '../../support/factories.ts';
import { inProcessMember } from '../../support/sim-member.ts';

const logger = createLogger({ format: 'json', level: 'SILENT', service: 't', write: () => {} });

describe('cluster-status controller', () => {
  it('reports an unusable endpoint as StatusCollectionFailed instead of failing the message', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 21));
    const store = new RowObjectStore(new MemoryRowStore(), { clock });
    const cipher = new LocalKeyCipher(randomBytes(32));
    await store.create(
      await sealCredentialSecret(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'plain', namespace: 'karmada-cluster' },
          data: { token: Buffer.from('t0ken').toString('base64') },
        },
        undefined,
        cipher,
      ),
    );
    await store.create({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'plain' },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'http://10.0.0.1:6443',
        secretRef: { namespace: 'karmada-cluster', name: 'plain' },
      },
    });
    const controller = createClusterStatusController({
      store,
      workQueue: { enqueue: async () => {} },
      cipher,
      timings: DEFAULT_CLUSTER_TIMINGS,
    });
    await controller.reconcile(
      { key: 'Cluster.cluster.karmada.io/plain', lane: 'priority', reasons: [] },
      { logger, reconcileId: 'r', now: clock.now() },
    );
    const cluster = await store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'plain' });
    const ready = (
      cluster?.status as { conditions: { type: string; status: string; reason: string; message: string }[] }
    ).conditions[0]!;
    assert.equal(ready.status, 'False');
    assert.equal(ready.reason, 'StatusCollectionFailed');
    assert.match(ready.message, /must be https/);
    assert.doesNotMatch(JSON.stringify(cluster), /t0ken/);
    assert.deepEqual(
      (cluster?.spec as { taints: { key: string }[] }).taints.map((t) => t.key),
      ['cluster.karmada.io/not-ready'],
    );
  });
});

describe('cluster-status controller: waking the search collector', () => {
  it('a probe wakes the search collector only when a ResourceRegistry exists', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 21));
    const store = new RowObjectStore(new MemoryRowStore(), { clock });
    await store.create({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'plain' },
      spec: { syncMode: 'Push', apiEndpoint: 'http://10.0.0.1:6443' },
    });
    const sent: string[] = [];
    const controller = createClusterStatusController({
      store,
      workQueue: { enqueue: async (items) => void sent.push(...items.map((i) => i.controller)) },
      cipher: new LocalKeyCipher(randomBytes(32)),
      timings: DEFAULT_CLUSTER_TIMINGS,
    });
    const probe = () =>
      controller.reconcile(
        { key: 'Cluster.cluster.karmada.io/plain', lane: 'standard', reasons: ['sweep'] },
        { logger, reconcileId: 'r', now: clock.now() },
      );
    await probe();
    assert.ok(!sent.includes('search'), `no registry, no search message: ${sent.join(',')}`);
    await store.create({
      apiVersion: 'search.karmada.io/v1alpha1',
      kind: 'ResourceRegistry',
      metadata: { name: 'pods' },
      spec: { resourceSelectors: [{ apiVersion: 'v1', kind: 'Pod' }] },
    });
    sent.length = 0;
    await probe();
    assert.ok(sent.includes('search'), `a registry exists: the collector follows the member: ${sent.join(',')}`);
  });
});

describe('cluster-status controller: NoExecute taints (the Failover gate)', () => {
  const CLUSTER_KEY = 'Cluster.cluster.karmada.io/edge';
  const T0 = Date.UTC(2026, 10, 21, 10);
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

  /** A Pull cluster (no probe: the agent reports) whose Ready condition is as given. */
  async function setup(ready: { status: 'True' | 'False' | 'Unknown'; since: number }, policies: object[] = []) {
    const clock = new VirtualClock(T0);
    const store = new RowObjectStore(new MemoryRowStore(), { clock });
    const enqueued: { controller: string; key: string; reason?: string; delayMs?: number }[] = [];
    await store.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'edge', namespace: 'karmada-cluster' },
      spec: { renewTime: new Date(T0).toISOString() },
    });
    const created = await store.create({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'edge', labels: { tier: 'edge' } },
      spec: { syncMode: 'Pull' },
    });
    await store.updateStatus({
      ...created,
      status: {
        conditions: [
          { type: 'Ready', status: ready.status, reason: 'R', message: 'm', lastTransitionTime: iso(ready.since) },
        ],
      },
    });
    for (const p of policies) await store.create(p as never);
    const controller = createClusterStatusController({
      store,
      workQueue: { enqueue: async (items) => void enqueued.push(...items) },
      cipher: new LocalKeyCipher(randomBytes(32)),
      timings: DEFAULT_CLUSTER_TIMINGS,
      failover: { featureGates: featureGates(undefined), failoverEvictionTimeoutMs: 300_000 },
    });
    const run = async () => {
      const batch = await controller.openBatch!({ logger, now: clock.now(), keys: [CLUSTER_KEY] });
      return controller.reconcile(
        { key: CLUSTER_KEY, lane: 'priority', reasons: [] },
        { logger, reconcileId: 'r', now: clock.now(), batch },
      );
    };
    const taints = async () =>
      ((
        (await store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge' }))?.spec as { taints?: object[] }
      )?.taints ?? []) as { key: string; effect: string; timeAdded?: string }[];
    return { clock, store, enqueued, run, taints };
  }

  it('NotReady for less than --failover-eviction-timeout: NoSchedule only, and a timer for when it ends (the seeds)', async () => {
    const t = await setup({ status: 'False', since: T0 - 100_000 });
    const result = await t.run();
    assert.deepEqual(
      (await t.taints()).map((x) => `${x.key}:${x.effect}`),
      ['cluster.karmada.io/not-ready:NoSchedule'],
    );
    assert.deepEqual(result, { requeueAfterMs: 200_000 });
  });

  it('NotReady for the timeout: not-ready:NoExecute with timeAdded, and the eviction controller is told', async () => {
    const t = await setup({ status: 'False', since: T0 - 300_000 });
    await t.run();
    const noExecute = (await t.taints()).find((x) => x.effect === 'NoExecute');
    assert.deepEqual(noExecute, { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute', timeAdded: iso(T0) });
    assert.ok(
      t.enqueued.some((e) => e.controller === 'eviction' && e.key === CLUSTER_KEY && e.reason === 'taints-changed'),
    );
  });

  it('Ready again: every NoExecute taint of the rule goes, and the eviction controller is told (tasks end)', async () => {
    const t = await setup({ status: 'True', since: T0 - 1_000 });
    const c = await t.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge' });
    await t.store.update({
      ...c!,
      spec: {
        ...(c!.spec as object),
        taints: [{ key: 'cluster.karmada.io/unreachable', effect: 'NoExecute', timeAdded: iso(T0 - 60_000) }],
      },
    });
    await t.run();
    assert.deepEqual(await t.taints(), []);
    assert.ok(t.enqueued.some((e) => e.controller === 'eviction' && e.reason === 'taints-changed'));
  });

  it('a ClusterTaintPolicy adds its taints when addOnConditions match and removes them on removeOnConditions', async () => {
    const policy = {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterTaintPolicy',
      metadata: { name: 'edge-down' },
      spec: {
        targetClusters: { labelSelector: { matchLabels: { tier: 'edge' } } },
        addOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False', 'Unknown'] }],
        removeOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['True'] }],
        taints: [{ key: 'example.com/edge-down', effect: 'NoExecute' }],
      },
    };
    const down = await setup({ status: 'False', since: T0 - 10_000 }, [policy]);
    await down.run();
    assert.ok((await down.taints()).some((x) => x.key === 'example.com/edge-down' && x.effect === 'NoExecute'));

    const up = await setup({ status: 'True', since: T0 - 10_000 }, [policy]);
    const c = await up.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'edge' });
    await up.store.update({
      ...c!,
      spec: {
        ...(c!.spec as object),
        taints: [{ key: 'example.com/edge-down', effect: 'NoExecute', timeAdded: iso(T0) }],
      },
    });
    await up.run();
    assert.deepEqual(await up.taints(), []);
  });

  it('without the Failover gate only the NoSchedule taints follow the Ready condition', async () => {
    const t = await setup({ status: 'False', since: T0 - 9_999_000 });
    const controller = createClusterStatusController({
      store: t.store,
      workQueue: { enqueue: async () => {} },
      cipher: new LocalKeyCipher(randomBytes(32)),
      timings: DEFAULT_CLUSTER_TIMINGS,
      failover: { featureGates: featureGates({ Failover: false }), failoverEvictionTimeoutMs: 300_000 },
    });
    await controller.reconcile(
      { key: CLUSTER_KEY, lane: 'priority', reasons: [] },
      { logger, reconcileId: 'r', now: t.clock.now() },
    );
    assert.deepEqual(
      (await t.taints()).map((x) => x.effect),
      ['NoSchedule'],
    );
  });
});

describe('cluster-status controller: API enablements at every status update', () => {
  it('a CRD added on the member is in status.apiEnablements after one status reconcile, even when summaries are not due', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 21, 10));
    const store = new RowObjectStore(new MemoryRowStore(), { clock });
    const cipher = new LocalKeyCipher(randomBytes(32));
    const member = await inProcessMember(clock);
    await store.create(
      await sealCredentialSecret(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'm1', namespace: 'karmada-cluster' },
          data: { token: Buffer.from('member-token').toString('base64') },
        },
        undefined,
        cipher,
      ),
    );
    await store.create({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'm1' },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'https://m1.invalid',
        secretRef: { namespace: 'karmada-cluster', name: 'm1' },
      },
    });
    const controller = createClusterStatusController({
      store,
      workQueue: { enqueue: async () => {} },
      cipher,
      timings: DEFAULT_CLUSTER_TIMINGS,
      connect: (conn) => member.client(conn, () => clock.now()),
    });
    const statusUpdate = () =>
      controller.reconcile(
        { key: 'Cluster.cluster.karmada.io/m1', lane: 'standard', reasons: ['probe'] },
        { logger, reconcileId: 'r', now: clock.now() },
      );
    type Status = {
      conditions?: { type: string; status: string }[];
      apiEnablements?: { groupVersion: string; resources: { name: string; kind: string }[] }[];
      nodeSummary?: { totalNum?: number };
    };
    const status = async () =>
      (await store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'm1' }))?.status as Status;

    await statusUpdate();
    const first = await status();
    assert.equal(first.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
    assert.equal(first.nodeSummary?.totalNum, 1);
    assert.equal(
      first.apiEnablements?.some((e) => e.groupVersion === 'example.com/v1'),
      false,
    );

    // On the member: a CRD, and a second node (which only the summaries, not yet due, would see).
    await member.store.create(crd('example.com', 'Widget', 'widgets'));
    await member.store.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'm1-node-extra' }, spec: {} });
    await clock.advance(DEFAULT_CLUSTER_TIMINGS.statusUpdateFrequencyMs);
    await statusUpdate();
    const next = await status();
    assert.equal(next.nodeSummary?.totalNum, 1, 'summaries are not due yet');
    assert.deepEqual(
      next.apiEnablements?.find((e) => e.groupVersion === 'example.com/v1'),
      { groupVersion: 'example.com/v1', resources: [{ name: 'widgets', kind: 'Widget' }] },
    );
  });
});
