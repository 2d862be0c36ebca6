/**
 * functions/api.ts and the bootstrap custom resource as Lambda runs them: real-shaped API Gateway
 * and CloudFormation events, real local endpoints (dynalite, fauxqs), Powertools logs on stdout.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { ResourceNotFoundException } from '@aws-sdk/client-secrets-manager';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  CloudFormationCustomResourceEvent,
} from 'aws-lambda';
import { parse } from 'yaml';
import { SecretsManagerSecret } from '../../../lib/adapters/secrets-manager/secret.ts';
import { issueAdminToken } from '../../../lib/apiserver/server.ts';
import { type CfnResponse, createBootstrapHandler } from '../../../lib/apiserver/bootstrap-resource.ts';
import type { SecretPort } from '../../../lib/apiserver/bootstrap.ts';
import { TokenAuthenticator } from '../../../lib/apiserver/auth.ts';
import { createSqsClient } from '../../../lib/adapters/sqs/transport.ts';
import { loadRuntimeConfig } from '../../../lib/config/runtime.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import type { Runtime } from '../../../lib/wiring/runtime.ts';
import { wireRuntime } from '../../../lib/wiring/wire.ts';
import {
  captureStdout,
  type FunctionEnvironment,
  lambdaContext,
  startFunctionEnvironment,
} from '../../support/lambda-env.ts';

const load = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../../../events/${name}`, import.meta.url), 'utf8')) as T;

let env: FunctionEnvironment;
let runtime: Runtime;
let token: string;

before(async () => {
  env = await startFunctionEnvironment();
  runtime = wireRuntime(loadRuntimeConfig());
  token = (await issueAdminToken(runtime.store, 'test')).token;
});
after(async () => {
  runtime.close();
  await env.stop();
});

function withToken(event: APIGatewayProxyEventV2, value: string | undefined): APIGatewayProxyEventV2 {
  const headers = { ...event.headers };
  if (value === undefined) delete headers.authorization;
  else headers.authorization = `Bearer ${value}`;
  return { ...event, headers };
}

describe('functions/api.ts', () => {
  it('creates a namespace from a base64 API Gateway body, logs the request and enqueues the namespace controller', async () => {
    const { handler } = await import('../../../functions/api.ts');
    const event = withToken(load<APIGatewayProxyEventV2>('apigw-http-create-namespace.json'), token);
    const { result, lines } = await captureStdout(
      () => handler(event, lambdaContext('sk-test-api')) as Promise<APIGatewayProxyStructuredResultV2>,
    );
    assert.equal(result.statusCode, 201, String(result.body));
    const created = JSON.parse(String(result.body));
    assert.equal(created.metadata.name, 'team-a');
    assert.equal(created.metadata.managedFields[0].manager, 'kubectl-client-side-apply');
    assert.ok(await runtime.store.get({ group: '', kind: 'Namespace', name: 'team-a' }));

    const log = lines.find((l) => l.message === 'api request');
    assert.ok(log, JSON.stringify(lines));
    assert.equal(log.method, 'POST');
    assert.equal(log.status, 201);
    assert.equal(log.function_request_id, 'c6af9ac6-7b61-11e6-9a41-93e812345678');
    assert.doesNotMatch(JSON.stringify(lines), new RegExp(token.slice(-20)), 'the token never reaches the logs');
    assert.ok(
      lines.some((l) => l._aws !== undefined && l.ApiRequests === 1),
      'an EMF document counts the request',
    );

    const sqs = createSqsClient({ region: 'us-east-1', endpoint: env.sqsEndpoint });
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: `${env.queueUrlBase}sk-test-namespace-priority`,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
      }),
    );
    sqs.destroy();
    assert.ok(
      (received.Messages ?? []).some((m) => JSON.parse(m.Body!).key === 'Namespace/team-a'),
      JSON.stringify(received.Messages),
    );
  });

  it('answers 401 without a token and 405 to a watch, saying what to do instead', async () => {
    const { handler } = await import('../../../functions/api.ts');
    const ctx = lambdaContext('sk-test-api');
    const anonymous = (await handler(
      withToken(load<APIGatewayProxyEventV2>('apigw-http-create-namespace.json'), undefined),
      ctx,
    )) as APIGatewayProxyStructuredResultV2;
    assert.equal(anonymous.statusCode, 401);
    const watch = (await handler(
      withToken(load<APIGatewayProxyEventV2>('apigw-http-watch-deployments.json'), token),
      ctx,
    )) as APIGatewayProxyStructuredResultV2;
    assert.equal(watch.statusCode, 405);
    assert.match(JSON.parse(String(watch.body)).message, /--wait=false/);
  });
});

class MemorySecret implements SecretPort {
  value: string | undefined;
  writes = 0;
  constructor(value?: string) {
    this.value = value;
  }
  async read() {
    return this.value;
  }
  async write(value: string) {
    this.value = value;
    this.writes++;
  }
}

describe('bootstrap custom resource', () => {
  const logger = createLogger({ format: 'json', level: 'SILENT', service: 'bootstrap', write: () => {} });
  const base = load<CloudFormationCustomResourceEvent>('cfn-bootstrap-create.json');
  async function run(event: CloudFormationCustomResourceEvent, secret: SecretPort): Promise<CfnResponse> {
    const sent: CfnResponse[] = [];
    const handler = createBootstrapHandler(() => ({ runtime, logger, secret }), {
      send: async (url, response) => {
        assert.equal(url, event.ResponseURL);
        sent.push(response);
      },
    });
    await handler(event, lambdaContext('sk-test-bootstrap'));
    assert.equal(sent.length, 1, 'exactly one response to CloudFormation');
    return sent[0]!;
  }

  it('creates the default namespaces and writes an admin kubeconfig for the API URL', async () => {
    const secret = new MemorySecret('placeholder generated by Secrets Manager');
    const response = await run(base, secret);
    assert.equal(response.Status, 'SUCCESS', response.Reason);
    assert.equal(response.PhysicalResourceId, 'serverless-karmada-bootstrap');
    const config = parse(secret.value!);
    assert.equal(config.clusters[0].cluster.server, 'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com');
    assert.equal(config.clusters[0].cluster['certificate-authority-data'], undefined, 'a public certificate');
    assert.equal(config['current-context'], 'karmada-test');
    const user = await new TokenAuthenticator(runtime.store, runtime.clock).verify(config.users[0].user.token);
    assert.ok(user?.groups.includes('system:masters'));
    assert.ok(await runtime.store.get({ group: '', kind: 'Namespace', name: 'karmada-system' }));
  });

  it('keeps a working token across deploys and only follows a new API URL', async () => {
    const secret = new MemorySecret();
    await run(base, secret);
    const first = parse(secret.value!).users[0].user.token;
    await run(base, secret);
    assert.equal(secret.writes, 1, 'an unchanged kubeconfig is not rewritten');
    const moved = {
      ...base,
      RequestType: 'Update',
      PhysicalResourceId: 'serverless-karmada-bootstrap',
      OldResourceProperties: base.ResourceProperties,
      ResourceProperties: { ...base.ResourceProperties, ApiUrl: 'https://api.karmada.example.com' },
    } as CloudFormationCustomResourceEvent;
    assert.equal((await run(moved, secret)).Status, 'SUCCESS');
    const config = parse(secret.value!);
    assert.equal(config.users[0].user.token, first);
    assert.equal(config.clusters[0].cluster.server, 'https://api.karmada.example.com');
  });

  it('fails the deploy with a reason (and no credential) on a bad API URL; deletes leave data alone', async () => {
    const secret = new MemorySecret();
    const bad = {
      ...base,
      ResourceProperties: { ...base.ResourceProperties, ApiUrl: 'http://plain' },
    } as CloudFormationCustomResourceEvent;
    const failed = await run(bad, secret);
    assert.equal(failed.Status, 'FAILED');
    assert.match(failed.Reason!, /ApiUrl must be an https:\/\/ URL/);
    assert.equal(secret.value, undefined);
    const deleted = await run(
      {
        ...base,
        RequestType: 'Delete',
        PhysicalResourceId: 'serverless-karmada-bootstrap',
      } as CloudFormationCustomResourceEvent,
      secret,
    );
    assert.equal(deleted.Status, 'SUCCESS');
    assert.equal(secret.writes, 0);
  });
});

describe('bootstrap custom resource failures', () => {
  const base = load<CloudFormationCustomResourceEvent>('cfn-bootstrap-create.json');
  it('answers FAILED with the reason when its configuration is broken, and SUCCESS to a Delete without any', async () => {
    const sent: CfnResponse[] = [];
    const handler = createBootstrapHandler(
      () => {
        throw new Error('SK_ADMIN_SECRET_ID is not set');
      },
      { send: async (_url, r) => void sent.push(r) },
    );
    await handler(base, lambdaContext('sk-test-bootstrap'));
    await handler(
      { ...base, RequestType: 'Delete', PhysicalResourceId: 'x' } as CloudFormationCustomResourceEvent,
      lambdaContext('sk-test-bootstrap'),
    );
    assert.deepEqual(
      sent.map((r) => [r.Status, r.Reason]),
      [
        ['FAILED', 'bootstrap failed: SK_ADMIN_SECRET_ID is not set'],
        ['SUCCESS', undefined],
      ],
    );
  });

  it('answers FAILED before the function would time out, and only once', async () => {
    const sent: CfnResponse[] = [];
    const logger = createLogger({ format: 'json', level: 'SILENT', service: 'bootstrap', write: () => {} });
    const stuck: SecretPort = { read: () => new Promise(() => {}), write: async () => {} };
    const handler = createBootstrapHandler(() => ({ runtime, logger, secret: stuck }), {
      send: async (_url, r) => void sent.push(r),
      safetyMarginMs: 0,
    });
    await handler(base, { ...lambdaContext('sk-test-bootstrap'), getRemainingTimeInMillis: () => 50 });
    assert.deepEqual(
      sent.map((r) => r.Status),
      ['FAILED'],
    );
    assert.match(sent[0]!.Reason!, /timed out/);
  });
});

describe('the Secrets Manager secret adapter', () => {
  it('reads the current value, treats a missing secret as empty, and puts new versions', async () => {
    const calls: { name: string; input: Record<string, unknown> }[] = [];
    let missing = false;
    const client = {
      send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
        calls.push({ name: command.constructor.name, input: command.input });
        if (missing) throw new ResourceNotFoundException({ message: 'not found', $metadata: {} });
        return command.constructor.name === 'GetSecretValueCommand' ? { SecretString: 'kubeconfig' } : {};
      },
    };
    const secret = new SecretsManagerSecret(client as never, 'arn:secret');
    assert.equal(await secret.read(), 'kubeconfig');
    await secret.write('next');
    missing = true;
    assert.equal(await secret.read(), undefined);
    assert.deepEqual(calls.slice(0, 2), [
      { name: 'GetSecretValueCommand', input: { SecretId: 'arn:secret' } },
      { name: 'PutSecretValueCommand', input: { SecretId: 'arn:secret', SecretString: 'next' } },
    ]);
  });
});
