/**
 * Events, as kube-apiserver serves them: `v1` Event is the stored shape and `events.k8s.io/v1`
 * Event is a view of the same objects with the newer field names (`regarding`, `note`,
 * `reportingController`, `deprecated*`). Validation follows kube-apiserver's events.go: lenient for
 * core/v1 writes (old clients), strict for events.k8s.io/v1 creates.
 */
import type { KubeObject } from '../../api/object.ts';
import { isQualifiedName } from '../../util/validation.ts';
import { type FieldError, fieldError } from '../base/field-errors.ts';
import type { ResourceStrategy } from '../catalog/resources.ts';
import type { Schema } from '../base/schema.ts';
import type { ResourceView } from '../catalog/view-store.ts';
import { int32, obj, str, topLevel } from './schemas.ts';

type Obj = Record<string, unknown>;

/** Core field → events.k8s.io/v1 field (the same data under the newer names). */
const RENAMES: readonly [core: string, v1: string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];
const SHARED = ['reason', 'type', 'eventTime', 'series', 'action', 'related', 'reportingInstance'];

const objectReference = (): Schema =>
  obj({
    kind: str(),
    namespace: str(),
    name: str(),
    uid: str(),
    apiVersion: str(),
    resourceVersion: str(),
    fieldPath: str(),
  });

export const coreEventSchema = (): Schema =>
  topLevel({
    involvedObject: objectReference(),
    reason: str(),
    message: str(),
    source: obj({ component: str(), host: str() }),
    firstTimestamp: str({ nullable: true }),
    lastTimestamp: str({ nullable: true }),
    count: int32(),
    type: str(),
    eventTime: str({ nullable: true }),
    series: obj({ count: int32(), lastObservedTime: str() }),
    action: str(),
    related: objectReference(),
    reportingComponent: str(),
    reportingInstance: str(),
  });

export const eventsV1Schema = (): Schema =>
  topLevel({
    regarding: objectReference(),
    reason: str(),
    note: str(),
    deprecatedSource: obj({ component: str(), host: str() }),
    deprecatedFirstTimestamp: str({ nullable: true }),
    deprecatedLastTimestamp: str({ nullable: true }),
    deprecatedCount: int32(),
    type: str(),
    eventTime: str({ nullable: true }),
    series: obj({ count: int32(), lastObservedTime: str() }),
    action: str(),
    related: objectReference(),
    reportingController: str(),
    reportingInstance: str(),
  });

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '' && v !== 0;
}

/** The events.k8s.io/v1 shape of a stored (core/v1) Event. */
export function coreToEventsV1(e: KubeObject): KubeObject {
  const out: KubeObject = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: e.metadata };
  for (const k of SHARED) if (present(e[k])) out[k] = e[k];
  for (const [core, v1] of RENAMES) if (present(e[core])) out[v1] = e[core];
  return out;
}

/** The stored (core/v1) shape of an events.k8s.io/v1 Event. */
export function eventsV1ToCore(e: KubeObject): KubeObject {
  const out: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata: e.metadata };
  for (const k of SHARED) if (present(e[k])) out[k] = e[k];
  for (const [core, v1] of RENAMES) if (present(e[v1])) out[core] = e[v1];
  return out;
}

export const eventsV1View: ResourceView = {
  storage: { group: '', kind: 'Event' },
  fromStorage: coreToEventsV1,
  toStorage: eventsV1ToCore,
};

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, note: 1024 };

/** Names of the fields as the request's API version spells them. */
interface Spelling {
  regarding: string;
  note: string;
  reportingController: string;
}
const CORE: Spelling = { regarding: 'involvedObject', note: 'message', reportingController: 'reportingComponent' };
const V1: Spelling = { regarding: 'regarding', note: 'note', reportingController: 'reportingController' };

/**
 * kube-apiserver's legacy checks, which every Event passes: the event lives in its object's
 * namespace, and an Event with `eventTime` (a "new" event) names its reporter, action and reason.
 */
function legacyValidate(e: KubeObject, names: Spelling, get: (f: keyof Spelling | string) => unknown): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = e.metadata.namespace ?? '';
  const regarding = (get('regarding') ?? {}) as Obj;
  const objectNamespace = typeof regarding.namespace === 'string' ? regarding.namespace : '';
  const nsField = `${names.regarding}.namespace`;
  const mismatch = 'does not match event.namespace: an Event is recorded in the namespace of the object it is about';
  if (!present(e.eventTime)) {
    if (objectNamespace ? namespace !== objectNamespace : namespace !== '' && namespace !== 'default')
      errors.push(fieldError.invalid(nsField, objectNamespace, mismatch));
    return errors;
  }
  if (!objectNamespace && namespace !== 'default' && namespace !== 'kube-system')
    errors.push(fieldError.invalid(nsField, objectNamespace, mismatch));
  const controller = get('reportingController');
  if (!present(controller)) errors.push(fieldError.required(names.reportingController, 'e.g. karmada.io/scheduler'));
  else {
    for (const bad of isQualifiedName(String(controller)))
      errors.push(fieldError.invalid(names.reportingController, controller, bad));
  }
  for (const f of ['reportingInstance', 'action', 'reason'] as const) {
    const v = e[f];
    if (!present(v)) errors.push(fieldError.required(f));
    else if (String(v).length > LIMITS[f])
      errors.push(fieldError.invalid(f, '', `can have at most ${LIMITS[f]} characters`));
  }
  const note = get('note');
  if (typeof note === 'string' && note.length > LIMITS.note)
    errors.push(fieldError.invalid(names.note, '', `can have at most ${LIMITS.note} characters`));
  return errors;
}

export const coreEventStrategy: ResourceStrategy = {
  validate: (e) => legacyValidate(e, CORE, (f) => e[(CORE as unknown as Record<string, string>)[f] ?? f]),
};

/** What an update through events.k8s.io/v1 may not change (kube-apiserver's ValidateEventUpdate). */
const IMMUTABLE = [
  'regarding',
  'reason',
  'note',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
  'action',
  'related',
  'type',
  'eventTime',
  'reportingController',
  'reportingInstance',
];

function seriesErrors(e: KubeObject): FieldError[] {
  const series = e.series as Obj | undefined;
  if (!series) return [];
  const errors: FieldError[] = [];
  if (typeof series.count !== 'number' || series.count < 2)
    errors.push(fieldError.invalid('series.count', series.count ?? 0, 'should be at least 2'));
  if (!present(series.lastObservedTime)) errors.push(fieldError.required('series.lastObservedTime'));
  return errors;
}

export const eventsV1Strategy: ResourceStrategy = {
  validate(e, old) {
    const errors = legacyValidate(e, V1, (f) => e[f]);
    if (old) {
      for (const f of IMMUTABLE) {
        if (JSON.stringify(e[f] ?? null) !== JSON.stringify(old[f] ?? null))
          errors.push(fieldError.invalid(f, e[f] ?? '', 'field is immutable'));
      }
      // The series is what an update is for: validated when it changes.
      if (JSON.stringify(e.series ?? null) !== JSON.stringify(old.series ?? null)) errors.push(...seriesErrors(e));
      return errors;
    }
    // Strict checks for new events written through events.k8s.io/v1.
    if (!present(e.eventTime)) errors.push(fieldError.required('eventTime', 'the time the event was first observed'));
    if (e.type !== 'Normal' && e.type !== 'Warning')
      errors.push(fieldError.notSupported('type', e.type ?? '', ['Normal', 'Warning']));
    for (const f of ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount', 'deprecatedSource']) {
      if (
        present(e[f]) &&
        !(f === 'deprecatedSource' && !present((e[f] as Obj).component) && !present((e[f] as Obj).host))
      )
        errors.push(fieldError.invalid(f, '', 'needs to be unset: use eventTime and series on events.k8s.io/v1'));
    }
    errors.push(...seriesErrors(e));
    return errors;
  },
};
