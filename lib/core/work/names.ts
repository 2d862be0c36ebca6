/**
 * Work names (Karmada v1.15.9 `pkg/util/names/names.go` `GenerateWorkName`; shared/reference/
 * karmada-behaviour.md §1.7).
 */
import { safeEncodeString } from '../../util/strings.ts';
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
