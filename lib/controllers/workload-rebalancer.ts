/**
 * The WorkloadRebalancer controller (Karmada `pkg/controllers/workloadrebalancer`): the supported way
 * to re-place workloads from scratch, e.g. to move replicas back to a recovered cluster after a
 * failover.
 *
 * One reconcile per rebalancer key: read the rebalancer and the bindings of its workloads still
 * without a result, decide ({@link decideRebalance}), then write in order —
 *
 * 1. each binding that needs it gets `spec.rescheduleTriggeredAt = rebalancer.creationTimestamp`
 *    (an optimistic update) and is enqueued to the scheduler, which re-divides its replicas Fresh;
 *    a lost write requeues the rebalancer at once, before any status is written (the next pass reads
 *    the binding again; one already stamped is not stamped twice);
 * 2. the status (`observedWorkloads`, `observedGeneration`, `finishTime`) when it changed;
 * 3. with `ttlSecondsAfterFinished`, the rebalancer is deleted once `finishTime + ttl` has come (a
 *    delayed message until then; the resync also comes back to it).
 */
import { formatKey, parseKey, refOf } from '../api/object.ts';
import { WORKLOAD_REBALANCER } from '../api/karmada-names.ts';
import {
  decideRebalance,
  rebalancerBindingRefs,
  type ResourceBinding,
  type WorkloadOutcome,
  type WorkloadRebalancer,
  type WorkloadReference,
} from '../core/index.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import type { WorkQueue } from '../queue/port.ts';
import type { Controller, ReconcileContext, ReconcileRequest, ReconcileResult } from '../reconcile/controller.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { forEachLimited } from '../util/concurrency.ts';
import { SCHEDULER_CONTROLLER_NAME, WORKLOAD_REBALANCER_CONTROLLER_NAME } from './specs.ts';

/** Bindings of one rebalancer read or written at once. */
const BINDING_CONCURRENCY = 8;

export interface WorkloadRebalancerControllerOptions {
  store: ObjectStore;
  workQueue: WorkQueue;
  events?: EventRecorder;
}

/** Counters a benchmark or test can read. */
export interface WorkloadRebalancerStats {
  /** Bindings stamped with a rescheduling trigger. */
  bindingsTriggered: number;
  /** Workloads whose binding was not found. */
  bindingsNotFound: number;
  /** Rebalancers deleted after their TTL. */
  deleted: number;
}

export function createWorkloadRebalancerController(
  options: WorkloadRebalancerControllerOptions,
): Controller & { stats: WorkloadRebalancerStats } {
  const { store } = options;
  const events = options.events ?? NO_EVENTS;
  const stats: WorkloadRebalancerStats = { bindingsTriggered: 0, bindingsNotFound: 0, deleted: 0 };

  return {
    name: WORKLOAD_REBALANCER_CONTROLLER_NAME,
    stats,
    async reconcile(request: ReconcileRequest, context: ReconcileContext): Promise<ReconcileResult | undefined> {
      const ref = parseKey(request.key);
      if (ref.group !== WORKLOAD_REBALANCER.group || ref.kind !== WORKLOAD_REBALANCER.kind) return undefined;
      const rebalancer = (await store.get(ref)) as WorkloadRebalancer | undefined;
      if (!rebalancer) return undefined;

      const bindings = new Map<string, ResourceBinding>();
      await forEachLimited(rebalancerBindingRefs(rebalancer), BINDING_CONCURRENCY, async (bindingRef) => {
        const binding = await store.get(bindingRef);
        if (binding) bindings.set(formatKey(bindingRef), binding as ResourceBinding);
      });
      const decision = decideRebalance({ rebalancer, bindings, nowMs: context.now });

      // 1. The triggers, each binding on to the scheduler as soon as it is written.
      const stamped: string[] = [];
      let lost = 0;
      await forEachLimited(decision.bindingUpdates, BINDING_CONCURRENCY, async (binding) => {
        const written = await tryWrite(() => store.update(binding));
        if (written.ok) stamped.push(formatKey(refOf(binding)));
        else lost++;
      });
      if (stamped.length > 0) {
        stats.bindingsTriggered += stamped.length;
        await options.workQueue.enqueue(
          stamped.map((key) => ({
            controller: SCHEDULER_CONTROLLER_NAME,
            lane: request.lane,
            key,
            reason: 'reschedule-triggered',
          })),
        );
        context.logger.info('rebalance: rescheduling triggered', {
          rebalancer: rebalancer.metadata.name,
          bindings: stamped.join(','),
        });
      }
      if (lost > 0) {
        // A binding moved on (or went) between the read and the write: the next pass reads it again.
        context.logger.info('rebalance: a binding changed under us; retrying', {
          rebalancer: rebalancer.metadata.name,
          lost,
        });
        return { requeueAfterMs: 0 };
      }

      // 2. The status.
      let resourceVersion = rebalancer.metadata.resourceVersion;
      if (decision.statusChanged) {
        const written = await tryWrite(() => store.updateStatus({ ...rebalancer, status: decision.status }));
        if (!written.ok) return written.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
        resourceVersion = written.object.metadata.resourceVersion;
        await report(rebalancer, decision.outcomes, context);
      }

      // 3. The TTL.
      const cleanup = decision.cleanup;
      if (cleanup.action === 'Keep') return undefined;
      if (cleanup.action === 'Wait') return { requeueAfterMs: cleanup.atMs - context.now };
      const deleted = await tryWrite(() =>
        store.delete(ref, resourceVersion ? { preconditions: { resourceVersion } } : {}),
      );
      if (!deleted.ok) return deleted.reason === 'gone' ? undefined : { requeueAfterMs: 0 };
      stats.deleted++;
      context.logger.info('rebalance: finished rebalancer deleted after its TTL', {
        rebalancer: rebalancer.metadata.name,
        finishTime: decision.status.finishTime,
        ttlSecondsAfterFinished: rebalancer.spec.ttlSecondsAfterFinished,
      });
      return undefined;
    },
  };

  /** Events on the rebalancer: the workloads whose rescheduling was triggered, and those without a binding. */
  async function report(
    rebalancer: WorkloadRebalancer,
    outcomes: readonly WorkloadOutcome[],
    context: ReconcileContext,
  ): Promise<void> {
    const triggered = outcomes.filter((o) => o.outcome !== 'BindingNotFound');
    const notFound = outcomes.filter((o) => o.outcome === 'BindingNotFound');
    if (triggered.length > 0) {
      await events.record(
        rebalancer,
        'Normal',
        'RescheduleTriggered',
        `Rescheduling triggered for ${triggered.length} workload(s): ${triggered.map((o) => describe(o.workload)).join(', ')}.`,
      );
    }
    if (notFound.length > 0) {
      stats.bindingsNotFound += notFound.length;
      const names = notFound.map((o) => `${describe(o.workload)} (${o.binding.kind} ${bindingName(o.binding)})`);
      context.logger.warn('rebalance: referenced binding not found', {
        rebalancer: rebalancer.metadata.name,
        workloads: names.join(', '),
      });
      await events.record(
        rebalancer,
        'Warning',
        'ReferencedBindingNotFound',
        `No binding found for ${notFound.length} workload(s), not rebalanced: ${names.join(', ')}.`,
      );
    }
  }
}

function describe(workload: WorkloadReference): string {
  return `${workload.apiVersion} ${workload.kind} ${workload.namespace ? `${workload.namespace}/` : ''}${workload.name}`;
}

function bindingName(ref: { namespace?: string; name: string }): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}
