import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../../lib/api/object.ts';
import { VirtualClock } from '../../../lib/clock/index.ts';
import {
  collectorKey,
  createGarbageCollector,
  FOREGROUND_FINALIZER,
  GARBAGE_COLLECTOR,
  ORPHAN_FINALIZER,
  parseCollectorKey,
} from '../../../lib/controllers/garbage-collector.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import type { EnqueueItem } from '../../../lib/queue/port.ts';
import { MemoryRowStore, RowObjectStore } from '../../../lib/store/index.ts';
import { configMap, deployment } from '../../support/factories.ts';

const DEPLOY = { group: 'apps', kind: 'Deployment' };
const CM = { group: '', kind: 'ConfigMap' };

function harness() {
  const clock = new VirtualClock(Date.UTC(2026, 10, 21));
  const store = new RowObjectStore(new MemoryRowStore(), { clock });
  const queued: EnqueueItem[] = [];
  const gc = createGarbageCollector({
    store,
    workQueue: { enqueue: async (items) => void queued.push(...items) },
  });
  const logger = createLogger({ format: 'json', level: 'SILENT', service: 'test', write: () => {} });
  /** Reconciles queued keys (and `keys`) until the queue is empty; returns the requeues asked for. */
  async function drain(...keys: string[]): Promise<string[]> {
    const requeued: string[] = [];
    const pending = [...keys];
    for (let i = 0; i < 100; i++) {
      pending.push(...queued.splice(0).map((q) => q.key));
      const key = pending.shift();
      if (key === undefined) return requeued;
      const result = await gc.reconcile(
        { key, lane: 'priority', reasons: [] },
        { logger, reconcileId: 'r', now: clock.now() },
      );
      if (result?.requeueAfterMs !== undefined) requeued.push(key);
    }
    throw new Error('the collector did not settle');
  }
  return { clock, store, queued, drain };
}

function ownedBy(
  obj: KubeObject,
  ...owners: { owner: KubeObject; block?: boolean; controller?: boolean }[]
): KubeObject {
  obj.metadata.ownerReferences = owners.map(({ owner, block, controller }): OwnerReference => ({
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    ...(controller ? { controller: true } : {}),
    ...(block ? { blockOwnerDeletion: true } : {}),
  }));
  return obj;
}

const exists = async (store: RowObjectStore, gk: { group: string; kind: string }, name: string) =>
  (await store.get({ ...gk, namespace: 'default', name })) !== undefined;

describe('garbage collector', () => {
  it('keys carry the object key and uid', () => {
    const key = collectorKey({ ...deployment('web'), metadata: { name: 'web', namespace: 'default', uid: 'u-1' } });
    assert.equal(key, 'Deployment.apps/default/web@u-1');
    assert.deepEqual(parseCollectorKey(key), { ref: { ...DEPLOY, namespace: 'default', name: 'web' }, uid: 'u-1' });
    assert.throws(() => parseCollectorKey('Deployment.apps/default/web'), /expected <object key>@<uid>/);
  });

  it('background: once the owner is gone its dependents go, down the whole tree', async () => {
    const h = harness();
    const web = await h.store.create(deployment('web'));
    const child = await h.store.create(ownedBy(configMap('child', {}), { owner: web, controller: true }));
    await h.store.create(ownedBy(configMap('grandchild', {}), { owner: child }));
    await h.store.create(configMap('unrelated', {}));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    assert.deepEqual(await h.drain(collectorKey(web)), []);
    assert.equal(await exists(h.store, CM, 'child'), false);
    assert.equal(await exists(h.store, CM, 'grandchild'), false, 'the cascade reached the grandchild');
    assert.equal(await exists(h.store, CM, 'unrelated'), true);
  });

  it('keeps a dependent another owner still holds, dropping only the dangling reference', async () => {
    const h = harness();
    const a = await h.store.create(deployment('a'));
    const b = await h.store.create(deployment('b'));
    await h.store.create(ownedBy(configMap('shared', {}), { owner: a, controller: true }, { owner: b }));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'a' });
    await h.drain(collectorKey(a));
    const shared = await h.store.get({ ...CM, namespace: 'default', name: 'shared' });
    assert.deepEqual(
      shared?.metadata.ownerReferences?.map((r) => r.name),
      ['b'],
    );
  });

  it('does nothing for a live owner, nor for a new object that took the deleted one’s name', async () => {
    const h = harness();
    const old = await h.store.create(deployment('web'));
    await h.store.create(ownedBy(configMap('child', {}), { owner: old }));
    await h.drain(collectorKey(old));
    assert.equal(await exists(h.store, CM, 'child'), true, 'the owner is alive');
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    const fresh = await h.store.create(deployment('web'));
    await h.store.create(ownedBy(configMap('fresh-child', {}), { owner: fresh }));
    await h.drain(collectorKey(old));
    assert.equal(await exists(h.store, CM, 'child'), false, 'the old incarnation’s dependent goes');
    assert.equal(await exists(h.store, CM, 'fresh-child'), true, 'the new incarnation’s stays');
  });

  it('foreground: deletes the dependents first, waits for blocking ones, then lets the owner go', async () => {
    const h = harness();
    const web = await h.store.create({
      ...deployment('web'),
      metadata: { name: 'web', namespace: 'default', finalizers: [FOREGROUND_FINALIZER] },
    });
    // A dependent held by its own finalizer blocks the owner until it is gone.
    await h.store.create(
      ownedBy(
        {
          ...configMap('slow', {}),
          metadata: { name: 'slow', namespace: 'default', finalizers: ['example.com/hold'] },
        },
        { owner: web, block: true },
      ),
    );
    await h.store.create(ownedBy(configMap('fast', {}), { owner: web, block: true }));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    const requeued = await h.drain(collectorKey(web));
    assert.ok(requeued.includes(collectorKey(web)), 'the owner waits');
    assert.equal(await exists(h.store, CM, 'fast'), false);
    const owner = await h.store.get({ ...DEPLOY, namespace: 'default', name: 'web' });
    assert.deepEqual(owner?.metadata.finalizers, [FOREGROUND_FINALIZER]);

    const slow = await h.store.get({ ...CM, namespace: 'default', name: 'slow' });
    await h.store.update({ ...slow!, metadata: { ...slow!.metadata, finalizers: [] } });
    assert.deepEqual(await h.drain(collectorKey(web)), []);
    assert.equal(await exists(h.store, DEPLOY, 'web'), false, 'gone once its dependents are');
  });

  it('orphan: removes the owner’s references from its dependents, then lets the owner go', async () => {
    const h = harness();
    const web = await h.store.create({
      ...deployment('web'),
      metadata: { name: 'web', namespace: 'default', finalizers: [ORPHAN_FINALIZER] },
    });
    await h.store.create(ownedBy(configMap('child', {}), { owner: web, controller: true }));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    await h.drain(collectorKey(web));
    assert.equal(await exists(h.store, DEPLOY, 'web'), false);
    const child = await h.store.get({ ...CM, namespace: 'default', name: 'child' });
    assert.equal(child?.metadata.ownerReferences, undefined);
    assert.deepEqual((await h.store.listDependents(web.metadata.uid!)).items, []);
  });

  it('waits for an owner held by someone else’s finalizer, then collects', async () => {
    const h = harness();
    const web = await h.store.create({
      ...deployment('web'),
      metadata: { name: 'web', namespace: 'default', finalizers: ['example.com/cleanup'] },
    });
    await h.store.create(ownedBy(configMap('child', {}), { owner: web }));
    const marked = (await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' })).object;
    assert.deepEqual(await h.drain(collectorKey(web)), [collectorKey(web)]);
    assert.equal(await exists(h.store, CM, 'child'), true, 'not while the owner still exists');
    await h.store.update({ ...marked, metadata: { ...marked.metadata, finalizers: [] } });
    await h.drain(collectorKey(web));
    assert.equal(await exists(h.store, CM, 'child'), false);
  });

  it('is enqueued on its own priority lane for the objects it deletes', async () => {
    const h = harness();
    const web = await h.store.create(deployment('web'));
    const child = await h.store.create(ownedBy(configMap('child', {}), { owner: web }));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    await createGarbageCollector({
      store: h.store,
      workQueue: { enqueue: async (items) => void h.queued.push(...items) },
    }).reconcile(
      { key: collectorKey(web), lane: 'priority', reasons: [] },
      {
        logger: createLogger({ format: 'json', level: 'SILENT', service: 't', write: () => {} }),
        reconcileId: 'r',
        now: 0,
      },
    );
    assert.deepEqual(
      h.queued.map((q) => [q.controller, q.lane, q.key, q.reason]),
      [[GARBAGE_COLLECTOR, 'priority', collectorKey(child), 'owner-deleted']],
    );
  });
});
