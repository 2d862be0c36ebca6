/**
 * The executor against a fake member: apply with the Abort adoption rule, status and events, a
 * member that cannot be reached (status kept, retried with growing backoff), deletion with and
 * without preserveResourcesOnDeletion, drift found by the member sync, and Pull clusters left to
 * their agent. Also the namespace auto-propagation rule.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../lib/api/object.ts';
import { Backoff, createExecutorController } from '../../../lib/controllers/executor.ts';
import { namespaceShouldBeSynced } from '../../../lib/core/work/index.ts';
import type { CredentialCipher } from '../../../lib/crypto/cipher.ts';
import { MemberApiError, type MemberClient, MemberUnreachableError } from '../../../lib/members/client.ts';
import { keyOf, refOf, world } from './placement-harness.ts';

/**
 * A member holding objects by `kind/namespace/name`, counting what it was asked; every write gives the
 * object a new resource version (and a uid when it has none), as an API server does.
 */
function fakeMember() {
  const objects = new Map<string, KubeObject>();
  const calls: string[] = [];
  let down = false;
  let version = 0;
  const stored = (o: KubeObject): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, uid: o.metadata.uid ?? `uid-${o.metadata.name}`, resourceVersion: String(++version) },
  });
  const key = (kind: string, ns: string | undefined, name: string) => `${kind}/${ns ?? ''}/${name}`;
  let refusal: Error | undefined;
  const check = () => {
    if (down) throw new MemberUnreachableError('member: connection refused');
  };
  /** Creates and applies: reachable, but refused with `refusal` while one is set. */
  const checkWrite = () => {
    check();
    if (refusal) throw refusal;
  };
  const client = {
    async getObject(_apiVersion: string, kind: string, ns: string | undefined, name: string) {
      check();
      calls.push(`get ${kind}/${name}`);
      return objects.get(key(kind, ns, name));
    },
    async apply(manifest: KubeObject) {
      checkWrite();
      calls.push(`apply ${manifest.kind}/${manifest.metadata.name}`);
      const object = stored({ ...structuredClone(manifest), status: { ok: true } } as KubeObject);
      objects.set(key(manifest.kind, manifest.metadata.namespace, manifest.metadata.name!), object);
      return object;
    },
    async create(manifest: KubeObject) {
      checkWrite();
      calls.push(`create ${manifest.kind}/${manifest.metadata.name}`);
      const k = key(manifest.kind, manifest.metadata.namespace, manifest.metadata.name!);
      if (objects.has(k)) throw new MemberApiError(409, 'AlreadyExists', `${manifest.metadata.name} already exists`);
      const object = stored({ ...structuredClone(manifest), status: { ok: true } } as KubeObject);
      objects.set(k, object);
      return object;
    },
    async replace(object: KubeObject) {
      check();
      calls.push(`replace ${object.kind}/${object.metadata.name}`);
      const written = stored(object);
      objects.set(key(object.kind, object.metadata.namespace, object.metadata.name!), written);
      return written;
    },
    async deleteObject(_apiVersion: string, kind: string, ns: string | undefined, name: string) {
      check();
      calls.push(`delete ${kind}/${name}`);
      objects.delete(key(kind, ns, name));
    },
    async collectionPath() {
      check();
      return '/api/v1/configmaps';
    },
    async listAll() {
      check();
      calls.push('list');
      return [...objects.values()].filter((o) => o.metadata.labels?.['karmada.io/managed'] === 'true');
    },
  };
  return {
    client: client as unknown as MemberClient,
    objects,
    calls,
    setDown: (v: boolean) => void (down = v),
    /** The member answers creates and applies with this error (none: accepts them again). */
    refuse: (error: Error | undefined) => void (refusal = error),
    put: (o: KubeObject) => objects.set(key(o.kind, o.metadata.namespace, o.metadata.name!), stored(o)),
  };
}

const NO_CIPHER = {} as CredentialCipher;

function cluster(name: string, syncMode = 'Push'): KubeObject {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode },
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'ok' }] },
  };
}

function work(options: { preserve?: boolean; conflict?: string } = {}): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: { name: 'settings-x', namespace: 'karmada-es-m1', finalizers: ['karmada.io/execution-controller'] },
    spec: {
      ...(options.preserve ? { preserveResourcesOnDeletion: true } : {}),
      workload: {
        manifests: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: 'settings',
              namespace: 'default',
              labels: { 'karmada.io/managed': 'true', 'resourcebinding.karmada.io/permanent-id': 'id-1' },
              annotations: { 'work.karmada.io/conflict-resolution': options.conflict ?? 'abort' },
            },
            data: { mode: 'edge' },
          },
        ],
      },
    },
  };
}

/** A store with cluster m1, a fake member behind every cluster, and the executor. */
async function executorWorld(syncMode = 'Push') {
  const w = world();
  await w.seed(cluster('m1', syncMode));
  const member = fakeMember();
  const executor = createExecutorController({
    store: w.store,
    workQueue: w.queue,
    cipher: NO_CIPHER,
    events: w.events,
    memberFor: async () => member.client,
  });
  return { w, member, executor };
}

async function setup(syncMode = 'Push', w0?: KubeObject) {
  const { w, member, executor } = await executorWorld(syncMode);
  const created = await w.store.create(w0 ?? work());
  const run = (key = keyOf(created)) => executor.reconcile({ key, lane: 'priority', reasons: [] }, w.context());
  const read = () =>
    w.store.get({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m1', name: 'settings-x' });
  const applied = async () =>
    (
      (await read())?.status as { conditions?: { type: string; status: string; message: string }[] } | undefined
    )?.conditions?.find((c) => c.type === 'Applied');
  return { w, member, executor, run, read, applied };
}

describe('executor', () => {
  it('applies a Work, records Applied with the manifest status, and SyncSucceed', async () => {
    const { w, member, run, read, applied } = await setup();
    assert.equal(await run(), undefined);
    // A new Work is one member request: the create (the adoption check only when the object exists).
    assert.deepEqual(member.calls, ['create ConfigMap/settings']);
    assert.equal((await applied())?.status, 'True');
    const statuses = ((await read())?.status as { manifestStatuses?: { identifier: { kind: string } }[] })
      .manifestStatuses;
    assert.equal(statuses?.[0]?.identifier.kind, 'ConfigMap');
    assert.ok(w.events.events.some((e) => e.reason === 'SyncSucceed' && /to cluster m1/.test(e.message)));
    // Applied already: a repeated message does not call the member again.
    member.calls.length = 0;
    await run();
    assert.deepEqual(member.calls, []);
  });

  it('a changed Work it applied before is one forced apply; an existing object of Karmada’s is adopted', async () => {
    const { w, member, run, read } = await setup();
    await run();
    const current = (await read())!;
    const spec = structuredClone(current.spec) as { workload: { manifests: KubeObject[] } };
    (spec.workload.manifests[0] as KubeObject & { data: Record<string, string> }).data = { mode: 'core' };
    await w.store.update({ ...current, spec });
    member.calls.length = 0;
    await run();
    assert.deepEqual(member.calls, ['apply ConfigMap/settings']);

    // A Work made again (its status gone) for an object Karmada already manages: create, then adopt.
    const again = (await read())!;
    await w.store.updateStatus({ ...again, status: {} });
    member.calls.length = 0;
    await run();
    assert.deepEqual(member.calls, ['create ConfigMap/settings', 'get ConfigMap/settings', 'apply ConfigMap/settings']);
  });

  it('records one SyncSucceed per binding and batch, on the binding, naming the clusters; WorkDispatching only when dispatching resumes', async () => {
    const { w, member, executor } = await executorWorld();
    await w.seed(cluster('m2'));
    const binding = await w.store.create({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'settings-configmap', namespace: 'default' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' } },
    } as KubeObject);
    const keys: string[] = [];
    for (const c of ['m1', 'm2']) {
      const wk = work();
      wk.metadata.namespace = `karmada-es-${c}`;
      wk.metadata.annotations = {
        'resourcebinding.karmada.io/namespace': 'default',
        'resourcebinding.karmada.io/name': 'settings-configmap',
      };
      keys.push(keyOf(await w.store.create(wk)));
    }
    const runBatch = async () => {
      const batch = await executor.openBatch!({ logger: w.context().logger, now: Date.now(), keys });
      for (const key of keys) await executor.reconcile({ key, lane: 'priority', reasons: [] }, w.context(batch));
      await batch.close!();
    };
    await runBatch();
    const onBinding = () =>
      w.events.events.filter((e) => e.involved.uid === binding.metadata.uid).map((e) => `${e.reason}: ${e.message}`);
    // A first dispatch: SyncSucceed names the clusters, which is what WorkDispatching would say too.
    assert.deepEqual(onBinding(), ['SyncSucceed: Successfully applied resource(default/settings) to clusters m1, m2']);
    assert.equal(w.events.events.length, 1, 'nothing recorded per Work');

    // m2's dispatching is suspended, then resumed: the binding says it resumed there.
    const m2 = { group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m2', name: work().metadata.name! };
    const setSuspended = async (suspend: boolean) => {
      const current = (await w.store.get(m2))!;
      await w.store.update({
        ...current,
        spec: { ...(current.spec as object), suspendDispatching: suspend },
      } as KubeObject);
    };
    await setSuspended(true);
    await runBatch();
    await setSuspended(false);
    w.events.events.length = 0;
    await runBatch();
    assert.deepEqual(onBinding(), [
      'WorkDispatching: Work is being dispatched to member clusters. Clusters: m2.',
      'SyncSucceed: Successfully applied resource(default/settings) to cluster m2',
    ]);

    // Suspended and resumed again, and the member refuses the first apply: the binding still says
    // dispatching resumed (Karmada records it as the condition turns), the refusal is on the Work, and
    // the retry that applies it says SyncSucceed only.
    await setSuspended(true);
    await runBatch();
    await setSuspended(false);
    member.refuse(new MemberApiError(422, 'Invalid', 'admission webhook denied the request'));
    w.events.events.length = 0;
    await runBatch();
    assert.deepEqual(onBinding(), ['WorkDispatching: Work is being dispatched to member clusters. Clusters: m2.']);
    assert.ok(w.events.events.some((e) => e.reason === 'SyncFailed' && e.involved.namespace === 'karmada-es-m2'));
    member.refuse(undefined);
    w.events.events.length = 0;
    await runBatch();
    assert.deepEqual(onBinding(), ['SyncSucceed: Successfully applied resource(default/settings) to cluster m2']);
  });

  it('refuses to adopt an object Karmada does not manage under Abort, and says so in Applied', async () => {
    const { w, member, run, applied } = await setup();
    member.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'default' },
      data: { mode: 'mine' },
    });
    const result = await run();
    assert.ok(result?.requeueAfterMs);
    assert.ok(!member.calls.some((c) => c.startsWith('apply')), 'nothing applied');
    const cond = await applied();
    assert.equal(cond?.status, 'False');
    assert.match(cond?.message ?? '', /already exists in the cluster m1/);
    assert.ok(w.events.events.some((e) => e.reason === 'SyncFailed'));
  });

  it('adopts it with conflictResolution Overwrite', async () => {
    const { member, run, applied } = await setup('Push', work({ conflict: 'overwrite' }));
    member.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' } });
    await run();
    assert.equal((await applied())?.status, 'True');
  });

  it('keeps the known status when the member cannot be reached, retrying with a growing backoff', async () => {
    const { member, run, read } = await setup();
    member.setDown(true);
    const first = await run();
    const second = await run();
    assert.equal(first?.requeueAfterMs, 2_000);
    assert.equal(second?.requeueAfterMs, 4_000);
    assert.equal((await read())?.status, undefined, 'nothing written');
    member.setDown(false);
    assert.equal(await run(), undefined);
  });

  it('a cluster not Ready: nothing tried and no retry per Work; the member sync after it is Ready applies and removes', async () => {
    const { w, member, run, read, applied: isApplied } = await setup();
    await run();
    const other = work();
    other.metadata.name = 'other-x';
    (other.spec as { workload: { manifests: KubeObject[] } }).workload.manifests[0]!.metadata.name = 'other';
    const kept = await w.store.create(other);
    await run(keyOf(kept));
    const ref = { group: 'cluster.karmada.io', kind: 'Cluster', name: 'm1' };
    const setReady = async (status: 'True' | 'False') => {
      const c = (await w.store.get(ref))!;
      const ready = {
        type: 'Ready',
        status,
        reason: status === 'True' ? 'ClusterReady' : 'ClusterNotReady',
        message: '-',
      };
      await w.store.updateStatus({ ...c, status: { conditions: [ready] } });
    };
    await setReady('False');
    // A changed Work and a deleted one, while the member is down.
    const current = (await read())!;
    const spec = structuredClone(current.spec) as { workload: { manifests: KubeObject[] } };
    (spec.workload.manifests[0] as KubeObject & { data: Record<string, string> }).data = { mode: 'core' };
    await w.store.update({ ...current, spec });
    await w.store.delete(refOf(kept));
    member.calls.length = 0;
    assert.equal(await run(), undefined, 'no retry message for the changed Work');
    assert.equal(await run(keyOf(kept)), undefined, 'nor for the deleted one');
    assert.deepEqual(member.calls, [], 'the member is not called');
    assert.ok(await w.store.get(refOf(kept)), 'the deleted Work waits with its finalizer');

    await setReady('True');
    await run('Cluster.cluster.karmada.io/m1');
    assert.equal(await w.store.get(refOf(kept)), undefined, 'its copy removed, the Work let go');
    const calls: string[] = [...member.calls];
    const [deleted, applied] = [calls.indexOf('delete ConfigMap/other'), calls.indexOf('apply ConfigMap/settings')];
    assert.ok(deleted >= 0 && applied > deleted, `the deleted copy goes first, then the changed Work: ${calls}`);
    assert.equal((await isApplied())?.status, 'True');
  });

  it('a Work the member refused keeps its own retry through a NotReady spell (the member sync leaves it alone) and is applied after', async () => {
    const { w, member, run, applied } = await setup();
    member.refuse(new MemberApiError(503, 'ServiceUnavailable', 'the member is restarting'));
    assert.ok((await run())?.requeueAfterMs, 'refused: retried');
    assert.equal((await applied())?.status, 'False');
    member.refuse(undefined);
    const ref = { group: 'cluster.karmada.io', kind: 'Cluster', name: 'm1' };
    const setReady = async (status: 'True' | 'False') => {
      const c = (await w.store.get(ref))!;
      await w.store.updateStatus({
        ...c,
        status: { conditions: [{ type: 'Ready', status, reason: '-', message: '-' }] },
      });
    };
    // The member restarts: the probe marks it NotReady before the retry lands.
    await setReady('False');
    assert.ok((await run())?.requeueAfterMs, 'the retry is kept while NotReady');
    await setReady('True');
    await run('Cluster.cluster.karmada.io/m1');
    assert.equal((await applied())?.status, 'False', 'the member sync leaves a refused Work to its retry');
    assert.equal(await run(), undefined);
    assert.equal((await applied())?.status, 'True', 'and the retry applies it');
  });

  it('deletes the member object of a deleted Work, then lets the Work go', async () => {
    const { w, member, run, read } = await setup();
    await run();
    await w.store.delete({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m1', name: 'settings-x' });
    await run();
    assert.equal(member.objects.size, 0);
    assert.equal(await read(), undefined);
  });

  it('a copy deleted while its member was away is removed when it is back, and says so on the binding and the template (StaleCopyRemoved)', async () => {
    const stale = work();
    stale.metadata.annotations = {
      'resourcebinding.karmada.io/namespace': 'default',
      'resourcebinding.karmada.io/name': 'settings-configmap',
    };
    const { w, run, read } = await setup('Push', stale);
    await w.seed({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'settings-configmap', namespace: 'default' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings', uid: 'u-1' } },
    });
    await run();
    await w.store.delete({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m1', name: 'settings-x' });
    // The member was away when its copy was deleted, and is Ready again since.
    await w.clock.advance(60_000);
    const m1 = (await w.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'm1' }))!;
    await w.store.updateStatus({
      ...m1,
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ClusterReady',
            lastTransitionTime: new Date(w.clock.now()).toISOString(),
          },
        ],
      },
    });
    await run();
    assert.equal(await read(), undefined);
    assert.deepEqual(
      w.events.events.filter((e) => e.reason === 'StaleCopyRemoved').map((e) => [e.involved.kind, e.involved.name]),
      [
        ['ResourceBinding', 'settings-configmap'],
        ['ConfigMap', 'settings'],
      ],
    );
  });

  it('with preserveResourcesOnDeletion keeps the member object without Karmada’s labels', async () => {
    const { w, member, run, read } = await setup('Push', work({ preserve: true }));
    await run();
    await w.store.delete({ group: 'work.karmada.io', kind: 'Work', namespace: 'karmada-es-m1', name: 'settings-x' });
    await run();
    const kept = [...member.objects.values()][0];
    assert.ok(kept, 'still on the member');
    assert.equal(kept.metadata.labels?.['karmada.io/managed'], undefined);
    assert.equal(kept.metadata.labels?.['resourcebinding.karmada.io/permanent-id'], undefined);
    assert.equal(await read(), undefined);
  });

  it('the member sync leaves a Work created moments ago to its own message, and applies it past the grace', async () => {
    const { w, member, run, applied } = await setup();
    await run('Cluster.cluster.karmada.io/m1');
    assert.deepEqual(member.calls, ['list'], 'a new Work is its message’s to apply (no racing create)');
    await w.clock.advance(31_000);
    await run('Cluster.cluster.karmada.io/m1');
    assert.ok(member.calls.includes('create ConfigMap/settings'), 'its message was lost: the sync applies it');
    assert.equal((await applied())?.status, 'True');
  });

  it('the member sync re-applies an object edited on the member', async () => {
    const { member, run } = await setup();
    await run();
    const live = [...member.objects.values()][0]!;
    member.put({ ...live, data: { mode: 'tampered' } } as KubeObject);
    member.calls.length = 0;
    await run('Cluster.cluster.karmada.io/m1');
    assert.ok(member.calls.includes('apply ConfigMap/settings'));
    assert.equal(([...member.objects.values()][0] as KubeObject & { data: { mode: string } }).data.mode, 'edge');
  });

  describe('a member sync after one that had nothing to do', () => {
    /**
     * A Work applied on a cluster Ready for an hour and a first sync that found it settled; reads of
     * Works counted from then on.
     */
    async function settledWorld() {
      const s = await setup();
      await readySince(s.w, s.w.clock.now() - 3_600_000);
      await s.run();
      await s.run('Cluster.cluster.karmada.io/m1');
      const reads = { lists: 0, gets: 0 };
      const { list, get } = s.w.store;
      s.w.store.list = (q) => (reads.lists++, list.call(s.w.store, q));
      s.w.store.get = (r) => (r.kind === 'Work' && reads.gets++, get.call(s.w.store, r));
      s.member.calls.length = 0;
      return { ...s, reads, sync: () => s.run('Cluster.cluster.karmada.io/m1') };
    }

    /** Sets when cluster m1 last became Ready. */
    async function readySince(w: Awaited<ReturnType<typeof setup>>['w'], at: number) {
      const current = (await w.store.get({ group: 'cluster.karmada.io', kind: 'Cluster', name: 'm1' }))!;
      const ready = { type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'ok' };
      await w.store.updateStatus({
        ...current,
        status: { conditions: [{ ...ready, lastTransitionTime: new Date(at).toISOString() }] },
      });
    }

    it('reads no Work when neither the Works nor the member objects changed (one list of the member)', async () => {
      const { member, reads, sync, executor } = await settledWorld();
      await sync();
      await sync();
      assert.deepEqual(reads, { lists: 0, gets: 0 }, 'only names and versions of the Works were read');
      assert.deepEqual(member.calls, ['list', 'list'], 'the member is still listed at every sync');
      assert.equal(executor.stats.syncsUnchanged, 2);
    });

    it('another execution environment (a new executor on the same table) reads no Work either', async () => {
      const { w, member, reads } = await settledWorld();
      const other = createExecutorController({
        store: w.store,
        workQueue: w.queue,
        cipher: NO_CIPHER,
        events: w.events,
        memberFor: async () => member.client,
      });
      await other.reconcile({ key: 'Cluster.cluster.karmada.io/m1', lane: 'standard', reasons: [] }, w.context());
      assert.deepEqual(reads, { lists: 0, gets: 0 });
      assert.equal(other.stats.syncsUnchanged, 1);
    });

    it('still re-applies an object edited on the member (its resource version moved)', async () => {
      const { member, reads, sync } = await settledWorld();
      const live = [...member.objects.values()][0]!;
      member.put({ ...live, data: { mode: 'tampered' } } as KubeObject);
      await sync();
      assert.equal(reads.lists, 1, 'the Works were read again');
      assert.ok(member.calls.includes('apply ConfigMap/settings'));
      assert.equal(([...member.objects.values()][0] as KubeObject & { data: { mode: string } }).data.mode, 'edge');
    });

    it('still re-creates an object deleted on the member', async () => {
      const { member, sync } = await settledWorld();
      member.objects.clear();
      await sync();
      assert.ok(
        member.calls.some((c) => c.endsWith('ConfigMap/settings') && !c.startsWith('get')),
        member.calls.join(),
      );
      assert.equal(member.objects.size, 1);
    });

    /** Changes the Work's manifest behind its message's back (the message is lost). */
    async function changeWork(s: Awaited<ReturnType<typeof settledWorld>>) {
      const current = (await s.read())!;
      const spec = structuredClone(current.spec) as { workload: { manifests: { data: { mode: string } }[] } };
      spec.workload.manifests[0]!.data.mode = 'core';
      await s.w.store.update({ ...current, spec });
    }
    const memberMode = (member: ReturnType<typeof fakeMember>) =>
      ([...member.objects.values()][0] as KubeObject & { data: { mode: string } }).data.mode;

    it('reads the Works again when one changed, and applies what its lost message did not', async () => {
      const s = await settledWorld();
      await changeWork(s);
      await s.sync();
      assert.equal(s.reads.lists, 1);
      assert.ok(s.member.calls.includes('apply ConfigMap/settings'));
      assert.equal(memberMode(s.member), 'core');
    });

    it('a member that lists objects without resource versions is read in full every time', async () => {
      const { member, reads, sync, executor } = await settledWorld();
      const live = [...member.objects.values()][0]!;
      member.objects.set([...member.objects.keys()][0]!, {
        ...live,
        metadata: { ...live.metadata, resourceVersion: undefined },
      } as KubeObject);
      await sync();
      await sync();
      assert.equal(reads.lists, 2);
      assert.equal(executor.stats.syncsUnchanged, 0);
    });
  });

  it('leaves Works of Pull clusters to their agent', async () => {
    const { member, run } = await setup('Pull');
    await run();
    assert.deepEqual(member.calls, []);
  });

  it('backs off 2 s, doubling, up to 5 min', () => {
    const b = new Backoff();
    const delays = Array.from({ length: 10 }, () => b.next('k'));
    assert.deepEqual(delays, [2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000]);
    b.reset('k');
    assert.equal(b.next('k'), 2_000);
  });
});

describe('namespace auto-propagation rule', () => {
  const rows: [string, Record<string, string> | undefined, boolean][] = [
    ['team-a', undefined, true],
    ['default', undefined, false],
    ['kube-system', undefined, false],
    ['kube-public', undefined, false],
    ['karmada-system', undefined, false],
    ['karmada-cluster', undefined, false],
    ['karmada-es-member1', undefined, false],
    ['private', { 'namespace.karmada.io/skip-auto-propagation': 'true' }, false],
    ['private', { 'namespace.karmada.io/skip-auto-propagation': 'false' }, true],
  ];
  for (const [name, labels, want] of rows) {
    it(`${name}${labels ? ` ${JSON.stringify(labels)}` : ''} → ${want ? 'every member' : 'control plane only'}`, () => {
      assert.equal(
        namespaceShouldBeSynced({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name, ...(labels ? { labels } : {}) },
        }),
        want,
      );
    });
  }
});
