/**
 * Local mode's DynamoDB and SQS stand-ins in a process of their own (emulators-process.mjs), as the
 * services run on other machines in AWS: the control plane's thread then spends itself on the
 * pipeline, and the emulators use the machine's other core
 * (docs/decisions/0022-emulators-in-their-own-process.md).
 *
 * @example
 *   const emulators = await startEmulators({ dynamodbPath: '.skctl/dynamodb' });
 *   emulators.endpoints.dynamodb; // http://127.0.0.1:PORT
 *   await emulators.inspect('sk-local-scheduler-standard');
 *   await emulators.stop();
 */
import { type ChildProcess, fork } from 'node:child_process';
import { inspectQueueOver, type LocalServer, type LocalSqsServer, type QueueInspector } from './servers.ts';

export interface EmulatorOptions {
  /** dynalite keeps its data in a LevelDB directory here (in memory without). */
  dynamodbPath?: string;
  dynamodbPort?: number;
  sqsPort?: number;
  /** The process's entry (default emulators-process.mjs; tests pass one that fails). */
  entry?: URL;
  /** How long the process may take to listen (default 30 s). */
  startTimeoutMs?: number;
}

export interface RunningEmulators extends QueueInspector {
  endpoints: { dynamodb: string; sqs: string };
  /** The process's id. */
  pid: number;
  /** Resolves with the error when the process ends without {@link stop}; never otherwise. */
  crashed: Promise<Error>;
  /** Closes both servers and waits for the process to end. */
  stop(): Promise<void>;
}

/** The emulators' process ended without being asked to: the store and the queues are gone. */
export class EmulatorsCrashedError extends Error {
  override readonly name = 'EmulatorsCrashedError';
  constructor(reason: string) {
    super(`the local DynamoDB and SQS process ended: ${reason}; the control plane cannot go on`);
  }
}

/** How long the process may take to listen (it takes a few hundred milliseconds). */
const START_TIMEOUT_MS = 30_000;

type Reply =
  | { ready: { dynamodb: string; sqs: string } }
  | { failed: { message: string; code?: string; server: 'dynamodb' | 'sqs' } }
  | { stopped: true };

/** Starts dynalite and fauxqs in a child process; resolves once both listen. */
export async function startEmulators(options: EmulatorOptions = {}): Promise<RunningEmulators> {
  const { entry, startTimeoutMs = START_TIMEOUT_MS, ...childOptions } = options;
  const child: ChildProcess = fork(
    entry ?? new URL('./emulators-process.mjs', import.meta.url),
    [JSON.stringify(childOptions)],
    {
      // The parent's flags (`--import tsx`, `--test`, ...) are not the child's.
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let stopping = false;
  let crashed!: (err: Error) => void;
  const crashedPromise = new Promise<Error>((resolve) => (crashed = resolve));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let timeout: NodeJS.Timeout | undefined;
  const endpoints = await new Promise<{ dynamodb: string; sqs: string }>((resolve, reject) => {
    // A start that hangs (a server that never listens) must not hang `skctl up`.
    timeout = setTimeout(
      () => reject(new EmulatorsCrashedError(`it was not ready after ${startTimeoutMs / 1000} s`)),
      startTimeoutMs,
    );
    const onMessage = (reply: Reply) => {
      if ('ready' in reply) resolve(reply.ready);
      else if ('failed' in reply) {
        const err = new Error(
          `the local ${reply.failed.server === 'dynamodb' ? 'DynamoDB' : 'SQS'} server did not start: ${reply.failed.message}`,
        ) as NodeJS.ErrnoException;
        if (reply.failed.code) err.code = reply.failed.code;
        reject(err);
      }
    };
    child.on('message', onMessage);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new EmulatorsCrashedError(`it exited (${signal ?? `code ${code}`}) before it was ready`)),
    );
  })
    .finally(() => clearTimeout(timeout))
    .catch(async (err: unknown) => {
      // A fork that failed (EAGAIN, ENOENT) has no process and never emits 'exit'.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      throw err;
    });

  child.once('exit', (code, signal) => {
    if (!stopping) crashed(new EmulatorsCrashedError(`it exited (${signal ?? `code ${code}`})`));
  });

  return {
    endpoints,
    pid: child.pid!,
    inspect: (queueName) => inspectQueueOver(endpoints.sqs, queueName),
    crashed: crashedPromise,
    async stop() {
      if (stopping) return exited;
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ stop: true });
      // A server that does not close in time is not worth a hung stop.
      const timeout = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}

/** dynalite alone, in memory, for the store adapter's tests (its process runs fauxqs too, unused). */
export async function startDynalite(): Promise<LocalServer> {
  const emulators = await startEmulators();
  return { endpoint: emulators.endpoints.dynamodb, stop: () => emulators.stop() };
}

/** fauxqs alone, for the queue adapter's tests (its process runs dynalite too, unused). */
export async function startSqsServer(): Promise<LocalSqsServer> {
  const emulators = await startEmulators();
  return { endpoint: emulators.endpoints.sqs, stop: () => emulators.stop(), inspect: emulators.inspect };
}
