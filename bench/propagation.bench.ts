/**
 * Issue 6: Works reach members. Everything runs as `npm start` runs it — the local control plane on
 * dynalite and fauxqs with every controller, and simulated members each serving the Kubernetes API
 * over HTTPS in this process.
 * - Work fan-out: Works written to the store and handed to the executor; Works/s until every member
 *   object exists (Karmada's execution controller: ~200 Works/s, #7062).
 * - Template → member latency: a user's change through the API until the member object shows it
 *   (detector → scheduler → binder → executor → member), idle system.
 * - The priority path under load: the same with 5,000 messages pending on the standard queues, next to
 *   the same change sent on the standard lane (priority disabled).
 */
import { SqsQueueAdmin } from '../lib/adapters/sqs/queue-admin.ts';
import { createSqsClient } from '../lib/adapters/sqs/transport.ts';
import type { KubeObject } from '../lib/api/object.ts';
import { formatKey, refOf } from '../lib/api/object.ts';
import { WORK } from '../lib/api/karmada-names.ts';
import { MemberClient } from '../lib/members/client.ts';
import { listAll } from '../lib/store/list-all.ts';
import { fanBinding, fanTemplate, fanWork } from './fanout.ts';
import type { Lane } from '../lib/queue/port.ts';
import { median, percentile, runConcurrent, type Measurement } from './harness.ts';
import {
  apiClient,
  benchTimings,
  conditionTrue,
  memberNames,
  membersReady,
  namespaceOnMembers,
  simulatedMembers,
  describePlaneCpu,
  measurePlaneCpu,
  sleep,
  until,
  startBenchPlane,
} from './local-plane.ts';

const GROUP = 'Works to members (issue 6)';
const NODE = { cpu: '64', memory: '256Gi', pods: '1000', 'ephemeral-storage': '100Gi' };
const TIMINGS = benchTimings(10_000, 30_000);
function configMap(name: string, value: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'bench' }, data: { value } } as KubeObject;
}

export async function benchPropagation(options: {
  clusters: number;
  templates: number;
  latencySamples: number;
  /** Samples under load (each waits for a 5,000-message backlog to drain). */
  loadSamples: number;
  backlog: number;
}): Promise<Measurement[]> {
  const names = memberNames(options.clusters);
  const simulation = simulatedMembers(options.clusters, NODE);
  const rt = await startBenchPlane({
    simulation,
    clusterTimings: TIMINGS,
  });
  const api = apiClient(rt);
  const store = rt.runtime.store;
  const sqs = createSqsClient({ region: 'us-east-1', endpoint: rt.endpoints.sqs });
  const admin = new SqsQueueAdmin(sqs);
  /** Messages in these queues, visible or in flight (delayed ones not counted). */
  const depth = async (queues: readonly { url: string }[]) => {
    let n = 0;
    for (const q of queues) n += await admin.depth(q.url);
    return n;
  };
  try {
    await membersReady(rt, names.length);
    // The namespace reaches every member by auto-propagation.
    await api.send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    await namespaceOnMembers(rt, 'bench');

    // ---- Work fan-out: Works straight to the executor -------------------------------------------
    const total = options.templates * names.length;
    const works = Array.from({ length: options.templates }, (_, t) => names.map((c) => fanWork(t, c))).flat();
    // What the fan-out costs: store writes by kind (every write of this process reaches the change
    // feed; the bench's own creates left out) and requests to members, from before the first Work is
    // created (member syncs start applying them at once) until every Work reported Applied.
    const writes = new Map<string, number>();
    const stopCounting = rt.changes.onChange((e) => {
      if (e.type === 'ADDED' && ['Work', 'ResourceBinding', 'ConfigMap'].includes(e.object.kind)) return;
      writes.set(e.object.kind, (writes.get(e.object.kind) ?? 0) + 1);
    });
    const requestsBefore = MemberClient.sent.requests;
    const memberWritesBefore = MemberClient.sent.writes;
    await runConcurrent(options.templates, 32, async (t) => store.create(fanTemplate(t)));
    await runConcurrent(options.templates, 32, async (t) => store.create(fanBinding(t, names)));
    await runConcurrent(works.length, 32, async (i) => store.create(works[i]!));
    const count = async () => {
      let n = 0;
      for (const m of rt.members.values())
        n += (await m.store.listRefs({ group: '', kind: 'ConfigMap', namespace: 'bench', limit: 100_000 })).items
          .length;
      return n;
    };
    const fanStarted = performance.now();
    const endCpu = measurePlaneCpu(rt);
    await rt.runtime.workQueue.enqueue(
      works.map((w) => ({
        controller: 'executor',
        lane: 'standard' as Lane,
        key: formatKey(refOf(w)),
        reason: 'bench',
      })),
    );
    await until('every Work applied on its member', async () => (await count()) >= total, 600_000, 100);
    const fanRate = total / ((performance.now() - fanStarted) / 1000);
    const fanCpu = endCpu();
    // The counts cover the fan-out's own writes: every Work reports Applied, then its batch's Events.
    await until(
      'every Work reported Applied',
      async () => {
        let applied = 0;
        for (const name of names)
          for (const w of await listAll(store, { ...WORK, cluster: name })) if (conditionTrue(w, 'Applied')) applied++;
        return applied >= total;
      },
      300_000,
      500,
    );

    // ---- Template → member latency through the whole pipeline -----------------------------------
    // Idle means idle: the fan-out's aftermath (status reports, member syncs of 3,000 objects) done first.
    await until('the fan-out settled', async () => (await depth(rt.queues)) < 20, 300_000, 500);
    // Everything the fan-out set off has run (its batches' Events included): the counts stop here.
    stopCounting();
    await sleep(TIMINGS.statusUpdateFrequencyMs);
    const memberRequests = (MemberClient.sent.requests - requestsBefore) / total;
    const memberWrites = (MemberClient.sent.writes - memberWritesBefore) / total;
    const workWrites = (writes.get('Work') ?? 0) / total;
    const eventWrites = (writes.get('Event') ?? 0) / total;
    const others = [...writes].filter(([k]) => k !== 'Work' && k !== 'Event').sort((a, b) => b[1] - a[1]);
    const otherWrites = others.reduce((n, [, v]) => n + v, 0) / total;
    const otherKinds = others.map(([k, v]) => `${k} ${(v / total).toFixed(2)}: ${v} writes`).join(', ');
    await api.send('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/bench/propagationpolicies', {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'latency', namespace: 'bench' },
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'latency' }],
        placement: { clusterAffinity: { clusterNames: [names[0]!] } },
      },
    });
    const member = rt.members.get(names[0]!)!;
    const memberValue = async () =>
      (
        (await member.store.get({ group: '', kind: 'ConfigMap', namespace: 'bench', name: 'latency' })) as
          (KubeObject & { data?: { value?: string } }) | undefined
      )?.data?.value;
    const write = (value: string) => api.apply(configMap('latency', value), 'bench');
    await write('warm');
    await until('the latency template on its member', async () => (await memberValue()) === 'warm', 60_000, 5);
    const sample = async (value: string, send: (value: string) => Promise<unknown>) => {
      const started = performance.now();
      await send(value);
      await until(`value ${value} on the member`, async () => (await memberValue()) === value, 120_000, 2);
      return performance.now() - started;
    };
    const idle: number[] = [];
    for (let i = 0; i < options.latencySamples; i++) {
      idle.push(await sample(`idle-${i}`, write));
      await sleep(20);
    }

    // ---- Priority path under a standard-queue backlog -------------------------------------------
    // The backlog: re-examine every template and binding and re-check every Work (what a resync or a
    // restart enqueues), spread over the detector, binder and executor standard queues.
    const keys = works.map((w) => formatKey(refOf(w)));
    const bindingKeys = Array.from({ length: options.templates }, (_, t) =>
      formatKey({ group: '', kind: 'ConfigMap', namespace: 'bench', name: `fan-${t}` }),
    );
    const backlog = async () => {
      const items = Array.from({ length: options.backlog }, (_, i) =>
        i % 2 === 0
          ? { controller: 'executor', lane: 'standard' as Lane, key: keys[i % keys.length]!, reason: 'backlog' }
          : {
              controller: 'detector',
              lane: 'standard' as Lane,
              key: bindingKeys[i % bindingKeys.length]!,
              reason: 'backlog',
            },
      );
      await rt.runtime.workQueue.enqueue(items);
    };
    const standardQueues = rt.queues.filter((q) => q.lane === 'standard');
    const pending = async () => {
      const n = await depth(standardQueues);
      // Delayed messages (retries, sweeps) are not a backlog.
      return n > 50 ? n : 0;
    };
    const underLoad = async (lane: Lane, label: string) => {
      const out: number[] = [];
      for (let i = 0; i < options.loadSamples; i++) {
        await backlog();
        // The user's change: written as the API writes it, then handed to the detector on `lane`
        // (the API uses the priority lane; "disabled" sends it where the backlog is).
        out.push(
          await sample(`${label}-${i}`, async (value) => {
            const current = await store.get({ group: '', kind: 'ConfigMap', namespace: 'bench', name: 'latency' });
            await store.update({ ...current!, data: { value } } as KubeObject);
            await rt.runtime.workQueue.enqueue([
              {
                controller: 'detector',
                lane,
                key: formatKey({ group: '', kind: 'ConfigMap', namespace: 'bench', name: 'latency' }),
                reason: 'api-update',
              },
            ]);
          }),
        );
        // The next sample starts with a full backlog again.
        await until('the backlog drained', async () => (await pending()) === 0, 600_000, 200);
      }
      return out;
    };
    console.log(
      `   fan-out ${Math.round(fanRate)} Works/s; idle latency p50 ${median(idle).toFixed(0)} ms, p99 ${percentile(idle, 99).toFixed(0)} ms`,
    );
    const withPriority = await underLoad('priority', 'prio');
    console.log(`   under load, priority lane: p99 ${percentile(withPriority, 99).toFixed(0)} ms`);
    const withoutPriority = await underLoad('standard', 'std');

    const note = `${names.length} simulated members`;
    return [
      {
        id: 'propagation-fanout-works',
        group: GROUP,
        what: `Work fan-out: ${total.toLocaleString('en-US')} Works (${options.templates} ConfigMaps × ${names.length} members) applied by the executor on simulated members over HTTPS (server-side apply)`,
        unit: 'Works/s',
        median: fanRate,
        trials: [fanRate],
        higherIsBetter: true,
        note: 'Karmada ~200/s (#7062); target ≥ 1,000/s on dynalite',
      },
      {
        id: 'propagation-fanout-cpu',
        group: GROUP,
        what: "CPU of the control plane's process per Work in the fan-out (members' thread included)",
        unit: 'ms',
        median: fanCpu.processMs / total,
        trials: [fanCpu.processMs / total],
        higherIsBetter: false,
        note: `${describePlaneCpu(fanCpu, total, 'Work')}; the members answer from their own thread in this process`,
      },
      {
        id: 'propagation-fanout-store-writes',
        group: GROUP,
        what: 'store writes per new Work in the fan-out (the Work’s status, Events, anything else; the Work’s own create is the bench’s)',
        unit: 'writes',
        median: workWrites + eventWrites + otherWrites,
        trials: [workWrites + eventWrites + otherWrites],
        higherIsBetter: false,
        note: `${(workWrites + eventWrites + otherWrites).toFixed(3)}: Work status ${workWrites.toFixed(2)}, Event ${eventWrites.toFixed(2)} (${writes.get('Event') ?? 0} writes for ${options.templates} bindings), other ${otherWrites.toFixed(2)}${otherKinds ? ` (${otherKinds})` : ''}; target ≤ 1.2 (with the create: ≤ 2.2)`,
      },
      {
        id: 'propagation-fanout-member-requests',
        group: GROUP,
        what: 'member requests per new Work in the fan-out (discovery, applies, adoption checks, probes and syncs in the window)',
        unit: 'requests',
        median: memberRequests,
        trials: [memberRequests],
        higherIsBetter: false,
        note: `of which writes (create, apply, patch) ${memberWrites.toFixed(2)}, reads ${(memberRequests - memberWrites).toFixed(2)} (probes’ discovery every 10 s, member syncs’ lists, adoption checks); target ≤ 1.1; before this change 2 (a GET for the adoption check, then the apply)`,
      },
      {
        id: 'propagation-latency-p50',
        group: GROUP,
        what: `template → member, idle: API write to the member object changed (detector → scheduler → binder → executor), p50 of ${idle.length}`,
        unit: 'ms',
        median: median(idle),
        trials: idle,
        higherIsBetter: false,
        note,
      },
      {
        id: 'propagation-latency-p99',
        group: GROUP,
        what: `template → member, idle, p99 of ${idle.length}`,
        unit: 'ms',
        median: percentile(idle, 99),
        trials: [percentile(idle, 99)],
        higherIsBetter: false,
        note: 'Karmada push P99 1.3 s; target < 300 ms',
      },
      {
        id: 'propagation-priority-p99',
        group: GROUP,
        what: `user change with ${options.backlog.toLocaleString('en-US')} standard messages pending (priority lane), p99 of ${withPriority.length}`,
        unit: 'ms',
        median: percentile(withPriority, 99),
        trials: withPriority,
        higherIsBetter: false,
        note: 'target < 1 s',
      },
      {
        id: 'propagation-nopriority-p99',
        group: GROUP,
        what: `the same change sent on the standard lane (priority disabled), p99 of ${withoutPriority.length}`,
        unit: 'ms',
        median: percentile(withoutPriority, 99),
        trials: withoutPriority,
        higherIsBetter: false,
        note: 'for comparison',
      },
    ];
  } finally {
    api.close();
    sqs.destroy();
    await rt.stop();
  }
}
