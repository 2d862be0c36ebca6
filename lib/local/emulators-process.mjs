// The local stand-ins for DynamoDB (dynalite) and SQS (fauxqs), in a process of their own
// (lib/local/emulators.ts starts it; docs/decisions/0022-emulators-in-their-own-process.md).
// Plain JavaScript: it needs no TypeScript loader, so it starts in a fraction of a second.
//
// Protocol over the IPC channel: the parent sends nothing to start it (the options are argv[2], JSON);
// this answers { ready: { dynamodb, sqs } } or { failed: { message, code, server } } once (and then
// waits to be killed). The parent
// sends { stop: true } to close both servers; this answers { stopped: true } and exits. Signals from
// the terminal (Ctrl-C reaches the whole process group) are ignored: the parent stops first, reads
// the queues for its snapshot, then stops this. If the parent goes away without a word (killed), the
// IPC channel closes and this exits too, so no orphan keeps the ports.
import { mkdirSync } from 'node:fs';
import dynalite from 'dynalite';
import { buildApp } from 'fauxqs';

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
process.on('disconnect', () => process.exit(0));

/** @type {{ dynamodbPath?: string; dynamodbPort?: number; sqsPort?: number }} */
const options = JSON.parse(process.argv[2] ?? '{}');
const send = (message) => process.send?.(message);

function listenDynalite() {
  if (options.dynamodbPath) mkdirSync(options.dynamodbPath, { recursive: true });
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.dynamodbPath ? { path: options.dynamodbPath } : {}),
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.dynamodbPort ?? 0, '127.0.0.1', () => resolve(server));
  });
}

let dynamo;
let sqs;
let server = 'dynamodb';
try {
  dynamo = await listenDynalite();
  server = 'sqs';
  sqs = buildApp({ logger: false });
  const address = await sqs.listen({ port: options.sqsPort ?? 0, host: '127.0.0.1' });
  send({
    ready: {
      dynamodb: `http://127.0.0.1:${dynamo.address().port}`,
      sqs: address.replace('localhost', '127.0.0.1'),
    },
  });
} catch (err) {
  // The parent kills this process once it has the reason (exiting here could reach it first).
  send({ failed: { message: String(err?.message ?? err), code: err?.code, server } });
  dynamo?.close();
}

process.on('message', async (message) => {
  if (!message?.stop) return;
  await sqs?.close();
  await new Promise((resolve) => {
    if (!dynamo) return resolve();
    dynamo.close(() => resolve());
    dynamo.closeAllConnections(); // the clients' keep-alive sockets would hold the close open
  });
  send({ stopped: true });
  process.exit(0);
});
