/**
 * Simulated members in their worker thread, driven through their handles: the member serves HTTPS
 * from the thread, its store answers with the store's own error classes, faults and unhealthy marks
 * are answered at once by the handle and reach the member, the snapshot is written on stop, a port in
 * use fails the start, and a thread that dies is reported, never waited on; its log lines are
 * written where the main thread writes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureLocalPki, type LocalPki, tlsServerOptions } from '../../../lib/pki/index.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import { parseSimulation } from '../../../lib/sim/config.ts';
import { MemberThread, MemberThreadCrashedError } from '../../../lib/sim/member-thread.ts';
import type { WorkerMemberOptions } from '../../../lib/sim/member-wire.ts';
import { AlreadyExistsError, ConflictError, NotFoundError } from '../../../lib/store/errors.ts';
import { configMap, deployment } from '../../support/factories.ts';
import { eventually } from '../../support/eventually.ts';

let dir = '';
let pki: LocalPki;
const lines: string[] = [];
const threads: MemberThread[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-thread-test-'));
  pki = await ensureLocalPki(join(dir, 'pki'), { now: Date.now() });
});
after(async () => {
  for (const t of threads) await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function spawn(entry?: URL): MemberThread {
  const write = (line: string) => void lines.push(line);
  const thread = MemberThread.spawn({
    logFormat: 'text',
    logLevel: 'INFO',
    logWrite: write,
    logger: createLogger({ format: 'text', level: 'INFO', service: 'test', write }),
    ...(entry ? { entry } : {}),
  });
  threads.push(thread);
  return thread;
}

function memberOptions(name: string, overrides: Partial<WorkerMemberOptions> = {}): WorkerMemberOptions {
  const sim = parseSimulation({
    members: [{ name, region: 'us-east-1', zones: ['us-east-1a'], nodes: 2 }],
    podStartupMs: 30,
    jobDurationMs: 60,
  });
  return {
    config: sim.members[0]!,
    timings: { podStartupMs: sim.podStartupMs, jobDurationMs: sim.jobDurationMs },
    tls: tlsServerOptions(pki),
    caCertPem: pki.ca.certPem,
    port: 0,
    kubeconfigPath: join(dir, `${name}.kubeconfig`),
    ...overrides,
  };
}

function readyz(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(new URL('/readyz', url), { ca: pki.ca.certPem, timeout: 3000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

const CM = { group: '', kind: 'ConfigMap', namespace: 'default', name: 'web' };
const DEPLOY = { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'web' };

describe('simulated members in a worker thread', () => {
  it('serve their API over HTTPS from the thread, with the address, token and kubeconfig of their start', async () => {
    const m = await spawn().start(memberOptions('t1'));
    assert.match(m.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(m.kubeconfig, join(dir, 't1.kubeconfig'));
    assert.ok(m.token.length > 20);
    assert.equal(await readyz(m.url), 200);
    const nodes = await m.store.list({ group: '', kind: 'Node' });
    assert.deepEqual(
      nodes.items.map((n) => n.metadata.name),
      ['t1-node-1', 't1-node-2'],
    );
  });

  it('answer store calls with the store’s own error classes', async () => {
    const m = await spawn().start(memberOptions('t2'));
    const created = await m.store.create(configMap('web', { a: '1' }));
    await assert.rejects(m.store.create(configMap('web', { a: '2' })), (err: unknown) => {
      assert.ok(err instanceof AlreadyExistsError);
      assert.equal(err.current?.metadata.uid, created.metadata.uid);
      return true;
    });
    const updated = await m.store.update({ ...created, data: { a: '2' } });
    await assert.rejects(m.store.update({ ...created, data: { a: '3' } }), (err: unknown) => {
      assert.ok(err instanceof ConflictError);
      assert.equal(err.current?.metadata.resourceVersion, updated.metadata.resourceVersion);
      return true;
    });
    assert.equal((await m.store.delete(CM)).removed, true);
    assert.equal(await m.store.get(CM), undefined);
    await assert.rejects(m.store.delete(CM), NotFoundError);
  });

  it('take faults and unhealthy marks from the handle, which answers for them at once', async () => {
    const m = await spawn().start(memberOptions('t3'));
    m.setFault({ mode: 'not-ready' });
    assert.deepEqual(m.fault, { mode: 'not-ready' });
    // Requests to the thread start in order: once this read is answered, the fault is set.
    await m.store.get(CM);
    assert.equal(await readyz(m.url), 500);
    m.recover();
    assert.equal(m.fault, undefined);
    await m.store.get(CM);
    assert.equal(await readyz(m.url), 200);

    assert.equal(m.markUnhealthy(DEPLOY), true);
    assert.equal(m.markUnhealthy(DEPLOY), false, 'already marked');
    assert.deepEqual(m.unhealthyWorkloads, [DEPLOY]);
    await m.store.create(deployment('web'));
    await eventually('the pod crash-looping', async () => {
      const pods = await m.store.list({ group: '', kind: 'Pod', namespace: 'default' });
      const pod = pods.items[0]?.status as { containerStatuses?: { state?: { waiting?: { reason?: string } } }[] };
      return pod?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff';
    });
    assert.equal(m.markHealthy(DEPLOY), true);
    assert.deepEqual(m.unhealthyWorkloads, []);
    const resolved = await m.resolveWorkload('deploy/web', 'team-a');
    assert.deepEqual(resolved, { code: 'Resolved', ref: { ...DEPLOY, namespace: 'team-a' } });
    assert.equal((await m.resolveWorkload('gizmo/web')).code, 'UnknownKind');
  });

  it('write their snapshot on stop, which the next start in a thread restores', async () => {
    const snapshotPath = join(dir, 't4.state.json');
    const first = spawn();
    const m = await first.start(memberOptions('t4', { snapshotPath }));
    await m.store.create(configMap('kept', { a: '1' }));
    m.markUnhealthy(DEPLOY);
    await first.close();

    const again = await spawn().start(memberOptions('t4', { snapshotPath }));
    assert.equal(again.token, m.token);
    assert.deepEqual(again.unhealthyWorkloads, [DEPLOY]);
    assert.ok(await again.store.get({ ...CM, name: 'kept' }));
  });

  it('fail their start as the member does when the port is taken', async () => {
    const thread = spawn();
    const taken = await thread.start(memberOptions('t5'));
    const port = Number(new URL(taken.url).port);
    await assert.rejects(thread.start(memberOptions('t6', { port })), (err: NodeJS.ErrnoException) => {
      assert.equal(err.code, 'EADDRINUSE');
      return true;
    });
  });

  const crashes: [string, string, RegExp][] = [
    ['an uncaught error', 't8', /crashed: a member failed outside any request/],
    ['an exit of its own', 'exits', /crashed: it exited with code 3/],
  ];
  for (const [what, name, message] of crashes) {
    it(`report a thread that dies of ${what}: calls fail with the reason, and it is logged`, async () => {
      lines.length = 0;
      const thread = spawn(new URL('../../fixtures/sim/failing-member-worker.mjs', import.meta.url));
      await assert.rejects(thread.start(memberOptions(name)), (err: unknown) => {
        assert.ok(err instanceof MemberThreadCrashedError);
        assert.match(err.message, message);
        return true;
      });
      assert.match((await thread.crashed).message, message);
      assert.ok(lines.some((l) => /ERROR .*worker thread crashed/.test(l)));
      if (name === 't8') assert.ok(lines.includes('a line from t8'), 'the thread’s own lines are written too');
      await assert.rejects(thread.start(memberOptions(`${name}-again`)), MemberThreadCrashedError);
      await thread.close();
    });
  }
});
