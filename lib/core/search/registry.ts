/**
 * What the ResourceRegistries select (karmada-search's controller, `pkg/search/controller.go`): for
 * each member cluster, the kinds to collect and in which namespaces; for a proxy request, the
 * clusters a kind is served from. A registry selects the clusters its `targetCluster` affinity
 * matches (`util.ClusterMatches`) and, in each, the objects of every `resourceSelectors` entry —
 * by exact apiVersion and kind, in one namespace or (without one) all.
 */
import type { Cluster, ClusterAffinity } from '../model/types.ts';
import { clusterMatches } from '../placement/affinity.ts';

export interface SearchResourceSelector {
  apiVersion: string;
  kind: string;
  namespace?: string;
}

export interface ResourceRegistryLike {
  metadata: { name?: string; deletionTimestamp?: string };
  spec?: { targetCluster?: ClusterAffinity; resourceSelectors?: SearchResourceSelector[] };
}

/** One kind collected from one cluster: in every namespace (`namespaces` absent) or in these. */
export interface Collection {
  apiVersion: string;
  kind: string;
  namespaces?: string[];
}

/** `apiVersion/kind`, the identity of a collected kind (`v1/Pod`, `apps/v1/Deployment`). */
export function resourceKeyOf(r: { apiVersion: string; kind: string }): string {
  return `${r.apiVersion}/${r.kind}`;
}

function active(registries: readonly ResourceRegistryLike[]): ResourceRegistryLike[] {
  return registries.filter((r) => !r.metadata.deletionTimestamp);
}

/** The clusters a registry collects from: those its targetCluster matches, by name. */
export function registryClusters(registry: ResourceRegistryLike, clusters: readonly Cluster[]): string[] {
  const affinity = registry.spec?.targetCluster ?? {};
  return clusters
    .filter((c) => !c.metadata.deletionTimestamp && clusterMatches(c, affinity))
    .map((c) => c.metadata.name ?? '')
    .sort();
}

/**
 * Every kind the registries collect from `cluster`, each once: a kind selected without a namespace
 * by any registry is collected in every namespace; otherwise in the union of the named ones.
 * Sorted by apiVersion/kind, so a sweep visits them in a stable order.
 */
export function collectionsFor(registries: readonly ResourceRegistryLike[], cluster: Cluster): Collection[] {
  const byKind = new Map<string, { apiVersion: string; kind: string; all: boolean; namespaces: Set<string> }>();
  for (const registry of active(registries)) {
    if (cluster.metadata.deletionTimestamp || !clusterMatches(cluster, registry.spec?.targetCluster ?? {})) continue;
    for (const s of registry.spec?.resourceSelectors ?? []) {
      if (!s.apiVersion || !s.kind) continue;
      const key = resourceKeyOf(s);
      const entry = byKind.get(key) ?? { apiVersion: s.apiVersion, kind: s.kind, all: false, namespaces: new Set() };
      if (s.namespace) entry.namespaces.add(s.namespace);
      else entry.all = true;
      byKind.set(key, entry);
    }
  }
  return [...byKind.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, e]) => ({
      apiVersion: e.apiVersion,
      kind: e.kind,
      ...(e.all ? {} : { namespaces: [...e.namespaces].sort() }),
    }));
}

/** True when a collection covers objects of `namespace` (every namespace when undefined: a cross-namespace list). */
export function coversNamespace(collection: Collection, namespace: string | undefined): boolean {
  return !collection.namespaces || namespace === undefined || collection.namespaces.includes(namespace);
}

/**
 * The clusters objects of this kind are served from, sorted by name (karmada-search's order across
 * clusters): every cluster some registry collects the kind from, in `namespace` when one is given.
 * Empty when no registry selects the kind: the request then goes to the control plane's own API.
 */
export function servingClusters(
  registries: readonly ResourceRegistryLike[],
  clusters: readonly Cluster[],
  resource: { apiVersion: string; kind: string },
  namespace?: string,
): string[] {
  const key = resourceKeyOf(resource);
  return clusters
    .filter((c) =>
      collectionsFor(registries, c).some((col) => resourceKeyOf(col) === key && coversNamespace(col, namespace)),
    )
    .map((c) => c.metadata.name ?? '')
    .sort();
}

/** True when some registry selects this kind at all (from any cluster, in any namespace). */
export function kindSelected(
  registries: readonly ResourceRegistryLike[],
  resource: { apiVersion: string; kind: string },
): boolean {
  return active(registries).some((r) =>
    (r.spec?.resourceSelectors ?? []).some((s) => s.apiVersion === resource.apiVersion && s.kind === resource.kind),
  );
}

/** What the cache holds of one cluster, as the collector records it after each sync. */
export interface ClusterCacheRecord {
  /** The kinds collected, as they were collected (namespaces included). */
  kinds: (Collection & {
    objects?: number;
    resourceVersion?: string;
    /** The member's name for the kind's resource, and its scope (from discovery). */
    plural?: string;
    namespaced?: boolean;
    syncedAt?: string;
    error?: string;
    /** The chunks of the last sync (`chunkRecord`): a chunk found again unchanged is not read from the cache. */
    chunks?: string[];
    /** When every chunk was last compared with the cache. */
    verifiedAt?: string;
    /** The last sync was cut short at its time budget: `chunks` are the ones it finished. */
    partial?: boolean;
  })[];
  /** False while the member cannot be read: its objects are served as last collected. */
  reachable: boolean;
  /** Since when it could not be read. */
  unreachableSince?: string;
  /** Why (not Ready, Pull without an agent report, an error). */
  message?: string;
}

/**
 * A cluster sync's intent: the kinds to collect now, and the cached kinds to drop — those no registry
 * selects any more, and those whose namespaces changed (dropped, then collected afresh). A cluster
 * being deleted, or gone, keeps nothing.
 */
export function clusterSyncPlan(
  cluster: Cluster | undefined,
  registries: readonly ResourceRegistryLike[],
  previous: ClusterCacheRecord | undefined,
): { collect: Collection[]; drop: Collection[] } {
  const collect = cluster && !cluster.metadata.deletionTimestamp ? collectionsFor(registries, cluster) : [];
  const wanted = new Map(collect.map((c) => [resourceKeyOf(c), c]));
  const drop = (previous?.kinds ?? []).filter((k) => {
    const now = wanted.get(resourceKeyOf(k));
    return !now || JSON.stringify(now.namespaces ?? null) !== JSON.stringify(k.namespaces ?? null);
  });
  return {
    collect,
    drop: drop.map((k) => ({
      apiVersion: k.apiVersion,
      kind: k.kind,
      ...(k.namespaces ? { namespaces: k.namespaces } : {}),
    })),
  };
}

/** A ResourceRegistry's condition (Karmada sets none; this one says what is collected from where). */
export interface RegistryCondition {
  type: 'Synced';
  status: 'True' | 'False';
  reason: 'Synced' | 'NoClusters' | 'ClustersUnreachable' | 'Pending';
  message: string;
  observedGeneration?: number;
}

/**
 * The `Synced` condition of a registry from the cache records of the clusters it selects: True when
 * each was read at its last sync; False naming the ones that are not (their objects are served as
 * last collected) or not collected yet.
 */
export function registryCondition(
  registry: ResourceRegistryLike & { metadata: { generation?: number } },
  clusters: readonly Cluster[],
  records: ReadonlyMap<string, ClusterCacheRecord>,
): RegistryCondition {
  const selected = registryClusters(registry, clusters);
  const kinds = [
    ...new Set(
      (registry.spec?.resourceSelectors ?? []).map(
        (s) => `${resourceKeyOf(s)}${s.namespace ? ` in ${s.namespace}` : ''}`,
      ),
    ),
  ];
  const what = kinds.length ? kinds.join(', ') : 'nothing (no resourceSelectors)';
  const generation = registry.metadata.generation;
  const base = { type: 'Synced' as const, ...(generation !== undefined ? { observedGeneration: generation } : {}) };
  if (selected.length === 0) {
    return {
      ...base,
      status: 'False',
      reason: 'NoClusters',
      message: `collecting ${what} from no cluster: targetCluster matches none`,
    };
  }
  const pending = selected.filter((c) => !records.has(c));
  const unreachable = selected.filter((c) => records.get(c)?.reachable === false);
  const from = `collecting ${what} from ${selected.join(', ')}`;
  if (unreachable.length) {
    const detail = unreachable.map((c) => `${c} (${records.get(c)?.message ?? 'unreachable'})`).join('; ');
    return {
      ...base,
      status: 'False',
      reason: 'ClustersUnreachable',
      message: `${from}; served as last collected: ${detail}`,
    };
  }
  if (pending.length) {
    return {
      ...base,
      status: 'False',
      reason: 'Pending',
      message: `${from}; not collected yet: ${pending.join(', ')}`,
    };
  }
  return { ...base, status: 'True', reason: 'Synced', message: from };
}
