/**
 * Flag parsing for skctl commands: strict (an unknown flag is an error naming the known ones),
 * kubectl-style `--flag value` and `--flag=value`.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { parseDuration } from '../util/duration.ts';

export { parseDuration };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

export function parseFlags(
  command: string,
  args: string[],
  options: FlagSpec,
): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values: values as Record<string, unknown>, positionals };
  } catch (err) {
    const known = Object.keys(options)
      .map((k) => `--${k}`)
      .join(', ');
    throw new UsageError(
      `skctl ${command}: ${(err as Error).message.split('\n')[0]}\n  known flags: ${known}\n  see: skctl ${command} --help`,
    );
  }
}

/** A non-negative integer flag, or the default. */
export function intFlag(
  command: string,
  name: string,
  value: unknown,
  fallback: number | undefined,
): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new UsageError(`skctl ${command}: --${name} must be a port number (0-65535), got ${JSON.stringify(value)}`);
  }
  return n;
}

/** One of `allowed`, or the default. */
export function enumFlag<T extends string>(
  command: string,
  name: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  const v = String(value);
  if (!(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`skctl ${command}: --${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v as T;
}

/** A duration flag in ms, or the default; refuses what is not a duration. */
export function durationFlag(command: string, name: string, value: unknown, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const ms = parseDuration(String(value));
  if (ms === undefined) {
    throw new UsageError(
      `skctl ${command}: --${name} must be a duration such as 500ms, 30s, 5m or 1h0m0s, got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}
