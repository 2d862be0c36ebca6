/**
 * The member's scheduler: binds pending pods to Ready, schedulable nodes with room for their requests
 * (first fit, `nodeSelector` honoured), and marks a pod that fits nowhere Unschedulable with the
 * scheduler's message, so ready replicas are bounded by node capacity.
 */
import type { KubeObject } from '../../api/object.ts';
import { quantityAsNumber } from '../../api/quantity.ts';
import { rfc3339 } from '../../api/time.ts';
import { active, conditionTrue, field, type Obj, type SimContext } from './context.ts';

interface NodeState {
  node: KubeObject;
  free: Record<string, number>;
}

/** Resource requests of one pod (containers summed, init containers max-merged, plus one pod slot). */
function podRequests(spec: Obj | undefined): Record<string, number> {
  const sum: Record<string, number> = {};
  const requestsOf = (c: Obj) =>
    (field(c, 'resources', 'requests') as Record<string, string | number> | undefined) ?? {};
  for (const c of (spec?.containers as Obj[] | undefined) ?? []) {
    for (const [k, v] of Object.entries(requestsOf(c))) sum[k] = (sum[k] ?? 0) + quantityAsNumber(v);
  }
  for (const c of (spec?.initContainers as Obj[] | undefined) ?? []) {
    for (const [k, v] of Object.entries(requestsOf(c))) sum[k] = Math.max(sum[k] ?? 0, quantityAsNumber(v));
  }
  sum.pods = 1;
  return sum;
}

/** Binds pending pods to nodes with room (first fit), or records why none fits. */
export async function schedule(
  ctx: SimContext,
  pods: KubeObject[],
  nodes: KubeObject[],
  now: number,
): Promise<KubeObject[]> {
  const ready = nodes.filter((n) => conditionTrue(n, 'Ready') && !field(n, 'spec', 'unschedulable'));
  const states: NodeState[] = ready.map((node) => {
    const free: Record<string, number> = {};
    for (const [k, v] of Object.entries(
      (field(node, 'status', 'allocatable') as Record<string, string> | undefined) ?? {},
    ))
      free[k] = quantityAsNumber(v);
    return { node, free };
  });
  const fits = (need: Record<string, number>, s: NodeState) =>
    Object.entries(need).every(([k, v]) => v <= 0 || (s.free[k] ?? 0) >= v - 1e-9);
  const take = (need: Record<string, number>, s: NodeState) => {
    for (const [k, v] of Object.entries(need)) s.free[k] = (s.free[k] ?? 0) - v;
  };
  const out = new Map(pods.map((p) => [p.metadata.uid, p]));
  for (const p of pods) {
    const nodeName = field(p, 'spec', 'nodeName');
    if (nodeName && active(p)) {
      const s = states.find((x) => x.node.metadata.name === nodeName);
      if (s) take(podRequests(p.spec as Obj), s);
      // Bound at creation (DaemonSet pods, spec.nodeName): the node admits it as scheduled.
      const scheduled = ((field(p, 'status', 'conditions') as Obj[] | undefined) ?? []).some(
        (c) => c.type === 'PodScheduled',
      );
      if (!scheduled && s) {
        const admitted = await ctx.status(p, {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: rfc3339(now) }],
        });
        if (admitted) out.set(admitted.metadata.uid, admitted);
        ctx.due(now + ctx.timings.podStartupMs);
      }
    }
  }
  const pending = pods
    .filter((p) => active(p) && !field(p, 'spec', 'nodeName'))
    .sort(
      (a, b) =>
        String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)) ||
        a.metadata.name!.localeCompare(b.metadata.name!),
    );
  for (const pod of pending) {
    const need = podRequests(pod.spec as Obj);
    const selector = (field(pod, 'spec', 'nodeSelector') as Record<string, string> | undefined) ?? {};
    const candidates = states.filter((s) =>
      Object.entries(selector).every(([k, v]) => s.node.metadata.labels?.[k] === v),
    );
    const target = candidates.find((s) => fits(need, s));
    if (target) {
      take(need, target);
      const bound = await ctx.update(pod, (p) => {
        (p.spec as Obj).nodeName = target.node.metadata.name;
      });
      if (bound) {
        const scheduled = await ctx.status(bound, {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: rfc3339(now) }],
          qosClass: Object.keys(need).length > 1 ? 'Burstable' : 'BestEffort',
        });
        if (scheduled) out.set(scheduled.metadata.uid, scheduled);
        await ctx
          .events('default-scheduler')
          .record(
            bound,
            'Normal',
            'Scheduled',
            `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${target.node.metadata.name}`,
          );
      }
      ctx.due(now + ctx.timings.podStartupMs);
    } else {
      const message = unschedulableMessage(need, candidates.length ? candidates : states, nodes.length);
      const current = ((field(pod, 'status', 'conditions') as Obj[] | undefined) ?? []).find(
        (c) => c.type === 'PodScheduled',
      );
      if (current?.message !== message) {
        const updated = await ctx.status(pod, {
          phase: 'Pending',
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message,
              lastTransitionTime: rfc3339(now),
            },
          ],
        });
        if (updated) out.set(updated.metadata.uid, updated);
        await ctx.events('default-scheduler').record(pod, 'Warning', 'FailedScheduling', message);
      }
    }
  }
  return [...out.values()];
}

/** The scheduler's explanation, e.g. `0/3 nodes are available: 3 Insufficient cpu.` */
function unschedulableMessage(need: Record<string, number>, nodes: NodeState[], total: number): string {
  if (total === 0) return 'no nodes available to schedule pods';
  const reasons = new Map<string, number>();
  for (const s of nodes) {
    for (const [k, v] of Object.entries(need)) {
      if (v > 0 && (s.free[k] ?? 0) < v - 1e-9)
        reasons.set(
          k === 'pods' ? 'Too many pods' : `Insufficient ${k}`,
          (reasons.get(k === 'pods' ? 'Too many pods' : `Insufficient ${k}`) ?? 0) + 1,
        );
    }
  }
  const notReady = total - nodes.length;
  const parts = [...reasons].sort().map(([r, n]) => `${n} ${r}`);
  if (notReady > 0) parts.push(`${notReady} node(s) had untolerated taint or were not ready`);
  return `0/${total} nodes are available: ${parts.join(', ')}. preemption: not eligible due to preemptionPolicy=Never.`;
}
