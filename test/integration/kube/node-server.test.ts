/**
 * The HTTPS front of the API and of the member simulator under hostile requests sent as raw bytes
 * (what Node's HTTP parser and `new URL` used to see first): the process never exits, every answer
 * is a Kubernetes `Status` — including the ones Node's parser gives before any handler runs — and a
 * refused request changes nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { systemClock } from '../../../lib/clock/clock.ts';
import { type RunningKubeServer, startKubeServer } from '../../../lib/kube/node-server.ts';
import { ensureLocalPki, type LocalPki, tlsServerOptions } from '../../../lib/pki/index.ts';
import { parseSimulation } from '../../../lib/sim/config.ts';
import { SimulatedMember } from '../../../lib/sim/member.ts';
import { apiHarness } from '../../support/api.ts';
import { configMap } from '../../support/factories.ts';

let dir: string;
let pki: LocalPki;
let server: RunningKubeServer;
let h: Awaited<ReturnType<typeof apiHarness>>;
let member: SimulatedMember;

interface RawAnswer {
  status: number;
  headers: string;
  json: { kind?: string; code?: number; message?: string; reason?: string } | undefined;
}

/** Sends bytes over TLS and reads one HTTP answer until the server closes (Connection: close). */
function raw(port: number, head: Buffer | string, body?: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
      socket.write(head);
      if (body) socket.write(body);
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (!m) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const split = text.indexOf('\r\n\r\n');
      let json: RawAnswer['json'];
      try {
        json = JSON.parse(text.slice(split + 4));
      } catch {
        json = undefined;
      }
      resolve({ status: Number(m[1]), headers: text.slice(0, split), json });
    });
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
}

const request = (method: string, target: string, headers: string[] = []) =>
  `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers.map((x) => `${x}\r\n`).join('')}\r\n`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'node-server-test-'));
  pki = await ensureLocalPki(join(dir, 'pki'), { now: Date.now() });
  h = await apiHarness();
  await h.store.create(configMap('keep', { a: '1' }));
  server = await startKubeServer({ handler: (req) => h.api.handler.handle(req), tls: tlsServerOptions(pki) });
  const sim = parseSimulation({
    members: [{ name: 'm0', region: 'us-east-1', zones: ['us-east-1a'], nodes: 1 }],
  });
  member = await SimulatedMember.start({
    config: sim.members[0]!,
    timings: { podStartupMs: sim.podStartupMs, jobDurationMs: sim.jobDurationMs },
    clock: systemClock,
    tls: tlsServerOptions(pki),
    caCertPem: pki.ca.certPem,
    port: 0,
    kubeconfigPath: join(dir, 'm0.kubeconfig'),
  });
  await member.store.create(configMap('keep', { a: '1' }));
});

after(async () => {
  await server.close();
  await member.stop();
  rmSync(dir, { recursive: true, force: true });
});

function assertStatus(answer: RawAnswer, code: number, message: RegExp): void {
  assert.equal(answer.status, code, answer.headers);
  assert.equal(answer.json?.kind, 'Status', answer.headers);
  assert.equal(answer.json?.code, code);
  assert.match(answer.json?.message ?? '', message);
}

describe('the API server under raw hostile requests', () => {
  it('GET /// without credentials answers 404 and the server keeps serving', async () => {
    assertStatus(await raw(server.port, request('GET', '///')), 404, /empty segment/);
    assertStatus(await raw(server.port, request('GET', '//')), 404, /empty segment/);
    const health = await raw(server.port, request('GET', '/healthz'));
    assert.equal(health.status, 200);
  });

  it('DELETE …/configmaps/keep/.. is refused and deletes nothing', async () => {
    const answer = await raw(
      server.port,
      request('DELETE', '/api/v1/namespaces/default/configmaps/keep/..', [`Authorization: Bearer ${h.admin.token}`]),
    );
    assertStatus(answer, 400, /'\.\.' segment/);
    assert.ok(await h.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'keep' }));
  });

  it('raw non-UTF-8 bytes in the path get a 400 Status from the parser', async () => {
    const head = Buffer.concat([
      Buffer.from('GET /api/v1/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    ]);
    assertStatus(await raw(server.port, head), 400, /could not be parsed/);
  });

  it('a 20,000-character path gets a 431 Status', async () => {
    assertStatus(await raw(server.port, request('GET', `/${'a'.repeat(20_000)}`)), 431, /larger than 16 KiB/);
  });

  it('a malformed request line gets a 400 Status', async () => {
    assertStatus(await raw(server.port, 'NOT-HTTP\r\n\r\n'), 400, /could not be parsed/);
  });

  for (const framing of ['Content-Length', 'chunked'] as const) {
    it(`a 4 MB body (${framing}) gets a 413 Status the client can read, and nothing is stored`, async () => {
      const big = Buffer.alloc(4 * 1024 * 1024, 0x61);
      const headers = [
        `Authorization: Bearer ${h.admin.token}`,
        'Content-Type: application/json',
        framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${big.length}`,
      ];
      const body =
        framing === 'chunked'
          ? Buffer.concat([Buffer.from(`${big.length.toString(16)}\r\n`), big, Buffer.from('\r\n0\r\n\r\n')])
          : big;
      const answer = await raw(server.port, request('POST', '/api/v1/namespaces/default/configmaps', headers), body);
      assertStatus(answer, 413, /the limit is 3145728 bytes/);
      assert.equal((await h.store.list({ group: '', kind: 'ConfigMap' })).items.length, 1);
    });
  }
});

describe('the member simulator under raw hostile requests', () => {
  it('GET /// answers 404 and the member keeps serving', async () => {
    const port = Number(new URL(member.url).port);
    assertStatus(await raw(port, request('GET', '///')), 404, /empty segment/);
    assert.equal((await raw(port, request('GET', '/readyz'))).status, 200);
  });

  it('DELETE …/configmaps/keep/.. is refused and deletes nothing on the member', async () => {
    const port = Number(new URL(member.url).port);
    const answer = await raw(
      port,
      request('DELETE', '/api/v1/namespaces/default/configmaps/keep/..', [`Authorization: Bearer ${member.token}`]),
    );
    assertStatus(answer, 400, /'\.\.' segment/);
    assert.ok(await member.store.get({ group: '', kind: 'ConfigMap', namespace: 'default', name: 'keep' }));
  });

  it('a 4 MB body gets a 413 Status', async () => {
    const port = Number(new URL(member.url).port);
    const big = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const answer = await raw(
      port,
      request('POST', '/api/v1/namespaces/default/configmaps', [
        `Authorization: Bearer ${member.token}`,
        `Content-Length: ${big.length}`,
      ]),
      big,
    );
    assertStatus(answer, 413, /the limit is/);
  });
});
