/**
 * Ports of Karmada's third-party `GetComponents` (and FlinkDeployment `GetReplicas`) Lua scripts
 * (`pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/**`), with exact Go spellings of
 * the resulting quantities.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { parse } from 'yaml';

import { interpretComponents, interpretReplicas } from '../../../../lib/core/interpreter/index.ts';
import type { Component, KubeObject } from '../../../../lib/core/model/types.ts';

const FLINK_EXAMPLE = new URL('../../../../examples/flink/flinkdeployment.yaml', import.meta.url);

function obj(apiVersion: string, kind: string, spec: unknown, namespace = 'default'): KubeObject {
  return { apiVersion, kind, metadata: { name: 'x', namespace }, spec };
}

function podTemplate(requests: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { spec: { containers: [{ name: 'main', image: 'img', resources: { requests } }], ...extra } };
}

describe('FlinkDeployment', () => {
  const flink = (spec: Record<string, unknown>): KubeObject => obj('flink.apache.org/v1beta1', 'FlinkDeployment', spec);

  it('examples/flink/flinkdeployment.yaml gives exactly the v1.15 release notes’ components', () => {
    const template = parse(readFileSync(FLINK_EXAMPLE, 'utf8')) as KubeObject;
    assert.deepEqual(interpretComponents(template), [
      { name: 'jobmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1', memory: '1.024' } } },
      { name: 'taskmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '2', memory: '2.048' } } },
    ]);
  });

  it('GetReplicas of the example: both managers, the larger request, the namespace', () => {
    const template = parse(readFileSync(FLINK_EXAMPLE, 'utf8')) as KubeObject;
    assert.deepEqual(interpretReplicas(template), {
      replicas: 2,
      replicaRequirements: { resourceRequest: { cpu: '2', memory: '2048m' }, namespace: 'default' },
    });
  });

  const cases: { name: string; spec: Record<string, unknown>; want: Component[] }[] = [
    {
      name: 'task managers from parallelism / task slots, rounded up',
      spec: {
        flinkConfiguration: { 'taskmanager.numberOfTaskSlots': '4' },
        job: { parallelism: 10 },
        jobManager: { resource: { cpu: 0.5, memory: '2Gi' } },
        taskManager: { resource: { cpu: '2', memory: '4096m' } },
      },
      want: [
        {
          name: 'jobmanager',
          replicas: 1,
          replicaRequirements: { resourceRequest: { cpu: '500m', memory: '2147483648' } },
        },
        { name: 'taskmanager', replicas: 3, replicaRequirements: { resourceRequest: { cpu: '2', memory: '4.096' } } },
      ],
    },
    {
      name: 'zero task slots default the task managers to 1; string replicas are read as numbers',
      spec: {
        flinkConfiguration: { 'taskmanager.numberOfTaskSlots': '0' },
        job: { parallelism: 10 },
        jobManager: { replicas: '2', resource: { cpu: 1 } },
        taskManager: { resource: { cpu: 1 } },
      },
      want: [
        { name: 'jobmanager', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '1' } } },
        { name: 'taskmanager', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1' } } },
      ],
    },
    {
      name: 'pod template node selector, tolerations and priority class go to both components',
      spec: {
        jobManager: { replicas: 1, resource: { cpu: 1, memory: '1024m' } },
        taskManager: { replicas: 2, resource: { cpu: 1, memory: '1024m' } },
        podTemplate: {
          spec: {
            nodeSelector: { disktype: 'ssd' },
            tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }],
            affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
            priorityClassName: 'high-priority',
          },
        },
      },
      want: ['jobmanager', 'taskmanager'].map((name, i) => ({
        name,
        replicas: i + 1,
        replicaRequirements: {
          resourceRequest: { cpu: '1', memory: '1.024' },
          nodeClaim: {
            nodeSelector: { disktype: 'ssd' },
            tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }],
          },
          priorityClassName: 'high-priority',
        },
      })),
    },
    {
      name: 'no resources: empty requirements; a memory Kubernetes cannot read (Flink’s 2g) is left out',
      spec: { jobManager: {}, taskManager: { resource: { memory: '2g' } } },
      want: [
        { name: 'jobmanager', replicas: 1, replicaRequirements: {} },
        { name: 'taskmanager', replicas: 1, replicaRequirements: {} },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(interpretComponents(flink(c.spec)), c.want);
    });
  }

  it('GetReplicas: ties on memory go to the task manager’s spelling; pod template claim and priority', () => {
    const template = flink({
      jobManager: { replicas: 1, resource: { cpu: 1, memory: '1073741824' } },
      taskManager: { replicas: 3, resource: { cpu: 0.5, memory: '1Gi' } },
      podTemplate: { spec: { tolerations: [{ key: 'k', operator: 'Exists' }], priorityClassName: 'p' } },
    });
    assert.deepEqual(interpretReplicas(template), {
      replicas: 4,
      replicaRequirements: {
        resourceRequest: { cpu: '1', memory: '1Gi' },
        nodeClaim: { tolerations: [{ key: 'k', operator: 'Exists' }] },
        priorityClassName: 'p',
        namespace: 'default',
      },
    });
  });

  it('never throws on malformed specs', () => {
    for (const spec of [undefined, null, 'x', { jobManager: 'x', taskManager: [], podTemplate: { spec: 'x' } }]) {
      assert.equal(interpretComponents(flink(spec as Record<string, unknown>))?.length, 2);
      assert.doesNotThrow(() => interpretReplicas(flink(spec as Record<string, unknown>)));
    }
  });
});

describe('Kubeflow jobs', () => {
  const gpuTemplate = podTemplate(
    { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': 1 },
    { nodeSelector: { accelerator: 'a100' }, tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }] },
  );

  it('PyTorchJob: master and worker, with init containers and GPUs', () => {
    const job = obj('kubeflow.org/v1', 'PyTorchJob', {
      pytorchReplicaSpecs: {
        Worker: { replicas: 4, restartPolicy: 'OnFailure', template: gpuTemplate },
        Master: {
          replicas: 1,
          template: {
            spec: {
              initContainers: [{ name: 'init', resources: { requests: { cpu: '2', memory: '1Gi' } } }],
              containers: [{ name: 'pytorch', resources: { requests: { cpu: '1', memory: '2Gi' } } }],
            },
          },
        },
      },
    });
    assert.deepEqual(interpretComponents(job), [
      { name: 'master', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '2', memory: '2Gi' } } },
      {
        name: 'worker',
        replicas: 4,
        replicaRequirements: {
          nodeClaim: {
            nodeSelector: { accelerator: 'a100' },
            tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
          },
          resourceRequest: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' },
        },
      },
    ]);
  });

  it('PyTorchJob: priorityClassName with the ResourceQuotaEstimate gate', () => {
    const job = obj('kubeflow.org/v1', 'PyTorchJob', {
      pytorchReplicaSpecs: { Worker: { template: podTemplate({ cpu: '1' }, { priorityClassName: 'batch' }) } },
    });
    assert.deepEqual(interpretComponents(job), [
      { name: 'worker', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1' } } },
    ]);
    assert.deepEqual(interpretComponents(job, { resourceQuotaEstimate: true }), [
      {
        name: 'worker',
        replicas: 1,
        replicaRequirements: { resourceRequest: { cpu: '1' }, priorityClassName: 'batch' },
      },
    ]);
  });

  it('TFJob: roles in the script’s order (PS, Worker, Chief, Master, Evaluator)', () => {
    const job = obj('kubeflow.org/v1', 'TFJob', {
      tfReplicaSpecs: {
        Evaluator: { template: podTemplate({ cpu: '1' }) },
        Chief: { replicas: 1, template: podTemplate({ cpu: '2' }) },
        Worker: { replicas: '3', template: podTemplate({ cpu: '4' }) },
        PS: { replicas: 2 },
      },
    });
    assert.deepEqual(interpretComponents(job), [
      { name: 'ps', replicas: 2 },
      { name: 'worker', replicas: 3, replicaRequirements: { resourceRequest: { cpu: '4' } } },
      { name: 'chief', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '2' } } },
      { name: 'evaluator', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1' } } },
    ]);
  });

  it('MPIJob: every spec with a template, sorted by name; a worker defaults to 0 replicas', () => {
    const job = obj('kubeflow.org/v2beta1', 'MPIJob', {
      slotsPerWorker: 1,
      mpiReplicaSpecs: {
        Worker: { template: gpuTemplate },
        Launcher: { replicas: 1, template: podTemplate({ cpu: '500m', memory: '512Mi' }) },
        Extra: { replicas: 2 },
      },
    });
    const got = interpretComponents(job);
    assert.deepEqual(
      got?.map((c) => [c.name, c.replicas]),
      [
        ['Launcher', 1],
        ['Worker', 0],
      ],
    );
    assert.deepEqual(got?.[0]?.replicaRequirements, { resourceRequest: { cpu: '500m', memory: '512Mi' } });
  });

  it('missing or malformed replica specs give no components', () => {
    assert.deepEqual(interpretComponents(obj('kubeflow.org/v1', 'PyTorchJob', {})), []);
    assert.deepEqual(interpretComponents(obj('kubeflow.org/v1', 'TFJob', { tfReplicaSpecs: 'x' })), []);
    assert.deepEqual(interpretComponents(obj('kubeflow.org/v2beta1', 'MPIJob', { mpiReplicaSpecs: [] })), []);
    assert.deepEqual(
      interpretComponents(obj('kubeflow.org/v1', 'PyTorchJob', { pytorchReplicaSpecs: { Worker: { replicas: 1.5 } } })),
      [{ name: 'worker', replicas: 1 }],
    );
  });
});

describe('Ray', () => {
  const cluster = {
    rayVersion: '2.9.0',
    headGroupSpec: { rayStartParams: {}, template: podTemplate({ cpu: '1', memory: '2Gi' }) },
    workerGroupSpecs: [
      {
        groupName: 'cpu',
        replicas: 3,
        minReplicas: 1,
        maxReplicas: 5,
        template: podTemplate({ cpu: '500m', memory: '1Gi' }),
      },
      { replicas: '2', template: podTemplate({ cpu: '2', 'nvidia.com/gpu': '1' }) },
      { groupName: 'standby', template: podTemplate({ cpu: '1' }) },
    ],
  };
  const want: Component[] = [
    { name: 'ray-head', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1', memory: '2Gi' } } },
    { name: 'cpu', replicas: 3, replicaRequirements: { resourceRequest: { cpu: '500m', memory: '1Gi' } } },
    { name: 'worker-2', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '2', 'nvidia.com/gpu': '1' } } },
    { name: 'standby', replicas: 0, replicaRequirements: { resourceRequest: { cpu: '1' } } },
  ];

  it('RayCluster: head, then one component per worker group', () => {
    assert.deepEqual(interpretComponents(obj('ray.io/v1', 'RayCluster', cluster)), want);
  });

  it('RayJob: the components of spec.rayClusterSpec; the submitter pod is not counted', () => {
    const job = obj('ray.io/v1', 'RayJob', {
      entrypoint: 'python /home/ray/job.py',
      submitterPodTemplate: podTemplate({ cpu: '100m' }),
      rayClusterSpec: cluster,
    });
    assert.deepEqual(interpretComponents(job), want);
    assert.deepEqual(interpretComponents(obj('ray.io/v1', 'RayJob', { entrypoint: 'x' })), []);
  });

  it('worker groups stop at the first null entry (Lua ipairs); no head template, no head', () => {
    const rc = obj('ray.io/v1', 'RayCluster', {
      headGroupSpec: {},
      workerGroupSpecs: [{ groupName: 'a', replicas: 1 }, null, { groupName: 'b', replicas: 1 }],
    });
    assert.deepEqual(interpretComponents(rc), [{ name: 'a', replicas: 1 }]);
  });
});

describe('SparkApplication', () => {
  const spark = (spec: Record<string, unknown>): KubeObject =>
    obj('sparkoperator.k8s.io/v1beta2', 'SparkApplication', spec);
  const cases: {
    name: string;
    spec: Record<string, unknown>;
    want: [Record<string, string>, Record<string, string>, number];
  }[] = [
    {
      name: 'JVM job: 10% overhead, at least 384Mi',
      spec: { type: 'Scala', driver: { cores: 2, memory: '1g' }, executor: { instances: 3, memory: '8g' } },
      want: [{ cpu: '2', memory: '1408Mi' }, { cpu: '1', memory: '9448928051200m' }, 3],
    },
    {
      name: 'non-JVM job: 40% overhead, printed %f then read as a quantity',
      spec: { type: 'Python', executor: { instances: 4 } },
      want: [{ cpu: '1', memory: '1503238553600m' }, { cpu: '1', memory: '1503238553600m' }, 4],
    },
    {
      name: 'explicit memoryOverhead, summed in the smaller unit',
      spec: {
        type: 'Java',
        driver: { memory: '2g', memoryOverhead: '512m' },
        executor: { memory: '512m', memoryOverhead: '1g' },
      },
      want: [{ cpu: '1', memory: '2560Mi' }, { cpu: '1', memory: '1536Mi' }, 1],
    },
    {
      name: 'memoryOverheadFactor as a string applies to both roles (1g × 0.5 > 384m)',
      spec: { type: 'Java', memoryOverheadFactor: '0.5', driver: { memory: '4g' } },
      want: [{ cpu: '1', memory: '6Gi' }, { cpu: '1', memory: '1536Mi' }, 1],
    },
    {
      name: 'dynamic allocation raises executors to initial/min executors',
      spec: {
        type: 'Java',
        executor: { instances: 1 },
        dynamicAllocation: { enabled: true, initialExecutors: 2, minExecutors: 5 },
      },
      want: [{ cpu: '1', memory: '1408Mi' }, { cpu: '1', memory: '1408Mi' }, 5],
    },
    {
      name: 'disabled dynamic allocation is ignored',
      spec: { type: 'Java', executor: { instances: 2 }, dynamicAllocation: { enabled: false, minExecutors: 5 } },
      want: [{ cpu: '1', memory: '1408Mi' }, { cpu: '1', memory: '1408Mi' }, 2],
    },
    {
      name: 'GPUs with a positive quantity',
      spec: {
        type: 'Java',
        driver: { gpu: { name: 'nvidia.com/gpu', quantity: 0 } },
        executor: { gpu: { name: 'nvidia.com/gpu', quantity: '2' } },
      },
      want: [{ cpu: '1', memory: '1408Mi' }, { cpu: '1', memory: '1408Mi', 'nvidia.com/gpu': '2' }, 1],
    },
    {
      name: 'memory without a unit (where the script raises) is left out; missing type reads as non-JVM',
      spec: { driver: { memory: '1024' }, executor: { memory: 'lots' } },
      want: [{ cpu: '1' }, { cpu: '1' }, 1],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const [driver, executor, executors] = c.want;
      assert.deepEqual(interpretComponents(spark(c.spec)), [
        { name: 'driver', replicas: 1, replicaRequirements: { resourceRequest: driver } },
        { name: 'executor', replicas: executors, replicaRequirements: { resourceRequest: executor } },
      ]);
    });
  }

  it('node claim (including hard node affinity) and priority class from the driver/executor spec', () => {
    const required = { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] };
    const got = interpretComponents(
      spark({
        type: 'Java',
        driver: { nodeSelector: { disk: 'ssd' }, priorityClassName: 'high' },
        executor: {
          tolerations: [{ key: 'spot', operator: 'Exists' }],
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } },
        },
      }),
    );
    assert.deepEqual(got?.[0]?.replicaRequirements, {
      resourceRequest: { cpu: '1', memory: '1408Mi' },
      nodeClaim: { nodeSelector: { disk: 'ssd' } },
      priorityClassName: 'high',
    });
    assert.deepEqual(got?.[1]?.replicaRequirements, {
      resourceRequest: { cpu: '1', memory: '1408Mi' },
      nodeClaim: { tolerations: [{ key: 'spot', operator: 'Exists' }], hardNodeAffinity: required },
    });
  });
});

describe('Volcano Job', () => {
  it('one component per task: name or task-<index>, minAvailable replicas', () => {
    const job = obj('batch.volcano.sh/v1alpha1', 'Job', {
      minAvailable: 3,
      schedulerName: 'volcano',
      tasks: [
        { name: 'ps', replicas: 1, minAvailable: 1, template: podTemplate({ cpu: '1', memory: '1Gi' }) },
        { replicas: 4, minAvailable: '2', template: podTemplate({ cpu: '2', memory: '4Gi' }) },
        { name: 'chief', replicas: 1 },
      ],
    });
    assert.deepEqual(interpretComponents(job), [
      { name: 'ps', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1', memory: '1Gi' } } },
      { name: 'task-1', replicas: 2, replicaRequirements: { resourceRequest: { cpu: '2', memory: '4Gi' } } },
      { name: 'chief', replicas: 1 },
    ]);
  });
});
