/**
 * `tryWrite` and `updateLatest`: the ways a conditional write loses become values, and a change is
 * re-applied to the version a conflict carried rather than lost or re-read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import type { KubeObject } from '../../../lib/api/object.ts';
import { MemoryRowStore, type ObjectStore, RowObjectStore, tryWrite, updateLatest } from '../../../lib/store/index.ts';
import { configMap } from '../../support/factories.ts';

function store() {
  const rows = new MemoryRowStore();
  return { rows, store: new RowObjectStore(rows, { clock: new VirtualClock(Date.UTC(2026, 10, 25)) }) };
}

const REF = { group: '', kind: 'ConfigMap', namespace: 'default', name: 'c' };

describe('tryWrite', () => {
  it('a write that succeeds: ok with the stored object', async () => {
    const { store: s } = store();
    const r = await tryWrite(() => s.create(configMap('c', { a: '1' })));
    assert.ok(r.ok);
    assert.equal(r.object.metadata.name, 'c');
  });
  it('a stale version: conflict, carrying the current object', async () => {
    const { store: s } = store();
    const first = await s.create(configMap('c', { a: '1' }));
    await s.update({ ...first, data: { a: '2' } });
    const r = await tryWrite(() => s.update({ ...first, data: { a: '3' } }));
    assert.ok(!r.ok && r.reason === 'conflict');
    assert.deepEqual((r.current as KubeObject & { data: unknown }).data, { a: '2' });
  });
  it('an object gone: gone; a name taken: exists', async () => {
    const { store: s } = store();
    const first = await s.create(configMap('c', {}));
    assert.deepEqual(await tryWrite(() => s.create(configMap('c', {}))), {
      ok: false,
      reason: 'exists',
      current: (await s.get(REF))!,
    });
    await s.delete(REF);
    const r = await tryWrite(() => s.update(first));
    assert.ok(!r.ok && (r.reason === 'gone' || r.reason === 'conflict'));
  });
  it('anything else is thrown (a bug or an I/O failure)', async () => {
    await assert.rejects(
      tryWrite(() => Promise.reject(new Error('network down'))),
      /network down/,
    );
  });
});

describe('updateLatest', () => {
  it('applies the change to the latest version after a conflict, without losing the other writer’s change', async () => {
    const { store: s } = store();
    const stale = await s.create(configMap('c', { a: '1' }));
    await s.update({ ...stale, metadata: { ...stale.metadata, labels: { other: 'writer' } } });
    let reads = 0;
    const counting: ObjectStore = {
      create: (o) => s.create(o),
      get: (ref) => {
        reads++;
        return s.get(ref);
      },
      list: (q) => s.list(q),
      listRefs: (q) => s.listRefs(q),
      listDependents: (uid, q) => s.listDependents(uid, q),
      update: (o) => s.update(o),
      updateStatus: (o) => s.updateStatus(o),
      updateWithStatus: (o) => s.updateWithStatus(o),
      delete: (ref, o) => s.delete(ref, o),
    };
    const r = await updateLatest(counting, stale, (current) => ({ ...current, data: { a: '2' } }));
    assert.equal(r.status, 'written');
    const now = (await s.get(REF)) as KubeObject & { data: unknown };
    assert.deepEqual(now.data, { a: '2' });
    assert.deepEqual(now.metadata.labels, { other: 'writer' });
    assert.equal(reads, 0, 'the retry used the version the conflict carried, not a new read');
  });
  it('nothing to do: unchanged, no write', async () => {
    const { store: s, rows } = store();
    await s.create(configMap('c', {}));
    const puts = rows.calls.put;
    assert.equal((await updateLatest(s, REF, () => undefined)).status, 'unchanged');
    assert.equal(rows.calls.put, puts);
  });
  it('a missing object: gone', async () => {
    const { store: s } = store();
    assert.deepEqual(await updateLatest(s, REF, (c) => c), { status: 'gone' });
  });
  it('still losing after every attempt: conflict (try again later)', async () => {
    const { store: s } = store();
    const first = await s.create(configMap('c', { n: '0' }));
    let n = 0;
    const r = await updateLatest(
      s,
      first,
      (current) => {
        // Another writer moves the object on before each of our writes.
        void s.update({ ...current, data: { n: String(++n) } });
        return { ...current, data: { mine: 'x' } };
      },
      { attempts: 3 },
    );
    assert.equal(r.status, 'conflict');
  });
});
