/**
 * Expected failures of field management. Apply conflicts are not errors: they are a result value
 * (`{ conflicts }`). These are the requests Kubernetes rejects as malformed before any merge happens.
 */

/** Base class of every field-management failure; `code` and `reason` are what the API server answers. */
export abstract class FieldManagementError extends Error {
  abstract readonly code: number;
  abstract readonly reason: 'BadRequest' | 'InternalError';
}

/**
 * The apply configuration cannot be applied as sent (400 BadRequest): it carries
 * `metadata.managedFields`, names another API version than the request, or holds a keyed list item
 * without its key or twice. `field` is the offending path when one is known (`.spec.ports`).
 */
export class InvalidApplyConfigurationError extends FieldManagementError {
  override readonly name = 'InvalidApplyConfigurationError';
  readonly code = 400;
  readonly reason = 'BadRequest' as const;
  readonly field: string | undefined;
  constructor(message: string, field?: string, options?: ErrorOptions) {
    super(message, options);
    this.field = field;
  }
}

/**
 * A `fieldsV1` document is malformed (not an object tree, or a `k:`/`v:` element that is not JSON).
 * Kubernetes reports these as decoding failures of `metadata.managedFields`.
 */
export class InvalidFieldsV1Error extends FieldManagementError {
  override readonly name = 'InvalidFieldsV1Error';
  readonly code = 500;
  readonly reason = 'InternalError' as const;
  readonly element: string | undefined;
  constructor(message: string, element?: string, options?: ErrorOptions) {
    super(message, options);
    this.element = element;
  }
}
