/**
 * The field-level helpers Karmada's validation builds on the string rules of lib/util/validation.ts
 * (`metav1validation.ValidateLabelName`/`ValidateLabels`, `apivalidation.ValidateAnnotations`),
 * returning exactly the messages Kubernetes (and so Karmada) returns.
 */
import { type FieldError, fieldError, formatFieldError } from '../../kube/base/field-errors.ts';
import { byteLength, isQualifiedName, isValidLabelValue } from '../../util/validation.ts';

/** `metav1validation.ValidateLabelName`: one Invalid error per reason `name` is not a label key. */
export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** `metav1validation.ValidateLabels`: keys and values of a label map, all reported at `path`. */
export function validateLabels(labels: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    errs.push(...validateLabelName(k, path));
    const value = typeof v === 'string' ? v : '';
    errs.push(...isValidLabelValue(value).map((msg) => fieldError.invalid(path, value, msg)));
  }
  return errs;
}

/** Kubernetes' limit on the total size of an object's annotations (keys plus values). */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

/**
 * `apivalidation.ValidateAnnotations`: keys must be qualified names (case-insensitively) and the
 * map at most 256 KiB.
 */
export function validateAnnotations(annotations: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    errs.push(...isQualifiedName(k.toLowerCase()).map((msg) => fieldError.invalid(path, k, msg)));
    size += byteLength(k) + byteLength(typeof v === 'string' ? v : '');
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
    errs.push(fieldError.tooLong(path, `may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT_BYTES} bytes`));
  }
  return errs;
}

/** `go-openapi/jsonpointer.New`'s error for `pointer`, or undefined when it parses. */
export function jsonPointerError(pointer: string): string | undefined {
  return pointer === '' || pointer.startsWith('/') ? undefined : 'JSON pointer must be empty or start with a "/';
}

/** Appends `[key]` to a path, as `field.Path.Key` does for map keys. */
export function keyPath(path: string, key: string): string {
  return `${path}[${key}]`;
}

/**
 * Drops errors that print identically, keeping the first: `field.ErrorList.ToAggregate`, through
 * which both Karmada's webhooks and the API server's Invalid message pass their errors.
 */
export function uniqueErrors(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const text = formatFieldError(e);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}
