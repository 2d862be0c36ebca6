/**
 * Lists through the proxy read the search cache page by page, and one request is bounded however it
 * is asked: a page holds at most MAX_PAGE_ITEMS objects whatever `limit` says, and reads at most
 * scanBudget(limit) rows — a selective label selector answers short pages with continue tokens
 * instead of reading the whole fleet in one request (the API function has 29 s and one process).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { ApiError } from '../../../lib/kube/base/errors.ts';
import {
  CacheReadStore,
  MAX_PAGE_ITEMS,
  MAX_SCANNED_ROWS,
  scanBudget,
  UNPAGED_LIST_LIMIT,
} from '../../../lib/search/cache-backend.ts';
import { SearchCache } from '../../../lib/search/cache-store.ts';
import { MemoryRowStore } from '../../../lib/store/index.ts';
import type { IndexPage, IndexQuery } from '../../../lib/store/rows.ts';
import type { ListPage, ListQuery } from '../../../lib/store/port.ts';

const POD = { apiVersion: 'v1', kind: 'Pod' };
/** member1 holds this many `tier=bulk` pods and then one `tier=rare`; member2 ten `tier=rare`. */
const BULK = MAX_SCANNED_ROWS;

/** Rows the cache reads, counted. */
class CountingRows extends MemoryRowStore {
  read = 0;
  override async query(q: IndexQuery): Promise<IndexPage> {
    const page = await super.query(q);
    this.read += page.rows.length;
    return page;
  }
}

const pod = (name: string, tier: string): KubeObject => ({
  ...POD,
  metadata: { namespace: 'default', name, resourceVersion: '1', labels: { tier } },
});

describe('CacheReadStore.list: what one request reads and holds', () => {
  const rows = new CountingRows();
  const cache = new SearchCache(rows);
  const store = (clusters = ['member1', 'member2']) =>
    new CacheReadStore(cache, {
      kind: { ...POD, group: '', plural: 'pods' },
      clusters,
      records: new Map(),
    });
  const list = (query: Omit<ListQuery, 'group' | 'kind'>, clusters?: string[]) =>
    store(clusters).list({ group: '', kind: 'Pod', ...query });
  /** Every page of a list, with the rows each request read. */
  const allPages = async (query: Omit<ListQuery, 'group' | 'kind'>) => {
    const pages: (ListPage & { rowsRead: number })[] = [];
    let token: string | undefined;
    do {
      const start = rows.read;
      const page = await list({ ...query, ...(token ? { continue: token } : {}) });
      pages.push({ ...page, rowsRead: rows.read - start });
      token = page.continue;
    } while (token && pages.length < 1_000);
    return pages;
  };

  before(async () => {
    for (let i = 0; i < BULK; i++)
      await cache.put('member1', POD, `default/p-${String(i).padStart(5, '0')}`, pod(`p-${i}`, 'bulk'));
    await cache.put('member1', POD, 'default/p-zzzzz', pod('p-zzzzz', 'rare'));
    for (let i = 0; i < 10; i++) await cache.put('member2', POD, `default/q-${i}`, pod(`q-${i}`, 'rare'));
  });

  it(`a huge limit is a page of ${MAX_PAGE_ITEMS} with a continue token; following it lists each object once`, async () => {
    const pages = await allPages({ limit: 10_000_000 });
    assert.equal(pages[0]!.items.length, MAX_PAGE_ITEMS);
    assert.ok(pages[0]!.continue);
    assert.ok(pages.every((p) => p.items.length <= MAX_PAGE_ITEMS));
    const names = pages.flatMap((p) => p.items.map((o) => o.metadata.name));
    assert.equal(names.length, BULK + 11);
    assert.equal(new Set(names).size, names.length);
  });

  it('a selective selector answers short (even empty) pages, each reading at most scanBudget(limit) rows', async () => {
    assert.equal(scanBudget(10), 1_000);
    const pages = await allPages({ limit: 10, labelSelector: 'tier=rare' });
    assert.deepEqual(pages[0]!.items, []);
    assert.ok(pages[0]!.continue, 'an empty page still says where to go on');
    assert.ok(
      pages.every((p) => p.rowsRead <= scanBudget(10)),
      pages.map((p) => p.rowsRead).join(),
    );
    assert.deepEqual(
      pages.flatMap((p) => p.items.map((o) => o.metadata.name)),
      ['p-zzzzz', ...Array.from({ length: 10 }, (_, i) => `q-${i}`)],
    );
    assert.ok(pages.every((p) => p.items.length <= 10));
  });

  it('a page reads no more rows than it serves when there is no selector', async () => {
    const start = rows.read;
    const page = await list({ limit: 7 });
    assert.equal(page.items.length, 7);
    assert.equal(rows.read - start, 7);
  });

  it(`a list without limit is refused past ${MAX_SCANNED_ROWS} rows read or ${UNPAGED_LIST_LIMIT} objects held`, async () => {
    await assert.rejects(
      list({ labelSelector: 'tier=rare' }),
      (e: unknown) =>
        e instanceof ApiError && e.code === 413 && /reads more than 20000 objects across clusters/.test(e.message),
    );
    await assert.rejects(
      list({}),
      (e: unknown) => e instanceof ApiError && e.code === 413 && /holds more than 5000 objects/.test(e.message),
    );
    // Within both bounds it is answered whole.
    const small = await list({ labelSelector: 'tier=rare' }, ['member2']);
    assert.equal(small.items.length, 10);
    assert.equal(small.continue, undefined);
  });
});
