/**
 * Local mode's DynamoDB and SQS stand-ins in their own process: both serve the real adapters, the
 * queues can be read without taking their messages (the stop's snapshot), the terminal's Ctrl-C
 * does not end them before the control plane has read the queues, dynalite's data outlives the
 * process when it has a directory, a port in use fails the start with the port's error, a process
 * that dies or hangs before it is ready fails the start, the process ends with a parent killed without
 * a word, and a process that dies is reported, never waited on.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../../lib/adapters/dynamodb/client.ts';
import { ensureTable } from '../../../lib/adapters/dynamodb/ensure-table.ts';
import { createSqsClient } from '../../../lib/adapters/sqs/transport.ts';
import { EmulatorsCrashedError, type RunningEmulators, startEmulators } from '../../../lib/local/emulators.ts';
import { startLocalRuntime } from '../../../lib/local/runtime.ts';
import { SendMessageCommand, CreateQueueCommand } from '@aws-sdk/client-sqs';
import { eventually } from '../../support/eventually.ts';

const REGION = 'us-east-1';
const started: RunningEmulators[] = [];
const dirs: string[] = [];
after(async () => {
  for (const e of started) await e.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startEmulators>[0] = {}): Promise<RunningEmulators> {
  const e = await startEmulators(options);
  started.push(e);
  return e;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the DynamoDB and SQS emulators in their own process', () => {
  it('serve the adapters, and show a queue’s messages without taking them', async () => {
    const e = await start();
    assert.notEqual(e.pid, process.pid);
    const ddb = createDynamoClient({ region: REGION, endpoint: e.endpoints.dynamodb });
    await ensureTable(ddb, 'emulated');
    assert.deepEqual((await ddb.send(new ListTablesCommand({}))).TableNames, ['emulated']);
    ddb.destroy();
    const sqs = createSqsClient({ region: REGION, endpoint: e.endpoints.sqs });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'held' }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'one', DelaySeconds: 60 }));
    sqs.destroy();
    const contents = await e.inspect('held');
    assert.deepEqual(
      contents?.delayed.map((m) => m.body),
      ['one'],
    );
    assert.equal(await e.inspect('no-such-queue'), undefined);
  });

  it('outlive the terminal’s Ctrl-C (the control plane reads the queues first), and end on stop', async () => {
    const e = await start();
    process.kill(e.pid, 'SIGINT');
    process.kill(e.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(isAlive(e.pid));
    assert.deepEqual(await e.inspect('none'), undefined);
    await e.stop();
    assert.equal(isAlive(e.pid), false);
    await e.stop(); // twice is fine
  });

  it('keep dynalite’s tables in its directory across processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulators-test-'));
    dirs.push(dir);
    const first = await start({ dynamodbPath: join(dir, 'dynamodb') });
    const ddb1 = createDynamoClient({ region: REGION, endpoint: first.endpoints.dynamodb });
    await ensureTable(ddb1, 'kept');
    ddb1.destroy();
    await first.stop();
    const second = await start({ dynamodbPath: join(dir, 'dynamodb') });
    const ddb2 = createDynamoClient({ region: REGION, endpoint: second.endpoints.dynamodb });
    assert.deepEqual((await ddb2.send(new ListTablesCommand({}))).TableNames, ['kept']);
    ddb2.destroy();
  });

  it('fail to start on a port in use, naming the server and carrying the error’s code', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const { port } = taken.address() as AddressInfo;
    try {
      await assert.rejects(startEmulators({ sqsPort: port }), (err: NodeJS.ErrnoException) => {
        assert.equal(err.code, 'EADDRINUSE');
        assert.match(err.message, /the local SQS server did not start/);
        return true;
      });
      await assert.rejects(startEmulators({ dynamodbPort: port }), /the local DynamoDB server did not start/);
    } finally {
      taken.close();
    }
  });

  it('fail the start when the process dies or hangs before it is ready', async () => {
    await assert.rejects(
      startEmulators({ entry: new URL('./fixtures/exits-at-once.mjs', import.meta.url) }),
      (err: Error) => err instanceof EmulatorsCrashedError && /exited \(code 3\) before it was ready/.test(err.message),
    );
    await assert.rejects(
      startEmulators({ entry: new URL('./fixtures/never-ready.mjs', import.meta.url), startTimeoutMs: 500 }),
      (err: Error) => err instanceof EmulatorsCrashedError && /not ready after 0.5 s/.test(err.message),
    );
  });

  it('end with a parent killed without a word (no orphan keeps the ports)', async () => {
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/parent-of-emulators.ts', import.meta.url))],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const pid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (b: Buffer) => resolve(Number(String(b).trim())));
      parent.once('exit', (code) => reject(new Error(`the parent exited first (${code})`)));
    });
    assert.ok(isAlive(pid));
    parent.kill('SIGKILL');
    await eventually('the emulators gone with their parent', async () => !isAlive(pid), 10_000);
  });

  it('take the local control plane down loudly when they die: failed resolves, the stop neither hangs nor throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulators-runtime-'));
    dirs.push(dir);
    const rt = await startLocalRuntime({ dataDir: dir, apiPort: 0, logLevel: 'SILENT' });
    process.kill(rt.emulatorsPid, 'SIGKILL');
    const err = await rt.failed;
    assert.ok(err instanceof EmulatorsCrashedError, String(err));
    // The queues cannot be read for the snapshot any more: stopping goes on without them.
    assert.deepEqual(await rt.stop(), { savedMessages: 0 });
  });

  it('report a process that dies, instead of leaving the control plane waiting on it', async () => {
    const e = await start();
    process.kill(e.pid, 'SIGKILL');
    const err = await e.crashed;
    assert.ok(err instanceof EmulatorsCrashedError);
    assert.match(err.message, /the local DynamoDB and SQS process ended: it exited \(SIGKILL\)/);
    await e.stop(); // nothing left to stop, and no hang
  });
});
