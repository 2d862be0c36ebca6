/**
 * Placement rules shared by the propagation policies and (for cluster affinities) the override
 * policies: Karmada `pkg/util/validation/validation.go` (`ValidatePlacement`, `ValidateClusterAffinity`,
 * `ValidateClusterAffinities`, `ValidatePolicyFieldSelector`, `ValidateSpreadConstraint`; v1.17
 * `ValidateWorkloadAffinity`, v1.18 `ValidateOverflowAffinities`).
 */
import { type FieldError, childPath, fieldError } from '../../kube/base/field-errors.ts';
import { isOverflowSchedulingAllowed, type ReplicaSchedulingStrategy } from '../../core/index.ts';
import { isQualifiedName } from '../../util/validation.ts';
import { list, num, present, record, text } from './shape.ts';

const FIELD_SELECTOR_KEYS = ['provider', 'region', 'zone'];
const FIELD_SELECTOR_OPERATORS = ['In', 'NotIn'];

/** Why a cluster affinity's `fieldSelector` is invalid (the first problem), or undefined. */
export function policyFieldSelectorError(fieldSelector: Record<string, unknown> | undefined): string | undefined {
  if (!fieldSelector) return undefined;
  for (const item of list(fieldSelector.matchExpressions)) {
    const expr = record(item) ?? {};
    const key = text(expr.key);
    if (!FIELD_SELECTOR_KEYS.includes(key))
      return `unsupported key ${JSON.stringify(key)}, must be provider, region, or zone`;
    const operator = text(expr.operator);
    if (!FIELD_SELECTOR_OPERATORS.includes(operator)) {
      return `unsupported operator ${JSON.stringify(operator)}, must be In or NotIn`;
    }
  }
  return undefined;
}

/** `ValidateClusterAffinity`: only the field selector is checked (keys provider/region/zone, In/NotIn). */
export function validateClusterAffinity(affinity: Record<string, unknown> | undefined, path: string): FieldError[] {
  if (!affinity) return [];
  const fieldSelector = record(affinity.fieldSelector);
  const error = policyFieldSelectorError(fieldSelector);
  return error ? [fieldError.invalid(childPath(path, 'fieldSelector'), fieldSelector, error)] : [];
}

/** `ValidateClusterAffinities`: names are qualified names and unique; each term's field selector. */
export function validateClusterAffinities(affinities: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  affinities.forEach((item, i) => {
    const term = record(item) ?? {};
    const name = text(term.affinityName);
    for (const msg of isQualifiedName(name)) errs.push(fieldError.invalid(childPath(path, i), name, msg));
    if (names.has(name)) {
      errs.push(fieldError.invalid(path, affinities, 'each affinity term in a policy must have a unique name'));
    } else {
      names.add(name);
    }
    errs.push(...validateClusterAffinity(term, childPath(path, i)));
    errs.push(...validateOverflowAffinities(term, childPath(path, i)));
  });
  return errs;
}

/** Karmada `emptyClusterAffinity`: no label or field selector, no names, no exclusions. */
function emptyClusterAffinity(affinity: Record<string, unknown>): boolean {
  return (
    !present(affinity.labelSelector) &&
    !present(affinity.fieldSelector) &&
    list(affinity.clusterNames).length === 0 &&
    list(affinity.exclude).length === 0
  );
}

/**
 * Karmada ≥ 1.18 `ValidateOverflowAffinities`: only beside a non-empty inline affinity; each name a
 * label key, unique and different from the term's own name; each group's field selector.
 */
export function validateOverflowAffinities(term: Record<string, unknown>, path: string): FieldError[] {
  if (!present(term.overflowAffinities)) return [];
  const overflow = list(term.overflowAffinities);
  const at = childPath(path, 'overflowAffinities');
  const errs: FieldError[] = [];
  if (emptyClusterAffinity(term)) {
    errs.push(
      fieldError.invalid(
        at,
        term.overflowAffinities,
        'overflowAffinities can only be used together with the inline ClusterAffinity',
      ),
    );
  }
  const names = new Set([text(term.affinityName)]);
  overflow.forEach((item, i) => {
    const group = record(item) ?? {};
    const name = text(group.affinityName);
    const nameAt = childPath(childPath(at, i), 'affinityName');
    for (const msg of isQualifiedName(name)) errs.push(fieldError.invalid(nameAt, name, msg));
    if (names.has(name)) {
      errs.push(
        fieldError.invalid(
          nameAt,
          name,
          "overflow affinity name must be unique and must not duplicate the primary group's affinityName",
        ),
      );
    } else names.add(name);
    errs.push(...validateClusterAffinity(group, childPath(at, i)));
  });
  return errs;
}

/** Karmada ≥ 1.17 `ValidateWorkloadAffinity`: label keys, and not the same key for both. */
export function validateWorkloadAffinity(value: unknown, path: string): FieldError[] {
  const wa = record(value);
  if (!wa) return [];
  const errs: FieldError[] = [];
  const keys: string[] = [];
  for (const which of ['affinity', 'antiAffinity'] as const) {
    const term = record(wa[which]);
    if (!term) continue;
    const key = text(term.groupByLabelKey);
    keys.push(key);
    const at = childPath(childPath(path, which), 'groupByLabelKey');
    for (const msg of isQualifiedName(key)) errs.push(fieldError.invalid(at, key, msg));
  }
  if (keys.length === 2 && keys[0] === keys[1]) {
    errs.push(fieldError.invalid(path, wa, 'affinity and antiAffinity must not use the same groupByLabelKey'));
  }
  return errs;
}

/**
 * `ValidateSpreadConstraint`: field and label spreading exclusive, group bounds non-negative and
 * ordered, each field at most once (reported once), and a `cluster` constraint whenever any
 * spread-by-field constraint is used.
 */
export function validateSpreadConstraints(constraints: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  // field -> whether its duplicate has been reported
  const seen = new Map<string, boolean>();
  constraints.forEach((item, i) => {
    const c = record(item) ?? {};
    const byField = text(c.spreadByField);
    const byLabel = text(c.spreadByLabel);
    const minGroups = num(c.minGroups) ?? 0;
    const maxGroups = num(c.maxGroups) ?? 0;
    const at = childPath(path, i);
    if (byField && byLabel)
      errs.push(fieldError.invalid(at, c, 'spreadByLabel should not co-exist with spreadByField'));
    if (minGroups < 0) errs.push(fieldError.invalid(at, c, 'minGroups lower than 0 is not allowed'));
    if (maxGroups < 0) errs.push(fieldError.invalid(at, c, 'maxGroups lower than 0 is not allowed'));
    if (maxGroups > 0 && maxGroups < minGroups) {
      errs.push(fieldError.invalid(at, c, 'maxGroups lower than minGroups is not allowed'));
    }
    if (byField) {
      const reported = seen.get(byField);
      if (reported === false) {
        errs.push(fieldError.invalid(path, constraints, `multiple ${byField} spread constraints are not allowed`));
        seen.set(byField, true);
      } else if (reported === undefined) {
        seen.set(byField, false);
      }
    }
  });
  if (seen.size > 0 && !seen.has('cluster')) {
    errs.push(
      fieldError.invalid(
        path,
        constraints,
        'the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled',
      ),
    );
  }
  return errs;
}

/** `ValidatePlacement`: affinity forms exclusive, then affinities and spread constraints. */
export function validatePlacement(placement: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (present(placement.clusterAffinity) && present(placement.clusterAffinities)) {
    errs.push(fieldError.invalid(path, placement, 'clusterAffinities cannot co-exist with clusterAffinity'));
  }
  const allowOverflow = isOverflowSchedulingAllowed(record(placement.replicaScheduling) as ReplicaSchedulingStrategy);
  list(placement.clusterAffinities).forEach((item, i) => {
    const term = record(item) ?? {};
    if (present(term.overflowAffinities) && !allowOverflow) {
      errs.push(
        fieldError.invalid(
          childPath(childPath(childPath(path, 'clusterAffinities'), i), 'overflowAffinities'),
          term.overflowAffinities,
          'overflowAffinities can only be used together with dynamic weight or aggregated scheduling',
        ),
      );
    }
  });
  errs.push(...validateClusterAffinity(record(placement.clusterAffinity), childPath(path, 'clusterAffinity')));
  errs.push(...validateClusterAffinities(list(placement.clusterAffinities), childPath(path, 'clusterAffinities')));
  errs.push(...validateSpreadConstraints(list(placement.spreadConstraints), childPath(path, 'spreadConstraints')));
  errs.push(...validateWorkloadAffinity(placement.workloadAffinity, childPath(path, 'workloadAffinity')));
  return errs;
}
