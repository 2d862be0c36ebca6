import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../../lib/api/object.ts';
import { VirtualClock } from '../../../lib/clock/index.ts';
import {
  createGarbageCollector,
  FOREGROUND_FINALIZER,
  GARBAGE_COLLECTOR,
  ORPHAN_FINALIZER,
} from '../../../lib/controllers/garbage-collector.ts';
import { collectorKey, parseCollectorKey } from '../../../lib/controllers/triggers.ts';
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
  /**
   * Reconciles queued keys (and `keys`) until only delayed ones are left; returns those (rechecks
   * and waits), as `key reason`. `later` runs the delayed ones instead.
   */
  async function drain(...keys: string[]): Promise<string[]> {
    const delayed: string[] = [];
    const pending: { key: string; reasons: string[] }[] = keys.map((key) => ({ key, reasons: [] }));
    for (let i = 0; i < 200; i++) {
      for (const q of queued.splice(0)) {
        if (q.delayMs) delayed.push(`${q.key} ${q.reason}`);
        else pending.push({ key: q.key, reasons: q.reason ? [q.reason] : [] });
      }
      const next = pending.shift();
      if (!next) return delayed;
      await gc.reconcile(
        { key: next.key, lane: 'priority', reasons: next.reasons },
        { logger, reconcileId: 'r', now: clock.now() },
      );
    }
    throw new Error('the collector did not settle');
  }
  /** Runs delayed items returned by `drain` (as if their delay had passed). */
  async function later(delayed: string[]): Promise<string[]> {
    for (const d of delayed) {
      const [key, reason] = d.split(' ');
      queued.push({ controller: GARBAGE_COLLECTOR, lane: 'standard', key: key!, reason: reason! });
    }
    return drain();
  }
  return { clock, store, queued, drain, later };
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

const hasReason = (delayed: string[], reason: string) => delayed.some((d) => d.endsWith(` ${reason}`));

describe('garbage collector', () => {
  it('keys carry the object key and uid; a plain object key asks for an owner check', () => {
    const key = collectorKey({ ...deployment('web'), metadata: { name: 'web', namespace: 'default', uid: 'u-1' } });
    assert.equal(key, 'Deployment.apps/default/web@u-1');
    assert.deepEqual(parseCollectorKey(key), { ref: { ...DEPLOY, namespace: 'default', name: 'web' }, uid: 'u-1' });
    assert.deepEqual(parseCollectorKey('ConfigMap/default/child'), {
      ref: { ...CM, namespace: 'default', name: 'child' },
      uid: undefined,
    });
    assert.throws(() => parseCollectorKey('Deployment.apps/default/web@'), /empty uid/);
  });

  it('background: once the owner is gone its dependents go, down the whole tree, and it looks once more later', async () => {
    const h = harness();
    const web = await h.store.create(deployment('web'));
    const child = await h.store.create(ownedBy(configMap('child', {}), { owner: web, controller: true }));
    await h.store.create(ownedBy(configMap('grandchild', {}), { owner: child }));
    await h.store.create(configMap('unrelated', {}));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    const delayed = await h.drain(collectorKey(web));
    assert.equal(await exists(h.store, CM, 'child'), false);
    assert.equal(await exists(h.store, CM, 'grandchild'), false, 'the cascade reached the grandchild');
    assert.equal(await exists(h.store, CM, 'unrelated'), true);
    assert.ok(
      delayed.includes(`${collectorKey(web)} gc-recheck`),
      'a second look for dependents the index had not seen',
    );
    // The second look finds a dependent that reached the index late, and does not schedule a third.
    await h.store.create(ownedBy(configMap('late', {}), { owner: web }));
    const after = await h.later(delayed.filter((d) => d.startsWith(collectorKey(web))));
    assert.equal(await exists(h.store, CM, 'late'), false);
    assert.ok(!after.includes(`${collectorKey(web)} gc-recheck`));
  });

  it('collects an object written with owners that are already gone, and drops only the gone references', async () => {
    const h = harness();
    const live = await h.store.create(deployment('live'));
    await h.store.create(
      ownedBy(configMap('orphaned', {}), {
        owner: { ...deployment('gone'), metadata: { name: 'gone', uid: 'gone-uid' } },
      }),
    );
    await h.store.create(
      ownedBy(
        configMap('half', {}),
        { owner: live },
        { owner: { ...deployment('gone'), metadata: { name: 'gone', uid: 'gone-uid' } } },
      ),
    );
    await h.drain('ConfigMap/default/orphaned', 'ConfigMap/default/half');
    assert.equal(await exists(h.store, CM, 'orphaned'), false);
    const half = await h.store.get({ ...CM, namespace: 'default', name: 'half' });
    assert.deepEqual(
      half?.metadata.ownerReferences?.map((r) => r.name),
      ['live'],
    );
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

  it('does not count an owner being deleted in the foreground as holding a shared dependent', async () => {
    const h = harness();
    const marked = (name: string) => ({
      ...deployment(name),
      metadata: { name, namespace: 'default', finalizers: [FOREGROUND_FINALIZER] },
    });
    const a = await h.store.create(marked('a'));
    const b = await h.store.create(marked('b'));
    await h.store.create(ownedBy(configMap('shared', {}), { owner: a, controller: true, block: true }, { owner: b }));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'a' });
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'b' });
    const delayed = await h.drain(collectorKey(a), collectorKey(b));
    assert.equal(await exists(h.store, CM, 'shared'), false);
    await h.later(delayed.filter((d) => d.includes(' gc-wait')));
    assert.equal(await exists(h.store, DEPLOY, 'a'), false);
    assert.equal(await exists(h.store, DEPLOY, 'b'), false);
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

  it('leaves a deletion-protected dependent in place', async () => {
    const h = harness();
    const web = await h.store.create(deployment('web'));
    const kept = configMap('kept', {});
    kept.metadata.labels = { 'resourcetemplate.karmada.io/deletion-protected': 'Always' };
    await h.store.create(ownedBy(kept, { owner: web }));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    await h.drain(collectorKey(web));
    assert.equal(await exists(h.store, CM, 'kept'), true);
  });

  it('foreground: deletes the dependents first (their own subtrees too), waits for blocking ones, then lets the owner go', async () => {
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
    const fast = await h.store.create(ownedBy(configMap('fast', {}), { owner: web, block: true }));
    await h.store.create(ownedBy(configMap('fast-child', {}), { owner: fast, block: true }));
    await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
    const delayed = await h.drain(collectorKey(web));
    assert.ok(hasReason(delayed, 'gc-wait-1'), 'the owner waits');
    assert.equal(await exists(h.store, CM, 'fast'), false);
    assert.equal(await exists(h.store, CM, 'fast-child'), false, 'the subtree went in the foreground too');
    const owner = await h.store.get({ ...DEPLOY, namespace: 'default', name: 'web' });
    assert.deepEqual(owner?.metadata.finalizers, [FOREGROUND_FINALIZER]);

    const slow = await h.store.get({ ...CM, namespace: 'default', name: 'slow' });
    await h.store.update({ ...slow!, metadata: { ...slow!.metadata, finalizers: [] } });
    await h.later(delayed.filter((d) => d.startsWith(collectorKey(web))));
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

  it('waits, backing off, for an owner held by someone else’s finalizer, then collects', async () => {
    const h = harness();
    const web = await h.store.create({
      ...deployment('web'),
      metadata: { name: 'web', namespace: 'default', finalizers: ['example.com/cleanup'] },
    });
    await h.store.create(ownedBy(configMap('child', {}), { owner: web }));
    const marked = (await h.store.delete({ ...DEPLOY, namespace: 'default', name: 'web' })).object;
    const first = await h.drain(collectorKey(web));
    assert.deepEqual(first, [`${collectorKey(web)} gc-wait-1`]);
    const second = await h.later(first);
    assert.deepEqual(second, [`${collectorKey(web)} gc-wait-2`], 'each wait longer than the last');
    assert.equal(await exists(h.store, CM, 'child'), true, 'not while the owner still exists');
    await h.store.update({ ...marked, metadata: { ...marked.metadata, finalizers: [] } });
    await h.later(second);
    assert.equal(await exists(h.store, CM, 'child'), false);
  });

  it('enqueues the objects it deletes, for itself and for the controllers their kind triggers', async () => {
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
      h.queued.filter((q) => !q.delayMs).map((q) => [q.controller, q.lane, q.key, q.reason]),
      [
        [GARBAGE_COLLECTOR, 'priority', collectorKey(child), 'owner-deleted'],
        // A ConfigMap is a resource template: the detector hears of its deletion too.
        ['detector', 'priority', 'ConfigMap/default/child', 'garbage-collected'],
      ],
    );
  });
});
