/**
 * Config validation shared by every entry point (Lambda environment, CDK environments, CLI): one
 * schema per config, every problem reported at once, each with what was expected, so a typo fails at
 * start-up with a message a person can act on.
 */
import type * as z from 'zod/mini';

/** Configuration is missing or wrong. Thrown at start-up (cold start, synth, CLI parse). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: string[];
  constructor(what: string, problems: string[]) {
    super(`invalid ${what}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  values?: unknown[];
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  pattern?: string;
  input?: unknown;
}

/** Edit distance, to suggest the intended key for a typo. */
function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

function describeIssue(issue: Issue, hints: Record<string, string>, known: string[]): string[] {
  const key = issue.path.map(String).join('.');
  const hint = hints[key] ? ` (${hints[key]})` : '';
  switch (issue.code) {
    case 'unrecognized_keys':
      return (issue.keys ?? []).map((k) => {
        const prefix = issue.path.length ? `${issue.path.map(String).join('.')}.` : '';
        const closest = known
          .map((c) => ({ c, d: distance(k.toLowerCase(), c.toLowerCase()) }))
          .sort((x, y) => x.d - y.d)[0];
        const suggestion = closest && closest.d <= 3 ? `; did you mean ${prefix}${closest.c}?` : '';
        return `${prefix}${k}: unknown setting${suggestion}`;
      });
    case 'invalid_value':
      return [`${key}: must be one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}${hint}`];
    case 'invalid_type':
      return [
        issue.input === undefined
          ? `${key}: required${hint}`
          : `${key}: must be a ${issue.expected}, got ${JSON.stringify(issue.input)}${hint}`,
      ];
    case 'too_small':
      return [
        `${key}: must be at least ${issue.minimum}${issue.message !== 'Invalid input' ? ` — ${issue.message}` : ''}${hint}`,
      ];
    case 'too_big':
      return [`${key}: must be at most ${issue.maximum}${hint}`];
    case 'invalid_format': {
      const got = issue.input === undefined ? '' : `, got ${JSON.stringify(issue.input)}`;
      if (issue.message !== 'Invalid input') return [`${key}: ${issue.message}${got}${hint}`];
      if (issue.format === 'regex') return [`${key}: must match ${issue.pattern}${got}${hint}`];
      return [`${key}: must be a valid ${issue.format}${got}${hint}`];
    }
    default:
      return [`${key}: ${issue.message}${hint}`];
  }
}

/**
 * Parses `input` with `schema`, or throws a {@link ConfigError} listing every problem.
 * `hints` explain, per key, what the setting is for.
 */
export function parseConfig<S extends z.ZodMiniType>(
  what: string,
  schema: S,
  input: unknown,
  hints: Record<string, string> = {},
): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data as z.infer<S>;
  const shape = (schema as unknown as { def?: { shape?: Record<string, unknown> } }).def?.shape ?? {};
  const known = Object.keys(shape);
  const issues = (result.error as unknown as { issues: Issue[] }).issues;
  throw new ConfigError(
    what,
    issues.flatMap((i) => describeIssue({ ...i, input: inputAt(input, i.path) }, hints, known)),
  );
}

function inputAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}
