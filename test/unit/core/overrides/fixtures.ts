/** Builders for override-engine tests: Karmada-shaped objects as the API returns them. */
import type { Cluster, KubeObject } from '../../../../lib/core/model/types.ts';
import type {
  OverridePolicy,
  OverrideSpec,
  Overriders,
  PolicyOverriders,
} from '../../../../lib/core/overrides/index.ts';

export function cluster(
  name: string,
  labels: Record<string, string> = {},
  spec: Record<string, unknown> = {},
): Cluster {
  return { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name, labels }, spec } as Cluster;
}

export function op(name: string, spec: OverrideSpec, namespace = 'default'): OverridePolicy {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name, namespace }, spec };
}

export function cop(name: string, spec: OverrideSpec): OverridePolicy {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterOverridePolicy', metadata: { name }, spec };
}

/** One OverridePolicy rule for all clusters, as `applyOverrides` takes it. */
export function rule(overriders: Overriders, name = 'test'): PolicyOverriders {
  return { policy: { kind: 'OverridePolicy', name, namespace: 'default' }, rule: 0, overriders };
}

/** Karmada's `generateDeploymentYaml` (imageoverride_test.go). */
export function deployment(images: string[] = ['fictional.registry.example/imagename:v1.0.0']): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: images.map((image) => ({ image, name: 'nginx' })) },
      },
    },
  };
}

/** A workload of `kind` with the pod template at `spec.template.spec` (ReplicaSet, DaemonSet, ...). */
export function workload(kind: string, podSpec: Record<string, unknown>, apiVersion = 'apps/v1'): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: { name: 'w', namespace: 'default' },
    spec: { template: { spec: podSpec } },
  };
}

/** Karmada's `generateJobYaml`. */
export function job(image = 'perl:5.34.0'): KubeObject {
  return workload('Job', { containers: [{ image, name: 'perl' }] }, 'batch/v1');
}

/** Karmada's `generatePodYaml`. */
export function pod(
  image = 'fictional.registry.example/imagename:v1.0.0',
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
    spec: { containers: [{ image, name: 'nginx' }], ...extra },
  };
}

/** The images of a workload's (or pod's) containers. */
export function images(obj: KubeObject, field = 'containers'): unknown[] {
  const list = dig(obj, obj.kind === 'Pod' ? `spec.${field}` : `spec.template.spec.${field}`);
  return ((list ?? []) as { image?: unknown }[]).map((c) => c.image);
}

/** The value at a dotted path (`spec.template.spec.containers.0.image`), undefined when absent. */
export function dig(obj: unknown, path: string): unknown {
  let node = obj;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
