/**
 * `batch.volcano.sh/v1alpha1` Job, ported from the `componentResource` (`GetComponents`) Lua script of
 * Karmada's built-in customization (added in v1.16.0, unchanged up to f8fdd02, v1.19.0-rc.0+): one
 * component per `spec.tasks[i]` (until the first null entry, as Lua `ipairs`), named by `name` or
 * `task-<i>` (0-based), with `minAvailable` replicas (default 1) and
 * `kube.accuratePodRequirements(template)`.
 */
import type { Component, KubeObject } from '../../model/types.ts';
import { type InterpretOptions, isObject } from '../hooks/requirements.ts';
import { accuratePodRequirements, component, get, isEmpty, isNil, replicaCount } from './lua.ts';

/** Volcano Job `GetComponents`. */
export function volcanoJobComponents(object: KubeObject, options: InterpretOptions = {}): Component[] {
  const tasks = get(object, ['spec', 'tasks']);
  if (!Array.isArray(tasks)) return [];
  const components: Component[] = [];
  for (let i = 0; i < tasks.length; i++) {
    const raw: unknown = tasks[i];
    if (isNil(raw)) break;
    const task = isObject(raw) ? raw : {};
    const taskName = task['name'];
    const name = typeof taskName === 'string' && !isEmpty(taskName) ? taskName : `task-${i}`;
    components.push(
      component(name, replicaCount(task['minAvailable'], 1), accuratePodRequirements(task['template'], options)),
    );
  }
  return components;
}
