/**
 * Builders for the scheduler tests (estimate, plugins, schedule, reschedule): member clusters with
 * topology, taints, API enablements and capacity, and ResourceBindings with a placement.
 */
import type {
  APIEnablement,
  Cluster,
  ClusterAffinity,
  Component,
  Condition,
  GracefulEvictionTask,
  Placement,
  ResourceBinding,
  ResourceBindingStatus,
  ResourceList,
  ResourceModel,
  ResourceSummary,
  Taint,
  TargetCluster,
} from '../../../../lib/core/model/types.ts';
import type { ClusterInfo, ScheduleUnit } from '../../../../lib/core/scheduler/framework/interface.ts';
import { buildSnapshot } from '../../../../lib/core/scheduler/snapshot.ts';
import { APPLIED_PLACEMENT_ANNOTATION } from '../../../../lib/api/well-known.ts';

/** What `apps/v1` Deployments need in `status.apiEnablements`. */
export const DEPLOYMENTS: APIEnablement = {
  groupVersion: 'apps/v1',
  resources: [{ name: 'deployments', kind: 'Deployment' }],
};

export interface ClusterOptions {
  labels?: Record<string, string>;
  region?: string;
  zones?: string[];
  /** The deprecated single `spec.zone`. */
  zone?: string;
  provider?: string;
  taints?: Taint[];
  /** Default: apps/v1 Deployments. */
  apiEnablements?: APIEnablement[];
  /**
   * The `CompleteAPIEnablements` condition: `true`/`false` set it, `null` leaves it out (a cluster
   * written before the condition existed). Default `true`.
   */
  completeAPIEnablements?: boolean | null;
  resourceSummary?: ResourceSummary;
  resourceModels?: ResourceModel[];
  /** Written into `resourceSummary.allocatableModelings` (a summary is created when absent). */
  allocatableModelings?: { grade: number; count: number }[];
  deleting?: boolean;
}

/** A Cluster as the scheduler reads it. */
export function clusterFactory(name: string, options: ClusterOptions = {}): Cluster {
  const conditions: Condition[] = [];
  const complete = options.completeAPIEnablements === undefined ? true : options.completeAPIEnablements;
  if (complete !== null) {
    conditions.push({ type: 'CompleteAPIEnablements', status: complete ? 'True' : 'False' });
  }
  let summary = options.resourceSummary;
  if (options.allocatableModelings) {
    summary = { ...(summary ?? { allocatable: {} }), allocatableModelings: options.allocatableModelings };
  }
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name,
      ...(options.labels ? { labels: options.labels } : {}),
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.region ? { region: options.region } : {}),
      ...(options.zones ? { zones: options.zones } : {}),
      ...(options.zone ? { zone: options.zone } : {}),
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.resourceModels ? { resourceModels: options.resourceModels } : {}),
    },
    status: {
      apiEnablements: options.apiEnablements ?? [DEPLOYMENTS],
      conditions,
      ...(summary ? { resourceSummary: summary } : {}),
    },
  };
}

/**
 * A resource summary with `free` left: allocatable = free + `used` (as allocated), so the estimator
 * sees exactly `free`. Pods default to 110 free.
 */
export function summary(free: ResourceList, used: ResourceList = {}): ResourceSummary {
  return { allocatable: { pods: '110', ...free }, allocated: used, allocating: {} };
}

/** A summary whose free cpu fits `replicas` replicas of a 1-cpu request (and plenty of memory). */
export function cpuFor(replicas: number): ResourceSummary {
  return summary({ cpu: String(replicas), memory: '1Ti' });
}

export interface BindingOptions {
  namespace?: string;
  apiVersion?: string;
  kind?: string;
  replicas?: number;
  placement?: Placement;
  clusters?: TargetCluster[];
  /** `replicaRequirements.resourceRequest` per replica. */
  request?: ResourceList;
  components?: Component[];
  gracefulEvictionTasks?: GracefulEvictionTask[];
  schedulerName?: string;
  suspendScheduling?: boolean;
  rescheduleTriggeredAt?: string;
  status?: ResourceBindingStatus;
  /** The applied-placement annotation (raw text). */
  appliedPlacement?: string;
  generation?: number;
  deleting?: boolean;
}

/** A ResourceBinding for an `apps/v1` Deployment. */
export function bindingFactory(name: string, options: BindingOptions = {}): ResourceBinding {
  const namespace = options.namespace ?? 'default';
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: {
      name,
      namespace,
      uid: `uid-${name}`,
      generation: options.generation ?? 1,
      ...(options.appliedPlacement !== undefined
        ? { annotations: { [APPLIED_PLACEMENT_ANNOTATION]: options.appliedPlacement } }
        : {}),
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      resource: {
        apiVersion: options.apiVersion ?? 'apps/v1',
        kind: options.kind ?? 'Deployment',
        namespace,
        name,
      },
      ...(options.replicas !== undefined ? { replicas: options.replicas } : {}),
      ...(options.request ? { replicaRequirements: { resourceRequest: options.request } } : {}),
      ...(options.components ? { components: options.components } : {}),
      ...(options.clusters ? { clusters: options.clusters } : {}),
      placement: options.placement ?? {},
      ...(options.gracefulEvictionTasks ? { gracefulEvictionTasks: options.gracefulEvictionTasks } : {}),
      ...(options.schedulerName !== undefined ? { schedulerName: options.schedulerName } : {}),
      ...(options.suspendScheduling !== undefined ? { suspension: { scheduling: options.suspendScheduling } } : {}),
      ...(options.rescheduleTriggeredAt ? { rescheduleTriggeredAt: options.rescheduleTriggeredAt } : {}),
    },
    ...(options.status ? { status: options.status } : {}),
  };
}

/** `status.conditions` with a `Scheduled` condition of the given status. */
export function scheduledStatus(
  status: 'True' | 'False' = 'True',
  extra: Omit<ResourceBindingStatus, 'conditions'> = {},
): ResourceBindingStatus {
  return {
    ...extra,
    conditions: [{ type: 'Scheduled', status, reason: status === 'True' ? 'Success' : 'Unschedulable' }],
  };
}

/** Targets from `name: replicas` pairs. */
export function targets(replicas: Record<string, number>): TargetCluster[] {
  return Object.entries(replicas).map(([name, n]) => ({ name, replicas: n }));
}

/** A result as `name: replicas` (no `replicas` as -1), order-insensitive. */
export function asRecord(list: readonly TargetCluster[]): Record<string, number> {
  return Object.fromEntries(list.map((t) => [t.name, t.replicas ?? -1]));
}

/** One cluster as the plugins see it (through a snapshot, as the scheduler builds it). */
export function clusterInfo(cluster: Cluster): ClusterInfo {
  const info = buildSnapshot([cluster]).byName.get(cluster.metadata.name ?? '');
  if (!info) throw new Error(`cluster ${cluster.metadata.name} is being deleted`);
  return info;
}

/** A schedule unit for plugin tests: the binding's spec, GVK, affinity term and previous targets. */
export function unitFor(binding: ResourceBinding, affinity?: ClusterAffinity): ScheduleUnit {
  const spec = binding.spec;
  const term = affinity ?? spec.placement?.clusterAffinity;
  return {
    spec,
    gvk: `${spec.resource.apiVersion}/${spec.resource.kind}`,
    ...(term ? { affinity: term } : {}),
    scheduled: new Set((spec.clusters ?? []).map((t) => t.name)),
  };
}

/** Divided + Weighted by available replicas. */
export const DYNAMIC_WEIGHT: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { dynamicWeight: 'AvailableReplicas' },
};

/** Divided + Aggregated. */
export const AGGREGATED: Placement['replicaScheduling'] = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Aggregated',
};

export const DUPLICATED: Placement['replicaScheduling'] = { replicaSchedulingType: 'Duplicated' };

/** Divided + Weighted with one static-weight rule per `clusterName: weight`. */
export function staticWeights(weights: Record<string, number>): Placement['replicaScheduling'] {
  return {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: {
      staticWeightList: Object.entries(weights).map(([name, weight]) => ({
        targetCluster: { clusterNames: [name] },
        weight,
      })),
    },
  };
}

/**
 * A tiny seeded linear congruential generator (Numerical Recipes constants), so the property tests
 * are reproducible: the same seed gives the same sequence on every run.
 */
export function lcg(seed: number): {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
} {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  return {
    next,
    /** Uniform integer in [lo, hi]. */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
  };
}
