/**
 * `AggregateStatus` of Karmada's default interpreter (v1.15.9
 * `pkg/resourceinterpreter/default/native/aggregatestatus.go`, `pkg/util/helper/job.go`
 * `ParsingJobStatus`, `pkg/util/helper/service.go` / `ingress.go` dedupe-and-sort): the resource
 * template's new `status` from its binding's `status.aggregatedStatus`.
 *
 * Native hooks (keyed by exact `apiVersion/kind`): `apps/v1` Deployment, StatefulSet, DaemonSet, `v1`
 * Service, Pod, PersistentVolume, PersistentVolumeClaim, `networking.k8s.io/v1` Ingress, `batch/v1` Job
 * and CronJob, `policy/v1` PodDisruptionBudget, `autoscaling/v2` HorizontalPodAutoscaler. ReplicaSet has
 * none.
 *
 * Two families:
 * - field-overwriting hooks (Deployment, StatefulSet, DaemonSet, CronJob) keep the rest of the old
 *   status and overwrite the aggregated fields; when those are already equal the old status is kept;
 * - status-replacing hooks (Service, Ingress, Job, Pod, PV, PVC, PDB, HPA) build a whole new status;
 *   everything else in the old status is dropped.
 *
 * Items without a `status` are skipped but still counted in `len(aggregatedStatusItems)` (so they block
 * Deployment's `observedGeneration` and Job completion, and count as `Pending` for Pods and PVs).
 */
import { deepEqual } from '../../util/json.ts';
import type { KubeObject } from '../model/types.ts';
import {
  aggregatedContainerStatusOf,
  cloneStatus,
  disruptedPodsOf,
  ingressLoadBalancerIngressOf,
  jobConditionOf,
  objectReferenceOf,
  serviceLoadBalancerIngressOf,
} from './kinds.ts';
import {
  arrayOf,
  compareStrings,
  formatTime,
  int32Of,
  int64Of,
  isObject,
  objectOf,
  parseTime,
  setOmitEmpty,
  stringOf,
  timeOf,
} from './typed.ts';
import type { AggregateStatusOptions, AggregatedStatusItem } from './types.ts';

type Aggregator = (
  template: KubeObject,
  items: readonly AggregatedStatusItem[],
  options: AggregateStatusOptions,
) => Record<string, unknown>;

function oldStatusOf(template: KubeObject): Record<string, unknown> {
  return objectOf(template['status']);
}

function templateGeneration(template: KubeObject): number {
  return int64Of(template.metadata?.generation);
}

/** Member statuses that were collected (`item.Status != nil`). */
function collected(items: readonly AggregatedStatusItem[]): Record<string, unknown>[] {
  return items.flatMap((item) => (isObject(item.status) ? [item.status] : []));
}

/**
 * Field-overwriting hooks: when every aggregated field already holds its new value the old status is
 * kept as is; otherwise the old status with those fields overwritten (`omitempty` zeros removed,
 * required fields always written).
 */
function overwrite(
  template: KubeObject,
  fields: readonly { key: string; value: number; required?: boolean }[],
  unchanged: boolean,
): Record<string, unknown> {
  const old = oldStatusOf(template);
  if (unchanged) return cloneStatus(old);
  const out = cloneStatus(old);
  for (const { key, value, required } of fields) {
    if (required) out[key] = value;
    else setOmitEmpty(out, key, value);
  }
  return out;
}

/**
 * `aggregateDeploymentStatus`: sums `replicas`, `readyReplicas`, `updatedReplicas`,
 * `availableReplicas`, `unavailableReplicas`. `observedGeneration` becomes the template's
 * `metadata.generation` only when every item reports `observedGeneration ≥ generation` (the member
 * observed its own latest spec) and `resourceTemplateGeneration ≥ template generation` (the member
 * carries the latest template); otherwise the template's old `observedGeneration` stays.
 */
function aggregateDeployment(template: KubeObject, items: readonly AggregatedStatusItem[]): Record<string, unknown> {
  const generation = templateGeneration(template);
  const sums = { replicas: 0, readyReplicas: 0, updatedReplicas: 0, availableReplicas: 0, unavailableReplicas: 0 };
  let observedLatest = 0;
  for (const member of collected(items)) {
    if (
      int64Of(member['observedGeneration']) >= int64Of(member['generation']) &&
      int64Of(member['resourceTemplateGeneration']) >= generation
    ) {
      observedLatest++;
    }
    for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += int32Of(member[key]);
  }
  const old = oldStatusOf(template);
  const observedGeneration = observedLatest === items.length ? generation : int64Of(old['observedGeneration']);
  const fields = [
    { key: 'observedGeneration', value: observedGeneration },
    ...Object.entries(sums).map(([key, value]) => ({ key, value })),
  ];
  const unchanged = fields.every(({ key, value }) =>
    key === 'observedGeneration' ? int64Of(old[key]) === value : int32Of(old[key]) === value,
  );
  return overwrite(template, fields, unchanged);
}

/**
 * `aggregateStatefulSetStatus`: sums `availableReplicas`, `currentReplicas`, `readyReplicas`,
 * `replicas`, `updatedReplicas`. The `observedGeneration` test compares the member's
 * `resourceTemplateGeneration` with the member's own `generation` (not the template's), and the
 * StatefulSet reflect hook never carries `observedGeneration`, so in practice the template's
 * `observedGeneration` only moves when there are no items — both as in Karmada v1.15.9.
 */
function aggregateStatefulSet(template: KubeObject, items: readonly AggregatedStatusItem[]): Record<string, unknown> {
  const sums = { availableReplicas: 0, currentReplicas: 0, readyReplicas: 0, replicas: 0, updatedReplicas: 0 };
  let observedLatest = 0;
  for (const member of collected(items)) {
    const memberGeneration = int64Of(member['generation']);
    if (
      int64Of(member['observedGeneration']) >= memberGeneration &&
      int64Of(member['resourceTemplateGeneration']) >= memberGeneration
    ) {
      observedLatest++;
    }
    for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += int32Of(member[key]);
  }
  const old = oldStatusOf(template);
  const observedGeneration =
    observedLatest === items.length ? templateGeneration(template) : int64Of(old['observedGeneration']);
  const fields = [
    { key: 'observedGeneration', value: observedGeneration },
    { key: 'availableReplicas', value: sums.availableReplicas, required: true },
    { key: 'currentReplicas', value: sums.currentReplicas },
    { key: 'readyReplicas', value: sums.readyReplicas },
    { key: 'replicas', value: sums.replicas, required: true },
    { key: 'updatedReplicas', value: sums.updatedReplicas },
  ];
  const unchanged = fields.every(({ key, value }) =>
    key === 'observedGeneration' ? int64Of(old[key]) === value : int32Of(old[key]) === value,
  );
  return overwrite(template, fields, unchanged);
}

const DAEMONSET_REQUIRED = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'];
const DAEMONSET_OPTIONAL = ['updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'];

/**
 * `aggregateDaemonSetStatus`: sums the seven scheduling counters; `observedGeneration` as for
 * Deployments (member observed its generation and carries the latest template generation). The
 * up-to-date test (`equality.Semantic.DeepEqual` against a status holding only these fields) also
 * fails when the old status has conditions or a collision count.
 */
function aggregateDaemonSet(template: KubeObject, items: readonly AggregatedStatusItem[]): Record<string, unknown> {
  const generation = templateGeneration(template);
  const sums: Record<string, number> = {};
  for (const key of [...DAEMONSET_REQUIRED, ...DAEMONSET_OPTIONAL]) sums[key] = 0;
  let observedLatest = 0;
  for (const member of collected(items)) {
    if (
      int64Of(member['observedGeneration']) >= int64Of(member['generation']) &&
      int64Of(member['resourceTemplateGeneration']) >= generation
    ) {
      observedLatest++;
    }
    for (const key of Object.keys(sums)) sums[key] = (sums[key] ?? 0) + int32Of(member[key]);
  }
  const old = oldStatusOf(template);
  const observedGeneration = observedLatest === items.length ? generation : int64Of(old['observedGeneration']);
  const fields = [
    { key: 'observedGeneration', value: observedGeneration },
    ...DAEMONSET_REQUIRED.map((key) => ({ key, value: sums[key] ?? 0, required: true })),
    ...DAEMONSET_OPTIONAL.map((key) => ({ key, value: sums[key] ?? 0 })),
  ];
  const unchanged =
    fields.every(({ key, value }) =>
      key === 'observedGeneration' ? int64Of(old[key]) === value : int32Of(old[key]) === value,
    ) &&
    arrayOf(old['conditions']).length === 0 &&
    (old['collisionCount'] === undefined || old['collisionCount'] === null);
  return overwrite(template, fields, unchanged);
}

/** Go's `fmt.Sprintf("%s/%s/%p", hostname, ip, ipMode)` key, with equal IP modes sharing a pointer. */
function serviceIngressKey(ingress: Record<string, unknown>): string {
  return JSON.stringify([stringOf(ingress['hostname']), stringOf(ingress['ip']), ingress['ipMode'] ?? null]);
}

function portKey(port: Record<string, unknown>): string {
  return JSON.stringify([port['port'], port['protocol'], port['error'] ?? null]);
}

/** `sortServicePortStatus` / `sortIngressPortStatus`: by port, protocol, then error (unset first). */
function comparePorts(a: Record<string, unknown>, b: Record<string, unknown>): number {
  if (a['port'] !== b['port']) return (a['port'] as number) - (b['port'] as number);
  if (a['protocol'] !== b['protocol']) return compareStrings(stringOf(a['protocol']), stringOf(b['protocol']));
  const ae = a['error'];
  const be = b['error'];
  if (ae === undefined && be === undefined) return 0;
  if (ae === undefined) return -1;
  if (be === undefined) return 1;
  return compareStrings(stringOf(ae), stringOf(be));
}

/**
 * `sortServiceLoadBalancerIngress` / `sortIngressLoadBalancerIngress`: entries with a hostname first
 * (by hostname), then by IP, then (Services) set IP modes before unset ones.
 */
function compareLoadBalancerIngress(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ah = stringOf(a['hostname']);
  const bh = stringOf(b['hostname']);
  if (ah !== bh) {
    if (bh === '') return -1;
    if (ah === '') return 1;
    return compareStrings(ah, bh);
  }
  const ai = stringOf(a['ip']);
  const bi = stringOf(b['ip']);
  if (ai !== bi) return compareStrings(ai, bi);
  const am = a['ipMode'];
  const bm = b['ipMode'];
  if (am === bm) return 0;
  if (bm === undefined) return -1;
  if (am === undefined) return 1;
  return compareStrings(stringOf(am), stringOf(bm));
}

/**
 * `DedupeAndSortServiceLoadBalancerIngress` / `DedupeAndSortIngressLoadBalancerIngress`: one entry per
 * hostname/IP(/IP mode), its ports the union of the duplicates' ports, sorted.
 */
function dedupeAndSortIngress(ingresses: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const byKey = new Map<string, { ingress: Record<string, unknown>; ports: Map<string, Record<string, unknown>> }>();
  for (const ingress of ingresses) {
    const key = serviceIngressKey(ingress);
    let entry = byKey.get(key);
    if (!entry) {
      entry = { ingress, ports: new Map() };
      byKey.set(key, entry);
    }
    entry.ingress = ingress;
    for (const port of arrayOf(ingress['ports']) as Record<string, unknown>[]) entry.ports.set(portKey(port), port);
  }
  const out = [...byKey.values()].map(({ ingress, ports }) => {
    const merged: Record<string, unknown> = { ...ingress };
    delete merged['ports'];
    const sorted = [...ports.values()].sort(comparePorts);
    if (sorted.length > 0) merged['ports'] = sorted;
    return merged;
  });
  return out.sort(compareLoadBalancerIngress);
}

/**
 * `aggregateServiceStatus`: for `spec.type: LoadBalancer` only (other Services keep their status),
 * `status = { loadBalancer: { ingress } }` with the members' ingress entries deduplicated and sorted.
 * Service conditions are dropped.
 */
function aggregateService(template: KubeObject, items: readonly AggregatedStatusItem[]): Record<string, unknown> {
  if (stringOf(objectOf(template['spec'])['type']) !== 'LoadBalancer') return cloneStatus(oldStatusOf(template));
  const ingress = dedupeAndSortIngress(
    collected(items).flatMap((member) =>
      arrayOf(objectOf(member['loadBalancer'])['ingress']).map(serviceLoadBalancerIngressOf),
    ),
  );
  return { loadBalancer: ingress.length > 0 ? { ingress } : {} };
}

/** `aggregateIngressStatus`: as for LoadBalancer Services (entries keyed by hostname and IP). */
function aggregateIngress(_template: KubeObject, items: readonly AggregatedStatusItem[]): Record<string, unknown> {
  const ingress = dedupeAndSortIngress(
    collected(items).flatMap((member) =>
      arrayOf(objectOf(member['loadBalancer'])['ingress']).map(ingressLoadBalancerIngressOf),
    ),
  );
  return { loadBalancer: ingress.length > 0 ? { ingress } : {} };
}

/** `helper.GetJobFinishedStatus`: the type of the first `Complete`/`Failed` condition that is `True`. */
export function jobFinishedType(status: unknown): 'Complete' | 'Failed' | undefined {
  for (const value of arrayOf(objectOf(status)['conditions'])) {
    const condition = objectOf(value);
    const type = condition['type'];
    if ((type === 'Complete' || type === 'Failed') && condition['status'] === 'True') return type;
  }
  return undefined;
}

/**
 * `aggregateJobStatus` + `helper.ParsingJobStatus` (v1.15.9):
 * - a template Job that already has a `True` `Complete`/`Failed` condition keeps its status;
 * - `active`, `succeeded`, `failed` are summed over the members;
 * - `Failed=True` (reason `JobFailed`, message `Job executed failed in member clusters a,b`) when any
 *   member Job failed; `Complete=True` (`Completed`, `Job completed`) when every item is a completed
 *   Job, plus `SuccessCriteriaMet=True` (`CompletionsReached`, `All member clusters have met success
 *   criteria`) when every item also reports `SuccessCriteriaMet=True`; the conditions' probe and
 *   transition times are `now`;
 * - `startTime`: the template's own when it has one, else the earliest member start time once every
 *   item has started;
 * - `completionTime`: the latest member completion time once every item has one.
 */
function aggregateJob(
  template: KubeObject,
  items: readonly AggregatedStatusItem[],
  options: AggregateStatusOptions,
): Record<string, unknown> {
  const old = oldStatusOf(template);
  if (jobFinishedType(old) !== undefined) return cloneStatus(old);
  const sums = { active: 0, succeeded: 0, failed: 0 };
  const failedClusters: string[] = [];
  let successful = 0;
  let successCriteriaMet = 0;
  let started = 0;
  let completed = 0;
  let startTime: number | undefined;
  let completionTime: number | undefined;
  for (const item of items) {
    if (!isObject(item.status)) continue;
    const member = item.status;
    for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += int32Of(member[key]);
    const finished = jobFinishedType(member);
    if (finished === 'Complete') successful++;
    else if (finished === 'Failed') failedClusters.push(item.clusterName);
    if (
      arrayOf(member['conditions']).some((c) => {
        const condition = objectOf(c);
        return condition['type'] === 'SuccessCriteriaMet' && condition['status'] === 'True';
      })
    ) {
      successCriteriaMet++;
    }
    const memberStart = parseTime(member['startTime']);
    if (memberStart !== undefined) started++;
    // `startTime == nil || temp.StartTime.Before(startTime)`: a nil member start never wins over a set one.
    if (startTime === undefined || (memberStart !== undefined && memberStart < startTime)) startTime = memberStart;
    const memberCompletion = parseTime(member['completionTime']);
    if (memberCompletion !== undefined) {
      completed++;
      if (completionTime === undefined || completionTime < memberCompletion) completionTime = memberCompletion;
    }
  }

  const now = options.now === undefined ? null : (timeOf(options.now) ?? null);
  const condition = (type: string, reason: string, message: string): Record<string, unknown> =>
    jobConditionOf({ type, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason, message });
  const conditions: Record<string, unknown>[] = [];
  if (failedClusters.length > 0) {
    conditions.push(
      condition('Failed', 'JobFailed', `Job executed failed in member clusters ${failedClusters.join(',')}`),
    );
  }
  if (successful === items.length && successful > 0) {
    conditions.push(condition('Complete', 'Completed', 'Job completed'));
    if (successCriteriaMet === items.length) {
      conditions.push(
        condition('SuccessCriteriaMet', 'CompletionsReached', 'All member clusters have met success criteria'),
      );
    }
  }

  const out: Record<string, unknown> = {};
  if (conditions.length > 0) out['conditions'] = conditions;
  const oldStart = timeOf(old['startTime']);
  if (oldStart !== undefined) out['startTime'] = oldStart;
  else if (started === items.length && started > 0 && startTime !== undefined) out['startTime'] = formatTime(startTime);
  if (completionTime !== undefined && completed === items.length) out['completionTime'] = formatTime(completionTime);
  for (const [key, value] of Object.entries(sums)) setOmitEmpty(out, key, value);
  return out;
}

/**
 * `aggregateCronJobStatus`: `active` is the concatenation of the members' active Job references,
 * `lastScheduleTime` and `lastSuccessfulTime` the latest of the members'.
 */
function aggregateCronJob(template: KubeObject, items: readonly AggregatedStatusItem[]): Record<string, unknown> {
  const active: Record<string, unknown>[] = [];
  let lastSchedule: number | undefined;
  let lastSuccessful: number | undefined;
  for (const member of collected(items)) {
    active.push(...arrayOf(member['active']).map(objectReferenceOf));
    const schedule = parseTime(member['lastScheduleTime']);
    if (schedule !== undefined && (lastSchedule === undefined || lastSchedule < schedule)) lastSchedule = schedule;
    const successful = parseTime(member['lastSuccessfulTime']);
    if (successful !== undefined && (lastSuccessful === undefined || lastSuccessful < successful)) {
      lastSuccessful = successful;
    }
  }
  const fresh: Record<string, unknown> = {};
  if (active.length > 0) fresh['active'] = active;
  if (lastSchedule !== undefined) fresh['lastScheduleTime'] = formatTime(lastSchedule);
  if (lastSuccessful !== undefined) fresh['lastSuccessfulTime'] = formatTime(lastSuccessful);

  const old = oldStatusOf(template);
  const oldTyped: Record<string, unknown> = {};
  const oldActive = arrayOf(old['active']).map(objectReferenceOf);
  if (oldActive.length > 0) oldTyped['active'] = oldActive;
  setOmitEmpty(oldTyped, 'lastScheduleTime', timeOf(old['lastScheduleTime']));
  setOmitEmpty(oldTyped, 'lastSuccessfulTime', timeOf(old['lastSuccessfulTime']));
  if (deepEqual(oldTyped, fresh)) return cloneStatus(old);

  const out = cloneStatus(old);
  for (const key of ['active', 'lastScheduleTime', 'lastSuccessfulTime']) setOmitEmpty(out, key, fresh[key]);
  return out;
}

/**
 * `aggregatePodStatus`: the phase is the first of `Failed`, `Pending`, `Running`, `Succeeded` that some
 * member is in (an item without status counts as `Pending`; none ⇒ no phase), and the members'
 * container and init-container statuses are concatenated keeping only `ready` and `state`.
 */
function aggregatePod(_template: KubeObject, items: readonly AggregatedStatusItem[]): Record<string, unknown> {
  const phases = new Set<string>();
  const containerStatuses: Record<string, unknown>[] = [];
  const initContainerStatuses: Record<string, unknown>[] = [];
  for (const item of items) {
    if (!isObject(item.status)) {
      phases.add('Pending');
      continue;
    }
    phases.add(stringOf(item.status['phase']));
    containerStatuses.push(...arrayOf(item.status['containerStatuses']).map(aggregatedContainerStatusOf));
    initContainerStatuses.push(...arrayOf(item.status['initContainerStatuses']).map(aggregatedContainerStatusOf));
  }
  const out: Record<string, unknown> = {};
  const phase = ['Failed', 'Pending', 'Running', 'Succeeded'].find((p) => phases.has(p));
  if (phase) out['phase'] = phase;
  if (initContainerStatuses.length > 0) out['initContainerStatuses'] = initContainerStatuses;
  if (containerStatuses.length > 0) out['containerStatuses'] = containerStatuses;
  return out;
}

/**
 * `aggregatePersistentVolumeStatus`: the phase is the first of `Failed`, `Pending`, `Available`,
 * `Bound`, `Released` that some member is in (no status ⇒ `Pending`).
 */
function aggregatePersistentVolume(
  _template: KubeObject,
  items: readonly AggregatedStatusItem[],
): Record<string, unknown> {
  const phases = new Set(items.map((item) => (isObject(item.status) ? stringOf(item.status['phase']) : 'Pending')));
  const phase = ['Failed', 'Pending', 'Available', 'Bound', 'Released'].find((p) => phases.has(p));
  return phase ? { phase } : {};
}

/**
 * `aggregatePersistentVolumeClaimStatus`: `Bound` unless a member is `Lost` (⇒ `Lost`) or otherwise
 * not `Bound` (⇒ the last such member's phase, which may be empty). Capacity, access modes and
 * conditions are dropped.
 */
function aggregatePersistentVolumeClaim(
  _template: KubeObject,
  items: readonly AggregatedStatusItem[],
): Record<string, unknown> {
  let phase = 'Bound';
  for (const member of collected(items)) {
    const memberPhase = stringOf(member['phase']);
    if (memberPhase === 'Lost') {
      phase = 'Lost';
      break;
    }
    if (memberPhase !== 'Bound') phase = memberPhase;
  }
  return phase === '' ? {} : { phase };
}

/**
 * `aggregatePodDisruptionBudgetStatus`: the four counters summed; `disruptedPods` merged with keys
 * `<cluster>/<pod>`.
 */
function aggregatePodDisruptionBudget(
  _template: KubeObject,
  items: readonly AggregatedStatusItem[],
): Record<string, unknown> {
  const sums = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  const disrupted: Record<string, unknown> = {};
  for (const item of items) {
    if (!isObject(item.status)) continue;
    for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += int32Of(item.status[key]);
    for (const [pod, time] of Object.entries(objectOf(item.status['disruptedPods']))) {
      disrupted[`${item.clusterName}/${pod}`] = time;
    }
  }
  const pods = disruptedPodsOf(disrupted);
  return { ...(Object.keys(pods).length > 0 ? { disruptedPods: pods } : {}), ...sums };
}

/**
 * `aggregateHorizontalPodAutoscalerStatus`: `currentReplicas` and `desiredReplicas` summed;
 * `currentMetrics: null` (not `omitempty` in autoscaling/v2, and left nil).
 */
function aggregateHorizontalPodAutoscaler(
  _template: KubeObject,
  items: readonly AggregatedStatusItem[],
): Record<string, unknown> {
  let current = 0;
  let desired = 0;
  for (const member of collected(items)) {
    current += int32Of(member['currentReplicas']);
    desired += int32Of(member['desiredReplicas']);
  }
  const out: Record<string, unknown> = {};
  setOmitEmpty(out, 'currentReplicas', current);
  out['desiredReplicas'] = desired;
  out['currentMetrics'] = null;
  return out;
}

/** The native `AggregateStatus` hooks, keyed by `apiVersion/kind`. */
const AGGREGATE_HOOKS: ReadonlyMap<string, Aggregator> = new Map<string, Aggregator>([
  ['apps/v1/Deployment', aggregateDeployment],
  ['v1/Service', aggregateService],
  ['networking.k8s.io/v1/Ingress', aggregateIngress],
  ['batch/v1/Job', aggregateJob],
  ['batch/v1/CronJob', aggregateCronJob],
  ['apps/v1/DaemonSet', aggregateDaemonSet],
  ['apps/v1/StatefulSet', aggregateStatefulSet],
  ['v1/Pod', aggregatePod],
  ['v1/PersistentVolume', aggregatePersistentVolume],
  ['v1/PersistentVolumeClaim', aggregatePersistentVolumeClaim],
  ['policy/v1/PodDisruptionBudget', aggregatePodDisruptionBudget],
  ['autoscaling/v2/HorizontalPodAutoscaler', aggregateHorizontalPodAutoscaler],
]);

/** Whether Karmada's default interpreter has an `AggregateStatus` hook for the object's `apiVersion/kind`. */
export function hasAggregateStatusHook(object: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return AGGREGATE_HOOKS.has(`${object.apiVersion}/${object.kind}`);
}

/**
 * AggregateStatus: the template's new `status` from the binding's aggregated status items (Karmada's
 * native hooks, v1.15.9). Undefined when the kind has no aggregation hook (the template's status is
 * then left alone). Where Karmada's hook returns the template unchanged (status already up to date, a
 * non-LoadBalancer Service, a finished Job) the result is a copy of the current status (`{}` when it has
 * none). Neither input is modified and the result shares nothing with them.
 */
export function aggregateStatus(
  template: KubeObject,
  items: readonly AggregatedStatusItem[],
  options: AggregateStatusOptions = {},
): Record<string, unknown> | undefined {
  const hook = AGGREGATE_HOOKS.get(`${template.apiVersion}/${template.kind}`);
  return hook ? cloneStatus(hook(template, items, options)) : undefined;
}
