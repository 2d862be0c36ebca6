/**
 * `ReflectStatus` of Karmada's default interpreter (v1.15.9
 * `pkg/resourceinterpreter/default/native/reflectstatus.go`, `reflectstatus_test.go`, `status_type.go`):
 * what a member object's status contributes to `Work.status.manifestStatuses[].status`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { hasReflectStatusHook, reflectStatus, tryReflectStatus } from '../../../../lib/core/status/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';

const GENERATION_ANNOTATION = 'resourcetemplate.karmada.io/generation';

function object(
  apiVersion: string,
  kind: string,
  fields: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name: 'obj', namespace: 'ns', ...metadata }, ...fields };
}

/** A member workload as the execution controller applied it: generation 2, template generation 1. */
/** `annotation: null` = no generation annotation. */
function workload(kind: string, status: unknown, annotation: string | null = '1'): KubeObject {
  return object('apps/v1', kind, status === undefined ? {} : { status }, {
    generation: 2,
    ...(annotation === null ? {} : { annotations: { [GENERATION_ANNOTATION]: annotation } }),
  });
}

describe('reflectStatus: native hooks', () => {
  const cases: { name: string; live: KubeObject; want: Record<string, unknown> | undefined }[] = [
    {
      name: 'Deployment: counters + generation + resourceTemplateGeneration (Test_reflectDeploymentStatus valid)',
      live: workload('Deployment', {
        observedGeneration: 2,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 0,
        conditions: [{ type: 'Available', status: 'True' }],
        collisionCount: 1,
      }),
      want: {
        generation: 2,
        resourceTemplateGeneration: 1,
        observedGeneration: 2,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
      },
    },
    {
      name: 'Deployment rollout in progress: unavailableReplicas kept, zero counters omitted (omitempty)',
      live: workload('Deployment', { observedGeneration: 2, replicas: 4, updatedReplicas: 2, unavailableReplicas: 4 }),
      want: {
        generation: 2,
        resourceTemplateGeneration: 1,
        observedGeneration: 2,
        replicas: 4,
        updatedReplicas: 2,
        unavailableReplicas: 4,
      },
    },
    {
      name: 'Deployment without status field gives nothing',
      live: workload('Deployment', undefined),
      want: undefined,
    },
    {
      name: 'Deployment whose picks are all zero ("{}") gives nothing (status not collected yet)',
      live: object('apps/v1', 'Deployment', { status: {} }, { annotations: { [GENERATION_ANNOTATION]: '0' } }),
      want: undefined,
    },
    {
      name: 'StatefulSet: replicas and availableReplicas always, observedGeneration NOT carried',
      live: workload('StatefulSet', {
        observedGeneration: 2,
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        currentRevision: 'r1',
      }),
      want: {
        generation: 2,
        resourceTemplateGeneration: 1,
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
      },
    },
    {
      name: 'StatefulSet with partial status fields (availableReplicas 0 still written)',
      live: workload('StatefulSet', { replicas: 2, readyReplicas: 1, currentReplicas: 1 }),
      want: {
        generation: 2,
        resourceTemplateGeneration: 1,
        replicas: 2,
        readyReplicas: 1,
        currentReplicas: 1,
        availableReplicas: 0,
      },
    },
    {
      name: 'DaemonSet: the four scheduling counters are required, the rest omitempty',
      live: workload('DaemonSet', {
        currentNumberScheduled: 2,
        desiredNumberScheduled: 2,
        numberReady: 1,
        observedGeneration: 2,
        updatedNumberScheduled: 2,
        numberAvailable: 1,
        numberUnavailable: 1,
        conditions: [],
      }),
      want: {
        generation: 2,
        resourceTemplateGeneration: 1,
        currentNumberScheduled: 2,
        numberMisscheduled: 0,
        desiredNumberScheduled: 2,
        numberReady: 1,
        observedGeneration: 2,
        updatedNumberScheduled: 2,
        numberAvailable: 1,
        numberUnavailable: 1,
      },
    },
    {
      name: 'Service LoadBalancer: only status.loadBalancer (conditions dropped)',
      live: object('v1', 'Service', {
        spec: { type: 'LoadBalancer' },
        status: {
          loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP' }] }] },
          conditions: [{ type: 'x', status: 'True' }],
        },
      }),
      want: { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP' }] }] } },
    },
    {
      name: 'Service LoadBalancer not provisioned yet: empty loadBalancer',
      live: object('v1', 'Service', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: {} } }),
      want: { loadBalancer: {} },
    },
    {
      name: 'Service ClusterIP gives nothing',
      live: object('v1', 'Service', { spec: { type: 'ClusterIP' }, status: { loadBalancer: {} } }),
      want: undefined,
    },
    {
      name: 'Service without spec.type gives nothing',
      live: object('v1', 'Service', { spec: {}, status: { loadBalancer: {} } }),
      want: undefined,
    },
    {
      name: 'Ingress: the whole status',
      live: object('networking.k8s.io/v1', 'Ingress', {
        status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] }, extra: 1 },
      }),
      want: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] }, extra: 1 },
    },
    {
      name: 'Job: counters, conditions (unset times → null, times in UTC seconds), start/completion',
      live: object('batch/v1', 'Job', {
        status: {
          active: 0,
          succeeded: 2,
          ready: 0,
          terminating: 0,
          uncountedTerminatedPods: {},
          startTime: '2024-05-01T10:00:00+02:00',
          completionTime: '2024-05-01T08:05:00.750Z',
          conditions: [
            {
              type: 'Complete',
              status: 'True',
              lastTransitionTime: '2024-05-01T08:05:00Z',
              reason: 'CompletionsReached',
            },
          ],
        },
      }),
      want: {
        conditions: [
          {
            type: 'Complete',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: '2024-05-01T08:05:00Z',
            reason: 'CompletionsReached',
          },
        ],
        startTime: '2024-05-01T08:00:00Z',
        completionTime: '2024-05-01T08:05:00Z',
        succeeded: 2,
      },
    },
    {
      name: 'PodDisruptionBudget: four counters and disruptedPods (Test_reflectPodDisruptionBudgetStatus)',
      live: object('policy/v1', 'PodDisruptionBudget', {
        status: {
          observedGeneration: 3,
          disruptionsAllowed: 1,
          currentHealthy: 3,
          desiredHealthy: 2,
          expectedPods: 3,
          disruptedPods: { 'pod-b': '2024-01-01T00:00:00Z', 'pod-a': '2024-01-01T00:00:01Z' },
          conditions: [{ type: 'DisruptionAllowed', status: 'True' }],
        },
      }),
      want: {
        disruptedPods: { 'pod-a': '2024-01-01T00:00:01Z', 'pod-b': '2024-01-01T00:00:00Z' },
        disruptionsAllowed: 1,
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
      },
    },
    {
      name: 'HorizontalPodAutoscaler: currentReplicas, desiredReplicas, currentMetrics null',
      live: object('autoscaling/v2', 'HorizontalPodAutoscaler', {
        status: { currentReplicas: 2, desiredReplicas: 3, currentMetrics: [{ type: 'Resource' }] },
      }),
      want: { currentReplicas: 2, desiredReplicas: 3, currentMetrics: null },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(reflectStatus(c.live), c.want);
    });
  }
});

describe('reflectStatus: kinds without a native hook copy the whole status (reflectWholeStatus)', () => {
  const podStatus = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], podIP: '10.0.0.1' };
  const cases: { name: string; live: KubeObject; want: Record<string, unknown> | undefined }[] = [
    { name: 'Pod', live: object('v1', 'Pod', { status: podStatus }), want: podStatus },
    {
      name: 'a custom resource',
      live: object('example.io/v1', 'Widget', { status: { ready: true, nested: { a: [1, 2] } } }),
      want: { ready: true, nested: { a: [1, 2] } },
    },
    { name: 'an empty status stays {}', live: object('example.io/v1', 'Widget', { status: {} }), want: {} },
    { name: 'no status gives nothing', live: object('v1', 'ConfigMap', { data: { a: 'b' } }), want: undefined },
    {
      name: 'hooks match the exact apiVersion: extensions/v1beta1 Deployment copies the whole status',
      live: object('extensions/v1beta1', 'Deployment', { status: { replicas: 1, conditions: [] } }),
      want: { replicas: 1, conditions: [] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(reflectStatus(c.live), c.want);
    });
  }

  it('hasReflectStatusHook names the native kinds only', () => {
    assert.equal(hasReflectStatusHook({ apiVersion: 'apps/v1', kind: 'Deployment' }), true);
    assert.equal(hasReflectStatusHook({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' }), true);
    assert.equal(hasReflectStatusHook({ apiVersion: 'v1', kind: 'Pod' }), false);
    assert.equal(hasReflectStatusHook({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }), false);
  });
});

describe('tryReflectStatus: where Karmada returns an error (the Work status is then left as it was)', () => {
  const cases: { name: string; live: KubeObject; ok: boolean }[] = [
    {
      name: 'Deployment without generation annotation (ParseInt("") fails)',
      live: workload('Deployment', {}, null),
      ok: false,
    },
    { name: 'Deployment with invalid generation annotation', live: workload('Deployment', {}, 'invalid'), ok: false },
    { name: 'DaemonSet without generation annotation', live: workload('DaemonSet', {}, null), ok: false },
    { name: 'StatefulSet with invalid status format', live: workload('StatefulSet', 'invalid'), ok: false },
    {
      name: 'Deployment without status and without annotation: status is checked first ⇒ nothing, no error',
      live: workload('Deployment', undefined, null),
      ok: true,
    },
    {
      name: 'annotation "+3" parses (strconv.ParseInt accepts a sign)',
      live: workload('Deployment', {}, '+3'),
      ok: true,
    },
    { name: 'a Job with a status that is not an object', live: object('batch/v1', 'Job', { status: [] }), ok: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = tryReflectStatus(c.live);
      assert.equal(result.ok, c.ok);
      if (!c.ok) assert.equal(reflectStatus(c.live), undefined);
    });
  }

  it('the annotation value becomes resourceTemplateGeneration', () => {
    assert.deepEqual(tryReflectStatus(workload('Deployment', { replicas: 1 }, '+3')), {
      ok: true,
      status: { generation: 2, resourceTemplateGeneration: 3, replicas: 1 },
    });
  });
});
