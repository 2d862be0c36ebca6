/**
 * Decisions the executor (Push) or agent (Pull) takes about the object on the member cluster: may it
 * be taken over, what to strip when it is preserved, has it drifted (Karmada v1.15.9
 * `pkg/util/objectwatcher/objectwatcher.go`, `pkg/controllers/execution/execution_controller.go`
 * `cleanupPolicyClaimMetadata`).
 */
import { parseApiVersion } from '../../api/object.ts';
import { cloneJson } from '../../util/json.ts';
import { removeClaim } from '../policy/claim.ts';
import type { KubeObject } from '../model/types.ts';
import {
  CONFLICT_RESOLUTION_ANNOTATION,
  CONFLICT_RESOLUTION_OVERWRITE,
  MANAGED_BY_KARMADA_LABEL,
  MANAGED_BY_KARMADA_LABEL_VALUE,
  MANAGED_RESOURCE_ANNOTATIONS,
  MANAGED_RESOURCE_LABELS,
} from '../../api/well-known.ts';
import { PRUNED_METADATA_FIELDS } from './prune.ts';

/** Whether Karmada manages `live` (label `karmada.io/managed=true`); Karmada deletes only such objects. */
export function isManagedByKarmada(live: KubeObject): boolean {
  return live.metadata.labels?.[MANAGED_BY_KARMADA_LABEL] === MANAGED_BY_KARMADA_LABEL_VALUE;
}

/**
 * Karmada objectwatcher `allowUpdate`: may the desired manifest be applied over an existing live
 * object? Yes when Karmada already manages it, or when the manifest says
 * `work.karmada.io/conflict-resolution: overwrite` (taking over, e.g. when promoting a workload).
 */
export function allowsAdoption(desired: KubeObject, live: KubeObject): boolean {
  return (
    isManagedByKarmada(live) ||
    desired.metadata.annotations?.[CONFLICT_RESOLUTION_ANNOTATION] === CONFLICT_RESOLUTION_OVERWRITE
  );
}

/**
 * The Karmada error text when Abort refuses (exact Karmada wording, cluster name inserted).
 *
 * @example adoptionRefusedMessage(deploy, 'member1')
 * // 'resource(kind=Deployment, default/nginx) already exists in the cluster member1 and the
 * //  work.karmada.io/conflict-resolution strategy value is empty, Karmada will not manage this resource'
 */
export function adoptionRefusedMessage(desired: KubeObject, cluster: string): string {
  const { namespace = '', name = '' } = desired.metadata;
  return (
    `resource(kind=${desired.kind}, ${namespace}/${name}) already exists in the cluster ${cluster} and the ` +
    `${CONFLICT_RESOLUTION_ANNOTATION} strategy value is empty, Karmada will not manage this resource`
  );
}

/**
 * PreserveResourcesOnDeletion: a copy of the live member object with every Karmada label/annotation
 * removed (`cleanupPolicyClaimMetadata`'s list), or undefined if nothing to remove. As Karmada: the
 * policy claim of a PropagationPolicy for namespaced objects, of a ClusterPropagationPolicy for
 * cluster-scoped ones, plus `MANAGED_RESOURCE_LABELS` / `MANAGED_RESOURCE_ANNOTATIONS` — which leaves
 * the ClusterResourceBinding id/name and the conflict-resolution annotation in place.
 */
export function withoutKarmadaMarkers(live: KubeObject): KubeObject | undefined {
  const unclaimed = removeClaim(live, live.metadata.namespace ? 'PropagationPolicy' : 'ClusterPropagationPolicy');
  const labels = without(unclaimed.metadata.labels, MANAGED_RESOURCE_LABELS);
  const annotations = without(unclaimed.metadata.annotations, MANAGED_RESOURCE_ANNOTATIONS);
  if (unclaimed === live && labels === live.metadata.labels && annotations === live.metadata.annotations) {
    return undefined;
  }
  const metadata = { ...unclaimed.metadata, labels, annotations };
  if (labels === undefined) delete metadata.labels;
  if (annotations === undefined) delete metadata.annotations;
  return cloneJson({ ...unclaimed, metadata });
}

/** `map` without `keys` (the same map when it has none of them; `undefined` when nothing is left). */
function without(map: Record<string, string> | undefined, keys: readonly string[]): Record<string, string> | undefined {
  if (!map || !keys.some((k) => Object.hasOwn(map, k))) return map;
  const out = { ...map };
  for (const k of keys) delete out[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

const IGNORED_METADATA = new Set(PRUNED_METADATA_FIELDS);

/** RFC 6901 escaping of one path segment. */
const segment = (key: string | number): string => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Absent, null and empty lists all read as "not set" (servers drop empty lists). */
const unset = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

function drift(desired: unknown, live: unknown, path: string, out: string[]): void {
  // null is "not set" (e.g. a service-account token Secret's pruned `data`): the member owns it.
  if (desired === null || desired === undefined) return;
  if (Array.isArray(desired) && desired.length === 0) {
    if (!unset(live)) out.push(path);
  } else if (isMap(desired)) {
    if (isMap(live)) for (const [k, v] of Object.entries(desired)) drift(v, live[k], `${path}/${segment(k)}`, out);
    else if (Object.keys(desired).length > 0 || !unset(live)) out.push(path);
  } else if (Array.isArray(desired)) {
    if (!Array.isArray(live) || live.length !== desired.length) out.push(path);
    else desired.forEach((v, i) => drift(v, live[i], `${path}/${i}`, out));
  } else if (desired !== live) {
    out.push(path);
  }
}

/**
 * Drift: the JSON-pointer paths of fields set in `desired` (ignoring metadata fields the server owns,
 * and `status`) whose value differs in `live`; lists compared element-wise; maps: only keys present in
 * desired. Empty array = no drift. Fields only the live object has (server defaults, labels added by
 * member controllers) are not drift, nor is a `null` in desired; a list of a different length is
 * reported at the list's path. Values are compared as JSON (`'1000m'` and `'1'` CPU differ).
 *
 * @example driftedPaths(manifest, live) // ['/spec/template/spec/containers/0/image']
 */
export function driftedPaths(desired: KubeObject, live: KubeObject): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(desired)) {
    if (key === 'status') continue;
    if (key !== 'metadata' || !isMap(value)) {
      drift(value, live[key], `/${segment(key)}`, out);
      continue;
    }
    const liveMeta: Record<string, unknown> = isMap(live.metadata) ? live.metadata : {};
    for (const [field, v] of Object.entries(value)) {
      if (!IGNORED_METADATA.has(field)) drift(v, liveMeta[field], `/metadata/${segment(field)}`, out);
    }
  }
  return out;
}

/**
 * The first request the executor sends for a manifest, so that the common case is one request:
 * - `apply` (server-side apply, forced): the Work reported this object before (its `manifestStatuses`
 *   name it), so the object is Karmada's; or the manifest says `conflict-resolution: overwrite`, which
 *   takes the object over whatever it is (the apply creates it when absent).
 * - `create` (POST): a manifest never applied, under Abort. Absent — the common case — it is created by
 *   that one request; an `AlreadyExists` answer is the only case that reads the live object for
 *   Karmada's adoption check (Karmada checks its informer cache; we have none to check).
 */
export function firstMemberRequest(work: KubeObject, manifest: KubeObject): 'apply' | 'create' {
  if (manifest.metadata.annotations?.[CONFLICT_RESOLUTION_ANNOTATION] === CONFLICT_RESOLUTION_OVERWRITE) return 'apply';
  return reportedBefore(work, manifest) ? 'apply' : 'create';
}

/** Whether the Work's status names this manifest's object (it was applied by a previous pass). */
function reportedBefore(work: KubeObject, manifest: KubeObject): boolean {
  const statuses = (work.status as { manifestStatuses?: { identifier?: Record<string, unknown> }[] } | undefined)
    ?.manifestStatuses;
  if (!statuses?.length) return false;
  const { group } = parseApiVersion(manifest.apiVersion);
  return statuses.some(
    ({ identifier: id }) =>
      id !== undefined &&
      (id['group'] ?? '') === group &&
      id['kind'] === manifest.kind &&
      (id['namespace'] ?? '') === (manifest.metadata.namespace ?? '') &&
      id['name'] === manifest.metadata.name,
  );
}

/** One `metadata.managedFields` entry, as far as this decision reads it. */
export interface ManagedFieldsRecord {
  manager?: string;
  operation?: string;
  subresource?: string;
  fieldsV1?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * An object the executor created by POST is owned by `manager` with operation `Update`; once it has
 * been applied, the same manager also has an `Apply` entry. Server-side apply prunes only what the
 * applier's `Apply` entry owned, so a field later dropped from the Work would stay on the member while
 * the `Update` entry holds it. The remedy (once per object, at its first update): one `Apply` entry
 * owning both sets, the `Update` entry removed. Returns the managedFields to store, or undefined when
 * there is nothing to fold.
 */
export function foldCreateOwnership(
  entries: readonly ManagedFieldsRecord[] | undefined,
  manager: string,
): ManagedFieldsRecord[] | undefined {
  const list = entries ?? [];
  const isOurs = (e: ManagedFieldsRecord, op: string) => e.manager === manager && e.operation === op && !e.subresource;
  const created = list.find((e) => isOurs(e, 'Update'));
  const applied = list.find((e) => isOurs(e, 'Apply'));
  if (!created || !applied) return undefined;
  return list
    .filter((e) => e !== created)
    .map((e) => (e === applied ? { ...e, fieldsV1: unionFields(applied.fieldsV1 ?? {}, created.fieldsV1 ?? {}) } : e));
}

/** The union of two `FieldsV1` tries (each key a field or element; leaves are `{}`). */
function unionFields(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    out[key] =
      mine && typeof mine === 'object' && value && typeof value === 'object'
        ? unionFields(mine as Record<string, unknown>, value as Record<string, unknown>)
        : (mine ?? value);
  }
  return out;
}
