/**
 * Work fan-out without the emulators: the executor (same controller, handler and runner) on the
 * in-memory row store and queues, members in this process answering through their API handler (no
 * HTTPS, no worker): the upper bound our own code allows on this machine, with the process CPU per
 * Work, store writes per Work and member requests per Work counted.
 */
import type { KubeObject } from '../lib/api/object.ts';
import { formatKey, refOf } from '../lib/api/object.ts';
import { systemClock } from '../lib/clock/clock.ts';
import { createExecutorController } from '../lib/controllers/executor.ts';
import { controllerSpec, EXECUTOR_CONTROLLER_NAME } from '../lib/controllers/specs.ts';
import type { CredentialCipher } from '../lib/crypto/cipher.ts';
import { StoreEventRecorder } from '../lib/events/recorder.ts';
import { MemberClient } from '../lib/members/client.ts';
import { createLogger } from '../lib/observability/logger.ts';
import type { Lane } from '../lib/queue/port.ts';
import { SimulatedMember } from '../lib/sim/member.ts';
import { MemoryRowStore } from '../lib/store/memory-rows.ts';
import { RowObjectStore } from '../lib/store/row-object-store.ts';
import { type Measurement, median, runConcurrent } from './harness.ts';
import { simulatedMembers } from './local-plane.ts';
import { fanBinding, fanWork } from './fanout.ts';
import { delegatingStore } from '../test/sim/delegating-store.ts';
import { controllerInMemory } from './pipeline.ts';

const GROUP = 'Works to members (issue 6)';
const NODE = { cpu: '64', memory: '256Gi', pods: '1000', 'ephemeral-storage': '100Gi' };

export async function benchFanoutInMemory(options: {
  clusters: number;
  templates: number;
  trials: number;
}): Promise<Measurement[]> {
  const rates: number[] = [];
  const cpu: number[] = [];
  const writes: number[] = [];
  const requests: number[] = [];
  for (let trial = 0; trial < options.trials; trial++) {
    const inner = new RowObjectStore(new MemoryRowStore(), { clock: systemClock });
    let written = 0;
    const count = <T>(p: Promise<T>) => p.then((v) => (written++, v));
    const store = delegatingStore(inner, {
      create: (o, w) => count(inner.create(o, w)),
      update: (o, w) => count(inner.update(o, w)),
      updateStatus: (o, w) => count(inner.updateStatus(o, w)),
      updateWithStatus: (o, w) => count(inner.updateWithStatus(o, w)),
      delete: (r, w) => count(inner.delete(r, w)),
    });
    const configs = simulatedMembers(options.clusters, NODE);
    const names = configs.members.map((m) => m.name);
    const members = new Map<string, { member: SimulatedMember; client: MemberClient }>();
    for (const config of configs.members) {
      const name = config.name;
      const member = await SimulatedMember.inProcess({
        config,
        timings: { podStartupMs: configs.podStartupMs, jobDurationMs: configs.jobDurationMs },
        clock: systemClock,
        token: `token-${name}`,
      });
      await member.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } } as KubeObject);
      members.set(name, {
        member,
        client: member.client({ server: `https://${name}.invalid`, token: `token-${name}` }, () => Date.now()),
      });
      const cluster = await inner.create({
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec: { syncMode: 'Push', apiEndpoint: `https://${name}.invalid` },
      } as KubeObject);
      await inner.updateStatus({
        ...cluster,
        status: { conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'ok' }] },
      });
    }
    const works = Array.from({ length: options.templates }, (_, t) => names.map((c) => fanWork(t, c))).flat();
    await runConcurrent(options.templates, 32, async (t) => inner.create(fanBinding(t)));
    await runConcurrent(works.length, 32, async (i) => inner.create(works[i]!));
    const logger = createLogger({ format: 'json', level: 'SILENT', service: 'bench', write: () => {} });
    const spec = controllerSpec(EXECUTOR_CONTROLLER_NAME);
    const { workQueue, runner, controller } = controllerInMemory(spec, (queue) =>
      createExecutorController({
        store,
        workQueue: queue,
        cipher: {} as CredentialCipher,
        events: new StoreEventRecorder({ store, clock: systemClock, component: 'execution-controller', logger }),
        memberFor: async (c) => members.get(c.metadata.name!)!.client,
      }),
    );
    await workQueue.enqueue(
      works.map((w) => ({
        controller: EXECUTOR_CONTROLLER_NAME,
        lane: 'standard' as Lane,
        key: formatKey(refOf(w)),
        reason: 'bench',
      })),
    );
    written = 0;
    const requestsBefore = MemberClient.sent.requests;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    runner.start();
    const deadline = Date.now() + 600_000;
    while (controller.stats.applied < works.length) {
      if (Date.now() > deadline) throw new Error('in-memory fan-out benchmark timed out');
      await new Promise((r) => setTimeout(r, 5));
    }
    rates.push(works.length / ((performance.now() - started) / 1000));
    const used = process.cpuUsage(cpuBefore);
    await runner.stop();
    cpu.push((used.user + used.system) / 1000 / works.length);
    writes.push(written / works.length);
    requests.push((MemberClient.sent.requests - requestsBefore) / works.length);
  }
  const total = options.templates * options.clusters;
  return [
    {
      id: 'propagation-fanout-memory-works',
      group: GROUP,
      what: `Work fan-out without the emulators: ${total.toLocaleString('en-US')} Works (${options.templates} ConfigMaps × ${options.clusters} members), the executor on the in-memory row store and queues, members in process (their API handler, no HTTPS)`,
      unit: 'Works/s',
      median: median(rates),
      trials: rates,
      higherIsBetter: true,
      note: 'the upper bound our code allows here (the members’ API runs on the same thread); target ≥ 3,000/s',
    },
    {
      id: 'propagation-fanout-memory-cpu',
      group: GROUP,
      what: 'process CPU per new Work in that run (executor, store codec, queues, and the members answering)',
      unit: 'ms',
      median: median(cpu),
      trials: cpu,
      higherIsBetter: false,
      note: 'the member side is included: it runs in this process',
    },
    {
      id: 'propagation-fanout-memory-writes',
      group: GROUP,
      what: 'store writes per new Work in that run (status, Events; the Work’s create is the bench’s)',
      unit: 'writes',
      median: median(writes),
      trials: writes,
      higherIsBetter: false,
      note: 'target ≤ 1.2',
    },
    {
      id: 'propagation-fanout-memory-member-requests',
      group: GROUP,
      what: 'member requests per new Work in that run (discovery included)',
      unit: 'requests',
      median: median(requests),
      trials: requests,
      higherIsBetter: false,
      note: 'target ≤ 1.1',
    },
  ];
}
