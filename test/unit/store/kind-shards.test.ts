/**
 * The single-shard kinds (decision 0020): policies, clusters and a few other kinds a fleet has few of
 * are written to one byKind partition, and a table written by an earlier version (eight partitions) is
 * re-indexed without a list ever missing an object: until the marker is confirmed, lists read all eight.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { VirtualClock } from '../../../lib/clock/index.ts';
import { KIND_SHARDS_MARKER_PK, PREVIOUS_VERSION_GRACE_MS } from '../../../lib/store/kind-shards.ts';
import { fnv1a, KIND_SHARDS, kindShardKey, rowKeysOf } from '../../../lib/store/layout.ts';
import { MemoryRowStore } from '../../../lib/store/memory-rows.ts';
import { RowObjectStore } from '../../../lib/store/row-object-store.ts';
import type { IndexQuery } from '../../../lib/store/rows.ts';

const PP = { group: 'policy.karmada.io', kind: 'PropagationPolicy' };
const policy = (name: string): KubeObject => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace: 'apps' },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] },
});

/** A row store counting the byKind partitions each list reads. */
function countingRows() {
  const rows = new MemoryRowStore();
  const queried: string[] = [];
  const query = rows.query.bind(rows);
  rows.query = (q: IndexQuery) => (queried.push(q.partition), query(q));
  return { rows, queried };
}

/** Moves a row back where the earlier version (eight partitions for every kind) wrote it. */
async function writtenByEarlierVersion(rows: MemoryRowStore, object: KubeObject): Promise<string> {
  const keys = rowKeysOf({ ...PP, namespace: object.metadata.namespace, name: object.metadata.name! });
  const old = kindShardKey(PP, fnv1a(keys.sortKey) % KIND_SHARDS);
  const row = (await rows.get(keys.pk))!;
  assert.ok((await rows.put({ ...row, kindShard: old }, { kind: 'version', version: row.version })).ok);
  return old;
}

const names = (page: { items: KubeObject[] }) => page.items.map((o) => o.metadata.name).sort();

describe('single-shard kinds', () => {
  it('a policy is written to one partition whatever its name; a Deployment still spreads over eight', () => {
    const policyShards = new Set(
      Array.from({ length: 50 }, (_, i) => rowKeysOf({ ...PP, namespace: 'apps', name: `p-${i}` }).kindShard),
    );
    assert.deepEqual([...policyShards], ['PropagationPolicy.policy.karmada.io#0']);
    for (const kind of ['Cluster.cluster.karmada.io', 'OverridePolicy.policy.karmada.io']) {
      const [k, ...g] = kind.split('.');
      assert.equal(rowKeysOf({ group: g.join('.'), kind: k!, name: 'x' }).kindShard, `${kind}#0`);
    }
    const deploymentShards = new Set(
      Array.from(
        { length: 50 },
        (_, i) => rowKeysOf({ group: 'apps', kind: 'Deployment', namespace: 'apps', name: `d-${i}` }).kindShard,
      ),
    );
    assert.equal(deploymentShards.size, KIND_SHARDS);
  });

  it('a table of the earlier layout, where nothing else writes: the first list moves every entry, then one partition is read', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 26));
    const { rows, queried } = countingRows();
    const writer = new RowObjectStore(rows, { clock });
    const olds = new Set<string>();
    for (let i = 0; i < 20; i++) olds.add(await writtenByEarlierVersion(rows, await writer.create(policy(`p-${i}`))));
    assert.ok(olds.size > 1, 'the earlier version spread them');

    const store = new RowObjectStore(rows, { clock });
    assert.equal((await store.list({ ...PP, namespace: 'apps' })).items.length, 20);
    queried.length = 0;
    assert.equal((await store.list({ ...PP, namespace: 'apps' })).items.length, 20);
    assert.deepEqual(queried, ['PropagationPolicy.policy.karmada.io#0']);
    // Another process (a cold start) trusts the confirmed marker.
    queried.length = 0;
    assert.equal((await new RowObjectStore(rows, { clock }).list({ ...PP })).items.length, 20);
    assert.deepEqual(queried, ['PropagationPolicy.policy.karmada.io#0']);
  });

  it('in AWS, lists read every partition until the previous version can no longer write, and miss nothing it wrote meanwhile', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 26));
    const { rows, queried } = countingRows();
    const earlier = new RowObjectStore(rows, { clock });
    await writtenByEarlierVersion(rows, await earlier.create(policy('before')));

    const store = new RowObjectStore(rows, { clock, previousVersionGraceMs: PREVIOUS_VERSION_GRACE_MS });
    assert.deepEqual(names(await store.list({ ...PP })), ['before']);
    assert.ok((await rows.get(KIND_SHARDS_MARKER_PK)) !== undefined, 'the re-index is recorded');
    // The previous version, still running during the deploy, writes one where it always did.
    const stray = await writtenByEarlierVersion(rows, await earlier.create(policy('during')));
    assert.notEqual(stray, 'PropagationPolicy.policy.karmada.io#0');
    await clock.advance(5 * 60_000);
    queried.length = 0;
    assert.deepEqual(names(await store.list({ ...PP })), ['before', 'during']);
    assert.equal(new Set(queried).size, KIND_SHARDS, 'not confirmed yet: all eight partitions');

    await clock.advance(PREVIOUS_VERSION_GRACE_MS);
    assert.deepEqual(names(await store.list({ ...PP })), ['before', 'during'], 'the stray was moved');
    queried.length = 0;
    assert.deepEqual(names(await store.list({ ...PP })), ['before', 'during']);
    assert.deepEqual(queried, ['PropagationPolicy.policy.karmada.io#0']);
  });

  it('an object written again during the re-index keeps its newer version', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 26));
    const { rows } = countingRows();
    const store = new RowObjectStore(rows, { clock });
    const created = await store.create(policy('p'));
    await writtenByEarlierVersion(rows, created);
    // A newer write lands between the re-index's read of the entry and its re-write.
    const get = rows.get.bind(rows);
    let raced = false;
    rows.get = async (pk: string) => {
      const row = await get(pk);
      if (!raced && pk.startsWith('PropagationPolicy')) {
        raced = true;
        await store.update({ ...(await store.get({ ...PP, namespace: 'apps', name: 'p' }))!, spec: { changed: true } });
      }
      return row;
    };
    const listed = (await new RowObjectStore(rows, { clock }).list({ ...PP })).items;
    assert.equal(listed.length, 1);
    assert.deepEqual(listed[0]!.spec, { changed: true });
  });
});
