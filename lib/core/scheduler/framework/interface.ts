/**
 * The scheduler framework's plugin contract (Karmada `pkg/scheduler/framework/interface.go`): filter
 * plugins say whether a cluster can take a binding, score plugins rank the ones that can. Results are
 * values (docs/architecture.md): an unschedulable cluster is an answer with reasons, not an exception.
 */
import type { Cluster, ClusterAffinity, ResourceBindingSpec } from '../../model/types.ts';

export type Code = 'Success' | 'Unschedulable' | 'Error';

export interface PluginResult {
  code: Code;
  /** Human-readable reasons, Karmada's wording, e.g. `cluster(s) had untolerated taint {k: v}`. */
  reasons: string[];
}

export const SUCCESS: PluginResult = Object.freeze({ code: 'Success', reasons: [] }) as PluginResult;

export function unschedulable(reason: string): PluginResult {
  return { code: 'Unschedulable', reasons: [reason] };
}

/**
 * A cluster as the plugins see it: parsed once per snapshot.
 * - `gvks`: `group/version/Kind` (core group: `v1/Kind`) from `status.apiEnablements`;
 * - `apiEnablementsComplete`: the `CompleteAPIEnablements` condition is `True` (or absent on a
 *   cluster written before the condition existed and listing something).
 */
export interface ClusterInfo {
  readonly name: string;
  readonly cluster: Cluster;
  readonly deleting: boolean;
  readonly gvks: ReadonlySet<string>;
  readonly apiEnablementsComplete: boolean;
}

/** What one scheduling attempt is about: the binding's spec and the affinity term being tried. */
export interface ScheduleUnit {
  readonly spec: ResourceBindingSpec;
  /** The binding's GVK as `group/version/Kind`. */
  readonly gvk: string;
  /** `placement.clusterAffinity`, or the `clusterAffinities` term being tried. */
  readonly affinity?: ClusterAffinity;
  /** Names in `spec.clusters` (the previous result). */
  readonly scheduled: ReadonlySet<string>;
  /** Other bindings of the namespace in this binding's workload (anti-)affinity groups, and where they are. */
  readonly workloadPeers?: WorkloadPeers;
}

/** Where the other bindings of a binding's workload affinity and anti-affinity groups are placed. */
export interface WorkloadPeers {
  readonly affinity: readonly WorkloadPeer[];
  readonly antiAffinity: readonly WorkloadPeer[];
}

export interface WorkloadPeer {
  /** The peer binding's name (in the same namespace). */
  readonly name: string;
  readonly clusters: readonly string[];
}

export interface FilterPlugin {
  readonly name: string;
  filter(unit: ScheduleUnit, cluster: ClusterInfo): PluginResult;
}

export interface ScorePlugin {
  readonly name: string;
  /** 0..100 (Karmada `MaxClusterScore`). */
  score(unit: ScheduleUnit, cluster: ClusterInfo): number;
}

export type Plugin = FilterPlugin | ScorePlugin | (FilterPlugin & ScorePlugin);

export const MIN_CLUSTER_SCORE = 0;
export const MAX_CLUSTER_SCORE = 100;

export function isFilter(p: Plugin): p is FilterPlugin {
  return typeof (p as FilterPlugin).filter === 'function';
}

export function isScore(p: Plugin): p is ScorePlugin {
  return typeof (p as ScorePlugin).score === 'function';
}
