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
import type { Runtime } from '../wiring/runtime.ts';
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

export interface BootstrapDependencies {
  runtime: Runtime;
  logger: Logger;
  secret: SecretPort;
}

/**
 * `init` builds the dependencies on first use, inside the handler, so that a broken configuration
 * still answers CloudFormation (FAILED, with the reason) instead of leaving the stack waiting for an
 * hour; a Delete is answered without building anything. If the work has not finished shortly before
 * the function's timeout, FAILED is sent then.
 */
export function createBootstrapHandler(
  init: () => BootstrapDependencies,
  options: { send?: typeof sendCfnResponse; safetyMarginMs?: number } = {},
): BootstrapHandler {
  const send = options.send ?? sendCfnResponse;
  const margin = options.safetyMarginMs ?? 5_000;
  let deps: BootstrapDependencies | undefined;
  return async (event, context) => {
    const base = {
      PhysicalResourceId: BOOTSTRAP_RESOURCE_ID,
      StackId: event.StackId,
      RequestId: event.RequestId,
      LogicalResourceId: event.LogicalResourceId,
    };
    let answered = false;
    const answer = async (response: CfnResponse) => {
      if (answered) return;
      answered = true;
      await send(event.ResponseURL, response);
    };
    const remaining = context.getRemainingTimeInMillis?.() ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(
        () => {
          void answer({ ...base, Status: 'FAILED', Reason: 'bootstrap timed out (see the function logs)' }).then(
            resolve,
            resolve,
          );
        },
        Math.max(0, remaining - margin),
      );
    });
    const work = (async () => {
      try {
        if (event.RequestType !== 'Delete') {
          deps ??= init();
          const apiUrl = String(event.ResourceProperties.ApiUrl ?? '');
          if (!apiUrl.startsWith('https://'))
            throw new Error(`ApiUrl must be an https:// URL, got ${JSON.stringify(apiUrl)}`);
          const result = await bootstrapControlPlane({
            store: deps.runtime.store,
            clock: deps.runtime.clock,
            apiUrl,
            environment: deps.runtime.config.environment,
            secret: deps.secret,
          });
          deps.logger.info('control plane bootstrapped', { ...result, apiUrl });
        }
        await answer({ ...base, Status: 'SUCCESS' });
      } catch (err) {
        deps?.logger.error('bootstrap failed', { error: err as Error });
        // Without dependencies there is no logger yet: stderr reaches CloudWatch Logs all the same.
        if (!deps) console.error('bootstrap failed before it could start:', (err as Error).message);
        await answer({
          ...base,
          Status: 'FAILED',
          Reason: `bootstrap failed: ${(err as Error).message}`.slice(0, 1000),
        });
      }
    })();
    await Promise.race([work, timeout]);
    clearTimeout(timer);
  };
}
