import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addDocumentProperty,
  createMetrics,
  type EmfDocument,
  MetricUnit,
  resetDefaultDimensions,
  setStandingProperties,
} from '../../../lib/observability/metrics.ts';

type Doc = Record<string, unknown> & {
  _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
};

describe('EMF document properties', () => {
  it('are members of the document that no metric directive names (logged, not billed as metrics)', () => {
    const docs: EmfDocument[] = [];
    const metrics = createMetrics({ service: 'scheduler', sink: (d) => docs.push(d) });
    resetDefaultDimensions(metrics, { controller: 'scheduler' });
    setStandingProperties(metrics, { queue: 'standard' });
    addDocumentProperty(metrics, 'MessagesReceived', 4);
    metrics.addMetric('ReconcileLatency', MetricUnit.Milliseconds, 12);
    metrics.publishStoredMetrics();
    const doc = docs[0] as unknown as Doc;
    assert.equal(doc.queue, 'standard');
    assert.equal(doc.MessagesReceived, 4);
    assert.deepEqual(
      doc._aws.CloudWatchMetrics.map((d) => [d.Dimensions, d.Metrics.map((m) => m.Name)]),
      [[[['service', 'controller']], ['ReconcileLatency']]],
    );
  });

  it('standing ones stay on every document (an early flush at 100 values included); the others go on the next one only', () => {
    const docs: EmfDocument[] = [];
    const metrics = createMetrics({ service: 'binder', sink: (d) => docs.push(d) });
    setStandingProperties(metrics, { queue: 'priority' });
    addDocumentProperty(metrics, 'MessagesReceived', 150);
    for (let i = 0; i < 150; i++) metrics.addMetric('ReconcileLatency', MetricUnit.Milliseconds, i);
    metrics.publishStoredMetrics();
    assert.equal(docs.length, 2);
    assert.deepEqual(
      docs.map((d) => [(d as unknown as Doc).queue, (d as unknown as Doc).MessagesReceived]),
      [
        ['priority', 150],
        ['priority', undefined],
      ],
    );
  });

  it('a metric or dimension wins over a property of the same name', () => {
    const docs: EmfDocument[] = [];
    const metrics = createMetrics({ service: 'api', sink: (d) => docs.push(d) });
    setStandingProperties(metrics, { service: 'not-this' });
    metrics.addMetric('ApiLatency', MetricUnit.Milliseconds, 3);
    metrics.publishStoredMetrics();
    assert.equal((docs[0] as unknown as Doc).service, 'api');
  });

  it('go to stdout with the metrics when there is no sink (as in Lambda)', () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const metrics = createMetrics({ service: 'executor' });
    setStandingProperties(metrics, { queue: 'standard' });
    addDocumentProperty(metrics, 'Reconciles', 2);
    metrics.addMetric('ReconcileLatency', MetricUnit.Milliseconds, 5);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      metrics.publishStoredMetrics();
      metrics.addMetric('ReconcileLatency', MetricUnit.Milliseconds, 6);
      metrics.publishStoredMetrics();
    } finally {
      process.stdout.write = write;
    }
    const docs = lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Doc);
    assert.equal(docs.length, 2, lines.join(''));
    assert.equal(docs[0]!.queue, 'standard');
    assert.equal(docs[0]!.Reconciles, 2);
    assert.equal(docs[1]!.queue, 'standard');
    assert.equal(docs[1]!.Reconciles, undefined);
  });
});
