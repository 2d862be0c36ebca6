/**
 * functions/resync.ts as Lambda runs it: environment read at cold start, middy + Powertools around the
 * controller, a real-shaped SQS event, real local endpoints (dynalite, fauxqs).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  captureStdout,
  type FunctionEnvironment,
  lambdaContext,
  startFunctionEnvironment,
} from '../../support/lambda-env.ts';

const event = JSON.parse(
  readFileSync(new URL('../../../events/sqs-resync-schedule.json', import.meta.url), 'utf8'),
) as SQSEvent;
const context = lambdaContext('sk-test-resync');

let env: FunctionEnvironment;
before(async () => {
  env = await startFunctionEnvironment();
});
after(() => env.stop());

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
    // The lane is a property of the document, not a dimension (docs/decisions/0018-idle-cost.md).
    assert.deepEqual(emf._aws.CloudWatchMetrics[0]!.Dimensions, [['service', 'controller']]);
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
