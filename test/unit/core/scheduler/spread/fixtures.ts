/** Builders shared by the spread-constraint tests (Karmada's `NewClusterWithTopology` & co.). */
import type { Cluster } from '../../../../../lib/core/model/types.ts';
import type { ClusterDetail } from '../../../../../lib/core/scheduler/framework/types.ts';

/** Karmada `NewClusterWithTopology(name, provider, region, zone)`: `spec.zones = [zone]`. */
export function clusterWithTopology(name: string, provider = '', region = '', zone = ''): Cluster {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: {
      ...(provider ? { provider } : {}),
      ...(region ? { region } : {}),
      ...(zone ? { zones: [zone] } : {}),
    },
  } as Cluster;
}

/** A `ClusterDetail` (allocatable = available unless given). */
export function detail(
  name: string,
  score: number,
  availableReplicas: number,
  topology: { provider?: string; region?: string; zone?: string } = {},
): ClusterDetail {
  return {
    name,
    score,
    availableReplicas,
    allocatableReplicas: availableReplicas,
    cluster: clusterWithTopology(name, topology.provider, topology.region, topology.zone),
  };
}

/** Names of an outcome's clusters, or its failure message. */
export function names(
  outcome: { ok: true; value: ClusterDetail[] } | { ok: false; failure: { message: string } },
): string[] | string {
  return outcome.ok ? outcome.value.map((c) => c.name) : outcome.failure.message;
}

/** Deterministic PRNG (mulberry32) for the randomized parity tests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
