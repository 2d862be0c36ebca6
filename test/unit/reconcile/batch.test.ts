import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { VirtualClock } from '../../../lib/clock/clock.ts';
import { createLogger } from '../../../lib/observability/logger.ts';
import { createMetrics, type EmfDocument } from '../../../lib/observability/metrics.ts';
import type { EnqueueItem } from '../../../lib/queue/port.ts';
import { backoffSeconds, processBatch } from '../../../lib/reconcile/batch.ts';
import type { ReconcileResult } from '../../../lib/reconcile/controller.ts';
import { recordingController } from '../../support/harness.ts';

const sample = JSON.parse(
  readFileSync(new URL('../../../events/sqs-controller-batch.json', import.meta.url), 'utf8'),
) as SQSEvent;

function record(
  key: string,
  overrides: Partial<SQSRecord> & { lane?: 'priority' | 'standard'; body?: string } = {},
): SQSRecord {
  const base = structuredClone(sample.Records[2]!);
  const { lane, body, ...rest } = overrides;
  return {
    ...base,
    messageId: `id-${key}-${Math.random()}`,
    body: body ?? JSON.stringify({ key }),
    messageAttributes: { lane: { ...base.messageAttributes.lane!, stringValue: lane ?? 'priority' } },
    ...rest,
  };
}

function setup(behave?: (key: string, attempt: number) => ReconcileResult | undefined) {
  const clock = new VirtualClock(Date.UTC(2026, 10, 21));
  const enqueued: EnqueueItem[] = [];
  const visibility: { handle: string; seconds: number }[] = [];
  const emf: EmfDocument[] = [];
  const logs: string[] = [];
  const controller = recordingController('detector', clock, behave);
  const metrics = createMetrics({ service: 'detector', sink: (d) => emf.push(d) });
  const deps = {
    clock,
    workQueue: { enqueue: async (items: readonly EnqueueItem[]) => void enqueued.push(...items) },
    logger: createLogger({ format: 'text', level: 'DEBUG', service: 'detector', write: (l) => logs.push(l) }),
    metrics,
    changeVisibility: async (_arn: string, handle: string, seconds: number) =>
      void visibility.push({ handle, seconds }),
  } as const;
  const run = async (records: SQSRecord[]) => {
    const out = await processBatch(controller, records, deps);
    metrics.publishStoredMetrics();
    return out;
  };
  return { clock, controller, enqueued, visibility, emf, logs, run };
}

type Directive = { Dimensions: string[][]; Metrics: { Name: string }[] };
const directivesOf = (doc: Record<string, unknown>) =>
  (doc._aws as { CloudWatchMetrics: Directive[] }).CloudWatchMetrics;
const metricsOf = (doc: Record<string, unknown>) =>
  directivesOf(doc)
    .flatMap((d) => d.Metrics.map((m) => m.Name))
    .sort();
const dimensionSetsOf = (doc: Record<string, unknown>) => directivesOf(doc).flatMap((d) => d.Dimensions);

describe('processBatch', () => {
  it('reconciles each key once per batch, folding duplicates (the sample event: 2 messages for nginx, 1 for app-config)', async () => {
    const s = setup();
    const out = await s.run(sample.Records);
    assert.deepEqual(out.batchItemFailures, []);
    assert.deepEqual(
      s.controller.calls.map((c) => [c.key, c.lane, c.reasons]),
      [
        ['Deployment.apps/default/nginx', 'priority', ['api-write', 'policy-change']],
        ['ConfigMap/default/app-config', 'priority', ['api-write']],
      ],
    );
    const doc = s.emf[0] as unknown as Record<string, unknown>;
    assert.equal(doc.MessagesReceived, 3);
    assert.equal(doc.DuplicateMessages, 1);
    assert.equal(doc.Reconciles, 2);
    assert.equal(doc.ReconcileErrors, undefined, 'no errors: nothing published');
    assert.equal(doc.controller, 'detector');
    assert.equal(doc.queue, 'priority');
    assert.deepEqual(metricsOf(doc), ['DuplicateMessages', 'ReconcileLatency']);
    assert.deepEqual(dimensionSetsOf(doc), [['service', 'controller']]);
  });

  it('publishes one metric per controller for a quiet batch: the latency (its SampleCount counts the reconciles); the lane and sizes are properties, not metrics', async () => {
    const s = setup();
    await s.run([record('a', { lane: 'standard' }), record('b', { lane: 'standard' })]);
    assert.equal(s.emf.length, 1);
    const doc = s.emf[0] as unknown as Record<string, unknown>;
    assert.deepEqual(metricsOf(doc), ['ReconcileLatency']);
    assert.deepEqual(dimensionSetsOf(doc), [['service', 'controller']]);
    assert.equal((doc.ReconcileLatency as number[]).length, 2);
    assert.equal(doc.MessagesReceived, 2);
    assert.equal(doc.Reconciles, 2);
    assert.equal(doc.queue, 'standard');
    // The next batch's document carries its own sizes, not the previous one's.
    await s.run([record('c', { lane: 'priority' })]);
    const next = s.emf[1] as unknown as Record<string, unknown>;
    assert.equal(next.MessagesReceived, 1);
    assert.equal(next.Reconciles, 1);
    assert.equal(next.queue, 'priority');
  });

  for (const keys of [100, 150, 200])
    it(`keeps controller and queue on every EMF document of a batch of ${keys} keys, and counts them all (Powertools flushes at 100 values)`, async () => {
      const s = setup();
      await s.run(Array.from({ length: keys }, (_, i) => record(`k${i}`, { lane: 'standard' })));
      assert.ok(s.emf.length >= Math.ceil(keys / 100), 'every 100 latencies print a document');
      for (const doc of s.emf as unknown as Record<string, unknown>[]) {
        assert.equal(doc.controller, 'detector');
        assert.equal(doc.queue, 'standard');
        assert.deepEqual(dimensionSetsOf(doc), [['service', 'controller']]);
      }
      const sum = (name: string) =>
        s.emf.reduce((n, d) => n + ((d as unknown as Record<string, number | undefined>)[name] ?? 0), 0);
      assert.equal(sum('MessagesReceived'), keys, 'the batch counted once, on one of its documents');
      assert.equal(sum('Reconciles'), keys);
      const latencies = s.emf.flatMap((d) =>
        ([] as number[]).concat((d as unknown as Record<string, number | number[]>).ReconcileLatency ?? []),
      );
      assert.equal(latencies.length, keys);
    });

  it('a key is priority when any of its messages came from the priority queue', async () => {
    const s = setup();
    await s.run([record('k', { lane: 'standard' }), record('k', { lane: 'priority' })]);
    assert.equal(s.controller.calls[0]?.lane, 'priority');
  });

  it('retries only the failed key, through its most-received message, with exponential backoff', async () => {
    const s = setup((key) => {
      if (key === 'bad') throw new Error('member cluster returned 500');
      return undefined;
    });
    const badOnce = record('bad', {
      attributes: { ...sample.Records[0]!.attributes, ApproximateReceiveCount: '1' },
    });
    const badThrice = record('bad', {
      attributes: { ...sample.Records[0]!.attributes, ApproximateReceiveCount: '3' },
    });
    const out = await s.run([record('good'), badOnce, badThrice, record('other')]);
    assert.deepEqual(out.batchItemFailures, [{ itemIdentifier: badThrice.messageId }]);
    assert.deepEqual(
      s.visibility,
      [{ handle: badThrice.receiptHandle, seconds: 8 }],
      'base 2 s doubled for receives 2 and 3',
    );
    assert.deepEqual(s.controller.calls.map((c) => c.key).sort(), ['bad', 'good', 'other']);
    const errorLine = s.logs.find((l) => l.includes('ERROR'));
    assert.match(errorLine ?? '', /controller=detector key=bad reconcileID=[0-9a-f-]{36}/);
    assert.match(errorLine ?? '', /member cluster returned 500/);
    const doc = s.emf[0] as unknown as Record<string, unknown>;
    assert.equal(doc.ReconcileErrors, 1);
    assert.equal((doc.ReconcileLatency as number[]).length, 3, 'a failed reconcile has a latency too');
  });

  it('counts every key of a batch that could not be opened as an error (each is retried)', async () => {
    const s = setup();
    Object.assign(s.controller, {
      openBatch: async () => {
        throw new Error('cluster snapshot unavailable');
      },
    });
    const records = [record('a'), record('b'), record('b')];
    const out = await s.run(records);
    assert.equal(out.batchItemFailures.length, 2);
    assert.deepEqual(s.controller.calls, []);
    const doc = s.emf[0] as unknown as Record<string, unknown>;
    assert.equal(doc.ReconcileErrors, 2);
    assert.equal(doc.MessagesReceived, 3);
  });

  it('reports an unreadable message as a failure (so it dead-letters) and still processes the rest', async () => {
    const s = setup();
    const bad = record('x', { body: '{oops' });
    const out = await s.run([bad, record('fine')]);
    assert.deepEqual(out.batchItemFailures, [{ itemIdentifier: bad.messageId }]);
    assert.deepEqual(
      s.controller.calls.map((c) => c.key),
      ['fine'],
    );
  });

  it('re-arms a timer that arrived early instead of reconciling it', async () => {
    const s = setup();
    const notBefore = s.clock.now() + 40 * 60_000;
    const out = await s.run([
      record('timer', {
        body: JSON.stringify({ key: 'timer', notBefore, reason: 'eviction' }),
        lane: 'standard',
      }),
    ]);
    assert.deepEqual(out.batchItemFailures, []);
    assert.deepEqual(s.controller.calls, []);
    assert.deepEqual(s.enqueued, [
      { controller: 'detector', lane: 'standard', key: 'timer', delayMs: 40 * 60_000, reason: 'eviction' },
    ]);
  });

  it('enqueues a requeue on the standard lane when a reconcile asks to run again later', async () => {
    const s = setup(() => ({ requeueAfterMs: 5_000 }));
    await s.run([record('k')]);
    assert.deepEqual(s.enqueued, [
      { controller: 'detector', lane: 'standard', key: 'k', delayMs: 5_000, reason: 'requeue' },
    ]);
  });

  it('adds the member cluster to every log line of a Work or Cluster reconcile', async () => {
    const s = setup(() => {
      throw new Error('unreachable member');
    });
    await s.run([
      record('Work.work.karmada.io/karmada-es-member2/nginx-deployment'),
      record('Cluster.cluster.karmada.io/member3'),
    ]);
    const lines = s.logs.filter((l) => l.includes('ERROR'));
    assert.ok(
      lines.some((l) =>
        /controller=detector cluster=member2 key=Work\.work\.karmada\.io\/karmada-es-member2\/nginx-deployment/.test(l),
      ),
    );
    assert.ok(lines.some((l) => /cluster=member3 key=Cluster\.cluster\.karmada\.io\/member3/.test(l)));
  });

  it('computes backoff as base * 2^(receives-1), capped', () => {
    const b = { baseSeconds: 2, maxSeconds: 300 };
    assert.deepEqual(
      [1, 2, 3, 4, 8, 9, 50].map((n) => backoffSeconds(n, b)),
      [2, 4, 8, 16, 256, 300, 300],
    );
  });
});
