/** Object factories for tests: small, valid objects with the fields a test cares about overridable. */
import type { KubeObject } from '../../lib/api/object.ts';

export function deployment(
  name: string,
  options: { namespace?: string; replicas?: number; labels?: Record<string, string>; image?: string } = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      ...(options.labels ? { labels: options.labels } : {}),
    },
    spec: {
      replicas: options.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: options.image ?? 'nginx:1.27' }] },
      },
    },
  };
}

export function configMap(name: string, data: Record<string, string>, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

export function cluster(name: string, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, labels },
    spec: { syncMode: 'Push', apiEndpoint: `https://${name}.example:6443` },
  };
}

export function work(clusterName: string, name: string): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: { name, namespace: `karmada-es-${clusterName}` },
    spec: { workload: { manifests: [] } },
  };
}

/**
 * The Work of the `default/nginx` Deployment on `cluster` as the executor reports it: at `generation`,
 * its Applied condition observed at `applied`, the Deployment's `health` in its manifest status (none
 * when undefined).
 */
export function reportedNginxWork(
  cluster: string,
  report: {
    generation?: number;
    applied?: number;
    appliedStatus?: string;
    health?: string;
    deletionTimestamp?: string;
  } = {},
): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: 'nginx-work',
      namespace: `karmada-es-${cluster}`,
      generation: report.generation ?? 2,
      ...(report.deletionTimestamp ? { deletionTimestamp: report.deletionTimestamp } : {}),
    },
    spec: {
      workload: {
        manifests: [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', namespace: 'default' } }],
      },
    },
    status: {
      conditions: [
        { type: 'Applied', status: report.appliedStatus ?? 'True', observedGeneration: report.applied ?? 2 },
      ],
      ...(report.health !== undefined
        ? {
            manifestStatuses: [
              {
                identifier: {
                  ordinal: 0,
                  group: 'apps',
                  version: 'v1',
                  kind: 'Deployment',
                  namespace: 'default',
                  name: 'nginx',
                },
                health: report.health,
              },
            ],
          }
        : {}),
    },
  };
}

/** Roughly 1 MiB of realistic, varied configuration text (compresses ~10x, like real configs). */
export function realisticConfigText(bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes; i++) {
    out +=
      `server_${i} {\n  listen ${8000 + (i % 1000)};\n  server_name svc-${i}.example.internal;\n` +
      `  location /api/v${i % 7}/ { proxy_pass http://backend-${i % 53}:${9000 + (i % 97)}; }\n` +
      `  # tuned ${(i * 7919) % 100003}\n}\n`;
  }
  return out.slice(0, bytes);
}

/** A namespaced CustomResourceDefinition serving one version (with a status subresource), any fields accepted. */
export function crd(group: string, kind: string, plural: string, version = 'v1'): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { plural, kind, singular: kind.toLowerCase() },
      scope: 'Namespaced',
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}
