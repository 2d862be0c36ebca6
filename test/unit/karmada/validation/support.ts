/** Factories and helpers shared by the Karmada admission tests. */
import type { KubeObject, ObjectMeta } from '../../../../lib/api/object.ts';
import { type FieldError, formatFieldError } from '../../../../lib/kube/base/field-errors.ts';
import { CPP_PERMANENT_ID_LABEL, PP_PERMANENT_ID_LABEL } from '../../../../lib/api/well-known.ts';
import { type KarmadaDefaultingContext } from '../../../../lib/karmada/validation/index.ts';

/** Errors as the API server prints them: `field: Type: value: detail`. */
export function messages(errors: FieldError[]): string[] {
  return errors.map(formatFieldError);
}

/** A defaulting context with predictable uids and a frozen clock. */
export function context(operation: 'CREATE' | 'UPDATE' = 'CREATE'): KarmadaDefaultingContext {
  let n = 0;
  return { newUid: () => `uid-${++n}`, now: '2025-09-01T00:00:00.123Z', operation };
}

/** A PropagationPolicy as the mutating webhook leaves it (permanent-id set), with `spec` merged in. */
export function propagationPolicy(spec: Record<string, unknown> = {}, metadata: ObjectMeta = {}): KubeObject {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'nginx-pp', namespace: 'default', labels: { [PP_PERMANENT_ID_LABEL]: 'pp-id' }, ...metadata },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' }],
      placement: { clusterAffinity: { clusterNames: ['member1'] } },
      ...spec,
    },
  };
}

/** A ClusterPropagationPolicy with its permanent-id label. */
export function clusterPropagationPolicy(spec: Record<string, unknown> = {}, metadata: ObjectMeta = {}): KubeObject {
  return {
    ...propagationPolicy(spec),
    kind: 'ClusterPropagationPolicy',
    metadata: { name: 'cpp', labels: { [CPP_PERMANENT_ID_LABEL]: 'cpp-id' }, ...metadata },
  };
}

/** An OverridePolicy with `spec` merged in. */
export function overridePolicy(spec: Record<string, unknown> = {}, kind = 'OverridePolicy'): KubeObject {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind,
    metadata: { name: 'nginx-op', ...(kind === 'OverridePolicy' ? { namespace: 'default' } : {}) },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }], ...spec },
  };
}

/** One override rule targeting member1 with the given overriders. */
export function rule(overriders: Record<string, unknown>, targetCluster: unknown = { clusterNames: ['member1'] }) {
  return { targetCluster, overriders };
}

/** A FederatedResourceQuota with `spec` (and optionally `status`). */
export function federatedResourceQuota(spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { name: 'team-a', namespace: 'team-a' },
    spec,
    ...(status ? { status } : {}),
  };
}

/** A Push cluster with `spec` merged in. */
export function cluster(spec: Record<string, unknown> = {}, name = 'member1'): KubeObject {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode: 'Push', apiEndpoint: 'https://10.0.0.1:6443', ...spec },
  };
}

/** A resource model grade over cpu and memory: `[min, max]` for each. */
export function grade(n: number, cpu: [string, string], memory: [string, string]) {
  return {
    grade: n,
    ranges: [
      { name: 'cpu', min: cpu[0], max: cpu[1] },
      { name: 'memory', min: memory[0], max: memory[1] },
    ],
  };
}

/** A Work in member1's execution namespace carrying `manifests`. */
export function work(manifests: unknown[], labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: { name: 'nginx-687f7fb96f', namespace: 'karmada-es-member1', labels },
    spec: { workload: { manifests } },
  };
}
