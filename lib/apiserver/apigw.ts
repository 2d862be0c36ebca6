/**
 * API Gateway HTTP API (payload 2.0) ↔ the transport-neutral Kubernetes request/response.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { KubeRequest, KubeResponse } from '../kube/base/http.ts';

export function requestFromApiGateway(event: APIGatewayProxyEventV2): KubeRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(event.headers ?? {})) headers[k.toLowerCase()] = v;
  const body = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  return {
    method: event.requestContext.http.method,
    path: event.rawPath,
    query: new URLSearchParams(event.rawQueryString ?? ''),
    headers,
    body,
  };
}

export function responseToApiGateway(response: KubeResponse): APIGatewayProxyStructuredResultV2 {
  return { statusCode: response.status, headers: response.headers, body: response.body, isBase64Encoded: false };
}
