/**
 * The `api` Lambda: API Gateway HTTP API (payload 2.0) → the Kubernetes REST handler over the
 * DynamoDB store. Built once per cold start; each request is logged (never its credentials) and
 * counted. Watches are not served here (no streaming through API Gateway): the handler answers 405
 * with what to do instead (docs/decisions/0005-api-layer.md).
 */
import { SearchCache } from '../search/cache-store.ts';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Logger } from '../observability/logger.ts';
import { addDocumentProperty, DOCUMENT_PROPERTY, METRIC, type Metrics, MetricUnit } from '../observability/metrics.ts';
import { clusterTimings } from '../config/runtime.ts';
import type { Runtime } from '../wiring/runtime.ts';
import { requestFromApiGateway, responseToApiGateway } from './apigw.ts';
import { type ControlPlaneApi, createControlPlaneApi } from './server.ts';

export type ApiHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** Lambda's response payload limit (6 MB), less room for the envelope; lists must page with `limit`. */
const MAX_RESPONSE_BYTES = 6 * 1024 * 1024 - 16 * 1024;

export function createApiHandler(runtime: Runtime, deps: { logger: Logger; metrics: Metrics }): ApiHandler {
  const api: ControlPlaneApi = createControlPlaneApi({
    store: runtime.store,
    workQueue: runtime.workQueue,
    clock: runtime.clock,
    logger: deps.logger,
    cipher: runtime.cipher,
    searchCache: new SearchCache(runtime.rows),
    leaseDurationSeconds: Math.round(clusterTimings(runtime.config).leaseDurationMs / 1000),
    ...(runtime.config.failover ? { failover: runtime.config.failover } : {}),
  });
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(injectLambdaContext(deps.logger, { resetKeys: true }))
    .use(logMetrics(deps.metrics))
    .handler(async (event) => {
      const started = runtime.clock.now();
      const request = requestFromApiGateway(event);
      let response = await api.handler.handle(request);
      // Lambda counts the whole serialised result, where the body is a JSON string (quotes escaped).
      if (Buffer.byteLength(JSON.stringify(responseToApiGateway(response))) > MAX_RESPONSE_BYTES) {
        response = {
          status: 413,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            reason: 'RequestEntityTooLarge',
            code: 413,
            message:
              'the response is larger than API Gateway carries (6 MB): list with ?limit=500 and follow the continue token (kubectl does by default)',
          }),
        };
      }
      const durationMs = runtime.clock.now() - started;
      deps.logger.info('api request', {
        method: request.method,
        path: request.path,
        query: request.query.toString(),
        status: response.status,
        durationMs,
        userAgent: request.headers['user-agent'],
      });
      addDocumentProperty(deps.metrics, DOCUMENT_PROPERTY.apiRequests, 1);
      deps.metrics.addMetric(METRIC.apiLatency, MetricUnit.Milliseconds, durationMs);
      return responseToApiGateway(response);
    });
}
