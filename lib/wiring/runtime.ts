/**
 * The runtime's shape: the ports every function and local mode share, built once by
 * `wireRuntime` (wire.ts). Types only, so code that receives a runtime (the API's Lambda handler, the
 * bootstrap resource) can name it without pulling in the AWS SDK adapters that build it.
 */
import type { Clock } from '../clock/clock.ts';
import type { RuntimeConfig } from '../config/runtime.ts';
import type { CredentialCipher } from '../crypto/cipher.ts';
import type { MemberClient, MemberConnection } from '../members/client.ts';
import type { Lane, QueueTransport, WorkQueue } from '../queue/port.ts';
import type { ObjectStore } from '../store/port.ts';
import type { RowStore } from '../store/rows.ts';

/** The ports one process works with, and how to release what backs them. */
export interface Runtime {
  config: RuntimeConfig;
  clock: Clock;
  store: ObjectStore;
  /** The table `store` keeps its objects in: the search cache keeps member objects beside them. */
  rows: RowStore;
  /** Seals and opens member-cluster credentials (KMS in AWS, a key file locally). */
  cipher: CredentialCipher;
  transport: QueueTransport;
  workQueue: WorkQueue;
  /** The URL of a controller's queue. */
  queueUrl(controller: string, lane: Lane): string;
  /**
   * How controllers reach a member from its opened credentials; absent: a cached HTTPS client. The
   * deterministic simulation puts its in-process members here.
   */
  memberClient?: (conn: MemberConnection) => MemberClient;
  /** Releases the SDK clients (local mode and tests; a Lambda never calls it). */
  close(): void;
}
