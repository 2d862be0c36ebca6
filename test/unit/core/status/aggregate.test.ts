/**
 * `AggregateStatus` of Karmada's default interpreter (v1.15.9
 * `pkg/resourceinterpreter/default/native/aggregatestatus.go`, `aggregatestatus_test.go`,
 * `pkg/util/helper/job.go` `ParsingJobStatus`, `service.go`/`ingress.go` dedupe-and-sort).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  type AggregatedStatusItem,
  aggregateStatus,
  hasAggregateStatusHook,
} from '../../../../lib/core/status/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';

const NOW = '2025-03-01T12:00:00Z';

function template(
  apiVersion: string,
  kind: string,
  status?: Record<string, unknown>,
  generation?: number,
  spec?: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: { name: 'obj', namespace: 'ns', ...(generation === undefined ? {} : { generation }) },
    ...(spec ? { spec } : {}),
    ...(status ? { status } : {}),
  };
}

/** Items for member1, member2, … with the given statuses (`undefined` = status not collected yet). */
function items(...statuses: (Record<string, unknown> | undefined)[]): AggregatedStatusItem[] {
  return statuses.map((status, i) => ({
    clusterName: `member${i + 1}`,
    applied: true,
    health: 'Healthy',
    ...(status ? { status } : {}),
  }));
}

interface Row {
  name: string;
  template: KubeObject;
  items: AggregatedStatusItem[];
  want: Record<string, unknown> | undefined;
}

function run(rows: Row[]): void {
  for (const row of rows) {
    it(row.name, () => {
      assert.deepEqual(aggregateStatus(row.template, row.items, { now: NOW }), row.want);
    });
  }
}

describe('aggregateStatus: Deployment (aggregateDeploymentStatus)', () => {
  const member = { replicas: 1, readyReplicas: 1, updatedReplicas: 1, availableReplicas: 1, unavailableReplicas: 0 };
  const summed = { replicas: 2, readyReplicas: 2, updatedReplicas: 2, availableReplicas: 2 };
  /** A member that reflected template generation `tg`, its own generation 5 observed or not. */
  const reflected = (tg: number, observed: boolean, counters: Record<string, number>) => ({
    generation: 5,
    resourceTemplateGeneration: tg,
    observedGeneration: observed ? 5 : 4,
    ...counters,
  });
  run([
    {
      name: 'update deployment status (sums; zero unavailableReplicas omitted)',
      template: template('apps/v1', 'Deployment'),
      items: items(member, member),
      want: summed,
    },
    {
      name: 'ignore update deployment status as up to date (old status kept as is)',
      template: template('apps/v1', 'Deployment', { ...summed, unavailableReplicas: 0 }),
      items: items(member, member),
      want: { ...summed, unavailableReplicas: 0 },
    },
    {
      name: 'rollout in progress: one member still carries template generation 2 ⇒ observedGeneration stays 2',
      template: template(
        'apps/v1',
        'Deployment',
        { observedGeneration: 2, replicas: 4, conditions: [{ type: 'Available' }] },
        3,
      ),
      items: items(
        reflected(3, true, {
          replicas: 2,
          updatedReplicas: 2,
          readyReplicas: 1,
          availableReplicas: 1,
          unavailableReplicas: 1,
        }),
        reflected(2, true, { replicas: 2, updatedReplicas: 0, readyReplicas: 2, availableReplicas: 2 }),
      ),
      want: {
        observedGeneration: 2,
        replicas: 4,
        updatedReplicas: 2,
        readyReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 1,
        conditions: [{ type: 'Available' }],
      },
    },
    {
      name: 'rollout in progress: a member has not observed its own generation ⇒ observedGeneration stays',
      template: template('apps/v1', 'Deployment', { observedGeneration: 2 }, 3),
      items: items(
        reflected(3, true, { replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 }),
        reflected(3, false, { replicas: 2, readyReplicas: 2, availableReplicas: 2 }),
      ),
      want: { observedGeneration: 2, replicas: 4, updatedReplicas: 2, readyReplicas: 4, availableReplicas: 4 },
    },
    {
      name: 'rollout done on every member ⇒ observedGeneration = template generation',
      template: template('apps/v1', 'Deployment', { observedGeneration: 2 }, 3),
      items: items(
        reflected(3, true, { replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 }),
        reflected(4, true, { replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 }),
      ),
      want: { observedGeneration: 3, replicas: 4, updatedReplicas: 4, readyReplicas: 4, availableReplicas: 4 },
    },
    {
      name: 'an item without status is skipped but still counted: observedGeneration stays',
      template: template('apps/v1', 'Deployment', { observedGeneration: 2 }, 3),
      items: items(reflected(3, true, { replicas: 2, readyReplicas: 2 }), undefined),
      want: { observedGeneration: 2, replicas: 2, readyReplicas: 2 },
    },
    {
      name: 'no items: observedGeneration = generation, counters zero (omitted), other fields kept',
      template: template('apps/v1', 'Deployment', { replicas: 3, collisionCount: 1 }, 7),
      items: [],
      want: { observedGeneration: 7, collisionCount: 1 },
    },
  ]);
});

describe('aggregateStatus: StatefulSet (aggregateStatefulSetStatus)', () => {
  const member = { replicas: 1, readyReplicas: 1, currentReplicas: 1, updatedReplicas: 1, availableReplicas: 1 };
  const summed = { replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 2 };
  run([
    {
      name: 'update statefulSet status',
      template: template('apps/v1', 'StatefulSet'),
      items: items(member, member),
      want: summed,
    },
    {
      name: 'ignore update statefulSet status as up to date',
      template: template('apps/v1', 'StatefulSet', summed),
      items: items(member, member),
      want: summed,
    },
    {
      name: 'reflected statuses carry no observedGeneration ⇒ template observedGeneration never moves (v1.15.9 quirk)',
      template: template('apps/v1', 'StatefulSet', { observedGeneration: 1 }, 2),
      items: items(
        { generation: 2, resourceTemplateGeneration: 2, replicas: 1, availableReplicas: 1 },
        { generation: 2, resourceTemplateGeneration: 2, replicas: 1, availableReplicas: 0 },
      ),
      want: { observedGeneration: 1, replicas: 2, availableReplicas: 1 },
    },
    {
      name: 'required replicas/availableReplicas written as 0',
      template: template('apps/v1', 'StatefulSet', { replicas: 3 }, 2),
      items: items({ generation: 2, resourceTemplateGeneration: 2, replicas: 0, availableReplicas: 0 }),
      want: { replicas: 0, availableReplicas: 0 },
    },
  ]);
});

describe('aggregateStatus: DaemonSet (aggregateDaemonSetStatus)', () => {
  const member = {
    currentNumberScheduled: 1,
    numberMisscheduled: 0,
    desiredNumberScheduled: 1,
    numberReady: 1,
    updatedNumberScheduled: 1,
    numberAvailable: 1,
    numberUnavailable: 0,
  };
  const summed = {
    currentNumberScheduled: 2,
    numberMisscheduled: 0,
    desiredNumberScheduled: 2,
    numberReady: 2,
    updatedNumberScheduled: 2,
    numberAvailable: 2,
  };
  run([
    {
      name: 'update daemonSet status',
      template: template('apps/v1', 'DaemonSet'),
      items: items(member, member),
      want: summed,
    },
    {
      name: 'ignore update daemonSet status as up to date',
      template: template('apps/v1', 'DaemonSet', summed),
      items: items(member, member),
      want: summed,
    },
    {
      name: 'every member observed and carries the template generation ⇒ observedGeneration = generation',
      template: template('apps/v1', 'DaemonSet', { observedGeneration: 1 }, 2),
      items: items(
        { ...member, generation: 4, observedGeneration: 4, resourceTemplateGeneration: 2 },
        { ...member, generation: 3, observedGeneration: 3, resourceTemplateGeneration: 2, numberUnavailable: 1 },
      ),
      want: { ...summed, observedGeneration: 2, numberUnavailable: 1 },
    },
  ]);
});

describe('aggregateStatus: Service (aggregateServiceStatus)', () => {
  const lb = (ingress: Record<string, unknown>[]) => ({ loadBalancer: { ingress } });
  run([
    {
      name: 'ignore update service status when type is ClusterIP',
      template: template('v1', 'Service', { loadBalancer: {} }, 1, { type: 'ClusterIP' }),
      items: items({}),
      want: { loadBalancer: {} },
    },
    {
      name: 'ignore update service status when type is NodePort (no status stays {})',
      template: template('v1', 'Service', undefined, 1, { type: 'NodePort' }),
      items: items({}),
      want: {},
    },
    {
      name: 'update service status when type is LoadBalancer',
      template: template('v1', 'Service', undefined, 1, { type: 'LoadBalancer' }),
      items: items(lb([{ ip: '8.8.8.8' }])),
      want: lb([{ ip: '8.8.8.8' }]),
    },
    {
      name: 'LoadBalancer ingress over 3 clusters: deduped (ports merged), hostnames first, then by IP; conditions dropped',
      template: template('v1', 'Service', { conditions: [{ type: 'x' }] }, 1, { type: 'LoadBalancer' }),
      items: items(
        lb([{ ip: '10.0.0.2', ports: [{ port: 443, protocol: 'TCP' }] }, { hostname: 'b.example.com' }]),
        lb([
          {
            ip: '10.0.0.2',
            ports: [
              { port: 80, protocol: 'TCP' },
              { port: 443, protocol: 'TCP' },
            ],
          },
        ]),
        lb([{ ip: '10.0.0.1' }, { hostname: 'a.example.com' }]),
      ),
      want: lb([
        { hostname: 'a.example.com' },
        { hostname: 'b.example.com' },
        { ip: '10.0.0.1' },
        {
          ip: '10.0.0.2',
          ports: [
            { port: 80, protocol: 'TCP' },
            { port: 443, protocol: 'TCP' },
          ],
        },
      ]),
    },
    {
      name: 'same IP with different ipMode stays two entries (set ipMode first)',
      template: template('v1', 'Service', undefined, 1, { type: 'LoadBalancer' }),
      items: items(lb([{ ip: '1.1.1.1' }]), lb([{ ip: '1.1.1.1', ipMode: 'Proxy' }])),
      want: lb([{ ip: '1.1.1.1', ipMode: 'Proxy' }, { ip: '1.1.1.1' }]),
    },
    {
      name: 'LoadBalancer not provisioned anywhere: empty loadBalancer',
      template: template('v1', 'Service', undefined, 1, { type: 'LoadBalancer' }),
      items: items({ loadBalancer: {} }, undefined),
      want: { loadBalancer: {} },
    },
  ]);
});

describe('aggregateStatus: Ingress (aggregateIngressStatus)', () => {
  run([
    {
      name: 'update ingress status',
      template: template('networking.k8s.io/v1', 'Ingress'),
      items: items({ loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } }),
      want: { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } },
    },
    {
      name: 'duplicates across clusters collapse',
      template: template('networking.k8s.io/v1', 'Ingress'),
      items: items(
        { loadBalancer: { ingress: [{ hostname: 'x.io' }] } },
        { loadBalancer: { ingress: [{ hostname: 'x.io' }, { ip: '2.2.2.2' }] } },
      ),
      want: { loadBalancer: { ingress: [{ hostname: 'x.io' }, { ip: '2.2.2.2' }] } },
    },
  ]);
});

describe('aggregateStatus: Job (aggregateJobStatus / ParsingJobStatus)', () => {
  const T0 = '2025-03-01T10:00:00Z';
  const T1 = '2025-03-01T10:00:30Z';
  const T2 = '2025-03-01T10:01:00Z';
  const T3 = '2025-03-01T10:05:00Z';
  const T4 = '2025-03-01T10:07:00Z';
  const cond = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    lastProbeTime: NOW,
    lastTransitionTime: NOW,
    reason,
    message,
  });
  const complete = cond('Complete', 'Completed', 'Job completed');
  const criteria = cond('SuccessCriteriaMet', 'CompletionsReached', 'All member clusters have met success criteria');
  const running = (startTime: string | undefined, active: number, succeeded = 0) => ({
    active,
    ...(succeeded ? { succeeded } : {}),
    ...(startTime ? { startTime } : {}),
  });
  const done = (startTime: string, completionTime: string, succeeded: number, withCriteria = true) => ({
    succeeded,
    startTime,
    completionTime,
    conditions: [
      ...(withCriteria ? [{ type: 'SuccessCriteriaMet', status: 'True' }] : []),
      { type: 'Complete', status: 'True' },
    ],
  });
  const failed = (startTime: string, completionTime: string) => ({
    failed: 1,
    startTime,
    completionTime,
    conditions: [{ type: 'Failed', status: 'True' }],
  });
  const job = (status?: Record<string, unknown>) => template('batch/v1', 'Job', status);
  run([
    {
      name: 'running on 3 clusters: active/succeeded summed, earliest startTime once all started, no conditions',
      template: job(),
      items: items(running(T1, 2), running(T0, 1, 1), running(T2, 3)),
      want: { startTime: T0, active: 6, succeeded: 1 },
    },
    {
      name: 'one member not started yet ⇒ no startTime',
      template: job(),
      items: items(running(T1, 2), running(undefined, 0)),
      want: { active: 2 },
    },
    {
      name: 'the template keeps its own startTime once set',
      template: job({ startTime: T2, active: 1 }),
      items: items(running(T0, 1), running(T1, 1)),
      want: { startTime: T2, active: 2 },
    },
    {
      name: 'complete on every cluster: Complete + SuccessCriteriaMet, latest completionTime',
      template: job({ startTime: T0, active: 2 }),
      items: items(done(T0, T3, 2), done(T1, T4, 1), done(T0, T3, 1)),
      want: { conditions: [complete, criteria], startTime: T0, completionTime: T4, succeeded: 4 },
    },
    {
      name: 'update job status without job failed (TestAggregateJobStatus, 2 clusters)',
      template: job(),
      items: items(done(T0, T3, 1), done(T0, T3, 1)),
      want: { conditions: [complete, criteria], startTime: T0, completionTime: T3, succeeded: 2 },
    },
    {
      name: 'complete everywhere but one member lacks SuccessCriteriaMet ⇒ Complete only',
      template: job(),
      items: items(done(T0, T3, 1), done(T0, T3, 1, false)),
      want: { conditions: [complete], startTime: T0, completionTime: T3, succeeded: 2 },
    },
    {
      name: 'complete on 2 of 3 clusters ⇒ no Complete and no completionTime',
      template: job(),
      items: items(done(T0, T3, 1), running(T1, 1), done(T0, T4, 1)),
      want: { startTime: T0, active: 1, succeeded: 2 },
    },
    {
      name: 'update job status with job failed (TestAggregateJobStatus): Failed names the clusters',
      template: job(),
      items: items(done(T0, T3, 1), failed(T0, T3)),
      want: {
        conditions: [cond('Failed', 'JobFailed', 'Job executed failed in member clusters member2')],
        startTime: T0,
        completionTime: T3,
        succeeded: 1,
        failed: 1,
      },
    },
    {
      name: 'failed on two of three clusters (one still running): Failed lists both, comma-separated',
      template: job(),
      items: items(failed(T0, T3), running(T1, 1), failed(T1, T4)),
      want: {
        conditions: [cond('Failed', 'JobFailed', 'Job executed failed in member clusters member1,member3')],
        startTime: T0,
        active: 1,
        failed: 2,
      },
    },
    {
      name: 'an item without status blocks Complete (still counted in len)',
      template: job(),
      items: items(done(T0, T3, 1), undefined),
      want: { succeeded: 1 },
    },
    {
      name: 'a finished template Job is never updated again',
      template: job({ succeeded: 1, conditions: [{ type: 'Failed', status: 'True' }] }),
      items: items(done(T0, T3, 5)),
      want: { succeeded: 1, conditions: [{ type: 'Failed', status: 'True' }] },
    },
    {
      name: 'no items: empty status',
      template: job(),
      items: [],
      want: {},
    },
  ]);

  it('without options.now the condition times are null (an unset metav1.Time)', () => {
    const got = aggregateStatus(job(), items(done(T0, T3, 1)));
    assert.deepEqual((got?.['conditions'] as Record<string, unknown>[])[0], {
      ...complete,
      lastProbeTime: null,
      lastTransitionTime: null,
    });
  });

  it('now and member times are rendered as metav1.Time marshals them (UTC, whole seconds)', () => {
    const got = aggregateStatus(job(), items(done('2025-03-01T12:00:00.900+02:00', '2025-03-01T10:05:00.5Z', 1)), {
      now: '2025-03-01T14:00:00.250+02:00',
    });
    assert.deepEqual(got, {
      conditions: [complete, criteria],
      startTime: '2025-03-01T10:00:00Z',
      completionTime: '2025-03-01T10:05:00Z',
      succeeded: 1,
    });
  });
});

describe('aggregateStatus: CronJob (aggregateCronJobStatus)', () => {
  const ref = (name: string) => ({ apiVersion: 'batch/v1', kind: 'Job', name, namespace: 'ns' });
  run([
    {
      name: 'active references concatenated, latest schedule/successful times',
      template: template('batch/v1', 'CronJob', { active: [] }),
      items: items(
        { active: [ref('a-1')], lastScheduleTime: '2025-01-01T00:00:00Z', lastSuccessfulTime: '2025-01-01T00:05:00Z' },
        { active: [ref('b-1')], lastScheduleTime: '2025-01-01T01:00:00Z' },
      ),
      want: {
        active: [ref('a-1'), ref('b-1')],
        lastScheduleTime: '2025-01-01T01:00:00Z',
        lastSuccessfulTime: '2025-01-01T00:05:00Z',
      },
    },
    {
      name: 'up to date: old status kept as is',
      template: template('batch/v1', 'CronJob', { lastScheduleTime: '2025-01-01T01:00:00Z' }),
      items: items({ lastScheduleTime: '2025-01-01T00:00:00Z' }, { lastScheduleTime: '2025-01-01T01:00:00Z' }),
      want: { lastScheduleTime: '2025-01-01T01:00:00Z' },
    },
  ]);
});

describe('aggregateStatus: Pod (aggregatePodStatus)', () => {
  const container = (ready: boolean, state: Record<string, unknown>) => ({
    name: 'c',
    image: 'nginx',
    imageID: 'sha',
    restartCount: 2,
    ready,
    state,
  });
  const aggregated = (ready: boolean, state: Record<string, unknown>) => ({
    name: '',
    state,
    lastState: {},
    ready,
    restartCount: 0,
    image: '',
    imageID: '',
  });
  const phase = (p: string) => ({ phase: p });
  const pod = () => template('v1', 'Pod', { phase: 'Pending', podIP: '1.1.1.1' });
  run([
    {
      name: 'Running everywhere ⇒ Running',
      template: pod(),
      items: items(phase('Running'), phase('Running')),
      want: phase('Running'),
    },
    {
      name: 'Running + Pending ⇒ Pending',
      template: pod(),
      items: items(phase('Running'), phase('Pending')),
      want: phase('Pending'),
    },
    {
      name: 'Failed wins over everything',
      template: pod(),
      items: items(phase('Pending'), phase('Failed')),
      want: phase('Failed'),
    },
    {
      name: 'Running + Succeeded ⇒ Running',
      template: pod(),
      items: items(phase('Succeeded'), phase('Running')),
      want: phase('Running'),
    },
    {
      name: 'Succeeded everywhere ⇒ Succeeded',
      template: pod(),
      items: items(phase('Succeeded')),
      want: phase('Succeeded'),
    },
    {
      name: 'status not collected counts as Pending',
      template: pod(),
      items: items(phase('Running'), undefined),
      want: phase('Pending'),
    },
    { name: 'only Unknown ⇒ no phase', template: pod(), items: items(phase('Unknown')), want: {} },
    {
      name: 'container statuses keep only ready and state (Go zero values for the rest)',
      template: pod(),
      items: items(
        {
          phase: 'Running',
          containerStatuses: [container(true, { running: { startedAt: '2025-01-01T00:00:00Z' } })],
          initContainerStatuses: [
            container(false, { terminated: { exitCode: 0, reason: 'Completed', finishedAt: '2025-01-01T00:00:00Z' } }),
          ],
        },
        { phase: 'Running', containerStatuses: [container(false, { waiting: { reason: 'CrashLoopBackOff' } })] },
      ),
      want: {
        phase: 'Running',
        initContainerStatuses: [
          aggregated(false, {
            terminated: { exitCode: 0, reason: 'Completed', startedAt: null, finishedAt: '2025-01-01T00:00:00Z' },
          }),
        ],
        containerStatuses: [
          aggregated(true, { running: { startedAt: '2025-01-01T00:00:00Z' } }),
          aggregated(false, { waiting: { reason: 'CrashLoopBackOff' } }),
        ],
      },
    },
  ]);
});

describe('aggregateStatus: PersistentVolume / PersistentVolumeClaim', () => {
  const pv = () => template('v1', 'PersistentVolume');
  const pvc = (status?: Record<string, unknown>) => template('v1', 'PersistentVolumeClaim', status);
  const phase = (p: string) => ({ phase: p });
  run([
    {
      name: 'PV: Available everywhere',
      template: pv(),
      items: items(phase('Available'), phase('Available')),
      want: phase('Available'),
    },
    {
      name: 'PV: Released everywhere',
      template: pv(),
      items: items(phase('Released'), phase('Released')),
      want: phase('Released'),
    },
    {
      name: 'PV: Bound + Released ⇒ Bound',
      template: pv(),
      items: items(phase('Bound'), phase('Released')),
      want: phase('Bound'),
    },
    {
      name: 'PV: Released + Failed ⇒ Failed',
      template: pv(),
      items: items(phase('Released'), phase('Failed')),
      want: phase('Failed'),
    },
    {
      name: 'PV: Available + Pending ⇒ Pending',
      template: pv(),
      items: items(phase('Available'), phase('Pending')),
      want: phase('Pending'),
    },
    {
      name: 'PV: status not collected ⇒ Pending',
      template: pv(),
      items: items(phase('Bound'), undefined),
      want: phase('Pending'),
    },
    {
      name: 'PVC: Bound everywhere',
      template: pvc(),
      items: items(phase('Bound'), phase('Bound')),
      want: phase('Bound'),
    },
    {
      name: 'PVC: Bound + Lost ⇒ Lost',
      template: pvc(),
      items: items(phase('Bound'), phase('Lost')),
      want: phase('Lost'),
    },
    {
      name: 'PVC: Bound + Pending ⇒ Pending',
      template: pvc(),
      items: items(phase('Bound'), phase('Pending')),
      want: phase('Pending'),
    },
    {
      name: 'PVC: capacity/accessModes dropped; no items ⇒ Bound',
      template: pvc({ phase: 'Pending', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] }),
      items: [],
      want: phase('Bound'),
    },
    { name: 'PVC: a member without phase ⇒ no phase', template: pvc(), items: items(phase('Bound'), {}), want: {} },
  ]);
});

describe('aggregateStatus: PodDisruptionBudget / HorizontalPodAutoscaler', () => {
  const healthy = { currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 1 };
  const unhealthy = {
    currentHealthy: 0,
    desiredHealthy: 1,
    disruptionsAllowed: 0,
    expectedPods: 1,
    disruptedPods: { 'pod-1234': '2025-01-01T00:00:00Z' },
  };
  run([
    {
      name: 'update pdb status (counters summed; observedGeneration/conditions dropped)',
      template: template('policy/v1', 'PodDisruptionBudget', { ...healthy, observedGeneration: 4 }),
      items: items(healthy, healthy),
      want: { currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 2, expectedPods: 2 },
    },
    {
      name: 'update pdb status with disrupted pods (keys prefixed with the cluster)',
      template: template('policy/v1', 'PodDisruptionBudget', healthy),
      items: items(unhealthy, unhealthy),
      want: {
        currentHealthy: 0,
        desiredHealthy: 2,
        disruptionsAllowed: 0,
        expectedPods: 2,
        disruptedPods: { 'member1/pod-1234': '2025-01-01T00:00:00Z', 'member2/pod-1234': '2025-01-01T00:00:00Z' },
      },
    },
    {
      name: 'hpa: replicas summed, currentMetrics null',
      template: template('autoscaling/v2', 'HorizontalPodAutoscaler', { currentReplicas: 1, desiredReplicas: 1 }),
      items: items({ currentReplicas: 2, desiredReplicas: 3 }, { currentReplicas: 1, desiredReplicas: 1 }),
      want: { currentReplicas: 3, desiredReplicas: 4, currentMetrics: null },
    },
  ]);
});

describe('aggregateStatus: kinds without a native hook', () => {
  run([
    {
      name: 'ReplicaSet has none',
      template: template('apps/v1', 'ReplicaSet', { replicas: 1 }),
      items: items({ replicas: 2 }),
      want: undefined,
    },
    { name: 'ConfigMap has none', template: template('v1', 'ConfigMap'), items: items({}), want: undefined },
    {
      name: 'hooks match the exact apiVersion: autoscaling/v1 HPA has none',
      template: template('autoscaling/v1', 'HorizontalPodAutoscaler'),
      items: items({ currentReplicas: 1 }),
      want: undefined,
    },
  ]);

  it('hasAggregateStatusHook lists the twelve native kinds (getAllDefaultAggregateStatusInterpreter)', () => {
    const kinds = [
      ['apps/v1', 'Deployment'],
      ['v1', 'Service'],
      ['networking.k8s.io/v1', 'Ingress'],
      ['batch/v1', 'Job'],
      ['batch/v1', 'CronJob'],
      ['apps/v1', 'DaemonSet'],
      ['apps/v1', 'StatefulSet'],
      ['v1', 'Pod'],
      ['v1', 'PersistentVolume'],
      ['v1', 'PersistentVolumeClaim'],
      ['policy/v1', 'PodDisruptionBudget'],
      ['autoscaling/v2', 'HorizontalPodAutoscaler'],
    ];
    for (const [apiVersion, kind] of kinds) {
      assert.equal(hasAggregateStatusHook({ apiVersion: apiVersion!, kind: kind! }), true, kind);
    }
    assert.equal(hasAggregateStatusHook({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }), false);
  });
});
