/**
 * Records Kubernetes Events about objects, as client-go's EventRecorder does for Karmada's
 * controllers, so `kubectl describe` and `kubectl get events` show what the control plane did.
 *
 * - One Event per (object, type, reason, message, component): recording the same thing again bumps
 *   `count` and `lastTimestamp` instead of adding an object (client-go's aggregation of identical
 *   events). The name is derived from those fields, so a retried reconcile cannot duplicate it.
 * - Recording never fails the caller: an Event is best-effort (client-go drops them too); a failure
 *   is logged and the reconcile goes on.
 * - Events expire after the store's event TTL (1 h by default) since their last update.
 */
import { rfc3339 } from '../api/time.ts';
import { createHash } from 'node:crypto';
import type { KubeObject } from '../api/object.ts';
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../observability/logger.ts';
import type { ObjectStore } from '../store/port.ts';
import { tryWrite } from '../store/write.ts';

/** Event reasons Karmada records (v1.15 `pkg/events/events.go`); ours use the same words. */
export const EVENT_REASONS = [
  'APIIncompatible',
  'AggregateStatusFailed',
  'AggregateStatusSucceed',
  'ApplyOverridePolicyFailed',
  'ApplyOverridePolicySucceed',
  'ApplyPolicyFailed',
  'ApplyPolicySucceed',
  'CleanupWorkFailed',
  'ClusterNotFound',
  'CollectOverallStatusFailed',
  'CollectOverallStatusSucceed',
  'CreateExecutionSpaceFailed',
  'CreateExecutionSpaceSucceed',
  'DescheduleBindingFailed',
  'DescheduleBindingSucceed',
  'DispatchEndpointSliceFailed',
  'DispatchEndpointSliceSucceed',
  'EvictWorkloadFromClusterFailed',
  'EvictWorkloadFromClusterSucceed',
  'GetDependenciesFailed',
  'GetDependenciesSucceed',
  'InterpretHealthFailed',
  'InterpretHealthSucceed',
  'PreemptPolicyFailed',
  'PreemptPolicySucceed',
  'ReflectStatusFailed',
  'ReflectStatusSucceed',
  'RemoveExecutionSpaceFailed',
  'RemoveExecutionSpaceSucceed',
  'ScheduleBindingFailed',
  'ScheduleBindingSucceed',
  'SyncDerivedServiceFailed',
  'SyncDerivedServiceSucceed',
  'SyncFailed',
  'SyncImpersonationConfigFailed',
  'SyncImpersonationConfigSucceed',
  'SyncScheduleResultToDependenciesFailed',
  'SyncScheduleResultToDependenciesSucceed',
  'SyncServiceFailed',
  'SyncServiceSucceed',
  'SyncSucceed',
  'SyncWorkFailed',
  'SyncWorkSucceed',
  'TaintClusterFailed',
  'TaintClusterSucceed',
  'WorkDispatching',
] as const;

export type KarmadaEventReason = (typeof EVENT_REASONS)[number];
export type EventType = 'Normal' | 'Warning';

/** Longest message kept (kube-apiserver's limit for new-style events). */
export const MAX_MESSAGE = 1024;
/** Attempts to bump an existing Event that other writers keep changing. */
const UPDATE_ATTEMPTS = 3;
/** Events remembered as written, per store (client-go's event correlator caches 4,096 per process). */
export const RECENT_EVENTS = 8_192;
let RECENT_BY_STORE = new WeakMap<ObjectStore, Map<string, { json: string; at: number }>>();

/**
 * Forgets every event this process remembers as written (recorders made after this start empty), as a
 * new execution environment would. For the deterministic simulation's control-plane restarts.
 */
export function forgetRecentEvents(): void {
  RECENT_BY_STORE = new WeakMap();
}

export interface EventRecorderOptions {
  store: ObjectStore;
  clock: Clock;
  /** The reporting component, e.g. `karmada-scheduler` (`source.component`, `reportingComponent`). */
  component: string;
  /** Which instance reported (`source.host`, `reportingInstance`): function name or host. */
  instance?: string;
  /** Where failures to record are reported (debug detail; never thrown). */
  logger?: Logger;
}

/** The object an Event is about. */
export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventRecorder {
  /** Records that `reason` happened to `object`; never throws. `reason` may be any CamelCase word. */
  record(object: KubeObject | InvolvedObject, type: EventType, reason: string, message: string): Promise<void>;
}

export function involvedObjectOf(object: KubeObject | InvolvedObject): InvolvedObject {
  if (!('metadata' in object)) return object;
  const ref: InvolvedObject = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: object.metadata.name ?? '',
  };
  if (object.metadata.namespace) ref.namespace = object.metadata.namespace;
  if (object.metadata.uid) ref.uid = object.metadata.uid;
  if (object.metadata.resourceVersion) ref.resourceVersion = object.metadata.resourceVersion;
  return ref;
}

/**
 * The name of the Event for this occurrence: the object's name plus a digest of what identifies
 * it (as aggregation keys it), so the same occurrence always lands on the same Event.
 */
export function eventName(
  involved: InvolvedObject,
  type: EventType,
  reason: string,
  message: string,
  component: string,
): string {
  const digest = createHash('sha256')
    .update(
      JSON.stringify([
        involved.apiVersion,
        involved.kind,
        involved.namespace ?? '',
        involved.name,
        involved.uid ?? '',
        involved.fieldPath ?? '',
        type,
        reason,
        message,
        component,
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  // Names are at most 253 characters: a very long object name is shortened before the digest.
  return `${involved.name.slice(0, 253 - digest.length - 1)}.${digest}`;
}

export class StoreEventRecorder implements EventRecorder {
  readonly #options: EventRecorderOptions;

  /**
   * Events written lately through this store, as written and when (most recent last): a repeat is
   * bumped from this copy, conditionally on its version, without reading it first. client-go's event
   * correlator keeps the same kind of cache and patches a repeat without a read. Shared by every
   * recorder of the store in this process — the controllers of a function, both lanes of one locally —
   * so two of them bumping one event do not keep losing races to each other's copies (the names
   * include the component, so they never mix two components' events). Kept as JSON: about a kilobyte
   * each.
   */
  readonly #recent: Map<string, { json: string; at: number }>;

  constructor(options: EventRecorderOptions) {
    this.#options = options;
    let recent = RECENT_BY_STORE.get(options.store);
    if (!recent) RECENT_BY_STORE.set(options.store, (recent = new Map()));
    this.#recent = recent;
  }

  #remember(name: string, event: KubeObject, at: number): void {
    this.#recent.delete(name);
    this.#recent.set(name, { json: JSON.stringify(event), at });
    if (this.#recent.size > RECENT_EVENTS) this.#recent.delete(this.#recent.keys().next().value as string);
  }

  async record(object: KubeObject | InvolvedObject, type: EventType, reason: string, message: string): Promise<void> {
    const { store, clock, component, logger } = this.#options;
    const instance = this.#options.instance ?? '';
    const involved = involvedObjectOf(object);
    const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
    // Events about cluster-scoped objects live in `default`, as client-go records them.
    const namespace = involved.namespace || 'default';
    const name = eventName(involved, type, reason, text, component);
    const nowMs = clock.now();
    const now = rfc3339(nowMs);
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { ...involved },
      reason,
      message: text,
      type,
      source: { component, ...(instance ? { host: instance } : {}) },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      reportingComponent: component,
      reportingInstance: instance,
    };
    const bumped = (current: KubeObject): KubeObject => ({
      ...current,
      involvedObject: { ...involved },
      count: (typeof current.count === 'number' ? current.count : 1) + 1,
      lastTimestamp: now,
    });
    const ref = { group: '', kind: 'Event', namespace, name };
    try {
      // A new event is one write (create first); one this process wrote lately is bumped from its copy,
      // one write too. A lost race (someone else recorded or bumped it) goes on from the event as it is.
      const recent = this.#recent.get(name);
      const held = recent && (JSON.parse(recent.json) as KubeObject);
      let attempt = held
        ? await tryWrite(() => store.update(bumped(held), { current: held, currentWrittenAt: recent.at }))
        : await tryWrite(() => store.create(event));
      for (let n = 1; ; n++) {
        if (attempt.ok) {
          this.#remember(name, attempt.object, nowMs);
          return;
        }
        if (n > UPDATE_ATTEMPTS) break;
        const current = attempt.reason === 'gone' ? undefined : (attempt.current ?? (await store.get(ref)));
        attempt = await tryWrite(() => (current ? store.update(bumped(current)) : store.create(event)));
      }
    } catch (err) {
      logger?.warn('could not record event', { reason, event: name, error: err as Error });
      return;
    }
    logger?.debug('event not updated: it kept changing under us', { reason, event: name });
  }
}

/** A recorder that records nothing. */
export const NO_EVENTS: EventRecorder = { record: async () => {} };

/** A recorder that keeps events in memory (unit tests of controllers). */
export class MemoryEventRecorder implements EventRecorder {
  readonly events: { involved: InvolvedObject; type: EventType; reason: string; message: string }[] = [];

  async record(object: KubeObject | InvolvedObject, type: EventType, reason: string, message: string): Promise<void> {
    this.events.push({ involved: involvedObjectOf(object), type, reason, message });
  }
}
