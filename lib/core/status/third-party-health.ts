/**
 * `InterpretHealth` of Karmada's built-in third-party customizations
 * (`pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/<group>/<version>/<Kind>/customizations.yaml`,
 * `healthInterpretation.luaScript`), ported from the Lua text as of Karmada f8fdd02 (v1.19.0-rc.0+) and
 * checked against each kind's `testdata/interprethealth-test.yaml`.
 *
 * Versions: the Kubeflow, Ray, Spark and Volcano scripts arrived in v1.16.0 and have not changed
 * since. FlinkDeployment's script was rewritten in v1.18.0; the port follows the new one. The v1.15–v1.17
 * script called every state except CREATED/INITIALIZING/RECONCILING healthy, and those three healthy as
 * soon as `status.error` was set or `jobManagerDeploymentStatus` was `ERROR`. With no state at all,
 * it called the deployment healthy exactly when `status.error` was set. Under that script a
 * RECONCILING deployment with a failed job manager counted as healthy.
 *
 * Scope: these are the eight kinds that the interpreter's `third-party-kinds` already answers for. Other
 * built-in customizations also have health scripts: OpenKruise, Argo Workflow, the Flux kinds, Kyverno,
 * Kubeflow Notebook and RayService. Those scripts are not ported, so here those kinds have no hook and
 * count as Healthy.
 *
 * The rules and their quirks (reproduced on purpose):
 * - **FlinkDeployment**: `jobStatus.state` RUNNING, a terminal state (FINISHED, **FAILED**, **CANCELED**,
 *   SUSPENDED) or a short-lived one (CANCELLING, FAILING, RESTARTING) is healthy, so a FAILED or
 *   CANCELED job counts as healthy. CREATED, INITIALIZING and RECONCILING are unhealthy unless
 *   `status.error` contains ErrImagePull, ImagePullBackOff or CrashLoopBackOff, which the script calls
 *   user errors. Any other state is unhealthy. With no state at all, the deployment is healthy only when
 *   `jobManagerDeploymentStatus` is READY and `lifecycleState` is STABLE.
 * - **PyTorchJob / TFJob** (`kubeflow.org/v1`): unhealthy without `status.conditions`, and otherwise
 *   healthy unless some condition is `Failed`/`True`. An empty list is healthy.
 * - **MPIJob** (`kubeflow.org/v2beta1`): the same, except that an empty `conditions` list is unhealthy.
 * - **RayCluster**: healthy only with `HeadPodReady` True, `RayClusterProvisioned` True and no
 *   `RayClusterReplicaFailure` True. `status.state` is not read.
 * - **RayJob**: healthy when `jobDeploymentStatus` is Running (whatever `jobStatus` says), or when it is
 *   Complete with `jobStatus` SUCCEEDED. The script's explicit unhealthy branches (Failed,
 *   ValidationFailed, FAILED, STOPPED) and its default return the same `false`.
 * - **SparkApplication**: unhealthy without `applicationState.state`, and otherwise healthy unless the
 *   state is FAILED, so SUBMISSION_FAILED is healthy. The empty state `''` (the operator's initial
 *   state) is truthy in Lua, so it counts as healthy, as Karmada's own test data says.
 * - **Volcano Job** (`batch.volcano.sh/v1alpha1`): `status.state.phase` must be one of Running,
 *   Completed, Pending, Aborting, Aborted, Restarting, Completing, Terminating or Terminated. Failed,
 *   `''`, a missing phase and any other value are unhealthy.
 *
 * Malformed input: Karmada hands the script the object with JSON `null` as `nil`, and a `null` inside
 * an array is dropped (gopher-lua's `Append`). Where the Lua has an answer for a value of an
 * unexpected type, the port returns that answer. For example, indexing a string or an array by a field
 * name yields `nil`, so those read as absent, and a Spark `state` of `0` is truthy and therefore
 * healthy. Where the Lua would raise, the port never throws. The script would raise when it indexes a
 * number or a boolean, takes `#` of one, runs `ipairs` over a non-table or calls `string.find` on a
 * table. In those cases the value of the wrong type counts as `nil`. There is one place where even
 * `nil` would raise: a condition entry that is a number or a boolean. Such an entry is skipped, as the
 * Lua already skips string and array entries (their `.type` is `nil`). Karmada itself would record
 * `Unknown` for those objects, since a failing script gives no verdict.
 */
import type { KubeObject } from '../model/types.ts';
import { isObject, objectOf } from './typed.ts';

/** `observedObj.status` indexed as Lua would: a non-object yields no fields. */
function statusOf(live: KubeObject): Record<string, unknown> {
  return objectOf(live['status']);
}

/** Lua's truthiness: everything but `nil` and `false`. */
function truthy(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

/** A condition entry with the given `type` and `status: "True"`; entries that are not objects are skipped. */
function conditionTrue(entry: unknown, type: string): boolean {
  return isObject(entry) && entry['type'] === type && entry['status'] === 'True';
}

const FLINK_TERMINAL: ReadonlySet<unknown> = new Set(['FINISHED', 'FAILED', 'CANCELED', 'SUSPENDED']);
const FLINK_SHORT_LIVED: ReadonlySet<unknown> = new Set(['CANCELLING', 'FAILING', 'RESTARTING']);
const FLINK_EPHEMERAL: ReadonlySet<unknown> = new Set(['CREATED', 'INITIALIZING', 'RECONCILING']);
const FLINK_USER_ERRORS = ['ErrImagePull', 'ImagePullBackOff', 'CrashLoopBackOff'];

/**
 * `isAllowedUserError(err)`: `status.error` contains one of the allow-listed substrings (plain
 * `string.find`). A number cannot contain them, and a table or `true` would make `string.find` raise,
 * so only a string can match.
 */
function flinkUserError(error: unknown): boolean {
  return typeof error === 'string' && FLINK_USER_ERRORS.some((needle) => error.includes(needle));
}

/**
 * FlinkDeployment (`flink.apache.org/v1beta1`): RUNNING, terminal and short-lived job states are
 * healthy. CREATED, INITIALIZING and RECONCILING are healthy only when `status.error` contains an
 * allow-listed user error. With no job state, the deployment must be READY and STABLE.
 *
 * @example
 * flinkDeploymentHealthy({ ...obj, status: { jobStatus: { state: 'FAILED' } } }); // true: terminal
 */
export function flinkDeploymentHealthy(live: KubeObject): boolean {
  const status = statusOf(live);
  const state = objectOf(status['jobStatus'])['state'];
  if (state === undefined || state === null) {
    return status['jobManagerDeploymentStatus'] === 'READY' && status['lifecycleState'] === 'STABLE';
  }
  if (state === 'RUNNING' || FLINK_TERMINAL.has(state) || FLINK_SHORT_LIVED.has(state)) return true;
  if (FLINK_EPHEMERAL.has(state)) return flinkUserError(status['error']);
  return false;
}

/**
 * The PyTorchJob/TFJob script's view of `status.conditions`: the entries (JSON nulls dropped) when
 * there is a list to loop over, or undefined when the script returns false or would raise. A JSON
 * object and `''` have length 0, so the loop is skipped and they behave like an empty list. A
 * non-empty string raises at `conditions[1].type`, and a number or a boolean raises at `#`, so
 * those count as `nil`.
 */
function kubeflowConditions(status: Record<string, unknown>): unknown[] | undefined {
  const conditions = status['conditions'];
  if (Array.isArray(conditions)) return conditions.filter((entry) => entry !== null);
  if (isObject(conditions) || conditions === '') return [];
  return undefined;
}

/**
 * PyTorchJob / TFJob (`kubeflow.org/v1`): healthy when `status.conditions` is present and none of its
 * entries is `Failed`/`True`. An empty list is healthy.
 */
export function kubeflowJobHealthy(live: KubeObject): boolean {
  const conditions = kubeflowConditions(statusOf(live));
  return conditions !== undefined && !conditions.some((entry) => conditionTrue(entry, 'Failed'));
}

/**
 * MPIJob (`kubeflow.org/v2beta1`): like {@link kubeflowJobHealthy}, except that an empty `conditions`
 * list (or anything whose Lua length is 0) is unhealthy.
 */
export function mpiJobHealthy(live: KubeObject): boolean {
  const conditions = kubeflowConditions(statusOf(live));
  return (
    conditions !== undefined && conditions.length > 0 && !conditions.some((entry) => conditionTrue(entry, 'Failed'))
  );
}

/**
 * RayCluster (`ray.io/v1`): `HeadPodReady` True, `RayClusterProvisioned` True and no
 * `RayClusterReplicaFailure` True. `ipairs` over a JSON object finds no entries, and over a string,
 * number or boolean it raises, so anything but a list yields no conditions and is unhealthy.
 */
export function rayClusterHealthy(live: KubeObject): boolean {
  const conditions = statusOf(live)['conditions'];
  if (!Array.isArray(conditions)) return false;
  const has = (type: string): boolean => conditions.some((entry) => conditionTrue(entry, type));
  return has('HeadPodReady') && has('RayClusterProvisioned') && !has('RayClusterReplicaFailure');
}

/**
 * RayJob (`ray.io/v1`): `jobDeploymentStatus` Running, or Complete with `jobStatus` SUCCEEDED.
 * Everything else, including the initializing, waiting, retrying and suspended states, is unhealthy.
 */
export function rayJobHealthy(live: KubeObject): boolean {
  const status = statusOf(live);
  const deployment = status['jobDeploymentStatus'];
  return deployment === 'Running' || (deployment === 'Complete' && status['jobStatus'] === 'SUCCEEDED');
}

/**
 * SparkApplication (`sparkoperator.k8s.io/v1beta2`): a truthy `status.applicationState.state` other
 * than FAILED. Lua truthiness makes `''` (a new application) healthy. Only a missing or `false` state
 * is unhealthy.
 */
export function sparkApplicationHealthy(live: KubeObject): boolean {
  const state = objectOf(statusOf(live)['applicationState'])['state'];
  return truthy(state) && state !== 'FAILED';
}

const VOLCANO_HEALTHY_PHASES: ReadonlySet<unknown> = new Set([
  'Running',
  'Completed',
  'Pending',
  'Aborting',
  'Aborted',
  'Restarting',
  'Completing',
  'Terminating',
  'Terminated',
]);

/**
 * Volcano Job (`batch.volcano.sh/v1alpha1`): `status.state.phase` is one of the healthy phases, which
 * include Pending and the aborted and terminated ones. Failed and a missing phase are unhealthy.
 */
export function volcanoJobHealthy(live: KubeObject): boolean {
  return VOLCANO_HEALTHY_PHASES.has(objectOf(statusOf(live)['state'])['phase']);
}

/**
 * The third-party health hooks, keyed by `apiVersion/kind`. They are merged into the native ones by
 * `health.ts`, so that `hasHealthHook` and `interpretHealth` cover them.
 */
export const THIRD_PARTY_HEALTH_HOOKS: ReadonlyMap<string, (live: KubeObject) => boolean> = new Map([
  ['flink.apache.org/v1beta1/FlinkDeployment', flinkDeploymentHealthy],
  ['kubeflow.org/v1/PyTorchJob', kubeflowJobHealthy],
  ['kubeflow.org/v1/TFJob', kubeflowJobHealthy],
  ['kubeflow.org/v2beta1/MPIJob', mpiJobHealthy],
  ['ray.io/v1/RayCluster', rayClusterHealthy],
  ['ray.io/v1/RayJob', rayJobHealthy],
  ['sparkoperator.k8s.io/v1beta2/SparkApplication', sparkApplicationHealthy],
  ['batch.volcano.sh/v1alpha1/Job', volcanoJobHealthy],
]);
