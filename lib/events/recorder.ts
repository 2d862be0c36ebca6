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
import { AlreadyExistsError } from '../store/errors.ts';
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

  /** Names of events this recorder wrote lately (most recent last). */
  readonly #recent = new Set<string>();

  constructor(options: EventRecorderOptions) {
    this.#options = options;
  }

  #remember(name: string): void {
    this.#recent.add(name);
    if (this.#recent.size > 1_000) this.#recent.delete(this.#recent.values().next().value as string);
  }

  async record(object: KubeObject | InvolvedObject, type: EventType, reason: string, message: string): Promise<void> {
    const { store, clock, component, logger } = this.#options;
    const instance = this.#options.instance ?? '';
    const involved = involvedObjectOf(object);
    const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
    // Events about cluster-scoped objects live in `default`, as client-go records them.
    const namespace = involved.namespace || 'default';
    const name = eventName(involved, type, reason, text, component);
    const now = rfc3339(clock.now());
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
    // A new event is one write (create first); one recorded recently by this process is probably
    // there, so it is read and bumped instead of failing a create first.
    if (!this.#recent.has(name)) {
      this.#remember(name);
      try {
        await store.create(event);
        return;
      } catch (err) {
        if (!(err instanceof AlreadyExistsError)) {
          logger?.warn('could not record event', { reason, event: name, error: err as Error });
          return;
        }
      }
    }
    try {
      // Someone else may record or bump it meanwhile: each lost race reads it again.
      for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
        const current = await store.get({ group: '', kind: 'Event', namespace, name });
        const written = await tryWrite(() =>
          current
            ? store.update({
                ...current,
                involvedObject: { ...involved },
                count: (typeof current.count === 'number' ? current.count : 1) + 1,
                lastTimestamp: now,
              })
            : store.create(event),
        );
        if (written.ok) return;
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
