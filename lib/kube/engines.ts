/**
 * The patch and field-management engines the REST handler uses (lib/kube/patch, lib/kube/apply),
 * adapted to its ports, with their input errors turned into Kubernetes Status errors.
 */
import {
  applyConfiguration,
  defaultManager,
  formatConflicts,
  InvalidApplyConfigurationError,
  recordUpdate,
} from './apply/index.ts';
import { apiErrors } from './base/errors.ts';
import { applyPatch } from './patch/index.ts';
import type { FieldManager, PatchEngine } from './base/types.ts';

export const patchEngine: PatchEngine = { applyPatch };

export const fieldManager: FieldManager = {
  apply(input) {
    try {
      return applyConfiguration(input);
    } catch (err) {
      if (err instanceof InvalidApplyConfigurationError) throw apiErrors.badRequest(err.message);
      throw err;
    }
  },
  recordUpdate: (input) => recordUpdate({ ...input, operation: 'Update' }),
  defaultManager,
  formatConflicts,
};
