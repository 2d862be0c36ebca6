/**
 * What every mini-controller of a simulated member shares: the store, with the writes a controller
 * makes (a conflict or a vanished object is left to the next pass), the clock and timings, Event
 * recorders, and when the next timed transition is due; plus small readers over plain objects.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../api/object.ts';
import { type EventRecorder, NO_EVENTS } from '../../events/recorder.ts';
import { listAll } from '../../store/list-all.ts';
import type { ObjectStore } from '../../store/port.ts';
import { tryWrite } from '../../store/write.ts';
import { SAFE_ALPHABET } from '../../util/strings.ts';

export type Obj = Record<string, unknown>;

export interface SimTimings {
  podStartupMs: number;
  jobDurationMs: number;
}

export function field(o: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Obj)[k] : undefined), o);
}

export function hashOf(value: unknown, length = 10): string {
  const digest = createHash('sha256').update(JSON.stringify(value)).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += SAFE_ALPHABET[digest[i]! % SAFE_ALPHABET.length];
  return out;
}

export function conditionTrue(o: KubeObject, type: string): boolean {
  return ((field(o, 'status', 'conditions') as Obj[] | undefined) ?? []).some(
    (c) => c.type === type && c.status === 'True',
  );
}

export function phaseOf(pod: KubeObject): string {
  return String(field(pod, 'status', 'phase') ?? 'Pending');
}

/** A pod that is neither being deleted nor finished. */
export function active(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return !pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

export class SimContext {
  readonly store: ObjectStore;
  readonly now: () => number;
  readonly timings: SimTimings;
  /** Records Events as the named component (`default-scheduler`, `job-controller`, ...). */
  readonly events: (component: string) => EventRecorder;
  #seq = 0;
  /** When the next timed transition (a pod starting, a job finishing) is due, if any. */
  nextDue: number | undefined;

  constructor(options: {
    store: ObjectStore;
    now: () => number;
    timings: SimTimings;
    events?: (component: string) => EventRecorder;
  }) {
    this.store = options.store;
    this.now = options.now;
    this.timings = options.timings;
    this.events = options.events ?? (() => NO_EVENTS);
  }

  all(gk: { group: string; kind: string }): Promise<KubeObject[]> {
    return listAll(this.store, { ...gk, limit: 1000 });
  }

  due(at: number): void {
    if (this.nextDue === undefined || at < this.nextDue) this.nextDue = at;
  }

  suffix(): string {
    return hashOf([this.now(), this.#seq++, Math.random()], 5);
  }

  async update(obj: KubeObject, change: (o: KubeObject) => void): Promise<KubeObject | undefined> {
    const next = structuredClone(obj);
    change(next);
    const written = await tryWrite(() => this.store.update(next));
    return written.ok ? written.object : undefined;
  }

  async status(obj: KubeObject, status: Obj, replace = false): Promise<KubeObject | undefined> {
    const merged = replace ? status : { ...((obj.status ?? {}) as Obj), ...status };
    const written = await tryWrite(() => this.store.updateStatus({ ...obj, status: merged }));
    return written.ok ? written.object : undefined;
  }

  /** Deletes a pod (the only kind these controllers delete). */
  async delete(pod: KubeObject): Promise<void> {
    await tryWrite(() =>
      this.store.delete({ group: '', kind: 'Pod', namespace: pod.metadata.namespace!, name: pod.metadata.name! }),
    );
  }
}
