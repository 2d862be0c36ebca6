/**
 * What the executor (Push clusters) and the Pull agent both do with a Work on its member cluster:
 * apply its manifests with server-side apply (refusing to adopt an object Karmada does not manage
 * when the conflict resolution is Abort), list what Karmada manages there, and on deletion delete the
 * member objects — or, with `preserveResourcesOnDeletion`, release them (Karmada's markers removed,
 * the object left running). The decisions are the pure core's (lib/core/work, lib/core/status); this
 * module only talks to the member.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import { appliedFailureMessage, manifestStatusOf, type ManifestStatus } from '../core/status/index.ts';
import { MANAGED_BY_KARMADA_LABEL } from '../api/well-known.ts';
import {
  adoptionRefusedMessage,
  allowsAdoption,
  describeManifest,
  firstMemberRequest,
  foldCreateOwnership,
  isManagedByKarmada,
  type ManagedFieldsRecord,
  manifestsOf,
  withManifestType,
  withoutKarmadaMarkers,
} from '../core/work/index.ts';
import { MemberApiError, type MemberClient } from './client.ts';

/** The field manager Works are applied as (Karmada's execution controller). */
export const WORK_FIELD_MANAGER = 'execution-controller';

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
      const applied =
        firstMemberRequest(work, manifest) === 'apply'
          ? await applyOwned(member, manifest)
          : await createOrAdopt(member, manifest);
      if (!applied) {
        failures.push(adoptionRefusedMessage(manifest, cluster));
        continue;
      }
      manifestStatuses.push(manifestStatusOf(ordinal, withManifestType(applied, manifest)));
    } catch (err) {
      if (!(err instanceof MemberApiError)) throw err;
      failures.push(`Failed to apply ${describeManifest(manifest)}: ${err.message}`);
    }
  }
  if (failures.length === 0) return { manifestStatuses };
  const total = manifestsOf(work).length;
  return { failure: appliedFailureMessage(total - failures.length, total, failures), manifestStatuses };
}

/**
 * A manifest never applied by this Work: created with one POST. When the object exists, Karmada's
 * adoption check decides (undefined: refused under Abort), and the object is applied.
 */
async function createOrAdopt(member: MemberClient, manifest: KubeObject): Promise<KubeObject | undefined> {
  try {
    return await member.create(manifest, WORK_FIELD_MANAGER);
  } catch (err) {
    if (!(err instanceof MemberApiError && err.status === 409)) throw err;
  }
  const live = await member.getObject(
    manifest.apiVersion,
    manifest.kind,
    manifest.metadata.namespace,
    manifest.metadata.name!,
  );
  if (live && !allowsAdoption(manifest, live)) return undefined;
  return member.apply(manifest, WORK_FIELD_MANAGER, true);
}

/**
 * A manifest Karmada owns on the member: one forced server-side apply. An object created by POST is
 * folded, at its first apply, into one `Apply` ownership (so fields the Work drops later are pruned)
 * and applied again — two more requests, once in the object's life.
 */
async function applyOwned(member: MemberClient, manifest: KubeObject): Promise<KubeObject> {
  const applied = await member.apply(manifest, WORK_FIELD_MANAGER, true);
  const folded = foldCreateOwnership(
    applied.metadata.managedFields as ManagedFieldsRecord[] | undefined,
    WORK_FIELD_MANAGER,
  );
  if (!folded) return applied;
  try {
    await member.patchJson(applied, [
      { op: 'test', path: '/metadata/resourceVersion', value: applied.metadata.resourceVersion },
      { op: 'replace', path: '/metadata/managedFields', value: folded },
    ]);
  } catch (err) {
    // Changed meanwhile: folded at the next apply.
    if (!(err instanceof MemberApiError)) throw err;
    return applied;
  }
  return member.apply(manifest, WORK_FIELD_MANAGER, true);
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
  return (await listManagedKinds(member, manifestKinds(works))).lookup;
}

/** A kind the member is listed for: `apiVersion` and `kind` of a manifest. */
export interface ManifestKind {
  apiVersion: string;
  kind: string;
}

/** The kinds `works`' manifests name, in a stable order. */
export function manifestKinds(works: readonly KubeObject[]): ManifestKind[] {
  const kinds = new Map<string, ManifestKind>();
  for (const w of works)
    for (const m of manifestsOf(w))
      if (m.apiVersion && m.kind) kinds.set(`${m.apiVersion}/${m.kind}`, { apiVersion: m.apiVersion, kind: m.kind });
  return [...kinds.keys()].sort().map((k) => kinds.get(k)!);
}

/**
 * Lists the objects Karmada manages on the member, one list per kind (a kind the member does not serve
 * has none), with a lookup by manifest and a stamp of what was listed: every object's uid and
 * resource version, so two listings with the same stamp saw the same objects unchanged (no stamp when
 * an object came without them: such a listing proves nothing).
 */
export async function listManagedKinds(
  member: MemberClient,
  kinds: readonly ManifestKind[],
): Promise<{ lookup: (manifest: KubeObject) => KubeObject | undefined; stamp: string | undefined }> {
  const live = new Map<string, Map<string, KubeObject>>();
  const stamp = createHash('sha256');
  let stamped = true;
  for (const { apiVersion, kind } of kinds) {
    let items: KubeObject[] = [];
    try {
      const path = await member.collectionPath(apiVersion, kind);
      items = await member.listAll(`${path}?labelSelector=${encodeURIComponent(`${MANAGED_BY_KARMADA_LABEL}=true`)}`);
    } catch (err) {
      if (!(err instanceof MemberApiError && err.status === 404)) throw err;
    }
    const byName = new Map(items.map((o) => [objectKey(o.metadata.namespace, o.metadata.name), o]));
    live.set(`${apiVersion}/${kind}`, byName);
    stamp.update(`${apiVersion}/${kind}\n`);
    for (const key of [...byName.keys()].sort()) {
      const o = byName.get(key)!;
      if (!o.metadata.uid || !o.metadata.resourceVersion) stamped = false;
      stamp.update(`${key} ${o.metadata.uid ?? ''} ${o.metadata.resourceVersion ?? ''}\n`);
    }
  }
  return {
    lookup: (m) => live.get(`${m.apiVersion}/${m.kind}`)?.get(objectKey(m.metadata?.namespace, m.metadata?.name)),
    stamp: stamped ? stamp.digest('base64url') : undefined,
  };
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
          const released = withoutKarmadaMarkers(withManifestType(live, manifest));
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

/** Key of a member object within a kind: `namespace/name`. */
function objectKey(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}
