/**
 * What the local stand-ins for AWS services look like from outside, bound to loopback only (neither
 * authenticates): dynalite for DynamoDB, fauxqs for SQS, started in a process of their own by
 * emulators.ts; DynamoDB Local (tests) as a Java process.
 */

/** A running local server. */
export interface LocalServer {
  endpoint: string;
  stop(): Promise<void>;
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

/** A queue's contents from fauxqs's inspection endpoint at `endpoint` (undefined if there is no such queue). */
export async function inspectQueueOver(endpoint: string, queueName: string): Promise<QueueContents | undefined> {
  const res = await fetch(`${endpoint}/_fauxqs/queues/${encodeURIComponent(queueName)}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`inspecting queue ${queueName} failed: HTTP ${res.status}`);
  return ((await res.json()) as { messages: QueueContents }).messages;
}
