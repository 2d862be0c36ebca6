/**
 * The failed state a custom resource of a workload marked unhealthy reports, per kind (`Kind.group`),
 * as its operator would on a real member: merged over the current status, so every other field (a
 * Flink job id above all: the failover reads it from the failing cluster's last status) is kept.
 * These are the states Karmada's health rules for these kinds judge unhealthy; a kind without a rule
 * here gets a `Ready=False` condition, which no health rule may read (Karmada deems a kind without
 * a health rule Healthy).
 */
import { deepEqual } from '../../util/json.ts';
import type { Obj } from './context.ts';

/** How a kind fails and comes back. */
export interface FailureRule {
  /** The status with the kind's failed state merged over it; applying it twice changes nothing. */
  fail(status: Obj): Obj;
  /** Takes away what `fail` added that the kind's healthy status does not overwrite. */
  heal(status: Obj): Obj;
}

/** The status of a resource currently failed by `rule` (`fail` finds nothing to change). */
export function showsFailure(rule: FailureRule, status: Obj): boolean {
  return deepEqual(rule.fail(status), status);
}

/** The rule for a kind: its own, or the generic `Ready=False` one. */
export function failureRuleOf(gk: { group: string; kind: string }): FailureRule {
  return FAILURE_RULES[`${gk.kind}.${gk.group}`] ?? GENERIC;
}

function conditionsOf(status: Obj): Obj[] {
  return Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
}

/** The conditions with `condition` replacing the one of its type (position kept), or appended. */
function upsert(conditions: Obj[], condition: Obj): Obj[] {
  const index = conditions.findIndex((c) => c.type === condition.type);
  return index < 0 ? [...conditions, condition] : conditions.map((c, i) => (i === index ? condition : c));
}

/** The status without the conditions `drop` picks (and without `conditions` when none is left). */
function dropConditions(status: Obj, drop: (c: Obj) => boolean): Obj {
  if (!Array.isArray(status.conditions)) return status;
  const { conditions: _, ...rest } = status;
  const kept = conditionsOf(status).filter((c) => !drop(c));
  return kept.length ? { ...rest, conditions: kept } : rest;
}

function objectAt(status: Obj, key: string): Obj {
  const value = status[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}

/** PyTorchJob, TFJob, MPIJob: Failed, no longer Running. */
function kubeflowJob(kind: string): FailureRule {
  return {
    fail: (status) => ({
      ...status,
      conditions: upsert(upsert(conditionsOf(status), { type: 'Running', status: 'False', reason: 'JobFailed' }), {
        type: 'Failed',
        status: 'True',
        reason: 'JobFailed',
        message: `${kind} failed: a replica exited with an error (simulated)`,
      }),
    }),
    heal: (status) => dropConditions(status, (c) => c.type === 'Failed'),
  };
}

const FAILURE_RULES: Record<string, FailureRule> = {
  'FlinkDeployment.flink.apache.org': {
    fail: (status) => ({
      ...status,
      lifecycleState: 'DEPLOYED',
      // Merged, so the job id (jobId and jobID) stays.
      jobStatus: { ...objectAt(status, 'jobStatus'), state: 'RECONCILING' },
      jobManagerDeploymentStatus: 'ERROR',
      error: 'JobManager deployment failed: pods are not ready (simulated)',
    }),
    heal: ({ error: _, ...status }) => status,
  },
  'PyTorchJob.kubeflow.org': kubeflowJob('PyTorchJob'),
  'TFJob.kubeflow.org': kubeflowJob('TFJob'),
  'MPIJob.kubeflow.org': kubeflowJob('MPIJob'),
  'RayJob.ray.io': {
    fail: (status) => ({ ...status, jobStatus: 'FAILED', jobDeploymentStatus: 'Failed' }),
    heal: (status) => status,
  },
  'RayCluster.ray.io': {
    fail: (status) => ({
      ...status,
      state: 'failed',
      conditions: upsert(upsert(conditionsOf(status), { type: 'HeadPodReady', status: 'False' }), {
        type: 'RayClusterReplicaFailure',
        status: 'True',
      }),
    }),
    heal: (status) => dropConditions(status, (c) => c.type === 'RayClusterReplicaFailure'),
  },
  'SparkApplication.sparkoperator.k8s.io': {
    fail: (status) => ({
      ...status,
      applicationState: {
        ...objectAt(status, 'applicationState'),
        state: 'FAILED',
        errorMessage: 'driver container failed with ExitCode: 1, Reason: Error (simulated)',
      },
    }),
    heal: (status) => {
      if (!('applicationState' in status)) return status;
      const { errorMessage: _, ...applicationState } = objectAt(status, 'applicationState');
      return { ...status, applicationState };
    },
  },
  'Job.batch.volcano.sh': {
    fail: (status) => ({ ...status, state: { ...objectAt(status, 'state'), phase: 'Failed' } }),
    heal: (status) => status,
  },
};

const GENERIC_REASON = 'SimulatedFailure';

/** Any other kind: a `Ready=False` condition (which Karmada judges only through a health rule). */
const GENERIC: FailureRule = {
  fail: (status) => ({
    ...status,
    conditions: upsert(conditionsOf(status), {
      type: 'Ready',
      status: 'False',
      reason: GENERIC_REASON,
      message: 'marked unhealthy with skctl sim unhealthy (simulated)',
    }),
  }),
  heal: (status) => dropConditions(status, (c) => c.type === 'Ready' && c.reason === GENERIC_REASON),
};
