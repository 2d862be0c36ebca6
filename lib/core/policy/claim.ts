/**
 * Policy claims on resource templates and bindings — Karmada v1.15 `pkg/detector/claim.go`
 * (`AddPPClaimMetadata`, `AddCPPClaimMetadata`, `Cleanup*ClaimMetadata`, `NeedCleanupClaimMetadata`) and
 * `ClaimPolicyForObject` / `ClaimClusterPolicyForObject` in `pkg/detector/detector.go`.
 */
import {
  CPP_NAME_ANNOTATION,
  CPP_PERMANENT_ID_LABEL,
  PP_NAME_ANNOTATION,
  PP_NAMESPACE_ANNOTATION,
  PP_PERMANENT_ID_LABEL,
} from '../../api/well-known.ts';
import type { KubeObject, PropagationPolicy } from '../model/types.ts';

export type PolicyKind = PropagationPolicy['kind'];

/** Who claimed an object: the policy's kind, namespace (PropagationPolicy only), name and permanent id. */
export interface PolicyClaim {
  kind: PolicyKind;
  namespace?: string;
  name: string;
  permanentId: string;
}

/** The claim labels and annotations one policy puts on a template and its binding. */
export interface ClaimMetadata {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

const CLAIM_KEYS: Record<PolicyKind, { labels: string[]; annotations: string[] }> = {
  PropagationPolicy: { labels: [PP_PERMANENT_ID_LABEL], annotations: [PP_NAMESPACE_ANNOTATION, PP_NAME_ANNOTATION] },
  ClusterPropagationPolicy: { labels: [CPP_PERMANENT_ID_LABEL], annotations: [CPP_NAME_ANNOTATION] },
};

/** The label carrying the permanent id of a policy of this kind. */
export function permanentIdLabel(kind: PolicyKind): string {
  return kind === 'PropagationPolicy' ? PP_PERMANENT_ID_LABEL : CPP_PERMANENT_ID_LABEL;
}

/** The policy's permanent id (its own permanent-id label; `''` when missing, as in Karmada). */
export function policyPermanentId(policy: PropagationPolicy): string {
  return policy.metadata.labels?.[permanentIdLabel(policy.kind)] ?? '';
}

/**
 * The labels and annotations a claim by `policy` sets: PropagationPolicy — label
 * `propagationpolicy.karmada.io/permanent-id` and annotations `propagationpolicy.karmada.io/namespace`,
 * `propagationpolicy.karmada.io/name`; ClusterPropagationPolicy — label
 * `clusterpropagationpolicy.karmada.io/permanent-id` and annotation `clusterpropagationpolicy.karmada.io/name`.
 */
export function claimMetadata(policy: PropagationPolicy): ClaimMetadata {
  const id = policyPermanentId(policy);
  const name = policy.metadata.name ?? '';
  return policy.kind === 'PropagationPolicy'
    ? {
        labels: { [PP_PERMANENT_ID_LABEL]: id },
        annotations: { [PP_NAMESPACE_ANNOTATION]: policy.metadata.namespace ?? '', [PP_NAME_ANNOTATION]: name },
      }
    : { labels: { [CPP_PERMANENT_ID_LABEL]: id }, annotations: { [CPP_NAME_ANNOTATION]: name } };
}

/**
 * Who claims `object`, as Karmada's `propagateResource` reads it: a PropagationPolicy claim needs the
 * namespace and name annotations and the permanent-id label all non-empty, and wins over a
 * ClusterPropagationPolicy claim (name annotation + permanent-id label). Partial claims count as none.
 */
export function claimedBy(object: KubeObject): PolicyClaim | undefined {
  const labels = object.metadata.labels ?? {};
  const annotations = object.metadata.annotations ?? {};
  const ppNamespace = annotations[PP_NAMESPACE_ANNOTATION];
  const ppName = annotations[PP_NAME_ANNOTATION];
  const ppId = labels[PP_PERMANENT_ID_LABEL];
  if (ppNamespace && ppName && ppId) {
    return { kind: 'PropagationPolicy', namespace: ppNamespace, name: ppName, permanentId: ppId };
  }
  const cppName = annotations[CPP_NAME_ANNOTATION];
  const cppId = labels[CPP_PERMANENT_ID_LABEL];
  if (cppName && cppId) return { kind: 'ClusterPropagationPolicy', name: cppName, permanentId: cppId };
  return undefined;
}

/**
 * `object` claimed by `policy` (a template or its binding). A PropagationPolicy claim also removes any
 * ClusterPropagationPolicy claim (Karmada `excludeClusterPolicy`; this is how a PP preempts a CPP); a
 * ClusterPropagationPolicy claim leaves a PropagationPolicy's claim alone (a CPP never preempts a PP).
 * Returns `object` itself when its claim metadata is already exactly this, so the caller can skip the
 * write. (Karmada skips the write whenever the permanent-id label already matches; also restoring
 * stale or missing claim annotations here only differs for hand-edited objects.)
 */
export function applyClaim<T extends KubeObject>(object: T, policy: PropagationPolicy): T {
  const wanted = claimMetadata(policy);
  const drop = policy.kind === 'PropagationPolicy' ? CLAIM_KEYS.ClusterPropagationPolicy : undefined;
  return editMetadata(object, wanted, drop);
}

/**
 * `object` without the claim metadata of `kind` (Karmada `CleanupPPClaimMetadata` /
 * `CleanupCPPClaimMetadata`). With `permanentId`, only when the object's claim label carries that id
 * (Karmada `NeedCleanupClaimMetadata`, so a fast delete-and-recreate does not strip the new policy's
 * claim). Returns `object` itself when there is nothing to remove.
 */
export function removeClaim<T extends KubeObject>(object: T, kind: PolicyKind, permanentId?: string): T {
  if (permanentId !== undefined && object.metadata.labels?.[permanentIdLabel(kind)] !== permanentId) return object;
  return editMetadata(object, { labels: {}, annotations: {} }, CLAIM_KEYS[kind]);
}

/** Sets `set` and deletes `drop` keys; the same object when nothing changes. Empty maps are dropped. */
function editMetadata<T extends KubeObject>(
  object: T,
  set: ClaimMetadata,
  drop: { labels: string[]; annotations: string[] } | undefined,
): T {
  const labels = editMap(object.metadata.labels, set.labels, drop?.labels ?? []);
  const annotations = editMap(object.metadata.annotations, set.annotations, drop?.annotations ?? []);
  if (labels === object.metadata.labels && annotations === object.metadata.annotations) return object;
  const metadata = { ...object.metadata, labels, annotations };
  if (labels === undefined) delete metadata.labels;
  if (annotations === undefined) delete metadata.annotations;
  return { ...object, metadata };
}

function editMap(
  current: Record<string, string> | undefined,
  set: Record<string, string>,
  drop: readonly string[],
): Record<string, string> | undefined {
  const changed =
    Object.entries(set).some(([k, v]) => current === undefined || !Object.hasOwn(current, k) || current[k] !== v) ||
    (current !== undefined && drop.some((k) => Object.hasOwn(current, k)));
  if (!changed) return current;
  const out: Record<string, string> = { ...current, ...set };
  for (const k of drop) delete out[k];
  return Object.keys(out).length > 0 ? out : undefined;
}
