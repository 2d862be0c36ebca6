/**
 * What one replica of a pod template needs: Karmada's `helper.GenerateReplicaRequirements`
 * (`pkg/util/helper/binding.go`), `GenerateNodeClaimByPodSpec` and `util.Resource.AddPodTemplateRequest`
 * (`pkg/util/resource.go`). The Lua `kube.accuratePodRequirements(template)` that the third-party
 * customizations call is the same function.
 *
 * - `resourceRequest`: Σ app containers' requests, each resource raised to the largest init container's
 *   request (`SetMaxResource`), plus `spec.overhead`. A container's missing request defaults to its
 *   limit (API-server defaulting). Restartable (sidecar) init containers and pod-level `spec.resources`
 *   get no special treatment, exactly as in Karmada. Only cpu, memory, ephemeral-storage, pods and
 *   scalar resources (extended, hugepages, `*kubernetes.io/`, attachable volumes) are counted.
 * - `nodeClaim`: `spec.nodeSelector` (present even when `{}`, as Go's non-nil empty map),
 *   `spec.tolerations` (when non-empty) and `spec.affinity.nodeAffinity.requiredDuringScheduling
 *   IgnoredDuringExecution` (as `hardNodeAffinity`).
 * - `priorityClassName`: only with the `ResourceQuotaEstimate` feature gate (alpha, off by default).
 *
 * Nothing here throws: non-object fields count as absent, malformed quantities are skipped
 * (see `resource.ts`).
 */
import type { NodeClaim, ReplicaRequirements, ResourceList } from '../../model/types.ts';
import { ResourceAccumulator } from './resource.ts';

/** Feature gates that change what the interpreter reports. */
export interface InterpretOptions {
  /**
   * Karmada's `ResourceQuotaEstimate` gate (alpha, default false): `priorityClassName` is copied from
   * the pod template, and a binding's `replicaRequirements.namespace` is filled from the template's
   * namespace when the interpreter left it empty.
   */
  resourceQuotaEstimate?: boolean;
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objects(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** A container's requests with missing entries defaulted from its limits. */
function effectiveRequests(container: Record<string, unknown>): unknown {
  const resources = container['resources'];
  if (!isObject(resources)) return undefined;
  const requests = resources['requests'];
  const limits = resources['limits'];
  if (!isObject(limits)) return requests;
  return { ...limits, ...(isObject(requests) ? requests : {}) };
}

/**
 * `util.EmptyResource().AddPodTemplateRequest(podSpec).ResourceList()`: the effective per-pod request
 * of a pod spec, canonically formatted; undefined when nothing is requested.
 */
export function podTemplateRequests(podSpec: unknown): ResourceList | undefined {
  if (!isObject(podSpec)) return undefined;
  const acc = new ResourceAccumulator();
  for (const c of objects(podSpec['containers'])) acc.add(effectiveRequests(c));
  for (const c of objects(podSpec['initContainers'])) acc.setMax(effectiveRequests(c));
  acc.add(podSpec['overhead']);
  return acc.resourceList();
}

/**
 * The per-pod limits of a pod spec, the way kube-apiserver's quota evaluator sums them: Σ app
 * containers' limits, each raised to the largest init container's limit, plus `spec.overhead`;
 * undefined when nothing is limited. Not Karmada's (a binding carries no limits there): used to
 * enforce `limits.*` quota keys.
 */
export function podTemplateLimits(podSpec: unknown): ResourceList | undefined {
  if (!isObject(podSpec)) return undefined;
  const limitsOf = (c: Record<string, unknown>) => {
    const resources = c['resources'];
    return isObject(resources) ? resources['limits'] : undefined;
  };
  const acc = new ResourceAccumulator();
  for (const c of objects(podSpec['containers'])) acc.add(limitsOf(c));
  for (const c of objects(podSpec['initContainers'])) acc.setMax(limitsOf(c));
  if (acc.resourceList() === undefined) return undefined;
  acc.add(podSpec['overhead']);
  return acc.resourceList();
}

/** String-valued entries of a selector map (Go's `map[string]string`). */
function stringMap(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** `GenerateNodeClaimByPodSpec`; undefined when the spec constrains no node. */
export function generateNodeClaim(podSpec: unknown): NodeClaim | undefined {
  if (!isObject(podSpec)) return undefined;
  const nodeSelector = podSpec['nodeSelector'];
  const tolerations = objects(podSpec['tolerations']);
  const affinity = podSpec['affinity'];
  const nodeAffinity = isObject(affinity) ? affinity['nodeAffinity'] : undefined;
  const required = isObject(nodeAffinity) ? nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution'] : undefined;
  const hasSelector = isObject(nodeSelector);
  const hasAffinity = isObject(required);
  if (!hasSelector && !hasAffinity && tolerations.length === 0) return undefined;
  const claim: NodeClaim = {};
  if (hasAffinity) claim.hardNodeAffinity = structuredClone(required);
  if (hasSelector) {
    const selector = stringMap(nodeSelector);
    if (Object.keys(selector).length > 0) claim.nodeSelector = selector;
  }
  if (tolerations.length > 0) claim.tolerations = structuredClone(tolerations);
  return claim;
}

/**
 * `helper.GenerateReplicaRequirements(podTemplate)`: node claim and per-replica resource request of a
 * pod template (`{metadata?, spec}`); undefined when it has neither.
 */
export function generateReplicaRequirements(
  podTemplate: unknown,
  options: InterpretOptions = {},
): ReplicaRequirements | undefined {
  const spec = isObject(podTemplate) ? podTemplate['spec'] : undefined;
  const nodeClaim = generateNodeClaim(spec);
  const resourceRequest = podTemplateRequests(spec);
  if (!nodeClaim && !resourceRequest) return undefined;
  const requirements: ReplicaRequirements = {};
  if (nodeClaim) requirements.nodeClaim = nodeClaim;
  if (resourceRequest) requirements.resourceRequest = resourceRequest;
  const priorityClassName = isObject(spec) ? spec['priorityClassName'] : undefined;
  if (options.resourceQuotaEstimate && typeof priorityClassName === 'string' && priorityClassName !== '') {
    requirements.priorityClassName = priorityClassName;
  }
  return requirements;
}
