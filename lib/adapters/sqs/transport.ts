/**
 * The SQS {@link QueueTransport}: batches sends and deletes ten at a time, retries the entries SQS
 * reports as failed, and maps messages to and from the port's shape. Queues are identified by URL.
 */
import { localRequestHandler } from '../local-endpoint.ts';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  type MessageAttributeValue,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { OutgoingMessage, QueueTransport, ReceivedMessage, ReceiveOptions } from '../../queue/port.ts';
import { forEachLimited } from '../../util/concurrency.ts';
import { LEAN_CLIENT_OPTIONS, leanClient } from '../lean-client.ts';

const BATCH = 10;
const ENTRY_RETRIES = 3;
/** Batch requests in flight per call: enough to saturate SQS, few enough not to queue on sockets. */
const REQUESTS_IN_FLIGHT = 16;

/** Where to reach SQS. `endpoint` is set for a local server (fauxqs). */
export interface SqsConnection {
  region: string;
  endpoint?: string;
}

export function createSqsClient(connection: SqsConnection): SQSClient {
  return leanClient(
    new SQSClient({
      ...LEAN_CLIENT_OPTIONS,
      region: connection.region,
      maxAttempts: 5,
      ...(connection.endpoint
        ? {
            endpoint: connection.endpoint,
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
            // Local mode long-polls every queue from this one client: past the SDK's 50 sockets, polls and
            // the sends behind them waited for a long poll to end (up to 20 s on a user's change).
            requestHandler: localRequestHandler(),
          }
        : {}),
    }),
  );
}

/** Some entries of a batch could not be sent even after retries. */
export class SendFailedError extends Error {
  override readonly name = 'SendFailedError';
  readonly failures: { code: string; message: string }[];
  constructor(queue: string, failures: { code: string; message: string }[]) {
    super(
      `${failures.length} message(s) could not be sent to ${queue}: ` +
        failures.map((f) => `${f.code}: ${f.message}`).join('; '),
    );
    this.failures = failures;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class SqsTransport implements QueueTransport {
  readonly #client: SQSClient;

  constructor(client: SQSClient) {
    this.#client = client;
  }

  async send(queue: string, messages: readonly OutgoingMessage[]): Promise<void> {
    await forEachLimited(chunks(messages, BATCH), REQUESTS_IN_FLIGHT, (batch) => this.#sendBatch(queue, batch));
  }

  async #sendBatch(queue: string, batch: OutgoingMessage[]): Promise<void> {
    let pending: SendMessageBatchRequestEntry[] = batch.map((m, i) => ({
      Id: String(i),
      MessageBody: m.body,
      ...(m.delaySeconds ? { DelaySeconds: m.delaySeconds } : {}),
      ...(m.attributes && Object.keys(m.attributes).length > 0
        ? {
            MessageAttributes: Object.fromEntries(
              Object.entries(m.attributes).map(([k, v]) => [k, { DataType: 'String', StringValue: v }]),
            ),
          }
        : {}),
    }));
    let failures: { code: string; message: string }[] = [];
    for (let attempt = 0; attempt < ENTRY_RETRIES && pending.length > 0; attempt++) {
      const out = await this.#client.send(new SendMessageBatchCommand({ QueueUrl: queue, Entries: pending }));
      const failed = new Set((out.Failed ?? []).map((f) => f.Id));
      // Sender faults (a malformed message) will not succeed on retry.
      const senderFaults = (out.Failed ?? []).filter((f) => f.SenderFault);
      if (senderFaults.length > 0) {
        throw new SendFailedError(
          queue,
          senderFaults.map((f) => ({ code: f.Code ?? 'Unknown', message: f.Message ?? '' })),
        );
      }
      failures = (out.Failed ?? []).map((f) => ({ code: f.Code ?? 'Unknown', message: f.Message ?? '' }));
      pending = pending.filter((e) => failed.has(e.Id));
    }
    if (pending.length > 0) throw new SendFailedError(queue, failures);
  }

  async receive(queue: string, options: ReceiveOptions): Promise<ReceivedMessage[]> {
    const out = await this.#client.send(
      new ReceiveMessageCommand({
        QueueUrl: queue,
        MaxNumberOfMessages: options.maxMessages,
        WaitTimeSeconds: options.waitTimeSeconds,
        ...(options.visibilityTimeoutSeconds !== undefined
          ? { VisibilityTimeout: options.visibilityTimeoutSeconds }
          : {}),
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
      }),
      options.signal ? { abortSignal: options.signal } : {},
    );
    return (out.Messages ?? []).map((m) => ({
      messageId: m.MessageId ?? '',
      receiptHandle: m.ReceiptHandle ?? '',
      body: m.Body ?? '',
      attributes: stringAttributes(m.MessageAttributes),
      receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? '1'),
      sentTimestamp: Number(m.Attributes?.SentTimestamp ?? '0'),
    }));
  }

  async delete(queue: string, receiptHandles: readonly string[]): Promise<void> {
    await forEachLimited(chunks(receiptHandles, BATCH), REQUESTS_IN_FLIGHT, async (batch) => {
      const out = await this.#client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queue,
          Entries: batch.map((h, i) => ({ Id: String(i), ReceiptHandle: h })),
        }),
      );
      if (out.Failed && out.Failed.length > 0) {
        // An undeleted message is redelivered after its visibility timeout; reconciles are
        // idempotent, so this costs a repeat, not correctness. Still, surface it.
        throw new Error(
          `could not delete ${out.Failed.length} message(s) from ${queue}: ` +
            out.Failed.map((f) => `${f.Code}: ${f.Message}`).join('; '),
        );
      }
    });
  }

  async changeVisibility(queue: string, receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void> {
    await this.#client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queue,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: visibilityTimeoutSeconds,
      }),
    );
  }
}

function stringAttributes(attrs: Record<string, MessageAttributeValue> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs ?? {})) if (v.StringValue !== undefined) out[k] = v.StringValue;
  return out;
}
