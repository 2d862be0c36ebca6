/**
 * What a real member cluster's controller manager, scheduler and kubelets do, in miniature, so
 * workloads propagated to a simulated member behave plausibly:
 * - Deployments, ReplicaSets, StatefulSets (ordered), DaemonSets and Jobs get Pods;
 * - Pods are scheduled onto Ready nodes by their requests (first fit; `nodeSelector` honoured), and
 *   stay Pending with the scheduler's message when nothing fits — so ready replicas are bounded by
 *   node capacity;
 * - scheduled Pods start after `podStartupMs`; Job Pods succeed after `jobDurationMs`;
 * - workload status (replicas, ready, available, conditions) is computed from their Pods;
 * - custom resources of configured kinds get a status (e.g. a FlinkDeployment is RUNNING);
 * - Pods whose owner is gone are deleted (garbage collection).
 * One `tick()` reconciles everything; the member calls it when something changed or a timed
 * transition is due.
 */
import { SAFE_ALPHABET } from '../util/strings.ts';
import { rfc3339 } from '../api/time.ts';
import { createHash } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import { quantityAsNumber } from '../api/quantity.ts';
import { type EventRecorder, NO_EVENTS } from '../events/recorder.ts';
import { AlreadyExistsError, ConflictError, NotFoundError } from '../store/errors.ts';
import type { ObjectStore } from '../store/port.ts';
import { listAll } from '../store/list-all.ts';

type Obj = Record<string, unknown>;

export interface SimTimings {
  podStartupMs: number;
  jobDurationMs: number;
}

const WORKLOADS = [
  { group: 'apps', kind: 'Deployment' },
  { group: 'apps', kind: 'ReplicaSet' },
  { group: 'apps', kind: 'StatefulSet' },
  { group: 'apps', kind: 'DaemonSet' },
  { group: 'batch', kind: 'Job' },
] as const;

function field(o: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Obj)[k] : undefined), o);
}

function hashOf(value: unknown, length = 10): string {
  const digest = createHash('sha256').update(JSON.stringify(value)).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += SAFE_ALPHABET[digest[i]! % SAFE_ALPHABET.length];
  return out;
}

function conditionTrue(o: KubeObject, type: string): boolean {
  return ((field(o, 'status', 'conditions') as Obj[] | undefined) ?? []).some(
    (c) => c.type === type && c.status === 'True',
  );
}

function phaseOf(pod: KubeObject): string {
  return String(field(pod, 'status', 'phase') ?? 'Pending');
}

function active(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return !pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

/** Resource requests of one pod (containers summed, init containers max-merged, plus one pod slot). */
export function podRequests(spec: Obj | undefined): Record<string, number> {
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

interface NodeState {
  node: KubeObject;
  free: Record<string, number>;
}

export class ClusterControllers {
  readonly #store: ObjectStore;
  readonly #now: () => number;
  readonly #timings: SimTimings;
  readonly #crdStatus: Record<string, Record<string, unknown>>;
  readonly #crdKinds: () => Promise<{ group: string; kind: string }[]>;
  readonly #events: (component: string) => EventRecorder;
  #seq = 0;
  /** When the next timed transition (a pod starting, a job finishing) is due, if any. */
  nextDue: number | undefined;

  constructor(options: {
    store: ObjectStore;
    now: () => number;
    timings: SimTimings;
    crdStatus: Record<string, Record<string, unknown>>;
    crdKinds: () => Promise<{ group: string; kind: string }[]>;
    /** Records Events as the named component (`default-scheduler`, `job-controller`, ...). */
    events?: (component: string) => EventRecorder;
  }) {
    this.#store = options.store;
    this.#now = options.now;
    this.#timings = options.timings;
    this.#crdStatus = options.crdStatus;
    this.#crdKinds = options.crdKinds;
    this.#events = options.events ?? (() => NO_EVENTS);
  }

  #all(gk: { group: string; kind: string }): Promise<KubeObject[]> {
    return listAll(this.#store, { ...gk, limit: 1000 });
  }

  /** One reconcile pass over the whole cluster. */
  async tick(): Promise<void> {
    this.nextDue = undefined;
    const now = this.#now();
    const nodes = await this.#all({ group: '', kind: 'Node' });
    let pods = await this.#all({ group: '', kind: 'Pod' });
    const workloads = (await Promise.all(WORKLOADS.map((gk) => this.#all(gk)))).flat();

    // Garbage-collect pods whose controller is gone.
    const owners = new Set(workloads.filter((w) => !w.metadata.deletionTimestamp).map((w) => w.metadata.uid));
    for (const pod of pods) {
      const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
      if (ref && !owners.has(ref.uid)) await this.#delete(pod);
    }
    pods = pods.filter((p) => {
      const ref = (p.metadata.ownerReferences ?? []).find((r) => r.controller);
      return !ref || owners.has(ref.uid);
    });

    for (const w of workloads) {
      if (w.metadata.deletionTimestamp) continue;
      const owned = pods.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.uid === w.metadata.uid));
      const changed = await this.#reconcilePods(w, owned, nodes);
      if (changed) pods = await this.#all({ group: '', kind: 'Pod' });
    }

    pods = await this.#schedule(pods, nodes, now);
    pods = await this.#progress(pods, now);

    for (const w of workloads) {
      if (w.metadata.deletionTimestamp) continue;
      const owned = pods.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.uid === w.metadata.uid));
      await this.#writeStatus(w, this.#workloadStatus(w, owned, nodes, now));
    }
    await this.#customResources();
  }

  // ------------------------------------------------------------------------------------------ pods

  /** Creates and deletes the workload's pods to match its spec. Returns true when it changed any. */
  async #reconcilePods(w: KubeObject, owned: KubeObject[], nodes: KubeObject[]): Promise<boolean> {
    const spec = (w.spec ?? {}) as Obj;
    const template = (spec.template ?? {}) as Obj;
    const hash = hashOf(template);
    const live = owned.filter((p) => !p.metadata.deletionTimestamp);
    let changed = false;
    const component = CONTROLLER_OF[w.kind] ?? 'controller-manager';
    const create = async (name: string, extra: { nodeName?: string; labels?: Record<string, string> } = {}) => {
      if (await this.#createPod(w, template, name, hash, extra))
        await this.#events(component).record(w, 'Normal', 'SuccessfulCreate', `Created pod: ${name}`);
      changed = true;
    };
    const remove = async (pod: KubeObject) => {
      await this.#delete(pod);
      await this.#events(component).record(w, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      changed = true;
    };
    switch (w.kind) {
      case 'Deployment':
      case 'ReplicaSet': {
        const desired = Number(spec.replicas ?? 1);
        // A template change replaces every pod (a Recreate-style rollout, enough for a simulation).
        for (const p of live.filter((p) => p.metadata.labels?.['pod-template-hash'] !== hash)) await remove(p);
        const current = live.filter((p) => p.metadata.labels?.['pod-template-hash'] === hash);
        for (let i = current.length; i < desired; i++) await create(`${w.metadata.name}-${hash}-${this.#suffix()}`);
        // Scale down removes the pods that are least ready first.
        const surplus = [...current]
          .sort((a, b) => Number(conditionTrue(a, 'Ready')) - Number(conditionTrue(b, 'Ready')))
          .slice(0, Math.max(0, current.length - desired));
        for (const p of surplus) await remove(p);
        break;
      }
      case 'StatefulSet': {
        const desired = Number(spec.replicas ?? 1);
        const parallel = spec.podManagementPolicy === 'Parallel';
        const byOrdinal = new Map(live.map((p) => [Number(p.metadata.name!.slice(w.metadata.name!.length + 1)), p]));
        for (const [ordinal, pod] of byOrdinal)
          if (ordinal >= desired || pod.metadata.labels?.['controller-revision-hash'] !== hash) await remove(pod);
        for (let i = 0; i < desired; i++) {
          const existing = byOrdinal.get(i);
          if (existing && existing.metadata.labels?.['controller-revision-hash'] === hash) {
            if (!parallel && !conditionTrue(existing, 'Ready')) break;
            continue;
          }
          await create(`${w.metadata.name}-${i}`, {
            labels: { 'statefulset.kubernetes.io/pod-name': `${w.metadata.name}-${i}` },
          });
          if (!parallel) break;
        }
        break;
      }
      case 'DaemonSet': {
        const selector = (field(template, 'spec', 'nodeSelector') as Record<string, string> | undefined) ?? {};
        const eligible = nodes.filter((n) => Object.entries(selector).every(([k, v]) => n.metadata.labels?.[k] === v));
        for (const p of live) {
          const node = String(field(p, 'spec', 'nodeName') ?? '');
          if (
            p.metadata.labels?.['controller-revision-hash'] !== hash ||
            !eligible.some((n) => n.metadata.name === node)
          )
            await remove(p);
        }
        for (const n of eligible) {
          if (
            !live.some(
              (p) =>
                field(p, 'spec', 'nodeName') === n.metadata.name &&
                p.metadata.labels?.['controller-revision-hash'] === hash,
            )
          ) {
            await create(`${w.metadata.name}-${this.#suffix()}`, { nodeName: n.metadata.name! });
          }
        }
        break;
      }
      case 'Job': {
        if (spec.suspend === true || conditionTrue(w, 'Complete')) break;
        const completions = Number(spec.completions ?? 1);
        const parallelism = Number(spec.parallelism ?? 1);
        const succeeded = owned.filter((p) => phaseOf(p) === 'Succeeded').length;
        const running = owned.filter(active).length;
        const want = Math.min(parallelism, completions - succeeded) - running;
        for (let i = 0; i < want; i++)
          await create(`${w.metadata.name}-${this.#suffix()}`, {
            labels: { 'job-name': w.metadata.name!, 'batch.kubernetes.io/job-name': w.metadata.name! },
          });
        break;
      }
    }
    return changed;
  }

  async #createPod(
    w: KubeObject,
    template: Obj,
    name: string,
    hash: string,
    extra: { nodeName?: string; labels?: Record<string, string> },
  ): Promise<boolean> {
    const meta = (template.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
    const hashLabel =
      w.kind === 'StatefulSet' || w.kind === 'DaemonSet' ? 'controller-revision-hash' : 'pod-template-hash';
    const podSpec = structuredClone((template.spec ?? {}) as Obj);
    if (extra.nodeName) podSpec.nodeName = extra.nodeName;
    if (w.kind === 'Job') podSpec.restartPolicy ??= 'Never';
    try {
      await this.#store.create({
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
      });
      return true;
    } catch (err) {
      if (!(err instanceof ConflictError || err instanceof AlreadyExistsError)) throw err;
      return false;
    }
  }

  /** Binds pending pods to nodes with room (first fit), or records why none fits. */
  async #schedule(pods: KubeObject[], nodes: KubeObject[], now: number): Promise<KubeObject[]> {
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
          const admitted = await this.#status(p, {
            phase: 'Pending',
            conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: rfc3339(now) }],
          });
          if (admitted) out.set(admitted.metadata.uid, admitted);
          this.#due(now + this.#timings.podStartupMs);
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
        const bound = await this.#update(pod, (p) => {
          (p.spec as Obj).nodeName = target.node.metadata.name;
        });
        if (bound) {
          const scheduled = await this.#status(bound, {
            phase: 'Pending',
            conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: rfc3339(now) }],
            qosClass: Object.keys(need).length > 1 ? 'Burstable' : 'BestEffort',
          });
          if (scheduled) out.set(scheduled.metadata.uid, scheduled);
          await this.#events('default-scheduler').record(
            bound,
            'Normal',
            'Scheduled',
            `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${target.node.metadata.name}`,
          );
        }
        this.#due(now + this.#timings.podStartupMs);
      } else {
        const message = unschedulableMessage(need, candidates.length ? candidates : states, nodes.length);
        const current = ((field(pod, 'status', 'conditions') as Obj[] | undefined) ?? []).find(
          (c) => c.type === 'PodScheduled',
        );
        if (current?.message !== message) {
          const updated = await this.#status(pod, {
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
          await this.#events('default-scheduler').record(pod, 'Warning', 'FailedScheduling', message);
        }
      }
    }
    return [...out.values()];
  }

  /** Starts scheduled pods, finishes Job pods. */
  async #progress(pods: KubeObject[], now: number): Promise<KubeObject[]> {
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
        const at = scheduledAt + this.#timings.podStartupMs;
        if (now >= at) current = (await this.#status(pod, runningStatus(pod, now))) ?? pod;
        else this.#due(at);
      } else if (phase === 'Running' && isJobPod(pod)) {
        const started = Date.parse(String(field(pod, 'status', 'startTime') ?? ''));
        const at = started + this.#timings.jobDurationMs;
        if (now >= at) current = (await this.#status(pod, succeededStatus(pod, now))) ?? pod;
        else this.#due(at);
      }
      out.push(current);
    }
    return out;
  }

  // --------------------------------------------------------------------------------------- status

  #workloadStatus(w: KubeObject, owned: KubeObject[], nodes: KubeObject[], now: number): Obj {
    const spec = (w.spec ?? {}) as Obj;
    const live = owned.filter(active);
    const ready = live.filter((p) => conditionTrue(p, 'Ready')).length;
    const gen = w.metadata.generation;
    const previous = (field(w, 'status', 'conditions') as Obj[] | undefined) ?? [];
    const condition = (type: string, status: boolean, reason: string, message: string) => {
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
    };
    const hash = hashOf(spec.template ?? {});
    switch (w.kind) {
      case 'Deployment':
      case 'ReplicaSet': {
        const desired = Number(spec.replicas ?? 1);
        const updated = live.filter((p) => p.metadata.labels?.['pod-template-hash'] === hash).length;
        const maxUnavailable = Math.floor(desired * 0.25);
        const status: Obj = {
          observedGeneration: gen,
          replicas: live.length,
          ...(updated ? { updatedReplicas: updated } : {}),
          ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
          ...(desired - ready > 0 ? { unavailableReplicas: desired - ready } : {}),
        };
        if (w.kind === 'Deployment') {
          const available = ready >= desired - maxUnavailable;
          status.conditions = [
            condition(
              'Available',
              available,
              available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
              available ? 'Deployment has minimum availability.' : 'Deployment does not have minimum availability.',
            ),
            condition(
              'Progressing',
              true,
              updated === desired && ready === desired ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
              `ReplicaSet "${w.metadata.name}-${hash}" ${updated === desired && ready === desired ? 'has successfully progressed.' : 'is progressing.'}`,
            ),
          ];
        } else {
          status.fullyLabeledReplicas = live.length;
        }
        return status;
      }
      case 'StatefulSet': {
        const updated = live.filter((p) => p.metadata.labels?.['controller-revision-hash'] === hash).length;
        return {
          observedGeneration: gen,
          replicas: live.length,
          ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
          currentReplicas: updated,
          updatedReplicas: updated,
          currentRevision: `${w.metadata.name}-${hash}`,
          updateRevision: `${w.metadata.name}-${hash}`,
          collisionCount: 0,
        };
      }
      case 'DaemonSet': {
        const selector = (field(spec, 'template', 'spec', 'nodeSelector') as Record<string, string> | undefined) ?? {};
        const desired = nodes.filter((n) =>
          Object.entries(selector).every(([k, v]) => n.metadata.labels?.[k] === v),
        ).length;
        return {
          observedGeneration: gen,
          desiredNumberScheduled: desired,
          currentNumberScheduled: live.length,
          numberReady: ready,
          updatedNumberScheduled: live.filter((p) => p.metadata.labels?.['controller-revision-hash'] === hash).length,
          numberAvailable: ready,
          numberMisscheduled: 0,
          ...(desired - ready > 0 ? { numberUnavailable: desired - ready } : {}),
        };
      }
      case 'Job': {
        const completions = Number(spec.completions ?? 1);
        const succeeded = owned.filter((p) => phaseOf(p) === 'Succeeded').length;
        const starts = owned.map((p) => String(p.metadata.creationTimestamp)).sort();
        const done = succeeded >= completions;
        const previousStatus = (w.status ?? {}) as Obj;
        return {
          ...(starts.length ? { startTime: previousStatus.startTime ?? starts[0] } : {}),
          ...(live.length ? { active: live.length } : {}),
          ...(succeeded ? { succeeded } : {}),
          ready,
          terminating: 0,
          uncountedTerminatedPods: {},
          ...(done
            ? {
                completionTime: previousStatus.completionTime ?? rfc3339(now),
                conditions: [
                  condition(
                    'SuccessCriteriaMet',
                    true,
                    'CompletionsReached',
                    'Reached expected number of succeeded pods',
                  ),
                  condition('Complete', true, 'CompletionsReached', 'Reached expected number of succeeded pods'),
                ],
              }
            : {}),
        };
      }
      default:
        return (w.status ?? {}) as Obj;
    }
  }

  async #writeStatus(w: KubeObject, status: Obj): Promise<void> {
    if (JSON.stringify(status) === JSON.stringify(w.status ?? {})) return;
    const written = await this.#status(w, status, true);
    if (written && w.kind === 'Job' && conditionTrue(written, 'Complete') && !conditionTrue(w, 'Complete'))
      await this.#events('job-controller').record(written, 'Normal', 'Completed', 'Job completed');
  }

  /** Gives custom resources of configured kinds their status, once per generation. */
  async #customResources(): Promise<void> {
    for (const gk of await this.#crdKinds()) {
      const template = this.#crdStatus[`${gk.kind}.${gk.group}`];
      if (!template) continue;
      for (const cr of await this.#all(gk)) {
        const current = (cr.status ?? {}) as Obj;
        if (current.observedGeneration === cr.metadata.generation) continue;
        const filled = fillTemplate(template, cr) as Obj;
        await this.#status(cr, { ...current, ...filled, observedGeneration: cr.metadata.generation }, true);
      }
    }
  }

  // ------------------------------------------------------------------------------------------ I/O

  #due(at: number): void {
    if (this.nextDue === undefined || at < this.nextDue) this.nextDue = at;
  }

  #suffix(): string {
    return hashOf([this.#now(), this.#seq++, Math.random()], 5);
  }

  async #update(obj: KubeObject, change: (o: KubeObject) => void): Promise<KubeObject | undefined> {
    const next = structuredClone(obj);
    change(next);
    try {
      return await this.#store.update(next);
    } catch (err) {
      if (err instanceof ConflictError || err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  async #status(obj: KubeObject, status: Obj, replace = false): Promise<KubeObject | undefined> {
    const merged = replace ? status : { ...((obj.status ?? {}) as Obj), ...status };
    try {
      return await this.#store.updateStatus({ ...obj, status: merged });
    } catch (err) {
      if (err instanceof ConflictError || err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /** Deletes a pod (the only kind these controllers delete). */
  async #delete(pod: KubeObject): Promise<void> {
    try {
      await this.#store.delete({
        group: '',
        kind: 'Pod',
        namespace: pod.metadata.namespace!,
        name: pod.metadata.name!,
      });
    } catch (err) {
      if (!(err instanceof NotFoundError || err instanceof ConflictError)) throw err;
    }
  }
}

/** The controller that owns pods of each workload kind, as Events name it. */
const CONTROLLER_OF: Record<string, string> = {
  Deployment: 'replicaset-controller',
  ReplicaSet: 'replicaset-controller',
  StatefulSet: 'statefulset-controller',
  DaemonSet: 'daemonset-controller',
  Job: 'job-controller',
};

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
