/**
 * Races the contract suite cannot stage on a real engine: a writer landing between the store's read
 * and its conditional write.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemClock } from '../../../lib/clock/index.ts';
import {
  ConflictError,
  MemoryRowStore,
  RowObjectStore,
  type Row,
  type WriteOutcome,
} from '../../../lib/store/index.ts';
import { deployment } from '../../support/factories.ts';

/** A row store where another writer bumps the row right before the next `n` conditional deletes. */
class RacingRows extends MemoryRowStore {
  races = 0;
  override async delete(pk: string, version: number): Promise<WriteOutcome> {
    if (this.races > 0) {
      this.races--;
      const row = (await this.get(pk))!;
      await this.put({ ...row, version: row.version + 1 } as Row, { kind: 'version', version: row.version });
    }
    return super.delete(pk, version);
  }
}

const REF = { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'web' };

describe('RowObjectStore under racing writers', () => {
  it('a delete without preconditions retries a lost race, as the API server does', async () => {
    const rows = new RacingRows();
    const store = new RowObjectStore(rows, { clock: systemClock });
    await store.create(deployment('web'));
    rows.races = 2;
    const result = await store.delete(REF);
    assert.equal(result.removed, true);
    assert.equal(await store.get(REF), undefined);
  });

  it('a delete with a resourceVersion precondition reports the lost race as a conflict', async () => {
    const rows = new RacingRows();
    const store = new RowObjectStore(rows, { clock: systemClock });
    const created = await store.create(deployment('web'));
    rows.races = 1;
    await assert.rejects(
      store.delete(REF, { preconditions: { resourceVersion: created.metadata.resourceVersion! } }),
      ConflictError,
    );
    assert.ok(await store.get(REF));
  });

  it('gives up with a conflict when it loses every attempt', async () => {
    const rows = new RacingRows();
    const store = new RowObjectStore(rows, { clock: systemClock });
    await store.create(deployment('web'));
    rows.races = 100;
    await assert.rejects(store.delete(REF), ConflictError);
  });
});

/** Counts the row reads a store makes. */
class CountingRows extends MemoryRowStore {
  gets = 0;
  override get(pk: string): Promise<Row | undefined> {
    this.gets++;
    return super.get(pk);
  }
}

describe('RowObjectStore writes against a held copy (WriteOptions.current)', () => {
  it('an update of the copy the caller read is one conditional write, without a read', async () => {
    const rows = new CountingRows();
    const store = new RowObjectStore(rows, { clock: systemClock });
    const created = await store.create(deployment('web'));
    rows.gets = 0;
    const updated = await store.updateStatus({ ...created, status: { replicas: 2 } }, { current: created });
    assert.equal(rows.gets, 0);
    assert.deepEqual((await store.get(REF))?.status, { replicas: 2 });
    assert.notEqual(updated.metadata.resourceVersion, created.metadata.resourceVersion);
  });

  it('a stale copy is a conflict and writes nothing (never a lost update)', async () => {
    const store = new RowObjectStore(new MemoryRowStore(), { clock: systemClock });
    const created = await store.create(deployment('web'));
    await store.updateStatus({ ...created, status: { replicas: 1 } });
    await assert.rejects(
      store.updateStatus({ ...created, status: { replicas: 9 } }, { current: created }),
      ConflictError,
    );
    assert.deepEqual((await store.get(REF))?.status, { replicas: 1 });
  });

  it('a copy at another version than the write is ignored: the store reads the object as before', async () => {
    const rows = new CountingRows();
    const store = new RowObjectStore(rows, { clock: systemClock });
    const created = await store.create(deployment('web'));
    const newer = await store.updateStatus({ ...created, status: { replicas: 1 } });
    rows.gets = 0;
    await store.updateStatus({ ...newer, status: { replicas: 3 } }, { current: created });
    assert.equal(rows.gets, 1);
    assert.deepEqual((await store.get(REF))?.status, { replicas: 3 });
  });
});
