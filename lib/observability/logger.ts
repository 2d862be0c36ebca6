/**
 * Logging: Powertools' Logger everywhere, printing structured JSON (AWS, and `LOG_FORMAT=json`) or
 * readable text lines (local mode, `LOG_FORMAT=text`) — the equivalent of Karmada's
 * `--logging-format=json|text`. Controllers log through child loggers that carry `controller`,
 * `key`, `reconcileID` and, when known, `cluster`.
 */

import type { LogItem } from '@aws-lambda-powertools/logger';
import { Logger, LogLevelThreshold } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';

export type LogFormat = 'json' | 'text';
export type LogLevelName = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'CRITICAL' | 'SILENT';

export interface LoggerOptions {
  format: LogFormat;
  level: LogLevelName;
  /** Powertools' `service` key: the controller or component name. */
  service: string;
  /** Keys on every line. */
  persistentKeys?: Record<string, string>;
  /**
   * Where lines go. Without it, JSON goes to stdout as in Lambda and text to stderr; local mode
   * passes a stderr writer so logs never mix with a command's own output, tests a capturing one.
   */
  write?: (line: string) => void;
}

/** Keys Powertools adds that a human reading a terminal does not need. */
const TEXT_HIDDEN = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'cold_start',
  'function_arn',
  'function_memory_size',
  'function_name',
  'function_request_id',
  'sampling_rate',
  'xray_trace_id',
  'tenant_id',
  'error',
]);

/** Keys shown first, in this order, when present. */
const TEXT_FIRST = ['controller', 'cluster', 'key', 'reconcileID'];

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** Renders one log record as `HH:MM:SS.mmm LEVEL service message k=v ...`, error and stack below. */
export function formatTextLine(attributes: Record<string, unknown>): string {
  const time = String(attributes.timestamp ?? '').slice(11, 23);
  const level = String(attributes.level ?? '').padEnd(5);
  const keys = [
    ...TEXT_FIRST.filter((k) => attributes[k] !== undefined),
    ...Object.keys(attributes).filter(
      (k) => !TEXT_HIDDEN.has(k) && !TEXT_FIRST.includes(k) && attributes[k] !== undefined,
    ),
  ];
  let line = `${time} ${level} ${attributes.service ?? ''}: ${attributes.message ?? ''}`;
  for (const k of keys) line += ` ${k}=${formatValue(attributes[k])}`;
  const error = attributes.error as { name?: string; message?: string; stack?: string } | undefined;
  if (error) {
    line += ` error=${formatValue(`${error.name ?? 'Error'}: ${error.message ?? ''}`)}`;
    if (error.stack && attributes.level !== 'WARN') {
      line += `\n${String(error.stack).split('\n').slice(1, 6).join('\n')}`;
    }
  }
  return line;
}

/** Powertools' Logger writing each record, as text or JSON, to a given writer. */
class WritingLogger extends Logger {
  readonly #format: LogFormat;
  readonly #write: (line: string) => void;

  constructor(options: ConstructorOptions, format: LogFormat, write: (line: string) => void) {
    super(options);
    this.#format = format;
    this.#write = write;
  }

  protected override printLog(_logLevel: number, log: LogItem): void {
    log.prepareForPrint();
    this.#write(
      this.#format === 'text'
        ? formatTextLine(log.getAttributes())
        : JSON.stringify(log.getAttributes(), this.getJsonReplacer()),
    );
  }

  protected override createLogger(options?: ConstructorOptions): Logger {
    return new WritingLogger(options ?? {}, this.#format, this.#write);
  }
}

/** Writes a line to stderr. */
export const stderrWrite = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** A Powertools Logger in the requested format. */
export function createLogger(options: LoggerOptions): Logger {
  const base: ConstructorOptions = {
    serviceName: options.service,
    logLevel: options.level,
    ...(options.persistentKeys ? { persistentKeys: options.persistentKeys } : {}),
  };
  if (options.format === 'json' && !options.write) return new Logger(base);
  return new WritingLogger(base, options.format, options.write ?? stderrWrite);
}

/** The level of each logging method (`info` → Powertools' INFO threshold). */
const METHOD_LEVELS: Record<string, number> = Object.fromEntries(
  ['trace', 'debug', 'info', 'warn', 'error', 'critical'].map((m) => [
    m,
    LogLevelThreshold[m.toUpperCase() as keyof typeof LogLevelThreshold],
  ]),
);

/**
 * `parent.createChild({ persistentKeys })`, made only when a line is written at an enabled level or
 * when something other than logging or `appendKeys` is asked of it. A Powertools child costs about
 * 80 µs of CPU to build (options merged, environment read, a Console made), once per reconcile — as
 * much as the rest of an executor reconcile — and most reconciles write no line at INFO.
 */
export function deferredChild(parent: Logger, persistentKeys: Record<string, string>): Logger {
  let child: Logger | undefined;
  let appended: Record<string, unknown> | undefined;
  const real = (): Logger => {
    if (!child) {
      child = parent.createChild({ persistentKeys });
      if (appended) child.appendKeys(appended);
    }
    return child;
  };
  const noop = () => {};
  return new Proxy(parent, {
    get(_target, prop) {
      if (!child && prop === 'appendKeys') {
        return (keys: Record<string, unknown>) => {
          appended = { ...appended, ...keys };
        };
      }
      const level = typeof prop === 'string' ? METHOD_LEVELS[prop] : undefined;
      if (!child && level !== undefined && level < parent.level) return noop;
      const logger = real();
      const value = (logger as unknown as Record<string | symbol, unknown>)[prop];
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(logger) : value;
    },
  });
}

export type { Logger };
