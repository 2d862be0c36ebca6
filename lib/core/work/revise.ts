/**
 * Per-cluster replica revision of a workload before it is wrapped in a Work (Karmada v1.15.9
 * `pkg/controllers/binding/common.go` `ensureWork`, `pkg/resourceinterpreter/default/native/revisereplica.go`,
 * `pkg/util/helper/unstructured.go` `ApplyReplica`).
 */
import { interpreterKey } from '../interpreter/hooks/registry.ts';
import { spreadByTargetClusters } from '../scheduler/assignment/dispenser.ts';
import type { KubeObject, ResourceBindingSpec, TargetCluster } from '../model/types.ts';

/**
 * Karmada's native `ReviseReplica` hooks: the `spec` field that carries one cluster's share. Only
 * these three (ReplicaSet and Pod have none); kinds with a customized hook (Lua, webhook, third-party)
 * are not revised here.
 */
export const NATIVE_REVISE_REPLICA_FIELDS: ReadonlyMap<string, 'replicas' | 'parallelism'> = new Map([
  [interpreterKey('apps/v1', 'Deployment'), 'replicas'],
  [interpreterKey('apps/v1', 'StatefulSet'), 'replicas'],
  [interpreterKey('batch/v1', 'Job'), 'parallelism'],
]);

/**
 * The clusters a binding renders Works for (Karmada `mergeTargetClusters`): `spec.clusters`, then the
 * clusters of `spec.requiredBy[*]` not already listed, each with the replicas of its first occurrence.
 */
export function bindingTargetClusters(spec: Pick<ResourceBindingSpec, 'clusters' | 'requiredBy'>): TargetCluster[] {
  const out = (spec.clusters ?? []).map((c) => ({ ...c }));
  const seen = new Set(out.map((c) => c.name));
  for (const requiredBy of spec.requiredBy ?? []) {
    for (const c of requiredBy.clusters ?? []) {
      if (seen.has(c.name)) continue;
      seen.add(c.name);
      out.push({ ...c });
    }
  }
  return out;
}

/** `spec[field]` when it is present and a number (Karmada `unstructured.NestedInt64`). */
function specNumber(object: KubeObject, field: string): number | undefined {
  const spec = object.spec as Record<string, unknown> | undefined;
  const value = spec?.[field];
  return typeof value === 'number' ? value : undefined;
}

/** `object` with `spec[field] = value` when that field is present (Karmada `ApplyReplica`); otherwise `object` itself. */
function applyReplica<T extends KubeObject>(object: T, field: string, value: number): T {
  if (specNumber(object, field) === undefined) return object;
  return { ...object, spec: { ...(object.spec as Record<string, unknown>), [field]: value } };
}

/**
 * `object` with one cluster's `replicas` written into the field its native `ReviseReplica` hook
 * names (Deployment/StatefulSet `spec.replicas`, Job `spec.parallelism`) — only when that field is
 * already present, as Karmada's `ApplyReplica` does. Other kinds come back unchanged. Returns a
 * shallow-edited copy (the input is not modified) or the input itself when nothing changes.
 *
 * @example reviseReplica(deploy, 2).spec.replicas // 2
 */
export function reviseReplica<T extends KubeObject>(object: T, replicas: number): T {
  const field = NATIVE_REVISE_REPLICA_FIELDS.get(interpreterKey(object.apiVersion, object.kind));
  return field ? applyReplica(object, field, replicas) : object;
}

/**
 * The `spec.completions` of a Job for one cluster when its binding divides replicas (Karmada
 * `needReviseJobCompletions` + `divideReplicasByJobCompletions`): the template's completions spread
 * over the binding's target clusters with their replicas (the per-cluster parallelism) as weights
 * (`SpreadReplicasByTargetClusters`: floor shares, remainder to the heaviest first). `undefined` when
 * not a Job, `spec.replicas` is 0, the placement is not Divided, the template has no `completions`
 * (work-queue Jobs), every weight is 0, or `cluster` is not a target.
 *
 * Deliberate difference: Karmada v1.15 pairs the spread result (sorted by weight) with the target
 * clusters by position, so a lighter cluster listed first can receive the heavier share. The share
 * is looked up by cluster name here, as upstream fixed it (karmada-io/karmada afb974f08, v1.18).
 *
 * @example jobCompletionsFor(job10, { replicas: 5, clusters: [{name:'a',replicas:3},{name:'b',replicas:2}], placement: divided }, 'a') // 6
 */
export function jobCompletionsFor(
  template: KubeObject,
  spec: Pick<ResourceBindingSpec, 'replicas' | 'placement' | 'clusters' | 'requiredBy'>,
  cluster: string,
): number | undefined {
  if (template.kind !== 'Job') return undefined;
  const scheduling = spec.placement?.replicaScheduling;
  // An absent `replicaSchedulingType` inside `replicaScheduling` is the CRD default, Divided.
  if (!((spec.replicas ?? 0) > 0 && scheduling && (scheduling.replicaSchedulingType ?? 'Divided') === 'Divided')) {
    return undefined;
  }
  const completions = specNumber(template, 'completions');
  if (completions === undefined) return undefined;
  const shares = spreadByTargetClusters(completions, bindingTargetClusters(spec), []);
  return shares.find((s) => s.name === cluster)?.replicas;
}

/** `object` with `spec.completions` set when present (Karmada `ApplyReplica(…, CompletionsField)`). */
export function applyJobCompletions<T extends KubeObject>(object: T, completions: number): T {
  return applyReplica(object, 'completions', completions);
}
