/**
 * The member's kubelets: a scheduled pod starts (Running and Ready) `podStartupMs` after it was
 * scheduled; a Job's pod succeeds `jobDurationMs` after it started.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import { field, type Obj, phaseOf, type SimContext } from './context.ts';

/** Starts scheduled pods, finishes Job pods. */
export async function progress(ctx: SimContext, pods: KubeObject[], now: number): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const pod of pods) {
    let current = pod;
    const phase = phaseOf(pod);
    const scheduledAt = Date.parse(
      String(
        ((field(pod, 'status', 'conditions') as Obj[] | undefined) ?? []).find(
          (c) => c.type === 'PodScheduled' && c.status === 'True',
        )?.lastTransitionTime ?? '',
      ),
    );
    if (phase === 'Pending' && field(pod, 'spec', 'nodeName') && !Number.isNaN(scheduledAt)) {
      const at = scheduledAt + ctx.timings.podStartupMs;
      if (now >= at) current = (await ctx.status(pod, runningStatus(pod, now))) ?? pod;
      else ctx.due(at);
    } else if (phase === 'Running' && isJobPod(pod)) {
      const started = Date.parse(String(field(pod, 'status', 'startTime') ?? ''));
      const at = started + ctx.timings.jobDurationMs;
      if (now >= at) current = (await ctx.status(pod, succeededStatus(pod, now))) ?? pod;
      else ctx.due(at);
    }
    out.push(current);
  }
  return out;
}

function isJobPod(pod: KubeObject): boolean {
  return (pod.metadata.ownerReferences ?? []).some((r) => r.kind === 'Job');
}

function containerStatuses(pod: KubeObject, state: Obj, ready: boolean): Obj[] {
  return ((field(pod, 'spec', 'containers') as Obj[] | undefined) ?? []).map((c) => ({
    name: c.name,
    image: c.image,
    imageID: `docker-pullable://${String(c.image)}`,
    ready,
    started: ready,
    restartCount: 0,
    state,
  }));
}

function podIp(pod: KubeObject): string {
  const h = createHash('sha1')
    .update(pod.metadata.uid ?? pod.metadata.name!)
    .digest();
  return `10.244.${h[0]}.${(h[1]! % 254) + 1}`;
}

function runningStatus(pod: KubeObject, now: number): Obj {
  const t = rfc3339(now);
  return {
    phase: 'Running',
    startTime: t,
    podIP: podIp(pod),
    podIPs: [{ ip: podIp(pod) }],
    hostIP: '192.168.0.10',
    conditions: [
      ...((field(pod, 'status', 'conditions') as Obj[] | undefined) ?? []).filter((c) => c.type === 'PodScheduled'),
      { type: 'Initialized', status: 'True', lastTransitionTime: t },
      { type: 'ContainersReady', status: 'True', lastTransitionTime: t },
      { type: 'Ready', status: 'True', lastTransitionTime: t },
    ],
    containerStatuses: containerStatuses(pod, { running: { startedAt: t } }, true),
  };
}

function succeededStatus(pod: KubeObject, now: number): Obj {
  const t = rfc3339(now);
  return {
    phase: 'Succeeded',
    conditions: [
      ...((field(pod, 'status', 'conditions') as Obj[] | undefined) ?? []).filter(
        (c) => c.type !== 'Ready' && c.type !== 'ContainersReady',
      ),
      { type: 'ContainersReady', status: 'False', reason: 'PodCompleted', lastTransitionTime: t },
      { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: t },
    ],
    containerStatuses: containerStatuses(
      pod,
      { terminated: { exitCode: 0, reason: 'Completed', finishedAt: t } },
      false,
    ),
  };
}
