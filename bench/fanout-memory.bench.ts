/**
 * Work fan-out without the emulators: the executor (same controller, handler and runner) on the
 * in-memory row store and queues, with the CPU per Work, store writes per Work and member requests
 * per Work counted. Members either
 * - in this process, answering through their API handler (no HTTPS, no worker): every CPU cycle of
 *   the run is on one thread, members included; or
 * - in their worker thread over loopback HTTPS, as local mode runs them: this thread runs the
 *   executor, the store and the HTTPS client — what a Lambda function would run — and the members
 *   answer on the other core, as real members answer on other machines.
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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemberThread } from '../lib/sim/member-thread.ts';
import { ensureLocalPki, tlsServerOptions } from '../lib/pki/index.ts';

const GROUP = 'Works to members (issue 6)';
const NODE = { cpu: '64', memory: '256Gi', pods: '1000', 'ephemeral-storage': '100Gi' };

export async function benchFanoutInMemory(options: {
  clusters: number;
  templates: number;
  trials: number;
  /** Where the simulated members run (default: in this process). */
  members?: 'in-process' | 'worker';
}): Promise<Measurement[]> {
  const inWorker = options.members === 'worker';
  const logger = createLogger({ format: 'json', level: 'SILENT', service: 'bench', write: () => {} });
  const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } } as KubeObject;
  const rates: number[] = [];
  const cpu: number[] = [];
  const writes: number[] = [];
  const requests: number[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
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
      const members = new Map<string, { client: MemberClient }>();
      const dir = inWorker ? mkdtempSync(join(tmpdir(), 'sk-fanout-')) : undefined;
      const pki = dir ? await ensureLocalPki(join(dir, 'pki'), { now: Date.now() }) : undefined;
      const thread = inWorker
        ? MemberThread.spawn({ logFormat: 'json', logLevel: 'SILENT', logWrite: () => {}, logger })
        : undefined;
      closers.push(async () => {
        for (const m of members.values()) m.client.close();
        await thread?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });
      for (const config of configs.members) {
        const name = config.name;
        const timings = { podStartupMs: configs.podStartupMs, jobDurationMs: configs.jobDurationMs };
        if (thread && pki && dir) {
          const member = await thread.start({
            config,
            timings,
            tls: tlsServerOptions(pki),
            caCertPem: pki.ca.certPem,
            port: 0,
            kubeconfigPath: join(dir, `${name}.kubeconfig`),
          });
          await member.store.create(NAMESPACE);
          members.set(name, {
            client: new MemberClient({ server: member.url, caPem: pki.ca.certPem, token: member.token }),
          });
        } else {
          const member = await SimulatedMember.inProcess({
            config,
            timings,
            clock: systemClock,
            token: `token-${name}`,
          });
          await member.store.create(NAMESPACE);
          members.set(name, {
            client: member.client({ server: `https://${name}.invalid`, token: `token-${name}` }, () => Date.now()),
          });
        }
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
      for (const close of closers.splice(0)) await close();
    }
  } finally {
    for (const close of closers.splice(0)) await close();
  }
  const total = options.templates * options.clusters;
  const id = inWorker ? 'propagation-fanout-memory-worker' : 'propagation-fanout-memory';
  const where = inWorker
    ? 'members in their worker thread over loopback HTTPS (as local mode runs them)'
    : 'members in process (their API handler, no HTTPS)';
  return [
    {
      id: `${id}-works`,
      group: GROUP,
      what: `Work fan-out without the emulators: ${total.toLocaleString('en-US')} Works (${options.templates} ConfigMaps × ${options.clusters} members), the executor on the in-memory row store and queues, ${where}`,
      unit: 'Works/s',
      median: median(rates),
      trials: rates,
      higherIsBetter: true,
      note: inWorker
        ? 'this thread runs what a Lambda function would (executor, store, HTTPS client); target ≥ 3,000/s'
        : 'the members’ API runs on the same thread; target ≥ 3,000/s',
    },
    {
      id: `${id}-cpu`,
      group: GROUP,
      what: inWorker
        ? 'CPU per new Work in that run, both threads (this one and the members’)'
        : 'process CPU per new Work in that run (executor, store codec, queues, and the members answering)',
      unit: 'ms',
      median: median(cpu),
      trials: cpu,
      higherIsBetter: false,
      note: 'the member side is included',
    },
    {
      id: `${id}-writes`,
      group: GROUP,
      what: 'store writes per new Work in that run (status, Events; the Work’s create is the bench’s)',
      unit: 'writes',
      median: median(writes),
      trials: writes,
      higherIsBetter: false,
      note: 'target ≤ 1.2',
    },
    {
      id: `${id}-member-requests`,
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
