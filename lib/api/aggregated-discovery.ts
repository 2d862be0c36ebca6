/**
 * The media types of aggregated discovery (apidiscovery.k8s.io `APIGroupDiscoveryList` at `/api` and
 * `/apis`, KEP-3352): what the API server here answers with and what the member client asks for, in
 * one place (docs/decisions/0017-aggregated-discovery.md).
 */

/** The versions served, in kube-apiserver's order of preference (v2 from 1.30, v2beta1 1.27–1.29). */
export const AGGREGATED_DISCOVERY_VERSIONS = ['v2', 'v2beta1'] as const;
export type AggregatedDiscoveryVersion = (typeof AGGREGATED_DISCOVERY_VERSIONS)[number];

/** `application/json;g=apidiscovery.k8s.io;v=<version>;as=APIGroupDiscoveryList`. */
export function aggregatedDiscoveryMediaType(version: AggregatedDiscoveryVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/** What a client asks `/api` and `/apis` for, exactly as client-go does: v2, then v2beta1, then legacy. */
export const AGGREGATED_DISCOVERY_ACCEPT = [
  ...AGGREGATED_DISCOVERY_VERSIONS.map(aggregatedDiscoveryMediaType),
  'application/json',
].join(',');

/** Whether an answer is aggregated discovery, by its Content-Type or its `kind`. */
export function isAggregatedDiscovery(contentType: string | undefined, kind: unknown): boolean {
  return (contentType ?? '').includes('g=apidiscovery.k8s.io') || kind === 'APIGroupDiscoveryList';
}
