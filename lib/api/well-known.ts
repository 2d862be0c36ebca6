/**
 * Karmada's well-known labels, annotations and finalizers, in one place as Karmada keeps them
 * (v1.15: `pkg/util/constants.go`, `pkg/apis/policy/v1alpha1/well_known_constants.go`,
 * `pkg/apis/work/v1alpha2/well_known_constants.go` and `binding_types_helper.go`). Values are
 * Karmada's exact strings: they are how objects written by Karmada and by this control plane
 * recognise each other, so every layer reads them from here.
 */

// ------------------------------------------------------------------------------------------ labels

/** `util.ManagedByKarmadaLabel`: on every member object Karmada propagated (value {@link MANAGED_BY_KARMADA_LABEL_VALUE}). */
export const MANAGED_BY_KARMADA_LABEL = 'karmada.io/managed';
/** `util.ManagedByKarmadaLabelValue`. */
export const MANAGED_BY_KARMADA_LABEL_VALUE = 'true';

/** `util.KarmadaSystemLabel`: on system-level objects Karmada's controllers manage (execution namespaces). */
export const KARMADA_SYSTEM_LABEL = 'karmada.io/system';

/** `PropagationPolicyPermanentIDLabel`: a PropagationPolicy's permanent id (set on create, immutable). */
export const PP_PERMANENT_ID_LABEL = 'propagationpolicy.karmada.io/permanent-id';
/** `ClusterPropagationPolicyPermanentIDLabel`: a ClusterPropagationPolicy's permanent id (set on create, immutable). */
export const CPP_PERMANENT_ID_LABEL = 'clusterpropagationpolicy.karmada.io/permanent-id';

/** `ResourceBindingPermanentIDLabel`: a ResourceBinding's permanent id (on the binding, its Works and their manifests). */
export const RESOURCE_BINDING_PERMANENT_ID_LABEL = 'resourcebinding.karmada.io/permanent-id';
/** `ClusterResourceBindingPermanentIDLabel`: a ClusterResourceBinding's permanent id. */
export const CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL = 'clusterresourcebinding.karmada.io/permanent-id';

/** `WorkPermanentIDLabel`: set on a Work by the Work mutating webhook, copied onto its manifest. */
export const WORK_PERMANENT_ID_LABEL = 'work.karmada.io/permanent-id';
/** On a static-assignment Work: the namespace of the FederatedResourceQuota it comes from. */
export const FEDERATED_RESOURCE_QUOTA_NAMESPACE_LABEL = 'federatedresourcequota.karmada.io/namespace';
/** On a static-assignment Work: the name of the FederatedResourceQuota it comes from. */
export const FEDERATED_RESOURCE_QUOTA_NAME_LABEL = 'federatedresourcequota.karmada.io/name';
/**
 * On a ResourceBinding (ours, not Karmada's): the usage the FederatedResourceQuotas of its namespace
 * have been charged for it, written with its placement.
 */
export const QUOTA_CHARGED_ANNOTATION = 'resourcebinding.serverless-karmada.io/quota-charged';
/**
 * On a FederatedResourceQuota (ours, not Karmada's): the charges written to its `status.overallUsed`
 * whose binding may not show them yet — binding name → the usage the quota now holds for it, and when
 * (JSON). Written in the same conditional write as the charge, so that a recount running before the
 * binding is written counts what the quota holds, not what the binding still shows.
 */
export const QUOTA_CHARGES_IN_FLIGHT_ANNOTATION = 'federatedresourcequota.serverless-karmada.io/charges-in-flight';
/**
 * On a binding (ours): the generation whose Works the binder has rendered in full while the binding was
 * still charged more than its spec uses. The quota keeps a decrease (a scale-down, a smaller request, a
 * cluster left) charged until then, so the freed room is not handed to another workload while the
 * members may still run the larger rendering (lib/core/quota/binding.ts `releasableSurplus`).
 */
export const RENDERED_GENERATION_ANNOTATION = 'resourcebinding.serverless-karmada.io/rendered-generation';
/**
 * On a binding (ours): the `spec.rescheduleTriggeredAt` its last successful schedule saw (empty: none),
 * written with that schedule. A trigger that differs from it has not been answered yet, whatever the
 * two whole-second timestamps say (Karmada compares `rescheduleTriggeredAt` with `lastScheduledTime`,
 * and a WorkloadRebalancer created in the same second as the last schedule, or stamped after a
 * schedule that came between its creation and its stamp, is never answered).
 */
export const OBSERVED_RESCHEDULE_TRIGGER_ANNOTATION =
  'resourcebinding.serverless-karmada.io/observed-reschedule-trigger';
/**
 * On a binding (ours): the per-replica requests its placement's replicas are reserved at in the
 * scheduler's ledger, so requests raised on a kept placement are reserved once (lib/core/scheduler/growth.ts).
 */
export const RESERVED_REQUEST_ANNOTATION = 'resourcebinding.serverless-karmada.io/reserved-request';
/** On a binding (ours): the per-replica limits of its workload, for `limits.*` quota keys. */
export const REPLICA_LIMITS_ANNOTATION = 'resourcebinding.serverless-karmada.io/replica-limits';
/**
 * On a binding (ours): the state preservation labels a failover gave the copy on one cluster, kept after
 * that failover's task ended while the copy has not reported Healthy, so a later failover of that copy
 * carries them on (#6232). JSON `{"from":…,"cluster":…,"state":{…}}`.
 */
export const CARRIED_LABEL_STATE_ANNOTATION = 'resourcebinding.serverless-karmada.io/carried-label-state';

/** Prefix of the label an attached binding carries per independent binding (`dependedByLabelKeyPrefix`). */
export const DEPENDED_BY_LABEL_PREFIX = 'resourcebinding.karmada.io/depended-by-';

/** `NamespaceSkipAutoPropagationLabel`: a namespace with this label set to "true" stays on the control plane only. */
export const SKIP_AUTO_PROPAGATION_LABEL = 'namespace.karmada.io/skip-auto-propagation';

/** `DeletionProtectionLabelKey`: with value {@link DELETION_PROTECTION_ALWAYS}, deleting the object is refused. */
export const DELETION_PROTECTED_LABEL = 'resourcetemplate.karmada.io/deletion-protected';
/** `DeletionProtectionAlways`: the only value of {@link DELETION_PROTECTED_LABEL} that protects. */
export const DELETION_PROTECTION_ALWAYS = 'Always';

/**
 * The cluster a credential Secret belongs to. Karmada uses this key as an annotation (karmada-search
 * marks cached objects with their cluster); here it labels a cluster's Secrets so they can be found.
 */
export const CLUSTER_NAME_LABEL = 'cluster.karmada.io/name';

// ------------------------------------------------------------------------------------- annotations

/** `PropagationPolicyNamespaceAnnotation`: the namespace of the PropagationPolicy that claimed an object. */
export const PP_NAMESPACE_ANNOTATION = 'propagationpolicy.karmada.io/namespace';
/** `PropagationPolicyNameAnnotation`: the PropagationPolicy that claimed an object. */
export const PP_NAME_ANNOTATION = 'propagationpolicy.karmada.io/name';
/** `ClusterPropagationPolicyAnnotation`: the ClusterPropagationPolicy that claimed an object. */
export const CPP_NAME_ANNOTATION = 'clusterpropagationpolicy.karmada.io/name';

/** `ResourceBindingNamespaceAnnotationKey`: on a Work and its manifest, the ResourceBinding's namespace. */
export const RESOURCE_BINDING_NAMESPACE_ANNOTATION = 'resourcebinding.karmada.io/namespace';
/** `ResourceBindingNameAnnotationKey`: on a Work and its manifest, the ResourceBinding's name. */
export const RESOURCE_BINDING_NAME_ANNOTATION = 'resourcebinding.karmada.io/name';
/** `ClusterResourceBindingAnnotationKey`: on a Work and its manifest, the ClusterResourceBinding's name. */
export const CLUSTER_RESOURCE_BINDING_NAME_ANNOTATION = 'clusterresourcebinding.karmada.io/name';

/**
 * Annotation on an independent binding recording its interpreted dependencies as JSON
 * (`dependenciesAnnotationKey`); the dependencies distributor uses it to find the independent
 * bindings to requeue when a dependency object changes.
 */
export const DEPENDENCIES_ANNOTATION = 'resourcebinding.karmada.io/dependencies';

/** `WorkNameAnnotation`: on a manifest, the Work that carries it. */
export const WORK_NAME_ANNOTATION = 'work.karmada.io/name';
/** `WorkNamespaceAnnotation`: on a manifest, the Work's namespace (`karmada-es-<cluster>`). */
export const WORK_NAMESPACE_ANNOTATION = 'work.karmada.io/namespace';

/** `ResourceTemplateUIDAnnotation`: on a manifest, the resource template's uid. */
export const RESOURCE_TEMPLATE_UID_ANNOTATION = 'resourcetemplate.karmada.io/uid';
/** `ResourceTemplateGenerationAnnotationKey`: on a manifest, the template generation it was rendered from. */
export const RESOURCE_TEMPLATE_GENERATION_ANNOTATION = 'resourcetemplate.karmada.io/generation';
/** `ManagedLabels`: on a manifest, the sorted comma-joined keys of its labels. */
export const MANAGED_LABELS_ANNOTATION = 'resourcetemplate.karmada.io/managed-labels';
/** `ManagedAnnotation`: on a manifest, the sorted comma-joined keys of its annotations (itself included). */
export const MANAGED_ANNOTATIONS_ANNOTATION = 'resourcetemplate.karmada.io/managed-annotations';

/** `ResourceConflictResolutionAnnotation`: whether a Work may take over an existing, unmanaged member object. */
export const CONFLICT_RESOLUTION_ANNOTATION = 'work.karmada.io/conflict-resolution';
/** `ResourceConflictResolutionOverwrite`: take the existing object over. */
export const CONFLICT_RESOLUTION_OVERWRITE = 'overwrite';
/** `ResourceConflictResolutionAbort`: refuse to touch an existing object Karmada does not manage. */
export const CONFLICT_RESOLUTION_ABORT = 'abort';

/** `util.PolicyPlacementAnnotation`: on a binding, the placement its current `spec.clusters` was computed from. */
export const APPLIED_PLACEMENT_ANNOTATION = 'policy.karmada.io/applied-placement';
/** `util.AppliedOverrides`: the OverridePolicy rules applied to a Work's manifest. */
export const APPLIED_OVERRIDES_ANNOTATION = 'policy.karmada.io/applied-overrides';
/** `util.AppliedClusterOverrides`: the ClusterOverridePolicy rules applied to a Work's manifest. */
export const APPLIED_CLUSTER_OVERRIDES_ANNOTATION = 'policy.karmada.io/applied-cluster-overrides';

// -------------------------------------------------------------------------------------- finalizers

/** `util.ClusterControllerFinalizer` (on Clusters): the execution namespace and its Works go first. */
export const CLUSTER_CONTROLLER_FINALIZER = 'karmada.io/cluster-controller';
/** `util.ExecutionControllerFinalizer` (on Works): the member object is deleted (or released) first. */
export const EXECUTION_CONTROLLER_FINALIZER = 'karmada.io/execution-controller';
/** `util.BindingControllerFinalizer` (on ResourceBindings): their Works are deleted first. */
export const BINDING_CONTROLLER_FINALIZER = 'karmada.io/binding-controller';
/** `util.ClusterResourceBindingControllerFinalizer`: the same for ClusterResourceBindings. */
export const CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER = 'karmada.io/cluster-resource-binding-controller';
/** `util.BindingDependenciesDistributorFinalizer` (on independent bindings with `propagateDeps`). */
export const BINDING_DEPENDENCIES_DISTRIBUTOR_FINALIZER = 'karmada.io/binding-dependencies-distributor';
/** `util.PropagationPolicyControllerFinalizer`: the mutating webhook adds it to a PropagationPolicy on create. */
export const PP_FINALIZER = 'karmada.io/propagation-policy-controller';
/** `util.ClusterPropagationPolicyControllerFinalizer`: the same for a ClusterPropagationPolicy. */
export const CPP_FINALIZER = 'karmada.io/cluster-propagation-policy-controller';

// ------------------------------------------------------------------------------------------- lists

/**
 * `util.ManagedResourceLabels`: the labels the execution controller strips from a member object it
 * preserves on Work deletion. Note Karmada does not list the ClusterResourceBinding permanent-id label.
 */
export const MANAGED_RESOURCE_LABELS: readonly string[] = [
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
  WORK_PERMANENT_ID_LABEL,
  MANAGED_BY_KARMADA_LABEL,
];

/**
 * `util.ManagedResourceAnnotations`: the annotations stripped on preserve. Karmada does not list the
 * ClusterResourceBinding name or the conflict-resolution annotation, so those stay on the object.
 */
export const MANAGED_RESOURCE_ANNOTATIONS: readonly string[] = [
  MANAGED_ANNOTATIONS_ANNOTATION,
  MANAGED_LABELS_ANNOTATION,
  RESOURCE_BINDING_NAMESPACE_ANNOTATION,
  RESOURCE_BINDING_NAME_ANNOTATION,
  RESOURCE_TEMPLATE_UID_ANNOTATION,
  RESOURCE_TEMPLATE_GENERATION_ANNOTATION,
  WORK_NAME_ANNOTATION,
  WORK_NAMESPACE_ANNOTATION,
];

// ------------------------------------------------------------------------------------------ search

/** karmada-search's `clusterv1alpha1.CacheSourceAnnotationKey`: on every object the proxy or search serves from its cache. */
export const CACHED_FROM_CLUSTER_ANNOTATION = 'resource.karmada.io/cached-from-cluster';
