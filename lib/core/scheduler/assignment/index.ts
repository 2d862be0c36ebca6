/**
 * Replica assignment: how many replicas each selected cluster gets (Karmada `core/common.go
 * AssignReplicas`, `core/assignment.go`, `core/division_algorithm.go`). Pure: the candidates come from
 * selection, already sorted, with their capacity estimated; the result becomes `spec.clusters`.
 *
 * Deliberate differences from Karmada v1.15:
 * - static weights are divided by the Webster method with a per-object deterministic tie-break
 *   (Karmada ≥ 1.16), not by the dispenser with a coin flip;
 * - the dynamic strategies keep v1.15's dispenser but break its last tie by name, never randomly;
 * - component bindings are placed as whole component sets (components.ts);
 * - the result is sorted by cluster name (Karmada's order depends on the strategy and, for merged
 *   dynamic results, on Go map iteration), so an unchanged decision is an unchanged list.
 */
import type { Placement, ResourceBindingSpec, TargetCluster } from '../../model/types.ts';
import { type ClusterDetail, fail, ok, type Outcome } from '../framework/types.ts';
import { assignComponentSets, isComponentBinding } from './components.ts';
import { assignByDynamic, isFreshReschedule } from './dynamic.ts';
import { assignByStaticWeight } from './static-weight.ts';

export { assignComponentSets, isComponentBinding } from './components.ts';
export {
  type ClusterWeight,
  compareClusterWeights,
  mergeTargetClusters,
  spreadByTargetClusters,
  takeByWeight,
} from './dispenser.ts';
export { assignByDynamic, type DynamicStrategy, isFreshReschedule } from './dynamic.ts';
export { assignByStaticWeight, staticWeights } from './static-weight.ts';
export { fnv32a, nameOrderForSeed, websterAllocate, type WebsterParty, type WebsterSeats } from './webster.ts';

/** What assignment needs to know about one binding. */
export interface AssignmentInput {
  /** The binding's spec: `replicas`, the previous `clusters`, `placement.replicaScheduling`, ... */
  spec: Pick<ResourceBindingSpec, 'replicas' | 'clusters' | 'placement' | 'rescheduleTriggeredAt' | 'components'>;
  /** The binding's status; `lastScheduledTime` decides Fresh mode. */
  status?: { lastScheduledTime?: string };
  /** The trigger the binding's last successful schedule saw (see `isFreshReschedule`). */
  observedTrigger?: string;
  /** The selected clusters, sorted by selection (score desc, available desc, name asc). */
  candidates: readonly ClusterDetail[];
  /** The binding's UID: seeds the Webster tie-break so each object's result is reproducible. */
  uid: string;
  /** Karmada `--enable-empty-workload-propagation`: keep candidates that got 0 replicas. */
  enableEmptyWorkloadPropagation?: boolean;
}

/** Karmada's assignment strategies (`assignFuncMap` keys). */
export type AssignmentStrategy = 'Duplicated' | 'Aggregated' | 'StaticWeight' | 'DynamicWeight';

/**
 * The strategy a placement asks for (Karmada `newAssignState`): no `replicaScheduling` ⇒ Duplicated;
 * Divided + Aggregated ⇒ Aggregated; Divided + Weighted ⇒ DynamicWeight when
 * `weightPreference.dynamicWeight` is set, else StaticWeight. Anything else (Divided without a
 * division preference, an unknown type) ⇒ `undefined`: Karmada's API defaulting fills these in, the
 * scheduler itself does not.
 */
export function assignmentStrategy(placement: Placement | undefined): AssignmentStrategy | undefined {
  const rs = placement?.replicaScheduling;
  if (!rs) return 'Duplicated';
  if (rs.replicaSchedulingType === 'Duplicated') return 'Duplicated';
  if (rs.replicaSchedulingType !== 'Divided') return undefined;
  if (rs.replicaDivisionPreference === 'Aggregated') return 'Aggregated';
  if (rs.replicaDivisionPreference !== 'Weighted') return undefined;
  return rs.weightPreference?.dynamicWeight ? 'DynamicWeight' : 'StaticWeight';
}

/**
 * Decides `spec.clusters` for a binding (Karmada `AssignReplicas` + the empty-workload step of
 * `genericScheduler.Schedule`):
 * - no candidates ⇒ `SchedulerError` `no clusters available to schedule`;
 * - `spec.components` non-empty ⇒ whole component sets (components.ts);
 * - `spec.replicas` 0 or unset ⇒ every candidate, without `replicas`;
 * - Duplicated ⇒ every candidate gets `spec.replicas`;
 * - StaticWeight ⇒ Webster over the static weights (static-weight.ts), no capacity check;
 * - Aggregated / DynamicWeight ⇒ dynamic.ts (`Unschedulable` when capacity is short);
 * - an unsupported strategy ⇒ `SchedulerError` `unsupported replica scheduling strategy, ...`.
 * Entries with 0 replicas are then dropped — or, with `enableEmptyWorkloadPropagation`, every
 * candidate without replicas is listed (without `replicas`); component bindings are exempt, since an
 * extra target would run a whole extra set. The result is sorted by name.
 *
 * @example
 * assignReplicas({ spec: { replicas: 3, placement: divided2to1 }, candidates: [m1, m2, m3], uid })
 * // ok([{ name: 'm1', replicas: 2 }, { name: 'm2', replicas: 1 }])
 */
export function assignReplicas(input: AssignmentInput): Outcome<TargetCluster[]> {
  const { spec, candidates } = input;
  if (candidates.length === 0) return fail('SchedulerError', 'no clusters available to schedule');
  const fresh = isFreshReschedule(spec.rescheduleTriggeredAt, input.status?.lastScheduledTime, input.observedTrigger);
  const rs = spec.placement?.replicaScheduling;

  if (isComponentBinding(spec)) {
    const type = !rs || rs.replicaSchedulingType === 'Duplicated' ? 'Duplicated' : rs.replicaSchedulingType;
    if (type !== 'Duplicated' && type !== 'Divided') return unsupported(spec.placement);
    return sortByName(assignComponentSets(candidates, spec, fresh, type));
  }

  const replicas = spec.replicas ?? 0;
  if (replicas <= 0) return ok(byName(candidates.map((c) => ({ name: c.name }))));

  let assigned: Outcome<TargetCluster[]>;
  switch (assignmentStrategy(spec.placement)) {
    case 'Duplicated':
      assigned = ok(candidates.map((c) => ({ name: c.name, replicas })));
      break;
    case 'StaticWeight':
      assigned = ok(assignByStaticWeight(candidates, replicas, rs?.weightPreference, spec.clusters ?? [], input.uid));
      break;
    case 'Aggregated':
      assigned = assignByDynamic(candidates, spec, fresh, 'Aggregated');
      break;
    case 'DynamicWeight':
      assigned = assignByDynamic(candidates, spec, fresh, 'DynamicWeight');
      break;
    case undefined:
      return unsupported(spec.placement);
  }
  if (!assigned.ok) return assigned;

  const placed: TargetCluster[] = assigned.value
    .filter((t) => (t.replicas ?? 0) > 0)
    .map((t) => ({ name: t.name, replicas: t.replicas }));
  if (input.enableEmptyWorkloadPropagation) {
    const named = new Set(placed.map((t) => t.name));
    for (const c of candidates) if (!named.has(c.name)) placed.push({ name: c.name });
  }
  return ok(byName(placed));
}

/** Karmada's message for a strategy it has no assignment function for. */
function unsupported(placement: Placement | undefined): Outcome<never> {
  const rs = placement?.replicaScheduling;
  return fail(
    'SchedulerError',
    `unsupported replica scheduling strategy, replicaSchedulingType: ${rs?.replicaSchedulingType ?? ''}, ` +
      `replicaDivisionPreference: ${rs?.replicaDivisionPreference ?? ''}, please try another scheduling strategy`,
  );
}

function sortByName(outcome: Outcome<TargetCluster[]>): Outcome<TargetCluster[]> {
  return outcome.ok ? ok(byName(outcome.value)) : outcome;
}

function byName(list: TargetCluster[]): TargetCluster[] {
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
