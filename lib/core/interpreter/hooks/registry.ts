/**
 * The interpreter registry: per `apiVersion/kind`, the hooks Karmada's resource interpreter answers
 * for the binding — `InterpretReplica` (`GetReplicas`) and `InterpretComponent` (`GetComponents`).
 *
 * Karmada resolves each operation separately, first match wins: ResourceInterpreterCustomization
 * (declarative Lua) > interpreter webhook > third-party built-in customizations > native defaults
 * (`pkg/resourceinterpreter/interpreter.go`). {@link withInterpreter} layers a higher-precedence source
 * on top of a registry with that per-operation rule: a customization that only defines `replicas`
 * keeps the built-in `components` hook.
 */
import type { Component, KubeObject, ReplicaRequirements } from '../../model/types.ts';
import type { InterpretOptions } from './requirements.ts';

/** The `GetReplicas` answer: the replica count and what each replica needs. */
export interface ReplicaInterpretation {
  replicas: number;
  replicaRequirements?: ReplicaRequirements;
}

/** An `InterpretReplica` hook. Must not throw on malformed objects (built-in hooks never do). */
export type ReplicaInterpreter = (object: KubeObject, options: InterpretOptions) => ReplicaInterpretation;

/** An `InterpretComponent` hook: one entry per pod template of a multi-template workload. */
export type ComponentInterpreter = (object: KubeObject, options: InterpretOptions) => Component[];

/** The hooks known for one `apiVersion/kind`. */
export interface KindInterpreter {
  replicas?: ReplicaInterpreter;
  components?: ComponentInterpreter;
}

/** `apiVersion/kind` → hooks. */
export type InterpreterRegistry = ReadonlyMap<string, KindInterpreter>;

/** The registry key of a kind: `apps/v1/Deployment`, `v1/Pod`, `flink.apache.org/v1beta1/FlinkDeployment`. */
export function interpreterKey(apiVersion: string, kind: string): string {
  return `${apiVersion}/${kind}`;
}

/**
 * A copy of `registry` in which the given hooks of `apiVersion/kind` take precedence (the hooks not
 * given are kept from `registry`). For ResourceInterpreterCustomizations and webhooks.
 */
export function withInterpreter(
  registry: InterpreterRegistry,
  apiVersion: string,
  kind: string,
  hooks: KindInterpreter,
): InterpreterRegistry {
  const key = interpreterKey(apiVersion, kind);
  const next = new Map(registry);
  const merged: KindInterpreter = { ...registry.get(key) };
  if (hooks.replicas) merged.replicas = hooks.replicas;
  if (hooks.components) merged.components = hooks.components;
  next.set(key, merged);
  return next;
}
