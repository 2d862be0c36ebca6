/**
 * What the binder writes for a binding (Karmada v1.15 `pkg/controllers/binding`: `ensureWork` /
 * `CreateOrUpdateWork`, the binding webhook's permanent id, the binding controller finalizer) and how
 * it compares an aggregated template status. Pure: new permanent ids come from the caller's
 * generator.
 */
import {
  BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  EXECUTION_CONTROLLER_FINALIZER,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
} from '../../api/well-known.ts';
import { WORK_GROUP } from '../../api/karmada-names.ts';
import { deepEqual } from '../../util/json.ts';
import type { KubeObject, ResourceBinding } from '../model/types.ts';
import type { RenderedWork } from './render.ts';

const WORK_API_VERSION = `${WORK_GROUP}/v1alpha1`;

/** The finalizer the binder keeps on a binding until its Works are deleted (one per binding kind). */
export function bindingFinalizerOf(binding: ResourceBinding): string {
  return binding.kind === 'ClusterResourceBinding'
    ? CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER
    : BINDING_CONTROLLER_FINALIZER;
}

/**
 * The binding with its permanent-id label and the binder's finalizer, or undefined when it has both.
 * Karmada's webhook gives every binding a permanent id (its Works are found by it).
 */
export function withPermanentIdAndFinalizer(
  binding: ResourceBinding,
  newUid: () => string,
): ResourceBinding | undefined {
  const finalizer = bindingFinalizerOf(binding);
  const idLabel =
    binding.kind === 'ClusterResourceBinding'
      ? CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL
      : RESOURCE_BINDING_PERMANENT_ID_LABEL;
  if ((binding.metadata.finalizers ?? []).includes(finalizer) && binding.metadata.labels?.[idLabel]) return undefined;
  return {
    ...binding,
    metadata: {
      ...binding.metadata,
      labels: { ...binding.metadata.labels, [idLabel]: binding.metadata.labels?.[idLabel] || newUid() },
      finalizers: [...(binding.metadata.finalizers ?? []).filter((f) => f !== finalizer), finalizer],
    },
  };
}

/** The Work object for a rendering, keeping what others own on the existing one (status, uid, version). */
export function workObject(rendered: RenderedWork, existing: KubeObject | undefined): KubeObject {
  const metadata = { ...(existing?.metadata ?? {}) };
  metadata.name = rendered.name;
  metadata.namespace = rendered.namespace;
  metadata.labels = { ...(existing?.metadata.labels ?? {}), ...rendered.labels };
  metadata.annotations = { ...(existing?.metadata.annotations ?? {}), ...rendered.annotations };
  // Applied-override annotations no longer applied are dropped.
  for (const key of Object.keys(existing?.metadata.annotations ?? {}))
    if (key.startsWith('policy.karmada.io/applied-') && !(key in rendered.annotations))
      delete metadata.annotations[key];
  const finalizers = [...(metadata.finalizers ?? [])];
  if (!finalizers.includes(EXECUTION_CONTROLLER_FINALIZER)) finalizers.push(EXECUTION_CONTROLLER_FINALIZER);
  metadata.finalizers = finalizers;
  const spec: Record<string, unknown> = { workload: { manifests: [rendered.manifest] } };
  if (rendered.suspendDispatching) spec.suspendDispatching = true;
  if (rendered.preserveResourcesOnDeletion) spec.preserveResourcesOnDeletion = true;
  return {
    apiVersion: WORK_API_VERSION,
    kind: 'Work',
    metadata,
    spec,
    ...(existing?.status ? { status: existing.status } : {}),
  };
}

/** Whether `desired` differs from `existing` in what the binder owns (spec, labels, annotations, finalizers). */
export function workChanged(existing: KubeObject, desired: KubeObject): boolean {
  return (
    !deepEqual(existing.spec, desired.spec) ||
    !deepEqual(existing.metadata.labels ?? {}, desired.metadata.labels ?? {}) ||
    !deepEqual(existing.metadata.annotations ?? {}, desired.metadata.annotations ?? {}) ||
    !deepEqual(existing.metadata.finalizers ?? [], desired.metadata.finalizers ?? [])
  );
}

/**
 * What the binder does with one cluster's Work: `create` or `update` it to `work`, `keep` the stored
 * one (already as rendered), or `wait` while the old one is still being deleted (its member objects
 * are being cleaned up).
 */
export type WorkPlan =
  { action: 'create' | 'update'; work: KubeObject } | { action: 'keep'; work: KubeObject } | { action: 'wait' };

/** The binder's intent for one cluster's Work ({@link workObject}, compared with the stored one). */
export function planWork(rendered: RenderedWork, existing: KubeObject | undefined): WorkPlan {
  const desired = workObject(rendered, existing);
  if (!existing) return { action: 'create', work: desired };
  if (existing.metadata.deletionTimestamp) return { action: 'wait' };
  if (!workChanged(existing, desired)) return { action: 'keep', work: existing };
  return { action: 'update', work: desired };
}

/** A status without its conditions' probe/transition times (aggregation stamps them with now). */
export function withoutConditionTimes(status: Record<string, unknown>): unknown {
  const conditions = status.conditions;
  if (!Array.isArray(conditions)) return status;
  return {
    ...status,
    conditions: conditions.map((c: Record<string, unknown>) => ({
      ...c,
      lastProbeTime: undefined,
      lastTransitionTime: undefined,
    })),
  };
}
