import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/index.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';
import { ChangeFeed, HistoryExpiredError, WatchingStore } from '../../../lib/store/watch.ts';
import { apiHarness } from '../../support/api.ts';
import { configMap, deployment } from '../../support/factories.ts';

const CM = { group: '', kind: 'ConfigMap' };

function watching(historySize?: number) {
  const clock = new VirtualClock(Date.UTC(2026, 10, 21));
  const feed = new ChangeFeed({ startVersion: clock.now() * 1000, ...(historySize ? { historySize } : {}) });
  const store = new WatchingStore(new RowObjectStore(new MemoryRowStore(), { clock }), feed);
  return { clock, feed, store };
}

describe('ChangeFeed and WatchingStore', () => {
  it('reports creates, updates, status updates and deletes of one kind, in order, with their versions', async () => {
    const { clock, feed, store } = watching();
    const sub = feed.subscribe(CM, clock.now() * 1000);
    await clock.advance(1);
    const created = await store.create(configMap('a', { k: 'v' }));
    await clock.advance(1);
    const updated = await store.update({ ...created, data: { k: 'w' } });
    await store.create(deployment('other'));
    await clock.advance(1);
    await store.delete({ ...CM, namespace: 'default', name: 'a' });
    const events = await sub.next();
    assert.deepEqual(
      events.map((e) => [e.type, e.object.metadata.name]),
      [
        ['ADDED', 'a'],
        ['MODIFIED', 'a'],
        ['DELETED', 'a'],
      ],
      'only ConfigMaps',
    );
    assert.equal(events[1]!.version, Number(updated.metadata.resourceVersion));
    assert.ok(events[2]!.version > events[1]!.version, 'a deletion has a newer version than the last write');
    sub.close();
  });

  it('publishes nothing for dry runs or for updates that change nothing', async () => {
    const { clock, feed, store } = watching();
    const created = await store.create(configMap('a', {}));
    const sub = feed.subscribe(CM, Number(created.metadata.resourceVersion));
    await store.create(configMap('b', {}), { dryRun: true });
    await store.update(created);
    await store.delete({ ...CM, namespace: 'default', name: 'a' }, { dryRun: true });
    await clock.advance(1);
    const controller = new AbortController();
    controller.abort();
    assert.deepEqual(await sub.next(controller.signal), []);
  });

  it('reports marking for deletion as MODIFIED and the last finalizer’s removal as DELETED', async () => {
    const { clock, feed, store } = watching();
    const created = await store.create({
      ...configMap('f', {}),
      metadata: { name: 'f', namespace: 'default', finalizers: ['x/y'] },
    });
    const sub = feed.subscribe(CM, Number(created.metadata.resourceVersion));
    await clock.advance(1);
    const marked = (await store.delete({ ...CM, namespace: 'default', name: 'f' })).object;
    await clock.advance(1);
    await store.update({ ...marked, metadata: { ...marked.metadata, finalizers: [] } });
    assert.deepEqual(
      (await sub.next()).map((e) => e.type),
      ['MODIFIED', 'DELETED'],
    );
  });

  it('replays the history after a version, and refuses a version older than it keeps (410 Gone)', async () => {
    const { clock, feed, store } = watching(3);
    const first = await store.create(configMap('c0', {}));
    for (let i = 1; i < 6; i++) {
      await clock.advance(1);
      await store.create(configMap(`c${i}`, {}));
    }
    assert.throws(() => feed.subscribe(CM, Number(first.metadata.resourceVersion)), HistoryExpiredError);
    // After every version written at c3's millisecond (creates add random sub-millisecond digits).
    const recent = feed.subscribe(CM, clock.now() * 1000 - 1001);
    assert.deepEqual(
      recent.backlog.map((e) => e.object.metadata.name),
      ['c4', 'c5'],
    );
  });

  it('wakes a waiting subscriber on the next change and ends it on close', async () => {
    const { clock, feed, store } = watching();
    const sub = feed.subscribe(CM, clock.now() * 1000);
    const waiting = sub.next();
    await store.create(configMap('late', {}));
    assert.deepEqual(
      (await waiting).map((e) => e.object.metadata.name),
      ['late'],
    );
    const parked = sub.next();
    sub.close();
    assert.deepEqual(await parked, []);
  });
});

describe('watch through the REST layer', () => {
  it('streams ADDED, MODIFIED and a DELETED for an object that stops matching the selector', async () => {
    const h = await apiHarness();
    const feed = new ChangeFeed({ startVersion: h.clock.now() * 1000 });
    const store = new WatchingStore(h.store, feed);
    const { createControlPlaneApi } = await import('../../../lib/apiserver/server.ts');
    const api = createControlPlaneApi({ store, workQueue: { enqueue: async () => {} }, clock: h.clock, changes: feed });
    const created = await store.create({
      ...configMap('w', {}),
      metadata: { name: 'w', namespace: 'default', labels: { app: 'x' } },
    });
    const response = await api.handler.handle({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps',
      query: new URLSearchParams({
        watch: 'true',
        labelSelector: 'app=x',
        resourceVersion: String(Number(created.metadata.resourceVersion) - 1),
        timeoutSeconds: '5',
      }),
      headers: { authorization: `Bearer ${h.admin.token}`, accept: 'application/json' },
      body: Buffer.alloc(0),
    });
    assert.equal(response.status, 200, response.body);
    const lines: { type: string; object: { metadata: { name: string; labels?: Record<string, string> } } }[] = [];
    const reader = (async () => {
      for await (const chunk of response.stream!) {
        lines.push(JSON.parse(chunk));
        if (lines.length === 3) break;
      }
    })();
    await h.clock.advance(1);
    const relabelled = await store.update({ ...created, data: { a: 'b' } });
    await h.clock.advance(1);
    await store.update({ ...relabelled, metadata: { ...relabelled.metadata, labels: { app: 'y' } } });
    await reader;
    assert.deepEqual(
      lines.map((l) => l.type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
  });

  it('answers 410 Gone to a resourceVersion older than the history', async () => {
    const h = await apiHarness();
    const feed = new ChangeFeed({ startVersion: h.clock.now() * 1000 });
    const { createControlPlaneApi } = await import('../../../lib/apiserver/server.ts');
    const api = createControlPlaneApi({
      store: h.store,
      workQueue: { enqueue: async () => {} },
      clock: h.clock,
      changes: feed,
    });
    const response = await api.handler.handle({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps',
      query: new URLSearchParams({ watch: 'true', resourceVersion: '1' }),
      headers: { authorization: `Bearer ${h.admin.token}`, accept: 'application/json' },
      body: Buffer.alloc(0),
    });
    assert.equal(response.status, 410);
    assert.match(JSON.parse(response.body).message, /too old resource version/);
  });
});
