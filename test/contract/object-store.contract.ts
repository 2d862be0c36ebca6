/**
 * The ObjectStore contract: one suite, run against every row store (in-memory, dynalite, DynamoDB
 * Local), so a fake or an emulator cannot hide a behaviour the real database has.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  InvalidObjectError,
  NotFoundError,
  type ObjectStore,
  type RowObjectStore,
  type RowObjectStoreOptions,
  TooLargeError,
} from '../../lib/store/index.ts';
import { VirtualClock } from '../../lib/clock/index.ts';
import { cluster, configMap, deployment, realisticConfigText, work } from '../support/factories.ts';

/** A backend under test: makes a fresh, empty store per test. */
export interface StoreBackend {
  name: string;
  start(): Promise<void>;
  /** A store over a fresh, empty table; `options` override the clock and the per-kind TTL. */
  newStore(options?: Partial<RowObjectStoreOptions>): Promise<RowObjectStore>;
  stop(): Promise<void>;
}

const DEPLOY = { group: 'apps', kind: 'Deployment' };
const CM = { group: '', kind: 'ConfigMap' };
const WORK = { group: 'work.karmada.io', kind: 'Work' };

async function rejectsWith<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof type, `expected ${type.name}, got ${(err as Error)?.name}: ${(err as Error)?.message}`);
    return err as E;
  }
  assert.fail(`expected ${type.name}, but the call succeeded`);
}

async function listAll(
  store: ObjectStore,
  query: Parameters<ObjectStore['list']>[0],
): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let pages = 0;
  let token: string | undefined;
  do {
    const page = await store.list({ ...query, ...(token ? { continue: token } : {}) });
    pages++;
    if (query.limit) assert.ok(page.items.length <= query.limit, 'a page never exceeds the limit');
    names.push(...page.items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`));
    token = page.continue;
  } while (token);
  return { names, pages };
}

export function describeObjectStoreContract(backend: StoreBackend): void {
  describe(`ObjectStore contract on ${backend.name}`, () => {
    before(() => backend.start());
    after(() => backend.stop());

    describe('create and get', () => {
      it('sets uid, creationTimestamp, generation 1 and a resourceVersion, and drops client values for them', async () => {
        const store = await backend.newStore();
        const input = deployment('web');
        input.metadata.uid = 'client-chosen';
        input.metadata.resourceVersion = '42';
        input.status = { readyReplicas: 3 };
        const created = await store.create(input);
        assert.match(created.metadata.uid!, /^[0-9a-f-]{36}$/);
        assert.notEqual(created.metadata.uid, 'client-chosen');
        assert.match(created.metadata.creationTimestamp!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.equal(created.metadata.generation, 1);
        assert.match(created.metadata.resourceVersion!, /^\d+$/);
        assert.notEqual(created.metadata.resourceVersion, '42');
        assert.equal(created.status, undefined, 'status is not accepted on create');
        assert.deepEqual(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), created);
      });

      it('returns undefined for an object that does not exist', async () => {
        const store = await backend.newStore();
        assert.equal(await store.get({ ...DEPLOY, namespace: 'default', name: 'nope' }), undefined);
      });

      it('refuses a second create of the same name and reports the stored object', async () => {
        const store = await backend.newStore();
        const first = await store.create(deployment('web', { replicas: 2 }));
        const err = await rejectsWith(store.create(deployment('web', { replicas: 5 })), AlreadyExistsError);
        assert.equal(err.code, 409);
        assert.deepEqual(err.current, first);
        const stored = await store.get({ ...DEPLOY, namespace: 'default', name: 'web' });
        assert.deepEqual(stored, first, 'the original is untouched');
      });

      it('keeps kinds apart: same name in two kinds are two objects', async () => {
        const store = await backend.newStore();
        await store.create(configMap('shared', { a: '1' }));
        await store.create({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'shared', namespace: 'default' },
          data: {},
        });
        assert.equal((await store.get({ ...CM, namespace: 'default', name: 'shared' }))?.kind, 'ConfigMap');
        assert.equal(
          (await store.get({ group: '', kind: 'Secret', namespace: 'default', name: 'shared' }))?.kind,
          'Secret',
        );
      });

      it('names an object from generateName', async () => {
        const store = await backend.newStore();
        const created = await store.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { generateName: 'cfg-', namespace: 'default' },
        });
        assert.match(created.metadata.name!, /^cfg-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
        assert.ok(await store.get({ ...CM, namespace: 'default', name: created.metadata.name! }));
      });

      it('rejects an object without a name', async () => {
        const store = await backend.newStore();
        const err = await rejectsWith(
          store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' } }),
          InvalidObjectError,
        );
        assert.equal(err.code, 422);
        assert.match(err.message, /metadata\.name/);
      });

      it('rejects names that cannot be URL path segments and namespaces that are not DNS labels', async () => {
        const store = await backend.newStore();
        for (const [name, namespace, field] of [
          ['a/b', 'default', /metadata\.name: Invalid value: "a\/b"/],
          ['..', 'default', /metadata\.name: Invalid value: "\.\."/],
          ['x%2F', 'default', /metadata\.name/],
          ['ok', 'Not_A_Label', /metadata\.namespace: Invalid value: "Not_A_Label": a lowercase RFC 1123 label/],
        ] as const) {
          const err = await rejectsWith(store.create(configMap(name, {}, namespace)), InvalidObjectError);
          assert.match(err.message, field);
        }
        assert.deepEqual((await store.list({ ...CM })).items, []);
      });

      it('does not store anything on a dry-run create', async () => {
        const store = await backend.newStore();
        const result = await store.create(deployment('web'), { dryRun: true });
        assert.equal(result.metadata.generation, 1);
        assert.equal(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), undefined);
      });
    });

    describe('update', () => {
      it('bumps generation when the spec changes, and resourceVersion on every change', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web', { replicas: 1 }));
        const v2 = await store.update({ ...v1, spec: { ...(v1.spec as object), replicas: 3 } });
        assert.equal(v2.metadata.generation, 2);
        assert.ok(BigInt(v2.metadata.resourceVersion!) > BigInt(v1.metadata.resourceVersion!));
        assert.equal(v2.metadata.uid, v1.metadata.uid);
        assert.equal(v2.metadata.creationTimestamp, v1.metadata.creationTimestamp);

        const v3 = await store.update({ ...v2, metadata: { ...v2.metadata, labels: { team: 'a' } } });
        assert.equal(v3.metadata.generation, 2, 'a label change is not a spec change');
        assert.notEqual(v3.metadata.resourceVersion, v2.metadata.resourceVersion);
        assert.deepEqual(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), v3);
      });

      it('rejects a stale resourceVersion with a conflict that carries the current object, changing nothing', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web', { replicas: 1 }));
        const v2 = await store.update({ ...v1, spec: { ...(v1.spec as object), replicas: 2 } });
        const err = await rejectsWith(
          store.update({ ...v1, spec: { ...(v1.spec as object), replicas: 9 } }),
          ConflictError,
        );
        assert.equal(err.code, 409);
        assert.deepEqual(err.current, v2);
        assert.match(err.message, /modified.*latest version/);
        assert.deepEqual(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), v2);
      });

      it('requires a resourceVersion', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web'));
        const { resourceVersion: _rv, ...meta } = v1.metadata;
        const err = await rejectsWith(store.update({ ...v1, metadata: meta }), InvalidObjectError);
        assert.match(err.message, /resourceVersion/);
      });

      it('fails with NotFound when the object is gone', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web'));
        await store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
        const err = await rejectsWith(store.update(v1), NotFoundError);
        assert.equal(err.code, 404);
      });

      it('skips a write that changes nothing (same resourceVersion back)', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web'));
        const again = await store.update(structuredClone(v1));
        assert.equal(again.metadata.resourceVersion, v1.metadata.resourceVersion);
      });

      it('ignores status on a main-resource update', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web'));
        const withStatus = await store.updateStatus({ ...v1, status: { readyReplicas: 1 } });
        const v3 = await store.update({
          ...withStatus,
          status: { readyReplicas: 99 },
          spec: { ...(v1.spec as object), replicas: 4 },
        });
        assert.deepEqual(v3.status, { readyReplicas: 1 });
      });

      it('a stale update against a re-created object (same name, new incarnation) is a conflict', async () => {
        const store = await backend.newStore();
        const old = await store.create(deployment('web'));
        await store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
        await store.create(deployment('web'));
        await rejectsWith(store.update({ ...old, spec: { ...(old.spec as object), replicas: 7 } }), ConflictError);
      });

      it('does not store anything on a dry-run update', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web', { replicas: 1 }));
        const dry = await store.update({ ...v1, spec: { ...(v1.spec as object), replicas: 5 } }, { dryRun: true });
        assert.equal(dry.metadata.generation, 2);
        assert.equal(dry.metadata.resourceVersion, v1.metadata.resourceVersion, 'nothing written, version unchanged');
        assert.deepEqual(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), v1);
      });
    });

    describe('status updates', () => {
      it('change only status and never generation', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web', { replicas: 1 }));
        const v2 = await store.updateStatus({
          ...v1,
          spec: { ...(v1.spec as object), replicas: 50 },
          metadata: { ...v1.metadata, labels: { sneaky: 'yes' } },
          status: { readyReplicas: 1, observedGeneration: 1 },
        });
        assert.deepEqual(v2.status, { readyReplicas: 1, observedGeneration: 1 });
        assert.equal(v2.metadata.generation, 1);
        assert.equal((v2.spec as { replicas: number }).replicas, 1, 'spec changes in a status update are ignored');
        assert.equal(v2.metadata.labels, undefined, 'metadata changes in a status update are ignored');
        assert.notEqual(v2.metadata.resourceVersion, v1.metadata.resourceVersion);
      });

      it('conflict on a stale resourceVersion', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web'));
        await store.update({ ...v1, spec: { ...(v1.spec as object), replicas: 2 } });
        await rejectsWith(store.updateStatus({ ...v1, status: { readyReplicas: 1 } }), ConflictError);
      });

      it('updateWithStatus writes spec and status at once, bumping generation only for spec changes', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web', { replicas: 1 }));
        const v2 = await store.updateWithStatus({
          ...v1,
          spec: { ...(v1.spec as object), replicas: 3 },
          status: { observedGeneration: 2 },
        });
        assert.equal(v2.metadata.generation, 2);
        assert.equal((v2.spec as { replicas: number }).replicas, 3);
        assert.deepEqual(v2.status, { observedGeneration: 2 });
        const v3 = await store.updateWithStatus({ ...v2, status: { observedGeneration: 2, readyReplicas: 3 } });
        assert.equal(v3.metadata.generation, 2, 'a status-only change keeps the generation');
        assert.deepEqual(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), v3);
        await rejectsWith(store.updateWithStatus({ ...v1, status: {} }), ConflictError);
      });
    });

    describe('concurrent writers', () => {
      it('lose nothing: every increment from 6 racing writers lands exactly once', async () => {
        const store = await backend.newStore();
        await store.create(configMap('counter', { n: '0' }));
        const ref = { ...CM, namespace: 'default', name: 'counter' };
        const writer = async (rounds: number) => {
          for (let i = 0; i < rounds; i++) {
            for (;;) {
              const current = (await store.get(ref))!;
              const n = Number((current.data as { n: string }).n);
              try {
                await store.update({ ...current, data: { n: String(n + 1) } });
                break;
              } catch (err) {
                if (!(err instanceof ConflictError)) throw err;
                assert.ok(err.current, 'a conflict carries the current object');
              }
            }
          }
        };
        await Promise.all(Array.from({ length: 6 }, () => writer(5)));
        const final = (await store.get(ref))!;
        assert.equal((final.data as { n: string }).n, '30');
        assert.equal(final.metadata.generation, 31);
      });
    });

    describe('delete', () => {
      it('removes an object without finalizers and returns it', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web'));
        const result = await store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
        assert.equal(result.removed, true);
        assert.deepEqual(result.object, v1);
        assert.equal(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), undefined);
      });

      it('reports NotFound for a missing object', async () => {
        const store = await backend.newStore();
        await rejectsWith(store.delete({ ...DEPLOY, namespace: 'default', name: 'nope' }), NotFoundError);
      });

      it('marks an object with finalizers and removes it when the last finalizer goes', async () => {
        const store = await backend.newStore();
        const input = deployment('web');
        input.metadata.finalizers = ['karmada.io/binding-controller'];
        await store.create(input);
        const marked = await store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
        assert.equal(marked.removed, false);
        assert.ok(marked.object.metadata.deletionTimestamp);
        assert.equal(marked.object.metadata.generation, 2);
        const stored = (await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }))!;
        assert.deepEqual(stored, marked.object);

        const again = await store.delete({ ...DEPLOY, namespace: 'default', name: 'web' });
        assert.equal(
          again.object.metadata.resourceVersion,
          stored.metadata.resourceVersion,
          'a repeated delete changes nothing',
        );

        await rejectsWith(
          store.update({
            ...stored,
            metadata: { ...stored.metadata, finalizers: ['karmada.io/binding-controller', 'x/new'] },
          }),
          InvalidObjectError,
        );
        await store.update({ ...stored, metadata: { ...stored.metadata, finalizers: [] } });
        assert.equal(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }), undefined);
      });

      it('honours resourceVersion and uid preconditions', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(deployment('web'));
        await store.update({ ...v1, spec: { ...(v1.spec as object), replicas: 2 } });
        const ref = { ...DEPLOY, namespace: 'default', name: 'web' };
        await rejectsWith(
          store.delete(ref, { preconditions: { resourceVersion: v1.metadata.resourceVersion! } }),
          ConflictError,
        );
        await rejectsWith(store.delete(ref, { preconditions: { uid: 'not-the-uid' } }), ConflictError);
        assert.ok(await store.get(ref));
        await store.delete(ref, { preconditions: { uid: v1.metadata.uid! } });
        assert.equal(await store.get(ref), undefined);
      });

      it('does not remove anything on a dry-run delete', async () => {
        const store = await backend.newStore();
        await store.create(deployment('web'));
        const result = await store.delete({ ...DEPLOY, namespace: 'default', name: 'web' }, { dryRun: true });
        assert.equal(result.removed, true);
        assert.ok(await store.get({ ...DEPLOY, namespace: 'default', name: 'web' }));
      });
    });

    describe('payload size', () => {
      it('stores a 1 MiB ConfigMap of configuration text (compressed under the 400 KB item limit)', async () => {
        const store = await backend.newStore();
        const text = realisticConfigText(1024 * 1024);
        await store.create(configMap('big', { 'nginx.conf': text }));
        const back = await store.get({ ...CM, namespace: 'default', name: 'big' });
        assert.deepEqual(back?.data, { 'nginx.conf': text });
      });

      it('refuses an object that does not fit even compressed, with a message that says what to do, storing nothing', async () => {
        const store = await backend.newStore();
        const incompressible = randomBytes(700 * 1024).toString('base64');
        const err = await rejectsWith(store.create(configMap('huge', { blob: incompressible })), TooLargeError);
        assert.equal(err.code, 413);
        assert.match(
          err.message,
          /too large to store: \d+ bytes of JSON compress to \d+ bytes, over the \d+-byte limit/,
        );
        assert.match(err.message, /split the data/);
        assert.equal(await store.get({ ...CM, namespace: 'default', name: 'huge' }), undefined);
      });

      it('refuses an update that would grow past the limit and keeps the stored version', async () => {
        const store = await backend.newStore();
        const v1 = await store.create(configMap('grows', { a: 'small' }));
        await rejectsWith(
          store.update({ ...v1, data: { a: randomBytes(700 * 1024).toString('base64') } }),
          TooLargeError,
        );
        assert.deepEqual(await store.get({ ...CM, namespace: 'default', name: 'grows' }), v1);
      });
    });

    describe('list', () => {
      it('lists one kind across namespaces in namespace/name order, or one namespace', async () => {
        const store = await backend.newStore();
        for (const [ns, name] of [
          ['b', 'x'],
          ['a', 'z'],
          ['a', 'y'],
          ['c', 'w'],
        ] as const) {
          await store.create(deployment(name, { namespace: ns }));
        }
        await store.create(configMap('not-a-deployment', {}, 'a'));
        const all = await store.list({ ...DEPLOY });
        assert.deepEqual(
          all.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`),
          ['a/y', 'a/z', 'b/x', 'c/w'],
        );
        assert.equal(all.continue, undefined);
        assert.match(all.resourceVersion, /^\d+$/);
        const inA = await store.list({ ...DEPLOY, namespace: 'a' });
        assert.deepEqual(
          inA.items.map((i) => i.metadata.name),
          ['y', 'z'],
        );
      });

      it('does not confuse a namespace with another that shares its prefix', async () => {
        const store = await backend.newStore();
        await store.create(deployment('one', { namespace: 'team' }));
        await store.create(deployment('two', { namespace: 'team-b' }));
        await store.create(deployment('three', { namespace: 'team0' }));
        const inTeam = await store.list({ ...DEPLOY, namespace: 'team' });
        assert.deepEqual(
          inTeam.items.map((i) => i.metadata.name),
          ['one'],
        );
        const paged = await listAll(store, { ...DEPLOY, namespace: 'team', limit: 1 });
        assert.deepEqual(paged.names, ['team/one']);
      });

      it('lists a cluster-scoped kind', async () => {
        const store = await backend.newStore();
        await store.create(cluster('member2'));
        await store.create(cluster('member1'));
        const page = await store.list({ group: 'cluster.karmada.io', kind: 'Cluster' });
        assert.deepEqual(
          page.items.map((i) => i.metadata.name),
          ['member1', 'member2'],
        );
      });

      it('filters by label selector, string or structured', async () => {
        const store = await backend.newStore();
        await store.create(deployment('a', { labels: { app: 'web', tier: 'front' } }));
        await store.create(deployment('b', { labels: { app: 'web', tier: 'back' } }));
        await store.create(deployment('c', { labels: { app: 'db' } }));
        const names = async (labelSelector: Parameters<ObjectStore['list']>[0]['labelSelector']) =>
          (await store.list({ ...DEPLOY, labelSelector })).items.map((i) => i.metadata.name);
        assert.deepEqual(await names('app=web'), ['a', 'b']);
        assert.deepEqual(await names('app=web,tier!=back'), ['a']);
        assert.deepEqual(await names('tier'), ['a', 'b']);
        assert.deepEqual(await names('!tier'), ['c']);
        assert.deepEqual(await names('app in (db, cache)'), ['c']);
        assert.deepEqual(await names({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }), [
          'b',
          'c',
        ]);
      });

      it('rejects a malformed label selector as a bad request', async () => {
        const store = await backend.newStore();
        const err = await rejectsWith(store.list({ ...DEPLOY, labelSelector: 'app in (' }), BadRequestError);
        assert.equal(err.code, 400);
        assert.match(err.message, /labelSelector/);
      });

      it('paginates: every object exactly once, in order, pages within the limit', async () => {
        const store = await backend.newStore();
        const expected: string[] = [];
        for (let i = 0; i < 45; i++) {
          const ns = `ns-${i % 3}`;
          const name = `d-${String(i).padStart(2, '0')}`;
          await store.create(deployment(name, { namespace: ns }));
          expected.push(`${ns}/${name}`);
        }
        expected.sort();
        const { names, pages } = await listAll(store, { ...DEPLOY, limit: 7 });
        assert.deepEqual(names, expected);
        assert.ok(pages >= 7, `45 objects in pages of 7 need at least 7 pages, got ${pages}`);
        const inNs1 = await listAll(store, { ...DEPLOY, namespace: 'ns-1', limit: 4 });
        assert.deepEqual(
          inNs1.names,
          expected.filter((n) => n.startsWith('ns-1/')),
        );
      });

      it('paginates with a label selector: pages fill up with matches', async () => {
        const store = await backend.newStore();
        for (let i = 0; i < 30; i++) {
          await store.create(deployment(`d-${String(i).padStart(2, '0')}`, { labels: { even: String(i % 2 === 0) } }));
        }
        const first = await store.list({ ...DEPLOY, labelSelector: 'even=true', limit: 5 });
        assert.equal(first.items.length, 5);
        const { names } = await listAll(store, { ...DEPLOY, labelSelector: 'even=true', limit: 5 });
        assert.equal(names.length, 15);
        assert.ok(names.every((n) => Number(n.slice(-2)) % 2 === 0));
      });

      it('refuses a continue token that is malformed or belongs to another list', async () => {
        const store = await backend.newStore();
        for (let i = 0; i < 3; i++) await store.create(deployment(`d${i}`));
        const page = await store.list({ ...DEPLOY, limit: 1 });
        assert.ok(page.continue);
        await rejectsWith(store.list({ ...DEPLOY, limit: 1, continue: 'garbage!!' }), BadRequestError);
        const err = await rejectsWith(
          store.list({ ...DEPLOY, namespace: 'other', continue: page.continue }),
          BadRequestError,
        );
        assert.match(err.message, /different list/);
        await rejectsWith(store.list({ ...CM, continue: page.continue }), BadRequestError);
        // A hand-made token naming the right list but a position outside its namespace.
        const forged = Buffer.from(JSON.stringify({ v: 1, l: 'Deployment.apps|team|', a: 'zzz/x' })).toString(
          'base64url',
        );
        await rejectsWith(store.list({ ...DEPLOY, namespace: 'team', continue: forged }), BadRequestError);
      });

      it('lists names only (for resync) with the same paging', async () => {
        const store = await backend.newStore();
        for (let i = 0; i < 12; i++)
          await store.create(deployment(`d${String(i).padStart(2, '0')}`, { namespace: `n${i % 2}` }));
        const refs: string[] = [];
        let token: string | undefined;
        do {
          const page = await store.listRefs({ ...DEPLOY, limit: 5, ...(token ? { continue: token } : {}) });
          refs.push(...page.items.map((r) => `${r.group}/${r.kind}/${r.namespace}/${r.name}`));
          token = page.continue;
        } while (token);
        assert.equal(refs.length, 12);
        assert.equal(refs[0], 'apps/Deployment/n0/d00');
      });
    });

    describe('the Works-by-cluster index', () => {
      it('finds the Works of one member cluster, and only those', async () => {
        const store = await backend.newStore();
        for (let i = 0; i < 9; i++) await store.create(work(`member${(i % 3) + 1}`, `w-${i}`));
        await store.create(configMap('not-a-work', {}, 'karmada-es-member1'));
        const { names } = await listAll(store, { ...WORK, cluster: 'member2', limit: 2 });
        assert.deepEqual(names, ['karmada-es-member2/w-1', 'karmada-es-member2/w-4', 'karmada-es-member2/w-7']);
        const none = await store.list({ ...WORK, cluster: 'member9' });
        assert.deepEqual(none.items, []);
      });

      it('drops a Work from the index when it is deleted', async () => {
        const store = await backend.newStore();
        await store.create(work('member1', 'w'));
        await store.delete({ ...WORK, namespace: 'karmada-es-member1', name: 'w' });
        assert.deepEqual((await store.list({ ...WORK, cluster: 'member1' })).items, []);
      });
    });

    describe('dependents (the byOwner index)', () => {
      const owned = (name: string, owners: { uid: string; controller?: boolean }[]) => {
        const cm = configMap(name, {});
        cm.metadata.ownerReferences = owners.map((o, i) => ({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: `owner-${i}`,
          uid: o.uid,
          ...(o.controller ? { controller: true } : {}),
        }));
        return cm;
      };

      it('finds the objects an owner owns, across kinds, paged, and follows owner changes', async () => {
        const store = await backend.newStore();
        for (let i = 0; i < 7; i++) await store.create(owned(`cm-${i}`, [{ uid: 'owner-a' }]));
        const d = deployment('child');
        d.metadata.ownerReferences = [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'owner-b' },
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'y', uid: 'owner-a', controller: true },
        ];
        const child = await store.create(d);
        await store.create(configMap('unowned', {}));
        const seen: string[] = [];
        let token: string | undefined;
        let pages = 0;
        do {
          const page = await store.listDependents('owner-a', { limit: 3, ...(token ? { continue: token } : {}) });
          seen.push(...page.items.map((r) => `${r.kind}/${r.name}`));
          token = page.continue;
          pages++;
        } while (token);
        assert.equal(seen.length, 8);
        assert.ok(seen.includes('Deployment/child'), 'the controller reference wins over the first one');
        assert.ok(pages >= 3);
        assert.deepEqual((await store.listDependents('owner-b')).items, []);

        await store.update({ ...child, metadata: { ...child.metadata, ownerReferences: [] } });
        await store.delete({ ...CM, namespace: 'default', name: 'cm-0' });
        const after = (await store.listDependents('owner-a')).items.map((r) => r.name);
        assert.equal(after.length, 6);
        assert.ok(!after.includes('child') && !after.includes('cm-0'));
      });

      it('refuses a continue token issued for another owner', async () => {
        const store = await backend.newStore();
        for (let i = 0; i < 3; i++) await store.create(owned(`cm-${i}`, [{ uid: 'owner-a' }]));
        const page = await store.listDependents('owner-a', { limit: 1 });
        await rejectsWith(store.listDependents('owner-b', { continue: page.continue! }), BadRequestError);
      });
    });

    describe('expiry (Events)', () => {
      const EVENT = { group: '', kind: 'Event' };
      const event = (name: string) => ({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: 'default' },
        reason: 'Test',
      });
      async function expiringStore() {
        const clock = new VirtualClock(Date.UTC(2026, 0, 1));
        const store = await backend.newStore({
          clock,
          ttlSeconds: (gk) => (gk.kind === 'Event' ? 60 : undefined),
        });
        return { clock, store };
      }

      it('reads an expired object as gone: get, list, update and delete all see nothing', async () => {
        const { clock, store } = await expiringStore();
        const created = await store.create(event('e1'));
        await store.create(configMap('kept', {}));
        await clock.advance(59_000);
        assert.ok(await store.get({ ...EVENT, namespace: 'default', name: 'e1' }), 'alive before its TTL');
        await clock.advance(1_000);
        assert.equal(await store.get({ ...EVENT, namespace: 'default', name: 'e1' }), undefined);
        assert.deepEqual((await store.list(EVENT)).items, []);
        assert.deepEqual((await store.listRefs(EVENT)).items, []);
        await rejectsWith(store.update(created), NotFoundError);
        await rejectsWith(store.delete({ ...EVENT, namespace: 'default', name: 'e1' }), NotFoundError);
        assert.ok(await store.get({ ...CM, namespace: 'default', name: 'kept' }), 'kinds without a TTL never expire');
      });

      it('renews the expiry on every write, and lets a create reuse an expired name', async () => {
        const { clock, store } = await expiringStore();
        const created = await store.create(event('e1'));
        await clock.advance(40_000);
        await store.update({ ...created, reason: 'Again' });
        await clock.advance(40_000);
        assert.equal((await store.get({ ...EVENT, namespace: 'default', name: 'e1' }))?.reason, 'Again');
        await clock.advance(20_000);
        const again = await store.create(event('e1'));
        assert.notEqual(again.metadata.uid, created.metadata.uid, 'a new object, not the expired one');
      });

      it('purges expired rows and only those', async () => {
        const { clock, store } = await expiringStore();
        await store.create(event('old'));
        await clock.advance(30_000);
        await store.create(event('new'));
        await clock.advance(31_000);
        assert.deepEqual(
          (await store.purgeExpired(EVENT)).map((e) => e.metadata.name),
          ['old'],
        );
        assert.deepEqual(await store.purgeExpired(EVENT), []);
        assert.deepEqual(
          (await store.list(EVENT)).items.map((e) => e.metadata.name),
          ['new'],
        );
      });
    });
  });
}
