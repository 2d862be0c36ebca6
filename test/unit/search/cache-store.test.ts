/**
 * The search cache's rows: an object too large for a row is left out of the cache, and the sync that
 * meets it says so in its log — which object and how large, never what it holds.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import { SearchCache } from '../../../lib/search/cache-store.ts';
import { syncPage } from '../../../lib/search/sync.ts';
import { MemoryRowStore } from '../../../lib/store/index.ts';

const POD = { apiVersion: 'v1', kind: 'Pod' };

describe('SearchCache: objects too large to store', () => {
  it('are left out with a warning naming cluster, kind, object and size, without the content', async () => {
    const lines: string[] = [];
    const logger = createLogger({ format: 'json', level: 'WARN', service: 'test', write: (l) => lines.push(l) });
    const cache = new SearchCache(new MemoryRowStore({ maxRowBytes: 16 * 1024 }));
    // Random bytes do not compress: the stored row is as large as the object.
    const payload = randomBytes(20 * 1024).toString('base64');
    const big: KubeObject = {
      ...POD,
      metadata: { namespace: 'default', name: 'big', resourceVersion: '5', annotations: { blob: payload } },
    };
    const small: KubeObject = { ...POD, metadata: { namespace: 'default', name: 'small', resourceVersion: '6' } };

    const synced = await syncPage(cache, 'member1', POD, { items: [big, small], last: true }, logger);

    assert.equal(synced.written, 1);
    assert.deepEqual(
      (await cache.entries('member1', POD, {})).map((e) => e.key),
      ['default/small'],
    );
    const warnings = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(warnings.length, 1, lines.join('\n'));
    assert.match(String(warnings[0]!.message), /too large for the search cache/);
    assert.equal(warnings[0]!.level, 'WARN');
    assert.equal(warnings[0]!.cluster, 'member1');
    assert.equal(warnings[0]!.kind, 'v1/Pod');
    assert.equal(warnings[0]!.namespace, 'default');
    assert.equal(warnings[0]!.name, 'big');
    assert.ok(Number(warnings[0]!.bytes) > 20 * 1024, lines[0]);
    assert.ok(!lines[0]!.includes(payload.slice(0, 64)), 'the object’s content is not logged');
  });
});
