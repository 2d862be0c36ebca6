/**
 * Names Karmada's admission webhooks set and check (v1.15: `pkg/apis/*\/well_known_constants.go`,
 * `pkg/util/constants.go`), and the context defaulting needs.
 */

/** API group of PropagationPolicy, OverridePolicy, FederatedResourceQuota and their cluster-scoped kin. */
export const POLICY_GROUP = 'policy.karmada.io';
/** API group of ResourceInterpreterCustomization. */
export const CONFIG_GROUP = 'config.karmada.io';

/** Label carrying a PropagationPolicy's permanent id (set on create, immutable). */
export const PP_PERMANENT_ID_LABEL = 'propagationpolicy.karmada.io/permanent-id';
/** Label carrying a ClusterPropagationPolicy's permanent id (set on create, immutable). */
export const CPP_PERMANENT_ID_LABEL = 'clusterpropagationpolicy.karmada.io/permanent-id';
/** Finalizer the mutating webhook adds to a PropagationPolicy on create. */
export const PP_FINALIZER = 'karmada.io/propagation-policy-controller';
/** Finalizer the mutating webhook adds to a ClusterPropagationPolicy on create. */
export const CPP_FINALIZER = 'karmada.io/cluster-propagation-policy-controller';
/** Label carrying a ResourceBinding's permanent id. */
export const RB_PERMANENT_ID_LABEL = 'resourcebinding.karmada.io/permanent-id';
/** Label carrying a ClusterResourceBinding's permanent id. */
export const CRB_PERMANENT_ID_LABEL = 'clusterresourcebinding.karmada.io/permanent-id';
/** Label carrying a Work's permanent id (also copied onto its manifests). */
export const WORK_PERMANENT_ID_LABEL = 'work.karmada.io/permanent-id';
/** Annotation listing the label keys Karmada manages on a manifest. */
export const MANAGED_LABELS_ANNOTATION = 'resourcetemplate.karmada.io/managed-labels';
/** Annotation listing the annotation keys Karmada manages on a manifest. */
export const MANAGED_ANNOTATIONS_ANNOTATION = 'resourcetemplate.karmada.io/managed-annotations';

/** What defaulting needs from the request: a uid source, the request time and the operation. */
export interface KarmadaDefaultingContext {
  /** A fresh UUID (Karmada: `uuid.New()`), for permanent ids. */
  newUid: () => string;
  /** The request time, RFC 3339 (taints' `timeAdded`). */
  now: string;
  operation: 'CREATE' | 'UPDATE';
}
