/**
 * The bootstrap as a CloudFormation custom resource: on Create and Update (every deploy that
 * changes the API address or the function) it runs {@link bootstrapControlPlane}; on Delete it does
 * nothing (data outlives the stacks). It answers CloudFormation itself through the pre-signed
 * response URL, so no provider framework function is needed. The reason sent on failure names
 * the error, never a credential.
 */
import { request } from 'node:https';
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import type { Logger } from '../observability/logger.ts';
import type { Runtime } from '../wiring.ts';
import { bootstrapControlPlane, type SecretPort } from './bootstrap.ts';

export const BOOTSTRAP_RESOURCE_ID = 'serverless-karmada-bootstrap';

export interface CfnResponse {
  Status: 'SUCCESS' | 'FAILED';
  Reason?: string;
  PhysicalResourceId: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  Data?: Record<string, string>;
}

/** PUTs the response to CloudFormation's pre-signed S3 URL. */
export function sendCfnResponse(url: string, response: CfnResponse): Promise<void> {
  const body = JSON.stringify(response);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', headers: { 'content-type': '', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode && res.statusCode < 300
            ? resolve()
            : reject(new Error(`CloudFormation response upload failed: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export type BootstrapHandler = (event: CloudFormationCustomResourceEvent, context: Context) => Promise<void>;

export function createBootstrapHandler(
  runtime: Runtime,
  deps: { logger: Logger; secret: SecretPort; send?: typeof sendCfnResponse },
): BootstrapHandler {
  const send = deps.send ?? sendCfnResponse;
  return async (event) => {
    const base = {
      PhysicalResourceId: BOOTSTRAP_RESOURCE_ID,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
    };
    try {
      if (event.RequestType !== 'Delete') {
        const apiUrl = String(event.ResourceProperties.ApiUrl ?? '');
        if (!apiUrl.startsWith('https://'))
          throw new Error(`ApiUrl must be an https:// URL, got ${JSON.stringify(apiUrl)}`);
        const result = await bootstrapControlPlane({
          store: runtime.store,
          clock: runtime.clock,
          apiUrl,
          environment: runtime.config.environment,
          secret: deps.secret,
        });
        deps.logger.info('control plane bootstrapped', { ...result, apiUrl });
      }
      await send(event.ResponseURL, { ...base, Status: 'SUCCESS' });
    } catch (err) {
      deps.logger.error('bootstrap failed', { error: err as Error });
      await send(event.ResponseURL, {
        ...base,
        Status: 'FAILED',
        Reason: `bootstrap failed: ${(err as Error).message}`.slice(0, 1000),
      });
    }
  };
}
