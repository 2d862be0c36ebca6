/**
 * ResourceInterpreterCustomization admission, as Karmada v1.15's
 * `pkg/webhook/resourceinterpretercustomization` does it, minus the Lua compile check (scripts are
 * never loaded here): a customization for the same target as another may not define an operation
 * the other already defines (dependency interpretation excepted, which may have several).
 */
import type { KubeObject } from '../../api/object.ts';
import { type FieldError, fieldError } from '../../kube/base/field-errors.ts';
import { record, text } from './shape.ts';

/** Each customization field and the interpreter operation it implements, in Karmada's rule order. */
export const INTERPRETER_OPERATIONS: readonly (readonly [field: string, operation: string])[] = [
  ['retention', 'Retain'],
  ['replicaResource', 'InterpretReplica'],
  ['componentResource', 'InterpretComponent'],
  ['replicaRevision', 'ReviseReplica'],
  ['statusReflection', 'InterpretStatus'],
  ['statusAggregation', 'AggregateStatus'],
  ['healthInterpretation', 'InterpretHealth'],
  ['dependencyInterpretation', 'InterpretDependency'],
];

function script(obj: KubeObject, field: string): string {
  return text(record(record(record(obj.spec)?.customizations)?.[field])?.luaScript);
}

function target(obj: KubeObject): string {
  const t = record(record(obj.spec)?.target);
  return `${text(t?.apiVersion)}\n${text(t?.kind)}`;
}

/**
 * The conflict check against the other customizations in the system (`existing` may include `obj`
 * itself, skipped by name). Reports the first conflict, as Karmada does, on the customization field.
 */
export function validateResourceInterpreterCustomizationConflicts(
  obj: KubeObject,
  existing: readonly KubeObject[],
): FieldError[] {
  for (const other of existing) {
    if (other.metadata?.name === obj.metadata?.name || target(other) !== target(obj)) continue;
    for (const [field, operation] of INTERPRETER_OPERATIONS) {
      if (operation === 'InterpretDependency') continue;
      if (script(other, field) !== '' && script(obj, field) !== '') {
        return [
          fieldError.forbidden(
            `spec.customizations.${field}`,
            `conflicting with InterpreterOperation(${operation}) of existing ResourceInterpreterCustomization(${other.metadata?.name ?? ''})`,
          ),
        ];
      }
    }
  }
  return [];
}

/**
 * Validates a ResourceInterpreterCustomization. Without `existing` there is nothing Karmada checks
 * per object short of compiling the Lua (an empty script just leaves the operation undefined).
 */
export function validateResourceInterpreterCustomization(
  obj: KubeObject,
  _old: KubeObject | undefined,
  existing: readonly KubeObject[] = [],
): FieldError[] {
  return validateResourceInterpreterCustomizationConflicts(obj, existing);
}
