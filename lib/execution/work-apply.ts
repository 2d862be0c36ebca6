/**
 * What the executor (Push clusters) and the Pull agent both do with a Work on its member cluster:
 * apply its manifests with server-side apply (refusing to adopt an object Karmada does not manage
 * when the conflict resolution is Abort), read their status back, notice drift, and on deletion
 * delete the member objects — or, with `preserveResourcesOnDeletion`, release them (Karmada's
 * markers removed, the object left running). The decisions are the pure core's (lib/core/work,
 * lib/core/status); this module only talks to the member.
 */
import { type Condition, setCondition } from '../api/conditions.ts';
import type { KubeObject } from '../api/object.ts';
import { manifestStatusOf, type ManifestStatus } from '../core/status/index.ts';
import { MANAGED_BY_KARMADA_LABEL } from '../api/well-known.ts';
import {
  adoptionRefusedMessage,
  allowsAdoption,
  driftedPaths,
  isManagedByKarmada,
  withoutKarmadaMarkers,
} from '../core/work/index.ts';
import { MemberApiError, type MemberClient } from '../members/client.ts';
import { deepEqual } from '../util/json.ts';

/** The field manager Works are applied as (Karmada's execution controller). */
export const WORK_FIELD_MANAGER = 'execution-controller';
export const APPLIED_CONDITION = 'Applied';

export interface WorkStatus {
  conditions?: Condition[];
  manifestStatuses?: ManifestStatus[];
  [field: string]: unknown;
}

/** The manifests of a Work (Karmada writes exactly one). */
export function manifestsOf(work: KubeObject): KubeObject[] {
  const spec = work.spec as { workload?: { manifests?: unknown[] } } | undefined;
  return (spec?.workload?.manifests ?? []).filter(
    (m): m is KubeObject => typeof m === 'object' && m !== null && !Array.isArray(m),
  );
}

/** True when the Work's spec (this generation) was applied successfully. */
export function appliedCurrent(work: KubeObject): boolean {
  const status = work.status as WorkStatus | undefined;
  const applied = status?.conditions?.find((c) => c.type === APPLIED_CONDITION);
  return applied?.status === 'True' && (applied.observedGeneration ?? 0) === (work.metadata.generation ?? 0);
}

/** True when applying this generation of the Work failed (the member refused it). */
export function failedCurrent(work: KubeObject): boolean {
  const status = work.status as WorkStatus | undefined;
  const applied = status?.conditions?.find((c) => c.type === APPLIED_CONDITION);
  return applied?.status === 'False' && (applied.observedGeneration ?? 0) === (work.metadata.generation ?? 0);
}

function describe(m: KubeObject): string {
  return `${m.kind} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata?.name ?? ''}`;
}

/** The Work's next status given an apply outcome (the same array objects when nothing changed). */
export function workStatusAfter(
  work: KubeObject,
  outcome: { failure?: string; manifestStatuses: ManifestStatus[] },
  now: string,
): WorkStatus {
  const previous = (work.status ?? {}) as WorkStatus;
  const conditions = setCondition(
    previous.conditions,
    outcome.failure
      ? {
          type: APPLIED_CONDITION,
          status: 'False',
          reason: 'AppliedFailed',
          message: outcome.failure,
          observedGeneration: work.metadata.generation,
        }
      : {
          type: APPLIED_CONDITION,
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
          observedGeneration: work.metadata.generation,
        },
    now,
  );
  const manifestStatuses =
    outcome.failure && outcome.manifestStatuses.length === 0
      ? (previous.manifestStatuses ?? [])
      : outcome.manifestStatuses;
  return { ...previous, conditions, manifestStatuses };
}

/** True when `next` says something `work.status` does not. */
export function statusChanged(work: KubeObject, next: WorkStatus): boolean {
  return !deepEqual(work.status ?? {}, next);
}

/**
 * Applies every manifest of `work` on the member. Member API errors (a refused adoption, an invalid
 * manifest, a missing namespace) become the failure message; an unreachable member throws
 * (MemberUnreachableError) so the caller retries without overwriting what it knows.
 */
export async function applyWork(
  member: MemberClient,
  work: KubeObject,
  cluster: string,
): Promise<{ failure?: string; manifestStatuses: ManifestStatus[] }> {
  const manifestStatuses: ManifestStatus[] = [];
  const failures: string[] = [];
  for (const [ordinal, manifest] of manifestsOf(work).entries()) {
    if (!manifest.apiVersion || !manifest.kind || !manifest.metadata?.name) {
      failures.push(`manifest ${ordinal}: apiVersion, kind and metadata.name are required`);
      continue;
    }
    try {
      const live = await member.getObject(
        manifest.apiVersion,
        manifest.kind,
        manifest.metadata.namespace,
        manifest.metadata.name,
      );
      if (live && !allowsAdoption(manifest, live)) {
        failures.push(adoptionRefusedMessage(manifest, cluster));
        continue;
      }
      const applied = await member.apply(manifest, WORK_FIELD_MANAGER, true);
      manifestStatuses.push(manifestStatusOf(ordinal, withType(applied, manifest)));
    } catch (err) {
      if (!(err instanceof MemberApiError)) throw err;
      failures.push(`Failed to apply ${describe(manifest)}: ${err.message}`);
    }
  }
  return failures.length > 0 ? { failure: failures.join('; '), manifestStatuses } : { manifestStatuses };
}

/**
 * What a Work's member objects look like now (from a cluster-wide list): `apply` when one is missing
 * or has drifted from the manifest (someone edited it on the member), else their statuses.
 */
export function observeWork(
  work: KubeObject,
  live: (manifest: KubeObject) => KubeObject | undefined,
): { apply: true; reason: string } | { apply: false; manifestStatuses: ManifestStatus[] } {
  const manifestStatuses: ManifestStatus[] = [];
  for (const [ordinal, manifest] of manifestsOf(work).entries()) {
    const object = live(manifest);
    if (!object) return { apply: true, reason: `${describe(manifest)} is missing on the member` };
    const drift = driftedPaths(manifest, object);
    if (drift.length > 0) return { apply: true, reason: `${describe(manifest)} drifted at ${drift.join(', ')}` };
    manifestStatuses.push(manifestStatusOf(ordinal, withType(object, manifest)));
  }
  return { apply: false, manifestStatuses };
}

/**
 * The member objects Karmada manages for these Works, read with one list per kind (what an informer
 * cache gives Karmada): a lookup from a manifest to its live object. A kind the member does not serve
 * (yet) has no objects; an unreachable member throws.
 */
export async function listManagedObjects(
  member: MemberClient,
  works: readonly KubeObject[],
): Promise<(manifest: KubeObject) => KubeObject | undefined> {
  const kinds = new Map<string, { apiVersion: string; kind: string }>();
  for (const w of works)
    for (const m of manifestsOf(w))
      if (m.apiVersion && m.kind) kinds.set(`${m.apiVersion}/${m.kind}`, { apiVersion: m.apiVersion, kind: m.kind });
  const live = new Map<string, Map<string, KubeObject>>();
  for (const [key, { apiVersion, kind }] of kinds) {
    let items: KubeObject[] = [];
    try {
      const path = await member.collectionPath(apiVersion, kind);
      items = await member.listAll(`${path}?labelSelector=${encodeURIComponent(`${MANAGED_BY_KARMADA_LABEL}=true`)}`);
    } catch (err) {
      if (!(err instanceof MemberApiError && err.status === 404)) throw err;
    }
    live.set(key, new Map(items.map((o) => [objectKey(o.metadata.namespace, o.metadata.name), o])));
  }
  return (m) => live.get(`${m.apiVersion}/${m.kind}`)?.get(objectKey(m.metadata?.namespace, m.metadata?.name));
}

/**
 * Deletion of a Work: each member object is deleted when Karmada manages it; with
 * `preserveResourcesOnDeletion` it is kept and loses Karmada's labels and annotations instead.
 */
export async function releaseWork(member: MemberClient, work: KubeObject): Promise<void> {
  const preserve = (work.spec as { preserveResourcesOnDeletion?: boolean } | undefined)?.preserveResourcesOnDeletion;
  for (const manifest of manifestsOf(work)) {
    if (!manifest.apiVersion || !manifest.kind || !manifest.metadata?.name) continue;
    for (let attempt = 0; attempt < 3; attempt++) {
      let live: KubeObject | undefined;
      try {
        live = await member.getObject(
          manifest.apiVersion,
          manifest.kind,
          manifest.metadata.namespace,
          manifest.metadata.name,
        );
      } catch (err) {
        // The member no longer serves the kind: nothing left to delete.
        if (err instanceof MemberApiError && err.status === 404) break;
        throw err;
      }
      if (!live || !isManagedByKarmada(live)) break;
      try {
        if (preserve) {
          const released = withoutKarmadaMarkers(withType(live, manifest));
          if (released) await member.replace(released);
        } else {
          await member.deleteObject(
            manifest.apiVersion,
            manifest.kind,
            manifest.metadata.namespace,
            manifest.metadata.name,
          );
        }
        break;
      } catch (err) {
        // Changed meanwhile: read it again.
        if (err instanceof MemberApiError && err.status === 409) continue;
        throw err;
      }
    }
  }
}

/** Objects from a list carry no apiVersion/kind: take them from the manifest. */
function withType(object: KubeObject, manifest: KubeObject): KubeObject {
  return object.apiVersion && object.kind
    ? object
    : { ...object, apiVersion: manifest.apiVersion, kind: manifest.kind };
}

/** Key of a member object within a kind: `namespace/name`. */
function objectKey(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}
