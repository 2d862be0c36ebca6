/** The interpreter registry and the binding-level entry points. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  BUILTIN_INTERPRETERS,
  DEFAULT_INTERPRETERS,
  THIRDPARTY_INTERPRETERS,
  hasComponents,
  hasReplicas,
  interpretBindingWorkload,
  interpretComponents,
  interpretReplicas,
  interpreterKey,
  withInterpreter,
} from '../../../../lib/core/interpreter/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';

const flink: KubeObject = {
  apiVersion: 'flink.apache.org/v1beta1',
  kind: 'FlinkDeployment',
  metadata: { name: 'f', namespace: 'ns' },
  spec: { jobManager: { resource: { cpu: 1 } }, taskManager: { replicas: 2, resource: { cpu: 2 } } },
};
const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', namespace: 'ns' },
  spec: { replicas: 3, template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] } } },
};

describe('registry', () => {
  it('keys are apiVersion/kind', () => {
    assert.equal(interpreterKey('apps/v1', 'Deployment'), 'apps/v1/Deployment');
    assert.equal(interpreterKey('v1', 'Pod'), 'v1/Pod');
  });

  it('the default registry holds the native and third-party hooks', () => {
    assert.equal(DEFAULT_INTERPRETERS.size, BUILTIN_INTERPRETERS.size + THIRDPARTY_INTERPRETERS.size);
    const table: [string, string, boolean, boolean][] = [
      ['apps/v1', 'Deployment', true, false],
      ['apps/v1', 'StatefulSet', true, false],
      ['apps/v1', 'ReplicaSet', true, false],
      ['batch/v1', 'Job', true, false],
      ['v1', 'Pod', true, false],
      ['apps/v1', 'DaemonSet', false, false],
      ['flink.apache.org/v1beta1', 'FlinkDeployment', true, true],
      ['kubeflow.org/v1', 'PyTorchJob', false, true],
      ['kubeflow.org/v1', 'TFJob', false, true],
      ['kubeflow.org/v2beta1', 'MPIJob', false, true],
      ['ray.io/v1', 'RayJob', false, true],
      ['ray.io/v1', 'RayCluster', false, true],
      ['sparkoperator.k8s.io/v1beta2', 'SparkApplication', false, true],
      ['batch.volcano.sh/v1alpha1', 'Job', false, true],
      ['kubeflow.org/v1beta1', 'PyTorchJob', false, false],
    ];
    for (const [apiVersion, kind, replicas, components] of table) {
      assert.equal(hasReplicas(apiVersion, kind), replicas, `${apiVersion}/${kind} replicas`);
      assert.equal(hasComponents(apiVersion, kind), components, `${apiVersion}/${kind} components`);
    }
  });

  it('kinds without a hook answer undefined', () => {
    assert.equal(interpretComponents(deployment), undefined);
    const svc: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } };
    assert.equal(interpretReplicas(svc), undefined);
    assert.equal(interpretComponents(svc), undefined);
  });

  it('withInterpreter overrides one hook per operation and leaves the original registry alone', () => {
    const registry = withInterpreter(DEFAULT_INTERPRETERS, 'flink.apache.org/v1beta1', 'FlinkDeployment', {
      replicas: () => ({ replicas: 42 }),
    });
    assert.deepEqual(interpretReplicas(flink, { registry }), { replicas: 42 });
    assert.equal(interpretComponents(flink, { registry })?.length, 2, 'components hook kept');
    assert.notEqual(interpretReplicas(flink)?.replicas, 42, 'default registry unchanged');
  });

  it('withInterpreter adds hooks for a new kind', () => {
    const registry = withInterpreter(DEFAULT_INTERPRETERS, 'example.io/v1', 'Workload', {
      components: (o) => [{ name: 'only', replicas: Number((o['spec'] as { size: number }).size) }],
    });
    const w: KubeObject = { apiVersion: 'example.io/v1', kind: 'Workload', metadata: { name: 'w' }, spec: { size: 3 } };
    assert.equal(hasComponents('example.io/v1', 'Workload', registry), true);
    assert.equal(hasReplicas('example.io/v1', 'Workload', registry), false);
    assert.deepEqual(interpretComponents(w, { registry }), [{ name: 'only', replicas: 3 }]);
    assert.equal(hasComponents('example.io/v1', 'Workload'), false);
  });
});

describe('interpretBindingWorkload (the detector’s applyReplicaInterpretation)', () => {
  it('gate off: replicas and requirements, even for kinds with components', () => {
    assert.deepEqual(interpretBindingWorkload(flink), {
      replicas: 3,
      replicaRequirements: { resourceRequest: { cpu: '2' }, namespace: 'ns' },
    });
    assert.deepEqual(interpretBindingWorkload(deployment), {
      replicas: 3,
      replicaRequirements: { resourceRequest: { cpu: '1' } },
    });
  });

  it('gate on: components only, for kinds that have them', () => {
    assert.deepEqual(interpretBindingWorkload(flink, { multiplePodTemplatesScheduling: true }), {
      components: [
        { name: 'jobmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1' } } },
        { name: 'taskmanager', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '2' } } },
      ],
    });
    assert.deepEqual(interpretBindingWorkload(deployment, { multiplePodTemplatesScheduling: true }), {
      replicas: 3,
      replicaRequirements: { resourceRequest: { cpu: '1' } },
    });
  });

  it('gate on, empty components: nothing (omitempty)', () => {
    const job: KubeObject = { apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', metadata: { name: 'p' }, spec: {} };
    assert.deepEqual(interpretBindingWorkload(job, { multiplePodTemplatesScheduling: true }), {});
    assert.deepEqual(interpretBindingWorkload(job), {});
  });

  it('ResourceQuotaEstimate fills the namespace of native requirements', () => {
    assert.deepEqual(interpretBindingWorkload(deployment, { resourceQuotaEstimate: true }), {
      replicas: 3,
      replicaRequirements: { resourceRequest: { cpu: '1' }, namespace: 'ns' },
    });
  });

  it('kinds without hooks: nothing', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    assert.deepEqual(interpretBindingWorkload(cm, { multiplePodTemplatesScheduling: true }), {});
  });
});
