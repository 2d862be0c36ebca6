/**
 * `ReflectStatus` of Karmada's default interpreter (v1.15.9
 * `pkg/resourceinterpreter/default/native/reflectstatus.go`, `status_type.go`): what a member object's
 * status contributes to `Work.status.manifestStatuses[].status`.
 *
 * Native hooks (keyed by exact `apiVersion/kind`): `apps/v1` Deployment, DaemonSet and StatefulSet
 * (picked counters plus the member's `metadata.generation` as `generation` and the
 * `resourcetemplate.karmada.io/generation` annotation as `resourceTemplateGeneration`, both `omitempty`),
 * `v1` Service (only `type: LoadBalancer`: `status.loadBalancer`), `networking.k8s.io/v1` Ingress (whole
 * status), `batch/v1` Job (counters, conditions, start/completion times), `policy/v1`
 * PodDisruptionBudget and `autoscaling/v2` HorizontalPodAutoscaler (picked fields). Every other kind:
 * the whole `status` (`reflectWholeStatus`). No `status` ⇒ nothing.
 *
 * Quirks kept from Karmada: the StatefulSet hook does not carry `observedGeneration`; the workload hooks
 * fail (Karmada: error, the Work status is not updated) when the generation annotation is absent or is
 * not an int64 — `strconv.ParseInt("")` fails too.
 */
import { RESOURCE_TEMPLATE_GENERATION_ANNOTATION } from '../../api/well-known.ts';
import type { KubeObject } from '../model/types.ts';
import { cloneStatus, disruptedPodsOf, jobConditionOf, serviceLoadBalancerIngressOf } from './kinds.ts';
import { arrayOf, int32Of, int64Of, isObject, objectOf, parseInt64, setOmitEmpty, timeOf } from './typed.ts';
import type { ReflectStatusResult } from './types.ts';

type Reflector = (live: KubeObject) => ReflectStatusResult;

const NONE: ReflectStatusResult = { ok: true, status: undefined };

function describe(live: KubeObject): string {
  const ns = live.metadata?.namespace;
  return `${live.kind}(${ns ? `${ns}/` : ''}${live.metadata?.name ?? ''})`;
}

/**
 * `unstructured.NestedMap(object, "status")`: the status object, `undefined` when absent (or null), or
 * an error when it is not an object.
 */
function statusMap(live: KubeObject): Record<string, unknown> | undefined | Error {
  const status = live['status'];
  if (status === undefined || status === null) return undefined;
  if (!isObject(status)) return new Error(`failed to get status field from ${describe(live)}: not an object`);
  return status;
}

/** `FederatedGeneration` of a member workload, or the annotation parse error. */
function federatedGeneration(live: KubeObject): Record<string, unknown> | Error {
  const text = live.metadata?.annotations?.[RESOURCE_TEMPLATE_GENERATION_ANNOTATION] ?? '';
  const resourceTemplateGeneration = parseInt64(String(text));
  if (resourceTemplateGeneration === undefined) {
    return new Error(
      `failed to parse ${describe(live)} generation from annotation(${RESOURCE_TEMPLATE_GENERATION_ANNOTATION}:${String(text)})`,
    );
  }
  const out: Record<string, unknown> = {};
  setOmitEmpty(out, 'generation', int64Of(live.metadata?.generation));
  setOmitEmpty(out, 'resourceTemplateGeneration', resourceTemplateGeneration);
  return out;
}

function failed(error: Error): ReflectStatusResult {
  return { ok: false, error: error.message };
}

/** `reflectDeploymentStatus`: an empty result (`{}`) means "not collected yet" and gives nothing. */
function reflectDeployment(live: KubeObject): ReflectStatusResult {
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  const generation = federatedGeneration(live);
  if (generation instanceof Error) return failed(generation);
  const out = { ...generation };
  setOmitEmpty(out, 'observedGeneration', int64Of(status['observedGeneration']));
  for (const key of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas']) {
    setOmitEmpty(out, key, int32Of(status[key]));
  }
  return { ok: true, status: Object.keys(out).length === 0 ? undefined : out };
}

/** `reflectDaemonSetStatus`: the four scheduling counters are not `omitempty`. */
function reflectDaemonSet(live: KubeObject): ReflectStatusResult {
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  const generation = federatedGeneration(live);
  if (generation instanceof Error) return failed(generation);
  const out: Record<string, unknown> = {
    ...generation,
    currentNumberScheduled: int32Of(status['currentNumberScheduled']),
    numberMisscheduled: int32Of(status['numberMisscheduled']),
    desiredNumberScheduled: int32Of(status['desiredNumberScheduled']),
    numberReady: int32Of(status['numberReady']),
  };
  setOmitEmpty(out, 'observedGeneration', int64Of(status['observedGeneration']));
  for (const key of ['updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']) {
    setOmitEmpty(out, key, int32Of(status[key]));
  }
  return { ok: true, status: out };
}

/**
 * `reflectStatefulSetStatus`: `replicas` and `availableReplicas` are not `omitempty`; the member's
 * `observedGeneration` is not carried (Karmada picks only the five replica counters).
 */
function reflectStatefulSet(live: KubeObject): ReflectStatusResult {
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  const generation = federatedGeneration(live);
  if (generation instanceof Error) return failed(generation);
  const out: Record<string, unknown> = { ...generation, replicas: int32Of(status['replicas']) };
  for (const key of ['readyReplicas', 'currentReplicas', 'updatedReplicas'])
    setOmitEmpty(out, key, int32Of(status[key]));
  out['availableReplicas'] = int32Of(status['availableReplicas']);
  return { ok: true, status: out };
}

/**
 * `reflectServiceStatus`: only for `spec.type: LoadBalancer` (a Service without `spec.type` gives
 * nothing), and only `status.loadBalancer`.
 */
function reflectService(live: KubeObject): ReflectStatusResult {
  const type = objectOf(live['spec'])['type'];
  if (typeof type !== 'string' || type !== 'LoadBalancer') return NONE;
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  const ingress = arrayOf(objectOf(status['loadBalancer'])['ingress']).map(serviceLoadBalancerIngressOf);
  return { ok: true, status: { loadBalancer: ingress.length > 0 ? { ingress } : {} } };
}

/** `reflectJobStatus`: counters, conditions and start/completion times. */
function reflectJob(live: KubeObject): ReflectStatusResult {
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  const out: Record<string, unknown> = {};
  const conditions = arrayOf(status['conditions']).map(jobConditionOf);
  if (conditions.length > 0) out['conditions'] = conditions;
  setOmitEmpty(out, 'startTime', timeOf(status['startTime']));
  setOmitEmpty(out, 'completionTime', timeOf(status['completionTime']));
  for (const key of ['active', 'succeeded', 'failed']) setOmitEmpty(out, key, int32Of(status[key]));
  return { ok: true, status: out };
}

/** `reflectPodDisruptionBudgetStatus`: the four counters (not `omitempty`) and `disruptedPods`. */
function reflectPodDisruptionBudget(live: KubeObject): ReflectStatusResult {
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  const out: Record<string, unknown> = {};
  const disrupted = disruptedPodsOf(status['disruptedPods']);
  if (Object.keys(disrupted).length > 0) out['disruptedPods'] = disrupted;
  out['disruptionsAllowed'] = int32Of(status['disruptionsAllowed']);
  out['currentHealthy'] = int32Of(status['currentHealthy']);
  out['desiredHealthy'] = int32Of(status['desiredHealthy']);
  out['expectedPods'] = int32Of(status['expectedPods']);
  return { ok: true, status: out };
}

/**
 * `reflectHorizontalPodAutoscalerStatus`: `currentReplicas` (`omitempty`), `desiredReplicas`, and
 * `currentMetrics: null` (that field is not `omitempty`, and Karmada leaves it nil).
 */
function reflectHorizontalPodAutoscaler(live: KubeObject): ReflectStatusResult {
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  const out: Record<string, unknown> = {};
  setOmitEmpty(out, 'currentReplicas', int32Of(status['currentReplicas']));
  out['desiredReplicas'] = int32Of(status['desiredReplicas']);
  out['currentMetrics'] = null;
  return { ok: true, status: out };
}

/** `reflectWholeStatus`: a copy of the whole `status` object (`{}` stays `{}`). */
function reflectWhole(live: KubeObject): ReflectStatusResult {
  const status = statusMap(live);
  if (status instanceof Error) return failed(status);
  if (status === undefined) return NONE;
  return { ok: true, status: cloneStatus(status) };
}

/** The native `ReflectStatus` hooks, keyed by `apiVersion/kind`; other kinds reflect the whole status. */
const REFLECT_HOOKS: ReadonlyMap<string, Reflector> = new Map<string, Reflector>([
  ['apps/v1/Deployment', reflectDeployment],
  ['v1/Service', reflectService],
  ['networking.k8s.io/v1/Ingress', reflectWhole],
  ['batch/v1/Job', reflectJob],
  ['apps/v1/DaemonSet', reflectDaemonSet],
  ['apps/v1/StatefulSet', reflectStatefulSet],
  ['policy/v1/PodDisruptionBudget', reflectPodDisruptionBudget],
  ['autoscaling/v2/HorizontalPodAutoscaler', reflectHorizontalPodAutoscaler],
]);

/** Whether Karmada has a kind-specific (native) `ReflectStatus` hook for the object's `apiVersion/kind`. */
export function hasReflectStatusHook(object: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return REFLECT_HOOKS.has(`${object.apiVersion}/${object.kind}`);
}

/**
 * `DefaultInterpreter.ReflectStatus` with its error: `{ ok: false }` where Karmada's hook returns an
 * error (a workload without a parsable `resourcetemplate.karmada.io/generation` annotation, a `status`
 * that is not an object) — Karmada then leaves the Work's manifest status as it was.
 */
export function tryReflectStatus(live: KubeObject): ReflectStatusResult {
  const hook = REFLECT_HOOKS.get(`${live.apiVersion}/${live.kind}`) ?? reflectWhole;
  return hook(live);
}

/**
 * ReflectStatus: what the member object's status contributes to
 * `Work.status.manifestStatuses[].status` (Karmada's native per-kind picks; kinds without a native hook:
 * the whole `status` copied). Undefined when the object has no status, when the hook gives nothing
 * (a non-LoadBalancer Service, a Deployment whose picks are all zero) and when Karmada's hook would fail
 * (see {@link tryReflectStatus} to tell these apart).
 */
export function reflectStatus(live: KubeObject): Record<string, unknown> | undefined {
  const result = tryReflectStatus(live);
  return result.ok ? result.status : undefined;
}
