/**
 * Small schemas in the shape Kubernetes publishes them, and object factories, for the apply tests.
 *
 * `deploymentSchema` is an apps/v1 Deployment cut down to the fields the tests touch, with the
 * extensions the real OpenAPI v3 document carries: strategic-merge-patch keys on containers, ports
 * and env (no list-type, so the merge key is the map key), an atomic LabelSelector, atomic lists,
 * and `default: {}` on the non-pointer structs. `widgetSchema` is a CRD schema using
 * `x-kubernetes-list-type: map` with two keys (one defaulted), a set, an atomic map and a
 * preserve-unknown-fields object.
 */
import type { KubeObject } from '../../../../lib/api/object.ts';
import type { Schema } from '../../../../lib/kube/base/schema.ts';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const intOrString: Schema = { 'x-kubernetes-int-or-string': true };
const stringMap: Schema = { type: 'object', additionalProperties: str };

const container: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: str,
    image: str,
    imagePullPolicy: str,
    args: { type: 'array', items: str },
    ports: {
      type: 'array',
      items: {
        type: 'object',
        required: ['containerPort'],
        properties: { containerPort: int, name: str, protocol: { type: 'string', default: 'TCP' } },
      },
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-patch-strategy': 'merge',
    },
    env: {
      type: 'array',
      items: { type: 'object', required: ['name'], properties: { name: str, value: str } },
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    },
    resources: {
      type: 'object',
      default: {},
      properties: { limits: { type: 'object', additionalProperties: intOrString } },
    },
    terminationMessagePath: str,
  },
};

const podSpec: Schema = {
  type: 'object',
  required: ['containers'],
  properties: {
    containers: {
      type: 'array',
      items: container,
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    },
    restartPolicy: str,
    dnsPolicy: str,
    securityContext: { type: 'object', properties: { runAsUser: int } },
    tolerations: {
      type: 'array',
      items: { type: 'object', properties: { key: str, operator: str, effect: str } },
      'x-kubernetes-list-type': 'atomic',
    },
  },
};

/** apps/v1 Deployment (excerpt). */
export const deploymentSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object', default: {} },
    spec: {
      type: 'object',
      default: {},
      required: ['selector', 'template'],
      properties: {
        replicas: int,
        paused: { type: 'boolean' },
        progressDeadlineSeconds: int,
        revisionHistoryLimit: int,
        selector: {
          type: 'object',
          'x-kubernetes-map-type': 'atomic',
          properties: { matchLabels: stringMap },
        },
        strategy: {
          type: 'object',
          default: {},
          properties: {
            type: str,
            rollingUpdate: { type: 'object', properties: { maxSurge: intOrString, maxUnavailable: intOrString } },
          },
        },
        template: {
          type: 'object',
          default: {},
          properties: {
            metadata: { type: 'object', default: {}, properties: { labels: stringMap, annotations: stringMap } },
            spec: { ...podSpec, default: {} },
          },
        },
      },
    },
    status: {
      type: 'object',
      default: {},
      properties: { replicas: int, readyReplicas: int, observedGeneration: int },
    },
  },
};

/** A custom resource (`example.com/v1` Widget) with SSA list/map extensions. */
export const widgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        size: int,
        endpoints: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: {
            type: 'object',
            required: ['port'],
            properties: { port: int, protocol: { type: 'string', default: 'TCP' }, host: str },
          },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
        args: { type: 'array', items: str },
        settings: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: str },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { phase: str } },
  },
};

/** A request time; `later(n)` is n seconds after it. */
export const T0 = '2024-05-01T10:00:00Z';

/** `T0` plus `seconds`, as RFC 3339. */
export function later(seconds: number): string {
  return new Date(Date.parse(T0) + seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** Options of {@link deploymentConfig}. */
export interface DeploymentOptions {
  replicas?: number;
  image?: string;
  labels?: Record<string, string>;
  ports?: Record<string, unknown>[];
  containers?: Record<string, unknown>[];
}

/** What `kubectl apply --server-side -f nginx.yaml` sends for a small Deployment. */
export function deploymentConfig(options: DeploymentOptions = {}): KubeObject {
  const spec: Record<string, unknown> = {
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: {
        containers: options.containers ?? [
          {
            name: 'nginx',
            image: options.image ?? 'nginx:1.25',
            ...(options.ports ? { ports: options.ports } : {}),
          },
        ],
      },
    },
  };
  if (options.replicas !== undefined) spec.replicas = options.replicas;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', labels: options.labels ?? { app: 'nginx' } },
    spec,
  };
}

/** What the store adds to a created object: identity and version metadata, and a status. */
export function stored(obj: KubeObject, resourceVersion = '1'): KubeObject {
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      uid: '6f1c2b0e-1111-4222-8333-444455556666',
      resourceVersion,
      generation: 1,
      creationTimestamp: T0,
    },
  };
}

/** A Widget apply configuration. */
export function widgetConfig(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec };
}

/** Reads a value at a dotted path (numeric segments index lists). */
export function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], obj);
}
