/**
 * The binding the detector keeps for a claimed resource template — Karmada v1.15 `pkg/detector`
 * (`BuildResourceBinding`, `BuildClusterResourceBinding` and the mutate functions of `ApplyPolicy` /
 * `ApplyClusterPolicy`), with the namespaces it never propagates from. Pure: the binding's permanent
 * id comes from the caller's generator.
 */
import {
  BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER,
  CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL,
  REPLICA_LIMITS_ANNOTATION,
  RESOURCE_BINDING_PERMANENT_ID_LABEL,
} from '../../api/well-known.ts';
import { replicaLimitsOf } from '../interpreter/limits.ts';
import type { ObjectRef } from '../../api/object.ts';
import { deepEqual } from '../../util/json.ts';
import type { BindingWorkload } from '../interpreter/interpret.ts';
import { canonical } from '../scheduler/reschedule.ts';
import { SCHEDULED_CONDITION } from '../scheduler/result.ts';
import type {
  KubeObject,
  PropagationPolicy,
  ResourceBinding,
  ResourceBindingSpec,
  WorkloadAffinityGroups,
} from '../model/types.ts';
import { applyClaim } from './claim.ts';

const BINDING_API_VERSION = 'work.karmada.io/v1alpha2';

/** Karmada never propagates from these namespaces (`--skipped-propagating-namespaces` default `kube-.*`, plus its own). */
const SKIPPED_NAMESPACE = /^(kube-.*|karmada-system|karmada-cluster|karmada-es-.*)$/;

/** Whether `object` lives in a namespace the detector skips (it is never matched against policies). */
export function inSkippedNamespace(object: KubeObject): boolean {
  return Boolean(object.metadata.namespace && SKIPPED_NAMESPACE.test(object.metadata.namespace));
}

/** How Karmada names a policy in its events: `policy(ns/name)` or `cluster policy(name)`. */
export function describePropagationPolicy(policy: PropagationPolicy): string {
  return policy.kind === 'PropagationPolicy'
    ? `policy(${policy.metadata.namespace}/${policy.metadata.name})`
    : `cluster policy(${policy.metadata.name})`;
}

/** Fields of the binding spec the detector owns (everything else — clusters, eviction tasks — is kept). */
export const POLICY_FIELDS = [
  'propagateDeps',
  'schedulerName',
  'placement',
  'failover',
  'conflictResolution',
  'preserveResourcesOnDeletion',
] as const;

/** What the detector decides a template's binding from. */
export interface BindingInput {
  /** Where the binding lives (`bindingRefOf(template)`). */
  ref: ObjectRef;
  template: KubeObject;
  /** The policy that claims the template. */
  policy: PropagationPolicy;
  /** What the interpreter reads from the template (`interpretBindingWorkload`). */
  workload: BindingWorkload;
  /** The stored binding, if any. */
  existing: ResourceBinding | undefined;
  /** A new permanent id, for a binding that has none yet. */
  newUid: () => string;
  /**
   * The binding's `spec.schedulePriority.priority` ({@link schedulePriorityOf}); absent when the policy
   * sets none or the `PriorityBasedScheduling` gate is off (then the binding carries none).
   */
  schedulePriority?: number;
  /** Feature gate `WorkloadAffinity` (Karmada ≥ 1.17, alpha; on here): fill `spec.workloadAffinityGroups`. */
  workloadAffinity?: boolean;
}

/**
 * The binding's workload affinity groups (Karmada `getWorkloadAffinityGroups`): `<key>=<value>` of the
 * template's label named by `placement.workloadAffinity.affinity|antiAffinity.groupByLabelKey`; a
 * template without that label is in no group; no group at all gives `undefined`.
 */
export function workloadAffinityGroupsOf(
  template: KubeObject,
  policy: PropagationPolicy,
): WorkloadAffinityGroups | undefined {
  const wa = policy.spec.placement?.workloadAffinity;
  if (!wa) return undefined;
  const labels = template.metadata.labels ?? {};
  const groups: WorkloadAffinityGroups = {};
  const affinityKey = wa.affinity?.groupByLabelKey;
  if (affinityKey !== undefined && Object.hasOwn(labels, affinityKey)) {
    groups.affinityGroup = `${affinityKey}=${labels[affinityKey]}`;
  }
  const antiKey = wa.antiAffinity?.groupByLabelKey;
  if (antiKey !== undefined && Object.hasOwn(labels, antiKey)) {
    groups.antiAffinityGroup = `${antiKey}=${labels[antiKey]}`;
  }
  return groups.affinityGroup || groups.antiAffinityGroup ? groups : undefined;
}

/** The PriorityClass a policy's `spec.schedulePriority` names, or why none applies. */
export type SchedulePriorityNeed =
  { kind: 'none' } | { kind: 'kube-priority-class'; name: string } | { kind: 'unsupported'; message: string };

/**
 * What a policy's `spec.schedulePriority` asks for (Karmada ≥ 1.15 `BuildResourceBinding`, gate
 * `PriorityBasedScheduling`): the named Kubernetes PriorityClass for `KubePriorityClass`; the other
 * sources are Karmada's "not supported yet" errors (the CRD schema already refuses them at admission).
 */
export function schedulePriorityNeed(policy: PropagationPolicy, gateEnabled: boolean): SchedulePriorityNeed {
  const wanted = policy.spec.schedulePriority;
  if (!gateEnabled || !wanted) return { kind: 'none' };
  switch (wanted.priorityClassSource) {
    case 'KubePriorityClass':
      return { kind: 'kube-priority-class', name: wanted.priorityClassName ?? '' };
    case 'PodPriorityClass':
      return {
        kind: 'unsupported',
        message: 'priority class source is PodPriorityClass, but PodPriorityClass is not supported yet',
      };
    case 'FederatedPriorityClass':
      return {
        kind: 'unsupported',
        message: 'priority class source is FederatedPriorityClass, but FederatedPriorityClass is not supported yet',
      };
    default:
      return { kind: 'unsupported', message: 'unsupported priority class source' };
  }
}

/** A PriorityClass's `value` (an int32; a stored object without one counts as 0, as Go's zero value). */
export function priorityClassValue(priorityClass: KubeObject): number {
  const value = (priorityClass as { value?: unknown }).value;
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

/**
 * The binding's `spec.schedulePriority.priority` for `need` once the PriorityClass it names was looked up
 * (`priorityClass`, undefined when absent): no priority when nothing is asked for; otherwise the class's
 * value, or why no binding can be built (Karmada's `BuildResourceBinding` errors).
 */
export function schedulePriorityOf(
  need: SchedulePriorityNeed,
  priorityClass: KubeObject | undefined,
): { ok: true; priority?: number } | { ok: false; message: string } {
  switch (need.kind) {
    case 'none':
      return { ok: true };
    case 'unsupported':
      return { ok: false, message: need.message };
    case 'kube-priority-class':
      return priorityClass
        ? { ok: true, priority: priorityClassValue(priorityClass) }
        : { ok: false, message: `PriorityClass ${JSON.stringify(need.name)} not found` };
  }
}

/**
 * The binding the detector wants for `template` under `policy` (Karmada `BuildResourceBinding` and the
 * update's mutate function): policy fields copied, replicas/requirements or components from the
 * interpreter, owner reference to the template, claim metadata and the binding's permanent id.
 */
export function desiredBinding({
  ref,
  template,
  policy,
  workload,
  existing,
  newUid,
  schedulePriority,
  workloadAffinity = true,
}: BindingInput): ResourceBinding {
  const namespaced = Boolean(template.metadata.namespace);
  const idLabel = namespaced ? RESOURCE_BINDING_PERMANENT_ID_LABEL : CLUSTER_RESOURCE_BINDING_PERMANENT_ID_LABEL;
  const base = (existing ?? {
    apiVersion: BINDING_API_VERSION,
    kind: namespaced ? 'ResourceBinding' : 'ClusterResourceBinding',
    metadata: { name: ref.name, ...(namespaced ? { namespace: ref.namespace } : {}) },
    spec: {} as ResourceBindingSpec,
  }) as ResourceBinding;
  const claimed = applyClaim(base, policy);
  const labels = { ...claimed.metadata.labels };
  labels[idLabel] ??= newUid();
  const spec: ResourceBindingSpec = { ...base.spec };
  spec.resource = {
    apiVersion: template.apiVersion,
    kind: template.kind,
    ...(template.metadata.namespace ? { namespace: template.metadata.namespace } : {}),
    name: template.metadata.name!,
    ...(template.metadata.uid ? { uid: template.metadata.uid } : {}),
    ...(template.metadata.resourceVersion ? { resourceVersion: template.metadata.resourceVersion } : {}),
  };
  for (const field of POLICY_FIELDS) {
    const value = policy.spec[field];
    if (value === undefined) delete spec[field];
    else (spec as Record<string, unknown>)[field] = structuredClone(value);
  }
  if (schedulePriority !== undefined) spec.schedulePriority = { priority: schedulePriority };
  else delete spec.schedulePriority;
  // Workload affinity applies to namespaced workloads only (Karmada leaves it off ClusterResourceBindings).
  const groups = workloadAffinity && namespaced ? workloadAffinityGroupsOf(template, policy) : undefined;
  if (groups) spec.workloadAffinityGroups = groups;
  else delete spec.workloadAffinityGroups;
  // Suspension: the policy's, keeping the binding-only `scheduling` a third party may have set.
  const scheduling = base.spec.suspension?.scheduling;
  const suspension = { ...(policy.spec.suspension ?? {}), ...(scheduling !== undefined ? { scheduling } : {}) };
  if (Object.keys(suspension).length > 0) spec.suspension = suspension;
  else delete spec.suspension;
  delete spec.replicas;
  delete spec.replicaRequirements;
  delete spec.components;
  if (workload.components) spec.components = workload.components;
  else {
    if (workload.replicas !== undefined) spec.replicas = workload.replicas;
    if (workload.replicaRequirements) spec.replicaRequirements = workload.replicaRequirements;
  }
  const ownerReferences = [
    ...(base.metadata.ownerReferences ?? []).filter((o) => o.uid !== template.metadata.uid && !o.controller),
    {
      apiVersion: template.apiVersion,
      kind: template.kind,
      name: template.metadata.name!,
      uid: template.metadata.uid!,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  // The binder removes its finalizer once the binding's Works are deleted (Karmada's binding controller).
  const finalizer = namespaced ? BINDING_CONTROLLER_FINALIZER : CLUSTER_RESOURCE_BINDING_CONTROLLER_FINALIZER;
  const finalizers = [...(base.metadata.finalizers ?? [])];
  if (!finalizers.includes(finalizer)) finalizers.push(finalizer);
  // Per-replica limits for `limits.*` quota keys (a binding has no field for them).
  const annotations = { ...claimed.metadata.annotations };
  const limits = spec.components ? undefined : replicaLimitsOf(template);
  if (limits) annotations[REPLICA_LIMITS_ANNOTATION] = canonical(limits);
  else delete annotations[REPLICA_LIMITS_ANNOTATION];
  return {
    ...claimed,
    metadata: {
      ...claimed.metadata,
      labels,
      ...(Object.keys(annotations).length ? { annotations } : {}),
      ownerReferences,
      finalizers,
    },
    spec,
  } as ResourceBinding;
}

/**
 * Whether `desired` differs from `existing` in anything the detector owns: spec, labels, annotations,
 * owner references, finalizers (status is the scheduler's and the binder's).
 */
export function bindingChanged(existing: ResourceBinding, desired: ResourceBinding): boolean {
  return (
    !deepEqual(existing.spec, desired.spec) ||
    !deepEqual(existing.metadata.labels ?? {}, desired.metadata.labels ?? {}) ||
    !deepEqual(existing.metadata.annotations ?? {}, desired.metadata.annotations ?? {}) ||
    !deepEqual(existing.metadata.ownerReferences ?? [], desired.metadata.ownerReferences ?? []) ||
    !deepEqual(existing.metadata.finalizers ?? [], desired.metadata.finalizers ?? [])
  );
}

/** What the detector does with a template's binding: the object to write, and who to hand it to. */
export interface BindingPlan {
  /** The binding as the detector wants it. */
  binding: ResourceBinding;
  /** `create` when there is none, `update` when the stored one differs, `undefined` when it already says this. */
  write: 'create' | 'update' | undefined;
  /**
   * Hand it to the scheduler: it changed, or it was never scheduled. The scheduler places it (or keeps
   * its placement) and hands it on to the binder: one straight pipeline for every edit.
   */
  schedule: boolean;
}

/** The detector's intent for a template's binding ({@link desiredBinding}, compared with the stored one). */
export function planBinding(input: BindingInput): BindingPlan {
  const { existing } = input;
  const binding = desiredBinding(input);
  const write = !existing ? 'create' : bindingChanged(existing, binding) ? 'update' : undefined;
  const changed = write !== undefined;
  return {
    binding,
    write,
    schedule: changed || !existing?.status?.conditions?.some((c) => c.type === SCHEDULED_CONDITION),
  };
}
