/**
 * The labels, annotations and finalizers Karmada v1.15.9 puts on Works and on the manifests they
 * carry to member clusters (`pkg/apis/work/v1alpha2/well_known_constants.go`, `pkg/util/constants.go`;
 * shared/reference/karmada-behaviour.md §1.1, §2.15). Values are Karmada's exact strings.
 */
// Named once for every layer in lib/api/karmada-names.ts.
import { RESOURCE_BINDING_PERMANENT_ID_LABEL } from '../../api/karmada-names.ts';
export {
  BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  EXECUTION_CONTROLLER_FINALIZER,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
} from '../../api/karmada-names.ts';

/** `util.ManagedByKarmadaLabel`: on every member object Karmada propagated (value {@link MANAGED_BY_KARMADA_LABEL_VALUE}). */
export const MANAGED_BY_KARMADA_LABEL = 'karmada.io/managed';
/** `util.ManagedByKarmadaLabelValue`. */
export const MANAGED_BY_KARMADA_LABEL_VALUE = 'true';

/** `WorkPermanentIDLabel`: set on a Work by the Work mutating webhook, copied onto its manifest. */
export const WORK_PERMANENT_ID_LABEL = 'work.karmada.io/permanent-id';

/** `WorkNameAnnotation`: on a manifest, the Work that carries it. */
export const WORK_NAME_ANNOTATION = 'work.karmada.io/name';
/** `WorkNamespaceAnnotation`: on a manifest, the Work's namespace (`karmada-es-<cluster>`). */
export const WORK_NAMESPACE_ANNOTATION = 'work.karmada.io/namespace';
/** `ResourceBindingNamespaceAnnotationKey`: on a Work and its manifest, the ResourceBinding's namespace. */
export const RESOURCE_BINDING_NAMESPACE_ANNOTATION = 'resourcebinding.karmada.io/namespace';
/** `ResourceBindingNameAnnotationKey`: on a Work and its manifest, the ResourceBinding's name. */
export const RESOURCE_BINDING_NAME_ANNOTATION = 'resourcebinding.karmada.io/name';
/** `ClusterResourceBindingAnnotationKey`: on a Work and its manifest, the ClusterResourceBinding's name. */
export const CLUSTER_RESOURCE_BINDING_NAME_ANNOTATION = 'clusterresourcebinding.karmada.io/name';
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

/** `util.ClusterControllerFinalizer` (on Clusters): the execution namespace and its Works go first. */
export const CLUSTER_CONTROLLER_FINALIZER = 'karmada.io/cluster-controller';
/** `util.BindingDependenciesDistributorFinalizer` (on independent bindings with `propagateDeps`). */
export const BINDING_DEPENDENCIES_DISTRIBUTOR_FINALIZER = 'karmada.io/binding-dependencies-distributor';

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
