/**
 * `InterpretHealth` of Karmada's built-in third-party customizations (f8fdd02 `resourcecustomizations/
 * <group>/<version>/<Kind>/customizations.yaml` `healthInterpretation`, rows taken from each kind's
 * `testdata/interprethealth-test.yaml`), the statuses the local member simulator writes, and malformed
 * input: where the Lua would raise, the offending value counts as nil (Karmada would record Unknown).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { KubeObject } from '../../../../lib/core/model/types.ts';
import { hasHealthHook, interpretHealth, type ResourceHealth } from '../../../../lib/core/status/index.ts';

type Row = { name: string; live: KubeObject; want: ResourceHealth };

/** An object of the kind with the given `status`; `undefined` leaves `status` out. */
function object(apiVersion: string, kind: string, status: unknown): KubeObject {
  const live: KubeObject = { apiVersion, kind, metadata: { name: 'obj', namespace: 'ns' } };
  return status === undefined ? live : { ...live, status };
}

const flink = (status: unknown) => object('flink.apache.org/v1beta1', 'FlinkDeployment', status);
const flinkState = (state: unknown, extra: Record<string, unknown> = {}) => flink({ jobStatus: { state }, ...extra });
const rayCluster = (status: unknown) => object('ray.io/v1', 'RayCluster', status);
const rayJob = (status: unknown) => object('ray.io/v1', 'RayJob', status);
const spark = (status: unknown) => object('sparkoperator.k8s.io/v1beta2', 'SparkApplication', status);
const sparkState = (state: unknown) => spark({ applicationState: { state } });
const volcano = (status: unknown) => object('batch.volcano.sh/v1alpha1', 'Job', status);
const volcanoPhase = (phase: unknown) => volcano({ state: { phase } });
const condition = (type: string, status: unknown, reason?: string) =>
  reason === undefined ? { type, status } : { type, status, reason };

const KUBEFLOW_KINDS = [
  { apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', emptyIsHealthy: true },
  { apiVersion: 'kubeflow.org/v1', kind: 'TFJob', emptyIsHealthy: true },
  { apiVersion: 'kubeflow.org/v2beta1', kind: 'MPIJob', emptyIsHealthy: false },
] as const;

const flinkRows: Row[] = [
  {
    name: 'simulator: STABLE, RUNNING job, READY job manager is healthy',
    live: flink({
      lifecycleState: 'STABLE',
      jobStatus: { state: 'RUNNING', jobId: 'x', jobID: 'x' },
      jobManagerDeploymentStatus: 'READY',
    }),
    want: 'Healthy',
  },
  {
    name: 'simulator: RECONCILING with a job manager ERROR and a non-allowlisted error is unhealthy',
    live: flink({
      lifecycleState: 'DEPLOYED',
      jobStatus: { state: 'RECONCILING', jobId: 'x', jobID: 'x' },
      jobManagerDeploymentStatus: 'ERROR',
      error: 'JobManager deployment failed: pods are not ready (simulated)',
    }),
    want: 'Unhealthy',
  },
  { name: 'RUNNING state is healthy', live: flinkState('RUNNING'), want: 'Healthy' },
  ...['FINISHED', 'FAILED', 'CANCELED', 'SUSPENDED'].map((state): Row => ({
    name: `terminal state ${state} is healthy`,
    live: flinkState(state),
    want: 'Healthy',
  })),
  ...['CANCELLING', 'FAILING', 'RESTARTING'].map((state): Row => ({
    name: `short-lived state ${state} is healthy`,
    live: flinkState(state),
    want: 'Healthy',
  })),
  ...['CREATED', 'INITIALIZING', 'RECONCILING'].flatMap((state): Row[] => [
    { name: `${state} without error is unhealthy`, live: flinkState(state), want: 'Unhealthy' },
    {
      name: `${state} with a non-allowlisted error is unhealthy`,
      live: flinkState(state, { error: 'Unknown' }),
      want: 'Unhealthy',
    },
  ]),
  {
    name: 'CREATED with allowlisted error ErrImagePull is healthy',
    live: flinkState('CREATED', { error: 'ErrImagePull' }),
    want: 'Healthy',
  },
  {
    name: 'INITIALIZING with allowlisted error ImagePullBackOff is healthy',
    live: flinkState('INITIALIZING', { error: 'ImagePullBackOff' }),
    want: 'Healthy',
  },
  {
    name: 'RECONCILING with CrashLoopBackOff inside a longer error (plain substring find) is healthy',
    live: flinkState('RECONCILING', { error: 'back-off 5m0s: CrashLoopBackOff in jobmanager' }),
    want: 'Healthy',
  },
  {
    name: 'CREATED with jobManagerDeploymentStatus ERROR but no allowlisted error is unhealthy',
    live: flinkState('CREATED', { jobManagerDeploymentStatus: 'ERROR' }),
    want: 'Unhealthy',
  },
  { name: 'a state outside the known lists is unhealthy', live: flinkState('DEPLOYING'), want: 'Unhealthy' },
  {
    name: 'an allowlisted error does not rescue a state outside the ephemeral ones',
    live: flinkState('DEPLOYING', { error: 'ErrImagePull' }),
    want: 'Unhealthy',
  },
  {
    name: 'no jobStatus but an error is unhealthy',
    live: flink({ error: 'Deployment failed' }),
    want: 'Unhealthy',
  },
  { name: 'no jobStatus and no error (status {}) is unhealthy', live: flink({}), want: 'Unhealthy' },
  { name: 'missing status is unhealthy', live: flink(undefined), want: 'Unhealthy' },
  {
    name: 'no jobStatus, READY job manager and STABLE lifecycle is healthy',
    live: flink({ jobManagerDeploymentStatus: 'READY', lifecycleState: 'STABLE' }),
    want: 'Healthy',
  },
  {
    name: 'no jobStatus, READY job manager but DEPLOYED lifecycle is unhealthy',
    live: flink({ jobManagerDeploymentStatus: 'READY', lifecycleState: 'DEPLOYED' }),
    want: 'Unhealthy',
  },
  {
    name: 'jobStatus.state null reads as nil: the READY/STABLE rule applies',
    live: flinkState(null, { jobManagerDeploymentStatus: 'READY', lifecycleState: 'STABLE' }),
    want: 'Healthy',
  },
  {
    name: 'wrong type: a numeric jobStatus (Lua would raise) counts as nil, READY/STABLE decides',
    live: flink({ jobStatus: 7, jobManagerDeploymentStatus: 'READY', lifecycleState: 'STABLE' }),
    want: 'Healthy',
  },
  {
    name: 'wrong type: a numeric state is in no list (Lua answers false)',
    live: flinkState(1, { jobManagerDeploymentStatus: 'READY', lifecycleState: 'STABLE' }),
    want: 'Unhealthy',
  },
  {
    name: 'wrong type: an object error (string.find would raise) counts as nil',
    live: flinkState('RECONCILING', { error: { reason: 'ErrImagePull' } }),
    want: 'Unhealthy',
  },
  { name: 'wrong type: a string status has no fields', live: flink('RUNNING'), want: 'Unhealthy' },
  { name: 'wrong type: a numeric status counts as nil', live: flink(3), want: 'Unhealthy' },
];

const kubeflowRows: Row[] = KUBEFLOW_KINDS.flatMap(({ apiVersion, kind, emptyIsHealthy }): Row[] => {
  const job = (status: unknown) => object(apiVersion, kind, status);
  const conditions = (...entries: unknown[]) => job({ conditions: entries });
  const empty: ResourceHealth = emptyIsHealthy ? 'Healthy' : 'Unhealthy';
  return [
    {
      name: `${kind} simulator: Running True is healthy`,
      live: conditions(condition('Running', 'True')),
      want: 'Healthy',
    },
    {
      name: `${kind} simulator: Failed True added is unhealthy`,
      live: conditions(condition('Running', 'True'), condition('Failed', 'True', 'JobFailed')),
      want: 'Unhealthy',
    },
    {
      name: `${kind} completed (Created True, Running False, Succeeded True) is healthy`,
      live: conditions(condition('Created', 'True'), condition('Running', 'False'), condition('Succeeded', 'True')),
      want: 'Healthy',
    },
    {
      name: `${kind} Failed condition with status False is healthy`,
      live: conditions(condition('Failed', 'False'), condition('Running', 'True')),
      want: 'Healthy',
    },
    { name: `${kind} missing status is unhealthy`, live: job(undefined), want: 'Unhealthy' },
    { name: `${kind} status without conditions is unhealthy`, live: job({ startTime: 'x' }), want: 'Unhealthy' },
    {
      name: `${kind} empty conditions list is ${empty} (${emptyIsHealthy ? 'loop skipped' : '#conditions == 0'})`,
      live: conditions(),
      want: empty,
    },
    {
      name: `${kind} conditions as a JSON object (Lua length 0) is ${empty}`,
      live: job({ conditions: { type: 'Failed', status: 'True' } }),
      want: empty,
    },
    {
      name: `${kind} null entries are dropped when decoded (length 0) and leave ${empty}`,
      live: conditions(null),
      want: empty,
    },
    {
      name: `${kind} wrong type: a numeric conditions (# would raise) counts as nil`,
      live: job({ conditions: 3 }),
      want: 'Unhealthy',
    },
    {
      name: `${kind} wrong type: a non-empty string conditions (would raise) counts as nil`,
      live: job({ conditions: 'Failed' }),
      want: 'Unhealthy',
    },
    {
      name: `${kind} wrong type: non-object entries are skipped`,
      live: conditions(5, 'Failed', [condition('Failed', 'True')], condition('Running', 'True')),
      want: 'Healthy',
    },
    {
      name: `${kind} a Failed condition with boolean status true is not "True"`,
      live: conditions(condition('Failed', true)),
      want: 'Healthy',
    },
  ];
});

const kubeflowQuirkRows: Row[] = [
  {
    name: 'PyTorchJob conditions "" has Lua length 0: the loop is skipped and the script answers healthy',
    live: object('kubeflow.org/v1', 'PyTorchJob', { conditions: '' }),
    want: 'Healthy',
  },
  {
    name: 'MPIJob conditions "" has Lua length 0: unhealthy',
    live: object('kubeflow.org/v2beta1', 'MPIJob', { conditions: '' }),
    want: 'Unhealthy',
  },
];

const headReady = (s: string) => condition('HeadPodReady', s);
const provisioned = (s: string) => condition('RayClusterProvisioned', s);
const replicaFailure = (s: string) => condition('RayClusterReplicaFailure', s);

const rayClusterRows: Row[] = [
  {
    name: 'simulator: state ready, HeadPodReady and RayClusterProvisioned True is healthy',
    live: rayCluster({ state: 'ready', conditions: [headReady('True'), provisioned('True')] }),
    want: 'Healthy',
  },
  {
    name: 'simulator: RayClusterReplicaFailure True and HeadPodReady False is unhealthy',
    live: rayCluster({
      state: 'ready',
      conditions: [headReady('False'), provisioned('True'), replicaFailure('True')],
    }),
    want: 'Unhealthy',
  },
  {
    name: 'head not ready (HeadPodReady False, not provisioned) is unhealthy',
    live: rayCluster({ state: 'failed', conditions: [headReady('False'), provisioned('False')] }),
    want: 'Unhealthy',
  },
  {
    name: 'not provisioned (RayClusterProvisioned False) is unhealthy',
    live: rayCluster({ state: 'provisioning', conditions: [headReady('True'), provisioned('False')] }),
    want: 'Unhealthy',
  },
  {
    name: 'replica failure True with head ready and provisioned is unhealthy',
    live: rayCluster({ conditions: [headReady('True'), provisioned('True'), replicaFailure('True')] }),
    want: 'Unhealthy',
  },
  {
    name: 'replica failure False does not count',
    live: rayCluster({ conditions: [headReady('True'), provisioned('True'), replicaFailure('False')] }),
    want: 'Healthy',
  },
  {
    name: 'healthy with additional conditions (RayClusterSuspended False, ...)',
    live: rayCluster({
      state: 'ready',
      conditions: [
        headReady('True'),
        provisioned('True'),
        condition('RayClusterSuspended', 'False'),
        condition('RayClusterSuspending', 'False'),
      ],
    }),
    want: 'Healthy',
  },
  { name: 'missing status is unhealthy', live: rayCluster(undefined), want: 'Unhealthy' },
  {
    name: 'no conditions is unhealthy even with state ready (state is not read)',
    live: rayCluster({ state: 'ready' }),
    want: 'Unhealthy',
  },
  {
    name: 'wrong type: conditions as a JSON object (ipairs finds nothing) is unhealthy',
    live: rayCluster({ conditions: { 0: headReady('True'), 1: provisioned('True') } }),
    want: 'Unhealthy',
  },
  {
    name: 'wrong type: a string conditions (ipairs would raise) counts as nil',
    live: rayCluster({ conditions: 'HeadPodReady' }),
    want: 'Unhealthy',
  },
  {
    name: 'wrong type: non-object entries are skipped',
    live: rayCluster({ conditions: [7, true, 'HeadPodReady', headReady('True'), provisioned('True')] }),
    want: 'Healthy',
  },
];

const rayJobRows: Row[] = [
  {
    name: 'simulator: jobStatus RUNNING, jobDeploymentStatus Running is healthy',
    live: rayJob({ jobStatus: 'RUNNING', jobDeploymentStatus: 'Running' }),
    want: 'Healthy',
  },
  {
    name: 'simulator: jobStatus FAILED, jobDeploymentStatus Failed is unhealthy',
    live: rayJob({ jobStatus: 'FAILED', jobDeploymentStatus: 'Failed' }),
    want: 'Unhealthy',
  },
  {
    name: 'completed successfully (Complete, SUCCEEDED) is healthy',
    live: rayJob({ jobStatus: 'SUCCEEDED', jobDeploymentStatus: 'Complete' }),
    want: 'Healthy',
  },
  {
    name: 'validation failed is unhealthy',
    live: rayJob({ jobDeploymentStatus: 'ValidationFailed', reason: 'InvalidJobSpec' }),
    want: 'Unhealthy',
  },
  {
    name: 'job failed (Complete, FAILED) is unhealthy',
    live: rayJob({ jobStatus: 'FAILED', jobDeploymentStatus: 'Complete' }),
    want: 'Unhealthy',
  },
  {
    name: 'job stopped (Suspended, STOPPED) is unhealthy',
    live: rayJob({ jobStatus: 'STOPPED', jobDeploymentStatus: 'Suspended' }),
    want: 'Unhealthy',
  },
  ...['Initializing', 'Waiting', 'Retrying'].map((deployment): Row => ({
    name: `transitional ${deployment} is unhealthy`,
    live: rayJob({ jobDeploymentStatus: deployment }),
    want: 'Unhealthy',
  })),
  {
    name: 'jobDeploymentStatus Running is healthy whatever jobStatus says',
    live: rayJob({ jobStatus: 'FAILED', jobDeploymentStatus: 'Running' }),
    want: 'Healthy',
  },
  { name: 'missing status is unhealthy', live: rayJob(undefined), want: 'Unhealthy' },
  { name: 'wrong type: a numeric status counts as nil', live: rayJob(1), want: 'Unhealthy' },
  {
    name: 'case matters: jobDeploymentStatus running is unhealthy',
    live: rayJob({ jobDeploymentStatus: 'running' }),
    want: 'Unhealthy',
  },
];

const sparkRows: Row[] = [
  { name: 'simulator: state RUNNING is healthy', live: sparkState('RUNNING'), want: 'Healthy' },
  { name: 'simulator: state FAILED is unhealthy', live: sparkState('FAILED'), want: 'Unhealthy' },
  { name: 'state COMPLETED is healthy', live: sparkState('COMPLETED'), want: 'Healthy' },
  {
    name: 'only FAILED is unhealthy: SUBMISSION_FAILED is healthy',
    live: sparkState('SUBMISSION_FAILED'),
    want: 'Healthy',
  },
  { name: 'missing status is unhealthy', live: spark(undefined), want: 'Unhealthy' },
  { name: 'state "" (a new application) is truthy in Lua: healthy', live: sparkState(''), want: 'Healthy' },
  {
    name: 'applicationState without state is unhealthy',
    live: spark({ applicationState: {} }),
    want: 'Unhealthy',
  },
  { name: 'state null reads as nil: unhealthy', live: sparkState(null), want: 'Unhealthy' },
  { name: 'wrong type: state false is falsy in Lua: unhealthy', live: sparkState(false), want: 'Unhealthy' },
  { name: 'wrong type: numeric state 0 is truthy in Lua: healthy', live: sparkState(0), want: 'Healthy' },
  {
    name: 'wrong type: a string applicationState has no state',
    live: spark({ applicationState: 'FAILED' }),
    want: 'Unhealthy',
  },
  {
    name: 'wrong type: a boolean applicationState (would raise) counts as nil',
    live: spark({ applicationState: true }),
    want: 'Unhealthy',
  },
];

const volcanoRows: Row[] = [
  { name: 'simulator: phase Running is healthy', live: volcanoPhase('Running'), want: 'Healthy' },
  { name: 'simulator: phase Failed is unhealthy', live: volcanoPhase('Failed'), want: 'Unhealthy' },
  ...['Completed', 'Pending', 'Aborting', 'Aborted', 'Restarting', 'Completing', 'Terminating', 'Terminated'].map(
    (phase): Row => ({ name: `phase ${phase} is healthy`, live: volcanoPhase(phase), want: 'Healthy' }),
  ),
  { name: 'state {} (no phase) is unhealthy', live: volcano({ state: {} }), want: 'Unhealthy' },
  { name: 'phase "" is unhealthy', live: volcanoPhase(''), want: 'Unhealthy' },
  { name: 'missing status is unhealthy', live: volcano(undefined), want: 'Unhealthy' },
  { name: 'status without state is unhealthy', live: volcano({}), want: 'Unhealthy' },
  { name: 'wrong type: a string state has no phase', live: volcano({ state: 'Running' }), want: 'Unhealthy' },
  { name: 'wrong type: a numeric state (would raise) counts as nil', live: volcano({ state: 2 }), want: 'Unhealthy' },
  { name: 'wrong type: a numeric phase is in no list', live: volcanoPhase(1), want: 'Unhealthy' },
];

describe('interpretHealth: third-party customizations', () => {
  const groups: [string, Row[]][] = [
    ['FlinkDeployment', flinkRows],
    ['Kubeflow jobs', [...kubeflowRows, ...kubeflowQuirkRows]],
    ['RayCluster', rayClusterRows],
    ['RayJob', rayJobRows],
    ['SparkApplication', sparkRows],
    ['Volcano Job', volcanoRows],
  ];
  for (const [group, rows] of groups) {
    describe(group, () => {
      for (const c of rows) {
        it(c.name, () => {
          assert.equal(interpretHealth(c.live), c.want);
        });
      }
    });
  }

  it('hooks match the exact apiVersion: kubeflow.org/v1 MPIJob has none (Healthy)', () => {
    const live = object('kubeflow.org/v1', 'MPIJob', { conditions: [condition('Failed', 'True')] });
    assert.equal(interpretHealth(live), 'Healthy');
  });
});

describe('third-party health hooks never throw', () => {
  const odd: unknown[] = [undefined, null, 0, 1, '', 'x', true, false, [], [null], [1, 'a'], {}, { a: 1 }];
  const kinds: [string, string][] = [
    ['flink.apache.org/v1beta1', 'FlinkDeployment'],
    ['kubeflow.org/v1', 'PyTorchJob'],
    ['kubeflow.org/v1', 'TFJob'],
    ['kubeflow.org/v2beta1', 'MPIJob'],
    ['ray.io/v1', 'RayCluster'],
    ['ray.io/v1', 'RayJob'],
    ['sparkoperator.k8s.io/v1beta2', 'SparkApplication'],
    ['batch.volcano.sh/v1alpha1', 'Job'],
  ];
  // Every field a script reads, at every depth, set to every odd value (a Lua script would raise on some).
  const shapes = (v: unknown): unknown[] => [
    v,
    { conditions: v },
    { conditions: [v] },
    { conditions: [{ type: v, status: v }] },
    { jobStatus: v, error: v, jobManagerDeploymentStatus: v, lifecycleState: v },
    { jobStatus: { state: v }, error: v },
    { jobStatus: { state: 'CREATED' }, error: v },
    { jobDeploymentStatus: v, jobStatus: v },
    { applicationState: v },
    { applicationState: { state: v } },
    { state: v },
    { state: { phase: v } },
  ];
  for (const [apiVersion, kind] of kinds) {
    it(`${apiVersion} ${kind}`, () => {
      for (const status of odd.flatMap(shapes)) {
        const health = interpretHealth(object(apiVersion, kind, status));
        assert.ok(health === 'Healthy' || health === 'Unhealthy', JSON.stringify(status));
      }
    });
  }
});

describe('hasHealthHook: third-party customizations', () => {
  const rows: { apiVersion: string; kind: string; want: boolean }[] = [
    { apiVersion: 'flink.apache.org/v1beta1', kind: 'FlinkDeployment', want: true },
    { apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', want: true },
    { apiVersion: 'kubeflow.org/v1', kind: 'TFJob', want: true },
    { apiVersion: 'kubeflow.org/v2beta1', kind: 'MPIJob', want: true },
    { apiVersion: 'ray.io/v1', kind: 'RayCluster', want: true },
    { apiVersion: 'ray.io/v1', kind: 'RayJob', want: true },
    { apiVersion: 'sparkoperator.k8s.io/v1beta2', kind: 'SparkApplication', want: true },
    { apiVersion: 'batch.volcano.sh/v1alpha1', kind: 'Job', want: true },
    { apiVersion: 'batch/v1', kind: 'Job', want: false },
    { apiVersion: 'kubeflow.org/v1', kind: 'MPIJob', want: false },
    { apiVersion: 'ray.io/v1alpha1', kind: 'RayCluster', want: false },
  ];
  for (const { apiVersion, kind, want } of rows) {
    it(`${apiVersion} ${kind}: ${want}`, () => {
      assert.equal(hasHealthHook({ apiVersion, kind }), want);
    });
  }
});
