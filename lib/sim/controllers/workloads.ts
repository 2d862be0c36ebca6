/**
 * The workload controllers of a simulated member: each kind's pods created and deleted to match its
 * spec (the kind's own rules in deployment.ts, stateful-set.ts, daemon-set.ts and job.ts), and its
 * status computed from those pods.
 */
import { rfc3339 } from '../../api/time.ts';
import type { KubeObject } from '../../api/object.ts';
import { tryWrite } from '../../store/write.ts';
import { active, conditionTrue, field, hashOf, type Obj, type SimContext } from './context.ts';
import { daemonSets } from './daemon-set.ts';
import { replicaSets } from './deployment.ts';
import { jobs } from './job.ts';
import { statefulSets } from './stateful-set.ts';
import type { PodExtras, WorkloadKind } from './workload-kind.ts';

/** The kinds that get pods. */
export const WORKLOADS = [
  { group: 'apps', kind: 'Deployment' },
  { group: 'apps', kind: 'ReplicaSet' },
  { group: 'apps', kind: 'StatefulSet' },
  { group: 'apps', kind: 'DaemonSet' },
  { group: 'batch', kind: 'Job' },
] as const;

const KINDS: Record<string, WorkloadKind> = {
  Deployment: replicaSets,
  ReplicaSet: replicaSets,
  StatefulSet: statefulSets,
  DaemonSet: daemonSets,
  Job: jobs,
};

/** Creates and deletes the workload's pods to match its spec. Returns true when it changed any. */
export async function reconcilePods(
  ctx: SimContext,
  w: KubeObject,
  owned: KubeObject[],
  nodes: KubeObject[],
): Promise<boolean> {
  const kind = KINDS[w.kind];
  if (!kind) return false;
  const spec = (w.spec ?? {}) as Obj;
  const template = (spec.template ?? {}) as Obj;
  const hash = hashOf(template);
  let changed = false;
  await kind.pods({
    w,
    spec,
    template,
    hash,
    owned,
    live: owned.filter((p) => !p.metadata.deletionTimestamp),
    nodes,
    create: async (name, extra = {}) => {
      if (await createPod(ctx, w, template, name, hash, extra))
        await ctx.events(kind.component).record(w, 'Normal', 'SuccessfulCreate', `Created pod: ${name}`);
      changed = true;
    },
    remove: async (pod) => {
      await ctx.delete(pod);
      await ctx.events(kind.component).record(w, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      changed = true;
    },
    suffix: () => ctx.suffix(),
  });
  return changed;
}

async function createPod(
  ctx: SimContext,
  w: KubeObject,
  template: Obj,
  name: string,
  hash: string,
  extra: PodExtras,
): Promise<boolean> {
  const meta = (template.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
  const hashLabel =
    w.kind === 'StatefulSet' || w.kind === 'DaemonSet' ? 'controller-revision-hash' : 'pod-template-hash';
  const podSpec = structuredClone((template.spec ?? {}) as Obj);
  if (extra.nodeName) podSpec.nodeName = extra.nodeName;
  if (w.kind === 'Job') podSpec.restartPolicy ??= 'Never';
  const created = await tryWrite(() =>
    ctx.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: w.metadata.namespace!,
        labels: { ...(meta.labels ?? {}), [hashLabel]: hash, ...(extra.labels ?? {}) },
        ...(meta.annotations ? { annotations: meta.annotations } : {}),
        ownerReferences: [
          {
            apiVersion: w.apiVersion,
            kind: w.kind,
            name: w.metadata.name!,
            uid: w.metadata.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: podSpec,
    }),
  );
  // A lost race (another pass created it) is not an error: false, nothing created.
  return created.ok;
}

/** The workload's status as computed from its pods. */
function workloadStatus(w: KubeObject, owned: KubeObject[], nodes: KubeObject[], now: number): Obj {
  const kind = KINDS[w.kind];
  if (!kind) return (w.status ?? {}) as Obj;
  const spec = (w.spec ?? {}) as Obj;
  const live = owned.filter(active);
  const previous = (field(w, 'status', 'conditions') as Obj[] | undefined) ?? [];
  return kind.status({
    w,
    spec,
    hash: hashOf(spec.template ?? {}),
    owned,
    live,
    ready: live.filter((p) => conditionTrue(p, 'Ready')).length,
    nodes,
    now,
    condition: (type, status, reason, message) => {
      const old = previous.find((c) => c.type === type);
      const value = status ? 'True' : 'False';
      const since = old && old.status === value ? String(old.lastTransitionTime) : rfc3339(now);
      return {
        type,
        status: value,
        reason,
        message,
        lastTransitionTime: since,
        lastUpdateTime:
          old && old.status === value && old.reason === reason ? String(old.lastUpdateTime ?? since) : rfc3339(now),
      };
    },
  });
}

/** Writes the workload's status when it changed; a Job that just completed gets its Event. */
export async function writeStatus(
  ctx: SimContext,
  w: KubeObject,
  owned: KubeObject[],
  nodes: KubeObject[],
  now: number,
): Promise<void> {
  const status = workloadStatus(w, owned, nodes, now);
  if (JSON.stringify(status) === JSON.stringify(w.status ?? {})) return;
  const written = await ctx.status(w, status, true);
  if (written && w.kind === 'Job' && conditionTrue(written, 'Complete') && !conditionTrue(w, 'Complete'))
    await ctx.events('job-controller').record(written, 'Normal', 'Completed', 'Job completed');
}
