/**
 * Work and binding names (Karmada v1.15.9 `pkg/util/names/names.go` `GenerateWorkName`).
 */
import { CLUSTER_RESOURCE_BINDING, RESOURCE_BINDING } from '../../api/karmada-names.ts';
import type { ObjectRef } from '../../api/object.ts';
import { safeEncodeString } from '../../util/strings.ts';
import type { KubeObject } from '../model/types.ts';
import { fnv32a } from '../scheduler/assignment/webster.ts';

/**
 * The name of the Work that carries object `namespace/name` of `kind` to a cluster:
 * `<name>-<SafeEncodeString(decimal fnv32a(lower(namespace-name-kind)))>`, where `name` is first
 * lower-cased with `:` replaced by `.` (RBAC names such as `system:foo` are not DNS subdomains) and
 * the namespace part is left out for cluster-scoped objects. Karmada hashes the string itself
 * (`hashutil.DeepHashObject` prints a string as is).
 *
 * @example generateWorkName('Deployment', 'nginx', 'default') // 'nginx-687f7fb96f'
 */
export function generateWorkName(kind: string, name: string, namespace?: string): string {
  const safeName = name.replaceAll(':', '.').toLowerCase();
  const hashed = (namespace ? `${namespace}-${safeName}-${kind}` : `${safeName}-${kind}`).toLowerCase();
  return `${safeName}-${safeEncodeString(String(fnv32a(hashed)))}`;
}

/**
 * Karmada's binding name (`names.GenerateBindingName`): `<name>-<kind>` lower-cased, with `:` in the
 * name replaced by `.`. The detector names a template's binding so, and an attached binding is named
 * after its dependency object the same way.
 *
 * @example generateBindingName('Deployment', 'nginx') // 'nginx-deployment'
 */
export function generateBindingName(kind: string, name: string): string {
  return `${name.replaceAll(':', '.')}-${kind}`.toLowerCase();
}

/**
 * Where the detector keeps `template`'s binding: a ResourceBinding in the template's namespace, or a
 * ClusterResourceBinding for a cluster-scoped template, named by {@link generateBindingName}.
 */
export function bindingRefOf(template: KubeObject): ObjectRef {
  const name = generateBindingName(template.kind, template.metadata.name!);
  return template.metadata.namespace
    ? { ...RESOURCE_BINDING, namespace: template.metadata.namespace, name }
    : { ...CLUSTER_RESOURCE_BINDING, name };
}
