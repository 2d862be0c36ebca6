/**
 * Field manager names: the default Kubernetes derives from the User-Agent when a write names none,
 * and the validation of `?fieldManager=` (`ValidatePatchOptions`, `ValidateFieldManager`).
 */
import { fieldError, type FieldError } from '../base/field-errors.ts';
import { UNKNOWN_MANAGER } from './managed-fields.ts';

/** `fieldManager` may be at most this many bytes (UTF-8). */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/**
 * The manager recorded for a write without `?fieldManager=`: the User-Agent up to its first `/`
 * (`kubectl` for `kubectl/v1.32.4 (linux/amd64) kubernetes/…`, `kube-controller-manager` for
 * controllers), without unprintable characters and cut to 128 bytes — `prefixFromUserAgent`.
 * `unknown` when nothing is left, as `buildManagerInfo` names an empty manager.
 */
export function defaultManager(userAgent: string | undefined): string {
  const prefix = (userAgent ?? '').split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const char of prefix) {
    if (!PRINTABLE.test(char)) continue;
    const size = byteLength(char);
    if (bytes + size > FIELD_MANAGER_MAX_LENGTH) break;
    out += char;
    bytes += size;
  }
  return out || UNKNOWN_MANAGER;
}

/**
 * Field errors for a `?fieldManager=` value, worded as the API server words them (the request is
 * then rejected 422 Invalid): required for apply (`fieldManager: Required value: is required for
 * apply patch`), at most 128 bytes, printable characters only (`invalid character U+0007 (at
 * position 3)`, position in bytes). Empty is fine for other writes: the User-Agent names them.
 */
export function validateManager(name: string, options: { apply?: boolean } = {}): FieldError[] {
  const errors: FieldError[] = [];
  if (options.apply && name === '') {
    errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  }
  if (byteLength(name) > FIELD_MANAGER_MAX_LENGTH) {
    errors.push(fieldError.tooLong('fieldManager', `may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes`));
  }
  let position = 0;
  for (const char of name) {
    if (!PRINTABLE.test(char)) {
      const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errors.push(fieldError.invalid('fieldManager', name, `invalid character U+${code} (at position ${position})`));
    }
    position += byteLength(char);
  }
  return errors;
}
