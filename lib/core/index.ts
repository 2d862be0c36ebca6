/**
 * `serverless-karmada/core` — the pure decision core: Karmada's policy matching, resource interpreter,
 * scheduler, Work rendering, status aggregation and cluster health/modeling as functions over plain
 * Karmada-shaped objects (PropagationPolicy, ResourceBinding, Work, Cluster as the API returns them).
 * No I/O, no clock, no AWS: bring your own objects.
 *
 * @example
 * import { buildFramework, buildSnapshot, choosePolicy, interpretBindingWorkload, scheduleBinding } from 'serverless-karmada/core';
 * const snapshot = buildSnapshot(clusters);            // Cluster objects with status.resourceSummary
 * const result = scheduleBinding(binding, snapshot, buildFramework(['*']));
 * if (result.outcome.ok) console.log(result.outcome.value.clusters); // [{ name: 'member1', replicas: 2 }, …]
 *
 * See docs/core.md.
 */
export * from './model/types.ts';
export { clusterMatches, clusterZones, compileLabelSelector } from './placement/affinity.ts';
export * from './policy/index.ts';
export * from './interpreter/index.ts';
export * from './scheduler/index.ts';
export * from './overrides/index.ts';
export * from './status/index.ts';
export * from './work/index.ts';
export * from './dependencies/index.ts';
export * from './clusters/index.ts';
export * from './eviction/index.ts';
export * from './rebalancer/index.ts';
export * from './quota/index.ts';
export * from './search/index.ts';
// Karmada's well-known labels, annotations and finalizers, which the objects above carry.
export * from '../api/well-known.ts';
