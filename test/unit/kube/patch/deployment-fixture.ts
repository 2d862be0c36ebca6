/**
 * A Deployment schema carrying the strategic merge patch metadata Kubernetes publishes for apps/v1
 * (only the fields the tests touch), and factories for live objects shaped as the API server stores
 * them (defaults filled in), so the patches below are the ones kubectl really sends.
 */
import type { Schema } from '../../../../lib/kube/base/schema.ts';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const intOrString: Schema = { 'x-kubernetes-int-or-string': true };
const stringMap: Schema = { type: 'object', additionalProperties: str };
const strings: Schema = { type: 'array', items: str };

const objectMeta: Schema = {
  type: 'object',
  properties: {
    name: str,
    namespace: str,
    uid: str,
    resourceVersion: str,
    generation: int,
    labels: stringMap,
    annotations: stringMap,
    finalizers: { type: 'array', items: str, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' },
  },
};

const envVar: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: str,
    value: str,
    valueFrom: {
      type: 'object',
      properties: { secretKeyRef: { type: 'object', properties: { name: str, key: str } } },
    },
  },
};

const containerPort: Schema = {
  type: 'object',
  required: ['containerPort'],
  properties: { name: str, containerPort: int, protocol: str },
};

const volumeMount: Schema = {
  type: 'object',
  required: ['name', 'mountPath'],
  properties: { name: str, mountPath: str, readOnly: bool },
};

const container: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: str,
    image: str,
    imagePullPolicy: str,
    args: strings,
    env: {
      type: 'array',
      items: envVar,
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
    ports: {
      type: 'array',
      items: containerPort,
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    },
    volumeMounts: {
      type: 'array',
      items: volumeMount,
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'mountPath',
    },
    resources: {
      type: 'object',
      properties: {
        limits: { type: 'object', additionalProperties: intOrString },
        requests: { type: 'object', additionalProperties: intOrString },
      },
    },
    terminationMessagePath: str,
  },
};

const volume: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: str,
    emptyDir: { type: 'object', properties: { medium: str, sizeLimit: intOrString } },
    configMap: { type: 'object', properties: { name: str, defaultMode: int } },
    secret: { type: 'object', properties: { secretName: str, defaultMode: int } },
  },
};

const podSpec: Schema = {
  type: 'object',
  properties: {
    containers: {
      type: 'array',
      items: container,
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    },
    volumes: {
      type: 'array',
      items: volume,
      'x-kubernetes-patch-strategy': 'merge,retainKeys',
      'x-kubernetes-patch-merge-key': 'name',
    },
    nodeSelector: stringMap,
    tolerations: {
      type: 'array',
      items: { type: 'object', properties: { key: str, operator: str, value: str, effect: str } },
    },
    restartPolicy: str,
    securityContext: { type: 'object', properties: { runAsUser: int, runAsNonRoot: bool } },
  },
};

/** apps/v1 Deployment, with the patch strategies and merge keys of the real OpenAPI. */
export const deploymentSchema: Schema = {
  type: 'object',
  'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'Deployment' }],
  properties: {
    apiVersion: str,
    kind: str,
    metadata: objectMeta,
    spec: {
      type: 'object',
      properties: {
        replicas: int,
        selector: { type: 'object', properties: { matchLabels: stringMap } },
        template: { type: 'object', properties: { metadata: objectMeta, spec: podSpec } },
        strategy: {
          type: 'object',
          'x-kubernetes-patch-strategy': 'retainKeys',
          properties: {
            type: str,
            rollingUpdate: { type: 'object', properties: { maxSurge: intOrString, maxUnavailable: intOrString } },
          },
        },
        revisionHistoryLimit: int,
      },
    },
    status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

type Json = Record<string, unknown>;

/** A container as the API server stores it: defaults filled in. */
export function liveContainer(name: string, fields: Json = {}): Json {
  return {
    name,
    image: `${name}:1.0`,
    imagePullPolicy: 'IfNotPresent',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    ...fields,
  };
}

/** A Deployment as the API server stores it; `podSpec` fields override the template's pod spec. */
export function liveDeployment(podSpec: Json = {}, metadata: Json = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'd7a1', resourceVersion: '41', generation: 3, ...metadata },
    spec: {
      replicas: 2,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [liveContainer('web')], restartPolicy: 'Always', securityContext: {}, ...podSpec },
      },
    },
    status: { observedGeneration: 3, replicas: 2 },
  };
}

/** Wraps a pod spec patch the way kubectl nests it under a Deployment. */
export function podSpecPatch(spec: Json): Json {
  return { spec: { template: { spec } } };
}

/** Reads `spec.template.spec` of a patched Deployment. */
export function podSpecOf(deployment: unknown): Json {
  return (deployment as { spec: { template: { spec: Json } } }).spec.template.spec;
}

/** Freezes a value deeply, so a test fails if the code under test writes to its inputs. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
