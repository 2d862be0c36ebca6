/**
 * Kubeflow training jobs, ported from the `componentResource` (`GetComponents`) Lua scripts of
 * Karmada's built-in customizations (added in v1.16.0, unchanged up to f8fdd02, v1.19.0-rc.0+):
 * - `kubeflow.org/v1/PyTorchJob`: `spec.pytorchReplicaSpecs` `Master` → `master`, `Worker` → `worker`;
 * - `kubeflow.org/v1/TFJob`: `spec.tfReplicaSpecs` `PS`, `Worker`, `Chief`, `Master`, `Evaluator` →
 *   lower-cased names, in that order;
 * - `kubeflow.org/v2beta1/MPIJob`: every `spec.mpiReplicaSpecs` entry that has a template, named by
 *   its key (`Launcher`, `Worker`).
 *
 * Each role's replicas come from its `replicas` (default 1; 0 for an MPIJob `worker`), and its
 * requirements from `kube.accuratePodRequirements(template)` (summed container requests, see
 * `hooks/requirements.ts`). PyTorchJob/TFJob list a role without a template, without requirements; MPIJob
 * skips it.
 *
 * MPIJob's script iterates the spec map with Lua `pairs` (no defined order); here the roles come
 * sorted by name, the order Karmada's own tests compare in.
 */
import type { Component, KubeObject } from '../../model/types.ts';
import { type InterpretOptions, isObject } from '../hooks/requirements.ts';
import { accuratePodRequirements, component, get, isNil, replicaCount } from './lua.ts';

function roleComponent(spec: unknown, name: string, defaultReplicas: number, options: InterpretOptions): Component {
  const role = isObject(spec) ? spec : {};
  return component(
    name,
    replicaCount(role['replicas'], defaultReplicas),
    accuratePodRequirements(role['template'], options),
  );
}

function fixedRoles(
  object: KubeObject,
  field: string,
  roles: readonly (readonly [key: string, name: string])[],
  options: InterpretOptions,
): Component[] {
  const components: Component[] = [];
  for (const [key, name] of roles) {
    const spec = get(object, ['spec', field, key]);
    if (!isNil(spec)) components.push(roleComponent(spec, name, 1, options));
  }
  return components;
}

const PYTORCH_ROLES = [
  ['Master', 'master'],
  ['Worker', 'worker'],
] as const;

const TF_ROLES = [
  ['PS', 'ps'],
  ['Worker', 'worker'],
  ['Chief', 'chief'],
  ['Master', 'master'],
  ['Evaluator', 'evaluator'],
] as const;

/** PyTorchJob `GetComponents`. */
export function pyTorchJobComponents(object: KubeObject, options: InterpretOptions = {}): Component[] {
  return fixedRoles(object, 'pytorchReplicaSpecs', PYTORCH_ROLES, options);
}

/** TFJob `GetComponents`. */
export function tfJobComponents(object: KubeObject, options: InterpretOptions = {}): Component[] {
  return fixedRoles(object, 'tfReplicaSpecs', TF_ROLES, options);
}

/** MPIJob `GetComponents`. */
export function mpiJobComponents(object: KubeObject, options: InterpretOptions = {}): Component[] {
  const specs = get(object, ['spec', 'mpiReplicaSpecs']);
  if (!isObject(specs)) return [];
  const components: Component[] = [];
  for (const name of Object.keys(specs).sort()) {
    const spec = specs[name];
    if (!isObject(spec) || isNil(spec['template'])) continue;
    const defaultReplicas = name.toLowerCase() === 'worker' ? 0 : 1;
    components.push(roleComponent(spec, name, defaultReplicas, options));
  }
  return components;
}
