/**
 * FederatedResourceQuota admission, as Karmada v1.15's `pkg/webhook/federatedresourcequota/validating.go`
 * does it: the name fits a label, resource names and quantities are valid for a quota, static
 * assignments name valid clusters, and for every resource `overall` is at least the sum of the
 * assignments, which may only use resources `overall` lists.
 *
 * Karmada does not require assignment cluster names to be unique; neither does this.
 */
import type { KubeObject } from '../../api/object.ts';
import { type FieldError, childPath, fieldError } from '../../kube/base/field-errors.ts';
import { validateClusterName } from './cluster-name.ts';
import { byteLength, isQualifiedName } from '../../util/validation.ts';
import { keyPath, uniqueErrors } from './k8s-rules.ts';
import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  isQuantityError,
  parseQuantity,
  type Quantity,
  scaledValue,
  ZERO_QUANTITY,
} from '../../api/quantity.ts';
import { list, record, stringMap, text } from './shape.ts';

const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);
const STANDARD_RESOURCES = new Set([...STANDARD_QUOTA_RESOURCES, 'storage']);
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

function isHugePageQuotaName(name: string): boolean {
  return name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** `ValidateResourceQuotaResourceName` (lifted from Kubernetes' core validation). */
function validateQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
  const unprefixed = !name.includes('/');
  if (errs.length === 0 && unprefixed && !STANDARD_RESOURCES.has(name) && !isHugePageQuotaName(name)) {
    errs.push(fieldError.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  if (unprefixed && !STANDARD_QUOTA_RESOURCES.has(name) && !isHugePageQuotaName(name)) {
    errs.push(fieldError.invalid(path, name, 'must be a standard resource for quota'));
  }
  return errs;
}

/** Parses a ResourceList entry; a value Kubernetes cannot decode is reported with its parse error. */
function quantityAt(value: unknown, path: string, errs: FieldError[]): Quantity | undefined {
  const q = parseQuantity(typeof value === 'number' ? value : text(value));
  if (isQuantityError(q)) {
    errs.push(fieldError.invalid(path, value, q.error));
    return undefined;
  }
  return q;
}

/** `validateResourceList`: names valid for a quota, values non-negative, integers where required. */
function validateResourceList(resources: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, value] of Object.entries(resources)) {
    const at = keyPath(path, name);
    errs.push(...validateQuotaResourceName(name, at));
    const q = quantityAt(value, at, errs);
    if (!q) continue;
    if (q.unscaled < 0n) errs.push(fieldError.invalid(at, formatQuantity(q), 'must be greater than or equal to 0'));
    const integer = INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
    if (integer && scaledValue(q, -3) % 1000n !== 0n)
      errs.push(fieldError.invalid(at, formatQuantity(q), 'must be an integer'));
  }
  return errs;
}

function validateClusterNameAt(name: string, path: string): FieldError[] {
  const msgs = validateClusterName(name);
  return msgs.length > 0 ? [fieldError.invalid(path, name, msgs.join(','))] : [];
}

/** `validateOverallAndAssignments`: overall ≥ Σ assignments per resource; assignments ⊆ overall. */
function validateOverallAndAssignments(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const overall = stringMap(spec.overall);
  const assignments = list(spec.staticAssignments).map((a) => stringMap(record(a)?.hard));
  const ignored: FieldError[] = [];
  for (const [name, value] of Object.entries(overall)) {
    const limit = quantityAt(value, '', ignored);
    if (!limit) continue;
    let assigned = ZERO_QUANTITY;
    for (const hard of assignments) {
      if (!Object.hasOwn(hard, name)) continue;
      const q = quantityAt(hard[name], '', ignored);
      if (q) assigned = addQuantities(assigned, q);
    }
    if (compareQuantities(limit, assigned) < 0) {
      errs.push(
        fieldError.invalid(keyPath('spec.overall', name), formatQuantity(limit), 'overall is less than assignments'),
      );
    }
  }
  assignments.forEach((hard, i) => {
    for (const name of Object.keys(hard)) {
      if (!Object.hasOwn(overall, name)) {
        errs.push(
          fieldError.invalid(
            keyPath(`spec.staticAssignments[${i}].hard`, name),
            name,
            'assignment resourceName is not exist in overall',
          ),
        );
      }
    }
  });
  return errs;
}

/** Validates a FederatedResourceQuota (the same rules on create and update; status included). */
export function validateFederatedResourceQuota(obj: KubeObject, _old: KubeObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata?.name ?? '';
  if (byteLength(name) > 63) errs.push(fieldError.invalid('metadata.name', name, 'must be no more than 63 characters'));
  const spec = record(obj.spec) ?? {};
  errs.push(...validateResourceList(stringMap(spec.overall), 'spec.overall'));
  list(spec.staticAssignments).forEach((item, i) => {
    const a = record(item) ?? {};
    const at = childPath('spec.staticAssignments', i);
    errs.push(...validateClusterNameAt(text(a.clusterName), childPath(at, 'clusterName')));
    errs.push(...validateResourceList(stringMap(a.hard), childPath(at, 'hard')));
  });
  errs.push(...validateOverallAndAssignments(spec));
  const status = record(obj.status) ?? {};
  errs.push(...validateResourceList(stringMap(status.overall), 'status.overall'));
  errs.push(...validateResourceList(stringMap(status.overallUsed), 'status.overallUsed'));
  list(status.aggregatedStatus).forEach((item, i) => {
    const s = record(item) ?? {};
    const at = childPath('status.aggregatedStatus', i);
    errs.push(...validateClusterNameAt(text(s.clusterName), childPath(at, 'clusterName')));
    errs.push(...validateResourceList(stringMap(s.hard), childPath(at, 'hard')));
    errs.push(...validateResourceList(stringMap(s.used), childPath(at, 'used')));
  });
  return uniqueErrors(errs);
}
