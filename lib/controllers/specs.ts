/**
 * Every controller's deployment shape, in one place: its name (queues `<prefix>-<name>-<lane>`,
 * function `<prefix>-<name>`), the kinds it wants resynced, and how its two event sources are tuned.
 * The CDK stack and local mode both read this list; neither has its own copy. Metadata only — no
 * controller code is imported here, so a function bundle carries only its own controller.
 */
import {
  CLUSTER,
  CLUSTER_OVERRIDE_POLICY,
  CLUSTER_PROPAGATION_POLICY,
  CLUSTER_RESOURCE_BINDING,
  CLUSTER_TAINT_POLICY,
  FEDERATED_RESOURCE_QUOTA,
  OVERRIDE_POLICY,
  PROPAGATION_POLICY,
  RESOURCE_BINDING,
  RESOURCE_REGISTRY,
  WORK,
  WORKLOAD_REBALANCER,
} from '../api/karmada-names.ts';
import type { GroupKind } from '../api/object.ts';
import type { Lane } from '../queue/port.ts';
import type { ResyncTarget } from '../reconcile/resync.ts';
import { RESYNC_CONTROLLER } from '../reconcile/resync.ts';

/** Name of the namespace lifecycle controller (kept here so specs import no controller code). */
export const NAMESPACE_CONTROLLER_NAME = 'namespace';
/** Name of the garbage collector (lib/controllers/garbage-collector.ts). */
export const GARBAGE_COLLECTOR_NAME = 'garbage-collector';
/** Name of the cluster lifecycle controller (lib/controllers/cluster.ts). */
export const CLUSTER_CONTROLLER_NAME = 'cluster';
/** Name of the cluster health and status controller (lib/controllers/cluster-status.ts). */
export const CLUSTER_STATUS_CONTROLLER_NAME = 'cluster-status';
/** Name of the scheduler (lib/controllers/scheduler.ts). */
export const SCHEDULER_CONTROLLER_NAME = 'scheduler';
/** Name of the resource detector (lib/controllers/detector.ts). */
export const DETECTOR_CONTROLLER_NAME = 'detector';
/** Name of the binder: Works from bindings, status back (lib/controllers/binder.ts). */
export const BINDER_CONTROLLER_NAME = 'binder';
/** Name of the executor: Works applied on Push members (lib/controllers/executor.ts). */
export const EXECUTOR_CONTROLLER_NAME = 'executor';
/** Name of the eviction controller: taint manager and graceful eviction (lib/controllers/eviction.ts). */
export const EVICTION_CONTROLLER_NAME = 'eviction';
/** Name of the application failover controller (lib/controllers/application-failover.ts). */
export const APPLICATION_FAILOVER_CONTROLLER_NAME = 'application-failover';
/** Name of the FederatedResourceQuota controller (lib/controllers/federated-resource-quota.ts). */
export const FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME = 'federated-resource-quota';
/** Name of the namespace auto-propagation controller (lib/controllers/namespace-sync.ts). */
export const NAMESPACE_SYNC_CONTROLLER_NAME = 'namespace-sync';
/** Name of the WorkloadRebalancer controller (lib/controllers/workload-rebalancer.ts). */
export const WORKLOAD_REBALANCER_CONTROLLER_NAME = 'workload-rebalancer';
/** Name of the search collector: the proxy's cache of member objects (lib/controllers/search.ts). */
export const SEARCH_CONTROLLER_NAME = 'search';
/** The key a schedule sends to fan a controller out over all its objects. */
export const SWEEP_KEY = '*';
/** The key that asks the scheduler to retry every binding that could not be scheduled (capacity appeared). */
export const UNSCHEDULABLE_KEY = 'unschedulable';

export interface LaneTuning {
  /** Messages per invocation (1..10000; above 10 needs a batching window). */
  batchSize: number;
  maximumBatchingWindowSeconds: number;
  /**
   * Concurrent invocations from this queue (Lambda: 2..1000). The standard lane is capped below the
   * priority lane's share so a standard backlog can never take the capacity priority work needs.
   */
  maxConcurrency: number;
}

export interface ControllerSpec {
  name: string;
  description: string;
  /** Kinds whose every key is periodically re-enqueued on the standard queue. */
  watches: readonly GroupKind[];
  /** Other controllers whose queues this one enqueues to (its IAM policy allows exactly these). */
  sendsTo: readonly string[];
  /**
   * Accepted API writes that enqueue the written object's key on this controller's priority queue:
   * the listed kinds, and with `templates` every resource template (a kind that is not Karmada's own
   * nor a bookkeeping kind such as Event or Lease). With `deletions`, every accepted delete of any
   * kind (the garbage collector, whose keys also carry the uid).
   */
  triggers?: { templates?: boolean; kinds?: readonly GroupKind[]; deletions?: boolean };
  /**
   * EventBridge schedules that send `key` to the controller's standard queue (a sweep), besides the
   * environment's resync schedule.
   */
  schedules?: readonly {
    name: string;
    expression: string;
    key: string;
    /** The Karmada flag that sets its period (lib/config/schedule-periods.ts), when one does. */
    periodFlag?: string;
  }[];
  /** Opens member-cluster credentials (calls members): its function may decrypt them. */
  opensCredentials?: boolean;
  timeoutSeconds: number;
  memoryMB: number;
  /** Receives before a message is moved to the lane's dead-letter queue. */
  maxReceiveCount: number;
  lanes: Record<Lane, LaneTuning>;
}

/** The default tuning: small batches, two pollers per lane. */
const SMALL_LANE: LaneTuning = { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: 2 };

/** The same tuning on both lanes. */
function bothLanes(tuning: LaneTuning): Record<Lane, LaneTuning> {
  return { priority: { ...tuning }, standard: { ...tuning } };
}

/**
 * The pipeline controllers' tuning: small, immediate priority batches with more pollers; large
 * standard batches (a fan-out shares one read of its inputs) with fewer, so a standard backlog never
 * takes the capacity priority work needs.
 */
function pipelineLanes(standardBatch = 100): Record<Lane, LaneTuning> {
  return {
    priority: { batchSize: 10, maximumBatchingWindowSeconds: 0, maxConcurrency: 4 },
    standard: { batchSize: standardBatch, maximumBatchingWindowSeconds: 1, maxConcurrency: 2 },
  };
}

/** AWS's guidance: a queue's visibility timeout at least six times its consumer's timeout. */
export function visibilityTimeoutSeconds(spec: ControllerSpec): number {
  return spec.timeoutSeconds * 6;
}

export const CONTROLLER_SPECS: readonly ControllerSpec[] = [
  {
    name: RESYNC_CONTROLLER,
    description: 'Periodically re-enqueues every key of every watched kind on its controller standard queue',
    watches: [],
    // Resync sends to every controller that watches a kind; see queueTargets().
    sendsTo: [],
    timeoutSeconds: 60,
    memoryMB: 512,
    maxReceiveCount: 5,
    lanes: bothLanes(SMALL_LANE),
  },
  {
    name: NAMESPACE_CONTROLLER_NAME,
    description: 'Namespace lifecycle: Active on creation; on deletion empties the namespace, then removes it',
    watches: [{ group: '', kind: 'Namespace' }],
    // Deleting a namespace's content tells every controller its templates triggered.
    sendsTo: [],
    triggers: { kinds: [{ group: '', kind: 'Namespace' }] },
    timeoutSeconds: 120,
    memoryMB: 512,
    maxReceiveCount: 8,
    lanes: bothLanes(SMALL_LANE),
  },
  {
    name: CLUSTER_CONTROLLER_NAME,
    description: 'Cluster lifecycle: finalizer and execution namespace; on deletion, waits for them to empty',
    watches: [CLUSTER],
    sendsTo: [NAMESPACE_CONTROLLER_NAME],
    triggers: { kinds: [CLUSTER] },
    timeoutSeconds: 60,
    memoryMB: 512,
    maxReceiveCount: 8,
    lanes: bothLanes(SMALL_LANE),
  },
  {
    name: CLUSTER_STATUS_CONTROLLER_NAME,
    description:
      "Cluster health and status: probes Push clusters, watches Pull clusters' leases, Ready condition, taints, resource summary and models",
    watches: [],
    // Capacity, taints or APIs changed: the scheduler retries what could not be scheduled.
    // After each probe of a Ready Push cluster the executor syncs it (drift, status, retries).
    // NoExecute taints changed: the eviction controller examines the cluster's bindings.
    // After each probe of a Push cluster the search collector syncs what ResourceRegistries select there.
    sendsTo: [SCHEDULER_CONTROLLER_NAME, EXECUTOR_CONTROLLER_NAME, EVICTION_CONTROLLER_NAME, SEARCH_CONTROLLER_NAME],
    triggers: { kinds: [CLUSTER, CLUSTER_TAINT_POLICY] },
    // Every minute the sweep spreads one probe per cluster per --cluster-status-update-frequency.
    schedules: [{ name: 'cluster-sweep', expression: 'rate(1 minute)', key: SWEEP_KEY }],
    opensCredentials: true,
    // Probes wait on unreachable members (10 s timeouts), so a batch is small and concurrency higher.
    timeoutSeconds: 60,
    memoryMB: 512,
    maxReceiveCount: 3,
    lanes: bothLanes({ batchSize: 5, maximumBatchingWindowSeconds: 0, maxConcurrency: 4 }),
  },
  {
    name: DETECTOR_CONTROLLER_NAME,
    description:
      'Resource detector: matches resource templates to (Cluster)PropagationPolicies, claims them and writes their (Cluster)ResourceBindings',
    watches: [PROPAGATION_POLICY, CLUSTER_PROPAGATION_POLICY],
    sendsTo: [SCHEDULER_CONTROLLER_NAME, BINDER_CONTROLLER_NAME],
    triggers: {
      templates: true,
      kinds: [PROPAGATION_POLICY, CLUSTER_PROPAGATION_POLICY],
    },
    timeoutSeconds: 120,
    memoryMB: 1024,
    maxReceiveCount: 8,
    // A policy change fans out to its templates on the standard lane.
    lanes: pipelineLanes(),
  },
  {
    name: SCHEDULER_CONTROLLER_NAME,
    description:
      'Scheduler: places (Cluster)ResourceBindings on clusters from stored cluster status, one write per binding, no over-commit',
    watches: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING],
    // Every binding it has looked at goes on to the binder (which renders only what changed); one
    // placed on a NoExecute-tainted cluster it tolerates goes to the eviction controller for its timer.
    sendsTo: [BINDER_CONTROLLER_NAME, EVICTION_CONTROLLER_NAME],
    triggers: {
      kinds: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING, CLUSTER],
    },
    // Bindings that could not be scheduled are retried every minute (Karmada #3112).
    schedules: [{ name: 'unschedulable-sweep', expression: 'rate(1 minute)', key: SWEEP_KEY }],
    timeoutSeconds: 120,
    memoryMB: 1024,
    maxReceiveCount: 8,
    // Larger batches share one cluster snapshot and coalesce reservation writes.
    lanes: pipelineLanes(),
  },
  {
    name: BINDER_CONTROLLER_NAME,
    description:
      'Binder: renders one Work per target cluster from each binding (replicas, overrides, dependencies) and aggregates Work status into the binding and its template',
    watches: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING],
    // Status of a binding with eviction tasks goes to the eviction controller (tasks end on health);
    // status of a binding with failover.application to the application failover controller.
    // A deleted binding's quota freed: the bindings held for it go to the scheduler; so does a binding
    // whose decrease is rendered (the scheduler gives the quota the room back).
    sendsTo: [
      EXECUTOR_CONTROLLER_NAME,
      EVICTION_CONTROLLER_NAME,
      APPLICATION_FAILOVER_CONTROLLER_NAME,
      SCHEDULER_CONTROLLER_NAME,
    ],
    // Binding deletions (by the garbage collector) and override policy changes.
    triggers: { kinds: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING, OVERRIDE_POLICY, CLUSTER_OVERRIDE_POLICY] },
    timeoutSeconds: 120,
    memoryMB: 1024,
    maxReceiveCount: 8,
    lanes: pipelineLanes(),
  },
  {
    name: EXECUTOR_CONTROLLER_NAME,
    description:
      'Executor: applies Works on Push member clusters (server-side apply), corrects drift, collects status, deletes or releases member objects',
    watches: [WORK],
    // Status of a static-assignment Work goes to the FederatedResourceQuota controller.
    sendsTo: [BINDER_CONTROLLER_NAME, FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME],
    triggers: { kinds: [WORK] },
    opensCredentials: true,
    // Members can be slow; a batch is small and concurrency higher.
    timeoutSeconds: 120,
    memoryMB: 1024,
    maxReceiveCount: 8,
    lanes: pipelineLanes(50),
  },
  {
    name: EVICTION_CONTROLLER_NAME,
    description:
      "Eviction: Karmada's taint manager and graceful-eviction controller — bindings leave NoExecute-tainted clusters on durable timers, at the fleet's eviction rate, never the last copy without a replacement; eviction tasks end as their purge mode says",
    // The resync re-examines every binding: eviction tasks whose timer message was lost end anyway.
    watches: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING],
    sendsTo: [SCHEDULER_CONTROLLER_NAME, BINDER_CONTROLLER_NAME],
    // A person editing a binding's tasks (suppressDeletion) or a cluster's taints.
    triggers: { kinds: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING, CLUSTER] },
    // Every minute every NoExecute-tainted cluster fans out again: a lost message delays an eviction by
    // one sweep at most.
    schedules: [{ name: 'eviction-sweep', expression: 'rate(1 minute)', key: SWEEP_KEY }],
    timeoutSeconds: 120,
    memoryMB: 1024,
    maxReceiveCount: 8,
    lanes: pipelineLanes(),
  },
  {
    name: APPLICATION_FAILOVER_CONTROLLER_NAME,
    description:
      "Application failover: a binding with failover.application leaves a cluster whose copy stays Unhealthy longer than tolerationSeconds, on stored timers, with the policy's purge mode and state preservation",
    // The resync re-examines every binding: a window whose timer message was lost ends anyway.
    watches: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING],
    // An evicted binding is re-placed (scheduler), its Works follow (binder), its task is assessed (eviction).
    sendsTo: [SCHEDULER_CONTROLLER_NAME, BINDER_CONTROLLER_NAME, EVICTION_CONTROLLER_NAME],
    // A person editing a binding (its failover settings, or its tasks).
    triggers: { kinds: [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING] },
    timeoutSeconds: 120,
    memoryMB: 1024,
    maxReceiveCount: 8,
    lanes: pipelineLanes(),
  },
  {
    name: FEDERATED_RESOURCE_QUOTA_CONTROLLER_NAME,
    description:
      'FederatedResourceQuota: overall and overallUsed kept current, static assignments as ResourceQuotas in members, bindings held for quota retried when it frees',
    watches: [FEDERATED_RESOURCE_QUOTA],
    // Static-assignment Works to the executor; bindings held for quota to the scheduler.
    sendsTo: [EXECUTOR_CONTROLLER_NAME, SCHEDULER_CONTROLLER_NAME],
    triggers: { kinds: [FEDERATED_RESOURCE_QUOTA] },
    // --federated-resource-quota-sync-period (Karmada: 5m): every quota recomputed from its bindings.
    schedules: [
      {
        name: 'quota-sync',
        expression: 'rate(5 minutes)',
        key: SWEEP_KEY,
        periodFlag: 'federated-resource-quota-sync-period',
      },
    ],
    timeoutSeconds: 120,
    memoryMB: 512,
    maxReceiveCount: 8,
    lanes: bothLanes(SMALL_LANE),
  },
  {
    name: NAMESPACE_SYNC_CONTROLLER_NAME,
    description:
      'Namespace auto-propagation: every control-plane namespace (but reserved or skipped ones) on every member cluster',
    watches: [{ group: '', kind: 'Namespace' }],
    sendsTo: [EXECUTOR_CONTROLLER_NAME],
    // ClusterOverridePolicies apply to namespaces as well (Karmada's namespace sync controller).
    triggers: { kinds: [{ group: '', kind: 'Namespace' }, CLUSTER, CLUSTER_OVERRIDE_POLICY] },
    timeoutSeconds: 60,
    memoryMB: 512,
    maxReceiveCount: 8,
    lanes: bothLanes(SMALL_LANE),
  },
  {
    name: WORKLOAD_REBALANCER_CONTROLLER_NAME,
    description:
      "WorkloadRebalancer: stamps each named workload's (Cluster)ResourceBinding with spec.rescheduleTriggeredAt so the scheduler re-places it from scratch, reports a result per workload, and deletes the rebalancer ttlSecondsAfterFinished after it finished",
    // The resync re-examines every rebalancer: one whose TTL timer message was lost is deleted anyway.
    watches: [WORKLOAD_REBALANCER],
    // Each stamped binding is re-placed at once rather than at the scheduler's next resync.
    sendsTo: [SCHEDULER_CONTROLLER_NAME],
    triggers: { kinds: [WORKLOAD_REBALANCER] },
    timeoutSeconds: 60,
    memoryMB: 512,
    maxReceiveCount: 8,
    lanes: bothLanes(SMALL_LANE),
  },
  {
    name: SEARCH_CONTROLLER_NAME,
    description:
      "Search collector: keeps the global proxy's cache of member objects (what ResourceRegistries select) equal to the members, page by page, and each registry's Synced condition",
    // The resync re-examines every registry (its condition) and every cluster (a sync whose message was lost).
    watches: [RESOURCE_REGISTRY, CLUSTER],
    sendsTo: [],
    triggers: { kinds: [RESOURCE_REGISTRY, CLUSTER] },
    opensCredentials: true,
    // Lists of large members take a while: one cluster per invocation, a few at once.
    timeoutSeconds: 300,
    memoryMB: 512,
    maxReceiveCount: 5,
    lanes: bothLanes({ batchSize: 1, maximumBatchingWindowSeconds: 0, maxConcurrency: 4 }),
  },
  {
    name: GARBAGE_COLLECTOR_NAME,
    description: 'Garbage collector: deletes or orphans the dependents of deleted owners (ownerReferences)',
    watches: [],
    sendsTo: [],
    triggers: { deletions: true },
    timeoutSeconds: 120,
    memoryMB: 512,
    maxReceiveCount: 8,
    lanes: bothLanes(SMALL_LANE),
  },
];

/** The spec of a controller, or an error naming the ones that exist. */
export function controllerSpec(name: string): ControllerSpec {
  const spec = CONTROLLER_SPECS.find((s) => s.name === name);
  if (!spec) throw new Error(`no controller named ${name}; known: ${CONTROLLER_SPECS.map((s) => s.name).join(', ')}`);
  return spec;
}

/** What the resync controller walks: every controller that watches at least one kind. */
export function resyncTargets(specs: readonly ControllerSpec[] = CONTROLLER_SPECS): ResyncTarget[] {
  return specs.filter((s) => s.watches.length > 0).map((s) => ({ controller: s.name, kinds: s.watches }));
}

/**
 * Every controller whose queues `spec` may send to: itself (requeues, re-armed timers), the ones it
 * names, for resync every controller it resyncs, and for the namespace controller and the garbage
 * collector (which delete objects as the API would) every controller a write can trigger.
 */
export function queueTargets(spec: ControllerSpec, specs: readonly ControllerSpec[] = CONTROLLER_SPECS): string[] {
  const extra =
    spec.name === RESYNC_CONTROLLER
      ? resyncTargets(specs).map((t) => t.controller)
      : spec.name === NAMESPACE_CONTROLLER_NAME || spec.name === GARBAGE_COLLECTOR_NAME
        ? triggeredControllers(specs)
        : [];
  return [...new Set([spec.name, ...spec.sendsTo, ...extra])];
}

/** Every controller some API write can trigger: the API (and the namespace controller) send to these. */
export function triggeredControllers(specs: readonly ControllerSpec[] = CONTROLLER_SPECS): string[] {
  return specs.filter((s) => s.triggers).map((s) => s.name);
}

/** Groups of Karmada's own kinds: never resource templates. */
export const KARMADA_GROUPS = new Set([
  'policy.karmada.io',
  'work.karmada.io',
  'cluster.karmada.io',
  'config.karmada.io',
  'search.karmada.io',
  'apps.karmada.io',
  'networking.karmada.io',
  'autoscaling.karmada.io',
  'remedy.karmada.io',
]);

/** Kinds that are bookkeeping, not workload to propagate. */
const NOT_TEMPLATES = new Set(['/Event', 'events.k8s.io/Event', 'coordination.k8s.io/Lease']);

/** True when objects of this kind are resource templates (what propagation policies select). */
export function isResourceTemplate(gk: GroupKind): boolean {
  return !KARMADA_GROUPS.has(gk.group) && !NOT_TEMPLATES.has(`${gk.group}/${gk.kind}`);
}

/** The controllers an accepted write of `gk` enqueues (on their priority lane). */
export function controllersTriggeredBy(gk: GroupKind, specs: readonly ControllerSpec[] = CONTROLLER_SPECS): string[] {
  return specs
    .filter(
      (s) =>
        (s.triggers?.templates && isResourceTemplate(gk)) ||
        (s.triggers?.kinds ?? []).some((k) => k.group === gk.group && k.kind === gk.kind),
    )
    .map((s) => s.name);
}
