/**
 * The Lambda handler of a controller: middy with Powertools' logger (Lambda context on every line)
 * and metrics (EMF flushed after each invocation) middlewares around {@link processBatch}. The same
 * factory serves AWS (functions/*.ts) and local mode, which differ only in the dependencies passed.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type BatchDependencies, processBatch } from './batch.ts';
import type { Controller } from './controller.ts';

export type ControllerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

export function createControllerHandler(controller: Controller, deps: BatchDependencies): ControllerHandler {
  return middy<SQSEvent, SQSBatchResponse>()
    .use(injectLambdaContext(deps.logger, { resetKeys: true }))
    .use(logMetrics(deps.metrics))
    .handler((event) => processBatch(controller, event.Records, deps));
}
