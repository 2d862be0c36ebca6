/**
 * What a function test needs to run a functions/*.ts handler as Lambda would: real local endpoints
 * (dynalite, fauxqs) with the table and every controller queue, the function environment in
 * process.env, a Lambda context, and stdout captured (Powertools JSON logs, EMF).
 */
import type { Context } from 'aws-lambda';
import { createDynamoClient } from '../../lib/adapters/dynamodb/client.ts';
import { ensureTable } from '../../lib/adapters/dynamodb/ensure-table.ts';
import { SqsQueueAdmin } from '../../lib/adapters/sqs/queue-admin.ts';
import { createSqsClient } from '../../lib/adapters/sqs/transport.ts';
import { runtimeEnvironment } from '../../lib/config/runtime.ts';
import { CONTROLLER_SPECS } from '../../lib/controllers/specs.ts';
import { provisionControllerQueues, queueUrlBase } from '../../lib/local/queues.ts';
import { startEmulators } from '../../lib/local/emulators.ts';

export const TEST_TABLE = 'sk-test-objects';
export const TEST_PREFIX = 'sk-test';

export interface FunctionEnvironment {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queueUrlBase: string;
  stop(): Promise<void>;
}

/** Starts the endpoints and sets the function environment; `stop` restores process.env. */
export async function startFunctionEnvironment(extra: { adminSecretId?: string } = {}): Promise<FunctionEnvironment> {
  const saved = { ...process.env };
  const emulators = await startEmulators();
  const { dynamodb, sqs } = emulators.endpoints;
  const ddb = createDynamoClient({ region: 'us-east-1', endpoint: dynamodb });
  await ensureTable(ddb, TEST_TABLE);
  ddb.destroy();
  const client = createSqsClient({ region: 'us-east-1', endpoint: sqs });
  const queues = await provisionControllerQueues(new SqsQueueAdmin(client), TEST_PREFIX, CONTROLLER_SPECS);
  client.destroy();
  const base = queueUrlBase(queues);
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    ...runtimeEnvironment({
      environment: 'test',
      tableName: TEST_TABLE,
      queuePrefix: TEST_PREFIX,
      queueUrlBase: base,
      dynamodbEndpoint: dynamodb,
      sqsEndpoint: sqs,
      reconcileConcurrency: 4,
      metrics: 'emf',
      eventTtlSeconds: 3600,
      logFormat: 'json',
      logLevel: 'INFO',
      ...extra,
    }),
  });
  return {
    dynamodbEndpoint: dynamodb,
    sqsEndpoint: sqs,
    queueUrlBase: base,
    async stop() {
      process.env = saved;
      await emulators.stop();
    },
  };
}

export function lambdaContext(functionName: string): Context {
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: '2026/11/21/[$LATEST]abcdef',
    getRemainingTimeInMillis: () => 60_000,
  } as Context;
}

/** Captures what the function writes to stdout (Powertools JSON logs and EMF) during `fn`. */
export async function captureStdout<T>(fn: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
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
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    };
  } finally {
    process.stdout.write = original;
  }
}
