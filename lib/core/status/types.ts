/**
 * Status shapes of the Work and binding APIs (Karmada v1.15.9 `pkg/apis/work/v1alpha1/work_types.go`
 * `ManifestStatus`/`ResourceIdentifier`, `pkg/apis/work/v1alpha2/binding_types.go`
 * `AggregatedStatusItem`/`ResourceHealth`), as plain JSON.
 */

/** `ResourceHealth`: the health the resource interpreter gives a member object. */
export type ResourceHealth = 'Healthy' | 'Unhealthy' | 'Unknown';

/**
 * `ResourceIdentifier` of a manifest status: where the object sits in `Work.spec.workload.manifests`
 * (`ordinal`) and which object it is. Karmada never fills `resource`.
 */
export interface ManifestIdentifier {
  ordinal: number;
  /** API group, `''` for the core group. */
  group: string;
  version: string;
  kind: string;
  resource?: string;
  /** `''` for cluster-scoped objects. */
  namespace: string;
  name: string;
}

/** One manifest status entry as the executor/agent writes into `Work.status.manifestStatuses`. */
export interface ManifestStatus {
  identifier: ManifestIdentifier;
  /** What `ReflectStatus` took from the member object; absent when it gave nothing. */
  status?: Record<string, unknown>;
  health?: ResourceHealth;
}

/**
 * `AggregatedStatusItem` of a binding's `status.aggregatedStatus`, with Go's `omitempty` applied as
 * Karmada stores it: `applied` is present only when true, `appliedMessage` only when not empty, `health`
 * only when the Work's manifest status had one (items built here always have one).
 */
export interface AggregatedStatusItem {
  clusterName: string;
  status?: Record<string, unknown>;
  applied?: boolean;
  appliedMessage?: string;
  health?: ResourceHealth;
}

/** The `FullyApplied` condition of a binding (no times: the caller's condition setter stamps them). */
export interface FullyAppliedCondition {
  type: 'FullyApplied';
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** Options of {@link aggregateStatus}. */
export interface AggregateStatusOptions {
  /**
   * "Now" as an RFC 3339 time, for the `lastProbeTime`/`lastTransitionTime` of the Job conditions
   * Karmada stamps with `metav1.Now()`. Without it those times are `null` (an unset `metav1.Time`).
   */
  now?: string;
}

/** What a `ReflectStatus` hook gives: the status to report, or the error Karmada would return. */
export type ReflectStatusResult =
  { ok: true; status: Record<string, unknown> | undefined } | { ok: false; error: string };
