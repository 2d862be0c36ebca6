/**
 * Limits of a workload's replica (ours, not Karmada's interpreter: its bindings carry no limits), for
 * `limits.*` FederatedResourceQuota keys.
 */
import type { ResourceList } from '../model/types.ts';
import { podTemplateLimits } from './hooks/requirements.ts';
/**
 * The per-replica limits of a workload template (ours, not Karmada's: its bindings carry no limits),
 * for `limits.*` quota keys: the pod spec of a Pod, of `spec.template` (Deployment, ReplicaSet,
 * StatefulSet, DaemonSet, Job) or of a CronJob's job template. Undefined for other kinds, or when no
 * container sets a limit.
 */
export function replicaLimitsOf(template: {
  kind: string;
  apiVersion: string;
  spec?: unknown;
}): ResourceList | undefined {
  const spec = template.spec as Record<string, unknown> | undefined;
  if (!spec || typeof spec !== 'object') return undefined;
  const templateSpec = (t: unknown) => (t && typeof t === 'object' ? (t as { spec?: unknown }).spec : undefined);
  let podSpec: unknown;
  if (template.kind === 'Pod' && template.apiVersion === 'v1') podSpec = spec;
  else if (template.kind === 'CronJob') {
    const job = (spec['jobTemplate'] as { spec?: { template?: unknown } } | undefined)?.spec;
    podSpec = templateSpec(job?.template);
  } else if (['apps/v1', 'batch/v1'].includes(template.apiVersion)) podSpec = templateSpec(spec['template']);
  return podSpec === undefined ? undefined : podTemplateLimits(podSpec);
}
