/**
 * The member's kubelets: a scheduled pod starts (Running and Ready) `podStartupMs` after it was
 * scheduled; a Job's pod succeeds `jobDurationMs` after it started. A pod of a workload marked
 * unhealthy crash-loops instead: Running, its containers waiting in CrashLoopBackOff, not Ready (and a
 * Job's pod does not succeed); once the mark is cleared its containers restart and it is Ready again.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import { field, type Obj, phaseOf, type SimContext } from './context.ts';

/** Starts scheduled pods, finishes Job pods, crash-loops the pods `crashing` names and restarts them after. */
export async function progress(
  ctx: SimContext,
  pods: KubeObject[],
  now: number,
  crashing: (pod: KubeObject) => boolean = () => false,
): Promise<KubeObject[]> {
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
      if (now >= at)
        current = (await ctx.status(pod, crashing(pod) ? crashLoopStatus(pod, now) : runningStatus(pod, now))) ?? pod;
      else ctx.due(at);
    } else if (phase === 'Running' && !pod.metadata.deletionTimestamp && crashing(pod) !== crashLooping(pod)) {
      // Marked unhealthy while running, or the mark was cleared: the containers crash, or restart.
      current = (await ctx.status(pod, crashing(pod) ? crashLoopStatus(pod, now) : restartedStatus(pod, now))) ?? pod;
    } else if (phase === 'Running' && isJobPod(pod) && !crashing(pod)) {
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

function previousContainerStatuses(pod: KubeObject): Obj[] {
  return (field(pod, 'status', 'containerStatuses') as Obj[] | undefined) ?? [];
}

/** A pod whose containers wait in CrashLoopBackOff (only the simulated crash puts them there). */
function crashLooping(pod: KubeObject): boolean {
  return previousContainerStatuses(pod).some((c) => field(c, 'state', 'waiting', 'reason') === 'CrashLoopBackOff');
}

function containerStatuses(
  pod: KubeObject,
  state: (container: Obj) => Obj,
  ready: boolean,
  restarts: (previous: Obj | undefined) => Partial<Obj> = () => ({ restartCount: 0 }),
): Obj[] {
  const previous = previousContainerStatuses(pod);
  return ((field(pod, 'spec', 'containers') as Obj[] | undefined) ?? []).map((c) => ({
    name: c.name,
    image: c.image,
    imageID: `docker-pullable://${String(c.image)}`,
    ready,
    started: ready,
    ...restarts(previous.find((p) => p.name === c.name)),
    state: state(c),
  }));
}

function podIp(pod: KubeObject): string {
  const h = createHash('sha1')
    .update(pod.metadata.uid ?? pod.metadata.name!)
    .digest();
  return `10.244.${h[0]}.${(h[1]! % 254) + 1}`;
}

/** The conditions of a running pod: scheduled and initialized kept, readiness as given. */
function runningConditions(pod: KubeObject, t: string, notReady: Obj | undefined): Obj[] {
  const previous = (field(pod, 'status', 'conditions') as Obj[] | undefined) ?? [];
  const since = (type: string, status: string) => {
    const old = previous.find((c) => c.type === type);
    return old?.status === status && old.lastTransitionTime ? String(old.lastTransitionTime) : t;
  };
  const readiness = notReady ? { status: 'False', ...notReady } : { status: 'True' };
  return [
    ...previous.filter((c) => c.type === 'PodScheduled'),
    { type: 'Initialized', status: 'True', lastTransitionTime: since('Initialized', 'True') },
    { type: 'ContainersReady', ...readiness, lastTransitionTime: since('ContainersReady', readiness.status) },
    { type: 'Ready', ...readiness, lastTransitionTime: since('Ready', readiness.status) },
  ];
}

function runningStatus(pod: KubeObject, now: number): Obj {
  const t = rfc3339(now);
  return {
    phase: 'Running',
    startTime: t,
    podIP: podIp(pod),
    podIPs: [{ ip: podIp(pod) }],
    hostIP: '192.168.0.10',
    conditions: runningConditions(pod, t, undefined),
    containerStatuses: containerStatuses(pod, () => ({ running: { startedAt: t } }), true),
  };
}

/** Running, but every container exited with an error and waits to be restarted. */
function crashLoopStatus(pod: KubeObject, now: number): Obj {
  const t = rfc3339(now);
  const names = ((field(pod, 'spec', 'containers') as Obj[] | undefined) ?? []).map((c) => String(c.name));
  return {
    phase: 'Running',
    startTime: field(pod, 'status', 'startTime') ?? t,
    podIP: podIp(pod),
    podIPs: [{ ip: podIp(pod) }],
    hostIP: '192.168.0.10',
    conditions: runningConditions(pod, t, {
      reason: 'ContainersNotReady',
      message: `containers with unready status: [${names.join(' ')}]`,
    }),
    containerStatuses: containerStatuses(
      pod,
      (c) => ({
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 10s restarting failed container=${String(c.name)} pod=${pod.metadata.name} (simulated)`,
        },
      }),
      false,
      (previous) => ({
        restartCount: Number(previous?.restartCount ?? 0) + 1,
        lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: t } },
      }),
    ),
  };
}

/** Back from a crash loop: the containers restarted and are Ready; the restart count stays. */
function restartedStatus(pod: KubeObject, now: number): Obj {
  const t = rfc3339(now);
  return {
    ...runningStatus(pod, now),
    startTime: field(pod, 'status', 'startTime') ?? t,
    containerStatuses: containerStatuses(
      pod,
      () => ({ running: { startedAt: t } }),
      true,
      (previous) => ({
        restartCount: Number(previous?.restartCount ?? 0),
        ...(previous?.lastState ? { lastState: previous.lastState } : {}),
      }),
    ),
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
      () => ({ terminated: { exitCode: 0, reason: 'Completed', finishedAt: t } }),
      false,
      (previous) => ({ restartCount: Number(previous?.restartCount ?? 0) }),
    ),
  };
}
