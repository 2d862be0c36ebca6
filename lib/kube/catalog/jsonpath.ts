/**
 * The JSONPath subset Kubernetes printer columns and field selectors use: `.a.b`, `['a.b']`, `[0]`,
 * `[*]`, and filters `[?(@.type=="Ready")]` (with `==` / `!=` against a string or number).
 */

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'filter'; path: string[]; op: '==' | '!='; value: unknown };

export class JsonPathError extends Error {
  override readonly name = 'JsonPathError';
}

export function parseJsonPath(expression: string): Step[] {
  let text = expression.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  if (text.startsWith('$')) text = text.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      let j = i + 1;
      while (j < text.length && text[j] !== '.' && text[j] !== '[') j++;
      const name = text.slice(i + 1, j);
      if (name === '*') steps.push({ kind: 'wildcard' });
      else if (name) steps.push({ kind: 'field', name });
      i = j;
    } else if (c === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) throw new JsonPathError(`unclosed [ in ${JSON.stringify(expression)}`);
      const inner = text.slice(i + 1, end).trim();
      if (inner === '*') steps.push({ kind: 'wildcard' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^['"].*['"]$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const m = /^\?\(@((?:\.[^.=!\s]+)+)\s*(==|!=)\s*(.+)\)$/.exec(inner);
        if (!m) throw new JsonPathError(`unsupported JSONPath segment [${inner}] in ${JSON.stringify(expression)}`);
        const raw = m[3]!.trim();
        let value: unknown;
        if (/^["'].*["']$/.test(raw)) value = raw.slice(1, -1);
        else if (raw === 'true' || raw === 'false') value = raw === 'true';
        else if (!Number.isNaN(Number(raw))) value = Number(raw);
        else throw new JsonPathError(`unsupported filter value ${raw} in ${JSON.stringify(expression)}`);
        steps.push({ kind: 'filter', path: m[1]!.slice(1).split('.'), op: m[2] as '==' | '!=', value });
      }
      i = end + 1;
    } else {
      throw new JsonPathError(`unexpected ${JSON.stringify(c)} at ${i} in ${JSON.stringify(expression)}`);
    }
  }
  return steps;
}

function get(value: unknown, path: string[]): unknown {
  let cur = value;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** Every value the expression selects in `root`, in document order. */
export function evaluateJsonPath(root: unknown, expression: string | Step[]): unknown[] {
  const steps = typeof expression === 'string' ? parseJsonPath(expression) : expression;
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === null || v === undefined) continue;
      switch (step.kind) {
        case 'field':
          if (typeof v === 'object' && !Array.isArray(v) && step.name in (v as object)) {
            next.push((v as Record<string, unknown>)[step.name]);
          }
          break;
        case 'index':
          if (Array.isArray(v)) {
            const idx = step.index < 0 ? v.length + step.index : step.index;
            if (idx >= 0 && idx < v.length) next.push(v[idx]);
          }
          break;
        case 'wildcard':
          if (Array.isArray(v)) next.push(...v);
          else if (typeof v === 'object') next.push(...Object.values(v as object));
          break;
        case 'filter':
          if (Array.isArray(v)) {
            for (const item of v) {
              const equal = get(item, step.path) === step.value;
              if (step.op === '==' ? equal : !equal) next.push(item);
            }
          }
          break;
      }
    }
    current = next;
  }
  return current;
}
