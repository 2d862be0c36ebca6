/**
 * Issue 18, items 5 and 6: what the control plane costs on AWS, measured on this machine.
 * - One template change that produces Works on two clusters: a Deployment's image patched through the
 *   API, then everything it sets off (detector → scheduler → binder → executor → members, Events,
 *   status back into the binding and the template), counted per change on the metered control plane
 *   of cost-world.ts. Each change is counted alone until the queues are empty (medians over the
 *   changes); what follows later — members finishing the rollout, status collected at the next probes
 *   and aggregated — is counted over the minutes after all of them, net of the same minutes idle.
 * - An idle fleet of ten clusters with the default sweeps, probes and resyncs, over a simulated period.
 * - Every function's bundle as infra/ builds it, its size and its cold-start init (cost-bundles.ts).
 * The cost model (cost-model.ts) turns the counts into dollars; docs/cost.md gets the results.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { measureBundles, synthesiseDeployment, type BundleMeasurement, type DeployedShape } from './cost-bundles.ts';
import { KEEP_WARM_MS, TABLE_KEY_CACHE_MINUTES } from './cost-model.ts';
import { type CostOptions, type CostResults, renderCostReport } from './cost-report.ts';
import { type Counts, diffCounts, metric } from './cost-meter.ts';
import { CostWorld } from './cost-world.ts';
import { median, type Measurement } from './harness.ts';

const NAMESPACE = 'cost';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NAMESPACE}/deployments`;
const DOC = new URL('../docs/cost.md', import.meta.url);
const SYNTH_DIR = new URL('../.bench/cost-synth/', import.meta.url).pathname;

function deployment(i: number, image: string) {
  const app = `app-${i}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace: NAMESPACE, labels: { app } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app } },
        spec: {
          containers: [{ name: 'app', image, resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
        },
      },
    },
  };
}

async function expectOk(world: CostWorld, method: string, path: string, body: unknown, contentType?: string) {
  const answer = await world.api(method, path, body, contentType);
  if (answer.status >= 300) {
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
}

/** Counts while `run` runs. */
async function counted(world: CostWorld, run: () => Promise<void>): Promise<Counts> {
  const before = world.meter.snapshot();
  await run();
  return diffCounts(world.meter.snapshot(), before);
}

/** A schedule that fires every minute (sweeps and probes), as opposed to resync and quota sync. */
function everyMinute(world: CostWorld, name: string): boolean {
  const s = world.schedules.find((x) => x.name === name);
  if (!s) return false;
  const first = s.every(s.next);
  return s.every(first) - first <= 60_000;
}

/** Two clusters, the templates created, then changed one by one; the follow-up; idle before and after. */
async function measureChanges(options: CostOptions, timings: Record<string, number>) {
  let started = performance.now();
  const world = await CostWorld.create(2);
  await expectOk(world, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NAMESPACE },
  });
  await expectOk(world, 'POST', `/apis/policy.karmada.io/v1alpha1/namespaces/${NAMESPACE}/propagationpolicies`, {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'apps', namespace: NAMESPACE },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      placement: {
        clusterAffinity: { clusterNames: [...world.members.keys()] },
        replicaScheduling: { replicaSchedulingType: 'Duplicated' },
      },
    },
  });
  const period = 10 * 60_000;
  await world.align(period);
  const idleEmpty = await counted(world, () => world.run(options.idleMinutes * 60_000));
  const storedBytesEmpty = world.storedBytes();
  timings['two clusters, idle without templates'] = (performance.now() - started) / 1000;

  started = performance.now();
  for (let i = 0; i < options.templates; i++) {
    await expectOk(world, 'POST', DEPLOYMENTS, deployment(i, 'registry.example/app:1.0.0'));
    await world.deliver();
  }
  await world.run(3 * 60_000);
  await world.align(period);
  const idleTemplates = await counted(world, () => world.run(options.idleMinutes * 60_000));
  const storedBytesTemplates = world.storedBytes();
  timings['templates created, idle with them'] = (performance.now() - started) / 1000;

  // The changes: the slow schedules (resync, quota sync) are held back so the minutes after the
  // changes and the idle minutes they are compared with see the same periodic work.
  started = performance.now();
  world.scheduleFilter = (name) => everyMinute(world, name);
  await world.align(60_000);
  const window = options.followUpMinutes * 60_000;
  const followUpIdle = await counted(world, () => world.run(window));
  world.meter.metricKeys.clear();
  const changes: Counts[] = [];
  for (let i = 0; i < options.templates; i++) {
    changes.push(
      await counted(world, async () => {
        await expectOk(
          world,
          'PATCH',
          `${DEPLOYMENTS}/app-${i}`,
          { spec: { template: { spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0.1' }] } } } },
          'application/strategic-merge-patch+json',
        );
        await world.deliver();
      }),
    );
  }
  const followUp = await counted(world, () => world.run(window));
  const busyMetricKeys = [...world.meter.metricKeys].sort();
  const afterFollowUp = await counted(world, () => world.run(window));
  timings['changes and their follow-up'] = (performance.now() - started) / 1000;
  for (const member of world.members.values()) await member.stop();
  return {
    changes,
    followUp: { counts: followUp, minutes: options.followUpMinutes },
    followUpIdle: { counts: followUpIdle, minutes: options.followUpMinutes },
    afterFollowUp: { counts: afterFollowUp, minutes: options.followUpMinutes },
    idleEmpty: { counts: idleEmpty, minutes: options.idleMinutes },
    idleTemplates: { counts: idleTemplates, minutes: options.idleMinutes },
    storedBytesEmpty,
    storedBytesTemplates,
    busyMetricKeys,
  };
}

/** Ten clusters, nothing propagated, every schedule at its default period. */
async function measureFleet(options: CostOptions, timings: Record<string, number>) {
  const started = performance.now();
  const world = await CostWorld.create(options.fleetClusters);
  await world.align(10 * 60_000);
  // Invocations at this instant belonged to the run that aligned the clock, not to the window.
  const from = world.clock.now();
  world.meter.metricKeys.clear();
  const counts = await counted(world, () => world.run(options.fleetMinutes * 60_000));
  const coldStarts = new Map<string, number>();
  let tableKeyRequests = 0;
  for (const [fn, times] of world.meter.invocationTimes) {
    let cold = 0;
    // DynamoDB asks KMS for the table key once per role per TABLE_KEY_CACHE_MINUTES it is used in.
    tableKeyRequests += new Set(
      times.filter((t) => t > from).map((t) => Math.floor(t / (TABLE_KEY_CACHE_MINUTES * 60_000))),
    ).size;
    for (let i = 0; i < times.length; i++) {
      if (times[i]! <= from) continue;
      const previous = i > 0 ? times[i - 1]! : Number.NEGATIVE_INFINITY;
      if (times[i]! - previous > KEEP_WARM_MS) cold++;
    }
    if (cold > 0) coldStarts.set(fn, cold);
  }
  const result = {
    fleet: { counts, minutes: options.fleetMinutes },
    fleetColdStarts: coldStarts,
    fleetTableKeyRequests: tableKeyRequests,
    fleetMetricKeys: [...world.meter.metricKeys].sort(),
    fleetStoredBytes: world.storedBytes(),
  };
  for (const member of world.members.values()) await member.stop();
  timings[`${options.fleetClusters} clusters, idle`] = (performance.now() - started) / 1000;
  return result;
}

export async function benchCost(options: { quick: boolean }): Promise<Measurement[]> {
  const o: CostOptions = options.quick
    ? {
        templates: 30,
        idleMinutes: 10,
        followUpMinutes: 2,
        fleetClusters: 10,
        fleetMinutes: 10,
        coldStartRuns: 1,
        write: false,
      }
    : {
        // 100 rather than 200: on this shared 2-core machine 200 took over 4 minutes (the members'
        // controllers pass over every object at each delivery round); the per-change counts do not
        // depend on how many templates exist.
        templates: 100,
        idleMinutes: 10,
        followUpMinutes: 2,
        fleetClusters: 10,
        fleetMinutes: 20,
        coldStartRuns: 3,
        write: true,
      };
  const timings: Record<string, number> = {};
  const changes = await measureChanges(o, timings);
  console.log(
    `   ${o.templates} changes: median ${median(changes.changes.map((c) => metric(c, 'lambda.invocations')))} invocations, ` +
      `${median(changes.changes.map((c) => metric(c, 'ddb.put') + metric(c, 'ddb.delete')))} store writes each (until the queues were empty)`,
  );
  const fleet = await measureFleet(o, timings);
  console.log(
    `   ${o.fleetClusters} clusters idle: ${Math.round(metric(fleet.fleet.counts, 'lambda.invocations') / o.fleetMinutes)} invocations a minute`,
  );
  let shape: DeployedShape | undefined;
  let bundles: BundleMeasurement[] = [];
  let bundleError: string | undefined;
  let started = performance.now();
  try {
    rmSync(SYNTH_DIR, { recursive: true, force: true });
    shape = synthesiseDeployment(SYNTH_DIR);
    timings['cdk synth (prod, every bundle)'] = (performance.now() - started) / 1000;
    started = performance.now();
    bundles = measureBundles(shape, SYNTH_DIR, o.coldStartRuns);
    timings['cold starts'] = (performance.now() - started) / 1000;
    console.log(
      `   ${bundles.length} bundles: ${Math.round(Math.min(...bundles.map((b) => b.bundleBytes)) / 1024)}–${Math.round(Math.max(...bundles.map((b) => b.bundleBytes)) / 1024)} KiB, init ${Math.round(Math.min(...bundles.map((b) => b.initMs)))}–${Math.round(Math.max(...bundles.map((b) => b.initMs)))} ms`,
    );
  } catch (err) {
    bundleError = (err as Error).message.split('\n').slice(0, 3).join(' ');
    console.log(`   bundles not measured: ${bundleError}`);
  }
  const results: CostResults = {
    date: new Date().toISOString(),
    options: o,
    ...changes,
    ...fleet,
    shape,
    bundles,
    ...(bundleError ? { bundleError } : {}),
    timings,
  };
  const section = renderCostReport(results);
  if (o.write) {
    const doc = readFileSync(DOC, 'utf8');
    const begin = '<!-- cost-results:begin -->';
    const end = '<!-- cost-results:end -->';
    const a = doc.indexOf(begin);
    const b = doc.indexOf(end);
    if (a < 0 || b < a) throw new Error(`docs/cost.md has no ${begin} … ${end} section to write the results into`);
    writeFileSync(DOC, `${doc.slice(0, a + begin.length)}\n${section}\n${doc.slice(b)}`);
    console.log('   wrote docs/cost.md');
  } else {
    console.log(`\n${section}\n(--quick: docs/cost.md left unchanged)`);
  }
  // The figures live in docs/cost.md only (nothing for BENCHMARKS.md).
  return [];
}
