/**
 * The interpreter's entry points: what a resource template contributes to its ResourceBinding
 * (`spec.replicas` + `spec.replicaRequirements`, or `spec.components`), looked up by
 * `apiVersion/kind` in a registry (default: native kinds and Karmada's third-party built-ins).
 * Pure: no I/O, no clock, inputs never mutated, outputs never alias inputs.
 */
import type { Component, KubeObject } from '../model/types.ts';
import { BUILTIN_INTERPRETERS } from './builtin.ts';
import {
  type InterpreterRegistry,
  type KindInterpreter,
  type ReplicaInterpretation,
  interpreterKey,
} from './hooks/registry.ts';
import type { InterpretOptions } from './hooks/requirements.ts';
import { THIRDPARTY_INTERPRETERS } from './third-party-kinds/index.ts';

/** The built-in registry: native `GetReplicas` and the third-party customizations. */
export const DEFAULT_INTERPRETERS: InterpreterRegistry = new Map<string, KindInterpreter>([
  ...BUILTIN_INTERPRETERS,
  ...THIRDPARTY_INTERPRETERS,
]);

/** Options of the entry points: feature gates, and the registry to use (default {@link DEFAULT_INTERPRETERS}). */
export interface InterpretCallOptions extends InterpretOptions {
  registry?: InterpreterRegistry;
}

function hooksFor(template: KubeObject, registry: InterpreterRegistry): KindInterpreter | undefined {
  const { apiVersion, kind } = template;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  return registry.get(interpreterKey(apiVersion, kind));
}

/** True when `apiVersion/kind` has an `InterpretReplica` hook. */
export function hasReplicas(
  apiVersion: string,
  kind: string,
  registry: InterpreterRegistry = DEFAULT_INTERPRETERS,
): boolean {
  return registry.get(interpreterKey(apiVersion, kind))?.replicas !== undefined;
}

/** True when `apiVersion/kind` has an `InterpretComponent` hook (a multi-template workload). */
export function hasComponents(
  apiVersion: string,
  kind: string,
  registry: InterpreterRegistry = DEFAULT_INTERPRETERS,
): boolean {
  return registry.get(interpreterKey(apiVersion, kind))?.components !== undefined;
}

/**
 * `GetReplicas`: the template's replica count and per-replica requirements, or undefined when its kind
 * has no replica hook (its binding then carries no `replicas`). With `resourceQuotaEstimate`, an
 * empty `replicaRequirements.namespace` is filled from the template's namespace, as Karmada's detector
 * does. Built-in hooks never throw: malformed fields read as absent, malformed quantities are skipped.
 */
export function interpretReplicas(
  template: KubeObject,
  options: InterpretCallOptions = {},
): ReplicaInterpretation | undefined {
  const hook = hooksFor(template, options.registry ?? DEFAULT_INTERPRETERS)?.replicas;
  if (!hook) return undefined;
  const result = hook(template, options);
  const namespace = template.metadata?.namespace;
  if (
    options.resourceQuotaEstimate &&
    result.replicaRequirements &&
    !result.replicaRequirements.namespace &&
    namespace
  ) {
    return { ...result, replicaRequirements: { ...result.replicaRequirements, namespace } };
  }
  return result;
}

/**
 * `GetComponents`: one entry per pod template of a multi-template workload, or undefined when its kind
 * has no component hook. May be empty (e.g. a PyTorchJob without replica specs); Go's `omitempty`
 * then leaves `spec.components` out of the binding.
 */
export function interpretComponents(template: KubeObject, options: InterpretCallOptions = {}): Component[] | undefined {
  const hook = hooksFor(template, options.registry ?? DEFAULT_INTERPRETERS)?.components;
  return hook ? hook(template, options) : undefined;
}

/** What the interpreter writes into a binding's spec. */
export interface BindingWorkload {
  replicas?: number;
  replicaRequirements?: ReplicaInterpretation['replicaRequirements'];
  components?: Component[];
}

/**
 * The detector's `applyReplicaInterpretation`: with the `MultiplePodTemplatesScheduling` gate (alpha,
 * default off) and a component hook, only `components` (left out when empty); otherwise `replicas` and
 * `replicaRequirements` from the replica hook; `{}` when neither applies.
 */
export function interpretBindingWorkload(
  template: KubeObject,
  options: InterpretCallOptions & { multiplePodTemplatesScheduling?: boolean } = {},
): BindingWorkload {
  if (options.multiplePodTemplatesScheduling) {
    const components = interpretComponents(template, options);
    if (components) return components.length > 0 ? { components } : {};
  }
  const replicas = interpretReplicas(template, options);
  if (!replicas) return {};
  return replicas.replicaRequirements
    ? { replicas: replicas.replicas, replicaRequirements: replicas.replicaRequirements }
    : { replicas: replicas.replicas };
}
