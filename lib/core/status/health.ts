/**
 * `InterpretHealth` of Karmada's default interpreter (v1.15.9
 * `pkg/resourceinterpreter/default/native/healthy.go`) and the health the work status controller
 * records for it (`pkg/controllers/status/work_status_controller.go` `interpretHealth`).
 *
 * Native hooks (keyed by exact `apiVersion/kind`): `apps/v1` Deployment, StatefulSet, ReplicaSet,
 * DaemonSet, `v1` Service, PersistentVolumeClaim, Pod, `networking.k8s.io/v1` Ingress and `policy/v1`
 * PodDisruptionBudget. Karmada's built-in third-party customizations add Lua `healthInterpretation`
 * hooks, ported in `third-party-health.ts`: `flink.apache.org/v1beta1` FlinkDeployment, `kubeflow.org/v1`
 * PyTorchJob and TFJob, `kubeflow.org/v2beta1` MPIJob, `ray.io/v1` RayCluster and RayJob,
 * `sparkoperator.k8s.io/v1beta2` SparkApplication and `batch.volcano.sh/v1alpha1` Job (none of them has
 * a native hook). A kind without a health hook is recorded as **Healthy** ("For kind that doesn't have
 * health check, we treat it as healthy"), not Unknown. Unknown is what a failing hook gives, and what a
 * binding's aggregated status says for a cluster whose Work is not applied or has no manifest status
 * yet.
 */
import type { KubeObject } from '../model/types.ts';
import { THIRD_PARTY_HEALTH_HOOKS } from './third-party-health.ts';
import { arrayOf, int32Of, int64Of, objectOf, optionalInt32, stringOf } from './typed.ts';
import type { ResourceHealth } from './types.ts';

type HealthHook = (live: KubeObject) => boolean;

function specOf(live: KubeObject): Record<string, unknown> {
  return objectOf(live['spec']);
}

function statusOf(live: KubeObject): Record<string, unknown> {
  return objectOf(live['status']);
}

function generationOf(live: KubeObject): number {
  return int64Of(live.metadata?.generation);
}

/**
 * `interpretDeploymentHealth` / `interpretStatefulSetHealth`: the member controller observed the
 * latest generation, every desired replica is updated (when `spec.replicas` is set), and every updated
 * replica is available.
 */
function updatedAndAvailable(live: KubeObject): boolean {
  const status = statusOf(live);
  if (int64Of(status['observedGeneration']) !== generationOf(live)) return false;
  const replicas = optionalInt32(specOf(live)['replicas']);
  const updated = int32Of(status['updatedReplicas']);
  if (replicas !== undefined && updated < replicas) return false;
  return int32Of(status['availableReplicas']) >= updated;
}

/** `interpretReplicaSetHealth`: latest generation observed and `availableReplicas ≥ spec.replicas`. */
function replicaSetHealthy(live: KubeObject): boolean {
  const status = statusOf(live);
  if (int64Of(status['observedGeneration']) !== generationOf(live)) return false;
  const replicas = optionalInt32(specOf(live)['replicas']);
  return !(replicas !== undefined && int32Of(status['availableReplicas']) < replicas);
}

/**
 * `interpretDaemonSetHealth`: latest generation observed, `updatedNumberScheduled ≥
 * desiredNumberScheduled` and `numberAvailable ≥ updatedNumberScheduled`.
 */
function daemonSetHealthy(live: KubeObject): boolean {
  const status = statusOf(live);
  if (int64Of(status['observedGeneration']) !== generationOf(live)) return false;
  const updated = int32Of(status['updatedNumberScheduled']);
  if (updated < int32Of(status['desiredNumberScheduled'])) return false;
  return int32Of(status['numberAvailable']) >= updated;
}

/** Some `status.loadBalancer.ingress[]` entry has a hostname or an IP. */
function hasLoadBalancerAddress(live: KubeObject): boolean {
  return arrayOf(objectOf(statusOf(live)['loadBalancer'])['ingress']).some((entry) => {
    const ingress = objectOf(entry);
    return stringOf(ingress['hostname']) !== '' || stringOf(ingress['ip']) !== '';
  });
}

/** `interpretServiceHealth`: non-LoadBalancer Services are healthy; LoadBalancers once they have an address. */
function serviceHealthy(live: KubeObject): boolean {
  return stringOf(specOf(live)['type']) !== 'LoadBalancer' || hasLoadBalancerAddress(live);
}

/** `interpretPersistentVolumeClaimHealth`: `status.phase == Bound`. */
function persistentVolumeClaimHealthy(live: KubeObject): boolean {
  return stringOf(statusOf(live)['phase']) === 'Bound';
}

/**
 * `interpretPodHealth`: `Succeeded`, or `Running` with the (first) `Ready` condition `True`
 * (`helper.GetPodCondition`).
 */
function podHealthy(live: KubeObject): boolean {
  const status = statusOf(live);
  const phase = stringOf(status['phase']);
  if (phase === 'Succeeded') return true;
  const ready = arrayOf(status['conditions'])
    .map(objectOf)
    .find((c) => c['type'] === 'Ready');
  return phase === 'Running' && ready !== undefined && ready['status'] === 'True';
}

/** `interpretPodDisruptionBudgetHealth`: `currentHealthy ≥ desiredHealthy`. */
function podDisruptionBudgetHealthy(live: KubeObject): boolean {
  const status = statusOf(live);
  return int32Of(status['currentHealthy']) >= int32Of(status['desiredHealthy']);
}

/** The native health hooks, keyed by `apiVersion/kind`. */
const NATIVE_HEALTH_HOOKS: ReadonlyMap<string, HealthHook> = new Map<string, HealthHook>([
  ['apps/v1/Deployment', updatedAndAvailable],
  ['apps/v1/StatefulSet', updatedAndAvailable],
  ['apps/v1/ReplicaSet', replicaSetHealthy],
  ['apps/v1/DaemonSet', daemonSetHealthy],
  ['v1/Service', serviceHealthy],
  ['networking.k8s.io/v1/Ingress', hasLoadBalancerAddress],
  ['v1/PersistentVolumeClaim', persistentVolumeClaimHealthy],
  ['v1/Pod', podHealthy],
  ['policy/v1/PodDisruptionBudget', podDisruptionBudgetHealthy],
]);

/**
 * Every health hook, keyed by `apiVersion/kind`: the native ones, then the third-party customizations
 * (Karmada's default interpreter consults native before third-party; the kinds do not overlap).
 */
const HEALTH_HOOKS: ReadonlyMap<string, HealthHook> = new Map<string, HealthHook>([
  ...NATIVE_HEALTH_HOOKS,
  ...THIRD_PARTY_HEALTH_HOOKS,
]);

/**
 * Whether Karmada's default interpreter has an `InterpretHealth` hook for the object's `apiVersion/kind`
 * (`HookEnabled(gvk, InterpretHealth)`; application failover needs one): a native kind or one of the
 * third-party customizations.
 */
export function hasHealthHook(object: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return HEALTH_HOOKS.has(`${object.apiVersion}/${object.kind}`);
}

/**
 * InterpretHealth as the work status controller records it: the native or third-party hook's verdict
 * (`Healthy` / `Unhealthy`); `Healthy` for kinds without a hook (Karmada treats them as healthy). Values
 * of the wrong type count as unset where Karmada's typed conversion (native) or Lua script (third-party)
 * would fail and record `Unknown`.
 */
export function interpretHealth(live: KubeObject): ResourceHealth {
  const hook = HEALTH_HOOKS.get(`${live.apiVersion}/${live.kind}`);
  if (!hook) return 'Healthy';
  return hook(live) ? 'Healthy' : 'Unhealthy';
}
