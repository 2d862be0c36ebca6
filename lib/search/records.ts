/**
 * The collector's per-cluster record of what the search cache holds (an internal object, not served
 * by the API): written by the collector for Push members and by the agent's reports for Pull ones,
 * read by the proxy (stale-cluster warnings, list resourceVersions, kinds only members know) and by
 * the registries' conditions.
 */
import type { KubeObject } from '../api/object.ts';
import { refOf } from '../api/object.ts';
import type { ClusterCacheRecord } from '../core/index.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';
import { deepEqual } from '../util/json.ts';

export const CLUSTER_CACHE = { group: 'search.serverless-karmada.io', kind: 'ClusterCache' } as const;

/** Writes a cluster's record when it changed (deletes it for `undefined`); a lost race is left to the next sync. */
export async function writeClusterCacheRecord(
  store: ObjectStore,
  name: string,
  current: KubeObject | undefined,
  record: ClusterCacheRecord | undefined,
): Promise<void> {
  if (!record) {
    if (current) await tryWrite(() => store.delete(refOf(current)));
    return;
  }
  if (current && deepEqual(current.spec, record)) return;
  const spec = record as unknown as Record<string, unknown>;
  await tryWrite(() =>
    current
      ? store.update({ ...current, spec })
      : store.create({ apiVersion: `${CLUSTER_CACHE.group}/v1`, kind: CLUSTER_CACHE.kind, metadata: { name }, spec }),
  );
}

/** True when a new record changes what the registries' conditions say (reachability or kinds). */
export function recordChangedForRegistries(
  previous: ClusterCacheRecord | undefined,
  next: ClusterCacheRecord | undefined,
): boolean {
  const shape = (r: ClusterCacheRecord | undefined) => ({
    reachable: r?.reachable,
    message: r?.reachable ? undefined : r?.message,
    kinds: (r?.kinds ?? []).map((k) => [k.apiVersion, k.kind, k.namespaces]),
  });
  return !deepEqual(shape(previous), shape(next));
}
