/**
 * functions/resync.ts as Lambda runs it: environment read at cold start, middy + Powertools around the
 * controller, a real-shaped SQS event, real local endpoints (dynalite, fauxqs).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createDynamoClient } from '../../../lib/adapters/dynamodb/client.ts';
import { ensureTable } from '../../../lib/adapters/dynamodb/ensure-table.ts';
import { createSqsClient } from '../../../lib/adapters/sqs/transport.ts';
import { runtimeEnvironment } from '../../../lib/config/runtime.ts';
import { CONTROLLER_SPECS } from '../../../lib/controllers/specs.ts';
import { provisionControllerQueues, queueUrlBase } from '../../../lib/local/queues.ts';
import { type LocalServer, type LocalSqsServer, startDynalite, startSqsServer } from '../../../lib/local/servers.ts';

const event = JSON.parse(
  readFileSync(new URL('../../../events/sqs-resync-schedule.json', import.meta.url), 'utf8'),
) as SQSEvent;
const context = {
  functionName: 'sk-test-resync',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:sk-test-resync',
  memoryLimitInMB: '512',
  awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
  logGroupName: '/aws/lambda/sk-test-resync',
  logStreamName: '2026/11/21/[$LATEST]abcdef',
  getRemainingTimeInMillis: () => 60_000,
} as Context;

let dynamo: LocalServer;
let sqs: LocalSqsServer;
const saved = { ...process.env };

before(async () => {
  dynamo = await startDynalite();
  sqs = await startSqsServer();
  const ddb = createDynamoClient({ region: 'us-east-1', endpoint: dynamo.endpoint });
  await ensureTable(ddb, 'sk-test-objects');
  ddb.destroy();
  const client = createSqsClient({ region: 'us-east-1', endpoint: sqs.endpoint });
  const queues = await provisionControllerQueues(client, 'sk-test', CONTROLLER_SPECS);
  client.destroy();
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    ...runtimeEnvironment({
      environment: 'test',
      tableName: 'sk-test-objects',
      queuePrefix: 'sk-test',
      queueUrlBase: queueUrlBase(queues),
      dynamodbEndpoint: dynamo.endpoint,
      sqsEndpoint: sqs.endpoint,
      reconcileConcurrency: 4,
      metrics: 'emf',
      eventTtlSeconds: 3600,
      logFormat: 'json',
      logLevel: 'INFO',
    }),
  });
});

after(async () => {
  process.env = saved;
  await sqs.stop();
  await dynamo.stop();
});

/** Captures what the function writes to stdout (Powertools JSON logs and EMF) during `fn`. */
async function captureStdout<T>(fn: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const original = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    const result = await fn();
    return {
      result,
      lines: out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l)),
    };
  } finally {
    process.stdout.write = original;
  }
}

describe('functions/resync.ts', () => {
  it('handles the schedule event: structured JSON log with Lambda context and EMF metrics with the queue of origin', async () => {
    const { handler } = await import('../../../functions/resync.ts');
    const { result, lines } = await captureStdout(() => handler(event, context) as Promise<SQSBatchResponse>);
    assert.deepEqual(result, { batchItemFailures: [] });

    const log = lines.find((l) => l.message === 'resync started');
    assert.ok(log, `no "resync started" log in ${JSON.stringify(lines)}`);
    assert.equal(log.controller, 'resync');
    assert.equal(log.key, '*');
    assert.match(String(log.reconcileID), /^[0-9a-f-]{36}$/);
    assert.equal(log.function_request_id, context.awsRequestId);
    assert.equal(log.environment, 'test');

    const emf = lines.find((l) => l._aws !== undefined) as Record<string, unknown> & {
      _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
    };
    assert.ok(emf, 'an EMF document on stdout');
    assert.equal(emf._aws.CloudWatchMetrics[0]!.Namespace, 'ServerlessKarmada');
    assert.deepEqual(emf._aws.CloudWatchMetrics[0]!.Dimensions, [['service', 'controller', 'queue']]);
    assert.equal(emf.queue, 'standard', 'queue of origin from the event source ARN (the schedule sets no attribute)');
    assert.equal(emf.Reconciles, 1);
  });

  it('fails fast at cold start on a broken environment, naming the setting', async () => {
    const broken = { ...process.env };
    delete process.env.SK_TABLE_NAME;
    try {
      await assert.rejects(import(`../../../functions/resync.ts?cold=${Date.now()}`), /SK_TABLE_NAME: required/);
    } finally {
      process.env = broken;
    }
  });
});
