/**
 * The search collector over an in-memory table and a fake member API: what the cache holds after a
 * sync, how few writes a quiet cluster costs, and what an unreachable member, a narrowed registry and
 * a deleted cluster leave behind (karmada-search's informer cache, rebuilt page by page).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatKey, type KubeObject } from '../../../lib/api/object.ts';
import { VirtualClock } from '../../../lib/clock/index.ts';
import { CLUSTER_CACHE, createSearchController } from '../../../lib/controllers/search.ts';
import type { ClusterCacheRecord } from '../../../lib/core/index.ts';
import { type MemberClient, MemberUnreachableError } from '../../../lib/members/client.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import { SearchCache } from '../../../lib/search/cache-store.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';

const logger = createLogger({ format: 'json', level: 'SILENT', service: 'test' });
const POD = { apiVersion: 'v1', kind: 'Pod' };

/** A member API serving pods from a list, in pages, with its own continue tokens; or unreachable. */
class FakeMember {
  pods = new Map<string, KubeObject>();
  down = false;
  lists = 0;
  #rv = 100;
  put(namespace: string, name: string, labels: Record<string, string> = {}): void {
    this.pods.set(`${namespace}/${name}`, {
      metadata: { namespace, name, labels, resourceVersion: String(++this.#rv), managedFields: [{ manager: 'x' }] },
    } as KubeObject);
  }
  client(): MemberClient {
    const fail = () => {
      if (this.down) throw new MemberUnreachableError('127.0.0.1:1: connect ECONNREFUSED');
    };
    return {
      collectionPath: async () => (fail(), '/api/v1/pods'),
      pathOf: async (_v: string, _k: string, ns: string) => (fail(), `/api/v1/namespaces/${ns}/pods`),
      getJson: async (path: string) => {
        fail();
        this.lists++;
        const url = new URL(path, 'https://member');
        const ns = /namespaces\/([^/]+)\//.exec(url.pathname)?.[1];
        const limit = Number(url.searchParams.get('limit'));
        const from = Number(url.searchParams.get('continue') ?? 0);
        const all = [...this.pods.entries()]
          .filter(([k]) => !ns || k.startsWith(`${ns}/`))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([, v]) => v);
        const items = all.slice(from, from + limit);
        const more = from + limit < all.length;
        return {
          items,
          metadata: { resourceVersion: String(this.#rv), ...(more ? { continue: String(from + limit) } : {}) },
        };
      },
    } as unknown as MemberClient;
  }
}

function setup(pageSize = 2, syncBudgetMs?: number) {
  const clock = new VirtualClock(Date.UTC(2026, 10, 26, 8, 0, 0));
  const rows = new MemoryRowStore();
  const store = new RowObjectStore(rows, { clock });
  const cache = new SearchCache(rows);
  const members = new Map<string, FakeMember>();
  const queued: string[] = [];
  const controller = createSearchController({
    store,
    cache,
    workQueue: { enqueue: async (items) => void queued.push(...items.map((i) => i.key)) },
    clientFor: async (cluster) => members.get(cluster.metadata.name!)!.client(),
    pageSize,
    ...(syncBudgetMs !== undefined ? { syncBudgetMs } : {}),
  });
  const addCluster = async (name: string, ready = true) => {
    members.set(name, new FakeMember());
    const created = await store.create({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: { syncMode: 'Push' },
    });
    await store.updateStatus({
      ...created,
      status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    });
    return members.get(name)!;
  };
  const registry = async (clusterNames: string[], selectors = [POD]) => {
    const existing = await store.get({ group: 'search.karmada.io', kind: 'ResourceRegistry', name: 'pods' });
    const spec = { targetCluster: { clusterNames }, resourceSelectors: selectors };
    return existing
      ? store.update({ ...existing, spec })
      : store.create({
          apiVersion: 'search.karmada.io/v1alpha1',
          kind: 'ResourceRegistry',
          metadata: { name: 'pods' },
          spec,
        });
  };
  const sync = (cluster: string, reasons = ['test']) =>
    controller.reconcile(
      { key: formatKey({ group: 'cluster.karmada.io', kind: 'Cluster', name: cluster }), lane: 'standard', reasons },
      { logger, reconcileId: 'r', now: clock.now() },
    );
  const reconcileRegistry = () =>
    controller.reconcile(
      {
        key: formatKey({ group: 'search.karmada.io', kind: 'ResourceRegistry', name: 'pods' }),
        lane: 'standard',
        reasons: [],
      },
      { logger, reconcileId: 'r', now: clock.now() },
    );
  const cached = async (cluster: string) => (await cache.entries(cluster, POD, {})).map((e) => e.key);
  const record = async (cluster: string) =>
    (await store.get({ ...CLUSTER_CACHE, name: cluster }))?.spec as ClusterCacheRecord | undefined;
  return {
    clock,
    rows,
    store,
    cache,
    controller,
    addCluster,
    registry,
    sync,
    reconcileRegistry,
    cached,
    record,
    queued,
  };
}

describe('search collector', () => {
  it('collects a member’s pods page by page, without managedFields, and records what it holds', async () => {
    const t = setup(2);
    const m = await t.addCluster('member1');
    for (const n of ['a', 'b', 'c', 'd', 'e']) m.put('default', n);
    m.put('kube-system', 'dns');
    await t.registry(['member1']);
    await t.sync('member1');
    assert.deepEqual(await t.cached('member1'), [
      'default/a',
      'default/b',
      'default/c',
      'default/d',
      'default/e',
      'kube-system/dns',
    ]);
    assert.equal(m.lists, 3, 'pages of two');
    const a = await t.cache.get('member1', POD, 'default/a');
    assert.equal(a?.kind, 'Pod');
    assert.equal('managedFields' in a!.metadata, false);
    const r = await t.record('member1');
    assert.equal(r?.reachable, true);
    assert.equal(r?.kinds[0]?.objects, 6);
    assert.equal(r?.kinds[0]?.plural, 'pods');
  });

  it('a quiet member costs no cache read or write; a change, an addition and deletions across pages cost one write each', async () => {
    const t = setup(2);
    const m = await t.addCluster('member1');
    for (const n of ['a', 'b', 'c', 'd', 'e']) m.put('default', n);
    await t.registry(['member1']);
    await t.sync('member1');
    const puts = t.rows.calls.put;
    const compared = t.controller.stats.chunksSynced;
    await t.clock.advance(10_000);
    await t.sync('member1');
    assert.equal(t.rows.calls.put - puts, 1, 'only the cluster record (its sync time) is written');
    assert.equal(t.controller.stats.chunksSynced, compared, 'the cache is not even read: every chunk is unchanged');
    assert.equal(t.controller.stats.chunksSkipped, (await t.record('member1'))?.kinds[0]?.chunks?.length);
    m.put('default', 'b', { changed: 'yes' });
    m.pods.delete('default/c');
    m.pods.delete('default/e');
    m.put('default', 'f');
    const before = { put: t.rows.calls.put, del: t.rows.calls.delete };
    await t.sync('member1');
    assert.deepEqual(await t.cached('member1'), ['default/a', 'default/b', 'default/d', 'default/f']);
    assert.equal(t.rows.calls.put - before.put, 3, 'b changed, f added, and the record');
    assert.equal(t.rows.calls.delete - before.del, 2, 'c and e removed');
    assert.deepEqual((await t.cache.get('member1', POD, 'default/b'))?.metadata.labels, { changed: 'yes' });
  });

  it('a cache entry lost behind the collector’s back comes back at the hourly full compare', async () => {
    const t = setup();
    const m = await t.addCluster('member1');
    for (const n of ['a', 'b']) m.put('default', n);
    await t.registry(['member1']);
    await t.sync('member1');
    const [entry] = await t.cache.entries('member1', POD, {});
    await t.cache.remove('member1', POD, entry!.key, entry!.version);
    await t.clock.advance(60_000);
    await t.sync('member1');
    assert.deepEqual(await t.cached('member1'), ['default/b'], 'unchanged chunks are trusted for an hour');
    await t.clock.advance(3_600_000);
    await t.sync('member1');
    assert.deepEqual(await t.cached('member1'), ['default/a', 'default/b']);
  });

  it('a sync out of time records the chunks it finished and goes on at once in a new invocation, skipping them', async () => {
    const t = setup(50, 0);
    const m = await t.addCluster('member1');
    for (let i = 0; i < 1500; i++) m.put('default', `p${String(i).padStart(4, '0')}`);
    await t.registry(['member1']);
    const first = await t.sync('member1');
    assert.deepEqual(first, { requeueAfterMs: 0, requeueLane: 'standard' });
    const partial = (await t.record('member1'))?.kinds[0];
    assert.equal(partial?.partial, true);
    assert.equal(partial?.chunks?.length, 1);
    let rounds = 1;
    while ((await t.sync('member1', ['requeue'])) !== undefined) rounds++;
    assert.ok(rounds > 2, `${rounds} invocations`);
    assert.equal((await t.cached('member1')).length, 1500);
    const done = (await t.record('member1'))?.kinds[0];
    assert.equal(done?.partial, undefined);
    assert.equal(done?.objects, 1500);
  });

  it('an unreachable member keeps its objects, and its record says since when', async () => {
    const t = setup();
    const m = await t.addCluster('member1');
    m.put('default', 'a');
    await t.registry(['member1']);
    await t.sync('member1');
    m.down = true;
    await t.clock.advance(10_000);
    await t.sync('member1');
    assert.deepEqual(await t.cached('member1'), ['default/a']);
    const r = await t.record('member1');
    assert.equal(r?.reachable, false);
    assert.equal(r?.unreachableSince, '2026-11-26T08:00:10.000Z');
    assert.match(r?.message ?? '', /unreachable: 127.0.0.1:1: connect ECONNREFUSED/);
    await t.clock.advance(10_000);
    await t.sync('member1');
    assert.equal((await t.record('member1'))?.unreachableSince, '2026-11-26T08:00:10.000Z', 'the first failure stays');
  });

  it('a registry narrowed away from a cluster empties its cache; a deleted cluster leaves nothing', async () => {
    const t = setup();
    const m1 = await t.addCluster('member1');
    const m2 = await t.addCluster('member2');
    m1.put('default', 'a');
    m2.put('default', 'b');
    await t.registry(['member1', 'member2']);
    await t.sync('member1');
    await t.sync('member2');
    await t.registry(['member1']);
    await t.sync('member2');
    assert.deepEqual(await t.cached('member2'), []);
    assert.equal(await t.record('member2'), undefined);
    await t.store.delete({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'member1' });
    await t.sync('member1');
    assert.deepEqual(await t.cached('member1'), []);
  });

  it('a registry’s Synced condition says what is collected from where; a new generation re-syncs every cluster', async () => {
    const t = setup();
    const m = await t.addCluster('member1');
    m.put('default', 'a');
    await t.registry(['member1']);
    await t.reconcileRegistry();
    assert.deepEqual(t.queued, ['Cluster.cluster.karmada.io/member1']);
    await t.sync('member1');
    await t.reconcileRegistry();
    const rr = await t.store.get({ group: 'search.karmada.io', kind: 'ResourceRegistry', name: 'pods' });
    const condition = (rr?.status as { conditions: { type: string; status: string; message: string }[] })
      .conditions[0]!;
    assert.equal(condition.status, 'True');
    assert.equal(condition.message, 'collecting v1/Pod from member1');
    t.queued.length = 0;
    await t.reconcileRegistry();
    assert.deepEqual(t.queued, [], 'an unchanged registry does not fan out');
  });
});
