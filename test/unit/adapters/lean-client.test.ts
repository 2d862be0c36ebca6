import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../../lib/adapters/dynamodb/client.ts';
import { createSqsClient } from '../../../lib/adapters/sqs/transport.ts';
import { LEAN_CLIENT_OPTIONS, leanClient, userAgentPart } from '../../../lib/adapters/lean-client.ts';
import { PRODUCT_VERSION } from '../../../lib/version.ts';

/** An SDK request handler that answers every call with one GetItem result and keeps the requests. */
function answering() {
  const requests: { headers: Record<string, string> }[] = [];
  const body = JSON.stringify({ Item: { pk: { S: 'ns/name' } } });
  return {
    requests,
    handler: {
      handle: async (request: { headers: Record<string, string> }) => {
        requests.push(request);
        return {
          response: {
            statusCode: 200,
            headers: { 'content-type': 'application/x-amz-json-1.0' },
            body: Readable.from([Buffer.from(body)]),
          },
        };
      },
      updateHttpClientConfig() {},
      httpHandlerConfigs: () => ({}),
    },
  };
}

const get = () => new GetItemCommand({ TableName: 't', Key: { pk: { S: 'ns/name' } } });

describe('lean SDK clients', () => {
  it('write each part of the user agent as the SDK does', () => {
    for (const [pair, text] of [
      [['aws-sdk-js', '3.1161.0'], 'aws-sdk-js/3.1161.0'],
      [['os/linux', '6.1.0-fc'], 'os/linux#6.1.0-fc'],
      [['api/DynamoDB', '3.1161.0'], 'api/dynamodb#3.1161.0'],
      [['md/nodejs', '20.20.2'], 'md/nodejs#20.20.2'],
      [['ua', '2.1'], 'ua/2.1'],
      [['lang/js'], 'lang/js'],
      [['app', 'my app(1)'], 'app/my-app-1-'],
    ] as const)
      assert.equal(userAgentPart(pair as unknown as [string, string?]), text);
  });

  it('still call and parse answers, signed, with a user agent naming the SDK and this product', async () => {
    const { requests, handler } = answering();
    const client = leanClient(
      new DynamoDBClient({
        ...LEAN_CLIENT_OPTIONS,
        region: 'us-east-1',
        endpoint: 'http://localhost:1',
        credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
        requestHandler: handler as never,
      }),
    );
    for (let i = 0; i < 3; i++) assert.deepEqual((await client.send(get())).Item, { pk: { S: 'ns/name' } });
    assert.equal(requests.length, 3);
    for (const r of requests) {
      assert.match(r.headers['user-agent']!, /^aws-sdk-js\/\S+ .*api\/dynamodb#\d/);
      assert.ok(r.headers['user-agent']!.endsWith(`serverless-karmada/${PRODUCT_VERSION}`));
      assert.equal(r.headers['x-amz-user-agent'], r.headers['user-agent']);
      assert.match(r.headers.authorization!, /^AWS4-HMAC-SHA256 Credential=a\//);
    }
  });

  it('leave out the logger middleware and replace the per-call user agent, on every client this project builds', () => {
    for (const client of [
      createDynamoClient({ region: 'us-east-1' }),
      createSqsClient({ region: 'us-east-1', endpoint: 'http://localhost:1' }),
    ]) {
      const stack = client.middlewareStack.identify().join('\n');
      assert.doesNotMatch(stack, /loggerMiddleware/);
      assert.match(stack, /getUserAgentMiddleware - build/);
      assert.equal((client.config as { cacheMiddleware?: boolean }).cacheMiddleware, true);
    }
  });
});
