/**
 * Lambda: the Kubernetes-compatible API behind API Gateway's HTTP API. Wiring only — the logic is
 * lib/apiserver (REST handler over the DynamoDB store).
 */
import { createApiHandler } from '../lib/apiserver/lambda.ts';
import { loadRuntimeConfig } from '../lib/config/runtime.ts';
import { observabilityFor, wireRuntime } from '../lib/wiring/wire.ts';

const runtime = wireRuntime(loadRuntimeConfig());
export const handler = createApiHandler(runtime, observabilityFor('api', runtime.config));
