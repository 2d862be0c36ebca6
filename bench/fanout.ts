/**
 * The fan-out the Works-to-members benches send: template `fan-<t>` (a ConfigMap in `bench`) as one
 * Work per member, each carrying its binding as the binder renders it (the batch's events go there).
 * The template and its binding exist as the pipeline would have left them, placed on every member, so
 * the status each Work reports is aggregated into the binding as it would be after a real change.
 */
import type { KubeObject } from '../lib/api/object.ts';
import { executionNamespace } from '../lib/api/karmada-names.ts';
import { generateWorkName } from '../lib/core/work/index.ts';

/** Fan-out template `t`, as a user created it. */
export function fanTemplate(t: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `fan-${t}`, namespace: 'bench' },
    data: { value: 'v1' },
  } as KubeObject;
}

/** The ResourceBinding a fan-out template's Works belong to, placed on `clusters`. */
export function fanBinding(t: number, clusters: readonly string[] = []): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: `fan-${t}-configmap`, namespace: 'bench' },
    spec: {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'bench', name: `fan-${t}` },
      clusters: clusters.map((name) => ({ name })),
    },
  } as KubeObject;
}

/** Template `t`'s Work for `cluster` (Abort: the executor may not adopt an object it did not make). */
export function fanWork(t: number, cluster: string): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: generateWorkName('ConfigMap', `fan-${t}`, 'bench'),
      namespace: executionNamespace(cluster),
      finalizers: ['karmada.io/execution-controller'],
      annotations: {
        'resourcebinding.karmada.io/namespace': 'bench',
        'resourcebinding.karmada.io/name': `fan-${t}-configmap`,
      },
    },
    spec: {
      workload: {
        manifests: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: `fan-${t}`,
              namespace: 'bench',
              labels: { 'karmada.io/managed': 'true' },
              annotations: { 'work.karmada.io/conflict-resolution': 'abort' },
            },
            data: { value: 'v1' },
          },
        ],
      },
    },
  } as KubeObject;
}
