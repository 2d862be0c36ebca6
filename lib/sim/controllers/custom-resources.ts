/**
 * Custom resources of configured kinds (`crdStatus`, keyed `Kind.group`) get a status, once per
 * generation: e.g. a FlinkDeployment reports RUNNING, as its operator would on a real member.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../api/object.ts';
import type { Obj, SimContext } from './context.ts';

/** Gives custom resources of configured kinds their status, once per generation. */
export async function reportCustomResources(
  ctx: SimContext,
  crdKinds: { group: string; kind: string }[],
  crdStatus: Record<string, Record<string, unknown>>,
): Promise<void> {
  for (const gk of crdKinds) {
    const template = crdStatus[`${gk.kind}.${gk.group}`];
    if (!template) continue;
    for (const cr of await ctx.all(gk)) {
      const current = (cr.status ?? {}) as Obj;
      if (current.observedGeneration === cr.metadata.generation) continue;
      const filled = fillTemplate(template, cr) as Obj;
      await ctx.status(cr, { ...current, ...filled, observedGeneration: cr.metadata.generation }, true);
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
