/**
 * Issue 15: FederatedResourceQuota, run as `npm start` runs it — the local control plane on dynalite and
 * fauxqs with every controller, and simulated members.
 *
 * N Deployments (1 replica, 1m cpu) in one namespace with a FederatedResourceQuota, all placed (each
 * placement charged to the quota). Then, one at a time, a Deployment is scaled 1 → 2: the time until
 * the quota's `status.overallUsed` shows it, and the store writes of that change, from the store's
 * change feed — the quota's status writes and all writes. Karmada recomputes `overallUsed` by listing
 * every ResourceBinding of the namespace (its enforcement controller, on a binding deletion or quota
 * change, and every 5 minutes) and its webhook writes the quota on each change; here a change is
 * charged by the scheduler with one conditional write of the quota, and nothing lists the namespace.
 */
import { FEDERATED_RESOURCE_QUOTA, RESOURCE_BINDING } from '../lib/api/karmada-names.ts';
import type { KubeObject } from '../lib/api/object.ts';
import { chargedUsageOf, chargesInFlightOf, type ResourceBinding } from '../lib/core/index.ts';
import { listAll } from '../lib/store/list-all.ts';
import { median, percentile, runConcurrent, type Measurement } from './harness.ts';
import {
  apiClient,
  benchTimings,
  memberNames,
  membersReady,
  namespaceOnMembers,
  simulatedMembers,
  until,
  startBenchPlane,
} from './local-plane.ts';

const GROUP = 'FederatedResourceQuota (issue 15)';
const NODE = { cpu: '100000', memory: '100Ti', pods: '1000000', 'ephemeral-storage': '100Gi' };
const TIMINGS = benchTimings();

export async function benchQuota(options: { bindings: number; samples: number }): Promise<Measurement[]> {
  const names = memberNames(1);
  const rt = await startBenchPlane({
    simulation: simulatedMembers(1, NODE),
    clusterTimings: TIMINGS,
  });
  const api = apiClient(rt, 60_000);
  const store = rt.runtime.store;
  const quotaRef = { ...FEDERATED_RESOURCE_QUOTA, namespace: 'quota', name: 'team' };
  const podsOf = (quota: KubeObject | undefined) =>
    Number((quota?.status as { overallUsed?: Record<string, string> } | undefined)?.overallUsed?.pods ?? 0);
  const podsUsed = async () => podsOf(await store.get(quotaRef));
  /** Replicas placed over the namespace's bindings, and how many bindings are placed. */
  const placement = async () => {
    const bindings = await listAll(store, { ...RESOURCE_BINDING, namespace: 'quota' });
    const placed = bindings.map((b) =>
      ((b.spec as { clusters?: { replicas?: number }[] }).clusters ?? []).reduce((a, c) => a + (c.replicas ?? 0), 0),
    );
    return { replicas: placed.reduce((a, b) => a + b, 0), bindings: placed.filter((r) => r > 0).length };
  };
  /**
   * Whether the quota holds `binding`'s charge for `pods` pods: its charge-in-flight record, written in
   * the same conditional write as `overallUsed`, or — once that record is settled — the binding's own
   * record, written after the quota's. Not the namespace's total: any other change to it (a late
   * placement, a recount healing an earlier charge) would hide this one or stand in for it.
   */
  const holdsCharge = async (binding: string, pods: number) => {
    const quota = await store.get(quotaRef);
    const record = quota && chargesInFlightOf(quota)[binding];
    if (record) return Number(record.usage['pods'] ?? 0) === pods;
    const shown = (await store.get({ ...RESOURCE_BINDING, namespace: 'quota', name: binding })) as
      ResourceBinding | undefined;
    return shown !== undefined && Number(chargedUsageOf(shown)['pods'] ?? 0) === pods;
  };
  const latencies: number[] = [];
  const quotaWrites: number[] = [];
  const allWrites: number[] = [];
  let fillSeconds: number;
  let exact: string;
  try {
    await membersReady(rt, names.length, 600_000);
    await api.send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quota' } });
    await namespaceOnMembers(rt, 'quota', 600_000);
    await api.send('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/quota/federatedresourcequotas', {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'FederatedResourceQuota',
      metadata: { name: 'team', namespace: 'quota' },
      spec: { overall: { cpu: '100000', pods: '1000000' } },
    });
    await api.send('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/quota/propagationpolicies', {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'all', namespace: 'quota' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        placement: { clusterAffinity: { clusterNames: names } },
      },
    });
    const deployment = (name: string, replicas: number) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'quota' },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1m' } } }] },
        },
      },
    });
    const started = Date.now();
    await runConcurrent(options.bindings, 16, (i) =>
      api.send('POST', '/apis/apps/v1/namespaces/quota/deployments', deployment(`d${i}`, 1)),
    );
    await until(
      `${options.bindings} placements charged`,
      async () => (await podsUsed()) >= options.bindings,
      1_800_000,
      1000,
    );
    // Every binding placed, and the quota holding exactly that (a charge about to be reverted can make
    // the total reach the count early).
    await until(
      `${options.bindings} bindings placed and charged exactly`,
      async () => {
        const now = await placement();
        return now.bindings === options.bindings && now.replicas === (await podsUsed());
      },
      600_000,
      1000,
    );
    fillSeconds = (Date.now() - started) / 1000;
    const bindings = (await store.list({ ...RESOURCE_BINDING, namespace: 'quota', limit: 1 })).items.length;
    if (bindings === 0) throw new Error('no bindings');

    for (let i = 0; i < options.samples; i++) {
      const before = await podsUsed();
      const writes = new Map<string, number>();
      const stop = rt.changes.onChange((e) => writes.set(e.object.kind, (writes.get(e.object.kind) ?? 0) + 1));
      const at = Date.now();
      await api.send(
        'PATCH',
        `/apis/apps/v1/namespaces/quota/deployments/d${i}`,
        { spec: { replicas: 2 } },
        { contentType: 'application/merge-patch+json' },
      );
      const binding = `d${i}-deployment`;
      try {
        await until('the quota shows the scale-up', () => holdsCharge(binding, 2), 60_000, 10);
      } catch (err) {
        const shown = (await store.get({ ...RESOURCE_BINDING, namespace: 'quota', name: binding })) as
          ResourceBinding | undefined;
        throw new Error(
          `${(err as Error).message}: ${binding} has spec.replicas ${shown?.spec.replicas}, placed ${JSON.stringify(shown?.spec.clusters)}, charged ${JSON.stringify(shown && chargedUsageOf(shown))}; overallUsed pods ${before} before, ${await podsUsed()} now`,
          { cause: err },
        );
      }
      latencies.push(Date.now() - at);
      // Let the change settle (binder, executor, member status) before counting its writes.
      await new Promise((r) => setTimeout(r, 1_500));
      stop();
      quotaWrites.push(writes.get('FederatedResourceQuota') ?? 0);
      allWrites.push([...writes.values()].reduce((a, b) => a + b, 0));
    }
    const end = await placement();
    const used = await podsUsed();
    exact =
      used === end.replicas
        ? `afterwards overallUsed pods = placed replicas = ${used}`
        : `afterwards overallUsed pods ${used} but ${end.replicas} replicas placed`;
  } finally {
    api.close();
    await rt.stop();
  }
  const n = options.bindings.toLocaleString('en-US');
  return [
    {
      id: 'quota-fill',
      group: GROUP,
      what: `${n} Deployments created and placed, each charged to one quota (fill rate)`,
      unit: 'bindings/s',
      median: options.bindings / fillSeconds,
      trials: [options.bindings / fillSeconds],
      higherIsBetter: true,
      note: `${Math.round(fillSeconds)} s for ${n}; every placement is one conditional write of the same quota`,
    },
    {
      id: 'quota-usage-latency',
      group: GROUP,
      what: `scale one Deployment 1 → 2 with ${n} bindings in the namespace → quota overallUsed updated (p50)`,
      unit: 'ms',
      median: median(latencies),
      trials: latencies,
      higherIsBetter: false,
      note: `p95 ${Math.round(percentile(latencies, 95))} ms; ${options.samples} changes; ${exact}`,
    },
    {
      id: 'quota-writes-per-change',
      group: GROUP,
      what: 'quota status writes per binding change',
      unit: 'writes',
      median: median(quotaWrites),
      trials: quotaWrites,
      higherIsBetter: false,
      note: `all store writes per change (template, binding, Work, Events, member status): median ${median(allWrites)}; Karmada's enforcement controller lists all ${n} bindings of the namespace on each binding deletion and every 5 min — here no change lists them`,
    },
  ];
}
