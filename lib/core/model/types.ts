/**
 * Karmada-shaped types the decision core takes and returns: the fields of PropagationPolicy,
 * ResourceBinding and Cluster (Karmada v1.15's CRDs, `charts/karmada/_crds/bases/`) that decisions read
 * or write. Objects are plain JSON, so every interface tolerates fields it does not name; the core never
 * drops them.
 */
import type { KubeObject, ObjectMeta } from '../../api/object.ts';
import type { ResourceModel, ResourceModelRange } from '../clusters/resources.ts';

export type { KubeObject, ObjectMeta };

/** `metav1.LabelSelector`. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** `corev1.NodeSelectorRequirement` (a policy's cluster `fieldSelector` uses these). */
export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** A resource list: resource name → quantity (`cpu: 100m`, `memory: 128Mi`, `nvidia.com/gpu: 1`). */
export type ResourceList = Record<string, string>;

// ---------------------------------------------------------------------------------------------------
// Policies (policy.karmada.io/v1alpha1)

export interface ResourceSelector {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  labelSelector?: LabelSelector;
}

export interface FieldSelector {
  matchExpressions?: NodeSelectorRequirement[];
}

export interface ClusterAffinity {
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
  clusterNames?: string[];
  exclude?: string[];
}

export interface ClusterAffinityTerm extends ClusterAffinity {
  affinityName: string;
  /**
   * Karmada ≥ 1.18: groups the scheduler spills into, in order, when the term's own clusters lack
   * capacity (Divided with Aggregated or dynamic weight only); shrunk in reverse order on scale-down.
   */
  overflowAffinities?: (ClusterAffinity & { affinityName: string })[];
}

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | string;
  value?: string;
  /** Empty matches every effect. */
  effect?: TaintEffect | '';
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export type SpreadField = 'cluster' | 'region' | 'zone' | 'provider';

export interface SpreadConstraint {
  spreadByField?: SpreadField;
  spreadByLabel?: string;
  maxGroups?: number;
  minGroups?: number;
}

export interface StaticClusterWeight {
  targetCluster: ClusterAffinity;
  weight: number;
}

export interface ClusterPreferences {
  staticWeightList?: StaticClusterWeight[];
  dynamicWeight?: 'AvailableReplicas';
}

export type ReplicaSchedulingType = 'Duplicated' | 'Divided';
export type ReplicaDivisionPreference = 'Aggregated' | 'Weighted';

export interface ReplicaSchedulingStrategy {
  replicaSchedulingType?: ReplicaSchedulingType;
  replicaDivisionPreference?: ReplicaDivisionPreference;
  weightPreference?: ClusterPreferences;
}

/** Karmada ≥ 1.17 `placement.workloadAffinity`: co-locate or separate workloads by a template label. */
export interface WorkloadAffinity {
  affinity?: { groupByLabelKey: string };
  antiAffinity?: { groupByLabelKey: string };
}

export interface Placement {
  clusterAffinity?: ClusterAffinity;
  clusterAffinities?: ClusterAffinityTerm[];
  clusterTolerations?: Toleration[];
  spreadConstraints?: SpreadConstraint[];
  replicaScheduling?: ReplicaSchedulingStrategy;
  workloadAffinity?: WorkloadAffinity;
  [field: string]: unknown;
}

/** Karmada ≥ 1.17 binding `spec.workloadAffinityGroups`: `<labelKey>=<labelValue>` of the template. */
export interface WorkloadAffinityGroups {
  affinityGroup?: string;
  antiAffinityGroup?: string;
}

export interface Suspension {
  dispatching?: boolean;
  dispatchingOnClusters?: { clusterNames?: string[] };
}

export interface PropagationSpec {
  resourceSelectors: ResourceSelector[];
  association?: boolean;
  propagateDeps?: boolean;
  placement?: Placement;
  priority?: number;
  preemption?: 'Always' | 'Never';
  dependentOverrides?: string[];
  schedulerName?: string;
  failover?: Record<string, unknown>;
  conflictResolution?: 'Abort' | 'Overwrite';
  activationPreference?: '' | 'Lazy';
  suspension?: Suspension;
  preserveResourcesOnDeletion?: boolean;
  schedulePriority?: { priorityClassSource?: string; priorityClassName?: string };
  [field: string]: unknown;
}

/** A PropagationPolicy (namespaced) or ClusterPropagationPolicy (cluster-scoped). */
export interface PropagationPolicy extends KubeObject {
  kind: 'PropagationPolicy' | 'ClusterPropagationPolicy';
  spec: PropagationSpec;
}

// ---------------------------------------------------------------------------------------------------
// Bindings (work.karmada.io/v1alpha2)

export interface NodeClaim {
  hardNodeAffinity?: Record<string, unknown>;
  nodeSelector?: Record<string, string>;
  tolerations?: Record<string, unknown>[];
}

/** What one replica needs (the interpreter's `GetReplicas` answer). */
export interface ReplicaRequirements {
  nodeClaim?: NodeClaim;
  resourceRequest?: ResourceList;
  namespace?: string;
  priorityClassName?: string;
}

/** One pod template of a multi-template workload (`spec.components[]`). */
export interface Component {
  name: string;
  replicas: number;
  replicaRequirements?: {
    nodeClaim?: NodeClaim;
    resourceRequest?: ResourceList;
    priorityClassName?: string;
  };
}

export interface TargetCluster {
  name: string;
  replicas?: number;
  /** Karmada ≥ 1.19: per-component replicas on this cluster, for workloads with several pod templates. */
  components?: { name: string; replicas: number }[];
}

export interface ObjectReference {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
}

export interface GracefulEvictionTask {
  fromCluster: string;
  purgeMode?: string;
  replicas?: number;
  reason: string;
  message?: string;
  producer: string;
  gracePeriodSeconds?: number;
  suppressDeletion?: boolean;
  preservedLabelState?: Record<string, string>;
  creationTimestamp?: string;
  clustersBeforeFailover?: string[];
}

export interface BindingSuspension extends Suspension {
  /** Binding only, set by third parties: pauses scheduling. */
  scheduling?: boolean;
}

export interface ResourceBindingSpec {
  resource: ObjectReference;
  propagateDeps?: boolean;
  replicaRequirements?: ReplicaRequirements;
  replicas?: number;
  components?: Component[];
  clusters?: TargetCluster[];
  placement?: Placement;
  gracefulEvictionTasks?: GracefulEvictionTask[];
  requiredBy?: { namespace?: string; name: string; clusters?: TargetCluster[] }[];
  schedulerName?: string;
  failover?: Record<string, unknown>;
  conflictResolution?: 'Abort' | 'Overwrite';
  rescheduleTriggeredAt?: string;
  suspension?: BindingSuspension;
  preserveResourcesOnDeletion?: boolean;
  schedulePriority?: { priority?: number };
  workloadAffinityGroups?: WorkloadAffinityGroups;
  [field: string]: unknown;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface ResourceBindingStatus {
  schedulerObservedGeneration?: number;
  schedulerObservingAffinityName?: string;
  lastScheduledTime?: string;
  conditions?: Condition[];
  aggregatedStatus?: Record<string, unknown>[];
  [field: string]: unknown;
}

/** A ResourceBinding (namespaced) or ClusterResourceBinding (cluster-scoped). */
export interface ResourceBinding extends KubeObject {
  kind: 'ResourceBinding' | 'ClusterResourceBinding';
  spec: ResourceBindingSpec;
  status?: ResourceBindingStatus;
}

// ---------------------------------------------------------------------------------------------------
// Clusters (cluster.karmada.io/v1alpha1)

export type { ResourceModel, ResourceModelRange };

export interface ClusterSpec {
  id?: string;
  syncMode?: 'Push' | 'Pull';
  apiEndpoint?: string;
  provider?: string;
  region?: string;
  zone?: string;
  zones?: string[];
  taints?: Taint[];
  resourceModels?: ResourceModel[];
  [field: string]: unknown;
}

export interface APIEnablement {
  groupVersion: string;
  resources?: { name: string; kind: string }[];
}

export interface ResourceSummary {
  allocatable?: ResourceList;
  allocating?: ResourceList;
  allocated?: ResourceList;
  allocatableModelings?: { grade: number; count: number }[];
}

export interface ClusterStatus {
  kubernetesVersion?: string;
  apiEnablements?: APIEnablement[];
  conditions?: Condition[];
  nodeSummary?: { totalNum?: number; readyNum?: number };
  resourceSummary?: ResourceSummary;
  [field: string]: unknown;
}

export interface Cluster extends KubeObject {
  spec: ClusterSpec;
  status?: ClusterStatus;
}
