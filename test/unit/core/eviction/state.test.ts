/**
 * State preservation: client-go JSONPath as Karmada evaluates rules (`helper/failover.go`), the
 * state an eviction carries (`extractStateForEviction`), and injection (`injectReservedLabelState`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executeJsonPath, JsonPathError } from '../../../../lib/core/eviction/jsonpath.ts';
import {
  buildPreservedLabelState,
  type CarriedLabelState,
  carriedLabelState,
  carriedLabelStateOf,
  labelsToInject,
  preservedLabelsFor,
  stateForEviction,
  statePreservationRules,
  withCarriedLabelState,
} from '../../../../lib/core/eviction/state.ts';
import type { GracefulEvictionTask } from '../../../../lib/core/model/types.ts';

/** The seed's FlinkDeployment status, as the simulator reports it. */
const flinkStatus = {
  jobStatus: { jobID: '7d1a9b0c2e3f4a5b6c7d8e9f0a1b2c3d', state: 'RUNNING', checkpointInfo: { lastCheckpoint: 12 } },
  lifecycleState: 'STABLE',
  clusterInfo: { 'flink-version': '1.17' },
  replicas: 2,
  conditions: [
    { type: 'Ready', status: 'True' },
    { type: 'Stable', status: 'False' },
  ],
};

describe('executeJsonPath (client-go util/jsonpath, AllowMissingKeys(false))', () => {
  const rows: { name: string; template: string; want: string }[] = [
    {
      name: "the seed's rule { .jobStatus.jobID }",
      template: '{ .jobStatus.jobID }',
      want: '7d1a9b0c2e3f4a5b6c7d8e9f0a1b2c3d',
    },
    { name: 'a number prints as Go’s fmt (2)', template: '{.replicas}', want: '2' },
    {
      name: 'a map prints as compact JSON with sorted keys',
      template: '{.jobStatus.checkpointInfo}',
      want: '{"lastCheckpoint":12}',
    },
    { name: 'a bracketed key with a dash', template: "{.clusterInfo['flink-version']}", want: '1.17' },
    { name: 'several results are space-joined', template: '{.conditions[*].type}', want: 'Ready Stable' },
    { name: 'a filter', template: '{.conditions[?(@.type=="Ready")].status}', want: 'True' },
    { name: 'text around actions is kept', template: 'job-{.jobStatus.state}', want: 'job-RUNNING' },
    { name: 'range/end', template: '{range .conditions[*]}{.type}={.status},{end}', want: 'Ready=True,Stable=False,' },
    { name: 'a negative index', template: '{.conditions[-1].type}', want: 'Stable' },
  ];
  for (const row of rows) it(row.name, () => assert.equal(executeJsonPath(row.template, flinkStatus), row.want));

  it('Go prints large and tiny floats in e-notation (1e+06, 1e-05) and HTML characters escaped in JSON', () => {
    assert.equal(executeJsonPath('{.n}', { n: 1000000 }), '1e+06');
    assert.equal(executeJsonPath('{.n}', { n: 123456 }), '123456');
    assert.equal(executeJsonPath('{.n}', { n: 0.00001 }), '1e-05');
    assert.equal(executeJsonPath('{.m}', { m: { a: '<b>&' } }), '{"a":"\\u003cb\\u003e\\u0026"}');
  });
  it('a missing key is an error naming it', () => {
    assert.throws(() => executeJsonPath('{.jobStatus.savepoint}', flinkStatus), /savepoint is not found/);
  });
  it('an index out of range is an error', () => {
    assert.throws(
      () => executeJsonPath('{.conditions[5]}', flinkStatus),
      /array index out of bounds: index 5, length 2/,
    );
  });
  it('a malformed template is an error', () => {
    assert.throws(() => executeJsonPath('{.a', {}), JsonPathError);
  });
});

describe('buildPreservedLabelState and stateForEviction', () => {
  const rules = [{ aliasLabelName: 'application.karmada.io/cluster-failover-jobid', jsonPath: '{ .jobStatus.jobID }' }];
  it("the seed's rule gives the job id under the alias label", () => {
    assert.deepEqual(buildPreservedLabelState(rules, flinkStatus), {
      'application.karmada.io/cluster-failover-jobid': '7d1a9b0c2e3f4a5b6c7d8e9f0a1b2c3d',
    });
  });
  it('any rule failing fails the whole extraction', () => {
    assert.throws(
      () => buildPreservedLabelState([...rules, { aliasLabelName: 'x', jsonPath: '{.nope}' }], flinkStatus),
      /failed to execute jsonpath "\{\.nope\}": nope is not found/,
    );
  });
  it('statePreservationRules reads failover.cluster.statePreservation.rules, ignoring junk', () => {
    assert.deepEqual(
      statePreservationRules({ statePreservation: { rules: [...rules, { aliasLabelName: 1 }] } }),
      rules,
    );
    assert.deepEqual(statePreservationRules(undefined), []);
  });
  it('no rules: no state', () => {
    assert.deepEqual(stateForEviction({ rules: [], spec: {}, aggregatedStatus: [], cluster: 'a' }), { ok: true });
  });
  it('status never collected from the failing cluster: an error, retried (Karmada’s message)', () => {
    assert.deepEqual(
      stateForEviction({ rules, spec: {}, aggregatedStatus: [{ clusterName: 'b', status: {} }], cluster: 'a' }),
      {
        ok: false,
        message: 'the application status has not yet been collected from Cluster(a)',
      },
    );
  });
  it('reads the status last collected from the failing cluster', () => {
    assert.deepEqual(
      stateForEviction({
        rules,
        spec: {},
        aggregatedStatus: [{ clusterName: 'a', status: flinkStatus }],
        cluster: 'a',
      }),
      {
        ok: true,
        state: { 'application.karmada.io/cluster-failover-jobid': '7d1a9b0c2e3f4a5b6c7d8e9f0a1b2c3d' },
      },
    );
  });
  it('consecutive failovers carry the first state forward while the workload never became healthy again (#6232)', () => {
    const earlier: GracefulEvictionTask = {
      fromCluster: 'a',
      reason: 'TaintUntolerated',
      producer: 'TaintManager',
      purgeMode: 'Directly',
      preservedLabelState: { 'application.karmada.io/cluster-failover-jobid': 'job-from-a' },
    };
    const got = stateForEviction({
      rules,
      spec: { gracefulEvictionTasks: [earlier] },
      aggregatedStatus: [{ clusterName: 'b', status: { jobStatus: { jobID: 'never-ran-on-b' } } }],
      cluster: 'b',
    });
    assert.deepEqual(got, {
      ok: true,
      state: { 'application.karmada.io/cluster-failover-jobid': 'job-from-a' },
      carriedFrom: 'a',
    });
  });
});

describe('labelsToInject (injectReservedLabelState)', () => {
  const directly = (extra: Partial<GracefulEvictionTask> = {}): GracefulEvictionTask => ({
    fromCluster: 'a',
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    purgeMode: 'Directly',
    preservedLabelState: { k: 'v' },
    ...extra,
  });
  it('one target, last task Directly, target not before the failover: the labels', () => {
    assert.deepEqual(labelsToInject({ gracefulEvictionTasks: [directly()] }, 'b', 1), { k: 'v' });
  });
  it('more than one target: nothing', () => {
    assert.deepEqual(labelsToInject({ gracefulEvictionTasks: [directly()] }, 'b', 2), {});
  });
  it('the last task purged Gracefully: nothing (state needs the old copy gone first)', () => {
    assert.deepEqual(labelsToInject({ gracefulEvictionTasks: [directly({ purgeMode: 'Gracefully' })] }, 'b', 1), {});
  });
  it('v1.12 Immediately counts as Directly', () => {
    assert.deepEqual(labelsToInject({ gracefulEvictionTasks: [directly({ purgeMode: 'Immediately' })] }, 'b', 1), {
      k: 'v',
    });
  });
  it('the target was among the clusters before the failover: nothing', () => {
    assert.deepEqual(
      labelsToInject({ gracefulEvictionTasks: [directly({ clustersBeforeFailover: ['a', 'b'] })] }, 'b', 1),
      {},
    );
  });
  it('the last task counts, not an earlier one', () => {
    assert.deepEqual(
      labelsToInject(
        { gracefulEvictionTasks: [directly(), directly({ fromCluster: 'c', preservedLabelState: { k: 'w' } })] },
        'b',
        1,
      ),
      { k: 'w' },
    );
  });
  it('no task: nothing', () => assert.deepEqual(labelsToInject({}, 'b', 1), {}));
});

describe('preservedLabelsFor (the preserved state stays with the copy it was injected into)', () => {
  const rules = { cluster: { statePreservation: { rules: [{ aliasLabelName: 'jobid', jsonPath: '{.x}' }] } } };
  const task: GracefulEvictionTask = {
    fromCluster: 'a',
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    purgeMode: 'Directly',
    preservedLabelState: { jobid: 'j-1' },
  };
  it('while the failover is under way: the task’s state (injectReservedLabelState)', () => {
    assert.deepEqual(preservedLabelsFor({ failover: rules, gracefulEvictionTasks: [task] }, 'b', 1, undefined), {
      jobid: 'j-1',
    });
  });
  it('after the task ended: the labels the copy carries stay (Karmada would strip them and rewrite the workload)', () => {
    assert.deepEqual(preservedLabelsFor({ failover: rules }, 'b', 1, { jobid: 'j-1', app: 'x' }), { jobid: 'j-1' });
  });
  it('labels a rule does not name are not the preserved state', () => {
    assert.deepEqual(preservedLabelsFor({}, 'b', 1, { jobid: 'j-1' }), {});
  });
});

describe('carriedLabelState (the state a failover gave a copy outlives its task until that copy is healthy, #6232)', () => {
  const JOB = 'application.karmada.io/cluster-failover-jobid';
  const fromA = (extra: Partial<GracefulEvictionTask> = {}): GracefulEvictionTask => ({
    fromCluster: 'a',
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    purgeMode: 'Directly',
    preservedLabelState: { [JOB]: 'job-from-a' },
    ...extra,
  });
  const onB: CarriedLabelState = { from: 'a', cluster: 'b', state: { [JOB]: 'job-from-a' } };
  const rows: {
    name: string;
    before: { clusters: string[]; tasks?: GracefulEvictionTask[] };
    after: { clusters: string[]; tasks?: GracefulEvictionTask[] };
    carried?: CarriedLabelState;
    b?: string;
    want: CarriedLabelState | undefined;
  }[] = [
    {
      name: 'the first task ends at its grace period with b never Healthy: the state injected into b is kept',
      before: { clusters: ['b'], tasks: [fromA()] },
      after: { clusters: ['b'] },
      b: 'Unhealthy',
      want: onB,
    },
    {
      name: 'the first task ends because b is Healthy: nothing kept (b’s own status is the state from now on)',
      before: { clusters: ['b'], tasks: [fromA()] },
      after: { clusters: ['b'] },
      b: 'Healthy',
      want: undefined,
    },
    {
      name: 'the task still runs: nothing to keep yet (the task holds the state)',
      before: { clusters: ['b'], tasks: [fromA()] },
      after: { clusters: ['b'], tasks: [fromA()] },
      want: undefined,
    },
    {
      name: 'purged Gracefully: nothing was injected (Karmada’s rule), nothing kept',
      before: { clusters: ['b'], tasks: [fromA({ purgeMode: 'Gracefully' })] },
      after: { clusters: ['b'] },
      want: undefined,
    },
    {
      name: 'two targets: nothing was injected, nothing kept',
      before: { clusters: ['b', 'c'], tasks: [fromA()] },
      after: { clusters: ['b', 'c'] },
      want: undefined,
    },
    {
      name: 'kept while b has not reported Healthy',
      before: { clusters: ['b'] },
      after: { clusters: ['b'] },
      carried: onB,
      b: 'Unknown',
      want: onB,
    },
    {
      name: 'dropped once b reports Healthy',
      before: { clusters: ['b'] },
      after: { clusters: ['b'] },
      carried: onB,
      b: 'Healthy',
      want: undefined,
    },
    {
      name: 'dropped once b leaves the placement (evicted: its new task holds the state now)',
      before: { clusters: ['b'] },
      after: { clusters: [], tasks: [fromA({ fromCluster: 'b' })] },
      carried: onB,
      want: undefined,
    },
  ];
  const specOf = (x: { clusters: string[]; tasks?: GracefulEvictionTask[] }) => ({
    clusters: x.clusters.map((name) => ({ name })),
    ...(x.tasks ? { gracefulEvictionTasks: x.tasks } : {}),
  });
  for (const row of rows) {
    it(row.name, () =>
      assert.deepEqual(
        carriedLabelState({
          before: specOf(row.before),
          after: specOf(row.after),
          carried: row.carried,
          observed: row.b ? [{ clusterName: 'b', health: row.b }] : [],
        }),
        row.want,
      ),
    );
  }

  it('stateForEviction takes it for the copy it was given to, and only for that one', () => {
    const rules = [{ aliasLabelName: JOB, jsonPath: '{ .jobStatus.jobID }' }];
    const neverRan = [{ clusterName: 'b', status: { jobStatus: { state: 'RECONCILING' } } }];
    assert.deepEqual(stateForEviction({ rules, spec: {}, aggregatedStatus: neverRan, cluster: 'b', carried: onB }), {
      ok: true,
      state: { [JOB]: 'job-from-a' },
      carriedFrom: 'a',
    });
    assert.equal(
      stateForEviction({ rules, spec: {}, aggregatedStatus: neverRan, cluster: 'b', carried: { ...onB, cluster: 'c' } })
        .ok,
      false,
      'another copy’s state is not this one’s',
    );
  });

  it('is stored in one annotation and read back; junk reads as none; unchanged is the same object', () => {
    const annotations = withCarriedLabelState({ other: 'x' }, onB);
    assert.deepEqual(carriedLabelStateOf(annotations), onB);
    assert.equal(withCarriedLabelState(annotations, onB), annotations);
    assert.deepEqual(withCarriedLabelState(annotations, undefined), { other: 'x' });
    assert.equal(
      carriedLabelStateOf({ 'resourcebinding.serverless-karmada.io/carried-label-state': '{"from":1}' }),
      undefined,
    );
    assert.equal(carriedLabelStateOf({ 'resourcebinding.serverless-karmada.io/carried-label-state': '{' }), undefined);
  });
});
