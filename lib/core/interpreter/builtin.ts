/**
 * Native `GetReplicas` of Karmada's default interpreter
 * (`pkg/resourceinterpreter/default/native/replica.go`), for `apps/v1` Deployment, ReplicaSet and
 * StatefulSet, `batch/v1` Job and `v1` Pod. Other native kinds (DaemonSet, CronJob, Service, …) have
 * no replica hook: their bindings carry no `replicas`.
 *
 * Defaults follow Karmada, which reads the object as the API server stored it: a nil `spec.replicas`
 * (or Job `spec.parallelism`) counts as 0 — the API server defaults these to 1 before the interpreter
 * sees them. A replica count that is not an int32 integer counts as nil (Karmada's typed conversion
 * would fail instead).
 */
import type { KubeObject } from '../model/types.ts';
import type { KindInterpreter, ReplicaInterpretation } from './hooks/registry.ts';
import { type InterpretOptions, generateReplicaRequirements, isObject } from './hooks/requirements.ts';

const MAX_INT32 = 2 ** 31 - 1;
const MIN_INT32 = -(2 ** 31);

/** An `*int32` field: the integer when it is one in range, else undefined (nil). */
export function int32Field(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_INT32 && value <= MAX_INT32
    ? value
    : undefined;
}

function specOf(object: KubeObject): Record<string, unknown> {
  const spec = object['spec'];
  return isObject(spec) ? spec : {};
}

function withRequirements(replicas: number, template: unknown, options: InterpretOptions): ReplicaInterpretation {
  const replicaRequirements = generateReplicaRequirements(template, options);
  return replicaRequirements ? { replicas, replicaRequirements } : { replicas };
}

/**
 * `deployReplica` / `replicaSetReplica` / `statefulSetReplica`: `spec.replicas` (nil → 0) and the
 * requirements of `spec.template`.
 */
export function workloadReplicas(object: KubeObject, options: InterpretOptions = {}): ReplicaInterpretation {
  const spec = specOf(object);
  return withRequirements(int32Field(spec['replicas']) ?? 0, spec['template'], options);
}

/**
 * `jobReplica`: `spec.parallelism` (nil → 0), capped at `spec.completions` when that is set (a Job
 * never runs more pods in parallel than it has completions left), and the requirements of
 * `spec.template`.
 */
export function jobReplicas(object: KubeObject, options: InterpretOptions = {}): ReplicaInterpretation {
  const spec = specOf(object);
  let replicas = int32Field(spec['parallelism']) ?? 0;
  const completions = int32Field(spec['completions']) ?? replicas;
  if (replicas > completions) replicas = completions;
  return withRequirements(replicas, spec['template'], options);
}

/** `podReplica`: always 1, with the requirements of the pod's own spec. */
export function podReplicas(object: KubeObject, options: InterpretOptions = {}): ReplicaInterpretation {
  return withRequirements(1, { spec: object['spec'] }, options);
}

/** The native replica hooks, keyed by `apiVersion/kind`. */
export const BUILTIN_INTERPRETERS: ReadonlyMap<string, KindInterpreter> = new Map<string, KindInterpreter>([
  ['apps/v1/Deployment', { replicas: workloadReplicas }],
  ['apps/v1/ReplicaSet', { replicas: workloadReplicas }],
  ['apps/v1/StatefulSet', { replicas: workloadReplicas }],
  ['batch/v1/Job', { replicas: jobReplicas }],
  ['v1/Pod', { replicas: podReplicas }],
]);
