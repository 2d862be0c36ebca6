/**
 * Kubernetes field errors (`k8s.io/apimachinery/pkg/util/validation/field`): what an Invalid (422)
 * Status lists, formatted exactly as the API server formats them, so messages read the same as a
 * real cluster's: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
 */

export type FieldErrorType =
  | 'Required'
  | 'Invalid'
  | 'NotSupported'
  | 'Duplicate'
  | 'Forbidden'
  | 'TooLong'
  | 'TooMany'
  | 'NotFound'
  | 'TypeInvalid';

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with list indexes, e.g. `spec.placement.clusterAffinity.clusterNames[0]`. */
  field: string;
  /** The offending value, when the message shows one. */
  value?: unknown;
  /** What is wrong / what is allowed. */
  detail?: string;
  /** For NotSupported: the accepted values. */
  supported?: string[];
}

/** Kubernetes' `StatusCause.reason` for each type (`FieldValueInvalid`, ...). */
export const CAUSE_REASON: Record<FieldErrorType, string> = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Duplicate: 'FieldValueDuplicate',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  NotFound: 'FieldValueNotFound',
  TypeInvalid: 'FieldValueTypeInvalid',
};

const TYPE_TEXT: Record<FieldErrorType, string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Duplicate: 'Duplicate value',
  Forbidden: 'Forbidden',
  TooLong: 'Too long',
  TooMany: 'Too many',
  NotFound: 'Not found',
  TypeInvalid: 'Invalid value',
};

/** Longest value a message shows; a longer one (a 3 MiB body field) is cut, not echoed whole. */
const MAX_VALUE_CHARS = 1024;

function formatValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (value === null || value === undefined) text = 'null';
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}... (${text.length} characters)` : text;
}

/** `field: Type[: value][: detail]`, as `field.Error.Error()` prints. */
export function formatFieldError(e: FieldError): string {
  const parts = [e.field ? `${e.field}: ${TYPE_TEXT[e.type]}` : TYPE_TEXT[e.type]];
  const showsValue =
    e.type === 'Invalid' || e.type === 'NotSupported' || e.type === 'Duplicate' || e.type === 'TypeInvalid';
  if (showsValue && 'value' in e) parts.push(formatValue(e.value));
  if (e.type === 'NotSupported' && e.supported?.length) {
    parts.push(`supported values: ${e.supported.map((s) => JSON.stringify(s)).join(', ')}`);
  } else if (e.detail) {
    parts.push(e.detail);
  }
  return parts.join(': ');
}

/** Helpers in the style of `field.Invalid(path, value, detail)`. */
export const fieldError = {
  required: (field: string, detail?: string): FieldError => ({
    type: 'Required',
    field,
    ...(detail ? { detail } : {}),
  }),
  invalid: (field: string, value: unknown, detail: string): FieldError => ({ type: 'Invalid', field, value, detail }),
  notSupported: (field: string, value: unknown, supported: string[]): FieldError => ({
    type: 'NotSupported',
    field,
    value,
    supported,
  }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: 'Duplicate', field, value }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'Forbidden', field, detail }),
  tooLong: (field: string, detail: string): FieldError => ({ type: 'TooLong', field, detail }),
  tooMany: (field: string, detail: string): FieldError => ({ type: 'TooMany', field, detail }),
};

/** Appends `.key` or `[index]` to a field path. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}
