/**
 * What `skctl sim unhealthy|healthy` names: `<kind>/<name>` as kubectl reads it (`deploy/web`,
 * `Deployment/web`, `sts/db`, `flinkdeployments.flink.apache.org/job`), resolved against the kinds a
 * member serves. Pure: outcomes are values, the control channel turns them into 400 and 404 answers.
 */
import type { ResourceDef } from '../kube/catalog/resources.ts';
import { resolveResourceName } from '../kube/catalog/resolve-name.ts';
import type { WorkloadRef } from './controllers/index.ts';
import { isDNS1123Subdomain } from '../util/validation.ts';

/** The built-in kinds whose pods can be made to crash (any custom kind can be failed too). */
const BUILT_IN_WORKLOADS: readonly { group: string; kind: string }[] = [
  { group: 'apps', kind: 'Deployment' },
  { group: 'apps', kind: 'ReplicaSet' },
  { group: 'apps', kind: 'StatefulSet' },
  { group: 'apps', kind: 'DaemonSet' },
  { group: 'batch', kind: 'Job' },
  { group: '', kind: 'Pod' },
];

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Splits `<kind>/<name>`; refuses anything else with a reason a person can act on. */
export function parseWorkloadTarget(text: string): Parsed<{ kind: string; name: string }> {
  const parts = text.split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1])
    return {
      ok: false,
      reason: `name the workload as <kind>/<name>, e.g. deployment/web or flinkdeployment/job, got ${JSON.stringify(text)}`,
    };
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(parts[0]))
    return { ok: false, reason: `${JSON.stringify(parts[0])} is not a kind, resource or short name` };
  if (isDNS1123Subdomain(parts[1]).length > 0)
    return {
      ok: false,
      reason: `${JSON.stringify(parts[1])} is not an object name (lower-case letters, digits, '-' and '.', at most 253 characters)`,
    };
  return { ok: true, value: { kind: parts[0], name: parts[1] } };
}

export type KindResolution =
  | { code: 'Resolved'; group: string; kind: string; namespaced: boolean }
  /** No served resource goes by that name. */
  | { code: 'UnknownKind'; reason: string }
  /** A built-in kind that has no pods (a Service, a ConfigMap, ...). */
  | { code: 'NotAWorkload'; reason: string };

/**
 * Resolves a kind as kubectl does: plural, singular, short name or kind (any case), optionally
 * qualified with `.group` or `.version.group`; built-in kinds come first in `defs`, so `job` is a
 * batch Job and a Volcano Job is `jobs.batch.volcano.sh`.
 */
export function resolveWorkloadKind(defs: readonly ResourceDef[], text: string): KindResolution {
  const def = resolveResourceName(defs, text, (d) => d);
  if (!def)
    return {
      code: 'UnknownKind',
      reason: `the member doesn't serve a resource type ${JSON.stringify(text)} (a custom kind needs its CRD applied to the member first)`,
    };
  const builtIn = def.origin === 'built-in';
  if (builtIn && !BUILT_IN_WORKLOADS.some((w) => w.group === def.group && w.kind === def.kind))
    return {
      code: 'NotAWorkload',
      reason: `${def.kind} has no pods to make unhealthy; use a Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, Pod or a custom resource`,
    };
  return { code: 'Resolved', group: def.group, kind: def.kind, namespaced: def.namespaced };
}

/** `deployment.apps/web -n default`: a ref as the CLI prints it. */
export function describeWorkload(ref: WorkloadRef): string {
  const resource = `${ref.kind.toLowerCase()}${ref.group ? `.${ref.group}` : ''}/${ref.name}`;
  return ref.namespace ? `${resource} -n ${ref.namespace}` : resource;
}
