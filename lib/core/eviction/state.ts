/**
 * State preservation across a failover (Karmada v1.15, `StatefulFailoverInjection`): before a
 * cluster is evicted, each rule's JSONPath is evaluated over the workload's status as last collected
 * from that cluster, and the values travel in the eviction task's `preservedLabelState`; the binder
 * then injects them as labels into the manifest for the new cluster (`injectReservedLabelState`).
 */
import { CARRIED_LABEL_STATE_ANNOTATION } from '../../api/well-known.ts';
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
 * The state a failover gave the copy on `cluster` (evicted `from`), kept on the binding after that
 * failover's task ended while the copy has not reported Healthy ({@link carriedLabelState}).
 */
export interface CarriedLabelState {
  from: string;
  cluster: string;
  state: Record<string, string>;
}

/**
 * The state an eviction from `cluster` carries (`extractStateForEviction`), with one rule Karmada
 * lacks (#6232): when the copy failing now was started with the state of an earlier failover and has
 * not become healthy since, that state is carried forward instead of reading the (never-healthy)
 * copy's status. The earlier failover's state is found in its task while the task exists, and after
 * the task has ended (its grace period, 10 m by default, is usually over before a second cluster fails
 * and waits out its toleration) in `carried`, which the binding keeps for that copy until it reports
 * Healthy. Otherwise the rules run over the status last collected from `cluster`; a status never
 * collected is an error (retry later), as in Karmada. No rules ⇒ no state.
 */
export function stateForEviction(args: {
  rules: readonly StatePreservationRule[];
  spec: Pick<ResourceBindingSpec, 'gracefulEvictionTasks'>;
  aggregatedStatus: readonly { clusterName: string; status?: unknown }[] | undefined;
  cluster: string;
  carried?: CarriedLabelState | undefined;
}): StateExtraction {
  if (args.rules.length === 0) return { ok: true };
  const earlier = [...(args.spec.gracefulEvictionTasks ?? [])]
    .reverse()
    .find((t) => t.fromCluster !== args.cluster && t.preservedLabelState && Object.keys(t.preservedLabelState).length);
  if (earlier) return { ok: true, state: { ...earlier.preservedLabelState }, carriedFrom: earlier.fromCluster };
  if (args.carried?.cluster === args.cluster && Object.keys(args.carried.state).length) {
    return { ok: true, state: { ...args.carried.state }, carriedFrom: args.carried.from };
  }
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
 * The state a binding carries for a later failover after this pass (#6232): the labels injected into
 * its one target by a failover whose task ended in this pass (`before` → `after`), or the state it
 * carried already; none once that copy reports `Healthy` (it ran: its own status is the state from
 * then on) or leaves the placement (evicted — its task holds the state now — or moved).
 */
export function carriedLabelState(args: {
  before: Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>;
  after: Pick<ResourceBindingSpec, 'clusters' | 'gracefulEvictionTasks'>;
  carried: CarriedLabelState | undefined;
  observed: readonly { clusterName: string; health?: string }[] | undefined;
}): CarriedLabelState | undefined {
  let next = args.carried;
  const targets = args.before.clusters ?? [];
  const last = args.before.gracefulEvictionTasks?.at(-1);
  if (targets.length === 1 && last) {
    const cluster = targets[0]!.name;
    const injected = labelsToInject(args.before, cluster, 1);
    const ended = !(args.after.gracefulEvictionTasks ?? []).some((t) => t.fromCluster === last.fromCluster);
    if (ended && Object.keys(injected).length) next = { from: last.fromCluster, cluster, state: injected };
  }
  if (!next) return undefined;
  const placed = (args.after.clusters ?? []).some((c) => c.name === next.cluster);
  const healthy = args.observed?.some((o) => o.clusterName === next.cluster && o.health === 'Healthy');
  return placed && !healthy ? next : undefined;
}

/** The carried state a binding's annotations hold; undefined when none (or unreadable). */
export function carriedLabelStateOf(
  annotations: Readonly<Record<string, string>> | undefined,
): CarriedLabelState | undefined {
  const text = annotations?.[CARRIED_LABEL_STATE_ANNOTATION];
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<CarriedLabelState> | null;
    const state = value?.state;
    if (
      typeof value?.from !== 'string' ||
      typeof value.cluster !== 'string' ||
      !state ||
      typeof state !== 'object' ||
      Object.values(state).some((v) => typeof v !== 'string')
    )
      return undefined;
    return { from: value.from, cluster: value.cluster, state };
  } catch {
    return undefined;
  }
}

/**
 * The binding's annotations holding `carried` (removed when undefined); the same object when that is
 * what they hold already (no write needed).
 */
export function withCarriedLabelState(
  annotations: Readonly<Record<string, string>> | undefined,
  carried: CarriedLabelState | undefined,
): Readonly<Record<string, string>> | undefined {
  const text = carried
    ? JSON.stringify({ from: carried.from, cluster: carried.cluster, state: carried.state })
    : undefined;
  if (annotations?.[CARRIED_LABEL_STATE_ANNOTATION] === text) return annotations;
  const next = { ...annotations };
  if (text === undefined) delete next[CARRIED_LABEL_STATE_ANNOTATION];
  else next[CARRIED_LABEL_STATE_ANNOTATION] = text;
  return next;
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
