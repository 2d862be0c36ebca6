/** Factories for the WorkloadRebalancer tables: workloads, rebalancers and the bindings they name. */
import type { ResourceBinding } from '../../../../lib/core/model/types.ts';
import type {
  ObservedWorkload,
  WorkloadRebalancer,
  WorkloadRebalancerStatus,
  WorkloadReference,
} from '../../../../lib/core/rebalancer/index.ts';

export const T0 = Date.UTC(2026, 4, 1, 10, 0, 0);
/** RFC 3339 text `s` seconds after T0. */
export const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');

/** An `apps/v1` Deployment (or another kind) in `default` (or the namespace given; '' = cluster-scoped). */
export function workload(name: string, options: { kind?: string; apiVersion?: string; namespace?: string } = {}) {
  const namespace = options.namespace ?? 'default';
  return {
    apiVersion: options.apiVersion ?? 'apps/v1',
    kind: options.kind ?? 'Deployment',
    name,
    ...(namespace ? { namespace } : {}),
  } satisfies WorkloadReference;
}

export const ok = (w: WorkloadReference): ObservedWorkload => ({ workload: w, result: 'Successful' });
export const notFound = (w: WorkloadReference): ObservedWorkload => ({
  workload: w,
  result: 'Failed',
  reason: 'ReferencedBindingNotFound',
});

/** A rebalancer created at T0 (generation 1) over `workloads`. */
export function rebalancerFactory(
  workloads: WorkloadReference[],
  options: { status?: WorkloadRebalancerStatus; generation?: number; ttl?: number; created?: string } = {},
): WorkloadRebalancer {
  return {
    apiVersion: 'apps.karmada.io/v1alpha1',
    kind: 'WorkloadRebalancer',
    metadata: {
      name: 'demo',
      uid: 'uid-demo',
      generation: options.generation ?? 1,
      creationTimestamp: options.created ?? at(0),
    },
    spec: { workloads, ...(options.ttl !== undefined ? { ttlSecondsAfterFinished: options.ttl } : {}) },
    ...(options.status ? { status: options.status } : {}),
  };
}

/** The binding of `w` as the detector names it, optionally already carrying a trigger. */
export function bindingOf(w: WorkloadReference, rescheduleTriggeredAt?: string): ResourceBinding {
  const name = `${w.name.replaceAll(':', '.')}-${w.kind}`.toLowerCase();
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: w.namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    metadata: { name, ...(w.namespace ? { namespace: w.namespace } : {}), generation: 1, resourceVersion: '7' },
    spec: {
      resource: {
        apiVersion: w.apiVersion,
        kind: w.kind,
        name: w.name,
        ...(w.namespace ? { namespace: w.namespace } : {}),
      },
      replicas: 3,
      ...(rescheduleTriggeredAt ? { rescheduleTriggeredAt } : {}),
    },
  };
}
