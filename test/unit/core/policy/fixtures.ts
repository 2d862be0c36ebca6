/** Small builders for the policy-selection tests. */
import { CPP_PERMANENT_ID_LABEL, PP_PERMANENT_ID_LABEL } from '../../../../lib/api/well-known.ts';
import type {
  KubeObject,
  PropagationPolicy,
  PropagationSpec,
  ResourceSelector,
} from '../../../../lib/core/model/types.ts';

/** An `apps/v1` Deployment (or another kind) in `default` unless `namespace` says otherwise (`''`: cluster-scoped). */
export function template(
  name: string,
  opts: { namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> } & Partial<
    Pick<KubeObject, 'apiVersion' | 'kind'>
  > = {},
): KubeObject {
  const namespace = opts.namespace ?? 'default';
  return {
    apiVersion: opts.apiVersion ?? 'apps/v1',
    kind: opts.kind ?? 'Deployment',
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      ...(opts.labels ? { labels: opts.labels } : {}),
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
    },
  };
}

/** A selector for `apps/v1` Deployments, with the given extra fields. */
export function sel(fields: Partial<ResourceSelector> = {}): ResourceSelector {
  return { apiVersion: 'apps/v1', kind: 'Deployment', ...fields };
}

interface PolicyOpts extends Partial<PropagationSpec> {
  namespace?: string;
  id?: string;
  deleting?: boolean;
}

function policy(kind: PropagationPolicy['kind'], name: string, opts: PolicyOpts): PropagationPolicy {
  const { namespace, id, deleting, resourceSelectors, ...spec } = opts;
  const idLabel = kind === 'PropagationPolicy' ? PP_PERMANENT_ID_LABEL : CPP_PERMANENT_ID_LABEL;
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind,
    metadata: {
      name,
      ...(kind === 'PropagationPolicy' ? { namespace: namespace ?? 'default' } : {}),
      labels: { [idLabel]: id ?? `${name}-id` },
      ...(deleting ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec: { resourceSelectors: resourceSelectors ?? [sel()], ...spec },
  };
}

/** A PropagationPolicy in `default` (permanent id `<name>-id`) selecting all Deployments unless told. */
export const pp = (name: string, opts: PolicyOpts = {}) => policy('PropagationPolicy', name, opts);
/** A ClusterPropagationPolicy (permanent id `<name>-id`) selecting all Deployments unless told. */
export const cpp = (name: string, opts: PolicyOpts = {}) => policy('ClusterPropagationPolicy', name, opts);
