/**
 * Native `InterpretDependency` (Karmada `pkg/resourceinterpreter/default/native/dependencies.go`,
 * `pkg/util/helper/pod.go` `GetDependenciesFromPodTemplate`, `pkg/util/lifted/visitpod.go`). Rows
 * marked "upstream" are Karmada's own `dependencies_test.go` test pairs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  type DependencyRef,
  DependencyInterpretationError,
  interpretDependencies,
  interpretsDependencies,
} from '../../../../lib/core/dependencies/index.ts';
import type { KubeObject } from '../../../../lib/core/model/types.ts';
import { cloneJson } from '../../../../lib/util/json.ts';

const NS = 'karmada-test';

function workload(kind: string, spec: Record<string, unknown>, apiVersion = 'apps/v1'): KubeObject {
  return { apiVersion, kind, metadata: { name: 'w', namespace: NS }, spec };
}

function templated(kind: string, podSpec: Record<string, unknown>, apiVersion = 'apps/v1'): KubeObject {
  return workload(kind, { selector: { matchLabels: { app: 'w' } }, template: { spec: podSpec } }, apiVersion);
}

const cm = (name: string, namespace = NS): DependencyRef => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name });
const secret = (name: string, namespace = NS): DependencyRef => ({ apiVersion: 'v1', kind: 'Secret', namespace, name });
const sa = (name: string, namespace = NS): DependencyRef => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  namespace,
  name,
});
const pvc = (name: string, namespace = NS): DependencyRef => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  namespace,
  name,
});

// Karmada's testPairs (dependencies_test.go).
const UPSTREAM_POD_SPECS: { podSpec: Record<string, unknown>; deps: DependencyRef[] }[] = [
  {
    podSpec: {
      serviceAccountName: 'test-serviceaccount',
      volumes: [
        { name: 'initcontainer-volume-mount', configMap: { name: 'test-configmap' } },
        { name: 'cloud-secret-volume', secret: { secretName: 'cloud-secret' } },
        { name: 'container-volume-mount', persistentVolumeClaim: { claimName: 'test-pvc' } },
      ],
    },
    deps: [cm('test-configmap'), secret('cloud-secret'), sa('test-serviceaccount'), pvc('test-pvc')],
  },
  {
    podSpec: {
      serviceAccountName: 'test-serviceaccount',
      imagePullSecrets: [{ name: 'test-secret' }],
      initContainers: [
        {
          envFrom: [{ configMapRef: { name: 'initcontainer-envfrom-configmap' }, secretRef: { name: 'test-secret' } }],
          env: [{ valueFrom: { secretKeyRef: { name: 'test-secret' } } }],
        },
      ],
    },
    deps: [cm('initcontainer-envfrom-configmap'), secret('test-secret'), sa('test-serviceaccount')],
  },
  {
    podSpec: {
      containers: [
        {
          envFrom: [{ configMapRef: { name: 'test-configmap' } }],
          env: [{ valueFrom: { configMapKeyRef: { name: 'test-configmap' } } }],
        },
      ],
      volumes: [
        {
          name: 'container-volume-mount',
          persistentVolumeClaim: { claimName: 'test-pvc' },
          azureFile: { secretName: 'test-secret' },
        },
      ],
    },
    deps: [cm('test-configmap'), secret('test-secret'), pvc('test-pvc')],
  },
];

describe('interpretDependencies: pod template references (Deployment)', () => {
  const cases: { name: string; podSpec: Record<string, unknown>; deps: DependencyRef[] }[] = [
    ...UPSTREAM_POD_SPECS.map((p, i) => ({ name: `upstream testPairs[${i}]`, ...p })),
    {
      name: 'configMap volume',
      podSpec: { volumes: [{ name: 'v', configMap: { name: 'app-config' } }] },
      deps: [cm('app-config')],
    },
    {
      name: 'secret env valueFrom.secretKeyRef',
      podSpec: {
        containers: [{ name: 'c', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'p' } } }] }],
      },
      deps: [secret('db')],
    },
    {
      name: 'envFrom configMapRef and secretRef',
      podSpec: {
        containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'env-cm' } }, { secretRef: { name: 'env-s' } }] }],
      },
      deps: [cm('env-cm'), secret('env-s')],
    },
    {
      name: 'projected volume: configMap and secret sources (serviceAccountToken and downwardAPI are not dependencies)',
      podSpec: {
        volumes: [
          {
            name: 'p',
            projected: {
              sources: [
                { configMap: { name: 'proj-cm' } },
                { secret: { name: 'proj-s' } },
                { serviceAccountToken: { path: 'token' } },
                { downwardAPI: { items: [] } },
              ],
            },
          },
        ],
      },
      deps: [cm('proj-cm'), secret('proj-s')],
    },
    {
      name: 'imagePullSecrets',
      podSpec: { imagePullSecrets: [{ name: 'regcred' }, { name: '' }] },
      deps: [secret('regcred')],
    },
    {
      name: 'serviceAccountName',
      podSpec: { serviceAccountName: 'runner' },
      deps: [sa('runner')],
    },
    {
      name: "serviceAccountName 'default' is not a dependency (getServiceAccountNames)",
      podSpec: { serviceAccountName: 'default' },
      deps: [],
    },
    {
      name: 'the deprecated spec.serviceAccount is ignored',
      podSpec: { serviceAccount: 'legacy' },
      deps: [],
    },
    {
      name: 'PVC volume',
      podSpec: {
        volumes: [
          { name: 'data', persistentVolumeClaim: { claimName: 'data-pvc' } },
          { name: 'e', persistentVolumeClaim: { claimName: '' } },
        ],
      },
      deps: [pvc('data-pvc')],
    },
    {
      name: 'ephemeral containers are visited (VisitContainers AllContainers)',
      podSpec: {
        ephemeralContainers: [
          {
            name: 'debug',
            envFrom: [{ configMapRef: { name: 'dbg-cm' } }],
            env: [{ valueFrom: { secretKeyRef: { name: 'dbg-s' } } }],
          },
        ],
      },
      deps: [cm('dbg-cm'), secret('dbg-s')],
    },
    {
      name: 'secret-bearing plugin volumes: cephfs, cinder, flexVolume, rbd, scaleIO, iscsi, storageos secretRef, csi nodePublishSecretRef',
      podSpec: {
        volumes: [
          { name: 'a', cephfs: { monitors: [], secretRef: { name: 's-cephfs' } } },
          { name: 'b', cinder: { volumeID: 'x', secretRef: { name: 's-cinder' } } },
          { name: 'c', flexVolume: { driver: 'd', secretRef: { name: 's-flex' } } },
          { name: 'd', rbd: { monitors: [], image: 'i', secretRef: { name: 's-rbd' } } },
          { name: 'e', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 's-scaleio' } } },
          { name: 'f', iscsi: { targetPortal: 't', iqn: 'q', lun: 0, secretRef: { name: 's-iscsi' } } },
          { name: 'g', storageos: { volumeName: 'v', secretRef: { name: 's-storageos' } } },
          { name: 'h', csi: { driver: 'd', nodePublishSecretRef: { name: 's-csi' } } },
          { name: 'i', azureFile: { secretName: 's-azure', shareName: 'x' } },
          { name: 'j', csi: { driver: 'd' } },
        ],
      },
      deps: ['s-azure', 's-cephfs', 's-cinder', 's-csi', 's-flex', 's-iscsi', 's-rbd', 's-scaleio', 's-storageos'].map(
        (n) => secret(n),
      ),
    },
    {
      name: "VisitPodSecretNames looks at a volume's first source only (switch order: azureFile before secret)",
      podSpec: { volumes: [{ name: 'x', azureFile: { secretName: 'first' }, secret: { secretName: 'second' } }] },
      deps: [secret('first')],
    },
    {
      name: 'VisitPodConfigmapNames: projected wins over configMap in the same volume',
      podSpec: {
        volumes: [{ name: 'x', projected: { sources: [{ configMap: { name: 'p' } }] }, configMap: { name: 'plain' } }],
      },
      deps: [cm('p')],
    },
    {
      name: 'empty names are skipped (skipEmptyNames)',
      podSpec: {
        containers: [{ envFrom: [{ configMapRef: { name: '' } }, { secretRef: {} }] }],
        volumes: [
          { name: 'v', configMap: {} },
          { name: 's', secret: {} },
        ],
      },
      deps: [],
    },
    {
      name: 'dedup across kinds of reference, kinds in Karmada order (ConfigMap, Secret, ServiceAccount, PVC), names ascending within a kind',
      podSpec: {
        serviceAccountName: 'sa1',
        imagePullSecrets: [{ name: 'zeta' }],
        initContainers: [{ envFrom: [{ secretRef: { name: 'alpha' } }, { configMapRef: { name: 'cm-b' } }] }],
        containers: [
          {
            env: [
              { valueFrom: { secretKeyRef: { name: 'zeta' } } },
              { valueFrom: { configMapKeyRef: { name: 'cm-a' } } },
            ],
          },
        ],
        volumes: [
          { name: 'p2', persistentVolumeClaim: { claimName: 'pvc-2' } },
          { name: 'p1', persistentVolumeClaim: { claimName: 'pvc-1' } },
          { name: 'c', configMap: { name: 'cm-b' } },
          { name: 's', secret: { secretName: 'alpha' } },
        ],
      },
      deps: [cm('cm-a'), cm('cm-b'), secret('alpha'), secret('zeta'), sa('sa1'), pvc('pvc-1'), pvc('pvc-2')],
    },
    {
      name: 'malformed fields count as absent',
      podSpec: { containers: 'nope', volumes: [null, 3, { name: 'v', configMap: 'x' }], imagePullSecrets: {} },
      deps: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const template = templated('Deployment', c.podSpec);
      const before = cloneJson(template);
      assert.deepEqual(interpretDependencies(template), c.deps);
      assert.deepEqual(template, before, 'input not mutated');
    });
  }
});

describe('interpretDependencies: kinds', () => {
  const podSpec = UPSTREAM_POD_SPECS[0]!.podSpec;
  const all = UPSTREAM_POD_SPECS[0]!.deps;
  const cases: { name: string; template: KubeObject; deps: DependencyRef[] }[] = [
    { name: 'apps/v1 DaemonSet (getDaemonSetDependencies)', template: templated('DaemonSet', podSpec), deps: all },
    { name: 'batch/v1 Job (getJobDependencies)', template: templated('Job', podSpec, 'batch/v1'), deps: all },
    {
      name: 'batch/v1 CronJob reads spec.jobTemplate.spec.template (getCronJobDependencies)',
      template: workload(
        'CronJob',
        { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: podSpec } } } },
        'batch/v1',
      ),
      deps: all,
    },
    {
      name: 'CronJob spec.template (not a CronJob field) is ignored',
      template: workload('CronJob', { schedule: '* * * * *', template: { spec: podSpec } }, 'batch/v1'),
      deps: [],
    },
    {
      name: 'v1 Pod reads spec and its own namespace (getPodDependencies)',
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'pods' }, spec: podSpec },
      deps: [
        cm('test-configmap', 'pods'),
        secret('cloud-secret', 'pods'),
        sa('test-serviceaccount', 'pods'),
        pvc('test-pvc', 'pods'),
      ],
    },
    {
      name: 'apps/v1 StatefulSet without volumeClaimTemplates keeps its PVC volumes (upstream)',
      template: workload('StatefulSet', { serviceName: 's', template: { spec: podSpec } }),
      deps: all,
    },
    {
      name: 'StatefulSet: a PVC named like a volumeClaimTemplate is a placeholder, not a dependency (upstream "partial dependencies 4")',
      template: workload('StatefulSet', {
        serviceName: 's',
        template: { spec: podSpec },
        volumeClaimTemplates: [{ metadata: { name: 'test-pvc' } }],
      }),
      deps: all.slice(0, 3),
    },
    {
      name: 'StatefulSet: volumeClaimTemplates themselves are never dependencies; other PVCs stay',
      template: workload('StatefulSet', {
        serviceName: 's',
        template: { spec: { volumes: [{ name: 'shared', persistentVolumeClaim: { claimName: 'shared' } }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' } }],
      }),
      deps: [pvc('shared')],
    },
    {
      name: 'StatefulSet without template (upstream "without dependencies")',
      template: workload('StatefulSet', { serviceName: 's' }),
      deps: [],
    },
    {
      name: 'networking.k8s.io/v1 Ingress: spec.tls[].secretName (getIngressDependencies)',
      template: workload(
        'Ingress',
        { tls: [{ hosts: ['a'], secretName: 'tls-a' }, { secretName: 'tls-b' }, { secretName: 'tls-a' }] },
        'networking.k8s.io/v1',
      ),
      deps: [secret('tls-a'), secret('tls-b')],
    },
    {
      name: 'ReplicaSet has no dependency interpreter in Karmada',
      template: templated('ReplicaSet', podSpec),
      deps: [],
    },
    {
      name: 'the interpreter map is keyed by exact GVK: extensions/v1beta1 Deployment → none',
      template: templated('Deployment', podSpec, 'extensions/v1beta1'),
      deps: [],
    },
    { name: 'batch/v1beta1 CronJob → none', template: templated('CronJob', podSpec, 'batch/v1beta1'), deps: [] },
    {
      name: 'ServiceImport (label-selector dependency) is not interpreted here',
      template: {
        apiVersion: 'multicluster.x-k8s.io/v1alpha1',
        kind: 'ServiceImport',
        metadata: { name: 's', namespace: NS },
      },
      deps: [],
    },
    {
      name: 'ConfigMap → none',
      template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: NS } },
      deps: [],
    },
    {
      name: 'cluster-scoped/namespace-less template → namespace ""',
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { serviceAccountName: 'x' } },
      deps: [sa('x', '')],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(interpretDependencies(c.template), c.deps);
    });
  }

  it('Deployment (apps/v1) carries its namespace into every reference', () => {
    assert.deepEqual(interpretDependencies(templated('Deployment', podSpec)), all);
  });

  it('an Ingress TLS entry without secretName fails the interpretation (VerifyDependencies)', () => {
    const ingress = workload('Ingress', { tls: [{ secretName: 'ok' }, { hosts: ['h'] }] }, 'networking.k8s.io/v1');
    assert.throws(() => interpretDependencies(ingress), DependencyInterpretationError);
  });

  it('interpretsDependencies: true exactly for the kinds with a Karmada default hook', () => {
    const yes = [
      ['apps/v1', 'Deployment'],
      ['apps/v1', 'StatefulSet'],
      ['apps/v1', 'DaemonSet'],
      ['batch/v1', 'Job'],
      ['batch/v1', 'CronJob'],
      ['v1', 'Pod'],
      ['networking.k8s.io/v1', 'Ingress'],
    ];
    const no = [
      ['apps/v1', 'ReplicaSet'],
      ['v1', 'ConfigMap'],
      ['multicluster.x-k8s.io/v1alpha1', 'ServiceImport'],
      ['apps/v1beta1', 'Deployment'],
      ['v1', 'toString'],
    ];
    for (const [apiVersion, kind] of yes)
      assert.equal(interpretsDependencies({ apiVersion: apiVersion!, kind: kind! }), true, kind);
    for (const [apiVersion, kind] of no)
      assert.equal(interpretsDependencies({ apiVersion: apiVersion!, kind: kind! }), false, kind);
  });
});
