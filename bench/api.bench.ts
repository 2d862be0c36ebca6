/**
 * The Kubernetes API end to end as kubectl reaches it locally: HTTPS (keep-alive) to the Node
 * server, token authentication, decoding, defaulting, validation, managedFields, the object store on
 * dynalite through the real adapter. What a `kubectl apply` of many manifests pays per object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDynamoClient } from '../lib/adapters/dynamodb/client.ts';
import { ensureTable } from '../lib/adapters/dynamodb/ensure-table.ts';
import { DynamoRowStore } from '../lib/adapters/dynamodb/row-store.ts';
import { createControlPlaneApi, ensureDefaultNamespaces, issueAdminToken } from '../lib/apiserver/server.ts';
import { systemClock } from '../lib/clock/clock.ts';
import { startKubeServer } from '../lib/kube/node-server.ts';
import { ensureLocalPki, tlsServerOptions } from '../lib/pki/index.ts';
import { RowObjectStore } from '../lib/store/row-object-store.ts';
import { deployment } from '../test/support/factories.ts';
import { type Measurement, median, percentile, runConcurrent, throughput } from './harness.ts';

export async function benchApi(
  dynamodbEndpoint: string,
  options: { objects: number; trials: number },
): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const client = createDynamoClient({ region: 'us-east-1', endpoint: dynamodbEndpoint });
  const pki = await ensureLocalPki(join(dir, 'pki'), { now: Date.now() });
  const results: Record<string, number[]> = {};
  const record = (id: string, value: number) => {
    results[id] ??= [];
    results[id].push(value);
  };
  const latencies: number[] = [];
  const n = options.objects;

  for (let trial = 0; trial <= options.trials; trial++) {
    const tableName = `bench-api-${trial}-${Date.now()}`;
    await ensureTable(client, tableName);
    const store = new RowObjectStore(new DynamoRowStore({ client, tableName }), { clock: systemClock });
    await ensureDefaultNamespaces(store);
    const { token } = await issueAdminToken(store, 'bench');
    // Nothing triggers on Deployments yet; a dropping work queue keeps SQS out of this measurement.
    const api = createControlPlaneApi({ store, workQueue: { enqueue: async () => {} }, clock: systemClock });
    const server = await startKubeServer({
      handler: (req) => api.handler.handle(req),
      tls: tlsServerOptions(pki),
      port: 0,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: pki.ca.certPem });
    const call = (
      method: string,
      path: string,
      body?: unknown,
      contentType = 'application/json',
      accept = 'application/json',
    ) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = request(
          new URL(path, server.url),
          {
            method,
            agent,
            headers: {
              authorization: `Bearer ${token}`,
              accept,
              ...(payload ? { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    const check = (r: { status: number; body: string }, expected: number) => {
      if (r.status !== expected) throw new Error(`expected ${expected}, got ${r.status}: ${r.body.slice(0, 300)}`);
    };
    const path = (i: number) => `/apis/apps/v1/namespaces/default/deployments/web-${i}`;
    const warm = trial === 0; // the first pass warms the JIT and connections; discarded

    const count = warm ? Math.min(200, n) : n;
    record(
      'api.create-16',
      await throughput(count, () =>
        runConcurrent(count, 16, async (i) => {
          const started = performance.now();
          check(
            await call(
              'POST',
              '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict',
              deployment(`web-${i}`, { replicas: 3, labels: { app: `web-${i}` } }),
            ),
            201,
          );
          if (!warm) latencies.push(performance.now() - started);
        }),
      ),
    );
    record(
      'api.get-16',
      await throughput(count, () => runConcurrent(count, 16, async (i) => check(await call('GET', path(i)), 200))),
    );
    record(
      'api.smp-16',
      await throughput(count, () =>
        runConcurrent(count, 16, async (i) =>
          check(
            await call(
              'PATCH',
              path(i),
              { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] } } } },
              'application/strategic-merge-patch+json',
            ),
            200,
          ),
        ),
      ),
    );
    record(
      'api.apply-16',
      await throughput(count, () =>
        runConcurrent(count, 16, async (i) =>
          check(
            await call(
              'PATCH',
              `${path(i)}?fieldManager=bench&force=true`,
              {
                apiVersion: 'apps/v1',
                kind: 'Deployment',
                metadata: { name: `web-${i}` },
                spec: { replicas: 5 },
              },
              'application/apply-patch+yaml',
            ),
            200,
          ),
        ),
      ),
    );
    const listStarted = performance.now();
    let token2: string | undefined;
    do {
      const page = await call(
        'GET',
        `/apis/apps/v1/namespaces/default/deployments?limit=500${token2 ? `&continue=${encodeURIComponent(token2)}` : ''}`,
        undefined,
        undefined,
        'application/json;as=Table;v=v1;g=meta.k8s.io',
      );
      check(page, 200);
      token2 = (JSON.parse(page.body) as { metadata?: { continue?: string } }).metadata?.continue;
    } while (token2);
    record('api.list-table', performance.now() - listStarted);

    agent.destroy();
    await server.close();
    if (warm) for (const k of Object.keys(results)) results[k] = [];
  }
  client.destroy();
  rmSync(dir, { recursive: true, force: true });

  const group = `Kubernetes API over HTTPS on dynalite (${n} Deployments per trial, 16 requests in flight)`;
  const m = (id: string, what: string, unit: string, higherIsBetter: boolean, note?: string): Measurement => ({
    id,
    group,
    what,
    unit,
    median: median(results[id]!),
    trials: results[id]!,
    higherIsBetter,
    ...(note ? { note } : {}),
  });
  return [
    m(
      'api.create-16',
      'create (POST, strict field validation)',
      'objects/s',
      true,
      `latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    ),
    m('api.get-16', 'get', 'objects/s', true),
    m('api.smp-16', 'strategic merge patch (kubectl apply of a changed image)', 'patches/s', true),
    m('api.apply-16', 'server-side apply (force)', 'patches/s', true),
    m('api.list-table', `list all ${n} as a Table, pages of 500 (kubectl get)`, 'ms', false),
  ];
}
