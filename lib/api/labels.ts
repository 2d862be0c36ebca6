/**
 * Kubernetes label selectors: the string form (`app=web,tier in (a,b),!canary`, as `kubectl -l` and
 * `?labelSelector=` send it) and the structured `metav1.LabelSelector` (`matchLabels` /
 * `matchExpressions`, as policies carry it). Both compile to the same list of requirements.
 */
import { isQualifiedName, isValidLabelValue } from '../util/validation.ts';

export type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

/** One requirement; a selector matches when every requirement does. */
export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

/** `metav1.LabelSelector`. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** A label selector could not be parsed or is not valid; the message says which part and why. */
export class InvalidSelectorError extends Error {
  override readonly name = 'InvalidSelectorError';
}

/**
 * Why `key` is not a valid label key, or `undefined` when it is: Kubernetes' reasons
 * (`validation.IsQualifiedName`), with the key named after the part each reason is about.
 */
function labelKeyError(key: string): string | undefined {
  const reasons = isQualifiedName(key);
  if (reasons.length === 0) return undefined;
  const quoted = JSON.stringify(key);
  return reasons.map((r) => r.replace(/^(name part|prefix part|a qualified name) /, `$1 of ${quoted} `)).join('; ');
}

const INTEGER = /^[+-]?\d+$/;

function requirement(key: string, operator: Operator, values: string[]): Requirement {
  if (key === 'in' || key === 'notin') {
    throw new InvalidSelectorError(`found '${key}', expected: identifier (a label key before the operator)`);
  }
  const keyError = labelKeyError(key);
  if (keyError) throw new InvalidSelectorError(`invalid label key: ${keyError}`);
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    throw new InvalidSelectorError(`values for ${JSON.stringify(key)} ${operator} must not be empty`);
  }
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
    throw new InvalidSelectorError(`values for ${JSON.stringify(key)} ${operator} must be empty`);
  }
  if (operator === 'Gt' || operator === 'Lt') {
    if (values.length !== 1 || !INTEGER.test(values[0]!) || !fitsInt64(values[0]!)) {
      throw new InvalidSelectorError(`${operator} for ${JSON.stringify(key)} needs exactly one 64-bit integer value`);
    }
  } else {
    for (const v of values) {
      const reasons = isValidLabelValue(v);
      if (reasons.length) {
        throw new InvalidSelectorError(
          `invalid value ${JSON.stringify(v)} for ${JSON.stringify(key)}: ${reasons.join('; ')}`,
        );
      }
    }
  }
  return { key, operator, values: [...values].sort() };
}

function fitsInt64(text: string): boolean {
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const SET_FORM = /^([^\s!=<>(),]+)\s+(in|notin)\s*\(([^()]*)\)$/;
const EQUALITY_FORM = /^([^\s!=<>(),]+)\s*(==|=|!=|>|<)\s*([^\s!=<>(),]*)$/;

/**
 * Parses the string form of a label selector, as `k8s.io/apimachinery/pkg/labels.Parse` does.
 * The empty string selects everything.
 *
 * @example parseSelector('app=web,tier in (a, b),!canary')
 */
export function parseSelector(text: string): Requirement[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  return splitTopLevel(trimmed).map((raw) => {
    const part = raw.trim();
    if (part === '') throw new InvalidSelectorError(`empty requirement in label selector ${JSON.stringify(text)}`);
    let m = SET_FORM.exec(part);
    if (m) {
      const values = m[3]!
        .split(',')
        .map((v) => v.trim())
        .filter((v, _i, all) => v !== '' || all.length > 1);
      return requirement(m[1]!, m[2] === 'in' ? 'In' : 'NotIn', values);
    }
    m = EQUALITY_FORM.exec(part);
    if (m) {
      const op = m[2]!;
      const operator: Operator = op === '!=' ? 'NotIn' : op === '>' ? 'Gt' : op === '<' ? 'Lt' : 'In';
      return requirement(m[1]!, operator, [m[3]!]);
    }
    if (part.startsWith('!')) return requirement(part.slice(1).trim(), 'DoesNotExist', []);
    if (/^[^\s!=<>(),]+$/.test(part)) return requirement(part, 'Exists', []);
    throw new InvalidSelectorError(
      `unable to parse requirement ${JSON.stringify(part)}: expected key, !key, key=value, key!=value, ` +
        'key in (v1,v2) or key notin (v1,v2)',
    );
  });
}

const STRUCTURED_OPERATORS: Record<string, Operator> = {
  In: 'In',
  NotIn: 'NotIn',
  Exists: 'Exists',
  DoesNotExist: 'DoesNotExist',
};

/** Compiles a `metav1.LabelSelector` to requirements (`{}` selects everything). */
export function fromLabelSelector(selector: LabelSelector): Requirement[] {
  const out: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    out.push(requirement(key, 'In', [value]));
  }
  for (const expr of selector.matchExpressions ?? []) {
    const operator = STRUCTURED_OPERATORS[expr.operator];
    if (!operator) {
      throw new InvalidSelectorError(
        `${JSON.stringify(expr.operator)} is not a valid label selector operator: use In, NotIn, Exists or DoesNotExist`,
      );
    }
    out.push(requirement(expr.key, operator, expr.values ?? []));
  }
  return out;
}

/** True when `labels` satisfy every requirement. */
export function matchesRequirements(
  requirements: readonly Requirement[],
  labels: Record<string, string> = {},
): boolean {
  return requirements.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    const value = labels[r.key];
    switch (r.operator) {
      case 'In':
        return has && r.values.includes(value!);
      case 'NotIn':
        return !has || !r.values.includes(value!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
      case 'Gt':
      case 'Lt': {
        // Kubernetes parses both sides as int64; BigInt keeps values past 2^53 exact.
        if (!has || !INTEGER.test(value!) || !fitsInt64(value!)) return false;
        const n = BigInt(value!);
        const bound = BigInt(r.values[0]!);
        return r.operator === 'Gt' ? n > bound : n < bound;
      }
      default:
        return false;
    }
  });
}

/** Formats requirements back to the canonical string form (stable: sorted by key then operator). */
export function formatRequirements(requirements: readonly Requirement[]): string {
  return [...requirements]
    .sort((a, b) => (a.key === b.key ? a.operator.localeCompare(b.operator) : a.key < b.key ? -1 : 1))
    .map((r) => {
      switch (r.operator) {
        case 'In':
          return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(',')})`;
        case 'NotIn':
          return r.values.length === 1 ? `${r.key}!=${r.values[0]}` : `${r.key} notin (${r.values.join(',')})`;
        case 'Exists':
          return r.key;
        case 'DoesNotExist':
          return `!${r.key}`;
        case 'Gt':
          return `${r.key}>${r.values[0]}`;
        default:
          return `${r.key}<${r.values[0]}`;
      }
    })
    .join(',');
}
