/**
 * HTTP status codes a PATCH can fail with before the patched object reaches validation: 400 for a
 * malformed patch document, 415 for a patch flavour the resource does not accept, 422 for a
 * well-formed patch that cannot apply to the current object.
 */
export type PatchErrorCode = 400 | 415 | 422;

/** Kubernetes' `StatusReason` for each code, so the API layer builds the `Status` without a lookup table. */
export type PatchErrorReason = 'BadRequest' | 'UnsupportedMediaType' | 'Invalid';

const REASONS: Record<PatchErrorCode, PatchErrorReason> = {
  400: 'BadRequest',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
};

/**
 * A PATCH request that cannot be applied. The message names the operation or field that failed and
 * why (e.g. `json patch operation 2 (replace /spec/replicas): the path does not exist`), because the
 * client sees it verbatim in the `Status` the API server returns.
 */
export class PatchError extends Error {
  override readonly name = 'PatchError';
  readonly code: PatchErrorCode;
  readonly reason: PatchErrorReason;
  constructor(code: PatchErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.reason = REASONS[code];
  }
}
