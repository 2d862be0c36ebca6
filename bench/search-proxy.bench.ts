/**
 * Issue 16: the global proxy over 100,000 pods on 10 simulated members, run as `npm start` runs it
 * (dynalite, fauxqs, every controller, simulated members), with the proxy served by a separate
 * process so its memory can be read alone.
 *
 * For each fleet size, on a fresh control plane: pods are written straight into the members' stores
 * (bound to a node that does not exist, so the simulated kubelets leave them alone), a
 * ResourceRegistry selects Pods in every member, and the collector takes them into the search cache.
 * Then a child process that only serves the API lists every pod through the proxy in pages of 500:
 * its idle memory, its peak while listing, and the time. karmada-search keeps every selected object in an informer cache: ~70 KB of
 * memory per cached pod (#2518), ~7 GB for 100,000.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { issueAdminToken } from '../lib/apiserver/server.ts';
import { createDynamoClient } from '../lib/adapters/dynamodb/client.ts';
import { DynamoRowStore } from '../lib/adapters/dynamodb/row-store.ts';
import type { KubeObject } from '../lib/api/object.ts';
import { systemClock } from '../lib/clock/clock.ts';
import { cacheKeyOf, toCached } from '../lib/core/index.ts';
import { ensureLocalTable } from '../lib/adapters/dynamodb/migrate-table.ts';
import { LOCAL_REGION, LOCAL_TABLE } from '../lib/local/runtime.ts';
import { startDynalite } from '../lib/local/servers.ts';
import { SearchCache } from '../lib/search/cache-store.ts';
import { RowObjectStore } from '../lib/store/row-object-store.ts';
import { CLUSTER_CACHE } from '../lib/search/records.ts';
import { listAll } from '../lib/store/list-all.ts';
import { forEachLimited } from '../lib/util/concurrency.ts';
import type { Measurement } from './harness.ts';
import {
  apiClient,
  benchTimings,
  memberNames,
  membersReady,
  simulatedMembers,
  until,
  startBenchPlane,
} from './local-plane.ts';

const GROUP = 'Global proxy (issue 16)';
const NODE = { cpu: '64', memory: '256Gi', pods: '110', 'ephemeral-storage': '100Gi' };
/** karmada-search's memory per cached pod (#2518: ~140 GB for ~2M pods). */
const KARMADA_BYTES_PER_POD = 70 * 1024;
const MB = 1024 * 1024;

interface ReaderResult {
  items: number;
  pages: number;
  seconds: number;
  idle: { rss: number; heap: number };
  peak: { rss: number; heap: number };
}

function readAll(config: unknown, token: string): Promise<ReaderResult> {
  const script = fileURLToPath(new URL('./search-proxy-reader.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--no-warnings', script],
      {
        env: { ...process.env, BENCH_CONFIG: JSON.stringify(config), BENCH_TOKEN: token, BENCH_PAGE: '500' },
        maxBuffer: 1024 * 1024,
        timeout: 1_800_000,
      },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`proxy reader failed: ${err.message}\n${stderr}`));
        resolve(JSON.parse(stdout.trim().split('\n').pop()!) as ReaderResult);
      },
    );
  });
}

/**
 * The proxy alone over a cache the benchmark fills itself (no members, no controllers): what serving
 * `pods` costs the proxy process, at a size the one-process local control plane cannot collect in
 * reasonable time on this machine (its members, dynalite and every controller share one thread).
 */
async function directFillRun(
  clusters: number,
  pods: number,
): Promise<{ pods: number; r: ReaderResult; collectSeconds: number; direct: true }> {
  const dynamo = await startDynalite();
  const ddb = createDynamoClient({ region: LOCAL_REGION, endpoint: dynamo.endpoint });
  try {
    await ensureLocalTable(ddb, LOCAL_TABLE, undefined);
    const rows = new DynamoRowStore({ client: ddb, tableName: LOCAL_TABLE });
    const store = new RowObjectStore(rows, { clock: systemClock });
    const cache = new SearchCache(rows);
    const names = memberNames(clusters);
    for (const name of names) {
      await store.create({
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec: { syncMode: 'Push' },
      });
    }
    await store.create({
      apiVersion: 'search.karmada.io/v1alpha1',
      kind: 'ResourceRegistry',
      metadata: { name: 'all-pods' },
      spec: { targetCluster: {}, resourceSelectors: [{ apiVersion: 'v1', kind: 'Pod' }] },
    });
    const token = (await issueAdminToken(store, 'search benchmark')).token;
    const perCluster = pods / clusters;
    const started = performance.now();
    const kind = { apiVersion: 'v1', kind: 'Pod' };
    for (const [c, name] of names.entries()) {
      await forEachLimited(
        Array.from({ length: perCluster }, (_, i) => i),
        32,
        async (i) => {
          const pod = toCached(benchPod(i, String(1000 + c * perCluster + i)), 'v1', 'Pod');
          await cache.put(name, kind, cacheKeyOf(pod), pod);
        },
      );
    }
    console.log(
      `   ${pods} pods written straight into the cache in ${Math.round((performance.now() - started) / 1000)} s (no collector)`,
    );
    const config = {
      region: LOCAL_REGION,
      environment: 'bench',
      tableName: LOCAL_TABLE,
      queuePrefix: 'bench',
      queueUrlBase: 'http://127.0.0.1:1/',
      dynamodbEndpoint: dynamo.endpoint,
      sqsEndpoint: 'http://127.0.0.1:1',
      reconcileConcurrency: 1,
      metrics: 'off',
      eventTtlSeconds: 3600,
    };
    const r = await readAll(config, token);
    if (r.items !== pods) throw new Error(`listed ${r.items} pods, expected ${pods}`);
    console.log(
      `   listed ${r.items} pods in ${r.pages} pages in ${r.seconds.toFixed(1)} s; proxy process rss ${Math.round(r.idle.rss / MB)} → ${Math.round(r.peak.rss / MB)} MB, heap ${Math.round(r.idle.heap / MB)} → ${Math.round(r.peak.heap / MB)} MB`,
    );
    return { pods, r, collectSeconds: Number.NaN, direct: true };
  } finally {
    ddb.destroy();
    await dynamo.stop();
  }
}

function benchPod(i: number, resourceVersion?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `bench-${String(i).padStart(6, '0')}`,
      namespace: `team-${i % 20}`,
      labels: { app: `app-${i % 50}`, tier: i % 2 ? 'web' : 'worker' },
      ...(resourceVersion ? { resourceVersion } : {}),
    },
    spec: {
      nodeName: 'bench-node',
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/app:1.2.3',
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
    },
  };
}

export async function benchSearchProxy(options: {
  clusters: number;
  podsPerCluster: number[];
  /** Also list this many pods from a cache filled directly (the proxy alone). */
  directPods?: number;
}): Promise<Measurement[]> {
  const names = memberNames(options.clusters);
  const out: Measurement[] = [];
  const runs: { pods: number; r: ReaderResult; collectSeconds: number; direct?: true }[] = [];
  // Each fleet size on a fresh control plane: the collector takes every pod in with its first sync.
  for (const perCluster of options.podsPerCluster) {
    const rt = await startBenchPlane({
      simulation: simulatedMembers(options.clusters, NODE),
      clusterTimings: benchTimings(),
    });
    const api = apiClient(rt, 60_000);
    try {
      await membersReady(rt, names.length, 600_000);
      const token = (await issueAdminToken(rt.runtime.store, 'search benchmark')).token;
      const started = performance.now();
      for (const name of names) {
        const store = rt.members.get(name)!.store;
        await forEachLimited(
          Array.from({ length: perCluster }, (_, i) => i),
          32,
          async (i) => {
            await store.create(benchPod(i));
          },
        );
      }
      const collectStarted = performance.now();
      await api.send('POST', '/apis/search.karmada.io/v1alpha1/resourceregistries', {
        apiVersion: 'search.karmada.io/v1alpha1',
        kind: 'ResourceRegistry',
        metadata: { name: 'all-pods' },
        spec: { targetCluster: {}, resourceSelectors: [{ apiVersion: 'v1', kind: 'Pod' }] },
      });
      await until(
        `${perCluster} pods per member in the search cache`,
        async () => {
          const records = await listAll(rt.runtime.store, CLUSTER_CACHE);
          return (
            records.length === names.length &&
            records.every(
              (r) =>
                (r.spec as { kinds?: { objects?: number; partial?: boolean }[] }).kinds?.[0]?.objects === perCluster &&
                !(r.spec as { kinds?: { partial?: boolean }[] }).kinds?.[0]?.partial,
            )
          );
        },
        3_600_000,
        1_000,
      );
      const collectSeconds = (performance.now() - collectStarted) / 1000;
      console.log(
        `   ${perCluster * names.length} pods seeded in ${Math.round((collectStarted - started) / 1000)} s, collected in ${Math.round(collectSeconds)} s`,
      );
      const r = await readAll(rt.runtime.config, token);
      if (r.items !== perCluster * names.length) {
        throw new Error(`listed ${r.items} pods, expected ${perCluster * names.length}`);
      }
      console.log(
        `   listed ${r.items} pods in ${r.pages} pages in ${r.seconds.toFixed(1)} s; proxy process rss ${Math.round(r.idle.rss / MB)} → ${Math.round(r.peak.rss / MB)} MB, heap ${Math.round(r.idle.heap / MB)} → ${Math.round(r.peak.heap / MB)} MB`,
      );
      runs.push({ pods: perCluster * names.length, r, collectSeconds });
    } finally {
      await rt.stop();
    }
  }
  if (options.directPods) {
    const direct = await directFillRun(options.clusters, options.directPods);
    runs.push(direct);
  }
  for (const { pods, r, collectSeconds, direct } of runs) {
    const tag = `${pods / 1000}k`;
    out.push(
      {
        id: `search-list-${tag}-seconds`,
        group: GROUP,
        what: `list ${pods.toLocaleString('en-US')} pods over ${options.clusters} members through the proxy, pages of 500${direct ? ' (cache filled directly)' : ''}`,
        unit: 's',
        median: r.seconds,
        trials: [r.seconds],
        higherIsBetter: false,
        note: `${Math.round(pods / r.seconds).toLocaleString('en-US')} pods/s, ${r.pages} pages`,
      },
      {
        id: `search-proxy-rss-growth-${tag}`,
        group: GROUP,
        what: `proxy process memory growth while listing ${pods.toLocaleString('en-US')} pods (peak RSS − idle RSS)`,
        unit: 'MB',
        median: (r.peak.rss - r.idle.rss) / MB,
        trials: [(r.peak.rss - r.idle.rss) / MB],
        higherIsBetter: false,
        note: `idle ${Math.round(r.idle.rss / MB)} MB, peak ${Math.round(r.peak.rss / MB)} MB; heap ${Math.round(r.idle.heap / MB)} → ${Math.round(r.peak.heap / MB)} MB. karmada-search: ~${Math.round((pods * KARMADA_BYTES_PER_POD) / MB).toLocaleString('en-US')} MB for these pods (#2518)`,
      },
      ...(direct
        ? []
        : [
            {
              id: `search-collect-${tag}-seconds`,
              group: GROUP,
              what: `collector: a ResourceRegistry over ${pods.toLocaleString('en-US')} pods, until all are in the cache`,
              unit: 's',
              median: collectSeconds,
              trials: [collectSeconds],
              higherIsBetter: false,
              note: 'from creating the ResourceRegistry until every member’s record counts them: each member listed, its pods written to the cache; dynalite, the members and every controller share one thread',
            },
          ]),
    );
  }
  return out;
}
