/**
 * The string rules of `k8s.io/apimachinery/pkg/util/validation` and the field-level helpers built on
 * them (`metav1validation.ValidateLabelName`/`ValidateLabels`, `apivalidation.ValidateAnnotations`),
 * returning exactly the messages Kubernetes (and so Karmada) returns. Lengths are counted in UTF-8
 * bytes, as Go's `len` does.
 */
import { type FieldError, fieldError, formatFieldError } from '../../kube/field-errors.ts';

const QNAME_CHAR = '[A-Za-z0-9]';
const QNAME_EXT_CHAR = '[-A-Za-z0-9_.]';
const QUALIFIED_NAME_FMT = `(${QNAME_CHAR}${QNAME_EXT_CHAR}*)?${QNAME_CHAR}`;
const QUALIFIED_NAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);

const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

/** Go's `len(s)`: the UTF-8 byte length. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** `validation.MaxLenError`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `validation.RegexError`: the message, the examples and the regular expression used. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** `validation.IsDNS1123Subdomain`: the reasons `value` is not a DNS-1123 subdomain (empty when it is). */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN_RE.test(value))
    errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** `validation.IsDNS1123Label`: the reasons `value` is not a DNS-1123 label (empty when it is). */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL_RE.test(value)) {
    // A valid subdomain that is not a valid label (length already checked) must contain dots.
    errs.push(
      DNS1123_SUBDOMAIN_RE.test(value)
        ? 'must not contain dots'
        : regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'),
    );
  }
  return errs;
}

/**
 * `validation.IsQualifiedName`: an optional DNS-subdomain prefix and `/`, then a name of at most 63
 * alphanumerics, `-`, `_` or `.` (label keys, annotation keys, resource names).
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** `validation.IsValidLabelValue`: the reasons `value` is not a label value (empty when it is). */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE_RE.test(value))
    errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

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
