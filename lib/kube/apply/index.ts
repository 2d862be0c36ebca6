/**
 * Server-side apply and field management (k8s.io/apiserver fieldmanager + structured-merge-diff),
 * as pure functions over plain JSON objects.
 */
export { applyConfiguration, conflictCauses, formatConflicts } from './apply.ts';
export type { ApplyInput, ApplyResult, Conflict } from './apply.ts';
export { FieldManagementError, InvalidApplyConfigurationError, InvalidFieldsV1Error } from './errors.ts';
export {
  EMPTY_FIELD_SET,
  equalFieldSets,
  fieldSetOfPaths,
  fieldSetPaths,
  formatFieldPath,
  fromFieldsV1,
  hasFieldPath,
  toFieldsV1,
} from './field-set.ts';
export type { FieldPath, FieldSet, FieldSetNode, FieldsV1 } from './field-set.ts';
export { FIELD_MANAGER_MAX_LENGTH, defaultManager, validateManager } from './manager-name.ts';
export { MAX_UPDATE_MANAGERS } from './managed-fields.ts';
export type { ManagedFieldsEntry } from './managed-fields.ts';
export { fieldSetOf, recordUpdate } from './ownership.ts';
export type { RecordUpdateInput } from './ownership.ts';
