/**
 * The local stand-ins for AWS services, bound to loopback only (neither authenticates):
 * dynalite for DynamoDB, fauxqs for SQS.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { buildApp } from 'fauxqs';

/** A running local server. */
export interface LocalServer {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts dynalite. With `path`, data lives in a LevelDB directory there and survives restarts;
 * without, it is in memory.
 */
export async function startDynalite(options: { path?: string; port?: number } = {}): Promise<LocalServer> {
  if (options.path) mkdirSync(options.path, { recursive: true });
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.path ? { path: options.path } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve, reject) => server.close((err?: Error) => (err ? reject(err) : resolve()))),
  };
}

/** A message as the SQS server's inspection endpoint reports it. */
export interface InspectedMessage {
  messageId: string;
  body: string;
  messageAttributes: Record<string, { DataType: string; StringValue?: string }>;
  sentTimestamp: number;
  approximateReceiveCount: number;
  delayUntil?: number;
}

/** Every message a queue holds, wherever it is in its life. */
export interface QueueContents {
  ready: InspectedMessage[];
  delayed: InspectedMessage[];
  inflight: { message: InspectedMessage; visibilityDeadline: number }[];
}

/** Reads what a local SQS server holds, without taking it. */
export interface QueueInspector {
  /** Non-destructive view of a queue (undefined if it does not exist). */
  inspect(queueName: string): Promise<QueueContents | undefined>;
}

export interface LocalSqsServer extends LocalServer, QueueInspector {}

/** Starts fauxqs, an SQS-compatible server, in this process. State is in memory. */
export async function startSqsServer(options: { port?: number } = {}): Promise<LocalSqsServer> {
  const app = buildApp({ logger: false });
  const address = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const endpoint = address.replace('localhost', '127.0.0.1');
  return {
    endpoint,
    stop: () => app.close(),
    inspect: (queueName) => inspectQueueOver(endpoint, queueName),
  };
}

/** A queue's contents from fauxqs's inspection endpoint at `endpoint` (undefined if there is no such queue). */
export async function inspectQueueOver(endpoint: string, queueName: string): Promise<QueueContents | undefined> {
  const res = await fetch(`${endpoint}/_fauxqs/queues/${encodeURIComponent(queueName)}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`inspecting queue ${queueName} failed: HTTP ${res.status}`);
  return ((await res.json()) as { messages: QueueContents }).messages;
}
