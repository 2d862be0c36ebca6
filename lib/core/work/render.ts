/**
 * Binding → Work rendering for one target cluster, as Karmada v1.15.9's binding controllers do it
 * (`pkg/controllers/binding/common.go` `ensureWork`, `pkg/controllers/ctrlutil/work.go`
 * `CreateOrUpdateWork`, `pkg/util/work.go` `SetLabelsAndAnnotationsForWorkload`). Pure: the caller
 * writes the Work.
 */
import { executionNamespace } from '../../api/karmada-names.ts';
import { cloneJson } from '../../util/json.ts';
import { compareGoStrings } from '../../util/strings.ts';
import { appliedOverridesAnnotations, applyOverrides } from '../overrides/apply.ts';
import { applicablePolicies } from '../overrides/select.ts';
import type { OverridePolicy, OverridePolicyRef } from '../overrides/types.ts';
import type { Cluster, KubeObject, ResourceBinding, ResourceBindingSpec } from '../model/types.ts';
import {
  CLUSTER_RESOURCE_BINDING_NAME_ANNOTATION,
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  CONFLICT_RESOLUTION_ABORT,
  CONFLICT_RESOLUTION_ANNOTATION,
  CONFLICT_RESOLUTION_OVERWRITE,
  MANAGED_ANNOTATIONS_ANNOTATION,
  MANAGED_BY_KARMADA_LABEL,
  MANAGED_BY_KARMADA_LABEL_VALUE,
  MANAGED_LABELS_ANNOTATION,
  RESOURCE_BINDING_NAME_ANNOTATION,
  RESOURCE_BINDING_NAMESPACE_ANNOTATION,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
  RESOURCE_TEMPLATE_GENERATION_ANNOTATION,
  RESOURCE_TEMPLATE_UID_ANNOTATION,
  WORK_NAME_ANNOTATION,
  WORK_NAMESPACE_ANNOTATION,
  WORK_PERMANENT_ID_LABEL,
} from '../../api/well-known.ts';
import { generateWorkName } from './names.ts';
import { pruneIrrelevantFields } from './prune.ts';
import { applyJobCompletions, bindingTargetClusters, jobCompletionsFor, reviseReplica } from './revise.ts';

/** What {@link renderWork} needs: one snapshot of the template, the binding and the target cluster. */
export interface RenderWorkInput {
  /** The stored resource template (with `metadata.uid`, `generation`, `status`, …). Not modified. */
  template: KubeObject;
  /** The ResourceBinding or ClusterResourceBinding (`kind` tells which), carrying its permanent-id label. */
  binding: ResourceBinding;
  /** The target cluster, for override `targetCluster` matching; its name names the execution namespace. */
  cluster: Cluster;
  /**
   * This cluster's replicas. Absent: taken from the binding's target clusters (`spec.clusters`, then
   * `spec.requiredBy[*].clusters`; a listed cluster without `replicas` counts 0, as Go's int32 does);
   * a cluster the binding does not target is then not revised.
   */
  replicas?: number;
  /** OverridePolicies (only those in the template's namespace apply). */
  overridePolicies?: readonly OverridePolicy[];
  clusterOverridePolicies?: readonly OverridePolicy[];
  /**
   * The `work.karmada.io/permanent-id` of the existing Work, if any. Karmada stamps it onto the
   * manifest when updating a Work (the Work mutating webhook does it on create), before recording the
   * managed-labels annotation.
   */
  workPermanentId?: string;
  /**
   * Labels carried over from the cluster the workload failed on (state preservation,
   * `injectReservedLabelState`): merged into the manifest after the overrides.
   */
  preservedLabels?: Readonly<Record<string, string>>;
}

/** The Work to create or update in `karmada-es-<cluster>`, with finalizer `karmada.io/execution-controller`. */
export interface RenderedWork {
  /** {@link generateWorkName} of the manifest's kind, name and namespace. */
  name: string;
  /** `karmada-es-<cluster>`. */
  namespace: string;
  /** The Work's labels Karmada sets: the binding's permanent-id label (merge into existing labels). */
  labels: Record<string, string>;
  /** Binding namespace/name (or ClusterResourceBinding name), conflict resolution, applied overrides. */
  annotations: Record<string, string>;
  /** `spec.workload.manifests[0]`: the object to apply on the member cluster. */
  manifest: KubeObject;
  /** `spec.suspendDispatching`. */
  suspendDispatching: boolean;
  /** `spec.preserveResourcesOnDeletion`. */
  preserveResourcesOnDeletion: boolean;
}

/** The result of {@link renderWork}: a Work, or the override failure that stops this cluster's Work. */
export type RenderWorkResult =
  { ok: true; work: RenderedWork } | { ok: false; error: string; policy?: OverridePolicyRef };

/**
 * The `work.karmada.io/conflict-resolution` value (Karmada `mergeConflictResolution`): the template's
 * own annotation when it is `overwrite` or `abort` (anything else is ignored), else `overwrite` iff
 * the binding says `Overwrite`, else `abort`.
 *
 * @example conflictResolution(undefined, 'Overwrite') // 'overwrite'
 */
export function conflictResolution(
  templateAnnotation: string | undefined,
  bindingConflictResolution: ResourceBindingSpec['conflictResolution'],
): string {
  if (templateAnnotation === CONFLICT_RESOLUTION_OVERWRITE || templateAnnotation === CONFLICT_RESOLUTION_ABORT) {
    return templateAnnotation;
  }
  return bindingConflictResolution === 'Overwrite' ? CONFLICT_RESOLUTION_OVERWRITE : CONFLICT_RESOLUTION_ABORT;
}

/** Karmada `shouldSuspendDispatching`: suspended everywhere, or on this cluster by name. */
function suspendsDispatching(spec: ResourceBindingSpec, cluster: string): boolean {
  const suspension = spec.suspension;
  return suspension?.dispatching === true || (suspension?.dispatchingOnClusters?.clusterNames ?? []).includes(cluster);
}

const sortedKeys = (keys: Iterable<string>): string => [...new Set(keys)].sort(compareGoStrings).join(',');

/**
 * Renders the Work of `binding` for `cluster`, in Karmada's order: deep copy of the template; revise
 * this cluster's replicas (when `spec.replicas > 0`, Duplicated included: native hooks only, see
 * {@link reviseReplica}); Job completions for Divided bindings ({@link jobCompletionsFor}); overrides
 * last so they win (any failure: `ok: false` with the overrider's error, nothing rendered); then the
 * binding's id label and annotations, the template generation, `karmada.io/managed`, template uid,
 * Work name/namespace and conflict resolution on the manifest; then pruning
 * ({@link pruneIrrelevantFields}, so overrides of pruned fields do not survive) and the managed
 * labels/annotations key lists (which include Karmada's own keys). A failover's preserved label state
 * (`injectReservedLabelState`) comes in as `preservedLabels` and is merged after the overrides.
 *
 * @example
 * const r = renderWork({ template: deploy, binding: rb, cluster: member1, replicas: 2 });
 * if (r.ok) await putWork(r.work); else recordEvent('SyncWorkFailed', r.error);
 */
export function renderWork(input: RenderWorkInput): RenderWorkResult {
  const { binding, cluster } = input;
  const spec = binding.spec;
  const clusterName = cluster.metadata.name ?? '';

  let workload = cloneJson(input.template);
  const target = bindingTargetClusters(spec).find((c) => c.name === clusterName);
  const replicas = input.replicas ?? (target ? (target.replicas ?? 0) : undefined);
  if ((spec.replicas ?? 0) > 0 && replicas !== undefined) workload = reviseReplica(workload, replicas);
  const completions = jobCompletionsFor(input.template, spec, clusterName);
  if (completions !== undefined) workload = applyJobCompletions(workload, completions);

  const overridden = applyOverrides(
    workload,
    applicablePolicies({
      template: workload,
      cluster,
      overridePolicies: input.overridePolicies,
      clusterOverridePolicies: input.clusterOverridePolicies,
    }),
  );
  if (!overridden.ok) return { ok: false, error: overridden.error, policy: overridden.policy };

  // `overridden.object` is a fresh copy: edit it in place from here on.
  const manifest = overridden.object;
  const meta = manifest.metadata;
  const namespaced = binding.kind === 'ResourceBinding';
  const idLabel = namespaced ? RESOURCE_BINDING_PERMANENT_ID_LABEL : CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL;
  const bindingId = binding.metadata.labels?.[idLabel] ?? '';
  const bindingAnnotations: Record<string, string> = namespaced
    ? {
        [RESOURCE_BINDING_NAMESPACE_ANNOTATION]: binding.metadata.namespace ?? '',
        [RESOURCE_BINDING_NAME_ANNOTATION]: binding.metadata.name ?? '',
      }
    : { [CLUSTER_RESOURCE_BINDING_NAME_ANNOTATION]: binding.metadata.name ?? '' };
  const conflict = conflictResolution(meta.annotations?.[CONFLICT_RESOLUTION_ANNOTATION], spec.conflictResolution);

  // The Work's name comes from the overridden manifest, as in Karmada.
  const name = generateWorkName(manifest.kind, meta.name ?? '', meta.namespace);
  const namespace = executionNamespace(clusterName);

  meta.labels = {
    ...meta.labels,
    ...input.preservedLabels,
    [idLabel]: bindingId,
    [MANAGED_BY_KARMADA_LABEL]: MANAGED_BY_KARMADA_LABEL_VALUE,
  };
  meta.annotations = {
    ...meta.annotations,
    ...((meta.generation ?? 0) > 0 ? { [RESOURCE_TEMPLATE_GENERATION_ANNOTATION]: String(meta.generation) } : {}),
    ...bindingAnnotations,
    [RESOURCE_TEMPLATE_UID_ANNOTATION]: meta.uid ?? '',
    [WORK_NAME_ANNOTATION]: name,
    [WORK_NAMESPACE_ANNOTATION]: namespace,
    [CONFLICT_RESOLUTION_ANNOTATION]: conflict,
  };

  const pruned = pruneIrrelevantFields(manifest);
  const labels = pruned.metadata.labels!;
  const annotations = pruned.metadata.annotations!;
  annotations[MANAGED_ANNOTATIONS_ANNOTATION] = sortedKeys([
    MANAGED_ANNOTATIONS_ANNOTATION,
    MANAGED_LABELS_ANNOTATION,
    ...Object.keys(annotations),
  ]);
  if (input.workPermanentId) labels[WORK_PERMANENT_ID_LABEL] = input.workPermanentId;
  annotations[MANAGED_LABELS_ANNOTATION] = sortedKeys(Object.keys(labels));

  return {
    ok: true,
    work: {
      name,
      namespace,
      labels: { [idLabel]: bindingId },
      annotations: {
        ...bindingAnnotations,
        [CONFLICT_RESOLUTION_ANNOTATION]: conflict,
        ...appliedOverridesAnnotations(overridden.applied),
      },
      manifest: pruned,
      suspendDispatching: suspendsDispatching(spec, clusterName),
      preserveResourcesOnDeletion: spec.preserveResourcesOnDeletion ?? false,
    },
  };
}
