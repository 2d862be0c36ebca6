/**
 * The process that serves the global proxy in the search benchmark, alone (run as a child process
 * with --expose-gc): the control-plane API over the benchmark's DynamoDB-compatible table, nothing
 * else — no controllers, no simulated members. It is also the proxy's only client: it calls the
 * API's handler in process (no HTTP), parses each page of `BENCH_PAGE` and drops it, so what it
 * holds is what serving the proxy holds plus one parsed page.
 *
 * It lists every pod through the proxy twice and prints one JSON line:
 * - `timed`: a listing left to V8's own collection — its time, the bytes of JSON it answered, and
 *   peak RSS and heap (sampled every 10 ms; the heap then includes garbage not collected yet);
 * - `live`: a listing with a full collection (`gc()`) after every `BENCH_GC_EVERY` pages (default
 *   every page), each followed by a `heapUsed` sample while the page just parsed is still held: the
 *   heap that is reachable — what the process keeps between pages, plus one parsed page;
 * - `idle`: RSS and live heap after a warm-up listing of one pod and two full collections.
 * With `BENCH_TIMED_ONLY`, only the timed listing (a run under a small `--max-old-space-size`);
 * `BENCH_REPEAT` more timed listings of the same pods follow the first, each with its own peak RSS
 * (`passPeakRss`), to tell memory that accumulates with the pods served from memory that plateaus.
 */
import { createControlPlaneApi } from '../lib/apiserver/server.ts';
import { systemClock } from '../lib/clock/clock.ts';
import type { RuntimeConfig } from '../lib/config/runtime.ts';
import { SearchCache } from '../lib/search/cache-store.ts';
import { GLOBAL_PROXY_PREFIX } from '../lib/search/proxy-paths.ts';
import { wireRuntime } from '../lib/wiring/wire.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const config = JSON.parse(process.env.BENCH_CONFIG!) as RuntimeConfig;
const token = process.env.BENCH_TOKEN!;
const pageSize = Number(process.env.BENCH_PAGE ?? 500);
const gcEvery = Number(process.env.BENCH_GC_EVERY ?? 1);
const timedOnly = Boolean(process.env.BENCH_TIMED_ONLY);
const repeat = Number(process.env.BENCH_REPEAT ?? 0);
const runtime = wireRuntime(config, systemClock);
const api = createControlPlaneApi({
  store: runtime.store,
  workQueue: runtime.workQueue,
  clock: systemClock,
  searchCache: new SearchCache(runtime.rows),
  cipher: runtime.cipher,
});

/** Bytes of the answers' JSON, summed. */
let bodyBytes = 0;
const list = async (query: URLSearchParams) => {
  const res = await api.handler.handle({
    method: 'GET',
    path: `${GLOBAL_PROXY_PREFIX}/api/v1/pods`,
    query,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    body: Buffer.alloc(0),
  });
  if (res.status !== 200) throw new Error(`proxy answered ${res.status}: ${res.body.slice(0, 300)}`);
  bodyBytes += Buffer.byteLength(res.body);
  return JSON.parse(res.body) as { items: unknown[]; metadata: { continue?: string } };
};

/** Lists every pod in pages; `afterPage` runs after each page, while the parsed page is still held. */
const listEverything = async (afterPage: (pages: number, page: unknown) => void) => {
  let items = 0;
  let pages = 0;
  let next: string | undefined;
  do {
    const page = await list(new URLSearchParams({ limit: String(pageSize), ...(next ? { continue: next } : {}) }));
    items += page.items.length;
    pages++;
    next = page.metadata.continue || undefined;
    afterPage(pages, page);
  } while (next);
  return { items, pages };
};

const settle = async () => {
  await new Promise((r) => setTimeout(r, 200));
  gc();
  gc();
  return process.memoryUsage();
};

// Warm up (module loading, the SDK's connections, the proxy's registry and cluster state), then settle.
await list(new URLSearchParams({ limit: '1' }));
const idle = await settle();

// 1. Timed, V8 collecting as it likes: time, peak RSS, peak heap (live and garbage).
let peakRss = idle.rss;
let peakHeap = idle.heapUsed;
let peakHeapTotal = idle.heapTotal;
let peakExternal = idle.external;
let passPeakRss = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  passPeakRss = Math.max(passPeakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakHeapTotal = Math.max(peakHeapTotal, m.heapTotal);
  peakExternal = Math.max(peakExternal, m.external);
};
/** Peak RSS of each timed listing: the first, then `BENCH_REPEAT` more of the same pods. */
const passPeaks: number[] = [];
const timedPass = async () => {
  passPeakRss = 0;
  const sampler = setInterval(sample, 10);
  const result = await listEverything(() => {});
  clearInterval(sampler);
  sample();
  passPeaks.push(passPeakRss);
  return result;
};
bodyBytes = 0;
const started = performance.now();
const timed = await timedPass();
const seconds = (performance.now() - started) / 1000;
const bytes = bodyBytes;
for (let i = 0; i < repeat; i++) {
  const again = await timedPass();
  if (again.items !== timed.items)
    throw new Error(`listing ${i + 2} saw ${again.items} pods, the first ${timed.items}`);
}

// 2. Live heap: a full collection every `gcEvery` pages, then heapUsed.
let live: { start: number; max: number; end: number; samples: number } | undefined;
if (!timedOnly) {
  const start = (await settle()).heapUsed;
  let max = start;
  let samples = 0;
  const liveNow = () => {
    gc();
    samples++;
    max = Math.max(max, process.memoryUsage().heapUsed);
  };
  const held: unknown[] = [];
  const again = await listEverything((pages, page) => {
    if (pages % gcEvery !== 0) return;
    held[0] = page; // the page just parsed is live during the collection, as a client holds it
    liveNow();
    held.length = 0;
  });
  liveNow();
  if (again.items !== timed.items) throw new Error(`second listing saw ${again.items} pods, first ${timed.items}`);
  live = { start, max, end: (await settle()).heapUsed, samples };
}

process.stdout.write(
  `${JSON.stringify({
    items: timed.items,
    pages: timed.pages,
    seconds,
    bytes,
    idle: { rss: idle.rss, live: idle.heapUsed, heapTotal: idle.heapTotal, external: idle.external },
    peak: { rss: peakRss, heap: peakHeap, heapTotal: peakHeapTotal, external: peakExternal },
    passPeakRss: passPeaks,
    ...(live ? { live } : {}),
  })}\n`,
);
runtime.close();
process.exit(0);
