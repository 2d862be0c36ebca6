/**
 * Object store throughput on a DynamoDB-compatible engine, through the real adapter and the object
 * layer (encoding, conditional writes): what every controller pays per object.
 */
import { randomUUID } from 'node:crypto';
import { createDynamoClient } from '../lib/adapters/dynamodb/client.ts';
import { ensureTable } from '../lib/adapters/dynamodb/ensure-table.ts';
import { DynamoRowStore } from '../lib/adapters/dynamodb/row-store.ts';
import type { KubeObject } from '../lib/api/object.ts';
import { systemClock } from '../lib/clock/clock.ts';
import { decodeBody, encodeBody } from '../lib/store/codec.ts';
import { RowObjectStore } from '../lib/store/row-object-store.ts';
import { deployment } from '../test/support/factories.ts';
import { type Measurement, median, runConcurrent, throughput } from './harness.ts';

const DEPLOY = { group: 'apps', kind: 'Deployment' };

/** A Deployment as `kubectl apply` stores it (with its last-applied-configuration annotation). */
function realisticDeployment(i: number): KubeObject {
  const d = deployment(`web-${i}`, {
    namespace: `team-${i % 10}`,
    labels: { app: `web-${i}`, tier: 'frontend' },
    replicas: 3,
  });
  d.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(d) };
  return d;
}

export async function benchStore(
  engine: string,
  endpoint: string,
  options: { objects: number; trials: number },
): Promise<Measurement[]> {
  const client = createDynamoClient({ region: 'us-east-1', endpoint });
  const n = options.objects;
  const results: Record<string, number[]> = {};
  const record = (id: string, value: number) => {
    results[id] ??= [];
    results[id].push(value);
  };
  // Warm-up, discarded: the first few hundred requests pay for JIT compilation and connection set-up.
  const warmTable = `bench-warmup-${randomUUID()}`;
  await ensureTable(client, warmTable);
  const warm = new RowObjectStore(new DynamoRowStore({ client, tableName: warmTable }), {
    clock: systemClock,
  });
  await runConcurrent(200, 16, async (i) => {
    await warm.create(realisticDeployment(i));
    await warm.get({ ...DEPLOY, namespace: `team-${i % 10}`, name: `web-${i}` });
  });
  await warm.list({ ...DEPLOY });

  for (let t = 0; t < options.trials; t++) {
    const tableName = `bench-${randomUUID()}`;
    await ensureTable(client, tableName);
    const store = new RowObjectStore(new DynamoRowStore({ client, tableName }), { clock: systemClock });
    const half = Math.floor(n / 2);
    record(
      'put-seq',
      await throughput(half, () => runConcurrent(half, 1, (i) => store.create(realisticDeployment(i)))),
    );
    record(
      'put-16',
      await throughput(n - half, () => runConcurrent(n - half, 16, (i) => store.create(realisticDeployment(half + i)))),
    );
    const ref = (i: number) => ({ ...DEPLOY, namespace: `team-${i % 10}`, name: `web-${i}` });
    record('get-seq', await throughput(half, () => runConcurrent(half, 1, (i) => store.get(ref(i)))));
    record('get-16', await throughput(n, () => runConcurrent(n, 16, (i) => store.get(ref(i)))));
    record(
      'update-16',
      await throughput(n, () =>
        runConcurrent(n, 16, async (i) => {
          const current = (await store.get(ref(i)))!;
          await store.update({ ...current, spec: { ...(current.spec as object), replicas: 4 } });
        }),
      ),
    );
    record(
      'list',
      await throughput(n, async () => {
        let token: string | undefined;
        do {
          const page = await store.list({ ...DEPLOY, limit: 500, ...(token ? { continue: token } : {}) });
          token = page.continue;
        } while (token);
      }),
    );
  }
  client.destroy();
  const what: Record<string, [string, string]> = {
    'put-seq': ['create, one at a time', 'objects/s'],
    'put-16': ['create, 16 in flight', 'objects/s'],
    'get-seq': ['get (consistent), one at a time', 'objects/s'],
    'get-16': ['get (consistent), 16 in flight', 'objects/s'],
    'update-16': ['read-modify-write update, 16 in flight', 'updates/s'],
    list: ['list all, pages of 500 (8 index shards merged)', 'objects/s'],
  };
  return Object.entries(results).map(([id, trials]) => ({
    id: `store.${engine}.${id}`,
    group: `Object store on ${engine} (${n} Deployments of ${encodeBody(realisticDeployment(1)).jsonBytes} B JSON per trial)`,
    what: what[id]![0],
    unit: what[id]![1],
    median: median(trials),
    trials,
    higherIsBetter: true,
  }));
}

/** Encoding cost of one object (pure CPU): what a write and a read pay on top of the database. */
export function benchCodec(trials: number): Measurement[] {
  const obj = realisticDeployment(1);
  const encodeRates: number[] = [];
  const decodeRates: number[] = [];
  for (let t = 0; t < trials; t++) {
    const count = 20_000;
    let started = performance.now();
    let bytes = encodeBody(obj).bytes;
    for (let i = 0; i < count; i++) bytes = encodeBody(obj).bytes;
    encodeRates.push(count / ((performance.now() - started) / 1000));
    started = performance.now();
    for (let i = 0; i < count; i++) decodeBody(bytes);
    decodeRates.push(count / ((performance.now() - started) / 1000));
  }
  const { bytes, jsonBytes } = encodeBody(obj);
  const note = `${jsonBytes} B of JSON → ${bytes.length} B stored`;
  return [
    {
      id: 'codec.encode',
      group: 'Object encoding (one core)',
      what: 'encode (JSON, then the row codec: deflate with preset dictionary 1 up to 16 KiB, Brotli q4 past it)',
      unit: 'objects/s',
      median: median(encodeRates),
      trials: encodeRates,
      higherIsBetter: true,
      note,
    },
    {
      id: 'codec.decode',
      group: 'Object encoding (one core)',
      what: 'decode',
      unit: 'objects/s',
      median: median(decodeRates),
      trials: decodeRates,
      higherIsBetter: true,
      note,
    },
  ];
}
