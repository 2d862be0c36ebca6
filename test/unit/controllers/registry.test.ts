import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CONTROLLER_FACTORIES } from '../../../lib/wiring/all-factories.ts';
import { CONTROLLER_SPECS, queueTargets, visibilityTimeoutSeconds } from '../../../lib/controllers/specs.ts';

describe('controller registry', () => {
  for (const spec of CONTROLLER_SPECS) {
    it(`${spec.name}: has a factory, a function entry point, and valid event-source tuning`, () => {
      assert.ok(CONTROLLER_FACTORIES[spec.name], 'lib/wiring/all-factories.ts builds it (local mode)');
      assert.ok(
        existsSync(new URL(`../../../functions/${spec.name}.ts`, import.meta.url)),
        `functions/${spec.name}.ts exists (AWS)`,
      );
      assert.match(spec.name, /^[a-z][a-z0-9-]{0,24}$/, 'usable in queue and function names');
      for (const lane of ['priority', 'standard'] as const) {
        const t = spec.lanes[lane];
        assert.ok(t.maxConcurrency >= 2 && t.maxConcurrency <= 1000, 'Lambda accepts maximum concurrency 2..1000');
        assert.ok(t.batchSize >= 1 && t.batchSize <= 10_000);
        assert.ok(t.batchSize <= 10 || t.maximumBatchingWindowSeconds > 0, 'batches over 10 need a batching window');
      }
      assert.ok(visibilityTimeoutSeconds(spec) <= 43_200, 'SQS visibility timeout is at most 12 h');
      assert.ok(
        spec.lanes.standard.maxConcurrency <= spec.lanes.priority.maxConcurrency,
        'standard never gets more capacity than priority',
      );
      for (const target of queueTargets(spec)) {
        assert.ok(
          CONTROLLER_SPECS.some((s) => s.name === target),
          `sends only to controllers that exist (${target})`,
        );
      }
    });
  }
});
