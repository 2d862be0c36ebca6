/**
 * Issue 14: application failover, run as `npm start` runs it — the local control plane on dynalite and
 * fauxqs with every controller, and simulated members serving the Kubernetes API over HTTPS.
 *
 * One Deployment at a time (1 replica, `failover.application` with `tolerationSeconds: 2`, purge mode
 * Directly, on one of three members) is made unhealthy on its member (`skctl sim unhealthy`'s effect:
 * its pods crash-loop). From the end of its toleration window — the stored first-unhealthy time plus
 * tolerationSeconds — until its new copy is (a) applied and (b) running (ready) on another member: the
 * failover overhead beyond the configured duration. It includes deleting the old copy first (Directly)
 * and the simulated pod start-up (`podStartupMs` 50 ms), not the time to notice the workload is
 * unhealthy (status collection), which happens before the window starts.
 */
import type { KubeObject } from '../lib/api/object.ts';
import { RESOURCE_BINDING } from '../lib/api/karmada-names.ts';
import { healthTimerRefOf } from '../lib/controllers/application-failover.ts';
import { median, percentile, type Measurement } from './harness.ts';
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

const GROUP = 'Application failover (issue 14)';
const NODE = { cpu: '64', memory: '256Gi', pods: '1000', 'ephemeral-storage': '100Gi' };
const TIMINGS = benchTimings(2_000);
const TOLERATION_SECONDS = 2;

type Binding = KubeObject & { spec: { clusters?: { name: string }[] } };

export async function benchApplicationFailover(options: { runs: number; clusters: number }): Promise<Measurement[]> {
  const names = memberNames(options.clusters);
  const rt = await startBenchPlane({
    simulation: simulatedMembers(options.clusters, NODE),
    clusterTimings: TIMINGS,
  });
  const api = apiClient(rt, 60_000);
  const store = rt.runtime.store;
  const applied: number[] = [];
  const running: number[] = [];
  try {
    await membersReady(rt, names.length, 600_000);
    await api.send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
    await namespaceOnMembers(rt, 'apps', 600_000);
    await api.send('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/apps/propagationpolicies', {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'apps', namespace: 'apps' },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        propagateDeps: true,
        placement: {
          clusterAffinity: { clusterNames: names },
          spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 1, minGroups: 1 }],
        },
        failover: {
          application: { decisionConditions: { tolerationSeconds: TOLERATION_SECONDS }, purgeMode: 'Directly' },
        },
      },
    });
    for (let i = 0; i < options.runs + 1; i++) {
      const name = `app-${i}`;
      await api.send('POST', '/apis/apps/v1/namespaces/apps/deployments', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
          },
        },
      });
      const bindingRef = { ...RESOURCE_BINDING, namespace: 'apps', name: `${name}-deployment` };
      const deployment = { group: 'apps', kind: 'Deployment', namespace: 'apps', name };
      let from = '';
      await until(
        'healthy on its member',
        async () => {
          const b = (await store.get(bindingRef)) as
            (Binding & { status?: { aggregatedStatus?: { health?: string }[] } }) | undefined;
          from = b?.spec.clusters?.[0]?.name ?? '';
          return Boolean(from) && b?.status?.aggregatedStatus?.[0]?.health === 'Healthy';
        },
        120_000,
        50,
      );
      // A new Deployment is Unhealthy until its pods are ready, which opens a window too: wait for
      // that one to close, so the window measured is the one the fault opens.
      await until(
        'the roll-out window closed',
        async () => !(await store.get(healthTimerRefOf(bindingRef))),
        120_000,
        20,
      );
      rt.members.get(from)!.markUnhealthy(deployment);
      let since: number | undefined;
      await until(
        'the toleration window started',
        async () => {
          const timer = await store.get(healthTimerRefOf(bindingRef));
          const text = (timer?.spec as { unhealthySince?: Record<string, string> } | undefined)?.unhealthySince?.[from];
          since = text ? Date.parse(text) : undefined;
          return since !== undefined;
        },
        120_000,
        20,
      );
      const dueAt = since! + TOLERATION_SECONDS * 1000;
      let appliedAt: number | undefined;
      await until(
        'the new copy running on another member',
        async () => {
          const b = (await store.get(bindingRef)) as Binding | undefined;
          const to = b?.spec.clusters?.[0]?.name;
          if (!to || to === from) return false;
          const copy = await rt.members.get(to)!.store.get(deployment);
          if (!copy) return false;
          appliedAt ??= Date.now();
          return ((copy.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0) >= 1;
        },
        120_000,
        20,
      );
      rt.members.get(from)!.markHealthy(deployment);
      // The first run warms the plane up (code paths, connections): not counted.
      if (i === 0) continue;
      applied.push(appliedAt! - dueAt);
      running.push(Date.now() - dueAt);
    }
  } finally {
    api.close();
    await rt.stop();
  }
  const setup = `${options.runs} runs, ${options.clusters} members, tolerationSeconds ${TOLERATION_SECONDS}, Directly`;
  return [
    {
      id: 'application-failover-applied',
      group: GROUP,
      what: 'toleration window ends → new copy applied on another member (p50)',
      unit: 'ms',
      median: median(applied),
      trials: applied,
      higherIsBetter: false,
      note: `p95 ${Math.round(percentile(applied, 95))} ms; ${setup}; the old copy is deleted first`,
    },
    {
      id: 'application-failover-running',
      group: GROUP,
      what: 'toleration window ends → new copy running (ready) on another member (p50)',
      unit: 'ms',
      median: median(running),
      trials: running,
      higherIsBetter: false,
      note: `p95 ${Math.round(percentile(running, 95))} ms; target < 2,000 ms; includes the simulated pod start (50 ms)`,
    },
  ];
}
