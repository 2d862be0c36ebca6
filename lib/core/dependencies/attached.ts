/**
 * The pure decisions of Karmada's dependencies distributor
 * (`pkg/dependenciesdistributor/dependencies_distributor.go`) and of the binding controller's target
 * merge (`pkg/controllers/binding/common.go` `mergeTargetClusters`): for an *independent* binding
 * (one with `spec.propagateDeps`, scheduled to `spec.clusters`), each dependency object gets an
 * *attached* ResourceBinding `lower(<name>-<kind>)` in the same namespace, owned by the dependency
 * object, carrying `spec.requiredBy[] = {namespace, name, clusters}` per independent binding and a
 * `resourcebinding.karmada.io/depended-by-<hash>` label per independent binding. Attached bindings
 * have no placement and are never scheduled; Works go to `spec.clusters ∪ requiredBy[*].clusters`.
 *
 * Everything here takes plain JSON and returns fresh objects: inputs are never mutated and outputs
 * never alias them.
 */
import {
  BINDING_CONTROLLER_FINALIZER,
  DEPENDED_BY_LABEL_PREFIX,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
} from '../../api/well-known.ts';
import { safeEncodeString } from '../../util/strings.ts';
import { generateBindingName } from '../work/names.ts';
import { bindingTargetClusters } from '../work/revise.ts';
import { cloneJson } from '../../util/json.ts';
import { fnv32a } from '../scheduler/assignment/webster.ts';
import type { KubeObject, ResourceBinding, ResourceBindingSpec } from '../model/types.ts';
import type { DependencyRef } from './interpret.ts';

/**
 * Karmada's `names.GenerateBindingReferenceKey(namespace, name)`: FNV-32a of `namespace/name` (just
 * `name` without a namespace — `hash.DeepHashObject` prints a plain string with `%v`), as a decimal
 * string, safe-encoded.
 */
function bindingReferenceKey(namespace: string, name: string): string {
  const key = namespace.length > 0 ? `${namespace}/${name}` : name;
  return safeEncodeString(String(fnv32a(key)));
}

/**
 * The label key Karmada puts on an attached binding for one independent binding:
 * `resourcebinding.karmada.io/depended-by-<GenerateBindingReferenceKey(namespace, name)>`
 * (e.g. `test/test-binding` → `…/depended-by-5dbb6dc9c8`).
 */
export function dependedByLabelKey(independent: { namespace?: string; name: string }): string {
  return DEPENDED_BY_LABEL_PREFIX + bindingReferenceKey(independent.namespace ?? '', independent.name);
}

/**
 * Karmada's binding name for an object (`names.GenerateBindingName`): `<name>-<kind>` lower-cased,
 * with `:` in the name replaced by `.`.
 */
export const attachedBindingName = generateBindingName;

/**
 * The value Karmada records in {@link DEPENDENCIES_ANNOTATION} (`json.Marshal` of the
 * `[]DependentObjectReference`): fields in Go order, empty namespace and name omitted, `null` for no
 * dependencies (Karmada's nil slice). Karmada rewrites the annotation only when this string changes.
 */
export function dependenciesAnnotation(dependencies: readonly DependencyRef[]): string {
  if (dependencies.length === 0) return 'null';
  return JSON.stringify(
    dependencies.map((d) => ({
      apiVersion: d.apiVersion,
      kind: d.kind,
      ...(d.namespace ? { namespace: d.namespace } : {}),
      ...(d.name ? { name: d.name } : {}),
    })),
  );
}

function sameBinding(
  entry: { namespace?: string; name: string },
  independent: { namespace?: string; name: string },
): boolean {
  return (entry.namespace ?? '') === (independent.namespace ?? '') && entry.name === independent.name;
}

/** The controller owner reference (`metav1.GetControllerOfNoCopy`): the first with `controller: true`. */
function controllerOf(obj: KubeObject): { uid: string } | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/**
 * Whether Karmada refuses to update `existing` for `dependency`: its controller owner reference names
 * another UID (a stale binding of a deleted and re-created object, karmada-io/karmada#6034). Karmada
 * then returns an error and retries after the garbage collector has deleted the binding;
 * {@link attachedBinding} throws in that case.
 */
export function attachedBindingOwnerConflict(existing: ResourceBinding, dependency: KubeObject): boolean {
  const owner = controllerOf(existing);
  return owner !== undefined && owner.uid !== (dependency.metadata.uid ?? '');
}

/**
 * The desired attached ResourceBinding for `dependency` required by `independent`
 * (`buildAttachedBinding` + `createOrUpdateAttachedBinding`).
 *
 * Without `existing` — Karmada's create: `work.karmada.io/v1alpha2` ResourceBinding named
 * {@link attachedBindingName}`(kind, name)` in the independent binding's namespace; controller owner
 * reference (`blockOwnerDeletion`) to the dependency object (its `uid`); label
 * `{@link dependedByLabelKey}(independent)` = the independent binding's permanent-id label value
 * (`''` when absent); finalizer `karmada.io/binding-controller`; `spec.resource` = the object's
 * apiVersion/kind/namespace/name/resourceVersion; `spec.requiredBy` = `[{namespace, name, clusters:
 * independent.spec.clusters}]`; `conflictResolution` and `preserveResourcesOnDeletion` copied from
 * the independent binding.
 *
 * With `existing` — Karmada's update, on a copy of `existing`: `conflictResolution` replaced by the
 * independent binding's only when `existing.spec.placement` is absent (a policy-made binding keeps its
 * own); `preserveResourcesOnDeletion` always replaced (removed when the independent binding has none);
 * `spec.resource` replaced wholesale (so a `uid` the detector put there is dropped, as in Karmada);
 * the depended-by label merged into the existing labels; the requiredBy entry of this independent
 * binding replaces the clusters of every existing entry with its namespace/name, or is appended.
 * Everything else — other requiredBy entries, other labels, owner references, finalizers,
 * `metadata.resourceVersion`/`uid`, placement, `spec.clusters`, status — is kept.
 *
 * @throws {Error} when {@link attachedBindingOwnerConflict}`(existing, dependency)`.
 */
export function attachedBinding(input: {
  dependency: KubeObject;
  independent: ResourceBinding;
  existing?: ResourceBinding;
}): ResourceBinding {
  const { dependency, independent, existing } = input;
  const labelKey = dependedByLabelKey({
    namespace: independent.metadata.namespace,
    name: independent.metadata.name ?? '',
  });
  const bindingId = independent.metadata.labels?.[RESOURCE_BINDING_PERMANENT_ID_LABEL] ?? '';
  const depMeta = dependency.metadata;

  const resource: ResourceBindingSpec['resource'] = {
    apiVersion: dependency.apiVersion,
    kind: dependency.kind,
    ...(depMeta.namespace ? { namespace: depMeta.namespace } : {}),
    name: depMeta.name ?? '',
    ...(depMeta.resourceVersion ? { resourceVersion: depMeta.resourceVersion } : {}),
  };
  const requirement: NonNullable<ResourceBindingSpec['requiredBy']>[number] = {
    ...(independent.metadata.namespace ? { namespace: independent.metadata.namespace } : {}),
    name: independent.metadata.name ?? '',
    ...(independent.spec.clusters?.length ? { clusters: cloneJson(independent.spec.clusters) } : {}),
  };
  const conflictResolution = independent.spec.conflictResolution || undefined;
  const preserve = independent.spec.preserveResourcesOnDeletion ?? undefined;

  if (!existing) {
    const spec: ResourceBindingSpec = { resource, requiredBy: [requirement] };
    if (preserve !== undefined) spec.preserveResourcesOnDeletion = preserve;
    if (conflictResolution !== undefined) spec.conflictResolution = conflictResolution;
    return {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: attachedBindingName(dependency.kind, depMeta.name ?? ''),
        ...(independent.metadata.namespace ? { namespace: independent.metadata.namespace } : {}),
        ownerReferences: [
          {
            apiVersion: dependency.apiVersion,
            kind: dependency.kind,
            name: depMeta.name ?? '',
            uid: depMeta.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        labels: { [labelKey]: bindingId },
        finalizers: [BINDING_CONTROLLER_FINALIZER],
      },
      spec,
    };
  }

  if (attachedBindingOwnerConflict(existing, dependency)) {
    throw new Error(
      `failed to update resourceBinding(${existing.metadata.namespace ?? ''}/${existing.metadata.name ?? ''}) due to different owner reference UID, will try again later after binding is garbage collected, see https://github.com/karmada-io/karmada/issues/6034`,
    );
  }
  const out = cloneJson(existing);
  const spec = out.spec;
  if (spec.placement === undefined || spec.placement === null) {
    if (conflictResolution === undefined) delete spec.conflictResolution;
    else spec.conflictResolution = conflictResolution;
  }
  spec.requiredBy = mergeRequirement(spec.requiredBy, requirement);
  out.metadata.labels = { ...(out.metadata.labels ?? {}), [labelKey]: bindingId };
  spec.resource = resource;
  if (preserve === undefined) delete spec.preserveResourcesOnDeletion;
  else spec.preserveResourcesOnDeletion = preserve;
  return out;
}

type Requirement = NonNullable<ResourceBindingSpec['requiredBy']>[number];

/** `mergeBindingSnapshot(exist, [requirement])` on fresh objects. */
function mergeRequirement(exist: Requirement[] | undefined, requirement: Requirement): Requirement[] {
  if (!exist || exist.length === 0) return [requirement];
  let found = false;
  const merged = exist.map((entry) => {
    if (!sameBinding(entry, requirement)) return entry;
    found = true;
    const { clusters: _old, ...rest } = entry;
    return requirement.clusters ? { ...rest, clusters: cloneJson(requirement.clusters) } : rest;
  });
  if (!found) merged.push(requirement);
  return merged;
}

/**
 * The attached binding with the independent binding's requiredBy entries and depended-by label
 * removed (`removeScheduleResultFromAttachedBindings`), which also clears
 * `spec.preserveResourcesOnDeletion`; `undefined` when `existing` carries neither the label nor an
 * entry for it (Karmada only touches bindings its label selects). An emptied `requiredBy` and an
 * emptied `labels` map are dropped, as Go's `omitempty` marshals them.
 *
 * Karmada does **not** delete an attached binding whose `requiredBy` becomes empty: it keeps it (with
 * no target clusters, so the binding controller removes its Works) until the garbage collector deletes
 * it with its owner, the dependency object; a later requirement updates it again.
 */
export function withoutRequirement(
  existing: ResourceBinding,
  independent: { namespace?: string; name: string },
): ResourceBinding | undefined {
  const labelKey = dependedByLabelKey(independent);
  const hasLabel = existing.metadata.labels !== undefined && Object.hasOwn(existing.metadata.labels, labelKey);
  const hasEntry = (existing.spec.requiredBy ?? []).some((e) => sameBinding(e, independent));
  if (!hasLabel && !hasEntry) return undefined;

  const out = cloneJson(existing);
  if (out.metadata.labels) {
    delete out.metadata.labels[labelKey];
    if (Object.keys(out.metadata.labels).length === 0) delete out.metadata.labels;
  }
  const remaining = (out.spec.requiredBy ?? []).filter((e) => !sameBinding(e, independent));
  if (remaining.length > 0) out.spec.requiredBy = remaining;
  else delete out.spec.requiredBy;
  delete out.spec.preserveResourcesOnDeletion;
  return out;
}

/**
 * Whether an attached binding (found through its depended-by label) is an orphan of an independent
 * binding whose interpreted dependencies are `dependencies` (`findOrphanAttachedBindings` /
 * `isOrphanAttachedBindings` for named dependencies): no dependency has the binding's
 * `spec.resource` kind, apiVersion, namespace and name. Orphans get {@link withoutRequirement}.
 */
export function isOrphanAttachedBinding(attached: ResourceBinding, dependencies: readonly DependencyRef[]): boolean {
  const r = attached.spec.resource;
  return !dependencies.some(
    (d) =>
      d.kind === r.kind &&
      d.apiVersion === r.apiVersion &&
      (d.namespace ?? '') === (r.namespace ?? '') &&
      d.name !== '' &&
      d.name === r.name,
  );
}

/**
 * The clusters a binding renders Works on (`mergeTargetClusters(spec.clusters, spec.requiredBy)`):
 * `spec.clusters` as they are, then each requiredBy cluster not yet named, in requiredBy order
 * (replicas from that first occurrence). Karmada does not sort the result.
 */
export function targetClusters(binding: ResourceBinding): { name: string; replicas?: number }[] {
  return bindingTargetClusters(binding.spec);
}
