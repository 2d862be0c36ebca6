/**
 * The process that serves the global proxy in the search benchmark, alone (run as a child process
 * with --expose-gc): the control-plane API over the benchmark's DynamoDB-compatible table, nothing
 * else — no controllers, no simulated members. It lists every pod through the proxy in pages of
 * `BENCH_PAGE` and prints, as one JSON line, how long that took and its memory when idle and at peak
 * (sampled every 10 ms), so the parent can tell whether serving the proxy grows with the fleet.
 */
import { createControlPlaneApi } from '../lib/apiserver/server.ts';
import { systemClock } from '../lib/clock/clock.ts';
import type { RuntimeConfig } from '../lib/config/runtime.ts';
import { SearchCache } from '../lib/search/cache-store.ts';
import { GLOBAL_PROXY_PREFIX } from '../lib/search/proxy-paths.ts';
import { wireRuntime } from '../lib/wiring/wire.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const config = JSON.parse(process.env.BENCH_CONFIG!) as RuntimeConfig;
const token = process.env.BENCH_TOKEN!;
const pageSize = Number(process.env.BENCH_PAGE ?? 500);
const runtime = wireRuntime(config, systemClock);
const api = createControlPlaneApi({
  store: runtime.store,
  workQueue: runtime.workQueue,
  clock: systemClock,
  searchCache: new SearchCache(runtime.rows),
  cipher: runtime.cipher,
});

const list = async (query: URLSearchParams) => {
  const res = await api.handler.handle({
    method: 'GET',
    path: `${GLOBAL_PROXY_PREFIX}/api/v1/pods`,
    query,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    body: Buffer.alloc(0),
  });
  if (res.status !== 200) throw new Error(`proxy answered ${res.status}: ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as { items: unknown[]; metadata: { continue?: string } };
};

// Warm up (module loading, the SDK's connections), then settle: this is the idle footprint.
await list(new URLSearchParams({ limit: '1' }));
await new Promise((r) => setTimeout(r, 200));
gc();
gc();
const idle = process.memoryUsage();
let peakRss = idle.rss;
let peakHeap = idle.heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 10);
const started = performance.now();
let items = 0;
let pages = 0;
let token_: string | undefined;
do {
  const page = await list(new URLSearchParams({ limit: String(pageSize), ...(token_ ? { continue: token_ } : {}) }));
  items += page.items.length;
  pages++;
  token_ = page.metadata.continue || undefined;
} while (token_);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const end = process.memoryUsage();
peakRss = Math.max(peakRss, end.rss);
peakHeap = Math.max(peakHeap, end.heapUsed);
process.stdout.write(
  `${JSON.stringify({ items, pages, seconds, idle: { rss: idle.rss, heap: idle.heapUsed }, peak: { rss: peakRss, heap: peakHeap } })}\n`,
);
runtime.close();
process.exit(0);
