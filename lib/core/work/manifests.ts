/**
 * The manifests a Work carries and what their live copies on the member say (Karmada v1.15.9
 * `pkg/controllers/execution/execution_controller.go`, `pkg/util/objectwatcher/objectwatcher.go`
 * `NeedsUpdate`): whether the Work must be applied again, or the statuses to report. The caller lists
 * the member objects; this decides from them.
 */
import { failedCurrent } from '../status/applied.ts';
import { manifestStatusOf } from '../status/work.ts';
import type { ManifestStatus } from '../status/types.ts';
import type { KubeObject } from '../model/types.ts';
import { driftedPaths } from './member.ts';

/** The manifests of a Work (Karmada writes exactly one). */
export function manifestsOf(work: KubeObject): KubeObject[] {
  const spec = work.spec as { workload?: { manifests?: unknown[] } } | undefined;
  return (spec?.workload?.manifests ?? []).filter(
    (m): m is KubeObject => typeof m === 'object' && m !== null && !Array.isArray(m),
  );
}

/** `Kind namespace/name` of a manifest, for messages. */
export function describeManifest(m: KubeObject): string {
  return `${m.kind} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata?.name ?? ''}`;
}

/** Objects from a list carry no apiVersion/kind: take them from the manifest. */
export function withManifestType(object: KubeObject, manifest: KubeObject): KubeObject {
  return object.apiVersion && object.kind
    ? object
    : { ...object, apiVersion: manifest.apiVersion, kind: manifest.kind };
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
    if (!object) return { apply: true, reason: `${describeManifest(manifest)} is missing on the member` };
    const drift = driftedPaths(manifest, object);
    if (drift.length > 0)
      return { apply: true, reason: `${describeManifest(manifest)} drifted at ${drift.join(', ')}` };
    manifestStatuses.push(manifestStatusOf(ordinal, withManifestType(object, manifest)));
  }
  return { apply: false, manifestStatuses };
}

/** How long a new Work is left to its own message before a member sync applies it. */
export const NEW_WORK_GRACE_MS = 30_000;

/**
 * A Work created moments ago and never reported: its own message (sent by the binder with the create)
 * applies it; a member sync that applied it too would race that message (an AlreadyExists, an adoption
 * check, a second apply). Past the grace — the message lost — the sync applies it.
 */
export function leftToItsMessage(work: KubeObject, nowMs: number): boolean {
  if (work.status && Object.keys(work.status).length > 0) return false;
  const created = Date.parse(work.metadata.creationTimestamp ?? '');
  return Number.isFinite(created) && nowMs - created < NEW_WORK_GRACE_MS;
}

/**
 * Whether a Work keeps its own retry while its cluster is not Ready. Most do not: the member sync that
 * follows the cluster's recovery applies what is not applied, so retrying each Work of a dead member
 * would only read it again and again. The sync leaves two kinds alone, and those do: a Work the member
 * refused at its generation (its retry applies it) and one created moments ago
 * ({@link leftToItsMessage}).
 */
export function retriedWhileNotReady(work: KubeObject, nowMs: number): boolean {
  return failedCurrent(work) || leftToItsMessage(work, nowMs);
}

/**
 * Whether a deleted Work's member objects, removed now, were a stale copy: the Work was deleted while
 * its cluster was away (not Ready), so the copy may have kept running there until this removal — a
 * partition, not a death. The binding's events say so (`StaleCopyRemoved`). A cluster that has been
 * Ready since before the deletion had its copy removed in the ordinary way.
 *
 * `ready` is the cluster's Ready condition as stored when the removal is confirmed: the executor
 * confirms it from its member sync once the cluster is Ready again, a Pull cluster's agent possibly
 * before the control plane has marked it Ready. Both times are whole seconds: a cluster Ready again in
 * the very second of the deletion cannot be told from one that never left, and no event is claimed.
 */
export function removedWhileAway(
  ready: { status?: string; lastTransitionTime?: string } | undefined,
  deletionTimestamp: string | undefined,
): boolean {
  const deletedAt = Date.parse(deletionTimestamp ?? '');
  if (!Number.isFinite(deletedAt)) return false;
  const since = Date.parse(ready?.lastTransitionTime ?? '');
  // Ready again since the deletion: it was away then.
  if (ready?.status === 'True') return Number.isFinite(since) && since > deletedAt;
  // Not Ready: away at the deletion only if it already was then (not one that left afterwards).
  return !Number.isFinite(since) || since <= deletedAt;
}
