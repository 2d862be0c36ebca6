/**
 * Keeps queued work across a local restart. The local SQS server holds messages in memory only, so
 * on a clean shutdown (after the pollers have stopped and in-flight batches finished) every message
 * still queued — ready, delayed, or waiting out a retry backoff, dead-letter queues included — is
 * written to `queues.json` with its remaining delay, and sent again at the next start.
 * (Receive counts restart at zero. A crash loses the file's worth of messages; the resync that local
 * mode runs at every start re-enqueues every key, so nothing a controller owns is lost for good.)
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutgoingMessage, QueueTransport } from '../queue/port.ts';
import type { InspectedMessage, QueueInspector } from './servers.ts';
import { MAX_DELAY_SECONDS } from '../queue/messages.ts';

export interface SavedMessage {
  queue: string;
  body: string;
  attributes: Record<string, string>;
  /** Ms until it should be delivered (0 = now). */
  delayMs: number;
}

interface SnapshotFile {
  version: 1;
  savedAt: string;
  messages: SavedMessage[];
}

const FILE = 'queues.json';

function attributesOf(m: InspectedMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.messageAttributes ?? {}))
    if (v.StringValue !== undefined) out[k] = v.StringValue;
  return out;
}

/** Reads every message of `queueNames` from the server (non-destructively). */
export async function snapshotQueues(
  server: QueueInspector,
  queueNames: readonly string[],
  nowMs: number,
): Promise<SavedMessage[]> {
  const out: SavedMessage[] = [];
  for (const queue of queueNames) {
    const contents = await server.inspect(queue);
    if (!contents) continue;
    const save = (m: InspectedMessage, visibleAt: number) =>
      out.push({ queue, body: m.body, attributes: attributesOf(m), delayMs: Math.max(0, visibleAt - nowMs) });
    for (const m of contents.ready) save(m, nowMs);
    for (const m of contents.delayed) save(m, m.delayUntil ?? nowMs);
    for (const f of contents.inflight) save(f.message, f.visibilityDeadline);
  }
  return out;
}

export function writeSnapshot(dataDir: string, messages: readonly SavedMessage[], nowMs: number): void {
  const file = join(dataDir, FILE);
  if (messages.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  const body: SnapshotFile = { version: 1, savedAt: new Date(nowMs).toISOString(), messages: [...messages] };
  writeFileSync(`${file}.tmp`, JSON.stringify(body));
  renameSync(`${file}.tmp`, file);
}

/**
 * Sends saved messages back to their queues (delays over SQS's 15 minutes are shortened to 15; the
 * message bodies carry their own not-before time where it matters). The file stays until `commit()`
 * — called once start-up has succeeded — so a start that fails half-way loses nothing.
 */
export async function restoreSnapshot(
  dataDir: string,
  transport: QueueTransport,
  urlOf: (queueName: string) => string,
): Promise<{ restored: number; commit: () => void }> {
  const file = join(dataDir, FILE);
  if (!existsSync(file)) return { restored: 0, commit: () => {} };
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as SnapshotFile;
  if (snapshot.version !== 1) throw new Error(`${file} has unknown version ${snapshot.version}`);
  const byQueue = new Map<string, OutgoingMessage[]>();
  for (const m of snapshot.messages) {
    // Saved by a version with a dead-letter queue per lane (`<controller>-<lane>-dlq`): the controller's
    // one DLQ now; the message keeps its lane attribute.
    const queue = m.queue.replace(/-(priority|standard)-dlq$/, '-dlq');
    const list = byQueue.get(queue) ?? [];
    list.push({
      body: m.body,
      attributes: m.attributes,
      delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.ceil(m.delayMs / 1000)),
    });
    byQueue.set(queue, list);
  }
  for (const [queue, messages] of byQueue) await transport.send(urlOf(queue), messages);
  return { restored: snapshot.messages.length, commit: () => rmSync(file, { force: true }) };
}
