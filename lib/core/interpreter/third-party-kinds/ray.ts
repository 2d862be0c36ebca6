/**
 * KubeRay, ported from the `componentResource` (`GetComponents`) Lua scripts of Karmada's built-in
 * customizations `ray.io/v1/RayCluster` and `ray.io/v1/RayJob` (added in v1.16.0, unchanged up to
 * f8fdd02, v1.19.0-rc.0+). A RayJob's cluster is its `spec.rayClusterSpec`; a RayCluster's is its
 * `spec`.
 *
 * - `ray-head`: 1 replica, when `headGroupSpec.template` is set;
 * - one component per `workerGroupSpecs[i]` (until the first null entry, as Lua `ipairs`), named by
 *   `groupName` or `worker-<i>` (1-based), with `replicas` (default 0).
 *
 * Requirements are `kube.accuratePodRequirements(template)`. A RayJob's `submitterPodTemplate` is not
 * counted (as upstream). Where the script passes `replicas` through unconverted (a string there fails
 * Karmada's conversion), a numeric string is read as its number here.
 */
import type { Component, KubeObject } from '../../model/types.ts';
import { type InterpretOptions, isObject } from '../hooks/requirements.ts';
import { accuratePodRequirements, component, get, isEmpty, isNil, replicaCount } from './lua.ts';

function clusterComponents(cluster: unknown, options: InterpretOptions): Component[] {
  const components: Component[] = [];
  const headTemplate = get(cluster, ['headGroupSpec', 'template']);
  if (!isNil(headTemplate)) components.push(component('ray-head', 1, accuratePodRequirements(headTemplate, options)));
  const groups = get(cluster, ['workerGroupSpecs']);
  if (!Array.isArray(groups)) return components;
  for (let i = 0; i < groups.length; i++) {
    const raw: unknown = groups[i];
    if (isNil(raw)) break;
    const group = isObject(raw) ? raw : {};
    const groupName = group['groupName'];
    const name = typeof groupName === 'string' && !isEmpty(groupName) ? groupName : `worker-${i + 1}`;
    components.push(
      component(name, replicaCount(group['replicas'], 0), accuratePodRequirements(group['template'], options)),
    );
  }
  return components;
}

/** RayCluster `GetComponents`. */
export function rayClusterComponents(object: KubeObject, options: InterpretOptions = {}): Component[] {
  return clusterComponents(get(object, ['spec']), options);
}

/** RayJob `GetComponents`: the components of `spec.rayClusterSpec` (none without one). */
export function rayJobComponents(object: KubeObject, options: InterpretOptions = {}): Component[] {
  const cluster = get(object, ['spec', 'rayClusterSpec']);
  return isNil(cluster) ? [] : clusterComponents(cluster, options);
}
