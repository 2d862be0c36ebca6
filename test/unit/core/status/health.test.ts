/**
 * `InterpretHealth` of Karmada's default interpreter (v1.15.9
 * `pkg/resourceinterpreter/default/native/healthy.go`, `healthy_test.go`) and the work status
 * controller's treatment of kinds without a hook (`work_status_controller.go` `interpretHealth`: Healthy).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { hasHealthHook, interpretHealth, type ResourceHealth } from '../../../../lib/core/status/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';

function object(apiVersion: string, kind: string, fields: Record<string, unknown>, generation = 1): KubeObject {
  return { apiVersion, kind, metadata: { name: 'obj', namespace: 'ns', generation }, ...fields };
}

const deploy = (replicas: number | undefined, status: Record<string, unknown>, generation = 1): KubeObject =>
  object('apps/v1', 'Deployment', { spec: replicas === undefined ? {} : { replicas }, status }, generation);
const sts = (replicas: number, status: Record<string, unknown>, generation = 1): KubeObject =>
  object('apps/v1', 'StatefulSet', { spec: { replicas }, status }, generation);
const pod = (status: Record<string, unknown>): KubeObject => object('v1', 'Pod', { status });
const ready = (s: string) => [{ type: 'Ready', status: s }];

describe('interpretHealth', () => {
  const cases: { name: string; live: KubeObject; want: ResourceHealth }[] = [
    {
      name: 'deployment healthy',
      live: deploy(3, { observedGeneration: 1, updatedReplicas: 3, availableReplicas: 3 }),
      want: 'Healthy',
    },
    {
      name: 'deployment: generation not equal to observedGeneration',
      live: deploy(3, { observedGeneration: 1, updatedReplicas: 3, availableReplicas: 3 }, 2),
      want: 'Unhealthy',
    },
    {
      name: 'deployment rollout in progress: updatedReplicas < spec.replicas',
      live: deploy(3, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 3 }),
      want: 'Unhealthy',
    },
    {
      name: 'deployment: availableReplicas < updatedReplicas',
      live: deploy(3, { observedGeneration: 1, updatedReplicas: 3, availableReplicas: 2 }),
      want: 'Unhealthy',
    },
    {
      name: 'deployment without spec.replicas skips the updated check',
      live: deploy(undefined, { observedGeneration: 1 }),
      want: 'Healthy',
    },
    {
      name: 'statefulSet healthy',
      live: sts(2, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 2 }),
      want: 'Healthy',
    },
    {
      name: 'statefulSet: generation not equal to observedGeneration',
      live: sts(2, { observedGeneration: 0, updatedReplicas: 2, availableReplicas: 2 }),
      want: 'Unhealthy',
    },
    {
      name: 'statefulSet: availableReplicas < updatedReplicas',
      live: sts(2, { observedGeneration: 1, updatedReplicas: 2, availableReplicas: 1 }),
      want: 'Unhealthy',
    },
    {
      name: 'replicaSet healthy',
      live: object('apps/v1', 'ReplicaSet', {
        spec: { replicas: 2 },
        status: { observedGeneration: 1, availableReplicas: 2 },
      }),
      want: 'Healthy',
    },
    {
      name: 'replicaSet: availableReplicas < spec.replicas',
      live: object('apps/v1', 'ReplicaSet', {
        spec: { replicas: 2 },
        status: { observedGeneration: 1, availableReplicas: 1 },
      }),
      want: 'Unhealthy',
    },
    {
      name: 'daemonSet healthy',
      live: object('apps/v1', 'DaemonSet', {
        status: { observedGeneration: 1, desiredNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 2 },
      }),
      want: 'Healthy',
    },
    {
      name: 'daemonSet: updatedNumberScheduled < desiredNumberScheduled',
      live: object('apps/v1', 'DaemonSet', {
        status: { observedGeneration: 1, desiredNumberScheduled: 2, updatedNumberScheduled: 1, numberAvailable: 1 },
      }),
      want: 'Unhealthy',
    },
    {
      name: 'daemonSet: numberAvailable < updatedNumberScheduled',
      live: object('apps/v1', 'DaemonSet', {
        status: { observedGeneration: 1, desiredNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 1 },
      }),
      want: 'Unhealthy',
    },
    {
      name: 'service LoadBalancer with an ingress IP is healthy',
      live: object('v1', 'Service', {
        spec: { type: 'LoadBalancer' },
        status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } },
      }),
      want: 'Healthy',
    },
    {
      name: 'service not of LoadBalancer type is healthy',
      live: object('v1', 'Service', { spec: { type: 'ClusterIP' } }),
      want: 'Healthy',
    },
    {
      name: 'service LoadBalancer: status.loadBalancer.ingress list is empty',
      live: object('v1', 'Service', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [] } } }),
      want: 'Unhealthy',
    },
    {
      name: 'ingress with a hostname is healthy',
      live: object('networking.k8s.io/v1', 'Ingress', {
        status: { loadBalancer: { ingress: [{ hostname: 'a.io' }] } },
      }),
      want: 'Healthy',
    },
    {
      name: 'ingress: status.loadBalancer.ingress entries without address',
      live: object('networking.k8s.io/v1', 'Ingress', { status: { loadBalancer: { ingress: [{}] } } }),
      want: 'Unhealthy',
    },
    {
      name: 'persistentVolumeClaim Bound',
      live: object('v1', 'PersistentVolumeClaim', { status: { phase: 'Bound' } }),
      want: 'Healthy',
    },
    {
      name: 'persistentVolumeClaim: status.phase not Bound',
      live: object('v1', 'PersistentVolumeClaim', { status: { phase: 'Pending' } }),
      want: 'Unhealthy',
    },
    { name: 'pod Running and Ready', live: pod({ phase: 'Running', conditions: ready('True') }), want: 'Healthy' },
    { name: 'pod (job type) Succeeded', live: pod({ phase: 'Succeeded' }), want: 'Healthy' },
    {
      name: 'pod Running, condition Ready false',
      live: pod({ phase: 'Running', conditions: ready('False') }),
      want: 'Unhealthy',
    },
    { name: 'pod phase Pending', live: pod({ phase: 'Pending', conditions: ready('True') }), want: 'Unhealthy' },
    { name: 'pod Failed', live: pod({ phase: 'Failed' }), want: 'Unhealthy' },
    { name: 'pod: condition or phase nil', live: pod({}), want: 'Unhealthy' },
    {
      name: 'podDisruptionBudget: currentHealthy > desiredHealthy',
      live: object('policy/v1', 'PodDisruptionBudget', { status: { currentHealthy: 3, desiredHealthy: 2 } }),
      want: 'Healthy',
    },
    {
      name: 'podDisruptionBudget: desired healthy equals current healthy',
      live: object('policy/v1', 'PodDisruptionBudget', { status: { currentHealthy: 2, desiredHealthy: 2 } }),
      want: 'Healthy',
    },
    {
      name: 'podDisruptionBudget: fewer healthy pods than desired',
      live: object('policy/v1', 'PodDisruptionBudget', { status: { currentHealthy: 1, desiredHealthy: 2 } }),
      want: 'Unhealthy',
    },
    {
      name: 'kind without a health hook (ConfigMap) is treated as Healthy, not Unknown',
      live: object('v1', 'ConfigMap', { data: {} }),
      want: 'Healthy',
    },
    {
      name: 'Job has no native health hook: Healthy even when failed',
      live: object('batch/v1', 'Job', { status: { failed: 3, conditions: [{ type: 'Failed', status: 'True' }] } }),
      want: 'Healthy',
    },
    {
      name: 'hooks match the exact apiVersion: extensions/v1beta1 Deployment has none',
      live: object('extensions/v1beta1', 'Deployment', { spec: { replicas: 3 }, status: {} }, 5),
      want: 'Healthy',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(interpretHealth(c.live), c.want);
    });
  }

  it('hasHealthHook lists the nine native kinds (getAllDefaultHealthInterpreter)', () => {
    const kinds = [
      ['apps/v1', 'Deployment'],
      ['apps/v1', 'StatefulSet'],
      ['apps/v1', 'ReplicaSet'],
      ['apps/v1', 'DaemonSet'],
      ['v1', 'Service'],
      ['networking.k8s.io/v1', 'Ingress'],
      ['v1', 'PersistentVolumeClaim'],
      ['v1', 'Pod'],
      ['policy/v1', 'PodDisruptionBudget'],
    ];
    for (const [apiVersion, kind] of kinds)
      assert.equal(hasHealthHook({ apiVersion: apiVersion!, kind: kind! }), true, kind);
    assert.equal(hasHealthHook({ apiVersion: 'batch/v1', kind: 'Job' }), false);
    assert.equal(hasHealthHook({ apiVersion: 'v1', kind: 'PersistentVolume' }), false);
  });
});
