/**
 * WorkloadRebalancer (`apps.karmada.io/v1alpha1`, cluster-scoped; Karmada
 * `pkg/apis/apps/v1alpha1/workloadrebalancer_types.go`): the fields the rebalancer decision reads and
 * writes. Objects are plain JSON, so the interfaces tolerate fields they do not name.
 */
import type { KubeObject } from '../../api/object.ts';

/**
 * A workload a rebalancer names (Karmada's `ObjectReference`). An empty or absent `namespace` means a
 * cluster-scoped workload, whose binding is a ClusterResourceBinding.
 */
export interface WorkloadReference {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** Karmada `RebalanceResult`: how far one workload's rebalance went. */
export type RebalanceResult = 'Successful' | 'Failed';

/** Karmada `RebalanceFailedReason`: why one workload's rebalance failed. */
export type RebalanceFailedReason = 'ReferencedBindingNotFound';

/** `RebalanceSuccessful`: the workload's binding carries the rescheduling trigger. */
export const REBALANCE_SUCCESSFUL: RebalanceResult = 'Successful';
/** `RebalanceFailed`: the workload will not be rebalanced by this rebalancer. */
export const REBALANCE_FAILED: RebalanceResult = 'Failed';
/** `RebalanceObjectNotFound`: the workload's (Cluster)ResourceBinding did not exist. */
export const REBALANCE_OBJECT_NOT_FOUND: RebalanceFailedReason = 'ReferencedBindingNotFound';

/** One entry of `status.observedWorkloads` (no `result` yet: the rebalance is still to be done). */
export interface ObservedWorkload {
  workload: WorkloadReference;
  result?: RebalanceResult;
  reason?: RebalanceFailedReason;
}

export interface WorkloadRebalancerSpec {
  /** At least one (the CRD's `minItems: 1`). */
  workloads: WorkloadReference[];
  /** Seconds after `status.finishTime` the rebalancer is deleted; absent keeps it, 0 deletes it at once. */
  ttlSecondsAfterFinished?: number;
  [field: string]: unknown;
}

export interface WorkloadRebalancerStatus {
  /** Sorted by `apiVersion kind namespace name`. */
  observedWorkloads?: ObservedWorkload[];
  observedGeneration?: number;
  /** When every workload last got its result (RFC 3339). */
  finishTime?: string;
}

/** A WorkloadRebalancer as the API returns it. */
export interface WorkloadRebalancer extends KubeObject {
  spec: WorkloadRebalancerSpec;
  status?: WorkloadRebalancerStatus;
}
