/**
 * What a real member cluster's controller manager, scheduler and kubelets do, in miniature, so
 * workloads propagated to a simulated member behave plausibly:
 * - Deployments, ReplicaSets, StatefulSets (ordered), DaemonSets and Jobs get Pods (workloads.ts);
 * - Pods are scheduled onto Ready nodes by their requests (first fit; `nodeSelector` honoured), and
 *   stay Pending with the scheduler's message when nothing fits — so ready replicas are bounded by
 *   node capacity (scheduler.ts);
 * - scheduled Pods start after `podStartupMs`; Job Pods succeed after `jobDurationMs` (kubelet.ts);
 * - workload status (replicas, ready, available, conditions) is computed from their Pods;
 * - custom resources of configured kinds get a status, e.g. a FlinkDeployment is RUNNING
 *   (custom-resources.ts);
 * - PodDisruptionBudgets get the disruption controller's status (disruption.ts);
 * - ResourceQuotas get the resource quota controller's `hard` and `used`, reported, not enforced
 *   (resource-quota.ts);
 * - Pods whose owner is gone are deleted (garbage-collector.ts);
 * - workloads marked unhealthy (unhealthy.ts) crash-loop their pods (kubelet.ts), or, for custom
 *   resources, report their kind's failed state (failure-status.ts).
 * One `tick()` reconciles everything; the member calls it when something changed or a timed
 * transition is due.
 */
import type { EventRecorder } from '../../events/recorder.ts';
import type { ObjectStore } from '../../store/port.ts';
import { SimContext, type SimTimings } from './context.ts';
import { reportCustomResources } from './custom-resources.ts';
import { reportDisruptionBudgets } from './disruption.ts';
import { collectOrphanPods } from './garbage-collector.ts';
import { progress } from './kubelet.ts';
import { reportResourceQuotas } from './resource-quota.ts';
import { schedule } from './scheduler.ts';
import { crashingPods, UnhealthyWorkloads } from './unhealthy.ts';
import { reconcilePods, WORKLOADS, writeStatus } from './workloads.ts';

export type { SimTimings } from './context.ts';
export { UnhealthyWorkloads, type WorkloadRef } from './unhealthy.ts';

const POD = { group: '', kind: 'Pod' } as const;

export class ClusterControllers {
  readonly #ctx: SimContext;
  readonly #crdStatus: Record<string, Record<string, unknown>>;
  readonly #crdKinds: () => Promise<{ group: string; kind: string }[]>;
  readonly #unhealthy: UnhealthyWorkloads;
  #quotas = true;

  constructor(options: {
    store: ObjectStore;
    now: () => number;
    timings: SimTimings;
    crdStatus: Record<string, Record<string, unknown>>;
    crdKinds: () => Promise<{ group: string; kind: string }[]>;
    /** Records Events as the named component (`default-scheduler`, `job-controller`, ...). */
    events?: (component: string) => EventRecorder;
    /** The workloads marked unhealthy; read on every pass (none when absent). */
    unhealthy?: UnhealthyWorkloads;
  }) {
    this.#ctx = new SimContext(options);
    this.#crdStatus = options.crdStatus;
    this.#crdKinds = options.crdKinds;
    this.#unhealthy = options.unhealthy ?? new UnhealthyWorkloads();
  }

  /** When the next timed transition (a pod starting, a job finishing) is due, if any. */
  get nextDue(): number | undefined {
    return this.#ctx.nextDue;
  }

  /** Whether the last pass found a ResourceQuota (quotas count ConfigMaps, Secrets, Services). */
  get hasQuotas(): boolean {
    return this.#quotas;
  }

  /** One reconcile pass over the whole cluster. */
  async tick(): Promise<void> {
    const ctx = this.#ctx;
    ctx.nextDue = undefined;
    const now = ctx.now();
    const nodes = await ctx.all({ group: '', kind: 'Node' });
    let pods = await ctx.all(POD);
    const workloads = (await Promise.all(WORKLOADS.map((gk) => ctx.all(gk)))).flat();

    pods = await collectOrphanPods(ctx, pods, workloads);

    for (const w of workloads) {
      if (w.metadata.deletionTimestamp) continue;
      const owned = pods.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.uid === w.metadata.uid));
      const changed = await reconcilePods(ctx, w, owned, nodes);
      if (changed) pods = await ctx.all(POD);
    }

    pods = await schedule(ctx, pods, nodes, now);
    pods = await progress(ctx, pods, now, crashingPods(this.#unhealthy, workloads));

    for (const w of workloads) {
      if (w.metadata.deletionTimestamp) continue;
      const owned = pods.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.uid === w.metadata.uid));
      await writeStatus(ctx, w, owned, nodes, now);
    }
    await reportDisruptionBudgets(ctx, pods, now);
    this.#quotas = await reportResourceQuotas(ctx, pods);
    await reportCustomResources(ctx, await this.#crdKinds(), this.#crdStatus, this.#unhealthy);
  }
}
