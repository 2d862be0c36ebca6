import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { restoreSnapshot } from '../../../lib/local/queue-snapshot.ts';
import type { OutgoingMessage, QueueTransport } from '../../../lib/queue/port.ts';

function capturing(): { transport: QueueTransport; sent: Map<string, OutgoingMessage[]> } {
  const sent = new Map<string, OutgoingMessage[]>();
  const transport = {
    send: async (queue: string, messages: readonly OutgoingMessage[]) => {
      sent.set(queue, [...(sent.get(queue) ?? []), ...messages]);
    },
  } as unknown as QueueTransport;
  return { transport, sent };
}

describe('restoring the queues saved at the last stop', () => {
  it('sends a message saved from a per-lane dead-letter queue (earlier versions) to the controller’s one DLQ, lane kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sk-snapshot-'));
    try {
      writeFileSync(
        join(dir, 'queues.json'),
        JSON.stringify({
          version: 1,
          savedAt: '2026-11-26T00:00:00.000Z',
          messages: [
            {
              queue: 'sk-local-binder-priority-dlq',
              body: '{"key":"a"}',
              attributes: { lane: 'priority' },
              delayMs: 0,
            },
            { queue: 'sk-local-binder-standard', body: '{"key":"b"}', attributes: { lane: 'standard' }, delayMs: 0 },
          ],
        }),
      );
      const { transport, sent } = capturing();
      const restore = await restoreSnapshot(dir, transport, (name) => `http://sqs/${name}`);
      assert.equal(restore.restored, 2);
      assert.deepEqual([...sent.keys()].sort(), [
        'http://sqs/sk-local-binder-dlq',
        'http://sqs/sk-local-binder-standard',
      ]);
      assert.deepEqual(sent.get('http://sqs/sk-local-binder-dlq')![0]!.attributes, { lane: 'priority' });
      assert.ok(existsSync(join(dir, 'queues.json')), 'kept until the start succeeds');
      restore.commit();
      assert.ok(!existsSync(join(dir, 'queues.json')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
