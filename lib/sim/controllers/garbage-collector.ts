/** The member's garbage collector: pods whose controller is gone are deleted. */
import type { KubeObject } from '../../api/object.ts';
import type { SimContext } from './context.ts';

/** Deletes the pods whose controlling workload is gone or being deleted; returns the pods that remain. */
export async function collectOrphanPods(
  ctx: SimContext,
  pods: KubeObject[],
  workloads: KubeObject[],
): Promise<KubeObject[]> {
  const owners = new Set(workloads.filter((w) => !w.metadata.deletionTimestamp).map((w) => w.metadata.uid));
  for (const pod of pods) {
    const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
    if (ref && !owners.has(ref.uid)) await ctx.delete(pod);
  }
  return pods.filter((p) => {
    const ref = (p.metadata.ownerReferences ?? []).find((r) => r.controller);
    return !ref || owners.has(ref.uid);
  });
}
