/**
 * `npm run bench`: runs every benchmark within a fixed budget, prints the setup and results, writes
 * BENCHMARKS.md, and compares with the previous run (bench/results.json).
 *   npm run bench -- --quick          fewer objects and trials (a smoke run; not written to BENCHMARKS.md)
 *   npm run bench -- --only=search    only the named sections (comma-separated: codec, store, api,
 *                                     queues, scheduler, propagation, eviction, eviction-memory,
 *                                     application-failover,
 *                                     quota, quota-scale, search, cost); the other rows are carried over from
 *                                     bench/results.json, marked with the date of their run
 *   npm run bench -- --only=cost      what AWS would bill: writes docs/cost.md (nothing for BENCHMARKS.md)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { startEmulators } from '../lib/local/emulators.ts';
import { startDynamoDbLocal } from '../test/support/dynamodb-local.ts';
import { describeSetup, machineOf, type Measurement } from './harness.ts';
import { benchApi } from './api.bench.ts';
import { benchApplicationFailover } from './application-failover.bench.ts';
import { benchCost } from './cost.bench.ts';
import { benchQuota } from './quota.bench.ts';
import { benchQuotaScale } from './quota-scale.bench.ts';
import { benchSearchProxy, SEARCH_PROXY_GROUP, searchProxyReading } from './search-proxy.bench.ts';
import { benchEviction } from './eviction.bench.ts';
import { benchEvictionInMemory } from './eviction-memory.bench.ts';
import { benchPropagation } from './propagation.bench.ts';
import { benchFanoutInMemory } from './fanout-memory.bench.ts';
import { benchQueues } from './queue.bench.ts';
import { benchSchedulerCore, benchSchedulerPipeline } from './scheduler.bench.ts';
import { benchCodec, benchStore } from './store.bench.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const quick = process.argv.includes('--quick');
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);
/** Whether a section runs in this invocation. */
const wants = (section: string) => !only || only.includes(section);
const RESULTS = new URL('./results.json', import.meta.url);
const REPORT = new URL('../BENCHMARKS.md', import.meta.url);

function format(value: number, unit: string): string {
  if (unit === 'ms') return value.toFixed(1);
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

function comparison(m: Measurement, previous: Measurement | undefined): string {
  if (!previous) return '—';
  // Measured on another CPU: the ratio compares machines as much as code, and says so.
  const elsewhere =
    previous.machine !== undefined && m.machine !== undefined && previous.machine !== m.machine
      ? `, on ${previous.machine}`
      : '';
  if (previous.median === 0 && m.median === 0) return `${format(0, m.unit)} (×1.00${elsewhere})`;
  const ratio = m.median / previous.median;
  const better = m.higherIsBetter ? ratio >= 1 : ratio <= 1;
  // Run-to-run spread on a shared 2-core machine is about ±25%: only call out changes beyond it.
  return `${format(previous.median, m.unit)} (×${ratio.toFixed(2)}${Math.abs(ratio - 1) < 0.25 ? '' : better ? ', better' : ', worse'}${elsewhere})`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const setup = describeSetup();
  console.log(['Benchmark setup:', ...setup].join('\n'));
  const trials = quick ? 1 : 3;
  const measurements: Measurement[] = [];
  /** Groups one section writes whole: a partial run that re-ran it carries none of their old rows over. */
  const rewritten = new Set<string>();

  if (wants('codec')) {
    console.log('\n… object encoding');
    measurements.push(...benchCodec(trials));
  }

  if (wants('store') || wants('api')) {
    // dynalite in its own process, as local mode runs it (decision 0022).
    const emulators = await startEmulators();
    const dynalite = emulators.endpoints.dynamodb;
    if (wants('store')) {
      console.log('… object store on dynalite');
      measurements.push(...(await benchStore('dynalite', dynalite, { objects: quick ? 200 : 1000, trials })));
    }
    if (wants('api')) {
      console.log('… Kubernetes API over HTTPS on dynalite');
      measurements.push(...(await benchApi(dynalite, { objects: quick ? 200 : 1000, trials })));
    }
    await emulators.stop();
  }

  if (wants('store')) {
    console.log('… object store on DynamoDB Local');
    const ddbLocal = await startDynamoDbLocal();
    measurements.push(
      ...(await benchStore('DynamoDB Local', ddbLocal.endpoint, { objects: quick ? 200 : 600, trials })),
    );
    await ddbLocal.stop();
  }

  if (wants('queues') || wants('scheduler')) {
    const emulators = await startEmulators();
    const sqs = { endpoint: emulators.endpoints.sqs };
    if (wants('queues')) {
      console.log('… queues on fauxqs');
      measurements.push(...(await benchQueues(sqs, { messages: quick ? 1000 : 5000, trials })));
    }
    if (wants('scheduler')) {
      console.log('… scheduler: pure core');
      measurements.push(...benchSchedulerCore(trials, quick ? 1000 : 5000));
      console.log('… scheduler: local pipeline (dynalite + fauxqs)');
      measurements.push(
        ...(await benchSchedulerPipeline(
          { dynamoEndpoint: emulators.endpoints.dynamodb, sqs },
          { bindings: quick ? 1000 : 5000, trials: quick ? 1 : 2 },
        )),
      );
      console.log('… scheduler: in-memory pipeline (the same code without the emulators)');
      measurements.push(
        ...(await benchSchedulerPipeline('memory', { bindings: quick ? 1000 : 5000, trials: quick ? 1 : 3 })),
      );
    }
    await emulators.stop();
  }

  if (wants('propagation')) {
    console.log('… Works to simulated members (local control plane)');
    measurements.push(
      ...(await benchPropagation({
        clusters: quick ? 4 : 10,
        templates: quick ? 50 : 300,
        latencySamples: quick ? 5 : 40,
        loadSamples: quick ? 3 : 12,
        backlog: 5000,
      })),
    );
    console.log('… Work fan-out without the emulators (in-memory store and queues, members in process)');
    measurements.push(
      ...(await benchFanoutInMemory({ clusters: 10, templates: quick ? 50 : 300, trials: quick ? 1 : 3 })),
    );
    console.log('… the same with the members in their worker thread over HTTPS, as local mode runs them');
    measurements.push(
      ...(await benchFanoutInMemory({
        clusters: 10,
        templates: quick ? 50 : 300,
        trials: quick ? 1 : 2,
        members: 'worker',
      })),
    );
  }

  if (wants('eviction')) {
    console.log('… failover: eviction storm and single-workload failover (local control plane)');
    measurements.push(
      ...(await benchEviction({
        // 2,000 rather than issue 13's 5,000: with 5,000 on one member this 2-core machine spent over 25
        // minutes before the failure (detector and executor batches timing out under the load); the
        // results are rates and per-binding costs, which do not depend on the count.
        bindings: quick ? 300 : 2000,
        clusters: quick ? 4 : 10,
        singles: quick ? 2 : 5,
      })),
    );
  }

  if (wants('eviction') || wants('eviction-memory')) {
    console.log("… failover: the eviction storm without the emulators (the simulation's world)");
    measurements.push(
      ...(await benchEvictionInMemory({ bindings: quick ? 300 : 2000, members: 10, trials: quick ? 1 : 3 })),
    );
  }

  if (wants('application-failover')) {
    console.log('… application failover: toleration end → new copy running (local control plane)');
    measurements.push(...(await benchApplicationFailover({ runs: quick ? 3 : 10, clusters: 3 })));
  }

  if (wants('quota')) {
    console.log('… FederatedResourceQuota: usage updates with many bindings in one namespace (local control plane)');
    // 300 rather than issue 15's 5,000: 300 Deployments on one simulated member took 370 s to place here
    // (about 1/s — the same without a quota; not investigated yet), so 5,000 would take well over an
    // hour. The per-change figures should not depend on the count: no change lists the namespace.
    // It timed out once waiting for a scale-up to reach the quota, with code whose reverts could give up
    // under contention and leave charges behind for a later recount to remove. The wait compared the
    // namespace's total with its value before the change, so such a recount lowering it during the
    // wait most likely hid the change (not reproduced since: one quick and two full runs). It now waits
    // for the binding's own charge, says on a timeout what the binding and the quota show, and checks
    // afterwards that the quota holds exactly what is placed; a failure is still reported and the rest
    // of the run kept.
    try {
      measurements.push(...(await benchQuota({ bindings: quick ? 50 : 300, samples: quick ? 5 : 20 })));
    } catch (err) {
      console.log(`   FederatedResourceQuota bench failed: ${(err as Error).message}`);
    }
  }

  if (wants('quota-scale')) {
    console.log('… FederatedResourceQuota at 5,000 bindings in one namespace (scheduler on dynalite + fauxqs)');
    const emulators = await startEmulators();
    try {
      measurements.push(
        ...(await benchQuotaScale(
          emulators.endpoints.dynamodb,
          { endpoint: emulators.endpoints.sqs },
          {
            bindings: quick ? 500 : 5000,
            samples: quick ? 5 : 20,
            recounts: quick ? 3 : 5,
          },
        )),
      );
    } finally {
      await emulators.stop();
    }
  }

  if (wants('search')) {
    console.log('… global proxy: up to 100,000 pods over 10 members, listed through the proxy (local control plane)');
    measurements.push(
      // Several fleet sizes, so the proxy process's memory can be compared: it should not grow with the
      // pods. The collector fills the cache up to 50,000 pods (about ten minutes here; 100,000 did not
      // collect within 40 minutes), so the 100,000-pod listing reads a cache the benchmark filled itself.
      ...(await benchSearchProxy({
        clusters: 10,
        podsPerCluster: quick ? [100, 300] : [1000, 3000, 5000],
        directPods: quick ? 2000 : 100_000,
      })),
    );
    rewritten.add(SEARCH_PROXY_GROUP);
  }

  if (wants('cost')) {
    console.log('… cost: a template change on two clusters, ten clusters idle, bundles and cold starts (docs/cost.md)');
    measurements.push(...(await benchCost({ quick })));
  }
  if (only && measurements.length === 0) {
    console.log('\nNothing for BENCHMARKS.md in this run: it and bench/results.json are left as they are.');
    return;
  }

  // Rows measured now say on which CPU; rows carried over keep what they said.
  const machine = machineOf();
  for (const m of measurements) m.machine ??= machine;
  const stored = existsSync(RESULTS)
    ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { date?: string; measurements: Measurement[] })
    : { measurements: [] };
  const previous = stored.measurements;
  if (only) {
    // A partial run: the rows it did not measure are the last run's, in their place, and say so.
    const fresh = new Map(measurements.map((m) => [m.id, m]));
    const carried = previous
      .filter((p) => !fresh.has(p.id) && !rewritten.has(p.group))
      .map((p) => ({ ...p, carried: p.carried ?? stored.date?.slice(0, 10) ?? 'an earlier run' }));
    const order = [...carried, ...measurements];
    const groups = [...new Set([...previous.map((p) => p.group), ...measurements.map((m) => m.group)])];
    measurements.splice(0, measurements.length, ...groups.flatMap((g) => order.filter((m) => m.group === g)));
  }
  const lines: string[] = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (do not edit by hand). Medians of repeated trials after a discarded warm-up; the',
    'previous column is the last committed run, with the ratio of this run to it (and the CPU it ran on when that was another).',
    'Run-to-run spread on this shared 2-core machine is about ±25%, even for pure CPU work; only ratios',
    'beyond that are marked better or worse.',
    '',
    '## Setup',
    '',
    ...setup,
    only
      ? `- Trials per measurement: ${trials}; this partial run (--only=${only.join(',')}) took ${Math.round((Date.now() - started) / 1000)} s; rows it did not measure say which run they come from.`
      : `- Trials per measurement: ${trials}; whole run took ${Math.round((Date.now() - started) / 1000)} s.`,
  ];
  let group = '';
  for (const m of measurements) {
    if (m.group !== group) {
      group = m.group;
      lines.push(
        '',
        `## ${group}`,
        '',
        '| what | median | unit | trials | previous (ratio) | note |',
        '|---|---:|---|---|---|---|',
      );
    }
    const prev = previous.find((p) => p.id === m.id);
    const where = m.machine && m.machine !== machine ? ` on ${m.machine}` : '';
    const note = m.carried
      ? `${m.note ? `${m.note}; ` : ''}not re-run: from the run of ${m.carried}${where}`
      : (m.note ?? '');
    lines.push(
      `| ${m.what} | ${format(m.median, m.unit)} | ${m.unit} | ${m.trials.map((t) => format(t, m.unit)).join(', ')} | ${m.carried ? '—' : comparison(m, prev)} | ${note} |`,
    );
  }
  const ratio = (a: string, b: string) => {
    const x = measurements.find((m) => m.id === a)?.median;
    const y = measurements.find((m) => m.id === b)?.median;
    return x && y ? (x / y).toFixed(2) : '?';
  };
  const fmtMb = (id: string) => {
    const x = measurements.find((m) => m.id === id)?.median;
    return x === undefined ? '?' : x.toFixed(0);
  };
  const fmtMs = (id: string) => {
    const x = measurements.find((m) => m.id === id)?.median;
    return x === undefined ? '?' : x.toFixed(0);
  };
  const ratioTo = (a: string, reference: number) => {
    const x = measurements.find((m) => m.id === a)?.median;
    return x ? (x / reference).toFixed(1) : '?';
  };
  lines.push(
    '',
    '## Reading these numbers',
    '',
    `- DynamoDB Local is the real engine and the slower one here: dynalite/DynamoDB Local = ×${ratio('store.dynalite.put-16', 'store.DynamoDB Local.put-16')} for creates, ×${ratio('store.dynalite.get-16', 'store.DynamoDB Local.get-16')} for gets (16 in flight). Neither says much about DynamoDB in AWS, where a single-item write takes single-digit ms and throughput scales with partitions; they bound what local mode can do.`,
    `- Concurrency pays: on dynalite 16 in flight gives ×${ratio('store.dynalite.put-16', 'store.dynalite.put-seq')} the creates of one at a time.`,
    '- An update is a consistent read plus a conditional write (the store needs the current object to keep status and bump generation), so it costs two round trips.',
    `- The API costs over the store alone: a create through HTTPS, authentication, validation and managedFields runs at ×${ratio('api.create-16', 'store.dynalite.put-16')} the store's create rate (both 16 in flight on dynalite); a strategic merge patch is a read plus a write, like the store's update (×${ratio('api.smp-16', 'store.dynalite.update-16')}).`,
    '- The priority wait is the queue-level part of a user update under a 5,000-message backlog (docs/decisions/0003-queues-and-retries.md): the priority lane has its own pollers, so it does not wait for the backlog.',
    `- Scheduler: the local pipeline places bindings at ×${ratioTo('scheduler-pipeline-bindings', 22)} Karmada v1.15's ~22/s, and at ×${ratio('scheduler-pipeline-bindings', 'store.dynalite.update-16')} the bare store's read-modify-write rate on dynalite — each binding is one read and one conditional write, so the local store, not the decision (the pure core decides ×${ratio('scheduler-core-decisions', 'scheduler-pipeline-bindings')} faster), bounds it below the 1,000/s target on 2 cores. Writes per binding are the binding's own write plus its share of the reservation ledger's (one per batch flush); no member is called.`,
    `- Works to members: the fan-out runs at ×${ratioTo('propagation-fanout-works', 200)} Karmada's ~200 Works/s (#7062), against a 1,000/s target on dynalite. A new Work costs ${ratioTo('propagation-fanout-store-writes', 1)} store writes besides its create (its status write, with success Events once per binding and batch) and ${ratioTo('propagation-fanout-member-requests', 1)} member requests (one POST; the adoption check reads the object only when it exists; probes and member syncs in the window count too). The control plane's thread is busy the whole fan-out at ${ratioTo('propagation-fanout-cpu', 1)} ms of the process's CPU per Work (the members' thread included), besides what dynalite and fauxqs spend in their own process (decision 0022): 1,000 Works/s would need under 2 ms per Work on these two cores in all, where the in-memory run below needs 0.3 — the AWS SDK's and the emulators' work per request is the difference. In AWS each executor invocation has its own CPU and DynamoDB scales by partition.`,
    `- Work fan-out without the emulators: the executor on the in-memory store and queues, members answering in process, applies ${fmtMb('propagation-fanout-memory-works')} Works/s (×${ratio('propagation-fanout-memory-works', 'propagation-fanout-works')} the local plane's), at ${ratioTo('propagation-fanout-memory-cpu', 1)} ms of process CPU per Work with the members' side included, ${ratioTo('propagation-fanout-memory-writes', 1)} store writes and ${ratioTo('propagation-fanout-memory-member-requests', 1)} member requests per Work.`,
    `- Scheduler without the emulators: on the in-memory row store and queues the same pipeline places ×${ratio('scheduler-pipeline-memory-bindings', 'scheduler-pipeline-bindings')} the bindings per second it places on dynalite + fauxqs, at ${ratioTo('scheduler-pipeline-memory-cpu', 1)} ms of process CPU per binding (brotli encoding of every write, the handler's logging and batching, the decision itself).`,
    `- Failover: a storm evicts and re-places bindings at ×${ratioTo('eviction-storm-rate', 1.2)} Karmada's ~1.2/s with default workers and ×${ratioTo('eviction-storm-rate', 82)} its ~82/s with 50 workers (#7483), far below the 250/s target. Bindings are re-placed at a steady pace from the first to the last (the row's percentiles), so the rate is the throughput of the control plane's thread, busy the whole storm (the API, every controller and the AWS SDK's clients; the ten simulated members have a thread of their own, dynalite and fauxqs a process of their own since decision 0022), at ${ratioTo('eviction-storm-cpu', 1)} ms of the process's CPU per evicted binding besides the emulators' — 250/s would need under 8 ms per binding in all on these two cores. Each evicted binding costs about ${ratioTo('eviction-storm-store-writes', 1)} store writes (Events, on the binding and its template as Karmada records them, are over half) and ${ratioTo('eviction-storm-messages', 1)} queue messages, plus the reads of each controller's pass. Binding writes before re-placement are the floor of 2 (the eviction's and the scheduler's). Without the emulators — the simulation's world, every controller through its handler on the in-memory table and queues, the members in process, all on one thread — the same storm runs at ${fmtMb('eviction-storm-memory-rate')} bindings/s (×${ratio('eviction-storm-memory-rate', 'eviction-storm-rate')} the local plane's), ${ratioTo('eviction-storm-memory-cpu', 1)} ms of CPU per evicted binding from the failure to its new copy reported: on the local plane most of the CPU is the emulators' and the AWS SDK's per request (decisions/0021, 0022).`,
    `- FederatedResourceQuota with 5,000 bindings in one namespace (the scheduler on dynalite + fauxqs, 100 clusters; the binder on its own queues for deletions): a scale change reaches \`overallUsed\` in ${fmtMs('quota-scale-latency-p50')} ms (p50, end to end) with ${fmtMb('quota-scale-quota-writes')} quota write and ${fmtMb('quota-scale-all-writes')} store writes in all, reading one binding; a deleted binding's usage is given back in ${fmtMs('quota-scale-delete-latency-p50')} ms with ${fmtMb('quota-scale-delete-writes')} writes. Karmada recomputes \`overallUsed\` from a list of all 5,000 bindings on every binding deletion (and quota change, and every 5 minutes); that full recount, run here on the same bindings and store (our quota controller's sync), takes ${fmtMs('quota-scale-recount-ms')} ms by itself — ×${ratio('quota-scale-recount-ms', 'quota-scale-delete-latency-p50')} a whole deletion, ×${ratio('quota-scale-recount-ms', 'quota-scale-latency-p50')} a whole scale change — and reads ${fmtMb('quota-scale-recount-read-kb')} KB from DynamoDB, ×${ratio('quota-scale-recount-read-kb', 'quota-scale-change-read-kb')} a scale change's ${fmtMb('quota-scale-change-read-kb')} KB (mostly the scheduler's cluster list, read with or without a quota). Karmada's webhook charges a scale change as a delta, with one quota write as here. Placing and charging all 5,000 runs at ×${ratio('quota-scale-fill', 'scheduler-pipeline-bindings')} the scheduler pipeline's rate without a quota (spread over 20 namespaces), since the charges of one namespace are serialised.`,
    searchProxyReading(measurements),
    `- A user's change under a 5,000-message standard backlog reaches the member ×${ratio('propagation-nopriority-p99', 'propagation-priority-p99')} faster on the priority lane (p99) than when sent behind the backlog. Idle p50 meets the 300 ms target; the idle p99 is set by outliers that coincide with periodic work on the same thread (member syncs at each probe, resync bursts).`,
  );
  if (quick) {
    console.log(`\n${lines.join('\n')}\n\n(--quick: BENCHMARKS.md and bench/results.json left unchanged)`);
    return;
  }
  writeFileSync(REPORT, `${lines.join('\n')}\n`);
  writeFileSync(RESULTS, `${JSON.stringify({ date: new Date().toISOString(), measurements }, null, 2)}\n`);
  console.log(`\n${lines.join('\n')}\n\nWrote BENCHMARKS.md and bench/results.json.`);
}

await main();
