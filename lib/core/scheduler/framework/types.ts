/**
 * Values the scheduler's stages pass to each other: clusters with their score and capacity, and
 * outcomes. Expected failures ("no cluster fits", "not enough capacity") are values carrying the
 * Karmada condition reason, never exceptions (docs/architecture.md).
 */
import type { Cluster } from '../../model/types.ts';

/**
 * A feasible cluster as selection and assignment see it (Karmada `ClusterDetailInfo`).
 * - `allocatableReplicas`: replicas of this binding the cluster can still take (estimator).
 * - `availableReplicas`: `allocatableReplicas` plus what the binding already has there.
 */
export interface ClusterDetail {
  name: string;
  cluster: Cluster;
  /** Sum of score plugins (each 0..100). */
  score: number;
  availableReplicas: number;
  allocatableReplicas: number;
  /** Karmada ≥ 1.18 overflow group: 0 for the term's own clusters, 1.. for successive overflow groups. */
  overflowOrder?: number;
}

/**
 * Condition reasons of `Scheduled` (Karmada `getConditionByError`):
 * - `NoClusterFit`: the filters left no cluster;
 * - `Unschedulable`: clusters fit but lack capacity (retried when capacity appears);
 * - `SchedulerError`: anything else (spread constraints unsatisfiable, unsupported strategy, ...);
 * - `QuotaExceeded`: a FederatedResourceQuota refused the result.
 */
export type FailureReason = 'NoClusterFit' | 'Unschedulable' | 'SchedulerError' | 'QuotaExceeded';

export interface ScheduleFailure {
  reason: FailureReason;
  /** Karmada's message where Karmada has one, e.g. `Clusters available replicas 3 are not enough to schedule.` */
  message: string;
  /** Per cluster, why it was filtered out (plugin: reason), when filtering is what failed. */
  diagnosis?: Record<string, string[]>;
}

/** Either a value or a failure. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: ScheduleFailure };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail<T = never>(
  reason: FailureReason,
  message: string,
  diagnosis?: Record<string, string[]>,
): Outcome<T> {
  return { ok: false, failure: diagnosis ? { reason, message, diagnosis } : { reason, message } };
}

/** Go's `math.MaxInt32`: Karmada's "unbounded" replica count. */
export const MAX_INT32 = 2147483647;
