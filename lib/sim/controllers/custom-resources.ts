/**
 * Custom resources of configured kinds (`crdStatus`, keyed `Kind.group`) get a status, once per
 * generation: e.g. a FlinkDeployment reports RUNNING, as its operator would on a real member. One
 * marked unhealthy reports its kind's failed state instead (failure-status.ts), re-asserted every
 * pass while the mark holds; when the mark is cleared it gets its healthy status back.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../api/object.ts';
import { deepEqual } from '../../util/json.ts';
import type { Obj, SimContext } from './context.ts';
import { failureRuleOf, showsFailure } from './failure-status.ts';
import { refOf, type UnhealthyWorkloads } from './unhealthy.ts';

/**
 * Gives custom resources of configured kinds their status, once per generation; fails the ones
 * marked unhealthy and restores the ones whose mark was cleared.
 */
export async function reportCustomResources(
  ctx: SimContext,
  crdKinds: { group: string; kind: string }[],
  crdStatus: Record<string, Record<string, unknown>>,
  unhealthy: UnhealthyWorkloads,
): Promise<void> {
  const marked = new Set(unhealthy.kindsEverMarked().map((gk) => `${gk.kind}.${gk.group}`));
  // A CRD serving several versions is listed once per version: one pass per kind.
  const kinds = new Map(crdKinds.map((gk) => [`${gk.kind}.${gk.group}`, gk]));
  for (const [key, gk] of kinds) {
    const template = crdStatus[key];
    if (!template && !marked.has(key)) continue;
    const rule = failureRuleOf(gk);
    for (const cr of await ctx.all(gk)) {
      const current = (cr.status ?? {}) as Obj;
      const filled = template ? (fillTemplate(template, cr) as Obj) : {};
      const reported = template ? { observedGeneration: cr.metadata.generation } : {};
      let next: Obj;
      if (unhealthy.has(refOf(cr))) {
        // One never reported fails from its healthy status (a Flink job fails with its job id).
        next = { ...rule.fail({ ...filled, ...current }), ...reported };
      } else if (showsFailure(rule, current)) {
        next = { ...rule.heal(current), ...filled, ...reported };
      } else if (template && current.observedGeneration !== cr.metadata.generation) {
        next = { ...current, ...filled, ...reported };
      } else {
        continue;
      }
      if (!deepEqual(next, current)) await ctx.status(cr, next, true);
    }
  }
}

/** A status template with `$uid` replaced by a stable id derived from the object (e.g. a job id). */
function fillTemplate(template: unknown, obj: KubeObject): unknown {
  if (template === '$uid')
    return createHash('md5')
      .update(obj.metadata.uid ?? '')
      .digest('hex');
  if (Array.isArray(template)) return template.map((t) => fillTemplate(t, obj));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, obj)]));
  }
  return template;
}
