/**
 * Typed projections of the Kubernetes status structs the status hooks read and write (k8s.io/api
 * v0.33, the version Karmada v1.15.9 vendors): each function takes a JSON value and returns it as
 * `encoding/json` would marshal the Go struct it unmarshals into — unknown fields dropped, `omitempty`
 * zero values removed, required zero values present, times re-rendered.
 */
import { cloneJson } from '../../util/json.ts';
import {
  boolOf,
  compareStrings,
  int32Of,
  isObject,
  objectOf,
  optionalString,
  setOmitEmpty,
  stringOf,
  timeOrNull,
} from './typed.ts';

/** A deep copy of a status object (never aliases its input). */
export function cloneStatus(status: Record<string, unknown>): Record<string, unknown> {
  return cloneJson(status);
}

/** `corev1.PortStatus` / `networkingv1.IngressPortStatus`: `port` and `protocol` always, `error` when set. */
export function portStatusOf(value: unknown): Record<string, unknown> {
  const port = objectOf(value);
  const out: Record<string, unknown> = { port: int32Of(port['port']), protocol: stringOf(port['protocol']) };
  const error = optionalString(port['error']);
  if (error !== undefined) out['error'] = error;
  return out;
}

/** `corev1.LoadBalancerIngress` (a Service's `status.loadBalancer.ingress[]`). */
export function serviceLoadBalancerIngressOf(value: unknown): Record<string, unknown> {
  const ingress = objectOf(value);
  const out: Record<string, unknown> = {};
  setOmitEmpty(out, 'ip', stringOf(ingress['ip']));
  setOmitEmpty(out, 'hostname', stringOf(ingress['hostname']));
  const ipMode = optionalString(ingress['ipMode']);
  if (ipMode !== undefined) out['ipMode'] = ipMode;
  const ports = Array.isArray(ingress['ports']) ? ingress['ports'].map(portStatusOf) : [];
  if (ports.length > 0) out['ports'] = ports;
  return out;
}

/** `networkingv1.IngressLoadBalancerIngress` (an Ingress's `status.loadBalancer.ingress[]`). */
export function ingressLoadBalancerIngressOf(value: unknown): Record<string, unknown> {
  const ingress = objectOf(value);
  const out: Record<string, unknown> = {};
  setOmitEmpty(out, 'ip', stringOf(ingress['ip']));
  setOmitEmpty(out, 'hostname', stringOf(ingress['hostname']));
  const ports = Array.isArray(ingress['ports']) ? ingress['ports'].map(portStatusOf) : [];
  if (ports.length > 0) out['ports'] = ports;
  return out;
}

/**
 * `batchv1.JobCondition`: `type` and `status` always; `lastProbeTime`/`lastTransitionTime` are
 * non-pointer `metav1.Time`, so an unset one marshals as `null`.
 */
export function jobConditionOf(value: unknown): Record<string, unknown> {
  const condition = objectOf(value);
  const out: Record<string, unknown> = {
    type: stringOf(condition['type']),
    status: stringOf(condition['status']),
    lastProbeTime: timeOrNull(condition['lastProbeTime']),
    lastTransitionTime: timeOrNull(condition['lastTransitionTime']),
  };
  setOmitEmpty(out, 'reason', stringOf(condition['reason']));
  setOmitEmpty(out, 'message', stringOf(condition['message']));
  return out;
}

/** `corev1.ObjectReference` (a CronJob's `status.active[]`): every field `omitempty`. */
export function objectReferenceOf(value: unknown): Record<string, unknown> {
  const ref = objectOf(value);
  const out: Record<string, unknown> = {};
  for (const key of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) {
    setOmitEmpty(out, key, stringOf(ref[key]));
  }
  return out;
}

/**
 * `corev1.ContainerState`: each of `waiting`/`running`/`terminated` is a pointer (absent or `null` ⇒
 * omitted); their times are non-pointer `metav1.Time` (unset ⇒ `null`).
 */
export function containerStateOf(value: unknown): Record<string, unknown> {
  const state = objectOf(value);
  const out: Record<string, unknown> = {};
  if (isObject(state['waiting'])) {
    const waiting: Record<string, unknown> = {};
    setOmitEmpty(waiting, 'reason', stringOf(state['waiting']['reason']));
    setOmitEmpty(waiting, 'message', stringOf(state['waiting']['message']));
    out['waiting'] = waiting;
  }
  if (isObject(state['running'])) out['running'] = { startedAt: timeOrNull(state['running']['startedAt']) };
  if (isObject(state['terminated'])) {
    const t = state['terminated'];
    const terminated: Record<string, unknown> = { exitCode: int32Of(t['exitCode']) };
    setOmitEmpty(terminated, 'signal', int32Of(t['signal']));
    setOmitEmpty(terminated, 'reason', stringOf(t['reason']));
    setOmitEmpty(terminated, 'message', stringOf(t['message']));
    terminated['startedAt'] = timeOrNull(t['startedAt']);
    terminated['finishedAt'] = timeOrNull(t['finishedAt']);
    setOmitEmpty(terminated, 'containerID', stringOf(t['containerID']));
    out['terminated'] = terminated;
  }
  return out;
}

/**
 * The `corev1.ContainerStatus{Ready, State}` that `aggregatePodStatus` keeps of each member container,
 * as Go marshals it: the non-`omitempty` `name`, `restartCount`, `image`, `imageID` and the struct
 * `lastState` come out as zero values.
 */
export function aggregatedContainerStatusOf(value: unknown): Record<string, unknown> {
  const status = objectOf(value);
  return {
    name: '',
    state: containerStateOf(status['state']),
    lastState: {},
    ready: boolOf(status['ready']),
    restartCount: 0,
    image: '',
    imageID: '',
  };
}

/** `PodDisruptionBudgetStatus.disruptedPods` (pod name → `metav1.Time`), keys sorted as Go marshals a map. */
export function disruptedPodsOf(value: unknown): Record<string, string | null> {
  const entries = Object.entries(objectOf(value)).map(([pod, time]): [string, string | null] => [
    pod,
    timeOrNull(time),
  ]);
  entries.sort(([a], [b]) => compareStrings(a, b));
  return Object.fromEntries(entries);
}
