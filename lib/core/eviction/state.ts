/**
 * State preservation across a failover (Karmada v1.15, `StatefulFailoverInjection`): before a
 * cluster is evicted, each rule's JSONPath is evaluated over the workload's status as last collected
 * from that cluster, and the values travel in the eviction task's `preservedLabelState`; the binder
 * then injects them as labels into the manifest for the new cluster (`injectReservedLabelState`).
 */
import type { GracefulEvictionTask, ResourceBindingSpec } from '../model/types.ts';
import { executeJsonPath, JsonPathError } from './jsonpath.ts';
import { canonicalPurgeMode } from './tasks.ts';

/** `StatePreservationRule`. */
export interface StatePreservationRule {
  aliasLabelName: string;
  jsonPath: string;
}

/** The rules of a binding's failover behaviour (`failover.cluster` or `failover.application`). */
export function statePreservationRules(behavior: unknown): StatePreservationRule[] {
  const rules = (behavior as { statePreservation?: { rules?: unknown } } | undefined)?.statePreservation?.rules;
  if (!Array.isArray(rules)) return [];
  return rules.filter(
    (r): r is StatePreservationRule =>
      r !== null && typeof r === 'object' && typeof r.aliasLabelName === 'string' && typeof r.jsonPath === 'string',
  );
}

/**
 * `BuildPreservedLabelState`: `{aliasLabelName: value}` for every rule, each JSONPath evaluated over
 * `status` with missing keys as errors. Any rule failing fails the whole extraction (throws
 * {@link JsonPathError}, naming the rule).
 */
export function buildPreservedLabelState(
  rules: readonly StatePreservationRule[],
  status: unknown,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of rules) {
    try {
      out[rule.aliasLabelName] = executeJsonPath(rule.jsonPath, status);
    } catch (err) {
      if (err instanceof JsonPathError) {
        throw new JsonPathError(`failed to execute jsonpath ${JSON.stringify(rule.jsonPath)}: ${err.message}`);
      }
      throw err;
    }
  }
  return out;
}

/** What {@link stateForEviction} found. */
export type StateExtraction =
  { ok: true; state?: Record<string, string>; carriedFrom?: string } | { ok: false; message: string };

/**
 * The state an eviction from `cluster` carries (`extractStateForEviction`), with one rule Karmada
 * lacks (#6232): when an earlier failover's task still carries preserved state — the workload has
 * not become healthy since it moved, or that task would have ended — that state is carried forward
 * instead of reading the (never-healthy) copy that is failing now. Otherwise the rules run over the
 * status last collected from `cluster`; a status never collected is an error (retry later), as in
 * Karmada. No rules ⇒ no state.
 */
export function stateForEviction(args: {
  rules: readonly StatePreservationRule[];
  spec: Pick<ResourceBindingSpec, 'gracefulEvictionTasks'>;
  aggregatedStatus: readonly { clusterName: string; status?: unknown }[] | undefined;
  cluster: string;
}): StateExtraction {
  if (args.rules.length === 0) return { ok: true };
  const earlier = [...(args.spec.gracefulEvictionTasks ?? [])]
    .reverse()
    .find((t) => t.fromCluster !== args.cluster && t.preservedLabelState && Object.keys(t.preservedLabelState).length);
  if (earlier) return { ok: true, state: { ...earlier.preservedLabelState }, carriedFrom: earlier.fromCluster };
  const item = args.aggregatedStatus?.find((s) => s.clusterName === args.cluster);
  if (!item || item.status === undefined || item.status === null) {
    return { ok: false, message: `the application status has not yet been collected from Cluster(${args.cluster})` };
  }
  try {
    return { ok: true, state: buildPreservedLabelState(args.rules, item.status) };
  } catch (err) {
    if (err instanceof JsonPathError) return { ok: false, message: err.message };
    throw err;
  }
}

/**
 * `injectReservedLabelState`: the labels to add to the manifest for `targetCluster` — the last
 * eviction task's preserved state, when the binding targets exactly one cluster, that task purged
 * `Directly`, and the target was not among the clusters before that failover. Otherwise none.
 */
export function labelsToInject(
  spec: Pick<ResourceBindingSpec, 'gracefulEvictionTasks'>,
  targetCluster: string,
  targetCount: number,
): Record<string, string> {
  if (targetCount > 1) return {};
  const tasks: GracefulEvictionTask[] = spec.gracefulEvictionTasks ?? [];
  const last = tasks[tasks.length - 1];
  if (!last || canonicalPurgeMode(last.purgeMode) !== 'Directly') return {};
  if (last.clustersBeforeFailover?.includes(targetCluster)) return {};
  return { ...(last.preservedLabelState ?? {}) };
}

/**
 * The preserved labels of the manifest for `targetCluster`: {@link labelsToInject} while the failover
 * that carried them is under way, and afterwards the ones the cluster's copy already carries (keys
 * named by the binding's statePreservation rules). Karmada drops them from the manifest once the
 * eviction task ends, which rewrites the running workload on the new cluster and loses the state a
 * later failover would carry on (#6232); here they stay with that copy.
 */
export function preservedLabelsFor(
  spec: Pick<ResourceBindingSpec, 'gracefulEvictionTasks' | 'failover'>,
  targetCluster: string,
  targetCount: number,
  existingLabels: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const injected = labelsToInject(spec, targetCluster, targetCount);
  if (Object.keys(injected).length > 0) return injected;
  const failover = spec.failover as { cluster?: unknown; application?: unknown } | undefined;
  const aliases = new Set(
    [...statePreservationRules(failover?.cluster), ...statePreservationRules(failover?.application)].map(
      (r) => r.aliasLabelName,
    ),
  );
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(existingLabels ?? {})) if (aliases.has(key)) kept[key] = value;
  return kept;
}
