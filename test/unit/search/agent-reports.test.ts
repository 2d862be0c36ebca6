/**
 * A Pull agent's search reports (webhooks `search` and `cache`): pages of a selected kind go into the
 * cache, a summary records the kind's chunks, and the next `search` answer hands the agent the chunks
 * it may skip; a kind no registry selects there, or a page out of order, is refused and changes nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { type ApiError } from '../../../lib/kube/base/errors.ts';
import { acceptCachePage, collectionsForAgent, parseCachePageReport } from '../../../lib/search/agent-reports.ts';
import { SearchCache } from '../../../lib/search/cache-store.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';
import { VirtualClock } from '../../../lib/clock/index.ts';

const pod = (name: string, rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'default', name, resourceVersion: rv },
});

async function setup() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 26, 9, 0, 0));
  const rows = new MemoryRowStore();
  const store = new RowObjectStore(rows, { clock });
  const cache = new SearchCache(rows);
  const cluster = await store.create({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'edge1' },
    spec: { syncMode: 'Pull' },
  });
  await store.create({
    apiVersion: 'search.karmada.io/v1alpha1',
    kind: 'ResourceRegistry',
    metadata: { name: 'pods' },
    spec: { targetCluster: { clusterNames: ['edge1'] }, resourceSelectors: [{ apiVersion: 'v1', kind: 'Pod' }] },
  });
  const accept = (body: Record<string, unknown>) =>
    acceptCachePage({ store, cache, nowMs: clock.now() }, cluster, parseCachePageReport(body));
  return { clock, store, cache, cluster, accept };
}

describe('Pull agents’ search reports', () => {
  it('a page syncs into the cache; a summary records chunks the next search answer hands back', async () => {
    const t = await setup();
    assert.deepEqual(await collectionsForAgent(t.store, t.cluster, t.clock.now()), [{ apiVersion: 'v1', kind: 'Pod' }]);
    const page = await t.accept({ apiVersion: 'v1', kind: 'Pod', items: [pod('a', '1'), pod('b', '2')], last: true });
    assert.equal(page.complete, true);
    assert.deepEqual(
      (await t.cache.entries('edge1', { apiVersion: 'v1', kind: 'Pod' }, {})).map((e) => e.key),
      ['default/a', 'default/b'],
    );
    const summary = await t.accept({
      apiVersion: 'v1',
      kind: 'Pod',
      summary: { objects: 2, plural: 'pods', namespaced: true, chunks: ['\t\t\tfp'], comparedAll: true },
    });
    assert.ok(
      summary.registriesToRefresh.length === 1,
      'the registry’s condition follows (the cluster is reachable now)',
    );
    const [again] = await collectionsForAgent(t.store, t.cluster, t.clock.now());
    assert.deepEqual(again?.chunks, ['\t\t\tfp']);
    await t.clock.advance(3_600_000);
    const [hourLater] = await collectionsForAgent(t.store, t.cluster, t.clock.now());
    assert.equal(hourLater?.chunks, undefined, 'every chunk is posted again at the hourly full compare');
  });

  it('refuses a kind no registry selects there, a page out of order, and a malformed report', async () => {
    const t = await setup();
    await assert.rejects(
      t.accept({ apiVersion: 'v1', kind: 'Secret', items: [], last: true }),
      (e: ApiError) => e.code === 403 && /no ResourceRegistry selects v1\/Secret in cluster edge1/.test(e.message),
    );
    await assert.rejects(
      t.accept({ apiVersion: 'v1', kind: 'Pod', after: 'default/m', items: [pod('a', '1')], last: true }),
      (e: ApiError) => e.code === 400 && /does not come after default\/m/.test(e.message),
    );
    assert.throws(
      () => parseCachePageReport({ apiVersion: 'v1', kind: 'Pod' }),
      /carries items \(a page\) or a summary/,
    );
    assert.throws(
      () => parseCachePageReport({ apiVersion: 'v1', kind: 'Pod', items: [{ metadata: {} }], last: true }),
      /every item must be an object with metadata.name/,
    );
    assert.deepEqual(await t.cache.entries('edge1', { apiVersion: 'v1', kind: 'Pod' }, {}), []);
  });
});
