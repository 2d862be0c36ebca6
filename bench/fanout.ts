/**
 * The fan-out the Works-to-members benches send: template `fan-<t>` (a ConfigMap in `bench`) as one
 * Work per member, each carrying its binding as the binder renders it (the batch's events go there).
 */
import type { KubeObject } from '../lib/api/object.ts';
import { executionNamespace } from '../lib/api/karmada-names.ts';
import { generateWorkName } from '../lib/core/work/index.ts';

/** The ResourceBinding a fan-out template's Works belong to. */
export function fanBinding(t: number): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: `fan-${t}-configmap`, namespace: 'bench' },
    spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'bench', name: `fan-${t}` } },
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
